//===- DataRace.cpp - words two threads touch between the same barriers -===//
#include "divergence/DataRace.h"
#include "divergence/Idioms.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace warplint {
using namespace clang;

using namespace ::warplint::divergence;

namespace {

StringRef calleeNameRef(const CallExpr *C) {
  if (const FunctionDecl *FD = C->getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName();
  return "";
}

std::string calleeName(const CallExpr *C) { return calleeNameRef(C).str(); }

/// The record a member call is made on ("thread_block", "grid_group"), or "".
std::string objectRecord(const CallExpr *C) {
  QualType T;
  if (auto *M = dyn_cast<CXXMemberCallExpr>(C))
    T = M->getImplicitObjectArgument()->getType();
  else if (C->getNumArgs() == 1)
    T = C->getArg(0)->getType();
  if (T.isNull())
    return "";
  if (T->isPointerType())
    T = T->getPointeeType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    if (RD->getIdentifier())
      return RD->getName().str();
  return "";
}

bool isGridGroup(const std::string &R) { return R == "grid_group" || R == "multi_grid_group"; }

bool isGridBarrier(const CallExpr *C) {
  std::string N = calleeName(C);
  return (N == "sync" || N == "synchronize") && isGridGroup(objectRecord(C));
}

} // namespace

bool isBlockBarrier(const CallExpr *C) {
  std::string N = calleeName(C);
  if (N == "__syncthreads" || N == "__syncthreads_count" || N == "__syncthreads_and" ||
      N == "__syncthreads_or" || N == "__barrier_sync")
    return true;
  if (N == "sync" || N == "synchronize") {
    std::string R = objectRecord(C);
    return R == "thread_block" || isGridGroup(R);
  }
  return false;
}

bool isWarpBarrier(const CallExpr *C) {
  std::string N = calleeName(C);
  if (N == "__syncwarp")
    return true;
  if (N == "sync" || N == "synchronize") {
    std::string R = objectRecord(C);
    return R.find("thread_block_tile") != std::string::npos || R == "coalesced_group" ||
           R.find("tiled_partition") != std::string::npos;
  }
  return false;
}

namespace {

/// A form that reads a value loaded from memory (an Opaque unknown): sampling it would
/// guess.
bool readsData(const Sym &S, const std::vector<SymVarInfo> &Vars) {
  std::vector<unsigned> Used;
  collectVars(S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Opaque)
      return true;
  return false;
}


/// Whether a stored value may differ between blocks (for the rule that every block
/// repeating one store with one value is benign). blockIdx does; a parameter does not; a
/// local does when its symbolic form reads blockIdx or it has none; a value read from a
/// `__shared__` object does when a store to that object has a block-dependent address or
/// value (each block fills its own copy: the same stores give the same contents). Anything
/// not known is taken as block-dependent.
class BlockDependence {
public:
  BlockDependence(const ThreadDependence &TD, const std::vector<RaceSite> &Sites)
      : TD(TD), Sites(Sites) {}

  bool of(const Stmt *S, unsigned Depth = 0) {
    if (!S)
      return false;
    if (Depth > 32)
      return true;
    if (auto *E = dyn_cast<Expr>(S))
      if (SymRef V = TD.valueOf(E).S; V && !readsData(*V, TD.vars()))
        return mentionsBlockIdx(V.get(), TD.vars());
    if (auto *DR = dyn_cast<DeclRefExpr>(S)) {
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return false;
      if (VD->getName() == "blockIdx")
        return true;
      if (isa<ParmVarDecl>(VD))
        return false;
      if (VD->hasAttr<CUDASharedAttr>())
        return shared(VD, Depth);
      if (!VD->isLocalVarDecl())
        return false;
      return local(VD, Depth); // a local with no usable form: what is stored to it
    }
    for (const Stmt *C : S->children())
      if (of(C, Depth + 1))
        return true;
    return false;
  }

private:
  /// A local (a float sum, a thread's own array) with no symbolic form: block-dependent
  /// when anything its function stores to it is, or when its address or a writable
  /// reference to it goes to a call (not followed). `float Acc[48]; Acc[K] = In[t + K *
  /// 256]; ... S += Acc[K] * Acc[...]`: the same in every block.
  bool local(const VarDecl *VD, unsigned Depth) {
    auto [It, New] = Memo.try_emplace(VD, false); // false while being decided: a cycle
    if (!New)                                     // adds nothing the other stores do not
      return It->second;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    bool Dependent = !FD || !FD->hasBody();
    if (!Dependent && VD->getInit())
      Dependent = of(VD->getInit(), Depth + 1);
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || Dependent)
        return;
      if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() &&
                                                 writtenLocal(B->getLHS()) == VD)
        Dependent = of(B->getRHS(), Depth + 1); // `+=` adds to what the other stores hold
      if (auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf &&
                                                writtenLocal(U->getSubExpr()) == VD)
        Dependent = true;
      if (auto *C = dyn_cast<CallExpr>(S))
        for (unsigned I = 0; I < C->getNumArgs() && !Dependent; ++I)
          if (const FunctionDecl *Callee = C->getDirectCallee();
              Callee && I < Callee->getNumParams() &&
              Callee->getParamDecl(I)->getType()->isReferenceType() &&
              !Callee->getParamDecl(I)->getType()->getPointeeType().isConstQualified() &&
              writtenLocal(C->getArg(I)) == VD)
            Dependent = true;
      for (const Stmt *Ch : S->children())
        Walk(Ch);
    };
    if (!Dependent)
      Walk(FD->getBody());
    Memo[VD] = Dependent;
    return Dependent;
  }
  static const VarDecl *writtenLocal(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (true) {
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      else if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
        E = M->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    auto *DR = dyn_cast<DeclRefExpr>(E);
    return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  }

  bool shared(const VarDecl *VD, unsigned Depth) {
    auto [It, New] = Memo.try_emplace(VD, true); // true while being decided (a cycle)
    if (!New)
      return It->second;
    bool Dependent = false;
    for (const RaceSite &R : Sites) {
      if (R.Site.ObjectDecl != VD || !R.Site.Store)
        continue;
      if (!R.Site.Offset || mentionsBlockIdx(R.Site.Offset.get(), TD.vars()) || R.Site.Load ||
          !R.Value || of(R.Value, Depth + 1)) {
        Dependent = true; // an update, or a store whose value is not known
        break;
      }
    }
    Memo[VD] = Dependent;
    return Dependent;
  }

  const ThreadDependence &TD;
  const std::vector<RaceSite> &Sites;
  std::map<const VarDecl *, bool> Memo;
};

/// Places each access of the kernel body in its barrier intervals. The walk carries the
/// set of intervals the current position may be in: a barrier starts a new one; a branch
/// joins its arms' sets; a loop's body start and its exit follow both the code before the
/// loop and the end of the body, so they get both sets, while the code before the loop and
/// the code after the body's barrier stay apart (a tree reduction whose barrier opens the
/// loop body: the store before the loop and the reads after that barrier never meet).
class IntervalWalker {
public:
  using Set = llvm::SmallVector<unsigned, 4>;

  /// Skips: the conditional barriers (ConditionalBarrier::If, BarrierInThen) that the
  /// blocks of this layout skip; null for the layout of the blocks that take every one.
  /// Known: the launches' constant arguments (a loop bound they give decides whether the
  /// loop runs a trip). AssumeTrips: every loop whose trip count is the same for the
  /// threads a barrier of its body orders is taken to run at least once (the layout that
  /// tells a race a loop of no trip alone leaves).
  IntervalWalker(std::vector<RaceSite> &Sites, const ThreadDependence &TD, ASTContext &Ctx,
                 const std::map<const IfStmt *, bool> *Skips = nullptr,
                 const KnownValues *Known = nullptr, bool AssumeTrips = false)
      : Sites(Sites), TD(TD), Ctx(Ctx), Skips(Skips), Known(Known), AssumeTrips(AssumeTrips) {
    for (size_t I = 0; I < Sites.size(); ++I)
      SiteOf[Sites[I].Site.Access].push_back(I);
    Raw.resize(Sites.size());
    RawWarp.resize(Sites.size());
    RawGrid.resize(Sites.size());
    Reached.assign(Sites.size(), false);
    Cur = {fresh()};
    CurWarp = {fresh()};
    CurGrid = {fresh()};
  }

