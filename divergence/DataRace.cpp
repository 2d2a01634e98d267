//===- DataRace.cpp - words two threads touch between the same barriers -===//
#include "divergence/DataRace.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace clang::tidy::warplint {

using namespace ::warplint::divergence;

namespace {

std::string calleeName(const CallExpr *C) {
  if (const FunctionDecl *FD = C->getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName().str();
  return "";
}

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

/// A form that reads a block index.
bool mentionsBlock(const Sym &S, const std::vector<SymVarInfo> &Vars) {
  std::vector<unsigned> Used;
  collectVars(S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::BlockIdx)
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
    if (Depth > 8)
      return true;
    if (auto *E = dyn_cast<Expr>(S))
      if (SymRef V = TD.valueOf(E).S; V && !readsData(*V, TD.vars()))
        return mentionsBlock(*V, TD.vars());
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
      return VD->isLocalVarDecl(); // a local with no usable form: not known
    }
    for (const Stmt *C : S->children())
      if (of(C, Depth + 1))
        return true;
    return false;
  }

private:
  bool shared(const VarDecl *VD, unsigned Depth) {
    auto [It, New] = Memo.try_emplace(VD, true); // true while being decided (a cycle)
    if (!New)
      return It->second;
    bool Dependent = false;
    for (const RaceSite &R : Sites) {
      if (R.Site.ObjectDecl != VD || !R.Site.Store)
        continue;
      if (!R.Site.Offset || mentionsBlock(*R.Site.Offset, TD.vars()) || R.Site.Load ||
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

  IntervalWalker(std::vector<RaceSite> &Sites, const ThreadDependence &TD, ASTContext &Ctx)
      : Sites(Sites), TD(TD), Ctx(Ctx) {
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
      // after the branch is the barrier arm's.
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

  bool Stopped = false;
  const CallExpr *StoppedAt = nullptr;
  std::string StoppedCallee;

private:
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
    AbsVal V = TD.valueOf(Cond);
    if (!V.S)
      return true;
    return readsData(*V.S, TD.vars());
  }

  void loop(const Stmt *S, const Expr *Cond, const Stmt *Body, const Expr *Inc) {
    LoopCtx L{S};
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
    // The loop exits at its condition: after the code before it or after a body's end.
    Cur = join(L.Header[0], Tail[0]);
    CurWarp = join(L.Header[1], Tail[1]);
    CurGrid = join(L.Header[2], Tail[2]);
  }

  void call(const CallExpr *C) {
    if (isBlockBarrier(C)) {
      ++Barriers;
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
      ++WarpBarriers;
      CurWarp = {fresh()};
      for (LoopCtx *L : Loops)
        L->HasWarp = true;
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
  std::vector<LoopCtx *> Loops;
  std::set<const FunctionDecl *> Active;
  unsigned Depth = 0;
};

/// The stored value of a plain store (`s[i] = v`): v.
const Expr *storedValue(const Expr *Access, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Access);
  while (!Parents.empty()) {
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(P))
      return B->getOpcode() == BO_Assign && B->getLHS()->IgnoreParens() == Access ? B->getRHS()
                                                                                 : nullptr;
    if (!isa<ParenExpr>(P))
      return nullptr;
    Access = P;
    Parents = Ctx.getParents(*P);
  }
  return nullptr;
}

/// A touch of one byte by one thread.
struct Touch {
  uint32_t Site;
  uint32_t Thread; ///< block * threads per block + linear thread id
  bool Store;
  std::optional<int64_t> Value;
};

struct PairState {
  bool Found = false, Benign = true, AnyCrossWarp = false;
  RaceThread T1, T2;
  int64_t Byte = 0;
  bool CrossBlock = false;
  std::optional<std::pair<RaceThread, RaceThread>> CrossExample;
  std::set<size_t> RacyCombos; ///< combinations of the sampled values that race
  size_t Combos = 1;
  std::string Values;
  bool Sampled = false;
  std::string Samples;
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

RaceAnalysis analyzeRaces(const FunctionDecl *Kernel, const ThreadDependence &TD,
                          ASTContext &Ctx, const std::vector<BlockShape> &Blocks,
                          std::optional<std::array<uint64_t, 3>> Grid, const RaceOptions &Opts,
                          const KnownValues *Known) {
  RaceAnalysis Out;
  if (!Kernel || !Kernel->hasBody())
    return Out;
  for (MemoryAccessSite &S : collectAllAccesses(Kernel, TD, Ctx)) {
    RaceSite R;
    R.Site = std::move(S);
    if (R.Site.Store && !R.Site.Load)
      R.Value = storedValue(R.Site.Access, Ctx);
    Out.Sites.push_back(std::move(R));
  }
  IntervalWalker W(Out.Sites, TD, Ctx);
  W.walk(Kernel->getBody());
  W.finish();
  Out.StoppedAt = W.StoppedAt;
  Out.StoppedCallee = W.StoppedCallee;

  const std::vector<SymVarInfo> &Vars = TD.vars();
  BlockDependence BlockDep(TD, Out.Sites);
  // The grid's dimension whose first two blocks global accesses are evaluated for.
  unsigned GridDim = 0;
  int GridBlocks = 1; // an unknown grid: blocks are not compared (no guess)
  if (Grid) {
    GridBlocks = 1;
    for (unsigned D = 0; D < 3; ++D)
      if ((*Grid)[D] > 1) {
        GridDim = D;
        GridBlocks = 2;
        break;
      }
  }

  // The objects: sites grouped by object (declaration and name).
  std::map<std::pair<const VarDecl *, std::string>, std::vector<size_t>> Objects;
  for (size_t I = 0; I < Out.Sites.size(); ++I)
    if (Out.Sites[I].Order != ~0u)
      Objects[{Out.Sites[I].Site.ObjectDecl, Out.Sites[I].Site.Object}].push_back(I);

  constexpr uint64_t MaxWork = 40'000'000; // bytes inserted per kernel
  std::map<std::pair<size_t, size_t>, PairState> Pairs;
  std::set<std::pair<size_t, size_t>> Reported;

  for (const BlockShape &Shape : Blocks) {
    if (Shape.threads() == 0 || Shape.threads() > 1024)
      continue;
    Pairs.clear();
    for (auto &[Key, Members] : Objects) {
      // An object the kernel only reads cannot race: nothing to evaluate.
      if (std::none_of(Members.begin(), Members.end(),
                       [&](size_t I) { return Out.Sites[I].Site.Store; }))
        continue;
      bool Global = Out.Sites[Members.front()].Site.Space == MemorySpace::Global;
      // The unknowns the group reads, by role.
      std::vector<unsigned> Used;
      for (size_t I : Members) {
        const RaceSite &R = Out.Sites[I];
        if (R.Site.Offset)
          collectVars(*R.Site.Offset, Used);
        if (R.Site.Active)
          collectVars(*R.Site.Active, Used);
        if (R.Value)
          if (SymRef V = TD.valueOf(R.Value).S)
            collectVars(*V, Used);
      }
      std::sort(Used.begin(), Used.end());
      Used.erase(std::unique(Used.begin(), Used.end()), Used.end());
      std::set<int> Tied, Free;
      for (size_t I : Members) {
        for (const RaceSite::Tied &T : Out.Sites[I].TiedLoops)
          Tied.insert(T.Var);
        for (const auto &F : Out.Sites[I].FreeLoops)
          Free.insert(F.first);
      }
      std::vector<unsigned> Plain, TiedVars;
      for (unsigned V : Used) {
        if (V >= Vars.size())
          continue;
        const SymVarInfo &I = Vars[V];
        if (I.Kind == SymVarInfo::BlockIdx)
          continue;
        if (Tied.count(int(V)) && I.Kind == SymVarInfo::Loop)
          TiedVars.push_back(V);
        else if (!Free.count(int(V)))
          Plain.push_back(V);
      }
      // Plain unknowns: parameters take 1, 32, 33 and 1000 (a few combinations), grid
      // sizes 2; loop counters used outside their loop: free below.
      std::vector<std::vector<int64_t>> PlainValues;
      std::vector<bool> PlainSampled; // a parameter no launch fixes: its values are samples
      std::string Samples;
      size_t Total = 1;
      for (unsigned V : Plain) {
        const SymVarInfo &I = Vars[V];
        std::vector<int64_t> C;
        if (I.Kind == SymVarInfo::GridDim)
          C = {Grid ? int64_t((*Grid)[I.Name.back() == 'z' ? 2 : I.Name.back() == 'y' ? 1 : 0])
                    : 2};
        else if (I.Kind == SymVarInfo::Param && Known && Known->count(I.Name) &&
                 !Known->at(I.Name).empty())
          C = Known->at(I.Name); // the launches' values, not samples
        else if (I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::Opaque)
          C = {1, 32, 33, 1000};
        else
          C = {0, 1};
        bool Sampled = I.Kind == SymVarInfo::Param &&
                       !(Known && Known->count(I.Name) && !Known->at(I.Name).empty());
        PlainSampled.push_back(Sampled);
        if (Sampled) {
          Samples += (Samples.empty() ? "" : "; ") + I.Name + ":";
          for (size_t K = 0; K < C.size(); ++K)
            Samples += (K ? ", " : " ") + std::to_string(C[K]);
        }
        Total = std::min<size_t>(size_t(1) << 20, Total * C.size());
        PlainValues.push_back(std::move(C));
      }
      size_t ComboCount = std::min<size_t>(Total, 8);
      std::vector<Env> Envs;
      std::vector<size_t> EnvCombo; // the combination of sampled values of each env
      for (size_t G = 0; G < ComboCount; ++G) {
        size_t Index = ComboCount == 1 ? 0 : G * (Total - 1) / (ComboCount - 1);
        Env E;
        E.Vars.resize(Vars.size());
        E.BlockDim[0] = Shape.X, E.BlockDim[1] = Shape.Y, E.BlockDim[2] = Shape.Z;
        for (size_t K = 0; K < Plain.size(); ++K) {
          E.Vars[Plain[K]] = PlainValues[K][Index % PlainValues[K].size()];
          Index /= PlainValues[K].size();
        }
        for (unsigned V = 0; V < Vars.size(); ++V)
          if (Vars[V].Kind == SymVarInfo::BlockIdx)
            E.Vars[V] = 0;
        Envs.push_back(std::move(E));
        EnvCombo.push_back(G);
      }
      // Counters of loops with a barrier: every thread in the same iteration; a few of
      // their values (first, second, middle, last).
      std::map<std::pair<size_t, unsigned>, std::vector<int64_t>> TiedSeq; // env, var
      for (unsigned V : TiedVars) {
        const SymVarInfo &I = Vars[V];
        std::vector<Env> Next;
        std::vector<size_t> NextCombo;
        for (size_t EI = 0; EI < Envs.size(); ++EI) {
          const Env &B = Envs[EI];
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
            // The previous value, for accesses after the body's last barrier.
            X.Vars.push_back(K ? std::optional<int64_t>((*Seq)[K - 1]) : std::nullopt);
            Next.push_back(std::move(X));
            NextCombo.push_back(EnvCombo[EI]);
          }
        }
        Envs = std::move(Next);
        EnvCombo = std::move(NextCombo);
      }

      for (size_t EI = 0; EI < Envs.size(); ++EI) {
        // Previous values pushed past Vars.size(), in TiedVars order.
        const Env &Base = Envs[EI];
        std::unordered_map<int64_t, llvm::SmallVector<Touch, 4>> Map;
        Map.reserve(1024);
        std::vector<bool> SiteRan(Out.Sites.size(), false);
        for (int Block = 0; Block < (Global ? GridBlocks : 1); ++Block) {
          for (size_t I : Members) {
            const RaceSite &R = Out.Sites[I];
            const MemoryAccessSite &S = R.Site;
            if (!S.Offset || R.UnderData || readsData(*S.Offset, Vars) ||
                (S.Active && readsData(*S.Active, Vars)))
              continue;
            Env E = Base;
            E.Vars.resize(Vars.size());
            bool Skip = false;
            for (const RaceSite::Tied &T : R.TiedLoops) {
              if (T.Shift == 0)
                continue;
              auto Pos = std::find(TiedVars.begin(), TiedVars.end(), unsigned(T.Var));
              if (Pos == TiedVars.end())
                continue;
              std::optional<int64_t> Prev = Base.Vars[Vars.size() + (Pos - TiedVars.begin())];
              if (!Prev)
                Skip = true;
              else
                E.Vars[T.Var] = Prev;
            }
            if (Skip)
              continue;
            for (unsigned V = 0; V < Vars.size(); ++V)
              if (Vars[V].Kind == SymVarInfo::BlockIdx)
                E.Vars[V] = Vars[V].Name.back() == "xyz"[GridDim] ? Block : 0;
            SymRef ValueSym = R.Value ? TD.valueOf(R.Value).S : nullptr;
            bool BlockDependent = mentionsBlock(*S.Offset, Vars) ||
                                  (S.Active && mentionsBlock(*S.Active, Vars)) ||
                                  (R.Value && BlockDep.of(R.Value));
            Variance ValueVariance = R.Value ? TD.varianceOf(R.Value) : Variance::Data;
            bool ValueUniform = ValueVariance == Variance::Uniform;
            bool ValueWarpUniform = ValueVariance <= Variance::WarpUniform;
            // Free counters: the values each thread may take.
            std::vector<int> FreeVars;
            for (const auto &F : R.FreeLoops)
              if (F.first >= 0)
                FreeVars.push_back(F.first);
            std::sort(FreeVars.begin(), FreeVars.end());
            FreeVars.erase(std::unique(FreeVars.begin(), FreeVars.end()), FreeVars.end());
            for (unsigned T = 0; T < Shape.threads(); ++T) {
              E.Tid[0] = T % Shape.X;
              E.Tid[1] = (T / Shape.X) % Shape.Y;
              E.Tid[2] = T / (Shape.X * Shape.Y);
              // Every combination of the free counters' values (at most 64); with none,
              // the thread's environment itself (no copy per thread).
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
                    if (auto L = enumerateLoop(*FI.Init, *FI.Cond, *FI.Step, V, C, 4096)) {
                      size_t N = L->size();
                      for (size_t K : {size_t(0), size_t(1), size_t(2), size_t(3), N / 2,
                                       N - 2, N - 1})
                        if (K < N && std::find(Seq.begin(), Seq.end(), (*L)[K]) == Seq.end())
                          Seq.push_back((*L)[K]);
                    }
                  }
                  for (int64_t X : Seq) {
                    if (Next.size() >= 64)
                      break;
                    Env Y = C;
                    Y.Vars[V] = X;
                    Next.push_back(std::move(Y));
                  }
                }
                Combos = std::move(Next);
              }
              size_t CombosN = FreeVars.empty() ? 1 : Combos.size();
              for (size_t CI = 0; CI < CombosN; ++CI) {
                const Env &C = FreeVars.empty() ? E : Combos[CI];
                if (S.Active) {
                  std::optional<int64_t> On = evaluate(*S.Active, C);
                  if (!On || !*On)
                    continue; // not run, or run on a condition not known: not guessed
                }
                std::optional<int64_t> Off = evaluate(*S.Offset, C);
                if (!Off)
                  continue;
                SiteRan[I] = true;
                std::optional<int64_t> Value;
                if (ValueSym)
                  Value = evaluate(*ValueSym, C);
                uint32_t Thread = uint32_t(Block) * Shape.threads() + T;
                for (unsigned K = 0; K < S.Bytes; ++K) {
                  if (++Out.Work > MaxWork) {
                    Out.WorkCapped = true;
                    break;
                  }
                  auto &Bucket = Map[*Off + K];
                  for (const Touch &Old : Bucket) {
                    if (Old.Thread == Thread || !(Old.Store || S.Store))
                      continue;
                    const RaceSite &O = Out.Sites[Old.Site];
                    bool SameBlock = Old.Thread / Shape.threads() == uint32_t(Block);
                    bool SameWarp =
                        SameBlock && (Old.Thread % Shape.threads()) / 32 == T / 32;
                    if (SameBlock && !intervalsMeet(O.Intervals, R.Intervals))
                      continue;
                    if (SameWarp && !intervalsMeet(O.WarpIntervals, R.WarpIntervals))
                      continue;
                    if (!SameBlock && !intervalsMeet(O.GridIntervals, R.GridIntervals))
                      continue;
                    bool Benign = Old.Store && S.Store &&
                                  ((Old.Value && Value && *Old.Value == *Value) ||
                                   (Old.Site == I && !Value && !Old.Value &&
                                    (ValueUniform || (SameWarp && ValueWarpUniform))));
                    // Every block repeating the same store (`out[threadIdx.x] = v` in a grid
                    // of several blocks, the value not reading blockIdx): the same thread
                    // of another block writes the same value.
                    if (!Benign && !SameBlock && Old.Store && S.Store && Old.Site == I &&
                        Old.Thread % Shape.threads() == T && !BlockDependent)
                      Benign = true;
                    // A read of a word every thread writes with one value before it in
                    // the interval (`p = A; ... p`): it reads that value either way.
                    const RaceSite &W = Old.Store ? O : R;
                    const RaceSite &Rd = Old.Store ? R : O;
                    if (!Benign && !(Old.Store && S.Store) && W.Value && !W.Site.Active &&
                        W.FreeLoops.empty() && W.TiedLoops.empty() && W.Order < Rd.Order &&
                        TD.varianceOf(W.Value) == Variance::Uniform)
                      Benign = true;
                    auto PK = std::make_pair(std::min<size_t>(Old.Site, I),
                                             std::max<size_t>(Old.Site, I));
                    PairState &P = Pairs[PK];
                    auto ThreadOf = [&](uint32_t G) {
                      RaceThread X;
                      unsigned L = G % Shape.threads();
                      X.Tid[0] = L % Shape.X, X.Tid[1] = (L / Shape.X) % Shape.Y,
                      X.Tid[2] = L / (Shape.X * Shape.Y);
                      X.Block = G / Shape.threads();
                      X.Linear = L;
                      return X;
                    };
                    if (!SameBlock && !Benign && !P.CrossExample) {
                      bool OldFirst = Old.Site == PK.first;
                      RaceThread A = ThreadOf(Old.Thread), B = ThreadOf(Thread);
                      P.CrossExample = OldFirst ? std::make_pair(A, B) : std::make_pair(B, A);
                    }
                    bool Better = !P.Found || (P.Benign && !Benign) ||
                                  (!P.AnyCrossWarp && !SameWarp && (P.Benign == Benign));
                    P.Combos = ComboCount;
                    if (!Benign)
                      P.RacyCombos.insert(EnvCombo[EI]);
                    if (Better) {
                      P.Found = true;
                      P.Benign = Benign;
                      P.AnyCrossWarp = !SameWarp;
                      RaceThread A, B;
                      unsigned OT = Old.Thread % Shape.threads();
                      A.Tid[0] = OT % Shape.X, A.Tid[1] = (OT / Shape.X) % Shape.Y,
                      A.Tid[2] = OT / (Shape.X * Shape.Y);
                      A.Block = Old.Thread / Shape.threads();
                      A.Linear = OT;
                      B.Tid[0] = E.Tid[0], B.Tid[1] = E.Tid[1], B.Tid[2] = E.Tid[2];
                      B.Block = Block;
                      B.Linear = T;
                      bool OldFirst = Old.Site == PK.first;
                      P.T1 = OldFirst ? A : B;
                      P.T2 = OldFirst ? B : A;
                      P.Byte = *Off + K;
                      P.CrossBlock = !SameBlock;
                      std::string Vals;
                      P.Sampled = false;
                      for (size_t K = 0; K < Plain.size(); ++K) {
                        unsigned V = Plain[K];
                        if (Vars[V].Kind == SymVarInfo::Param && C.Vars[V]) {
                          Vals += (Vals.empty() ? "" : ", ") + Vars[V].Name + " = " +
                                  std::to_string(*C.Vars[V]);
                          P.Sampled |= PlainSampled[K];
                        }
                      }
                      P.Values = Vals;
                      P.Samples = Samples;
                    }
                  }
                  if (Bucket.size() < 4)
                    Bucket.push_back({uint32_t(I), Thread, S.Store, Value});
                }
                if (Out.WorkCapped)
                  break;
              }
              if (Out.WorkCapped)
                break;
            }
          }
        }
        (void)SiteRan;
      }
    }
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
      F.Values = P.Values;
      F.ValueDependent = !P.Values.empty() && P.RacyCombos.size() < P.Combos;
      F.Sampled = P.Sampled;
      F.Samples = P.Samples;
      F.Shape = Shape;
      // A loop the collision runs through: a barrier loop whose end meets its start, or
      // a loop with no barrier around both.
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
  return Out;
}

} // namespace clang::tidy::warplint