  void walk(const Stmt *S) {
    if (!S || Stopped)
      return;
    if (auto *E = dyn_cast<Expr>(S)) {
      auto It = SiteOf.find(E);
      if (It != SiteOf.end())
        for (size_t I : It->second) {
          if (Reached[I])
            continue;
          Reached[I] = true;
          Raw[I] = Cur;
          Sites[I].NotRun = Dead > 0;
          if (Unknowns)
            Sites[I].UnderData = true;
          RawWarp[I] = CurWarp;
          RawGrid[I] = CurGrid;
          Sites[I].Order = Order++;
          for (LoopCtx *L : Loops)
            L->Inside.push_back(I);
        }
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      walk(If->getCond());
      if (auto Skip = Skips ? Skips->find(If) : std::map<const IfStmt *, bool>::const_iterator();
          Skips && Skip != Skips->end()) {
        // A block of this layout skips the barrier: it runs the other arm only, and the
        // interval after the `if` is that arm's (the one before it, with no barrier).
        Set C0 = Cur, W0 = CurWarp, G0 = CurGrid;
        const Stmt *Skipped = Skip->second ? If->getThen() : If->getElse();
        const Stmt *Taken = Skip->second ? If->getElse() : If->getThen();
        ++Dead;
        walk(Skipped);
        --Dead;
        Cur = C0, CurWarp = W0, CurGrid = G0;
        walk(Taken);
        return;
      }
      // A compile-time constant condition (a template argument's test): the arm it rules
      // out never runs, as a skipped barrier's arm.
      if (Expr::EvalResult CR; !If->getConditionVariable() && If->getCond() &&
                               !If->getCond()->isValueDependent() &&
                               If->getCond()->EvaluateAsInt(CR, Ctx)) {
        const bool True = CR.Val.getInt().getBoolValue();
        Set C0 = Cur, W0 = CurWarp, G0 = CurGrid;
        ++Dead;
        walk(True ? If->getElse() : If->getThen());
        --Dead;
        Cur = C0, CurWarp = W0, CurGrid = G0;
        walk(True ? If->getThen() : If->getElse());
        return;
      }
      bool Unknown = unknownCondition(If->getCond());
      Unknowns += Unknown;
      Set C0 = Cur, W0 = CurWarp, G0 = CurGrid;
      unsigned B0 = Barriers, WB0 = WarpBarriers;
      walk(If->getThen());
      Set C1 = Cur, W1 = CurWarp, G1 = CurGrid;
      bool ThenBarrier = Barriers != B0, ThenWarp = WarpBarriers != WB0;
      Cur = C0, CurWarp = W0, CurGrid = G0;
      unsigned B1 = Barriers, WB1 = WarpBarriers;
      walk(If->getElse());
      Unknowns -= Unknown;
      bool ElseBarrier = Barriers != B1, ElseWarp = WarpBarriers != WB1;
      // An arm with a barrier and one without: the threads take one arm together (else
      // the barrier diverges, warplint-barrier-divergence's finding), so the interval
      // after the branch is the barrier arm's. For the blocks that take the barrier's arm:
      // a condition that may differ between blocks or launches is kept (Conditional) for
      // the layouts of the blocks that skip it.
      if (ThenBarrier != ElseBarrier && !Skips && Depth == 0 && !Dead)
        noteConditional(If, ThenBarrier, BarrierCalls[ThenBarrier ? B0 : B1]);
      if (ThenBarrier == ElseBarrier) {
        Cur = join(Cur, C1);
        CurGrid = join(CurGrid, G1);
      } else if (ThenBarrier) {
        Cur = C1, CurGrid = G1;
      }
      if (ThenWarp == ElseWarp && ThenBarrier == ElseBarrier)
        CurWarp = join(CurWarp, W1);
      else if (ThenWarp || ThenBarrier)
        CurWarp = W1;
      return;
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit());
      loop(S, F->getCond(), F->getBody(), F->getInc());
      return;
    }
    if (auto *W = dyn_cast<WhileStmt>(S)) {
      loop(S, W->getCond(), W->getBody(), nullptr);
      return;
    }
    if (auto *D = dyn_cast<DoStmt>(S)) {
      loop(S, D->getCond(), D->getBody(), nullptr);
      return;
    }
    if (auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      walk(R->getRangeStmt());
      loop(S, nullptr, R->getBody(), nullptr);
      return;
    }
    for (const Stmt *C : S->children())
      walk(C);
    if (auto *C = dyn_cast<CallExpr>(S))
      call(C);
    // Inline PTX's warp barrier, `asm("bar.warp.sync %0;" :: "r"(mask))`, is __syncwarp's
    // instruction (xmrig-cuda's RandomX interpreter ends each step with it).
    if (auto *A = dyn_cast<GCCAsmStmt>(S);
        A && asmText(A).find("bar.warp.sync") != std::string::npos)
      warpBarrier();
  }

  void warpBarrier() {
    ++WarpBarriers;
    if (Dead)
      return;
    CurWarp = {fresh()};
    for (LoopCtx *L : Loops)
      L->HasWarp = true;
  }

  /// The final sets of each site.
  void finish() {
    for (size_t I = 0; I < Sites.size(); ++I) {
      if (!Reached[I]) {
        Sites[I].Order = ~0u; // not reached (after the stop, or not in the body)
        continue;
      }
      Sites[I].Intervals.assign(Raw[I].begin(), Raw[I].end());
      Sites[I].WarpIntervals.assign(RawWarp[I].begin(), RawWarp[I].end());
      Sites[I].GridIntervals.assign(RawGrid[I].begin(), RawGrid[I].end());
      Sites[I].Interval = Raw[I].front();
    }
  }

  /// A loop with a barrier of some kind in every trip whose trip count the analysis does
  /// not know to be at least one: the code before it and the code after it meet only when
  /// it runs no trip. Begin/End: the access order numbers at its start and end.
  struct UnprovenLoop {
    const Stmt *Loop;
    unsigned Begin, End;
  };
  std::vector<UnprovenLoop> Unproven;

  bool Stopped = false;
  const CallExpr *StoppedAt = nullptr;
  std::string StoppedCallee;
  /// The kernel body's `if`s with a block barrier in one arm only whose condition reads
  /// no thread index and no value loaded from memory (the layout walk with no Skips).
  std::vector<ConditionalBarrier> Conditional;

private:
  /// Keeps an `if` whose barrier a whole block may skip: its condition's symbolic form
  /// reads only kernel parameters, blockIdx, gridDim, blockDim and constants.
  void noteConditional(const IfStmt *If, bool InThen, const CallExpr *Barrier) {
    SymRef C = TD.valueOf(If->getCond()).S;
    if (!C || mentionsThreadIdx(*C))
      return;
    std::vector<unsigned> Used;
    collectVars(*C, Used);
    for (unsigned V : Used)
      if (V >= TD.vars().size() ||
          (TD.vars()[V].Kind != SymVarInfo::Param && TD.vars()[V].Kind != SymVarInfo::BlockIdx &&
           TD.vars()[V].Kind != SymVarInfo::GridDim))
        return;
    for (const ConditionalBarrier &K : Conditional)
      if (K.If == If)
        return;
    Conditional.push_back({If, Barrier, InThen, C});
  }

  struct LoopCtx {
    const Stmt *S;
    bool HasBarrier = false; ///< a block barrier in the body (or a callee)
    bool HasWarp = false;    ///< a block or warp barrier
    bool HasGrid = false;    ///< a grid barrier
    std::vector<size_t> Inside;
    Set Header[3]; ///< the sets at the loop's start: block, warp, grid
  };

  unsigned fresh() { return Next++; }
  static Set join(const Set &A, const Set &B) {
    Set Out;
    std::set_union(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(Out));
    return Out;
  }

  /// A condition whose value is not known per thread (no symbolic form, or a value
  /// loaded from memory).
  bool unknownCondition(const Expr *Cond) {
    if (!Cond)
      return false;
    // A compile-time constant (a template argument's test, `if (blockSize >= 64)` in
    // astra's reduce1D<N>): known in the instantiation, whatever the model recorded of it.
    Expr::EvalResult R;
    if (!Cond->isValueDependent() && Cond->EvaluateAsInt(R, Ctx))
      return false;
    AbsVal V = TD.valueOf(Cond);
    if (!V.S)
      return true;
    return readsData(*V.S, TD.vars());
  }

  void loop(const Stmt *S, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
    LoopCtx L{S};
    const unsigned BeginOrder = Order;
    bool Unknown = TD.loopVarOf(S) < 0 && TD.iterationVarOf(S) < 0 && Cond &&
                   unknownCondition(Cond);
    Unknowns += Unknown;
    L.Header[0] = Cur, L.Header[1] = CurWarp, L.Header[2] = CurGrid;
    Loops.push_back(&L);
    walk(Cond);
    walk(Body);
    walk(Inc);
    Unknowns -= Unknown;
    Loops.pop_back();
    Set Tail[3] = {Cur, CurWarp, CurGrid};
    int Var = TD.loopVarOf(S);
    int Iter = TD.iterationVarOf(S);
    for (size_t I : L.Inside) {
      RaceSite &R = Sites[I];
      // Before the iteration's first barrier: also after the previous iteration's end.
      bool AtStart = intervalsMeet(Raw[I], L.Header[0]);
      if (L.HasBarrier) {
        if (Var >= 0)
          R.TiedLoops.push_back({Var, !AtStart && intervalsMeet(Raw[I], Tail[0]) ? -1 : 0, S});
      } else {
        if (Var >= 0)
          R.FreeLoops.push_back({Var, S});
        if (Iter >= 0)
          R.FreeLoops.push_back({Iter, S});
        if (Var < 0 && Iter < 0)
          R.FreeLoops.push_back({-1, S});
      }
    }
    const bool Separated[3] = {L.HasBarrier, L.HasWarp, L.HasGrid};
    std::vector<Set> *RawOf[3] = {&Raw, &RawWarp, &RawGrid};
    for (unsigned K = 0; K < 3; ++K) {
      std::vector<Set> &Sets = *RawOf[K];
      const Set &Header = L.Header[K];
      if (!Separated[K] || intervalsMeet(Tail[K], Header)) {
        // No barrier of this kind in the body, or a path through the body that skips it
        // (a barrier only in a nested loop): the start of a trip may follow the code
        // before the loop, and so may the code after it.
        for (size_t I : L.Inside)
          if (intervalsMeet(Sets[I], Header))
            Sets[I] = join(Sets[I], Tail[K]);
        continue;
      }
      // A barrier in every trip: the start of a trip (before its first barrier) follows
      // the code before the loop (trip 0) or the previous trip's end, and the code after
      // the loop follows the code before it (no trip) or the last trip's end; the start of
      // a trip and the code after the loop never share an interval. So the start-of-trip
      // accesses leave the header's intervals for two new ones: one shared with what is
      // in the header's intervals (the code before the loop, and every enclosing loop's
      // start, so that an enclosing loop sees them at its start), one with the body's end.
      std::vector<bool> Start(Sets.size(), false);
      for (size_t I : L.Inside)
        Start[I] = intervalsMeet(Sets[I], Header);
      // One copy per interval id: the header (and the tail) may be a union of intervals
      // that exclude one another (no trip or some trips of an earlier loop), and a single
      // shared id would join them.
      std::map<unsigned, unsigned> Before, End;
      for (unsigned Id : Header)
        Before[Id] = fresh();
      for (unsigned Id : Tail[K])
        End[Id] = fresh();
      auto copies = [](const Set &Of, const std::map<unsigned, unsigned> &Copy) {
        Set Out;
        for (unsigned Id : Of)
          if (auto It = Copy.find(Id); It != Copy.end())
            Out.push_back(It->second);
        llvm::sort(Out);
        return Out;
      };
      Set AllEnd = copies(Tail[K], End);
      for (size_t I = 0; I < Sets.size(); ++I) {
        if (!Reached[I])
          continue;
        if (Start[I]) {
          Set Kept;
          for (unsigned Id : Sets[I])
            if (!llvm::is_contained(Header, Id))
              Kept.push_back(Id);
          Sets[I] = join(join(Kept, copies(Sets[I], Before)), AllEnd);
          continue;
        }
        Sets[I] = join(join(Sets[I], copies(Sets[I], Before)), copies(Sets[I], End));
      }
      for (LoopCtx *Outer : Loops)
        Outer->Header[K] = join(Outer->Header[K], copies(Outer->Header[K], Before));
    }
    // The loop exits at its condition: after the code before it or after a body's end;
    // only after a body's end when it surely runs a trip and a barrier of that kind is
    // in every trip.
    const Trips T = runsATrip(S);
    const bool Once = T == Trips::Yes;
    Set *CurOf[3] = {&Cur, &CurWarp, &CurGrid};
    bool Assumed = false;
    for (unsigned K = 0; K < 3; ++K) {
      const bool Every = Separated[K] && !intervalsMeet(Tail[K], L.Header[K]);
      const bool Open = T == Trips::Unknown && sameTrips(S, Cond, K);
      const bool Trip = Once || (Every && AssumeTrips && Open);
      Assumed |= Every && Open && !Dead && Depth == 0;
      *CurOf[K] = Trip && Every ? Tail[K] : join(L.Header[K], Tail[K]);
    }
    if (Assumed)
      Unproven.push_back({S, BeginOrder, Order});
  }

  /// The loop makes the same number of trips in every thread that a barrier of kind K
  /// (block, warp, grid) orders: its condition (and start) are uniform over the block, or
  /// over the warp for a warp barrier. Only then can "it runs a trip" hold for all of them.
  bool sameTrips(const Stmt *, const Expr *Cond, unsigned K) const {
    if (!Cond)
      return false;
    // The condition's own variance: a counter that holds the thread index may still make
    // uniform trips (`for (; task_id - threadIdx.x < count; task_id += blockDim.x)`, AMGX's
    // seeded BFS).
    const Variance V = TD.varianceOf(Cond);
    return K == 1 ? V <= Variance::WarpUniform : V == Variance::Uniform;
  }

  /// The loop runs its body at least once: a `do`, or a loop whose counter starts at a
  /// value that meets its condition for compile-time values and the constants every launch
  /// of the file passes (`for (int i = 0; i < WIDTH; i++)` with a template's WIDTH of 1 or
  /// more; `i < tiles` launched with tiles = 7), as the analysis' loop forms say. Any other
  /// run-time bound may be 0 and is not sampled: a race that only a loop of no trip leaves
  /// is found, and the layout with AssumeTrips tells it apart (model/Races.cpp makes it a
  /// note that names the loop).
  /// Yes: every launch runs a trip; No: the constants decide that some run none;
  /// Unknown: a run-time value decides.
  enum class Trips { Yes, No, Unknown };
  Trips runsATrip(const Stmt *S) const {
    if (isa<DoStmt>(S))
      return Trips::Yes;
    int Var = TD.loopVarOf(S);
    if (Var < 0)
      return Trips::Unknown;
    const SymVarInfo &L = TD.vars()[Var];
    // Only constants, the counter itself and kernel parameters every launch of the file
    // gives a constant (each launch's values are tried): no thread, block shape or other
    // run-time value.
    std::vector<unsigned> Params;
    std::function<bool(const Sym *)> Fixed = [&](const Sym *X) {
      if (!X)
        return true;
      if (X->Op == SymOp::Var && X->Value != Var) {
        const unsigned V = unsigned(X->Value);
        if (V >= TD.vars().size() || TD.vars()[V].Kind != SymVarInfo::Param || !Known ||
            !Known->count(TD.vars()[V].Name) || Known->at(TD.vars()[V].Name).empty())
          return false;
        if (!llvm::is_contained(Params, V))
          Params.push_back(V);
        return true;
      }
      if (X->Op == SymOp::ThreadIdx || X->Op == SymOp::BlockDim)
        return false;
      return Fixed(X->A.get()) && Fixed(X->B.get()) && Fixed(X->C.get());
    };
    if (!L.Init || !L.Cond || !Fixed(L.Init.get()) || !Fixed(L.Cond.get()))
      return Trips::Unknown;
    // The launches' values, combination by combination (a few hundred at most).
    size_t Combos = 1;
    for (unsigned V : Params)
      Combos *= Known->at(TD.vars()[V].Name).size();
    if (Combos > 256)
      return Trips::Unknown;
    for (size_t C = 0; C < Combos; ++C) {
      Env E;
      E.Vars.assign(TD.vars().size(), std::nullopt);
      size_t Index = C;
      for (unsigned V : Params) {
        const std::vector<int64_t> &Values = Known->at(TD.vars()[V].Name);
        E.Vars[V] = Values[Index % Values.size()];
        Index /= Values.size();
      }
      std::optional<int64_t> Start = evaluate(*L.Init, E);
      if (!Start)
        return Trips::Unknown;
      E.Vars[Var] = *Start;
      std::optional<int64_t> Holds = evaluate(*L.Cond, E);
      if (!Holds)
        return Trips::Unknown;
      if (*Holds == 0)
        return Trips::No;
    }
    return Trips::Yes;
  }

  void call(const CallExpr *C) {
    if (isBlockBarrier(C)) {
      ++Barriers;
      BarrierCalls.push_back(C);
      if (Dead)
        return; // in an arm the blocks of this layout skip
      Cur = {fresh()};
      CurWarp = {fresh()};
      bool Grid = isGridBarrier(C);
      if (Grid)
        CurGrid = {fresh()};
      for (LoopCtx *L : Loops) {
        L->HasBarrier = L->HasWarp = true;
        L->HasGrid |= Grid;
      }
      return;
    }
    if (isWarpBarrier(C)) {
      warpBarrier();
      return;
    }
    const FunctionDecl *FD = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (FD && FD->hasBody(Def) && Def) {
      // A device function of the TU: its barriers count (its accesses are not sites).
      if (Depth < 8 && !Active.count(Def)) {
        Active.insert(Def);
        ++Depth;
        walk(Def->getBody());
        --Depth;
        Active.erase(Def);
      }
      return;
    }
    if (FD && (FD->getBuiltinID() ||
               Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) ||
               FD->getName().starts_with("atomic") || FD->getName().starts_with("__")))
      return; // a builtin, the toolkit's or an intrinsic: no hidden shared accesses
    if (isa<CXXOperatorCallExpr>(C) || isa<CUDAKernelCallExpr>(C))
      return;
    Stopped = true;
    StoppedAt = C;
    if (FD)
      StoppedCallee = FD->getNameAsString();
    else
      StoppedCallee = "a function pointer";
  }

  std::vector<RaceSite> &Sites;
  const ThreadDependence &TD;
  ASTContext &Ctx;
  llvm::DenseMap<const Expr *, llvm::SmallVector<size_t, 2>> SiteOf;
  std::vector<Set> Raw, RawWarp, RawGrid;
  std::vector<bool> Reached;
  Set Cur, CurWarp, CurGrid;
  unsigned Next = 0, Order = 0;
  unsigned Barriers = 0, WarpBarriers = 0, Unknowns = 0;
  const std::map<const IfStmt *, bool> *Skips = nullptr;
  const KnownValues *Known = nullptr;
  bool AssumeTrips = false;
  unsigned Dead = 0;                          ///< inside an arm the blocks of this layout skip
  std::vector<const CallExpr *> BarrierCalls; ///< every block barrier walked, in order
  std::vector<LoopCtx *> Loops;
  std::set<const FunctionDecl *> Active;
  unsigned Depth = 0;
};

/// The stored value of a plain store (`s[i] = v`): v.
/// What P stores to Access when P is the assignment to it: `a = v`, or a class's
/// `operator=` (`h = v` of a `__half`, ginkgo's batch solvers); Up when P is only
/// parentheses around Access (look at its parent).
const Expr *assignmentTo(const Expr *P, const Expr *Access, bool &Up) {
  Up = false;
  if (auto *B = dyn_cast<BinaryOperator>(P))
    return B->getOpcode() == BO_Assign && B->getLHS()->IgnoreParens() == Access ? B->getRHS()
                                                                               : nullptr;
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(P))
    return OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
                   OC->getArg(0)->IgnoreParenImpCasts() == Access
               ? OC->getArg(1)
               : nullptr;
  Up = isa<ParenExpr, ImplicitCastExpr>(P);
  return nullptr;
}

const Expr *storedValue(const Expr *Access, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Access);
  while (!Parents.empty()) {
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return nullptr;
    bool Up;
    if (const Expr *V = assignmentTo(P, Access, Up); V || !Up)
      return V;
    Access = P;
    Parents = Ctx.getParents(*P);
  }
  return nullptr;
}

/// A local declared without a value (or with a trivial default construction) and named
/// nowhere else in its function, read whole: each thread's own indeterminate bytes
/// (`pair_t fresh; pairs[42] = fresh;`, GPUVerify's memcpy/fail_arrayofstruct). One named
/// elsewhere may be assigned first (btree's `uint32_t root_id; ... root_id =
/// __shfl_sync(...)`).
bool isIndeterminateLocal(const Expr *Value) {
  auto *DR = dyn_cast<DeclRefExpr>(Value->IgnoreImplicit());
  auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
    return false;
  const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
  if (VD->getInit() &&
      !(Ctor && Ctor->getNumArgs() == 0 && Ctor->getConstructor()->isTrivial()))
    return false;
  unsigned Uses = 0;
  std::function<void(const Stmt *)> Count = [&](const Stmt *S) {
    if (!S || Uses > 1)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == VD)
      ++Uses;
    for (const Stmt *C : S->children())
      Count(C);
  };
  if (auto *Fn = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()))
    Count(Fn->getBody());
  return Uses == 1;
}

/// storedValue for the accesses of one function body, from one walk of it that records
/// each statement's parent there; the TU-wide parent map (getParents) is built only for an
/// access found elsewhere. Over the whole TU that map read every header's declarations back
/// from a language server's precompiled preamble: an edit's analysis of llm.c's
/// layernorm_forward.cu spent 58% of its time building it for three struct copies
/// (`s_in[c / x128::size] = in_data`, an operator call, not an assignment operator).
class StoredValues {
public:
  explicit StoredValues(const Stmt *Body) { walk(Body); }
  const Expr *of(const Expr *Access, ASTContext &Ctx) const {
    auto It = ParentOf.find(Access);
    if (It == ParentOf.end())
      return storedValue(Access, Ctx);
    // storedValue's walk up, over the parents recorded here.
    for (;;) {
      const auto *P = dyn_cast<Expr>(It->second);
      if (!P)
        return nullptr;
      bool Up;
      if (const Expr *V = assignmentTo(P, Access, Up); V || !Up)
        return V;
      Access = P;
      It = ParentOf.find(P);
      if (It == ParentOf.end())
        return nullptr;
    }
  }

private:
  void walk(const Stmt *S) {
    if (!S)
      return;
    for (const Stmt *C : S->children())
      if (C) {
        ParentOf.try_emplace(C, S);
        walk(C);
      }
  }
  llvm::DenseMap<const Stmt *, const Stmt *> ParentOf;
};

/// A touch of one byte by one thread.
struct Touch {
  uint32_t Site;
  uint32_t Thread; ///< block * threads per block + linear thread id
  bool Store;
  std::optional<int64_t> Value;
};

/// The touches of each byte of one scan, at most six a byte and two a site (two threads
/// are enough for any later access to meet one of another thread), in flat arrays kept
/// from one environment, object and block shape to the next (clear() forgets the bytes,
/// not the memory): a hash map of one allocated node a byte made the scan's allocations a
/// third of all the check's at 500 kernels. Keeping the first touches only (four reads of
/// a word every thread reads) forgot a store after them, and with it every later read
/// that races with that store.
class ByteTouches {
public:
  struct Bucket {
    int64_t Byte;
    unsigned N;
    Touch T[6];
    const Touch *begin() const { return T; }
    const Touch *end() const { return T + N; }
    void add(const Touch &X) {
      unsigned Same = 0;
      for (unsigned I = 0; I < N; ++I)
        Same += T[I].Site == X.Site;
      if (Same >= 2)
        return;
      if (N < 6) {
        T[N++] = X;
        return;
      }
      // Full: the last touch of a site that has two gives its place to a new site.
      for (unsigned I = N; I-- > 0;) {
        unsigned Twins = 0;
        for (unsigned J = 0; J < N; ++J)
          Twins += T[J].Site == T[I].Site;
        if (Twins >= 2) {
          T[I] = X;
          return;
        }
      }
    }
  };
  void clear() {
    Used = 0;
    if (++Gen == 0) { // the stamps wrapped: no slot may look filled
      std::fill(Slots.begin(), Slots.end(), Slot());
      Gen = 1;
    }
  }
  /// The bucket of Byte, empty when Byte is new since clear(). Valid until the next call.
  Bucket &operator[](int64_t Byte) {
    if (2 * (Used + 1) > Slots.size())
      grow();
    for (size_t H = hash(Byte);; H = (H + 1) & (Slots.size() - 1)) {
      Slot &S = Slots[H];
      if (S.Gen != Gen) {
        S = {Gen, uint32_t(Used)};
        if (Used == Buckets.size())
          Buckets.emplace_back();
        Bucket &B = Buckets[Used++];
        B.Byte = Byte;
        B.N = 0;
        return B;
      }
      if (Buckets[S.Index].Byte == Byte)
        return Buckets[S.Index];
    }
  }

private:
  struct Slot {
    uint32_t Gen = 0; ///< filled when equal to the table's Gen
    uint32_t Index = 0;
  };
  size_t hash(int64_t Byte) const {
    return size_t((uint64_t(Byte) * 0x9E3779B97F4A7C15ull) >> (64 - Bits));
  }
  void grow() {
    Bits = Slots.empty() ? 11 : Bits + 1;
    Slots.assign(size_t(1) << Bits, Slot());
    Gen = 1;
    for (size_t I = 0; I < Used; ++I) {
      size_t H = hash(Buckets[I].Byte);
      while (Slots[H].Gen == Gen)
        H = (H + 1) & (Slots.size() - 1);
      Slots[H] = {Gen, uint32_t(I)};
    }
  }
  std::vector<Slot> Slots; ///< open addressing, a power of two, at most half full
  std::vector<Bucket> Buckets;
  size_t Used = 0;
  unsigned Bits = 0;
  uint32_t Gen = 1;
};

struct PairState {
  bool Found = false, Benign = true, AnyCrossWarp = false, ClampWriteBack = false;
  RaceThread T1, T2;
  int64_t Byte = 0;
  bool CrossBlock = false;
  std::optional<std::pair<RaceThread, RaceThread>> CrossExample;
  std::set<size_t> RacyCombos; ///< combinations of the sampled values that race
  size_t Combos = 1;
  std::string Values;
  bool Sampled = false;
  std::string Samples;
  /// Skip layouts only: the conditional barrier the blocks skip, from the preferred
  /// evaluation (one whose skip rests on the launches' values before a sampled one).
  std::optional<BarrierSkip> Skip;
};

/// What one scan of a block that skips conditional barriers adds to its collisions: the
/// barrier and blocks (BarrierSkip), the condition's values, and this evaluation's index
/// among the combinations of the condition's own values (Combo of Combos).
struct SkipCtx {
  BarrierSkip Info;
  std::string Values; ///< the condition's parameters not in the object's environment
  bool ParamSampled = false;
  std::string Samples; ///< their samples, "N: 1, 32, 33, 1000"
  /// The combinations of the condition's own values (of Combos) that make the same block
  /// skip the same barriers: one scan stands for them all.
  std::vector<size_t> ComboList;
  size_t Combos = 1;
};

/// "s[3]", "tile[1][2]", "a", "byte 5 of 'out'": the word at Byte of a site's object.
std::string wordText(const MemoryAccessSite &S, int64_t Byte, ASTContext &Ctx) {
  QualType T = S.ObjectDecl ? S.ObjectDecl->getType() : QualType();
  std::vector<uint64_t> Dims;
  QualType Elem = T;
  if (!T.isNull()) {
    while (const auto *CA = Ctx.getAsConstantArrayType(Elem)) {
      Dims.push_back(CA->getSize().getZExtValue());
      Elem = CA->getElementType();
    }
    if (Dims.empty() && Elem->isPointerType())
      Elem = Elem->getPointeeType();
  }
  uint64_t Size = S.Bytes;
  if (S.Object.find('.') == std::string::npos && !Elem.isNull() && !Elem->isIncompleteType() &&
      !Elem->isVoidType() && !Elem->isRecordType() && !Elem->isDependentType())
    Size = Ctx.getTypeSizeInChars(Elem).getQuantity();
  if (!Size)
    Size = 1;
  if (!S.ObjectDecl || (!T->isArrayType() && !T->isPointerType() && S.Object.find('.') ==
                                                                          std::string::npos))
    return S.Object;
  if (Byte % int64_t(Size) != 0 || Byte < 0)
    return "byte " + std::to_string(Byte) + " of '" + S.Object + "'";
  int64_t Index = Byte / int64_t(Size);
  if (Dims.size() <= 1)
    return S.Object + "[" + std::to_string(Index) + "]";
  std::string Out;
  for (size_t K = Dims.size(); K-- > 0;) {
    Out = "[" + std::to_string(Index % int64_t(Dims[K])) + "]" + Out;
    Index /= int64_t(Dims[K]);
  }
  return S.Object + Out;
}

} // namespace

namespace {

/// The environments one object's accesses are evaluated in for a block shape: the plain
/// unknowns (parameters take 1, 32, 33 and 1000 in a few combinations unless the launches
/// fix them, grid sizes their value or 2), then a few values of each counter of a loop with
/// a barrier (every thread in the same iteration), with its previous value pushed past the
/// kernel's variables for the accesses after the body's last barrier.
struct ObjectEnvs {
  std::vector<unsigned> Plain, TiedVars;
  std::vector<bool> PlainSampled; ///< a parameter no launch fixes: its values are samples
  std::string Samples;
  size_t ComboCount = 1;
  std::vector<Env> Envs;
  std::vector<size_t> EnvCombo; ///< the combination of sampled values of each env
};

/// The unknowns an object's accesses read, by role: plain ones, and counters of loops with
/// a barrier (loop counters used outside a loop with no barrier are free: per thread).
void objectUnknowns(const std::vector<size_t> &Members, const std::vector<RaceSite> &Sites,
                    const ThreadDependence &TD, ObjectEnvs &O) {
  const std::vector<SymVarInfo> &Vars = TD.vars();
  std::vector<unsigned> Used;
  for (size_t I : Members) {
    const RaceSite &R = Sites[I];
    if (R.Site.Offset)
      collectVars(*R.Site.Offset, Used);
    if (R.Site.Active)
      collectVars(*R.Site.Active, Used);
    if (R.ValueKey)
      collectVars(*R.ValueKey, Used);
    else if (R.Value)
      if (SymRef V = TD.valueOf(R.Value).S)
        collectVars(*V, Used);
  }
  std::sort(Used.begin(), Used.end());
  Used.erase(std::unique(Used.begin(), Used.end()), Used.end());
  std::set<int> Tied, Free;
  for (size_t I : Members) {
    for (const RaceSite::Tied &T : Sites[I].TiedLoops)
      Tied.insert(T.Var);
    for (const auto &F : Sites[I].FreeLoops)
      Free.insert(F.first);
  }
  for (unsigned V : Used) {
    if (V >= Vars.size())
      continue;
    const SymVarInfo &I = Vars[V];
    if (I.Kind == SymVarInfo::BlockIdx)
      continue;
    if (Tied.count(int(V)) && I.Kind == SymVarInfo::Loop)
      O.TiedVars.push_back(V);
    else if (!Free.count(int(V)))
      O.Plain.push_back(V);
  }
}

ObjectEnvs objectEnvs(const std::vector<size_t> &Members, const std::vector<RaceSite> &Sites,
                      const ThreadDependence &TD, const BlockShape &Shape,
                      std::optional<std::array<uint64_t, 3>> Grid, const KnownValues *Known) {
  const std::vector<SymVarInfo> &Vars = TD.vars();
  ObjectEnvs O;
  objectUnknowns(Members, Sites, TD, O);
  std::vector<std::vector<int64_t>> PlainValues;
  size_t Total = 1;
  for (unsigned V : O.Plain) {
    const SymVarInfo &I = Vars[V];
    std::vector<int64_t> C;
    bool Fixed = Known && Known->count(I.Name) && !Known->at(I.Name).empty();
    if (I.Kind == SymVarInfo::GridDim)
      C = {Grid ? int64_t((*Grid)[I.Name.back() == 'z' ? 2 : I.Name.back() == 'y' ? 1 : 0])
                : 2};
    else if (I.Kind == SymVarInfo::Param && Fixed)
      C = Known->at(I.Name); // the launches' values, not samples
    else if (I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::Opaque)
      C = {1, 32, 33, 1000};
    else
      C = {0, 1};
    bool Sampled = I.Kind == SymVarInfo::Param && !Fixed;
    O.PlainSampled.push_back(Sampled);
    if (Sampled) {
      O.Samples += (O.Samples.empty() ? "" : "; ") + I.Name + ":";
      for (size_t K = 0; K < C.size(); ++K)
        O.Samples += (K ? ", " : " ") + std::to_string(C[K]);
    }
    Total = std::min<size_t>(size_t(1) << 20, Total * C.size());
    PlainValues.push_back(std::move(C));
  }
  O.ComboCount = std::min<size_t>(Total, 8);
  for (size_t G = 0; G < O.ComboCount; ++G) {
    size_t Index = O.ComboCount == 1 ? 0 : G * (Total - 1) / (O.ComboCount - 1);
    Env E;
    E.Vars.resize(Vars.size());
    E.BlockDim[0] = Shape.X, E.BlockDim[1] = Shape.Y, E.BlockDim[2] = Shape.Z;
    for (size_t K = 0; K < O.Plain.size(); ++K) {
      E.Vars[O.Plain[K]] = PlainValues[K][Index % PlainValues[K].size()];
      Index /= PlainValues[K].size();
    }
    for (unsigned V = 0; V < Vars.size(); ++V)
      if (Vars[V].Kind == SymVarInfo::BlockIdx)
        E.Vars[V] = 0;
    O.Envs.push_back(std::move(E));
    O.EnvCombo.push_back(G);
  }
  // Counters of loops with a barrier: a few of their values (first, second, middle, last).
  for (unsigned V : O.TiedVars) {
    const SymVarInfo &I = Vars[V];
    std::vector<Env> Next;
    std::vector<size_t> NextCombo;
    for (size_t EI = 0; EI < O.Envs.size(); ++EI) {
      const Env &B = O.Envs[EI];
      std::optional<std::vector<int64_t>> Seq;
      if (I.Init && I.Cond && I.Step)
        Seq = enumerateLoop(*I.Init, *I.Cond, *I.Step, V, B, 4096);
      if (!Seq || Seq->empty())
        continue;
      size_t N = Seq->size();
      std::vector<size_t> Picks;
      for (size_t K : {size_t(0), size_t(1), size_t(2), N / 2, N - 1})
        if (K < N && std::find(Picks.begin(), Picks.end(), K) == Picks.end())
          Picks.push_back(K);
      for (size_t K : Picks) {
        if (Next.size() >= 24)
          break;
        Env X = B;
        X.Vars[V] = (*Seq)[K];
        X.Vars.push_back(K ? std::optional<int64_t>((*Seq)[K - 1]) : std::nullopt);
        Next.push_back(std::move(X));
        NextCombo.push_back(O.EnvCombo[EI]);
      }
    }
    O.Envs = std::move(Next);
    O.EnvCombo = std::move(NextCombo);
  }
  return O;
}

/// An access's address, the condition it runs under and its stored value, flattened once
/// and evaluated 32 threads at a time (RaceScan's fast path).
struct SiteEval {
  SiteEval(const Sym &Offset, const Sym *Active, const Sym *Value)
      : Offset(Offset), Active(Active ? std::make_unique<WarpEvaluator>(*Active) : nullptr),
        Value(Value ? std::make_unique<WarpEvaluator>(*Value) : nullptr) {}
  /// False when a variable is out of its type's range (evaluate() then reads it unwrapped:
  /// the thread-by-thread path is taken).
  bool bind(const BlockShape &Shape, const Env &E) {
    bool Ok = Offset.bind(Shape, E);
    if (Active)
      Ok &= Active->bind(Shape, E);
    if (Value)
      Ok &= Value->bind(Shape, E);
    return Ok;
  }
  WarpEvaluator Offset;
  std::unique_ptr<WarpEvaluator> Active, Value;
};

/// The byte maps of one object and block shape: each access of each thread of the
/// evaluated blocks, in the order of the sites and threads, for every environment; a byte
/// touched by a second thread while either stores is a collision (PairState).
/// A store that writes back an idempotent clamp of the word it races with: the racing
/// read is the operand of `t = min(M, *p)` (max, clamp) with bounds the same for every
/// thread, and the store writes t to that word (PhysX's `tNumContacts = PxMin(maxContacts,
/// *numContacts)` that thread 0 stores back). A reader that sees the old word computes
/// min(M, old), one that sees the new one min(M, min(M, old)): the same value, so the
/// order of the pair changes nothing. A read used any other way is no such operand.
bool clampWriteBack(const RaceSite &W, const RaceSite &Rd, const ThreadDependence &TD) {
  if (!W.Value || !Rd.Site.Access)
    return false;
  const Expr *V = W.Value->IgnoreParenImpCasts();
  if (auto *DR = dyn_cast<DeclRefExpr>(V)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || !VD->hasLocalStorage() || !VD->getType().isConstQualified() || !VD->getInit())
      return false;
    V = VD->getInit()->IgnoreParenImpCasts();
  }
  const auto *C = dyn_cast<CallExpr>(V);
  if (!C)
    return false;
  StringRef N = calleeNameRef(C);
  StringRef Bare = N.ltrim('_');
  bool MinMax = C->getNumArgs() == 2 &&
                (llvm::is_contained({"min", "max", "fmin", "fmax", "fminf", "fmaxf", "umin",
                                     "umax", "llmin", "llmax", "ullmin", "ullmax"},
                                    Bare) ||
                 N.ends_with("Min") || N.ends_with("Max"));
  bool Clamp = C->getNumArgs() == 3 && (Bare == "clamp" || N.ends_with("Clamp"));
  if (!MinMax && !Clamp)
    return false;
  const Expr *Read = Rd.Site.Access->IgnoreParenImpCasts();
  bool Found = false;
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I)->IgnoreParenImpCasts();
    if (A == Read && (MinMax || I == 0) && !Found)
      Found = true;
    else if (TD.varianceOf(C->getArg(I)) != Variance::Uniform)
      return false;
  }
  return Found;
}

class RaceScan {
public:
  RaceScan(RaceAnalysis &Out, const ThreadDependence &TD, const BlockShape &Shape,
           BlockDependence &BlockDep, std::map<std::pair<size_t, size_t>, PairState> &Pairs,
           const ObjectEnvs &O, std::vector<std::unique_ptr<SiteEval>> &Evals, ByteTouches &Map)
      : Out(Out), TD(TD), Vars(TD.vars()), Shape(Shape), BlockDep(BlockDep), Pairs(Pairs), Obj(O),
        Evals(Evals), Map(Map) {}

  void run(const std::vector<size_t> &Members, bool Global, int GridBlocks, unsigned GridDim) {
    for (size_t EI = 0; EI < Obj.Envs.size(); ++EI) {
      Map.clear();
      for (int Block = 0; Block < (Global ? GridBlocks : 1); ++Block)
        for (size_t I : Members)
          site(I, EI, Block, GridDim);
    }
  }

  /// One block that skips conditional barriers, alone (its own shared memory; for global
  /// memory the threads of one block): environment EI of the object with the condition's
  /// values in E, the intervals of Layout (the sites as those blocks run them).
  void runSkip(const std::vector<size_t> &Members, size_t EI, const Env &E, int64_t Linear,
               const std::array<int64_t, 3> &Index, const std::vector<RaceSite> &SkipLayout,
               SkipCtx &Ctx) {
    EnvOverride = &E;
    BlockIndex = &Index;
    Layout = &SkipLayout;
    Skip = &Ctx;
    Map.clear();
    for (size_t I : Members)
      site(I, EI, int(Linear), 0);
    EnvOverride = nullptr, BlockIndex = nullptr, Layout = nullptr, Skip = nullptr;
  }

private:
  /// What one site's touches need besides the thread.
  struct SiteCtx {
    size_t I, EI;
    int Block;
    std::optional<int64_t> Value;
    bool BlockDependent, ValueUniform, ValueWarpUniform;
  };

  void site(size_t I, size_t EI, int Block, unsigned GridDim);
  void threadByThread(const SiteCtx &X, Env &E, const std::vector<int> &FreeVars,
                      SymRef ValueSym);
  void byGroups(SiteCtx &X, Env &E, SiteEval &Eval);
  void access(const SiteCtx &X, const Env &C, int64_t Off);
  void collide(const SiteCtx &X, const Env &C, const Touch &Old, int64_t Byte, unsigned T);

  RaceAnalysis &Out;
  const ThreadDependence &TD;
  const std::vector<SymVarInfo> &Vars;
  const BlockShape &Shape;
  BlockDependence &BlockDep;
  std::map<std::pair<size_t, size_t>, PairState> &Pairs;
  const ObjectEnvs &Obj;
  std::vector<std::unique_ptr<SiteEval>> &Evals;
  ByteTouches &Map;
  // runSkip's block: its environment, index, layout and barrier (null in run()).
  const Env *EnvOverride = nullptr;
  const std::array<int64_t, 3> *BlockIndex = nullptr;
  const std::vector<RaceSite> *Layout = nullptr;
  SkipCtx *Skip = nullptr;
  static constexpr uint64_t MaxWork = 40'000'000; // bytes inserted per kernel
};

void RaceScan::site(size_t I, size_t EI, int Block, unsigned GridDim) {
  const RaceSite &R = Out.Sites[I];
  const MemoryAccessSite &S = R.Site;
  if (!S.Offset || R.UnderData || readsData(*S.Offset, Vars) ||
      (S.Active && readsData(*S.Active, Vars)))
    return;
  if (Layout && (*Layout)[I].NotRun)
    return; // in the arm of a barrier this block skips
  if (R.NotRun)
    return; // in the arm a compile-time constant rules out (no path was recorded for it)
  // Previous values pushed past Vars.size(), in TiedVars order.
  const Env &Base = EnvOverride ? *EnvOverride : Obj.Envs[EI];
  Env E = Base;
  E.Vars.resize(Vars.size());
  for (const RaceSite::Tied &T : R.TiedLoops) {
    if (T.Shift == 0)
      continue;
    auto Pos = std::find(Obj.TiedVars.begin(), Obj.TiedVars.end(), unsigned(T.Var));
    if (Pos == Obj.TiedVars.end())
      continue;
    std::optional<int64_t> Prev = Base.Vars[Vars.size() + (Pos - Obj.TiedVars.begin())];
    if (!Prev)
      return;
    E.Vars[T.Var] = Prev;
  }
  for (unsigned V = 0; V < Vars.size(); ++V)
    if (Vars[V].Kind == SymVarInfo::BlockIdx)
      E.Vars[V] = BlockIndex ? (*BlockIndex)[Vars[V].Name.back() == 'z'   ? 2
                                             : Vars[V].Name.back() == 'y' ? 1
                                                                          : 0]
                  : Vars[V].Name.back() == "xyz"[GridDim] ? Block
                                                          : 0;
  // A value loaded from memory the kernel never writes: the load's address stands for it.
  SymRef ValueSym = R.ValueKey ? R.ValueKey : R.Value ? TD.valueOf(R.Value).S : nullptr;
  SiteCtx X{I, EI, Block, std::nullopt, false, false, false};
  X.BlockDependent = mentionsBlockIdx(S.Offset.get(), Vars) ||
                     (S.Active && mentionsBlockIdx(S.Active.get(), Vars)) ||
                     (R.Value && BlockDep.of(R.Value));
  Variance ValueVariance = R.Value ? TD.varianceOf(R.Value) : Variance::Data;
  // A local stored whole that holds each thread's own indeterminate bytes (RaceSite::
  // ValueIndeterminate): no one value, whatever its variance says.
  if (R.ValueIndeterminate)
    ValueVariance = Variance::Data;
  X.ValueUniform = ValueVariance == Variance::Uniform;
  X.ValueWarpUniform = ValueVariance <= Variance::WarpUniform;
  // Free counters: the values each thread may take.
  std::vector<int> FreeVars;
  for (const auto &F : R.FreeLoops)
    if (F.first >= 0)
      FreeVars.push_back(F.first);
  std::sort(FreeVars.begin(), FreeVars.end());
  FreeVars.erase(std::unique(FreeVars.begin(), FreeVars.end()), FreeVars.end());
  if (FreeVars.empty()) {
    if (!Evals[I])
      Evals[I] = std::make_unique<SiteEval>(*S.Offset, S.Active.get(), ValueSym.get());
    if (Evals[I]->bind(Shape, E))
      return byGroups(X, E, *Evals[I]);
  }
  threadByThread(X, E, FreeVars, ValueSym);
}

/// Every thread of the block, 32 at a time: the same values as threadByThread's.
void RaceScan::byGroups(SiteCtx &X, Env &E, SiteEval &Eval) {
  for (unsigned G = 0; G < Shape.warps() && !Out.WorkCapped; ++G) {
    uint32_t Live = Eval.Offset.threads(G), Valid = 0;
    if (Eval.Active) {
      const int64_t *On = Eval.Active->group(G, Valid);
      Live &= Valid; // not run, or run on a condition not known: not guessed
      for (unsigned L = 0; L < 32; ++L)
        if (On[L] == 0)
          Live &= ~(uint32_t(1) << L);
    }
    const int64_t *Off = Eval.Offset.group(G, Valid);
    Live &= Valid;
    if (!Live)
      continue;
    uint32_t ValueValid = 0;
    const int64_t *Value = Eval.Value ? Eval.Value->group(G, ValueValid) : nullptr;
    const int64_t *Tid = Eval.Offset.tid(G);
    for (unsigned L = 0; L < 32 && !Out.WorkCapped; ++L) {
      if (!(Live >> L & 1))
        continue;
      E.Tid[0] = Tid[L], E.Tid[1] = Tid[32 + L], E.Tid[2] = Tid[64 + L];
      X.Value = Value && (ValueValid >> L & 1) ? std::optional<int64_t>(Value[L]) : std::nullopt;
      access(X, E, Off[L]);
    }
  }
}

void RaceScan::threadByThread(const SiteCtx &X0, Env &E, const std::vector<int> &FreeVars,
                              SymRef ValueSym) {
  const MemoryAccessSite &S = Out.Sites[X0.I].Site;
  SiteCtx X = X0;
  // A free counter's sampled values, kept by what its loop reads: enumerateLoop reads only
  // threadIdx (where the loop's init, condition or step mention it), blockDim and the
  // variables they read, so the threads and the outer counters' combinations that agree
  // on those share one enumeration (of up to 4096 trips) instead of one each.
  struct LoopReads {
    bool Tid = false;
    std::vector<unsigned> Vars;
  };
  std::map<int, LoopReads> Reads;
  for (int V : FreeVars) {
    const SymVarInfo &FI = Vars[V];
    if (FI.Kind == SymVarInfo::Iteration || !FI.Init || !FI.Cond || !FI.Step)
      continue;
    LoopReads &R = Reads[V];
    for (const Sym *P : {FI.Init.get(), FI.Cond.get(), FI.Step.get()}) {
      R.Tid |= mentionsThreadIdx(*P);
      collectVars(*P, R.Vars);
    }
  }
  std::map<std::vector<int64_t>, std::vector<int64_t>> Sampled;
  auto SampleKey = [&](int V, const Env &C) {
    const LoopReads &R = Reads[V];
    std::vector<int64_t> K = {V, R.Tid, R.Tid ? C.Tid[0] : 0, R.Tid ? C.Tid[1] : 0,
                              R.Tid ? C.Tid[2] : 0, C.BlockDim[0], C.BlockDim[1],
                              C.BlockDim[2]};
    for (unsigned I : R.Vars) {
      bool Bound = I < C.Vars.size() && C.Vars[I].has_value();
      K.push_back(Bound);
      K.push_back(Bound ? *C.Vars[I] : 0);
    }
    return K;
  };
  for (unsigned T = 0; T < Shape.threads(); ++T) {
    E.Tid[0] = T % Shape.X;
    E.Tid[1] = (T / Shape.X) % Shape.Y;
    E.Tid[2] = T / (Shape.X * Shape.Y);
    // Every combination of the free counters' values (at most 64); with none, the
    // thread's environment itself (no copy per thread).
    std::vector<Env> Combos;
    if (!FreeVars.empty())
      Combos.push_back(E);
    for (int V : FreeVars) {
      const SymVarInfo &FI = Vars[V];
      std::vector<Env> Next;
      for (const Env &C : Combos) {
        std::vector<int64_t> Seq;
        if (FI.Kind == SymVarInfo::Iteration) {
          Seq = {0, 1, 2, 3};
        } else if (FI.Init && FI.Cond && FI.Step) {
          std::vector<int64_t> Key = SampleKey(V, C);
          auto Known = Sampled.find(Key);
          if (Known != Sampled.end()) {
            Seq = Known->second;
          } else {
            if (auto L = enumerateLoop(*FI.Init, *FI.Cond, *FI.Step, V, C, 4096)) {
              size_t N = L->size();
              for (size_t K : {size_t(0), size_t(1), size_t(2), size_t(3), N / 2, N - 2, N - 1})
                if (K < N && std::find(Seq.begin(), Seq.end(), (*L)[K]) == Seq.end())
                  Seq.push_back((*L)[K]);
            }
            Sampled.emplace(std::move(Key), Seq);
          }
        }
        for (int64_t Val : Seq) {
          if (Next.size() >= 64)
            break;
          Env Y = C;
          Y.Vars[V] = Val;
          Next.push_back(std::move(Y));
        }
      }
      Combos = std::move(Next);
    }
    size_t CombosN = FreeVars.empty() ? 1 : Combos.size();
    for (size_t CI = 0; CI < CombosN && !Out.WorkCapped; ++CI) {
      const Env &C = FreeVars.empty() ? E : Combos[CI];
      if (S.Active) {
        std::optional<int64_t> On = evaluate(*S.Active, C);
        if (!On || !*On)
          continue; // not run, or run on a condition not known: not guessed
      }
      std::optional<int64_t> Off = evaluate(*S.Offset, C);
      if (!Off)
        continue;
      X.Value = ValueSym ? evaluate(*ValueSym, C) : std::nullopt;
      access(X, C, *Off);
    }
    if (Out.WorkCapped)
      break;
  }
}

/// The bytes of one access of one thread (C's Tid) at Off: each against the earlier
/// touches of that byte, then remembered (at most four a byte).
void RaceScan::access(const SiteCtx &X, const Env &C, int64_t Off) {
  const RaceSite &R = Out.Sites[X.I];
  const unsigned T = unsigned(C.Tid[0] + Shape.X * (C.Tid[1] + Shape.Y * C.Tid[2]));
  const uint32_t Thread = uint32_t(X.Block) * Shape.threads() + T;
  for (unsigned K = 0; K < R.Site.Bytes; ++K) {
    if (++Out.Work > MaxWork) {
      Out.WorkCapped = true;
      break;
    }
    ByteTouches::Bucket &Bucket = Map[Off + K];
    for (const Touch &Old : Bucket)
      if (Old.Thread != Thread && (Old.Store || R.Site.Store))
        collide(X, C, Old, Off + K, T);
    Bucket.add({uint32_t(X.I), Thread, R.Site.Store, X.Value});
  }
}

void RaceScan::collide(const SiteCtx &X, const Env &C, const Touch &Old, int64_t Byte,
                       unsigned T) {
  const size_t I = X.I;
  const RaceSite &R = Out.Sites[I];
  const RaceSite &O = Out.Sites[Old.Site];
  const bool Store = R.Site.Store;
  const std::optional<int64_t> &Value = X.Value;
  bool SameBlock = Old.Thread / Shape.threads() == uint32_t(X.Block);
  bool SameWarp = SameBlock && (Old.Thread % Shape.threads()) / 32 == T / 32;
  // Within one block, the intervals of its layout (a block that skips a conditional
  // barrier has its own).
  const RaceSite &OL = Layout ? (*Layout)[Old.Site] : O, &RL = Layout ? (*Layout)[I] : R;
  if (SameBlock && !intervalsMeet(OL.Intervals, RL.Intervals))
    return;
  if (SameWarp && !intervalsMeet(OL.WarpIntervals, RL.WarpIntervals))
    return;
  if (!SameBlock && !intervalsMeet(O.GridIntervals, R.GridIntervals))
    return;
  // One value stored by every thread (block-uniform), or by the lanes of one warp
  // (warp-uniform: a cg::reduce result), to one word: benign.
  // A site whose value is a load's address (ValueKey): equal keys mean one value at that
  // site only, and for a `__shared__` source only within one block.
  const bool Keyed = R.ValueKey || O.ValueKey;
  bool Benign = Old.Store && Store &&
                ((Old.Value && Value && *Old.Value == *Value &&
                  (!Keyed || (Old.Site == I && (SameBlock || !R.ValueKeyShared)))) ||
                 (Old.Site == I && !Value && !Old.Value &&
                  (X.ValueUniform || (SameWarp && X.ValueWarpUniform))));
  // Every block repeating the same store (`out[threadIdx.x] = v` in a grid of several
  // blocks, the value not reading blockIdx): the same thread of another block writes the
  // same value.
  if (!Benign && !SameBlock && Old.Store && Store && Old.Site == I &&
      Old.Thread % Shape.threads() == T && !X.BlockDependent)
    Benign = true;
  // A read of a word every thread writes with one value before it in the interval
  // (`p = A; ... p`): it reads that value either way. Only where every thread writes that
  // same word (an address without the thread in it): `t[tid] = 1` then a read of
  // `t[255 - tid]` reads a word another thread may not have written yet.
  const RaceSite &W = Old.Store ? O : R;
  const RaceSite &Rd = Old.Store ? R : O;
  if (!Benign && !(Old.Store && Store) && W.Value && !W.Site.Active && W.FreeLoops.empty() &&
      W.TiedLoops.empty() && W.Order < Rd.Order && W.Site.Offset &&
      !mentionsThreadIdx(*W.Site.Offset) && TD.varianceOf(W.Value) == Variance::Uniform)
    Benign = true;
  bool Clamp = false;
  if (!Benign && Old.Store != Store && clampWriteBack(W, Rd, TD))
    Benign = Clamp = true;
  auto PK = std::make_pair(std::min<size_t>(Old.Site, I), std::max<size_t>(Old.Site, I));
  PairState &P = Pairs[PK];
  auto ThreadOf = [&](uint32_t G) {
    RaceThread Th;
    unsigned L = G % Shape.threads();
    Th.Tid[0] = L % Shape.X, Th.Tid[1] = (L / Shape.X) % Shape.Y,
    Th.Tid[2] = L / (Shape.X * Shape.Y);
    Th.Block = G / Shape.threads();
    Th.Linear = L;
    return Th;
  };
  const uint32_t Thread = uint32_t(X.Block) * Shape.threads() + T;
  bool OldFirst = Old.Site == PK.first;
  if (!SameBlock && !Benign && !P.CrossExample) {
    RaceThread A = ThreadOf(Old.Thread), B = ThreadOf(Thread);
    P.CrossExample = OldFirst ? std::make_pair(A, B) : std::make_pair(B, A);
  }
  bool Better = !P.Found || (P.Benign && !Benign) ||
                (!P.AnyCrossWarp && !SameWarp && (P.Benign == Benign));
  size_t SkipCombos = Skip ? Skip->Combos : 1;
  // A skip the launches' values make before one only a sampled value makes.
  if (Skip && P.Found && P.Skip && !Benign && P.Skip->Sampled != Skip->Info.Sampled)
    Better = P.Skip->Sampled;
  P.Combos = Obj.ComboCount * SkipCombos;
  if (!Benign && !Skip)
    P.RacyCombos.insert(Obj.EnvCombo[X.EI]);
  if (!Benign && Skip)
    for (size_t G : Skip->ComboList)
      P.RacyCombos.insert(Obj.EnvCombo[X.EI] * SkipCombos + G);
  if (!Better)
    return;
  P.Found = true;
  P.Benign = Benign;
  P.ClampWriteBack = Clamp;
  P.AnyCrossWarp = !SameWarp;
  RaceThread A = ThreadOf(Old.Thread), B;
  B.Tid[0] = C.Tid[0], B.Tid[1] = C.Tid[1], B.Tid[2] = C.Tid[2];
  B.Block = X.Block;
  B.Linear = T;
  P.T1 = OldFirst ? A : B;
  P.T2 = OldFirst ? B : A;
  P.Byte = Byte;
  P.CrossBlock = !SameBlock;
  std::string Vals;
  P.Sampled = false;
  for (size_t K = 0; K < Obj.Plain.size(); ++K) {
    unsigned V = Obj.Plain[K];
    if (Vars[V].Kind == SymVarInfo::Param && C.Vars[V]) {
      Vals += (Vals.empty() ? "" : ", ") + Vars[V].Name + " = " + std::to_string(*C.Vars[V]);
      P.Sampled |= Obj.PlainSampled[K];
    }
  }
  P.Values = Vals;
  P.Samples = Obj.Samples;
  if (Skip) {
    P.Skip = Skip->Info;
    if (!Skip->Values.empty())
      P.Values += (P.Values.empty() ? "" : ", ") + Skip->Values;
    if (!Skip->Samples.empty())
      P.Samples += (P.Samples.empty() ? "" : "; ") + Skip->Samples;
    P.Sampled |= Skip->ParamSampled || Skip->Info.Sampled;
  }
}

/// The findings of one block shape: one per pair of accesses that collide, benign ones
/// only when asked for, each pair once over the shapes.
void addFindings(RaceAnalysis &Out, const BlockShape &Shape,
                 const std::map<std::pair<size_t, size_t>, PairState> &Pairs,
                 std::set<std::pair<size_t, size_t>> &Reported, const RaceOptions &Opts,
                 ASTContext &Ctx) {
  for (auto &[PK, P] : Pairs) {
    if (!P.Found || (P.Benign && !Opts.ReportBenign) || Reported.count(PK))
      continue;
    Reported.insert(PK);
    RaceFinding F;
    F.First = PK.first;
    F.Second = PK.second;
    const RaceSite &A = Out.Sites[PK.first], &B = Out.Sites[PK.second];
    if (B.Order < A.Order) {
      std::swap(F.First, F.Second);
      F.T1 = P.T2, F.T2 = P.T1;
    } else {
      F.T1 = P.T1, F.T2 = P.T2;
    }
    F.Byte = P.Byte;
    F.Word = wordText(A.Site, P.Byte, Ctx);
    F.SameWarp = !P.AnyCrossWarp && !P.CrossBlock;
    F.CrossBlock = P.CrossBlock;
    if (!P.CrossBlock && P.CrossExample)
      F.CrossBlockToo = B.Order < A.Order
                            ? std::make_pair(P.CrossExample->second, P.CrossExample->first)
                            : *P.CrossExample;
    F.Benign = P.Benign;
    F.ClampWriteBack = P.Benign && P.ClampWriteBack;
    F.Values = P.Values;
    // A benign pair records no racy combination: its values decide nothing.
    F.ValueDependent = !P.Values.empty() && !P.Benign && P.RacyCombos.size() < P.Combos;
    F.Sampled = P.Sampled;
    F.Samples = P.Samples;
    F.Shape = Shape;
    F.Skip = P.Skip;
    // Whether a block skips the barrier rests on a sampled value: that value decides it.
    if (P.Skip && P.Skip->Sampled)
      F.ValueDependent = true;
    // A loop the collision runs through: a barrier loop whose end meets its start, or a
    // loop with no barrier around both.
    for (const RaceSite::Tied &T : A.TiedLoops)
      for (const RaceSite::Tied &U : B.TiedLoops)
        if (T.Loop == U.Loop && T.Shift != U.Shift)
          F.LoopCarried = true, F.Loop = T.Loop;
    if (!F.Loop)
      for (const auto &T : A.FreeLoops)
        for (const auto &U : B.FreeLoops)
          if (T.second == U.second && !F.Loop)
            F.Loop = T.second;
    Out.Findings.push_back(std::move(F));
  }
}

/// The races that only a loop of no trip leaves. Where a loop has a barrier in every trip
/// and a trip count no constant fixes, the code before it and the code after it meet in
/// one interval only when it runs no trip. The sites are laid out again with every such
/// loop (a trip count the same for the threads the barrier orders) taken to run; a found
/// pair whose two accesses no longer meet there races only with a loop of no trip. It
/// names the loop between the two accesses (the first unproven one else).
void markZeroTripRaces(RaceAnalysis &Out, const std::vector<IntervalWalker::UnprovenLoop> &Loops,
                       const FunctionDecl *Kernel, const ThreadDependence &TD, ASTContext &Ctx,
                       const KnownValues *Known) {
  if (Loops.empty() || Out.Findings.empty())
    return;
  std::vector<RaceSite> Trips = Out.Sites;
  for (RaceSite &S : Trips) {
    S.TiedLoops.clear();
    S.FreeLoops.clear();
  }
  IntervalWalker W(Trips, TD, Ctx, nullptr, Known, /*AssumeTrips=*/true);
  W.walk(Kernel->getBody());
  W.finish();
  for (RaceFinding &F : Out.Findings) {
    if (F.Skip)
      continue; // its own layout (a block that skips a barrier)
    const RaceSite &A = Trips[F.First], &B = Trips[F.Second];
    if (A.Order == ~0u || B.Order == ~0u)
      continue;
    const bool Meet = F.CrossBlock  ? intervalsMeet(A.GridIntervals, B.GridIntervals)
                      : F.SameWarp ? intervalsMeet(A.WarpIntervals, B.WarpIntervals)
                                   : intervalsMeet(A.Intervals, B.Intervals);
    if (Meet)
      continue;
    const unsigned Lo = std::min(Out.Sites[F.First].Order, Out.Sites[F.Second].Order);
    const unsigned Hi = std::max(Out.Sites[F.First].Order, Out.Sites[F.Second].Order);
    F.ZeroTripLoop = Loops.front().Loop;
    for (const IntervalWalker::UnprovenLoop &L : Loops)
      if (L.Begin > Lo && L.End <= Hi) {
        F.ZeroTripLoop = L.Loop;
        break;
      }
  }
}

/// "1", "1-3", "0, 2, 5-7": sorted block indices as ranges.
std::string blockRanges(const std::vector<uint64_t> &Blocks) {
  std::string Out;
  unsigned Ranges = 0;
  for (size_t I = 0; I < Blocks.size();) {
    size_t J = I;
    while (J + 1 < Blocks.size() && Blocks[J + 1] == Blocks[J] + 1)
      ++J;
    if (++Ranges > 4) {
      Out += ", ...";
      break;
    }
    Out += (Out.empty() ? "" : ", ") + std::to_string(Blocks[I]) +
           (J > I ? "-" + std::to_string(Blocks[J]) : "");
    I = J + 1;
  }
  return Out;
}

/// The blocks that skip the kernel's conditional barriers, and the layouts they run in.
/// For an environment of an object (its values and the conditions' own values) every
/// block of the launch's grid (the first 4096 and the last; blocks 0 and 1 of a sampled
/// grid of 2 when no launch gives it) evaluates each condition; the blocks that skip the
/// same set of barriers share one layout, walked once, and one of them (the first) is
/// scanned. A condition that cannot be evaluated counts as taken (the launches' layout).
class BarrierSkips {
public:
  BarrierSkips(RaceAnalysis &Out, const std::vector<ConditionalBarrier> &Conds,
               const ThreadDependence &TD, ASTContext &Ctx, const FunctionDecl *Kernel,
               std::optional<std::array<uint64_t, 3>> Grid, const KnownValues *Known)
      : Out(Out), Conds(Conds), TD(TD), Ctx(Ctx), Kernel(Kernel), Grid(Grid), Known(Known) {
    if (this->Conds.size() > 16)
      this->Conds.resize(16);
    for (const ConditionalBarrier &C : this->Conds) {
      std::vector<unsigned> Used;
      collectVars(*C.Cond, Used);
      CondVars.push_back({});
      for (unsigned V : Used)
        if (TD.vars()[V].Kind != SymVarInfo::BlockIdx) {
          CondVars.back().push_back(V);
          if (!llvm::is_contained(AllVars, V))
            AllVars.push_back(V);
        }
    }
    llvm::sort(AllVars);
  }

  bool empty() const { return Conds.empty(); }

  /// Scans the blocks of every environment of one object that skip a barrier.
  void scan(RaceScan &Scan, const std::vector<size_t> &Members, const ObjectEnvs &O,
            const BlockShape &Shape) {
    // The conditions' values the object's environment does not give: the launches'
    // constants, else samples; a grid size its value, else 2 (sampled).
    std::vector<unsigned> Extra;
    std::vector<std::vector<int64_t>> ExtraValues;
    size_t Total = 1;
    for (unsigned V : AllVars) {
      if (llvm::is_contained(O.Plain, V))
        continue;
      const SymVarInfo &I = TD.vars()[V];
      std::vector<int64_t> C;
      if (I.Kind == SymVarInfo::GridDim)
        C = {Grid ? int64_t((*Grid)[I.Name.back() == 'z' ? 2 : I.Name.back() == 'y' ? 1 : 0]) : 2};
      else if (known(V))
        C = Known->at(I.Name);
      else
        C = {1, 32, 33, 1000};
      Extra.push_back(V);
      Total = std::min<size_t>(size_t(1) << 20, Total * C.size());
      ExtraValues.push_back(std::move(C));
    }
    size_t Combos = std::min<size_t>(Total, 8);
    for (size_t EI = 0; EI < O.Envs.size() && !Out.WorkCapped; ++EI) {
      // One scan per block and set of skipped barriers: the first combination of the
      // condition's values that makes it (one of the launches' values before a sampled
      // one), standing for every combination that makes the same.
      struct Pending {
        Env E;
        Decisions::Rep R;
        SkipCtx Ctx;
      };
      std::map<std::pair<uint64_t, int64_t>, Pending> Scans;
      for (size_t G = 0; G < Combos; ++G) {
        size_t Index = Combos == 1 ? 0 : G * (Total - 1) / (Combos - 1);
        Env E = O.Envs[EI];
        for (size_t K = 0; K < Extra.size(); ++K) {
          E.Vars[Extra[K]] = ExtraValues[K][Index % ExtraValues[K].size()];
          Index /= ExtraValues[K].size();
        }
        const Decisions &D = decide(E, Shape);
        for (const Decisions::Rep &R : D.Reps) {
          SkipCtx Ctx;
          Ctx.ComboList = {G};
          Ctx.Combos = Combos;
          unsigned K = unsigned(llvm::countr_zero(R.Mask)); // the first skipped barrier
          Ctx.Info = info(K, E, D, R);
          for (size_t X = 0; X < Extra.size(); ++X) {
            unsigned V = Extra[X];
            if (TD.vars()[V].Kind != SymVarInfo::Param || known(V))
              continue;
            Ctx.ParamSampled = true;
            Ctx.Samples += (Ctx.Samples.empty() ? "" : "; ") + TD.vars()[V].Name + ":";
            for (size_t J = 0; J < ExtraValues[X].size(); ++J)
              Ctx.Samples += (J ? ", " : " ") + std::to_string(ExtraValues[X][J]);
          }
          for (unsigned V : Extra)
            if (TD.vars()[V].Kind == SymVarInfo::Param && E.Vars[V])
              Ctx.Values += (Ctx.Values.empty() ? "" : ", ") + TD.vars()[V].Name + " = " +
                            std::to_string(*E.Vars[V]);
          auto [It, New] = Scans.try_emplace({R.Mask, R.Linear}, Pending{E, R, Ctx});
          if (New)
            continue;
          Pending &Was = It->second;
          if (Was.Ctx.Info.Sampled && !Ctx.Info.Sampled) {
            Ctx.ComboList.insert(Ctx.ComboList.end(), Was.Ctx.ComboList.begin(),
                                 Was.Ctx.ComboList.end());
            Was = Pending{E, R, Ctx};
          } else {
            Was.Ctx.ComboList.push_back(G);
          }
        }
      }
      for (auto &[Key, P] : Scans) {
        if (Out.WorkCapped)
          break;
        Scan.runSkip(Members, EI, P.E, P.R.Linear, P.R.Index, layout(P.R.Mask), P.Ctx);
      }
    }
  }

private:
  struct Decisions {
    struct Rep {
      uint64_t Mask;  ///< the barriers (bits of Conds) its blocks skip
      int64_t Linear; ///< the first such block: linear index, x fastest
      std::array<int64_t, 3> Index;
    };
    std::vector<Rep> Reps;
    std::vector<std::vector<uint64_t>> Skipping; ///< per barrier, the blocks that skip it
    uint64_t Blocks = 0;                         ///< the grid's blocks (0: sampled grid)
  };

  bool known(unsigned V) const {
    const SymVarInfo &I = TD.vars()[V];
    return Known && Known->count(I.Name) && !Known->at(I.Name).empty();
  }

  /// Evaluates every condition for the blocks of the grid in E (once per distinct values
  /// of the conditions' variables and block shape).
  const Decisions &decide(const Env &E0, const BlockShape &Shape) {
    std::vector<int64_t> Key = {Shape.X, Shape.Y, Shape.Z};
    for (unsigned V : AllVars) {
      Key.push_back(E0.Vars[V].has_value());
      Key.push_back(E0.Vars[V].value_or(0));
    }
    auto [It, New] = Cache.try_emplace(Key);
    Decisions &D = It->second;
    if (!New)
      return D;
    Env E = E0;
    std::array<uint64_t, 3> Dims = Grid ? *Grid : std::array<uint64_t, 3>{2, 1, 1};
    uint64_t Total = Dims[0] * Dims[1] * Dims[2];
    D.Blocks = Grid ? Total : 0;
    D.Skipping.resize(Conds.size());
    std::vector<uint64_t> Linear;
    for (uint64_t B = 0; B < std::min<uint64_t>(Total, 4096); ++B)
      Linear.push_back(B);
    if (Total > 4096)
      Linear.push_back(Total - 1);
    std::map<uint64_t, size_t> RepOf;
    for (uint64_t B : Linear) {
      std::array<int64_t, 3> Index = {int64_t(B % Dims[0]), int64_t(B / Dims[0] % Dims[1]),
                                      int64_t(B / (Dims[0] * Dims[1]))};
      for (unsigned V = 0; V < TD.vars().size(); ++V)
        if (TD.vars()[V].Kind == SymVarInfo::BlockIdx)
          E.Vars[V] = Index[TD.vars()[V].Name.back() == 'z'   ? 2
                            : TD.vars()[V].Name.back() == 'y' ? 1
                                                              : 0];
      E.BlockDim[0] = Shape.X, E.BlockDim[1] = Shape.Y, E.BlockDim[2] = Shape.Z;
      uint64_t Mask = 0;
      for (size_t K = 0; K < Conds.size(); ++K) {
        std::optional<int64_t> Holds = evaluate(*Conds[K].Cond, E);
        if (Holds && (*Holds != 0) != Conds[K].BarrierInThen) {
          Mask |= uint64_t(1) << K;
          D.Skipping[K].push_back(B);
        }
      }
      if (Mask && RepOf.try_emplace(Mask, D.Reps.size()).second)
        D.Reps.push_back({Mask, int64_t(B), Index});
    }
    return D;
  }

  /// The finding's account of barrier K for a block of R.
  BarrierSkip info(unsigned K, const Env &E, const Decisions &D, const Decisions::Rep &R) {
    BarrierSkip S;
    S.If = Conds[K].If;
    S.Barrier = Conds[K].Barrier;
    S.Blocks = blockRanges(D.Skipping[K]);
    S.BlockCount = unsigned(D.Skipping[K].size());
    S.GridBlocks = D.Blocks;
    for (unsigned V : CondVars[K]) {
      const SymVarInfo &I = TD.vars()[V];
      if (E.Vars[V])
        S.Values += (S.Values.empty() ? "" : ", ") + I.Name + " = " + std::to_string(*E.Vars[V]);
      if (I.Kind == SymVarInfo::Param && !known(V)) {
        S.Sampled = true;
        S.SampledWhat += (S.SampledWhat.empty() ? "" : ", ") + I.Name + " = " +
                         (E.Vars[V] ? std::to_string(*E.Vars[V]) : "?") +
                         " (no launch in this file passes '" + I.Name + "')";
      } else if (I.Kind == SymVarInfo::GridDim && !Grid) {
        S.Sampled = true;
        S.SampledWhat += (S.SampledWhat.empty() ? "" : ", ") + I.Name + " = 2" +
                         " (no launch in this file gives the grid)";
      }
    }
    if (!Grid && R.Linear > 0 && S.SampledWhat.find("gives the grid") == std::string::npos) {
      S.Sampled = true;
      S.SampledWhat += (S.SampledWhat.empty() ? "" : ", ") +
                       std::string("a grid of 2 blocks (no launch in this file gives the grid)");
    }
    return S;
  }

  /// The sites as the blocks that skip the barriers of Mask run them.
  const std::vector<RaceSite> &layout(uint64_t Mask) {
    auto [It, New] = Layouts.try_emplace(Mask);
    if (!New)
      return It->second;
    std::map<const IfStmt *, bool> Skips;
    for (size_t K = 0; K < Conds.size(); ++K)
      if (Mask >> K & 1)
        Skips[Conds[K].If] = Conds[K].BarrierInThen;
    std::vector<RaceSite> &Sites = It->second;
    Sites = Out.Sites;
    for (RaceSite &S : Sites) {
      S.TiedLoops.clear();
      S.FreeLoops.clear();
    }
    IntervalWalker W(Sites, TD, Ctx, &Skips, Known);
    W.walk(Kernel->getBody());
    W.finish();
    return Sites;
  }

  RaceAnalysis &Out;
  std::vector<ConditionalBarrier> Conds;
  std::vector<std::vector<unsigned>> CondVars; ///< per condition: its variables but blockIdx
  std::vector<unsigned> AllVars;
  const ThreadDependence &TD;
  ASTContext &Ctx;
  const FunctionDecl *Kernel;
  std::optional<std::array<uint64_t, 3>> Grid;
  const KnownValues *Known;
  std::map<std::vector<int64_t>, Decisions> Cache;
  std::map<uint64_t, std::vector<RaceSite>> Layouts;
};

} // namespace

RaceAnalysis analyzeRaces(const FunctionDecl *Kernel, const ThreadDependence &TD,
                          ASTContext &Ctx, const std::vector<BlockShape> &Blocks,
                          std::optional<std::array<uint64_t, 3>> Grid, const RaceOptions &Opts,
                          const KnownValues *Known) {
  RaceAnalysis Out;
  if (!Kernel || !Kernel->hasBody())
    return Out;
  StoredValues Stored(Kernel->getBody());
  // Stores of an element's own value (`la[td] = la[td];`, KBLAS's mirror of a symmetric
  // tile, whose other arm writes the mirrored entry; a complex number's struct copy too):
  // the compiler drops the statement, its load and its store, and memory keeps what it
  // held, so neither is an access another thread may race with (isSelfStore).
  llvm::SmallPtrSet<const Expr *, 8> Dropped;
  {
    std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
      if (!X)
        return;
      if (isSelfStore(X)) {
        const Expr *Place = nullptr, *Value = nullptr;
        if (auto *B = dyn_cast<BinaryOperator>(X)) {
          Place = B->getLHS();
          Value = B->getRHS();
        } else if (auto *C = dyn_cast<CXXOperatorCallExpr>(X)) {
          Place = C->getArg(0);
          Value = C->getArg(1);
        }
        for (const Expr *E : {Place, Value})
          for (const Expr *Last = nullptr; E && E != Last;) {
            Last = E;
            Dropped.insert(E);
            E = E->IgnoreUnlessSpelledInSource()->IgnoreParens();
            Dropped.insert(E);
          }
      }
      for (const Stmt *C : X->children())
        Walk(C);
    };
    Walk(Kernel->getBody());
  }
  for (MemoryAccessSite &S : collectAllAccesses(Kernel, TD, Ctx)) {
    if (S.Access && Dropped.contains(S.Access))
      continue;
    RaceSite R;
    R.Site = std::move(S);
    if (R.Site.Store && !R.Site.Load) {
      R.Value = Stored.of(R.Site.Access, Ctx);
      R.ValueIndeterminate = R.Value && isIndeterminateLocal(R.Value);
    }
    Out.Sites.push_back(std::move(R));
  }
  // Stores of a value loaded from memory that no access of the kernel writes: the load's
  // address keys the value (two threads reading one address of unwritten memory read one
  // value). Objects are told apart as the race scan tells them (declaration and name).
  {
    std::set<std::pair<const VarDecl *, std::string>> Written;
    // A store through a local pointer (or to no named object) may write any object.
    bool Unknown = false;
    auto Named = [](const VarDecl *D) {
      return D && (isa<ParmVarDecl>(D) || D->hasGlobalStorage() || D->getType()->isArrayType());
    };
    for (const RaceSite &R : Out.Sites)
      if (R.Site.Store) {
        Written.insert({R.Site.ObjectDecl, R.Site.Object});
        Unknown |= !Named(R.Site.ObjectDecl);
      }
    for (RaceSite &R : Out.Sites) {
      if (Unknown || !R.Value || R.Site.Load)
        continue;
      const Expr *V = R.Value->IgnoreParenImpCasts();
      for (const RaceSite &L : Out.Sites) {
        if (L.Site.Access->IgnoreParens() != V || L.Site.Store || !L.Site.Offset ||
            !Named(L.Site.ObjectDecl) ||
            L.UnderData || readsData(*L.Site.Offset, TD.vars()) ||
            Written.count({L.Site.ObjectDecl, L.Site.Object}))
          continue;
        R.ValueKey = L.Site.Offset;
        R.ValueKeyShared = L.Site.Space == MemorySpace::Shared;
        break;
      }
    }
  }
  IntervalWalker W(Out.Sites, TD, Ctx, nullptr, Known);
  W.walk(Kernel->getBody());
  W.finish();
  Out.StoppedAt = W.StoppedAt;
  Out.StoppedCallee = W.StoppedCallee;

  BlockDependence BlockDep(TD, Out.Sites);
  BarrierSkips Skips(Out, W.Conditional, TD, Ctx, Kernel, Grid, Known);
  // The grid's dimension whose first two blocks global accesses are evaluated for.
  unsigned GridDim = 0;
  int GridBlocks = 1; // an unknown grid: blocks are not compared (no guess)
  if (Grid)
    for (unsigned D = 0; D < 3; ++D)
      if ((*Grid)[D] > 1) {
        GridDim = D;
        GridBlocks = 2;
        break;
      }

  // The objects: sites grouped by object (declaration and name).
  std::map<std::pair<const VarDecl *, std::string>, std::vector<size_t>> Objects;
  for (size_t I = 0; I < Out.Sites.size(); ++I)
    if (Out.Sites[I].Order != ~0u)
      Objects[{Out.Sites[I].Site.ObjectDecl, Out.Sites[I].Site.Object}].push_back(I);

  std::map<std::pair<size_t, size_t>, PairState> Pairs, SkipPairs;
  uint64_t SkipWork = 0;
  std::set<std::pair<size_t, size_t>> Reported;
  std::vector<std::unique_ptr<SiteEval>> Evals(Out.Sites.size());
  ByteTouches Map;
  for (const BlockShape &Shape : Blocks) {
    if (Shape.threads() == 0 || Shape.threads() > 1024)
      continue;
    Pairs.clear();
    SkipPairs.clear();
    for (auto &[Key, Members] : Objects) {
      // An object the kernel only reads cannot race: nothing to evaluate.
      if (std::none_of(Members.begin(), Members.end(),
                       [&](size_t I) { return Out.Sites[I].Site.Store; }))
        continue;
      bool Global = Out.Sites[Members.front()].Site.Space == MemorySpace::Global;
      ObjectEnvs O = objectEnvs(Members, Out.Sites, TD, Shape, Grid, Known);
      RaceScan(Out, TD, Shape, BlockDep, Pairs, O, Evals, Map)
          .run(Members, Global, GridBlocks, GridDim);
      // The blocks that skip a conditional barrier, each in its own layout.
      // They have a work bound of their own: the launches' layout is evaluated as far as
      // it was without them.
      if (!Skips.empty()) {
        uint64_t MainWork = Out.Work;
        bool MainCapped = Out.WorkCapped;
        Out.Work = SkipWork;
        Out.WorkCapped = false;
        RaceScan Scan(Out, TD, Shape, BlockDep, SkipPairs, O, Evals, Map);
        Skips.scan(Scan, Members, O, Shape);
        SkipWork = Out.Work;
        Out.Work = MainWork;
        Out.WorkCapped = MainCapped;
      }
    }
    addFindings(Out, Shape, Pairs, Reported, Opts, Ctx);
    // A pair that races only where a block skips a barrier (the pairs of every block that
    // takes them are reported above).
    for (auto It = SkipPairs.begin(); It != SkipPairs.end();)
      It = Pairs.count(It->first) && Pairs.at(It->first).Found ? SkipPairs.erase(It) : ++It;
    addFindings(Out, Shape, SkipPairs, Reported, Opts, Ctx);
  }
  Out.Work += SkipWork;
  markZeroTripRaces(Out, W.Unproven, Kernel, TD, Ctx, Known);
  return Out;
}

} // namespace warplint
