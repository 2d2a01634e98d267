//===- ThreadDependence.cpp - which values of a kernel differ between threads -===//
#include "divergence/ThreadDependence.h"
#include "divergence/Idioms.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <map>
#include <mutex>
#include <set>

namespace warplint {

namespace {
/// How deep callees are walked for their values: any body six calls below the kernel,
/// and below that a small helper only (a reduction step, a lane-mask or broadcast helper:
/// a body of at most SmallBody statements and expressions), ten calls below at most. What
/// a chain of helpers ends in decides a value (PhysX's `warpReduction(..., winnerLane)`
/// handing its work to an overload six calls under the kernel). The barrier and warp
/// calls are recorded down to RecordFrames (five calls under the kernel, as before the
/// deeper walk): their number, and the sampling of the lanes that reach each, stay as
/// they were; below it a call is followed for what it returns and writes only.
constexpr size_t AnyBodyFrames = 7, SmallBodyFrames = 11, RecordFrames = 6;
constexpr unsigned SmallBody = 80;
} // namespace
using namespace clang;

using namespace ::warplint::divergence;


const char *varianceName(Variance V) {
  switch (V) {
  case Variance::Uniform:
    return "uniform";
  case Variance::WarpUniform:
    return "warp-uniform";
  case Variance::LaneVarying:
    return "lane-varying";
  case Variance::Data:
    return "data-dependent";
  }
  return "unknown";
}

SymRef ThreadDependence::linearTid() {
  SymRef X = makeThreadIdx(0), Y = makeThreadIdx(1), Z = makeThreadIdx(2);
  SymRef BX = makeBlockDim(0), BY = makeBlockDim(1);
  SymRef YX = makeBinary(SymOp::Mul, Y, BX, 32, true);
  SymRef ZXY = makeBinary(SymOp::Mul, Z, makeBinary(SymOp::Mul, BX, BY, 32, true), 32, true);
  return makeBinary(SymOp::Add, X, makeBinary(SymOp::Add, YX, ZXY, 32, true), 32, true);
}

std::pair<unsigned, bool> ThreadDependence::typeOf(QualType T) const {
  if (T.isNull() || !T->isIntegralOrEnumerationType())
    return {0, false};
  return {unsigned(Ctx.getTypeSize(T)), T->isUnsignedIntegerOrEnumerationType()};
}

unsigned ThreadDependence::varFor(const std::string &Key, SymVarInfo Info) {
  auto It = VarIndex.find(Key);
  if (It != VarIndex.end())
    return It->second;
  Vars.push_back(std::move(Info));
  VarIndex[Key] = Vars.size() - 1;
  return Vars.size() - 1;
}

Variance ThreadDependence::varianceOf(const Expr *E) const { return valueOf(E).V; }

int ThreadDependence::loopVarOf(const Stmt *Loop) const {
  auto It = VarIndex.find("loop:" + std::to_string(reinterpret_cast<uintptr_t>(Loop)));
  return It == VarIndex.end() ? -1 : int(It->second);
}

int ThreadDependence::iterationVarOf(const Stmt *Loop) const {
  auto It = VarIndex.find("loop:" + std::to_string(reinterpret_cast<uintptr_t>(Loop)) + ":iter");
  return It == VarIndex.end() ? -1 : int(It->second);
}

AbsVal ThreadDependence::valueOf(const Expr *E) const {
  auto It = Seen.find(E);
  return It == Seen.end() ? AbsVal{} : It->second;
}

namespace {
/// The analyses run per kernel (canonical declaration), by every ThreadDependence of the
/// process: what analysesOf reads (tests: each kernel is analysed once).
struct AnalysisCounts {
  std::mutex Lock;
  std::map<const FunctionDecl *, unsigned> Count;
};
AnalysisCounts &analysisCounts() {
  static AnalysisCounts C;
  return C;
}

/// A warp vote whose value is 0 or 1 (`__any_sync`, `__all_sync`, `__uni_sync` and the
/// maskless `__any`, `__all`).
bool isVoteCall(const Expr *E) {
  const auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "__any_sync" || N == "__all_sync" || N == "__uni_sync" || N == "__any" ||
         N == "__all";
}

/// The truth of a condition that compares a vote with a constant the same way for both of
/// the vote's values (gardenia's `while (__any_sync(0xFFFFFFFF, size) >= WARP_SIZE)`:
/// never true), or of `&&` / `||` that such a comparison decides; none otherwise.
std::optional<bool> voteComparison(const Expr *Cond, ASTContext &Ctx) {
  const auto *B = Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!B || B->isValueDependent())
    return std::nullopt;
  if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
    bool And = B->getOpcode() == BO_LAnd;
    for (const Expr *Side : {B->getLHS(), B->getRHS()})
      if (std::optional<bool> T = voteComparison(Side, Ctx); T && *T != And)
        return !And; // one side false decides `&&`, one side true decides `||`
    return std::nullopt;
  }
  if (!B->isComparisonOp())
    return std::nullopt;
  const Expr *Vote = B->getLHS(), *K = B->getRHS();
  bool Swapped = false;
  if (!isVoteCall(Vote)) {
    std::swap(Vote, K);
    Swapped = true;
  }
  Expr::EvalResult R;
  if (!isVoteCall(Vote) || K->isValueDependent() || !K->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &KV = R.Val.getInt();
  if (KV.getSignificantBits() > 63)
    return std::nullopt;
  const int64_t Konst = KV.getExtValue();
  auto Holds = [&](int64_t V) {
    int64_t L = Swapped ? Konst : V, Rt = Swapped ? V : Konst;
    switch (B->getOpcode()) {
    case BO_LT: return L < Rt;
    case BO_LE: return L <= Rt;
    case BO_GT: return L > Rt;
    case BO_GE: return L >= Rt;
    case BO_EQ: return L == Rt;
    default: return L != Rt;
    }
  };
  if (Holds(0) != Holds(1))
    return std::nullopt;
  return Holds(0);
}
} // namespace

unsigned ThreadDependence::analysesOf(const FunctionDecl *Kernel) {
  AnalysisCounts &C = analysisCounts();
  std::lock_guard<std::mutex> Guard(C.Lock);
  auto It = C.Count.find(Kernel->getCanonicalDecl());
  return It == C.Count.end() ? 0 : It->second;
}

void ThreadDependence::forgetAnalyses(const FunctionDecl *Kernel) {
  AnalysisCounts &C = analysisCounts();
  std::lock_guard<std::mutex> Guard(C.Lock);
  C.Count.erase(Kernel->getCanonicalDecl());
}

static SymRef truth(const SymRef &S);

static void ownSlotArrays(const FunctionDecl *Kernel, llvm::SmallPtrSetImpl<const VarDecl *> &Out);

void ThreadDependence::analyze(const FunctionDecl *Kernel) {
  {
    AnalysisCounts &C = analysisCounts();
    std::lock_guard<std::mutex> Guard(C.Lock);
    ++C.Count[Kernel->getCanonicalDecl()];
  }
  Vars.clear();
  VarIndex.clear();
  Branches.clear();
  Seen.clear();
  LoadVariance.clear();
  AccessPaths.clear();
  LocalReadPaths.clear();
  AccessMatches.clear();
  Frames.clear();
  Recording = true;
  SyncCalls.clear();
  CallStack.clear();
  Speculative = 0;
  if (!Kernel || !Kernel->hasBody())
    return;
  Frames.emplace_back();
  Frames.back().Fn = Kernel;
  State St;
  OwnSlots.clear();
  if (UnitDims[1] && UnitDims[2])
    ownSlotArrays(Kernel, OwnSlots);
  for (const VarDecl *V : OwnSlots) // what a thread has not stored: shared memory's
    St.Locals[V] = AbsVal{Variance::Data, nullptr};
  walk(Kernel->getBody(), St);
  Frames.clear();
  // The reads of each local of the kernel body, gathered once for all its calls.
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> Reads;
  if (!SyncCalls.empty()) {
    std::function<void(const Stmt *)> Gather = [&](const Stmt *X) {
      if (!X)
        return;
      if (auto *DR = dyn_cast<DeclRefExpr>(X))
        if (auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage())
          Reads[V].push_back(DR);
      for (const Stmt *C : X->children())
        Gather(C);
    };
    Gather(Kernel->getBody());
  }
  for (SyncCall &S : SyncCalls)
    if (S.Via.empty())
      S.Kept = resultKept(S.Call, Reads);
}

/// The condition under which the value a call in the kernel body computes is kept:
/// the call is part of the value of a local (`float c = (__shfl_sync(m, v, l) + v) * 0.5f`)
/// that the kernel stores to memory, through arithmetic, by stores whose paths are known
/// (`if (lane < 3) out[lane] = c;`), or reads on known paths (`if (tid < delta) v =
/// min(v, c);`, opencv's histogram and CLAHE reductions): the disjunction of those paths.
/// Null when a store or a read happens on every path.
SymRef ThreadDependence::resultKept(
    const CallExpr *Call,
    const llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> &Reads) {
  auto ParentOf = [&](const Stmt *X) -> const Stmt * {
    DynTypedNodeList Ps = Ctx.getParents(*X);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  };
  auto Arithmetic = [](const Stmt *P) {
    if (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr, CXXFunctionalCastExpr,
            CXXStaticCastExpr>(P))
      return true;
    if (auto *B = dyn_cast<BinaryOperator>(P))
      return !B->isAssignmentOp() && !B->isLogicalOp() && B->getOpcode() != BO_Comma;
    if (auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus;
    return false;
  };
  // The local the call's value goes to.
  const Stmt *At = Call;
  const Stmt *Up = ParentOf(At);
  while (Up && Arithmetic(Up)) {
    At = Up;
    Up = ParentOf(At);
  }
  const VarDecl *V = nullptr;
  if (!Up) {
    // A declaration's initialiser: its parent is the variable.
    DynTypedNodeList Ps = Ctx.getParents(*At);
    if (!Ps.empty())
      if (auto *VD = Ps[0].get<VarDecl>(); VD && VD->getInit() == At)
        V = VD;
  } else if (auto *DS = dyn_cast_or_null<DeclStmt>(Up)) {
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() &&
                                           VD->getInit()->IgnoreParenImpCasts() ==
                                               cast<Expr>(At)->IgnoreParenImpCasts())
        V = VD;
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(Up);
             B && B->getOpcode() == BO_Assign && B->getRHS() == At) {
    if (auto *DR = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      V = dyn_cast<VarDecl>(DR->getDecl());
  }
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getType()->isScalarType() ||
      V->hasAttr<CUDASharedAttr>())
    return nullptr;
  // Every read of the local: a value stored to memory, through arithmetic.
  auto Found = Reads.find(V);
  if (Found == Reads.end())
    return nullptr;
  SymRef Kept;
  for (const DeclRefExpr *U : Found->second) {
    const Stmt *X = U, *P = ParentOf(X);
    while (P && Arithmetic(P)) {
      X = P;
      P = ParentOf(X);
    }
    auto *B = dyn_cast_or_null<BinaryOperator>(P);
    if (B && B->getOpcode() == BO_Assign && B->getLHS() == X) {
      // The local written (the assignment of its own value above, or a later one): no use.
      if (auto *DR = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
          DR && DR->getDecl() == V)
        continue;
      return nullptr;
    }
    if (!B || B->getOpcode() != BO_Assign || B->getRHS() != X) {
      // Another use (`if (tid < delta) v = min(v, shuffled)`): a lane uses the value only
      // where it makes that read, so the read's path is where the value is kept.
      auto It = LocalReadPaths.find(U);
      if (It == LocalReadPaths.end() || It->second.empty())
        return nullptr; // read on every path
      SymRef Path;
      for (const SymRef &C : It->second)
        Path = Path ? makeBinary(SymOp::LAnd, Path, truth(C), 8, true) : truth(C);
      Kept = Kept ? makeBinary(SymOp::LOr, Kept, Path, 8, true) : Path;
      continue;
    }
    const Expr *L = B->getLHS()->IgnoreParens();
    if (!isa<ArraySubscriptExpr, MemberExpr, UnaryOperator>(L))
      return nullptr;
    auto It = AccessPaths.find(L);
    if (It == AccessPaths.end() || It->second.empty())
      return nullptr; // a store every thread that gets here makes
    SymRef Path;
    for (const SymRef &C : It->second)
      Path = Path ? makeBinary(SymOp::LAnd, Path, truth(C), 8, true) : truth(C);
    Kept = Kept ? makeBinary(SymOp::LOr, Kept, Path, 8, true) : Path;
  }
  return Kept;
}

static const Expr *strip(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

/// `threadIdx.x` (through parentheses and conversions).
static bool isThreadIdxX(const Expr *E) {
  auto *POE = dyn_cast_or_null<PseudoObjectExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  std::optional<BuiltinRead> B = POE ? builtinRead(POE) : std::nullopt;
  return B && B->Var == "threadIdx" && B->Dim == 0;
}

/// The `__shared__` arrays a kernel's threads use as variables of their own, each its slot:
/// every use in the kernel's body is `a[threadIdx.x]` read, written, or incremented (its
/// address never taken), or the array handed to a device function whose parameter is only
/// read as `p[threadIdx.x]` (gpuNUFFT's `sec[threadIdx.x] = blockIdx.x; while
/// (sec[threadIdx.x] < N) { ...; sec[threadIdx.x] += gridDim.x; }`). Only for blocks whose
/// y and z every launch fixes at 1, where threadIdx.x names one thread.
static void ownSlotArrays(const FunctionDecl *Kernel,
                          llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  llvm::DenseMap<const VarDecl *, bool> Ok;
  std::vector<const Stmt *> Up;
  auto Skip = [&](size_t &K) { // the nearest ancestor past parentheses and conversions
    while (K > 0 && isa<ParenExpr, ImplicitCastExpr>(Up[K - 1]))
      --K;
  };
  // The element `a[threadIdx.x]` at Up[K-1] is used as a value, a store or an increment.
  auto ElementUse = [&](size_t K) {
    const Stmt *Elem = Up[K - 1];
    size_t J = K - 1;
    bool Read = J > 0 && isa<ImplicitCastExpr>(Up[J - 1]) &&
                cast<ImplicitCastExpr>(Up[J - 1])->getCastKind() == CK_LValueToRValue;
    while (J > 0 && isa<ParenExpr>(Up[J - 1]))
      --J;
    if (Read || J == 0)
      return Read;
    if (auto *B = dyn_cast<BinaryOperator>(Up[J - 1]))
      return B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Elem;
    if (auto *U = dyn_cast<UnaryOperator>(Up[J - 1]))
      return U->isIncrementDecrementOp();
    return false;
  };
  // A callee's parameter P read only as `P[threadIdx.x]`.
  auto ReadOnlySlots = [&](const FunctionDecl *F, unsigned I) {
    const FunctionDecl *Def = nullptr;
    if (!F || !F->hasBody(Def) || !Def || I >= Def->getNumParams())
      return false;
    const ParmVarDecl *P = Def->getParamDecl(I);
    bool Good = true;
    std::function<void(const Stmt *, const Stmt *, const Stmt *)> Walk =
        [&](const Stmt *S, const Stmt *Parent, const Stmt *Grand) {
          if (!S || !Good)
            return;
          if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == P) {
            auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
            auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(Cast ? Grand : Parent);
            Good = AS && AS->getBase()->IgnoreParenImpCasts() == DR && isThreadIdxX(AS->getIdx());
            return;
          }
          for (const Stmt *C : S->children())
            Walk(C, S, Parent);
        };
    Walk(Def->getBody(), nullptr, nullptr);
    if (!Good)
      return false;
    // ... and each such element read, never written.
    std::function<bool(const Stmt *)> Writes = [&](const Stmt *S) {
      if (!S)
        return false;
      const Expr *Target = nullptr;
      if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
        Target = B->getLHS();
      else if (auto *U = dyn_cast<UnaryOperator>(S);
               U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
        Target = U->getSubExpr();
      if (auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(Target ? Target->IgnoreParens() : nullptr))
        if (auto *DR = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
            DR && DR->getDecl() == P)
          return true;
      for (const Stmt *C : S->children())
        if (Writes(C))
          return true;
      return false;
    };
    return !Writes(Def->getBody());
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *DR = dyn_cast<DeclRefExpr>(S)) {
      auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (V && V->hasAttr<CUDASharedAttr>() && V->getType()->isConstantArrayType() &&
          !V->getType()->getArrayElementTypeNoTypeQual()->isArrayType() &&
          V->getType()->getArrayElementTypeNoTypeQual()->isScalarType()) {
        size_t K = Up.size();
        Skip(K);
        bool Good = false;
        if (K > 0)
          if (auto *AS = dyn_cast<ArraySubscriptExpr>(Up[K - 1]))
            Good = AS->getBase()->IgnoreParenImpCasts() == DR && isThreadIdxX(AS->getIdx()) &&
                   ElementUse(K);
        if (K > 0)
          if (auto *C = dyn_cast<CallExpr>(Up[K - 1]))
            for (unsigned I = 0; I < C->getNumArgs(); ++I)
              if (C->getArg(I)->IgnoreParenImpCasts() == DR)
                Good = ReadOnlySlots(C->getDirectCallee(), I);
        auto [It, New] = Ok.try_emplace(V, true);
        It->second = It->second && Good;
      }
      return;
    }
    Up.push_back(S);
    for (const Stmt *C : S->children())
      Visit(C);
    Up.pop_back();
  };
  Visit(Kernel->getBody());
  for (auto [V, Good] : Ok)
    if (Good)
      Out.insert(V);
}

static bool readsMemoryOrCalls(const Stmt *S) {
  if (!S)
    return false;
  // threadIdx.x and its kin are reads of special registers, written as property getters:
  // a right side that reads only them (`tx < rows && threadIdx.y == 0`) is a predicate,
  // not a branch.
  if (auto *POE = dyn_cast<PseudoObjectExpr>(S))
    if (std::optional<BuiltinRead> B = builtinRead(POE);
        B && (B->Var == "threadIdx" || B->Var == "blockIdx" || B->Var == "blockDim" ||
              B->Var == "gridDim"))
      return false;
  if (isa<ArraySubscriptExpr, CallExpr>(S))
    return true;
  if (auto *U = dyn_cast<UnaryOperator>(S))
    if (U->getOpcode() == UO_Deref)
      return true;
  if (auto *M = dyn_cast<MemberExpr>(S))
    if (M->isArrow())
      return true;
  for (const Stmt *C : S->children())
    if (readsMemoryOrCalls(C))
      return true;
  return false;
}

static const VarDecl *localVar(const Expr *E) {
  if (auto *DR = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (VD->hasLocalStorage())
        return VD;
  return nullptr;
}

static bool containsReturnOrGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsReturnOrGoto(C))
      return true;
  return false;
}

static unsigned countRefs(const Stmt *S, const ValueDecl *D) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == D)
    ++N;
  for (const Stmt *C : S->children())
    N += countRefs(C, D);
  return N;
}

/// The one store through pointer parameter P when P is an output only: P named once in
/// the body, as `*P = value`, a statement of the body's own (under no condition or loop)
/// with no return before it, so every thread that returns has stored it (NCV's
/// `functor.assign(&reduceRes, reduceArr)`, `static void assign(volatile T *dst, volatile
/// T *src) { *dst = *src; }`).
static const BinaryOperator *onlyOutStore(const FunctionDecl *Def, const ParmVarDecl *P) {
  auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || !P->getType()->isPointerType() || P->getType()->getPointeeType().isConstQualified())
    return nullptr;
  if (countRefs(Body, P) != 1)
    return nullptr;
  for (const Stmt *S : Body->body()) {
    const Expr *E = dyn_cast<Expr>(S);
    if (auto *EC = dyn_cast_or_null<ExprWithCleanups>(E))
      E = EC->getSubExpr();
    if (auto *B = dyn_cast_or_null<BinaryOperator>(E ? E->IgnoreParens() : nullptr);
        B && B->getOpcode() == BO_Assign) {
      if (auto *U = dyn_cast<UnaryOperator>(B->getLHS()->IgnoreParenImpCasts());
          U && U->getOpcode() == UO_Deref)
        if (auto *DR = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts());
            DR && DR->getDecl() == P)
          return B;
    }
    if (containsReturnOrGoto(S) || countRefs(S, P))
      return nullptr;
  }
  return nullptr;
}

/// The local an assignment to E writes: E itself, the array an element of a thread's own
/// array belongs to (`r[k]`, `r[i][j]`), or the struct a member is of (`p.x`).
static const VarDecl *assignedLocal(const Expr *E) {
  E = strip(E);
  if (const VarDecl *V = localVar(E))
    return V;
  if (isa<ArraySubscriptExpr>(E)) {
    while (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = strip(AS->getBase());
    const VarDecl *V = localVar(E);
    // A `__shared__` array too: a thread's own slots are a variable (ownSlotArrays).
    if (!V)
      if (auto *DR = dyn_cast_or_null<DeclRefExpr>(E))
        if (auto *S = dyn_cast<VarDecl>(DR->getDecl()); S && S->hasAttr<CUDASharedAttr>())
          V = S;
    return V && V->getType()->isArrayType() ? V : nullptr;
  }
  if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
    return localVar(M->getBase());
  return nullptr;
}

/// Whether a reference's initializer names memory rather than a thread's own local: a
/// dereference, an element or an arrow member, a global or `__shared__` variable (through
/// casts). A reference to a local, or to what a call returns, is none.
static bool boundToMemory(const Expr *Init) {
  const Expr *E = Init->IgnoreParenCasts();
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  if (isa<ArraySubscriptExpr>(E)) {
    while (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenCasts();
    auto *DR = dyn_cast<DeclRefExpr>(E);
    auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return !VD || !VD->hasLocalStorage() || VD->getType()->isPointerType();
  }
  if (auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow();
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return !VD->hasLocalStorage();
  return false;
}

static void collectAssigned(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isAssignmentOp())
      if (const VarDecl *V = assignedLocal(B->getLHS()))
        Out.insert(V);
  } else if (auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      if (const VarDecl *V = assignedLocal(U->getSubExpr()))
        Out.insert(V);
  }
  if (auto *A = dyn_cast<GCCAsmStmt>(S))
    for (unsigned I = 0; I < A->getNumOutputs(); ++I)
      if (const VarDecl *V = localVar(A->getOutputExpr(I)))
        Out.insert(V);
  if (auto *C = dyn_cast<CallExpr>(S))
    for (const Expr *Arg : C->arguments())
      if (auto *U = dyn_cast<UnaryOperator>(strip(Arg)))
        if (U->getOpcode() == UO_AddrOf)
          if (const VarDecl *V = localVar(U->getSubExpr()))
            Out.insert(V);
  for (const Stmt *C : S->children())
    collectAssigned(C, Out);
}

static SymRef truth(const SymRef &S) {
  return makeBinary(SymOp::Ne, S, makeConst(0, S->Bits, S->Unsigned), 8, true);
}

void ThreadDependence::record(BranchSite Site, const State &St) {
  if (!Recording || Frames.size() != 1)
    return;
  for (const SymRef &P : St.Path)
    Site.Path = Site.Path ? makeBinary(SymOp::LAnd, Site.Path, truth(P), 8, true) : truth(P);
  findTerm(Site);
  Branches.push_back(std::move(Site));
}

void ThreadDependence::findTerm(BranchSite &Site) {
  // The first leaf of the condition, in source order, that varies between lanes.
  std::function<const Expr *(const Stmt *)> Find = [&](const Stmt *S) -> const Expr * {
    if (!S)
      return nullptr;
    if (auto *E = dyn_cast<Expr>(S)) {
      bool Leaf = isa<DeclRefExpr, PseudoObjectExpr, CallExpr, ArraySubscriptExpr>(E);
      if (Leaf && Seen.count(E) && Seen.find(E)->second.V >= Variance::LaneVarying)
        return E;
      if (isa<PseudoObjectExpr>(E))
        return nullptr;
    }
    for (const Stmt *C : S->children())
      if (const Expr *R = Find(C))
        return R;
    return nullptr;
  };
  Site.Term = Find(Site.Cond);
  if (Site.Term)
    Site.TermSym = Seen.find(Site.Term)->second.S;
}

namespace {
const Sym *stripSymCasts(const Sym *S) {
  while (S && S->Op == SymOp::Cast && S->A)
    S = S->A.get();
  return S;
}

namespace {
/// From's lane symmetry and identities, for a value that is From (a read, a return).
void keepLanes(AbsVal &Out, const AbsVal &From) {
  Out.LaneInv = From.LaneInv;
  Out.Id = From.Id;
  Out.XorOf = From.XorOf;
  Out.XorBy = From.XorBy;
  Out.DepOf = From.DepOf;
  Out.EqOf = From.EqOf;
  Out.EqBy = From.EqBy;
}
/// A value that is no longer the one its identities named (another trip, a new value).
void dropIdentity(AbsVal &A) { A.Id = A.XorOf = A.DepOf = A.EqOf = 0; }
/// The segment width of `__shfl*_sync(mask, v, src[, width])`: 32 without one, the
/// constant given, or none where it is not a constant.
std::optional<int64_t> shuffleWidth(const std::vector<AbsVal> &Args) {
  if (Args.size() < 4)
    return 32;
  const Sym *W = Args[3].S ? stripSymCasts(Args[3].S.get()) : nullptr;
  if (!W || W->Op != SymOp::Const)
    return std::nullopt;
  return W->Value;
}
} // namespace

ThreadPart scaled(const ThreadPart &P, int64_t K) {
  ThreadPart Out;
  if (K != 0)
    for (const auto &[Key, C] : P.Terms)
      Out.Terms[Key] = C * K;
  return Out;
}

/// A + Sign * B, without the terms that cancel.
ThreadPart added(const ThreadPart &A, const ThreadPart &B, int64_t Sign) {
  ThreadPart Out = A;
  for (const auto &[Key, C] : B.Terms) {
    int64_t &Sum = Out.Terms[Key];
    Sum += Sign * C;
    if (Sum == 0)
      Out.Terms.erase(Key);
  }
  return Out;
}

std::shared_ptr<const ThreadPart> shared(std::optional<ThreadPart> P) {
  return P ? std::make_shared<const ThreadPart>(std::move(*P)) : nullptr;
}
} // namespace

bool ThreadDependence::uniformSym(const Sym &S) const {
  if (mentionsThreadIdx(S))
    return false;
  std::vector<unsigned> Used;
  collectVars(S, Used);
  for (unsigned V : Used) {
    auto It = LoadVariance.find(V);
    if (It != LoadVariance.end() && It->second != Variance::Uniform)
      return false;
  }
  return true;
}

bool ThreadDependence::keyOf(const Sym *S, std::string &Out) const {
  S = stripSymCasts(S);
  if (!S)
    return false;
  switch (S->Op) {
  case SymOp::Const:
    Out += std::to_string(S->Value);
    return true;
  case SymOp::ThreadIdx:
  case SymOp::BlockDim:
    Out += (S->Op == SymOp::ThreadIdx ? "t" : "b") + std::to_string(S->Value);
    return true;
  case SymOp::Var:
    // A load is named by its text, which names different values where a local in it
    // changed: no key.
    if (S->Value < 0 || size_t(S->Value) >= Vars.size() ||
        Vars[S->Value].Kind == SymVarInfo::Opaque)
      return false;
    Out += "v" + std::to_string(S->Value);
    return true;
  default:
    Out += "(" + std::to_string(unsigned(S->Op));
    for (const SymRef *C : {&S->A, &S->B, &S->C})
      if (*C) {
        Out += ' ';
        if (!keyOf(C->get(), Out))
          return false;
      }
    Out += ')';
    return true;
  }
}

std::optional<ThreadPart> ThreadDependence::linearPart(const Sym *S) const {
  if (!S)
    return std::nullopt;
  if (uniformSym(*S))
    return ThreadPart{};
  const Sym *X = stripSymCasts(S);
  switch (X->Op) {
  case SymOp::Add:
  case SymOp::Sub: {
    std::optional<ThreadPart> A = linearPart(X->A.get()), B = linearPart(X->B.get());
    if (!A || !B)
      return std::nullopt;
    return added(*A, *B, X->Op == SymOp::Add ? 1 : -1);
  }
  case SymOp::Neg: {
    std::optional<ThreadPart> A = linearPart(X->A.get());
    return A ? std::optional<ThreadPart>(scaled(*A, -1)) : std::nullopt;
  }
  case SymOp::Mul:
  case SymOp::Shl: {
    // A thread-dependent side times a uniform factor (shifted by a uniform amount).
    const Sym *Part = nullptr, *Factor = nullptr;
    if (uniformSym(*X->B)) {
      Part = X->A.get();
      Factor = X->B.get();
    } else if (X->Op == SymOp::Mul && uniformSym(*X->A)) {
      Part = X->B.get();
      Factor = X->A.get();
    }
    if (!Part)
      break;
    std::optional<ThreadPart> P = linearPart(Part);
    if (!P)
      return std::nullopt;
    const Sym *FC = stripSymCasts(Factor);
    if (FC->Op == SymOp::Const) {
      if (X->Op == SymOp::Mul)
        return scaled(*P, FC->Value);
      if (FC->Value >= 0 && FC->Value < 62)
        return scaled(*P, int64_t(1) << FC->Value);
      return std::nullopt;
    }
    std::string FK = X->Op == SymOp::Shl ? "<<" : "*";
    if (!keyOf(Factor, FK))
      return std::nullopt;
    ThreadPart Out;
    for (const auto &[Key, C] : P->Terms)
      Out.Terms[Key + FK] += C;
    return Out;
  }
  default:
    break;
  }
  // Any other thread-dependent node is one term, named by its form.
  std::string Key;
  if (!keyOf(X, Key))
    return std::nullopt;
  ThreadPart Out;
  Out.Terms[Key] = 1;
  return Out;
}

std::optional<ThreadPart> ThreadDependence::threadPart(const AbsVal &A) const {
  if (A.V == Variance::Uniform)
    return ThreadPart{};
  if (A.V == Variance::Data)
    return std::nullopt;
  if (A.T)
    return *A.T;
  if (A.S)
    return linearPart(A.S.get());
  return std::nullopt;
}

AbsVal ThreadDependence::merge(const AbsVal &Cond, const AbsVal &A, const AbsVal &B) {
  // Thread parts: the same object is the same value (an unchanged local); equal parts
  // differ by a uniform amount, which a uniform condition picks for every thread alike.
  std::shared_ptr<const ThreadPart> T;
  if (A.T == B.T)
    T = A.T;
  else if (A.T && B.T && Cond.V == Variance::Uniform && *A.T == *B.T)
    T = std::make_shared<const ThreadPart>(*A.T); // a new value: a new object
  // The same lane of every warp takes the same side and holds the same operands: a lane
  // function still (an `if (lane < 12) input = ptr[lane]` read of a struct's words).
  bool LaneFn = laneFunction(A) && laneFunction(B) &&
                (laneFunction(Cond) || (A.S && A.S == B.S));
  // Lane symmetry: one value on both sides keeps its own; two values make a new one, the
  // same at l and l ^ m where the condition and both sides are.
  auto Lanes = [&](AbsVal &R) {
    if (A.Id && A.Id == B.Id)
      return;
    dropIdentity(R);
    R.LaneInv = 0;
    if (R.V < Variance::LaneVarying)
      return;
    if (A.LaneInv || B.LaneInv || Cond.LaneInv)
      R.LaneInv = laneInv(Cond, true) & laneInv(A, true) & laneInv(B, true);
    settleLanes(R);
  };
  if (A.S == B.S && A.V == B.V) {
    AbsVal R = A;
    R.T = T;
    R.LaneFn = R.V >= Variance::LaneVarying && LaneFn;
    Lanes(R);
    return R;
  }
  AbsVal R;
  R.V = join(A.V, B.V);
  if (Cond.V != Variance::Uniform)
    R.V = join(R.V, Cond.V);
  if (Cond.S && A.S && B.S && A.S->Bits == B.S->Bits && A.S->Unsigned == B.S->Unsigned)
    R.S = makeSelect(Cond.S, A.S, B.S, A.S->Bits, A.S->Unsigned);
  if (!R.S && R.V != Variance::Data && Cond.V == Variance::Uniform) {
    std::optional<ThreadPart> PA = threadPart(A), PB = threadPart(B);
    if (PA && PB && *PA == *PB)
      R.T = shared(std::move(PA));
  }
  R.LaneFn = R.V >= Variance::LaneVarying && LaneFn;
  Lanes(R);
  return R;
}

ThreadDependence::State ThreadDependence::mergeStates(const AbsVal &Cond, State &Then,
                                                      State &Else) {
  // Then and Else are consumed: their locals move into the result.
  if (Then.Terminated && !Else.Terminated)
    return std::move(Else);
  if (Else.Terminated && !Then.Terminated)
    return std::move(Then);
  bool Terminated = Then.Terminated && Else.Terminated;
  State Out = std::move(Then);
  Out.Terminated = Terminated;
  for (auto &KV : Else.Locals) {
    auto It = Out.Locals.find(KV.first);
    if (It == Out.Locals.end())
      continue; // declared only in the else branch: out of scope
    It->second = merge(Cond, It->second, KV.second);
    // An integer the arms leave with thread-dependent values of no known form is one
    // value from here on, a term of its own: what is computed from it keeps it, and the
    // difference of two such computations is uniform (cudpp's merge step: `first +=
    // depth*mult` in one arm, then `range = last - first` with `last = first + depth*mult
    // - 1`, the same for every thread).
    AbsVal &M = It->second;
    if (M.V == Variance::LaneVarying && !M.S && !M.T &&
        KV.first->getType()->isIntegralOrEnumerationType()) {
      ThreadPart P;
      P.Terms["merged#" + std::to_string(++MergedValues)] = 1;
      M.T = std::make_shared<const ThreadPart>(std::move(P));
    }
  }
  return Out;
}

bool isCacheHintedLoad(llvm::StringRef Name) {
  return Name == "__ldg" || Name == "__ldcg" || Name == "__ldca" || Name == "__ldcs" ||
         Name == "__ldlu" || Name == "__ldcv";
}

bool isSyncCallee(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  if (N.starts_with("__syncthreads") || N == "__barrier_sync" || N == "__syncwarp")
    return true;
  if (N.ends_with("_sync") && (N.starts_with("__shfl") || N == "__ballot_sync" ||
                               N == "__any_sync" || N == "__all_sync" || N == "__uni_sync" ||
                               N.starts_with("__match_") || N.starts_with("__reduce_")))
    return true;
  static const char *const GroupCalls[] = {
      "sync", "synchronize", "shfl", "shfl_down", "shfl_up", "shfl_xor", "ballot",
      "any",  "all",         "match_any", "match_all", "reduce"};
  if (llvm::is_contained(GroupCalls, N)) {
    for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
      if (auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "cooperative_groups")
          return true;
  }
  return false;
}

/// The threads a cooperative_groups collective gives one value: the result of
/// `cg::reduce(tile, v, op)`, `tile.shfl(v, src)` at a source rank the same for the tile,
/// `tile.ballot/any/all/match_all(p)` is the same for every thread of the tile. A tile of
/// 32 threads or a multiple of them is a warp or more: warp-uniform. A narrower tile, a
/// coalesced group or an unknown group: nothing said (the caller's rule applies).
static std::optional<Variance> groupCollective(const CallExpr *C, const FunctionDecl *FD,
                                               const std::vector<AbsVal> &Args) {
  StringRef N = FD->getName();
  QualType Group;
  size_t Src = 0; // the argument that names the source rank, for shfl
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    if (N != "shfl" && N != "ballot" && N != "any" && N != "all" && N != "match_all")
      return std::nullopt;
    Group = MC->getImplicitObjectArgument()->getType();
    Src = N == "shfl" ? 1 : 0;
  } else {
    if (N != "reduce" || C->getNumArgs() != 3)
      return std::nullopt;
    Group = C->getArg(0)->getType();
    Src = 0;
  }
  bool InCg = false;
  for (const DeclContext *DC = FD->getDeclContext(); DC && !InCg; DC = DC->getParent())
    if (auto *NS = dyn_cast<NamespaceDecl>(DC))
      InCg = NS->getName() == "cooperative_groups";
  if (!InCg)
    return std::nullopt;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Group.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->getName().contains("thread_block_tile") ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  uint64_t Size = Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();
  if (Size == 0 || Size % 32 != 0)
    return std::nullopt;
  if (Src && (Src >= Args.size() || Args[Src].V > Variance::WarpUniform))
    return std::nullopt; // each lane reads its own source lane
  return Variance::WarpUniform;
}

/// Exits of B beyond the first Common (which A and B share), appended to A's.
static std::vector<ExitSite> joinExits(const std::vector<ExitSite> &A,
                                       const std::vector<ExitSite> &B, size_t Common) {
  std::vector<ExitSite> Out = A;
  for (size_t I = Common; I < B.size(); ++I)
    Out.push_back(B[I]);
  return Out;
}

void ThreadDependence::recordSync(const CallExpr *C, const std::vector<AbsVal> &Args,
                                  const State &St) {
  // Below RecordFrames the walk follows values only (walkable): the calls recorded, and
  // the paths each is reached by, stay those of the first five calls under the kernel.
  if (Speculative || Frames.size() > RecordFrames)
    return;
  SyncCall S;
  S.Call = C;
  S.Via = CallStack;
  S.Guards = St.Guards;
  S.Exits = St.Exits;
  S.Args = Args;
  SyncCalls.push_back(std::move(S));
}

/// The locals a declaration makes, with their initial values.
void ThreadDependence::walkDecl(const DeclStmt *DS, State &St) {
  for (const Decl *D : DS->decls())
    if (auto *VD = dyn_cast<VarDecl>(D))
      if (VD->hasLocalStorage()) {
        AbsVal V;
        if (const Expr *Init = VD->getInit()) {
          V = eval(Init, St);
          if (VD->getType()->isReferenceType() && !isa<ParmVarDecl>(VD) && boundToMemory(Init))
            MemoryRefs[VD] = V.V >= Variance::LaneVarying ? Variance::Data : V.V;
          auto [Bits, Uns] = typeOf(VD->getType());
          if (V.S && Bits)
            V.S = makeCast(V.S, Bits, Uns);
          else if (!Bits && !VD->getType()->isRealFloatingType())
            V.S = nullptr;
        }
        St.Locals[VD] = V;
      }
}

/// An if: its branch site when the condition is not uniform, both arms walked from the
/// state before it and merged.
void ThreadDependence::walkIf(const IfStmt *If, State &St) {
  walk(If->getInit(), St);
  if (If->getConditionVariableDeclStmt())
    walk(If->getConditionVariableDeclStmt(), St);
  if (If->isConstexpr()) {
    walk(If->getThen(), St);
    return;
  }
  // A condition the compiler folds (`width == ggml_cuda_get_physical_warp_size()`, both
  // constexpr): only the arm it picks runs, as for `if constexpr`. (constantOf declines
  // calls, which clang counts as possible side effects; a constexpr call that folds has
  // none.)
  Expr::EvalResult Folded;
  if (!If->getConditionVariable() && !If->getCond()->isValueDependent() &&
      If->getCond()->EvaluateAsInt(Folded, Ctx)) {
    walk(Folded.Val.getInt().getBoolValue() ? If->getThen() : If->getElse(), St);
    return;
  }
  // A vote compared with a constant both of its values decide: only that arm runs.
  if (std::optional<bool> T = If->getConditionVariable() ? std::nullopt
                                                          : voteComparison(If->getCond(), Ctx)) {
    eval(If->getCond(), St);
    walk(*T ? If->getThen() : If->getElse(), St);
    return;
  }
  AbsVal C = eval(If->getCond(), St);
  if (C.V != Variance::Uniform) {
    BranchSite Site;
    Site.Kind = BranchSite::If;
    Site.Branch = If;
    Site.Cond = If->getCond();
    Site.CondVal = C;
    const Stmt *Then = If->getThen();
    if (auto *CS = dyn_cast<CompoundStmt>(Then))
      if (CS->size() == 1)
        Then = CS->body_front();
    Site.EarlyExit = !If->getElse() && isa<ReturnStmt, BreakStmt, ContinueStmt>(Then);
    record(std::move(Site), St);
  }
  std::vector<SymRef> OrigPath = St.Path;
  std::vector<Guard> OrigGuards = St.Guards;
  size_t OrigExits = St.Exits.size();
  State T = St, E = std::move(St);
  if (C.S) {
    T.Path.push_back(C.S);
    E.Path.push_back(makeUnary(SymOp::LNot, C.S, 8, true));
  }
  Guard G{Guard::If, If, If->getCond(), C};
  T.Guards.push_back(G);
  G.Negated = true;
  E.Guards.push_back(G);
  walk(If->getThen(), T);
  walk(If->getElse(), E);
  std::vector<ExitSite> Exits = joinExits(T.Exits, E.Exits, OrigExits);
  bool SameEnd = T.Terminated == E.Terminated;
  St = mergeStates(C, T, E);
  if (SameEnd)
    St.Path = std::move(OrigPath);
  St.Guards = std::move(OrigGuards);
  St.Exits = std::move(Exits);
}

/// A switch: its branch site (the case a value goes to); each case's code walked with the
/// case's condition on its path (the switch value equal to the case's value), as an `if`
/// arm is with its condition; a break leaves the switch only.
void ThreadDependence::walkSwitch(const SwitchStmt *Sw, State &St) {
  walk(Sw->getInit(), St);
  AbsVal C = eval(Sw->getCond(), St);
  if (C.V != Variance::Uniform) {
    BranchSite Site;
    Site.Kind = BranchSite::Switch;
    Site.Branch = Sw;
    Site.Cond = Sw->getCond();
    Site.CondVal.V = C.V;
    if (C.S) {
      // Map the value to its case target: 1 + the case's position, 0 for default.
      SymRef Target = makeConst(0, 32, false);
      unsigned Index = 1;
      bool Ok = true;
      for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
        auto *Case = dyn_cast<CaseStmt>(SC);
        if (!Case)
          continue;
        Expr::EvalResult R;
        if (Case->getRHS() || !Case->getLHS()->EvaluateAsInt(R, Ctx)) {
          Ok = false;
          break;
        }
        SymRef Eq = makeBinary(SymOp::Eq, C.S,
                               makeConst(R.Val.getInt().getExtValue(), C.S->Bits, C.S->Unsigned),
                               8, true);
        Target = makeSelect(Eq, makeConst(Index++, 32, false), Target, 32, false);
      }
      if (Ok)
        Site.CondVal.S = Target;
    }
    record(std::move(Site), St);
  }
  size_t OrigExits = St.Exits.size();
  std::vector<Guard> OrigGuards = St.Guards;
  AbsVal NoSym{C.V, nullptr};
  State Entry = St;
  Entry.Guards.push_back({Guard::Switch, Sw, Sw->getCond(), {C.V, nullptr}});
  // The body's top-level labels, each with the condition that selects it: `case v:` the
  // value equal to v, `default:` the value equal to no case (null: not known). Labels
  // nested deeper (a jump into a block) leave the body to the plain walk below.
  auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  SymRef NoCase = C.S ? makeConst(1, 8, true) : nullptr;
  unsigned Labels = 0, TopLabels = 0;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC; SC = SC->getNextSwitchCase()) {
    ++Labels;
    auto *Case = dyn_cast<CaseStmt>(SC);
    Expr::EvalResult R;
    if (!Case)
      continue;
    if (Case->getRHS() || Case->getLHS()->isValueDependent() ||
        !Case->getLHS()->EvaluateAsInt(R, Ctx))
      NoCase = nullptr;
    else if (NoCase)
      NoCase = makeBinary(SymOp::LAnd, NoCase,
                          makeBinary(SymOp::Ne, C.S,
                                     makeConst(R.Val.getInt().getExtValue(), C.S->Bits,
                                               C.S->Unsigned),
                                     8, true),
                          8, true);
  }
  if (Body)
    for (const Stmt *Ch : Body->body())
      for (const Stmt *X = Ch; auto *SC = dyn_cast_or_null<SwitchCase>(X); X = SC->getSubStmt())
        ++TopLabels;
  std::vector<ExitSite> Exits = St.Exits;
  auto KeepExits = [&](const State &S) {
    // A break leaves the switch only; a return leaves the function.
    for (size_t I = OrigExits; I < S.Exits.size(); ++I)
      if (!isa<BreakStmt>(S.Exits[I].Exit))
        Exits.push_back(S.Exits[I]);
  };
  if (!Body || TopLabels != Labels) {
    // The body walked once, reached by every thread.
    State B = Entry;
    walk(Sw->getBody(), B);
    B.Terminated = false;
    KeepExits(B);
    St = mergeStates(NoSym, B, St);
  } else {
    // Each label starts a segment that the threads it selects reach (with those that fall
    // through into it from the segment before): the label's condition is on the path of
    // its code, as an `if`'s condition is on its arm's. A break ends the segment; what the
    // segments leave is merged with the threads that take no case (no default).
    State Out = St;
    bool Started = false;
    State Cur = Entry;
    auto Finish = [&](State &S) {
      S.Terminated = false;
      S.Path = St.Path;
      KeepExits(S);
      Out = mergeStates(NoSym, S, Out);
    };
    for (const Stmt *Ch : Body->body()) {
      if (!isa<SwitchCase>(Ch)) {
        if (Started)
          walk(Ch, Cur);
        continue;
      }
      SymRef Cond;
      bool Known = C.S != nullptr;
      const Stmt *X = Ch;
      while (auto *SC = dyn_cast_or_null<SwitchCase>(X)) {
        SymRef One;
        Expr::EvalResult R;
        if (auto *Case = dyn_cast<CaseStmt>(SC)) {
          if (C.S && !Case->getRHS() && !Case->getLHS()->isValueDependent() &&
              Case->getLHS()->EvaluateAsInt(R, Ctx))
            One = makeBinary(SymOp::Eq, C.S,
                             makeConst(R.Val.getInt().getExtValue(), C.S->Bits, C.S->Unsigned),
                             8, true);
        } else {
          One = NoCase;
        }
        if (!One)
          Known = false;
        else
          Cond = Cond ? makeBinary(SymOp::LOr, Cond, One, 8, true) : One;
        X = SC->getSubStmt();
      }
      State L = Entry;
      if (Known && Cond) {
        L.Path.push_back(Cond);
        if (CaseConds.insert(Cond.get()).second)
          CaseCondRefs.push_back(Cond);
      }
      if (Started && !Cur.Terminated) {
        // Fall-through: the threads of the segment before arrive too.
        Cur = mergeStates(NoSym, Cur, L);
        Cur.Path = Entry.Path;
      } else {
        if (Started)
          Finish(Cur);
        Cur = std::move(L);
        Started = true;
      }
      walk(X, Cur);
    }
    if (Started)
      Finish(Cur);
    St = std::move(Out);
  }
  St.Guards = std::move(OrigGuards);
  St.Exits = std::move(Exits);
}

std::string asmText(const GCCAsmStmt *A) {
#if WARPLINT_LLVM_MAJOR < 22
  return A->getAsmString()->getString().str();
#else
  return A->getAsmString();
#endif
}

/// Inline assembly that only computes on registers: no special register (`%%laneid`), no
/// memory operand (`[...]`), no warp-wide, barrier or atomic instruction.
static bool isRegisterAsm(const GCCAsmStmt *A) {
  std::string Asm = asmText(A);
  bool Pure = Asm.find("%%") == std::string::npos && Asm.find('[') == std::string::npos;
  for (const char *Warp : {"shfl", "vote", "match", "redux", "activemask", "bar", "atom"})
    Pure = Pure && Asm.find(Warp) == std::string::npos;
  return Pure;
}

/// Inline assembly: its inputs read, its outputs data (the lane id read through %laneid
/// a lane-varying value).
void ThreadDependence::walkAsm(const GCCAsmStmt *A, State &St) {
  std::string Asm = asmText(A);
  // Arithmetic on registers only (`bfind.u32 %0, %1;`: no special register `%%...`, no
  // memory operand `[...]`, no warp-wide instruction) gives outputs as varied as its
  // inputs; anything else is taken as data.
  Variance Inputs = Variance::Uniform;
  for (unsigned I = 0; I < A->getNumInputs(); ++I)
    Inputs = join(Inputs, eval(A->getInputExpr(I), St).V);
  bool Pure = isRegisterAsm(A);
  for (unsigned I = 0; I < A->getNumOutputs(); ++I) {
    AbsVal V{Pure ? Inputs : Variance::Data, nullptr};
    if (Asm.find("%laneid") != std::string::npos && A->getNumOutputs() == 1)
      V = {Variance::LaneVarying,
           makeBinary(SymOp::Rem, linearTid(), makeConst(32, 32, true), 32, true)};
    assign(A->getOutputExpr(I), V, St);
  }
}

/// E's value as an integer constant expression in the instantiation, or none.
static std::optional<int64_t> intConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

/// The offsets a counted loop's variable takes (`for (o = 16; o > 0; o >>= 1)`, `o /= 2`,
/// `for (o = 1; o < 32; o *= 2)`, `o <<= 1`), its start, bound and step constants in the
/// instantiation (the head as forHead reads it); none for another loop or more than 64
/// values.
static std::optional<std::pair<const VarDecl *, std::vector<int64_t>>>
constantOffsets(const ForStmt *F, ASTContext &Ctx) {
  std::optional<ForHead> H = forHead(F);
  auto *I = H ? dyn_cast<CompoundAssignOperator>(H->Inc) : nullptr;
  if (!I)
    return std::nullopt;
  std::optional<int64_t> Start = intConstant(H->Init, Ctx), Bound = intConstant(H->Bound, Ctx),
                         Step = intConstant(I->getRHS(), Ctx);
  if (!Start || !Bound || !Step)
    return std::nullopt;
  std::vector<int64_t> Out;
  for (int64_t V = *Start; Out.size() <= 64; ) {
    bool In = false;
    switch (H->Op) {
    case BO_LT: In = V < *Bound; break;
    case BO_LE: In = V <= *Bound; break;
    case BO_GT: In = V > *Bound; break;
    case BO_GE: In = V >= *Bound; break;
    case BO_NE: In = V != *Bound; break;
    default: return std::nullopt;
    }
    if (!In)
      break;
    Out.push_back(V);
    switch (I->getOpcode()) {
    case BO_ShrAssign: V = *Step >= 0 && *Step < 63 ? V >> *Step : 0; break;
    case BO_ShlAssign: V = *Step >= 0 && *Step < 32 ? V << *Step : 0; break;
    case BO_DivAssign: if (*Step == 0) return std::nullopt; V /= *Step; break;
    case BO_MulAssign: V *= *Step; break;
    default: return std::nullopt;
    }
  }
  if (Out.size() > 64)
    return std::nullopt;
  return std::make_pair(H->V, std::move(Out));
}

/// E combines A and B with an operation whose result does not depend on their order: `+`,
/// `*`, `&`, `|`, `^`, min and max (the CUDA functions, or a function whose body returns
/// such a combination of its two parameters, as a reduction's `Op::op(a, b)`), a call
/// followed Depth levels down.
static bool commutativeOf(const Expr *E, const VarDecl *A, const VarDecl *B, unsigned Depth);
/// The same over two operands that Pair recognises (in either order: Pair(L, R) is asked
/// with the operands as written).
static bool commutativePair(const Expr *E,
                            llvm::function_ref<bool(const Expr *, const Expr *)> Pair,
                            unsigned Depth) {
  E = strip(E);
  if (auto *Bin = dyn_cast_or_null<BinaryOperator>(E)) {
    switch (Bin->getOpcode()) {
    case BO_Add: case BO_Mul: case BO_And: case BO_Or: case BO_Xor:
      return Pair(Bin->getLHS(), Bin->getRHS());
    default:
      return false;
    }
  }
  // A minimum or maximum written out: `a < b ? b : a`, the two values compared and chosen.
  if (auto *CO = dyn_cast_or_null<ConditionalOperator>(E)) {
    auto *Cmp = dyn_cast<BinaryOperator>(strip(CO->getCond()));
    return Cmp && Cmp->isRelationalOp() && Pair(Cmp->getLHS(), Cmp->getRHS()) &&
           Pair(CO->getTrueExpr(), CO->getFalseExpr());
  }
  auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || Call->getNumArgs() != 2)
    return false;
  StringRef N = FD->getIdentifier() ? FD->getName() : StringRef();
  static const char *const MinMax[] = {"min", "max", "fmin", "fmax", "fminf", "fmaxf",
                                       "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"};
  for (const char *M : MinMax)
    if (N == M)
      return Pair(Call->getArg(0), Call->getArg(1));
  // A function of the file whose body is `return a op b;` over its two parameters, called
  // with the two values.
  const FunctionDecl *Def = nullptr;
  if (Depth == 0 || !FD->hasBody(Def) || !Def || Def->getNumParams() != 2 ||
      !Pair(Call->getArg(0), Call->getArg(1)))
    return false;
  auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(*Body->body_begin()) : nullptr;
  return Ret && commutativeOf(Ret->getRetValue(), Def->getParamDecl(0), Def->getParamDecl(1),
                              Depth - 1);
}

static bool commutativeOf(const Expr *E, const VarDecl *A, const VarDecl *B, unsigned Depth) {
  return commutativePair(
      E,
      [&](const Expr *L, const Expr *R) {
        const VarDecl *X = localVar(L), *Y = localVar(R);
        return X && Y && ((X == A && Y == B) || (X == B && Y == A));
      },
      Depth);
}

/// `__shfl_xor_sync(mask, v, o[, width])` over the whole warp: FullMask accepts the mask
/// and the width, if given, is 32 or more. The value's local v, or null.
static const VarDecl *wholeWarpXor(const CallExpr *C, ASTContext &Ctx,
                                   llvm::function_ref<bool(const Expr *)> FullMask) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "__shfl_xor_sync" ||
      C->getNumArgs() < 3 || !FullMask(C->getArg(0)))
    return nullptr;
  if (C->getNumArgs() >= 4 && !isa<CXXDefaultArgExpr>(C->getArg(3))) {
    std::optional<int64_t> Width = intConstant(C->getArg(3), Ctx);
    if (!Width || *Width < 32)
      return nullptr;
  }
  return localVar(C->getArg(1));
}

/// A butterfly over the whole warp: a loop whose counter takes the offsets 16, 8, 4, 2 and
/// 1 (in any order), whose body reads `__shfl_xor_sync(0xffffffff, v, o)` (the width, if
/// given, 32) of a local v and assigns v once, its combination with what was read in an
/// order-free operation (`v += x`, `v = v + x`, `v = max(v, x)`, `v = Op::op(v, x)`, the
/// value read directly or through a local of the body). Each lane ends with the same
/// combination of the 32 lanes' values, joined in the same tree: v is then warp-uniform
/// (PhysX's warpReduction, CUB's and many kernels' all-reduce). None for another loop.
///
/// Offsets that are other distinct lane bits (8, 4, 2, 1: a butterfly in each half-warp)
/// leave v the same under those bits only: Bits says which (31 for the whole warp).
static const VarDecl *warpButterflyVar(const ForStmt *F, ASTContext &Ctx,
                                       llvm::function_ref<bool(const Expr *)> FullMask,
                                       uint8_t &Bits) {
  Bits = 0;
  std::optional<std::pair<const VarDecl *, std::vector<int64_t>>> Offs = constantOffsets(F, Ctx);
  if (!Offs || Offs->second.empty())
    return nullptr;
  for (int64_t O : Offs->second) {
    if (O <= 0 || O > 16 || (O & (O - 1)) != 0 || (Bits & O))
      return nullptr;
    Bits |= uint8_t(O);
  }
  const VarDecl *O = Offs->first;
  const Stmt *Body = F->getBody();
  if (!Body)
    return nullptr;
  // The shuffle: one call in the body.
  const CallExpr *Shfl = nullptr;
  unsigned Shuffles = 0;
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = C->getDirectCallee();
          FD && FD->getIdentifier() && FD->getName().starts_with("__shfl")) {
        ++Shuffles;
        if (FD->getName() == "__shfl_xor_sync")
          Shfl = C;
      }
    for (const Stmt *Ch : S->children())
      Find(Ch);
  };
  Find(Body);
  if (Shuffles != 1)
    return nullptr;
  const VarDecl *V = wholeWarpXor(Shfl, Ctx, FullMask);
  if (!V || localVar(Shfl->getArg(2)) != O)
    return nullptr;
  // What was read: the call itself, or a local of the body initialised with it.
  const VarDecl *Read = nullptr;
  for (const Stmt *Ch : Body->children())
    if (auto *DS = dyn_cast_or_null<DeclStmt>(Ch); DS && DS->isSingleDecl())
      if (auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
          VD && VD->getInit() && strip(VD->getInit()) == Shfl)
        Read = VD;
  // V assigned once, in an order-free combination with what was read.
  unsigned Writes = 0;
  bool Combines = false;
  // `if (v < t) v = t;` (any comparison of the two, no else): the maximum or minimum of v
  // and what was read, written as a branch (KBLAS's warpAllReduceMax).
  auto MinMaxIf = [&](const IfStmt *If) {
    if (!Read || If->getElse() || If->getInit() || If->getConditionVariable())
      return false;
    auto *Cmp = dyn_cast<BinaryOperator>(strip(If->getCond()));
    if (!Cmp || !Cmp->isRelationalOp())
      return false;
    const VarDecl *X = localVar(Cmp->getLHS()), *Y = localVar(Cmp->getRHS());
    if (!((X == V && Y == Read) || (X == Read && Y == V)))
      return false;
    const Stmt *Then = If->getThen();
    if (auto *CS = dyn_cast<CompoundStmt>(Then))
      Then = CS->size() == 1 ? CS->body_front() : nullptr;
    auto *E = dyn_cast_or_null<Expr>(Then);
    auto *B = E ? dyn_cast<BinaryOperator>(strip(E)) : nullptr;
    return B && B->getOpcode() == BO_Assign && localVar(B->getLHS()) == V &&
           localVar(B->getRHS()) == Read;
  };
  std::function<void(const Stmt *)> Assigns = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *If = dyn_cast<IfStmt>(S); If && MinMaxIf(If)) {
      ++Writes;
      Combines = true;
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() &&
                                               localVar(B->getLHS()) == V) {
      ++Writes;
      const Expr *R = strip(B->getRHS());
      bool IsRead = R == Shfl || (Read && localVar(R) == Read);
      switch (B->getOpcode()) {
      case BO_AddAssign: case BO_MulAssign: case BO_AndAssign: case BO_OrAssign:
      case BO_XorAssign:
        Combines = IsRead;
        break;
      case BO_Assign:
        if (Read)
          Combines = commutativeOf(R, V, Read, 2);
        else
          Combines = commutativePair(
              R,
              [&](const Expr *L, const Expr *Rt) {
                return (strip(L) == Shfl && localVar(Rt) == V) ||
                       (strip(Rt) == Shfl && localVar(L) == V);
              },
              2);
        break;
      default:
        break;
      }
    } else if (auto *U = dyn_cast<UnaryOperator>(S);
               U && U->isIncrementDecrementOp() && localVar(U->getSubExpr()) == V) {
      ++Writes;
    }
    for (const Stmt *Ch : S->children())
      Assigns(Ch);
  };
  Assigns(Body);
  return Writes == 1 && Combines ? V : nullptr;
}

namespace {
/// A butterfly over the whole warp written out (warpButterflyVar's loop unrolled by hand):
/// consecutive statements of a block, each combining a local V with
/// `__shfl_xor_sync(0xffffffff, V, o)` in an order-free operation (`V op= shfl`,
/// `V = op(V, shfl)`), the first possibly making V from another local Input
/// (`int a = c | __shfl_xor_sync(m, c, 16)`), with the offsets 16, 8, 4, 2 and 1 once each
/// in any order. After the last, every lane holds the same combination of the 32 lanes'
/// values.
struct StraightButterfly {
  const VarDecl *V = nullptr;
  const VarDecl *Input = nullptr;
  unsigned Len = 0;
};

std::optional<StraightButterfly>
straightButterfly(const CompoundStmt *CS, unsigned First, ASTContext &Ctx,
                  llvm::function_ref<bool(const Expr *)> FullMask) {
  // `__shfl_xor_sync(full, X, o)` of the local X with a constant offset: o, else 0.
  auto ShuffleOf = [&](const Expr *E, const VarDecl *X) -> int64_t {
    auto *C = dyn_cast_or_null<CallExpr>(strip(E));
    if (!X || wholeWarpXor(C, Ctx, FullMask) != X)
      return 0;
    std::optional<int64_t> O = intConstant(C->getArg(2), Ctx);
    return O && (*O == 1 || *O == 2 || *O == 4 || *O == 8 || *O == 16) ? *O : 0;
  };
  StraightButterfly Out;
  unsigned Seen = 0;
  const Stmt *const *Body = CS->body_begin();
  for (unsigned I = First; I < CS->size() && Seen != 31; ++I) {
    const Stmt *S = Body[I];
    if (auto *EWC = dyn_cast<ExprWithCleanups>(S))
      S = EWC->getSubExpr();
    const VarDecl *Target = nullptr;
    const Expr *Rhs = nullptr;
    BinaryOperatorKind Op = BO_Assign;
    if (auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl() && I == First) {
      if (auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()); VD && VD->getInit())
        Target = VD, Rhs = VD->getInit();
    } else if (auto *E = dyn_cast<Expr>(S)) {
      if (auto *B = dyn_cast<BinaryOperator>(strip(E)); B && B->isAssignmentOp())
        Target = localVar(B->getLHS()), Rhs = B->getRHS(), Op = B->getOpcode();
    }
    if (!Target || (Out.V && Target != Out.V))
      return std::nullopt;
    int64_t Offset = 0;
    const VarDecl *From = nullptr;
    switch (Op) {
    case BO_AddAssign: case BO_MulAssign: case BO_AndAssign: case BO_OrAssign:
    case BO_XorAssign:
      From = Target;
      Offset = ShuffleOf(Rhs, Target);
      break;
    case BO_Assign:
      commutativePair(
          Rhs,
          [&](const Expr *L, const Expr *R) {
            for (auto [X, Call] : {std::pair(L, R), std::pair(R, L)})
              if (const VarDecl *V = localVar(X); V && (V == Target || I == First))
                if (int64_t O = ShuffleOf(Call, V)) {
                  From = V, Offset = O;
                  return true;
                }
            return false;
          },
          2);
      break;
    default:
      break;
    }
    if (!Offset || (Seen & Offset) || (I > First && From != Target))
      return std::nullopt;
    if (I == First)
      Out.V = Target, Out.Input = From;
    Seen |= unsigned(Offset);
    ++Out.Len;
  }
  if (Seen != 31)
    return std::nullopt;
  return Out;
}
} // namespace

bool ThreadDependence::fullMask(const Expr *M, const State &St) const {
  // The mask a constant, or a parameter given one (`warpReduction(FULL_MASK, v)`).
  const Sym *K = nullptr;
  if (std::optional<int64_t> C = intConstant(M, Ctx))
    return (*C & 0xffffffffLL) == 0xffffffffLL;
  if (const VarDecl *P = localVar(M))
    if (auto It = St.Locals.find(P); It != St.Locals.end())
      K = It->second.S.get();
  while (K && K->Op == SymOp::Cast && K->A)
    K = K->A.get();
  return K && K->Op == SymOp::Const && (K->Value & 0xffffffffLL) == 0xffffffffLL;
}

void ThreadDependence::walk(const Stmt *S, State &St) {
  if (!S || St.Terminated)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    const Stmt *const *Body = CS->body_begin();
    for (unsigned I = 0; I < CS->size(); ++I) {
      std::optional<StraightButterfly> SB = straightButterfly(
          CS, I, Ctx, [&](const Expr *M) { return fullMask(M, St); });
      if (!SB) {
        walk(Body[I], St);
        continue;
      }
      // As after a butterfly loop: the warp's value, the block's over lane functions.
      bool LaneInput = false;
      if (auto It = St.Locals.find(SB->Input); It != St.Locals.end())
        LaneInput = laneFunction(It->second);
      for (unsigned K = 0; K < SB->Len; ++K)
        walk(Body[I + K], St);
      if (!St.Terminated)
        if (auto It = St.Locals.find(SB->V);
            It != St.Locals.end() && It->second.V > Variance::WarpUniform)
          It->second = AbsVal{LaneInput ? Variance::Uniform : Variance::WarpUniform, nullptr};
      I += SB->Len - 1;
    }
    return;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    walkDecl(DS, St);
    return;
  }
  if (auto *E = dyn_cast<Expr>(S)) {
    eval(E, St);
    return;
  }
  if (auto *If = dyn_cast<IfStmt>(S)) {
    walkIf(If, St);
    return;
  }
  if (auto *Sw = dyn_cast<SwitchStmt>(S)) {
    walkSwitch(Sw, St);
    return;
  }
  if (auto *F = dyn_cast<ForStmt>(S)) {
    // A butterfly over the whole warp leaves every lane the same value; over values that
    // are the same at the same lane of every warp (`sharedMem[laneIdx]`, PhysX's
    // threadBlockCountAndBroadcast), every warp combines the same 32 values in the same
    // tree: the whole block's value.
    // Offsets of some lane bits only (a butterfly in each half-warp) leave the value the
    // same under those bits, besides the symmetry it had.
    uint8_t Bits = 0;
    const VarDecl *Butterfly =
        warpButterflyVar(F, Ctx, [&](const Expr *M) { return fullMask(M, St); }, Bits);
    bool LaneInput = false;
    uint8_t Before = 0;
    if (Butterfly)
      if (auto It = St.Locals.find(Butterfly); It != St.Locals.end()) {
        LaneInput = laneFunction(It->second);
        Before = laneInv(It->second, true);
      }
    walkLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(), St);
    if (!St.Terminated && Butterfly)
      if (auto It = St.Locals.find(Butterfly);
          It != St.Locals.end() && It->second.V > Variance::WarpUniform) {
        if (Bits == 31) {
          It->second = AbsVal{LaneInput ? Variance::Uniform : Variance::WarpUniform, nullptr};
        } else {
          AbsVal Out = It->second;
          dropIdentity(Out); // settleLanes gives the new value its Id
          Out.LaneInv = uint8_t(Before | Bits);
          settleLanes(Out);
          It->second = Out;
        }
      }
    return;
  }
  if (auto *W = dyn_cast<WhileStmt>(S)) {
    walkLoop(W, nullptr, W->getCond(), nullptr, W->getBody(), St);
    return;
  }
  if (auto *D = dyn_cast<DoStmt>(S)) {
    walkLoop(D, nullptr, D->getCond(), nullptr, D->getBody(), St);
    return;
  }
  if (auto *R = dyn_cast<CXXForRangeStmt>(S)) {
    walk(R->getRangeStmt(), St);
    walk(R->getBeginStmt(), St);
    walk(R->getEndStmt(), St);
    walkLoop(R, R->getLoopVarStmt(), nullptr, nullptr, R->getBody(), St);
    return;
  }
  if (auto *Ret = dyn_cast<ReturnStmt>(S)) {
    if (Ret->getRetValue()) {
      AbsVal V = eval(Ret->getRetValue(), St);
      if (!Frames.empty())
        Frames.back().Returns.push_back(V);
    }
    noteOuts(St);
    St.Exits.push_back({S, St.Guards, unsigned(Frames.size())});
    St.Terminated = true;
    return;
  }
  if (isa<BreakStmt, ContinueStmt>(S)) {
    St.Exits.push_back({S, St.Guards, unsigned(Frames.size())});
    St.Terminated = true;
    return;
  }
  if (auto *A = dyn_cast<GCCAsmStmt>(S)) {
    walkAsm(A, St);
    return;
  }
  for (const Stmt *C : S->children())
    walk(C, St);
}

/// The variable V of a counted loop `for (...; cond(V); V op= step)` whose V is not
/// written in the body; null for another loop.
static const VarDecl *countedLoopVar(const Expr *Inc,
                                     const llvm::SmallPtrSet<const VarDecl *, 8> &InBody,
                                     const llvm::DenseMap<const VarDecl *, AbsVal> &Locals) {
  const VarDecl *IV = nullptr;
  if (Inc) {
    const Expr *I = strip(Inc);
    if (auto *U = dyn_cast<UnaryOperator>(I))
      IV = U->isIncrementDecrementOp() ? localVar(U->getSubExpr()) : nullptr;
    else if (auto *B = dyn_cast<BinaryOperator>(I))
      IV = B->isAssignmentOp() ? localVar(B->getLHS()) : nullptr;
    if (IV && (InBody.count(IV) || !Locals.count(IV)))
      IV = nullptr;
  }
  return IV;
}

/// A do-while's step in its condition (`do { ... } while ((t += stride) < n);`): the
/// increment or compound assignment of a local that the condition always evaluates (not
/// behind a `&&` or `||` whose left side is not a constant that lets it run, nor in a
/// `?:`); null where there is none.
static const Expr *stepInCondition(const Expr *Cond, ASTContext &Ctx) {
  const Expr *E = strip(Cond);
  if (!E)
    return nullptr;
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return U->isIncrementDecrementOp() && localVar(U->getSubExpr()) ? E : nullptr;
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return nullptr;
  if (B->isCompoundAssignmentOp())
    return localVar(B->getLHS()) ? E : nullptr;
  if (B->isLogicalOp()) {
    bool Left = false;
    if (B->getLHS()->isValueDependent() ||
        !B->getLHS()->EvaluateAsBooleanCondition(Left, Ctx))
      return stepInCondition(B->getLHS(), Ctx);
    // The right side runs when the left one is true for &&, false for ||.
    if (Left == (B->getOpcode() == BO_LAnd))
      return stepInCondition(B->getRHS(), Ctx);
    return nullptr;
  }
  if (B->isComparisonOp() || B->isAdditiveOp()) {
    const Expr *L = stepInCondition(B->getLHS(), Ctx);
    const Expr *R = stepInCondition(B->getRHS(), Ctx);
    return L && R ? nullptr : L ? L : R;
  }
  return nullptr;
}

/// The symbolic form of a counted loop's variable IV in the body (L's local): a loop
/// variable of the analysis when init, condition and step are uniform, else Init + k *
/// Stride for a uniform additive step, else only its variance. Returns the loop variable.
int ThreadDependence::loopCounter(const Stmt *Loop, const VarDecl *IV, const Expr *Cond,
                                  const Expr *Inc, State &St, State &L) {
  int LoopIdx = -1;
  bool SavedRecording = Recording;
  Recording = false;
  ++Speculative;
  AbsVal InitV = St.Locals[IV];
  auto [Bits, Uns] = typeOf(IV->getType());
  SymVarInfo Info;
  Info.Kind = SymVarInfo::Loop;
  Info.Name = IV->getName().str();
  std::string Key = "loop:" + std::to_string(reinterpret_cast<uintptr_t>(Loop));
  LoopIdx = int(varFor(Key, Info));
  State T = L;
  T.Locals[IV] = {Variance::Uniform, Bits ? makeVar(LoopIdx, Bits, Uns) : nullptr};
  AbsVal CondV = eval(Cond, T);
  const bool PostTest = isa<DoStmt>(Loop);
  if (!PostTest)
    eval(Inc, T); // a do-while's step is in its condition, evaluated just now
  AbsVal StepV = T.Locals[IV];
  if (PostTest) {
    // The condition tests the value after the step; each trip runs with the value before
    // it. As a counted loop: trip k runs where k == 0 (the first trip of a do-while always
    // runs) or the condition held after trip k - 1's step, that is, with V - stride in
    // place of V. Only for a uniform stride added (else no form).
    SymRef Stride;
    const Sym *Top = StepV.S.get();
    while (Top && Top->Op == SymOp::Cast && Top->A)
      Top = Top->A.get();
    if (Top && Top->Op == SymOp::Add && Top->A && Top->B && !mentionsVar(*Top->B, LoopIdx)) {
      const Sym *AV = Top->A.get();
      while (AV->Op == SymOp::Cast && AV->A)
        AV = AV->A.get();
      if (AV->Op == SymOp::Var && AV->Value == LoopIdx)
        Stride = Top->B;
    }
    if (Stride && InitV.S && Bits) {
      State Before = L;
      Before.Locals[IV] = {Variance::Uniform,
                           makeBinary(SymOp::Sub, makeVar(LoopIdx, Bits, Uns),
                                      makeCast(Stride, Bits, Uns), Bits, Uns)};
      AbsVal After = eval(Cond, Before);
      if (After.S)
        CondV = {CondV.V,
                 makeBinary(SymOp::LOr,
                            makeBinary(SymOp::Eq, makeVar(LoopIdx, Bits, Uns),
                                       makeCast(InitV.S, Bits, Uns), 8, true),
                            After.S, 8, true)};
      else
        CondV.S = nullptr;
    } else {
      CondV.S = nullptr;
    }
  }
  SymVarInfo &VI = Vars[LoopIdx];
  VI.Init = InitV.S;
  VI.Cond = CondV.S;
  VI.Step = StepV.S;
  VI.LoopVariance = join(InitV.V, join(CondV.V, StepV.V));
  if (StepV.S) {
    const Sym *Top = StepV.S.get();
    while (Top->Op == SymOp::Cast && Top->A)
      Top = Top->A.get();
    VI.Shrinking = Top->Op == SymOp::Div || Top->Op == SymOp::Shr;
    VI.Growing = Top->Op == SymOp::Mul || Top->Op == SymOp::Shl;
  }
  Recording = SavedRecording;
  --Speculative;
  if (VI.LoopVariance == Variance::Uniform && VI.Init && VI.Cond && VI.Step) {
    L.Locals[IV] = {Variance::Uniform, makeVar(LoopIdx, Bits, Uns)};
  } else {
    // V = Init + k * Stride with k the iteration, when the step adds a uniform stride.
    SymRef Stride;
    const Sym *Top = StepV.S.get();
    while (Top && Top->Op == SymOp::Cast && Top->A)
      Top = Top->A.get();
    if (Top && Top->Op == SymOp::Add && Top->A && Top->B &&
        !mentionsVar(*Top->B, LoopIdx) && !mentionsThreadIdx(*Top->B) && InitV.S) {
      const Sym *AV = Top->A.get();
      while (AV->Op == SymOp::Cast && AV->A)
        AV = AV->A.get();
      if (AV->Op == SymOp::Var && AV->Value == LoopIdx)
        Stride = Top->B;
    }
    if (Stride && StepV.V == Variance::Uniform) {
      SymVarInfo Iter;
      Iter.Kind = SymVarInfo::Iteration;
      Iter.Name = "iteration of '" + IV->getName().str() + "'";
      unsigned K = varFor(Key + ":iter", Iter);
      SymRef Off = makeBinary(SymOp::Mul, makeVar(K, Bits, Uns), makeCast(Stride, Bits, Uns),
                              Bits, Uns);
      L.Locals[IV] = {InitV.V, makeBinary(SymOp::Add, makeCast(InitV.S, Bits, Uns), Off,
                                          Bits, Uns)};
    } else {
      L.Locals[IV] = {join(InitV.V, StepV.V), nullptr};
    }
  }
  return LoopIdx;
}

/// The fixpoint of the variance of everything the loop writes (L's locals), over trial
/// walks of the body that record nothing; a thread part that does not settle is dropped.
void ThreadDependence::loopFixpoint(const Expr *Cond, const Expr *Inc, const Stmt *Body,
                                    const llvm::SmallPtrSet<const VarDecl *, 8> &Assigned,
                                    const VarDecl *IV, State &L) {
  bool SavedRecording = Recording;
  Recording = false;
  ++Speculative;
  bool Settled = false, LanesSettled = true;
  // What the loop writes holds another value in each trip: no identity from before it
  // (a value of the last trip is not this trip's, for the lane symmetry rules).
  for (const VarDecl *V : Assigned)
    if (auto It = L.Locals.find(V); It != L.Locals.end())
      dropIdentity(It->second);
  if (IV)
    if (auto It = L.Locals.find(IV); It != L.Locals.end())
      dropIdentity(It->second);
  for (unsigned Iter = 0; Iter < 4 && !(Settled && LanesSettled); ++Iter) {
    State T = L;
    if (Cond)
      eval(Cond, T);
    walk(Body, T);
    T.Terminated = false;
    if (Inc)
      eval(Inc, T);
    bool Changed = false;
    LanesSettled = true;
    for (const VarDecl *V : Assigned) {
      if (V == IV || !L.Locals.count(V) || !T.Locals.count(V))
        continue;
      AbsVal &Entry = L.Locals[V];
      // The lane symmetry both the entry and a trip keep (a separate flag: it does not
      // change when the variance and thread parts settle).
      uint8_t Inv = laneInv(Entry) & laneInv(T.Locals[V]);
      uint8_t Before = laneInv(Entry);
      Entry.LaneInv = Inv == 31 ? 0 : Inv;
      Variance NV = join(Entry.V, T.Locals[V].V);
      // The same at the same lane of every warp through every trip (a scan of
      // `perWarpCountS[lane]` by shuffles): still so after the loop.
      bool Lanes = laneFunction(Entry) && laneFunction(T.Locals[V]);
      if (NV != Entry.V || Lanes != laneFunction(Entry)) {
        Entry.V = NV;
        Changed = true;
      }
      Entry.LaneFn = Lanes && NV >= Variance::LaneVarying;
      if (laneInv(Entry) != Before)
        LanesSettled = false;
      if (Entry.T) {
        std::optional<ThreadPart> After = threadPart(T.Locals[V]);
        if (!After || !(*After == *Entry.T)) {
          Entry.T = nullptr;
          Changed = true;
        }
      }
    }
    Settled = !Changed;
  }
  if (!Settled)
    for (const VarDecl *V : Assigned)
      if (auto It = L.Locals.find(V); It != L.Locals.end() && V != IV)
        It->second.T = nullptr;
  if (!LanesSettled)
    for (const VarDecl *V : Assigned)
      if (auto It = L.Locals.find(V); It != L.Locals.end() && V != IV)
        It->second.LaneInv = 0;
  --Speculative;
  Recording = SavedRecording;
}

/// `for (v = X + t; v < Y + t; v += S)` with X, Y and S uniform and t written nowhere in
/// the loop: trip k tests X + k * S < Y in every thread, so every thread makes the same
/// trips whatever t holds (gpu4pyscf's `for (pair_ij = shl_pair0 + sp_id; pair_ij <
/// shl_pair1 + sp_id; pair_ij += nst_per_block)`, written so that its barriers stay
/// uniform). The offset is one expression on both sides (the same variable, or the same
/// member read), added on either side of each `+`; the test is <, <=, >, >= or !=.
bool ThreadDependence::sameTripsByOffset(const ForStmt *For, const VarDecl *IV,
                                         const llvm::SmallPtrSet<const VarDecl *, 8> &Assigned,
                                         State &St) {
  auto Strip = [](const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; };
  // The start: v's initialiser, or `v = start` as the init statement.
  const Expr *Start = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == IV)
      Start = IV->getInit();
  } else if (auto *A = dyn_cast_or_null<BinaryOperator>(Strip(dyn_cast_or_null<Expr>(For->getInit())))) {
    if (A->getOpcode() == BO_Assign)
      if (auto *D = dyn_cast<DeclRefExpr>(Strip(A->getLHS())); D && D->getDecl() == IV)
        Start = A->getRHS();
  }
  const auto *Test = dyn_cast_or_null<BinaryOperator>(Strip(For->getCond()));
  if (!Start || !Test ||
      !(Test->isRelationalOp() || Test->getOpcode() == BO_NE))
    return false;
  const Expr *Bound = Test->getRHS();
  if (auto *D = dyn_cast<DeclRefExpr>(Strip(Test->getLHS())); !D || D->getDecl() != IV) {
    auto *D2 = dyn_cast<DeclRefExpr>(Strip(Test->getRHS()));
    if (!D2 || D2->getDecl() != IV)
      return false;
    Bound = Test->getLHS();
  }
  // The step: v += S or v = v + S, S uniform.
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(Strip(For->getInc()));
  const auto *CInc = dyn_cast_or_null<CompoundAssignOperator>(Strip(For->getInc()));
  const Expr *StepBy = nullptr;
  if (CInc && (CInc->getOpcode() == BO_AddAssign || CInc->getOpcode() == BO_SubAssign)) {
    if (auto *D = dyn_cast<DeclRefExpr>(Strip(CInc->getLHS())); D && D->getDecl() == IV)
      StepBy = CInc->getRHS();
  } else if (auto *U = dyn_cast_or_null<UnaryOperator>(Strip(For->getInc()));
             U && U->isIncrementDecrementOp()) {
    if (auto *D = dyn_cast<DeclRefExpr>(Strip(U->getSubExpr())); D && D->getDecl() == IV)
      StepBy = U; // a constant step of one
  } else if (Inc && Inc->getOpcode() == BO_Assign) {
    if (auto *D = dyn_cast<DeclRefExpr>(Strip(Inc->getLHS())); D && D->getDecl() == IV)
      if (auto *Sum = dyn_cast<BinaryOperator>(Strip(Inc->getRHS()));
          Sum && Sum->getOpcode() == BO_Add)
        for (const Expr *Side : {Sum->getLHS(), Sum->getRHS()})
          if (auto *DV = dyn_cast<DeclRefExpr>(Strip(Side)); DV && DV->getDecl() == IV)
            StepBy = Side == Sum->getLHS() ? Sum->getRHS() : Sum->getLHS();
  }
  if (!StepBy)
    return false;
  // Start = X + t (or t alone: X = 0) and Bound = Y + t, t the same expression
  // (build_rys_gxyz.cuh's `for (n = gout_id; n < lij3 + gout_id; n += gout_stride)`).
  const auto *SS = dyn_cast<BinaryOperator>(Strip(Start));
  const auto *BS = dyn_cast<BinaryOperator>(Strip(Bound));
  if (!BS || BS->getOpcode() != BO_Add)
    return false;
  const Expr *X = nullptr, *Y = nullptr, *Off = nullptr;
  if (SS && SS->getOpcode() == BO_Add) {
    for (const Expr *A : {SS->getLHS(), SS->getRHS()})
      for (const Expr *B : {BS->getLHS(), BS->getRHS()})
        if (!Off && Expr::isSameComparisonOperand(A, B)) {
          Off = A;
          X = A == SS->getLHS() ? SS->getRHS() : SS->getLHS();
          Y = B == BS->getLHS() ? BS->getRHS() : BS->getLHS();
        }
  }
  if (!Off)
    for (const Expr *B : {BS->getLHS(), BS->getRHS()})
      if (!Off && Expr::isSameComparisonOperand(Start, B)) {
        Off = Start;
        Y = B == BS->getLHS() ? BS->getRHS() : BS->getLHS();
      }
  if (!Off)
    return false;
  // t written nowhere in the loop (a variable, or the base of a member read).
  bool Written = false;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S || Written)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (auto *V = dyn_cast<VarDecl>(D->getDecl()); V && Assigned.count(V))
        Written = true;
    for (const Stmt *C : S->children())
      Scan(C);
  };
  Scan(Off);
  if (Written)
    return false;
  // X, Y and the step uniform (evaluated without recording).
  bool SavedRecording = Recording;
  Recording = false;
  ++Speculative;
  State Probe = St;
  bool Uniform = (!X || eval(X, Probe).V == Variance::Uniform) &&
                 eval(Y, Probe).V == Variance::Uniform &&
                 (isa<UnaryOperator>(StepBy) || eval(StepBy, Probe).V == Variance::Uniform);
  --Speculative;
  Recording = SavedRecording;
  return Uniform;
}

void ThreadDependence::walkLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                                const Expr *Inc, const Stmt *Body, State &St) {
  walk(Init, St);
  // A loop whose condition is a vote compared with a constant neither of its values meets
  // (gardenia's `while (__any_sync(0xFFFFFFFF, size) >= WARP_SIZE)`): it runs no trip; the
  // condition is evaluated once.
  if (Cond && !isa<DoStmt>(Loop) && voteComparison(Cond, Ctx) == false) {
    eval(Cond, St);
    return;
  }
  struct Nesting {
    unsigned &N;
    explicit Nesting(unsigned &N) : N(N) { ++N; }
    ~Nesting() { --N; }
  } InLoop(LoopNesting);
  auto [Writes, New] = LoopWrites.try_emplace(Loop);
  if (New) {
    collectAssigned(Cond, Writes->second.Assigned);
    collectAssigned(Inc, Writes->second.Assigned);
    collectAssigned(Body, Writes->second.Assigned);
    collectAssigned(Body, Writes->second.InBody);
  }
  const llvm::SmallPtrSet<const VarDecl *, 8> &Assigned = Writes->second.Assigned;
  const llvm::SmallPtrSet<const VarDecl *, 8> &InBody = Writes->second.InBody;
  State L = St;
  // What the loop writes loses its form; its thread part stays a candidate, kept while
  // every trip changes the value by a uniform amount (the fixpoint below).
  for (const VarDecl *V : Assigned)
    if (auto It = L.Locals.find(V); It != L.Locals.end()) {
      It->second.T = shared(threadPart(It->second));
      It->second.S = nullptr;
    }

  // A counted loop `for (...; cond(V); V op= step)` whose V is not written in the body, or
  // `do { ... } while (cond(V op= step))`.
  const bool PostTest = isa<DoStmt>(Loop);
  const Expr *Step = PostTest ? stepInCondition(Cond, Ctx) : Inc;
  const VarDecl *IV = countedLoopVar(Step, InBody, St.Locals);
  int LoopIdx = IV && Cond ? loopCounter(Loop, IV, Cond, Step, St, L) : -1;
  loopFixpoint(Cond, Inc, Body, Assigned, IV, L);

  State T = L;
  AbsVal C;
  std::vector<SymRef> OrigPath = St.Path;
  if (Cond) {
    // A do-while's condition runs after the body: its value guards the later trips, and
    // its side effects (the step) come after the body's walk.
    State Pre = T;
    C = eval(Cond, PostTest ? Pre : T);
    if (C.V != Variance::Uniform && !PostTest && IV && isa<ForStmt>(Loop) &&
        sameTripsByOffset(cast<ForStmt>(Loop), IV, Assigned, St))
      C = AbsVal{Variance::Uniform, nullptr};
    if (C.V != Variance::Uniform) {
      BranchSite Site;
      Site.Kind = BranchSite::Loop;
      Site.Branch = Loop;
      Site.Cond = Cond;
      Site.CondVal = C;
      Site.LoopVar = LoopIdx;
      record(std::move(Site), T);
    }
    if (C.S)
      T.Path.push_back(C.S);
    T.Guards.push_back({Guard::Loop, Loop, Cond, C, false, LoopIdx});
  }
  size_t FirstSync = SyncCalls.size(), OrigExits = T.Exits.size();
  walk(Body, T);
  T.Terminated = false;
  if (Inc)
    eval(Inc, T);
  if (PostTest && Cond) {
    bool SavedRecording = Recording;
    Recording = false;
    eval(Cond, T);
    Recording = SavedRecording;
  }
  // A break or return taken in one trip skips the calls of the body in the later trips
  // (those before it in the body too); a return also skips what follows the loop.
  std::vector<ExitSite> Leaving, Returns;
  for (size_t I = OrigExits; I < T.Exits.size(); ++I) {
    if (isa<ContinueStmt>(T.Exits[I].Exit))
      continue;
    Leaving.push_back(T.Exits[I]);
    Leaving.back().LaterTrips = true;
    if (isa<ReturnStmt>(T.Exits[I].Exit))
      Returns.push_back(T.Exits[I]);
  }
  for (size_t I = FirstSync; I < SyncCalls.size(); ++I)
    for (const ExitSite &X : Leaving)
      if (llvm::none_of(SyncCalls[I].Exits,
                        [&](const ExitSite &Y) { return Y.Exit == X.Exit; }))
        SyncCalls[I].Exits.push_back(X);

  St = std::move(L);
  St.Path = std::move(OrigPath);
  St.Exits.insert(St.Exits.end(), Returns.begin(), Returns.end());
  // After a loop every thread left after the same trips (a uniform condition, no break or
  // return), what it writes keeps its thread part.
  bool SameTrips = C.V == Variance::Uniform && Leaving.empty();
  for (const VarDecl *V : Assigned)
    if (St.Locals.count(V)) {
      AbsVal &Out = St.Locals[V];
      std::shared_ptr<const ThreadPart> T = SameTrips ? shared(threadPart(Out)) : nullptr;
      bool Lanes = laneFunction(Out) && laneFunction(C);
      Out = {join(Out.V, C.V), nullptr, std::move(T)};
      Out.LaneFn = Lanes && Out.V >= Variance::LaneVarying;
    }
}

const VarDecl *ThreadDependence::ownSlot(const ArraySubscriptExpr *AS) const {
  if (OwnSlots.empty() || !isThreadIdxX(AS->getIdx()))
    return nullptr;
  auto *DR = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && OwnSlots.count(V) ? V : nullptr;
}

void ThreadDependence::assign(const Expr *LHS, const AbsVal &V, State &St) {
  const Expr *E = strip(LHS);
  if (const VarDecl *VD = localVar(E)) {
    AbsVal Out = V;
    Out.LaneFn = Out.V >= Variance::LaneVarying && laneFunction(V);
    auto [Bits, Uns] = typeOf(VD->getType());
    if (Out.S && Bits)
      Out.S = makeCast(Out.S, Bits, Uns);
    else if (!VD->getType()->isRealFloatingType())
      Out.S = nullptr;
    St.Locals[VD] = Out;
    return;
  }
  // A thread's own slot of a `__shared__` array (ownSlotArrays): the value stored.
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (const VarDecl *Slot = ownSlot(AS); Slot && Frames.size() == 1) {
      AbsVal Out = V;
      Out.LaneFn = Out.V >= Variance::LaneVarying && laneFunction(V);
      St.Locals[Slot] = Out;
      return;
    }
  // An element of a thread's own array (`float r[8]; r[k] = ...`): the array holds what
  // any of its elements holds, so a read at a uniform index is no uniform value when a
  // thread-dependent one was stored.
  if (isa<ArraySubscriptExpr>(E)) {
    const Expr *Base = E;
    while (auto *AS = dyn_cast<ArraySubscriptExpr>(Base))
      Base = strip(AS->getBase());
    if (const VarDecl *VD = localVar(Base); VD && VD->getType()->isArrayType()) {
      AbsVal &Old = St.Locals[VD];
      Old = withLanes({join(Old.V, V.V), nullptr}, {&Old, &V});
    }
    return;
  }
  // A member of a thread's own struct, at any depth (`res.transform.q.x = ...` through
  // a reference parameter): the struct holds what any of its members holds.
  if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
    const Expr *Base = strip(M->getBase());
    while (auto *Inner = dyn_cast<MemberExpr>(Base)) {
      if (Inner->isArrow())
        return;
      Base = strip(Inner->getBase());
    }
    if (const VarDecl *VD = localVar(Base)) {
      AbsVal &Old = St.Locals[VD];
      Old = withLanes({join(Old.V, V.V), nullptr}, {&Old, &V});
    }
  }
}

bool ThreadDependence::laneFunctionSym(const Sym *S) const {
  if (!S)
    return false;
  if (!mentionsThreadIdx(*S))
    return true;
  // The low bits of a value that counts the lanes one by one (`threadIdx.x & 31`,
  // `(tid + base) % 16`): X modulo a divisor of 32 depends on X modulo 32 only, which is
  // the lane (plus a block-wide amount) when X's thread part counts the lanes.
  if (S->Op == SymOp::And || S->Op == SymOp::Rem) {
    const Sym *X = S->A.get();
    const Sym *M = S->B ? stripSymCasts(S->B.get()) : nullptr;
    if (S->Op == SymOp::And && (!M || M->Op != SymOp::Const) && S->A &&
        stripSymCasts(S->A.get())->Op == SymOp::Const) {
      M = stripSymCasts(S->A.get());
      X = S->B.get();
    }
    bool LowBits = M && M->Op == SymOp::Const &&
                   (S->Op == SymOp::And ? M->Value >= 0 && M->Value <= 31 &&
                                              ((M->Value + 1) & M->Value) == 0
                                        : M->Value > 0 && 32 % M->Value == 0);
    if (LowBits && countsLanes(linearPart(X)))
      return true;
  }
  // threadIdx.x in blocks exactly a warp wide: the lane itself.
  if (S->Op == SymOp::ThreadIdx)
    return LaneRows && S->Value == 0;
  if (S->Op == SymOp::Var)
    return false;
  for (const SymRef *Child : {&S->A, &S->B, &S->C})
    if (*Child && !laneFunctionSym(Child->get()))
      return false;
  return S->A != nullptr;
}

bool ThreadDependence::laneFunction(const AbsVal &A) const {
  return A.V == Variance::Uniform || A.LaneFn ||
         (A.V == Variance::LaneVarying && A.S && laneFunctionSym(A.S.get()));
}

AbsVal ThreadDependence::withLanes(AbsVal Out,
                                   std::initializer_list<const AbsVal *> Operands) const {
  if (Out.V < Variance::LaneVarying)
    return Out;
  Out.LaneFn = true;
  for (const AbsVal *O : Operands)
    Out.LaneFn = Out.LaneFn && O && laneFunction(*O);
  // Lane symmetry: a lane's own function of its operands is the same at l and l ^ m where
  // every operand is; a function of one varying value X (and warp-uniform values) is a
  // function of X (DepOf). The symmetric forms of the lane index are worked out only where
  // another operand brings a symmetry (laneInvariance evaluates the lanes).
  bool Tracked = false, Null = false;
  uint32_t Dep = 0;
  bool OneDep = true;
  for (const AbsVal *O : Operands) {
    if (!O) {
      Null = true;
      continue;
    }
    if (O->V < Variance::LaneVarying)
      continue;
    Tracked = Tracked || O->LaneInv;
    uint32_t D = O->Id ? O->Id : O->DepOf;
    if (!D || (Dep && Dep != D))
      OneDep = false;
    else
      Dep = D;
  }
  // A new value: no pair or test of an operand's (a conversion that rounds is not the
  // value it converts; evalCast keeps them where it is).
  Out.LaneInv = 0;
  Out.XorOf = Out.EqOf = 0;
  if (Tracked && !Null) {
    uint8_t Inv = 31;
    for (const AbsVal *O : Operands)
      Inv &= laneInv(*O, /*Compute=*/true);
    Out.LaneInv = Inv;
  }
  Out.DepOf = OneDep && !Null ? Dep : 0;
  settleLanes(Out);
  return Out;
}

uint8_t ThreadDependence::laneInv(const AbsVal &A, bool Compute, int64_t Mod) const {
  if (A.V <= Variance::WarpUniform)
    return 31;
  if (A.LaneInv || !Compute || A.V != Variance::LaneVarying || !A.S)
    return A.LaneInv;
  return laneInvariance(A.S.get(), Mod);
}

namespace {
/// A key for a symbolic form, exact in every node (operation, width, sign, value).
void symKey(const Sym *S, std::string &Out) {
  if (!S) {
    Out += '-';
    return;
  }
  Out += '(';
  Out += std::to_string(unsigned(S->Op)) + ' ' + std::to_string(S->Bits) +
         (S->Unsigned ? "u " : "s ") + std::to_string(S->Value);
  for (const SymRef *C : {&S->A, &S->B, &S->C})
    if (*C)
      symKey(C->get(), Out);
  Out += ')';
}
} // namespace

uint8_t ThreadDependence::laneInvariance(const Sym *S, int64_t Mod) const {
  if (!S)
    return 0;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned I : Used)
    if (I >= Vars.size() || Vars[I].Kind == SymVarInfo::Iteration ||
        (Vars[I].Kind == SymVarInfo::Loop && Vars[I].LoopVariance >= Variance::LaneVarying))
      return 0; // an unknown that differs between lanes
  std::string Key = std::to_string(Mod) + (WarpRows ? "r" : "") + std::to_string(UnitDims[0]) +
                    std::to_string(UnitDims[1]) + std::to_string(UnitDims[2]);
  symKey(S, Key);
  if (auto It = LaneInvMemo.find(Key); It != LaneInvMemo.end())
    return It->second;
  // Block shapes: rows of whole warps (up to the widest block, so that a division by a
  // width that is no multiple of 32 meets a warp it splits), and (unless every launch has
  // whole-warp rows) narrower and straddling rows, where lane bits come from threadIdx.y
  // too. Every warp of each shape is evaluated.
  std::vector<std::array<int64_t, 3>> Shapes = {{32, 4, 1}, {64, 2, 1}, {128, 1, 2},
                                                {1024, 1, 1}};
  if (!WarpRows)
    for (std::array<int64_t, 3> More : {std::array<int64_t, 3>{16, 8, 1}, {8, 4, 4},
                                        {48, 2, 1}})
      Shapes.push_back(More);
  uint8_t Inv = 31;
  for (std::array<int64_t, 3> Shape : Shapes) {
    for (unsigned D = 0; D < 3; ++D)
      if (UnitDims[D])
        Shape[D] = 1;
    int64_t Threads = Shape[0] * Shape[1] * Shape[2];
    if (Threads < 32)
      continue;
    for (int64_t Sample : {0, 5, 13}) {
      Env E;
      for (unsigned D = 0; D < 3; ++D)
        E.BlockDim[D] = Shape[D];
      E.Vars.resize(Vars.size());
      for (unsigned I : Used)
        E.Vars[I] = Sample + 3 * int64_t(I % 4);
      for (int64_t W = 0; W < Threads / 32; ++W) {
        int64_t Lanes[32];
        for (int64_t L = 0; L < 32; ++L) {
          int64_t T = W * 32 + L;
          E.Tid[0] = T % Shape[0];
          E.Tid[1] = (T / Shape[0]) % Shape[1];
          E.Tid[2] = T / (Shape[0] * Shape[1]);
          std::optional<int64_t> V = evaluate(*S, E);
          if (!V) {
            LaneInvMemo[Key] = 0;
            return 0;
          }
          Lanes[L] = Mod > 0 ? ((*V % Mod) + Mod) % Mod : *V;
        }
        for (unsigned B = 0; B < 5; ++B)
          if (Inv & (1u << B))
            for (int64_t L = 0; L < 32; ++L)
              if (Lanes[L] != Lanes[L ^ (1 << B)]) {
                Inv &= ~(1u << B);
                break;
              }
      }
    }
  }
  LaneInvMemo[Key] = Inv;
  return Inv;
}

void ThreadDependence::settleLanes(AbsVal &Out) const {
  if (Out.V < Variance::LaneVarying)
    return;
  Out.Id = ++NextId;
  if (Out.LaneInv == 31)
    Out.V = Variance::WarpUniform;
}

void ThreadDependence::laneSymmetry(bool Commutes, bool Eq, bool And, const AbsVal &L,
                                    const AbsVal &R, AbsVal &Out) const {
  auto Single = [](uint8_t C) { return C && (C & (C - 1)) == 0 && C < 32; };
  uint8_t Add = 0;
  // Y holds X's word of lane l ^ c: op(X, Y) at l ^ c is op(Y, X) at l.
  auto XorPair = [&](const AbsVal &X, const AbsVal &Y) -> uint8_t {
    return X.V >= Variance::LaneVarying && Y.V >= Variance::LaneVarying && X.Id &&
                   Y.XorOf == X.Id && Single(Y.XorBy)
               ? Y.XorBy
               : 0;
  };
  uint8_t C = XorPair(L, R) ? XorPair(L, R) : XorPair(R, L);
  if (Commutes && C) {
    Add = C;
    if (Eq) {
      Out.EqOf = XorPair(L, R) ? L.Id : R.Id;
      Out.EqBy = C;
    }
  }
  // A && (X == X of l ^ c), A a function of X: where the test holds A agrees at l ^ c.
  auto Refine = [&](const AbsVal &A, const AbsVal &Test) -> uint8_t {
    return Test.EqOf && Single(Test.EqBy) && (A.Id == Test.EqOf || A.DepOf == Test.EqOf)
               ? Test.EqBy
               : 0;
  };
  if (And && !Add)
    Add = Refine(L, R) ? Refine(L, R) : Refine(R, L);
  if (!Add || Out.V < Variance::LaneVarying)
    return;
  // What both operands share (worked out only here: most operations have no pair).
  Out.LaneInv = (laneInv(L, true) & laneInv(R, true)) | Add;
  if (Out.LaneInv == 31)
    Out.V = Variance::WarpUniform;
}

AbsVal ThreadDependence::load(const Expr *E, Variance Address, bool LaneFn) {
  // Memory at an address that reads the thread only as its lane (`ptr[lane]`) holds the
  // same word at the same lane of every warp: PhysX's PxgShape_ReadWarp, whose lanes load
  // the words of one block-wide struct and broadcast each by a shuffle from a fixed lane.
  if (Address >= Variance::LaneVarying) {
    AbsVal Out{Variance::Data, nullptr, nullptr, LaneFn};
    Out.Id = ++NextId; // one value, for the lane symmetry of its shuffles
    return Out;
  }
  auto [Bits, Uns] = typeOf(E->getType());
  if (!Bits)
    return {Address, nullptr};
  SymVarInfo Info;
  Info.Kind = SymVarInfo::Opaque;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  Info.Name = OS.str();
  unsigned Idx = varFor("load:" + Info.Name + ":" + std::to_string(Frames.size()), Info);
  Vars[Idx].InLoop |= LoopNesting > 0;
  Variance &Addresses = LoadVariance[Idx];
  Addresses = join(Addresses, Address);
  return {Address, makeVar(Idx, Bits, Uns)};
}

AbsVal ThreadDependence::readVar(const VarDecl *D, const Expr *Ref, State &St) {
  auto It = St.Locals.find(D);
  if (It != St.Locals.end())
    return It->second;
  auto [Bits, Uns] = typeOf(D->getType());
  if (isa<ParmVarDecl>(D)) {
    if (!Bits)
      return {Variance::Uniform, nullptr};
    SymVarInfo Info;
    Info.Kind = SymVarInfo::Param;
    Info.Name = D->getName().str();
    // A parameter of the kernel itself (a callee's are bound to its arguments; one left
    // unbound is no launch argument).
    if (!Frames.empty() && D->getDeclContext() == Frames.front().Fn) {
      Info.ParamIndex = int(cast<ParmVarDecl>(D)->getFunctionScopeIndex());
      for (unsigned Dim = 0; Dim < 3; ++Dim)
        if (BlockDimParams[Dim] == Info.ParamIndex)
          return builtinVar("blockDim", Dim);
    }
    unsigned Idx = varFor("param:" + std::to_string(reinterpret_cast<uintptr_t>(D)), Info);
    return {Variance::Uniform, makeVar(Idx, Bits, Uns)};
  }
  if (D->hasLocalStorage())
    return {Variance::Uniform, nullptr};
  if (D->getType()->isArrayType())
    return {Variance::Uniform, nullptr};
  return load(Ref, Variance::Uniform);
}

AbsVal ThreadDependence::evalBuiltinVar(const Expr *E) {
  std::optional<BuiltinRead> B = builtinRead(cast<PseudoObjectExpr>(E));
  if (!B)
    return {Variance::Data, nullptr};
  return builtinVar(B->Var, B->Dim);
}

AbsVal ThreadDependence::builtinVar(StringRef Var, unsigned Dim) {
  StringRef Prop = Dim == 0 ? "x" : Dim == 1 ? "y" : "z";
  // Every launch fixes this dimension of the block at 1: one thread index, 0.
  if (Dim < 3 && UnitDims[Dim] && (Var == "threadIdx" || Var == "blockDim"))
    return {Variance::Uniform, makeConst(Var == "threadIdx" ? 0 : 1, 32, true)};
  if (Var == "threadIdx" && Dim < 3)
    ThreadIdxRead[Dim] = true;
  if (Var == "threadIdx")
    return {WarpRows && Dim > 0 ? Variance::WarpUniform : Variance::LaneVarying,
            makeThreadIdx(Dim)};
  if (Var == "blockDim")
    return {Variance::Uniform, makeBlockDim(Dim)};
  if (Var == "blockIdx" || Var == "gridDim") {
    SymVarInfo Info;
    Info.Kind = Var == "blockIdx" ? SymVarInfo::BlockIdx : SymVarInfo::GridDim;
    Info.Name = (Var + "." + Prop).str();
    return {Variance::Uniform, makeVar(varFor(Info.Name, Info), 32, true)};
  }
  return {Variance::Data, nullptr};
}

AbsVal ThreadDependence::eval(const Expr *E, State &St) {
  AbsVal R = evalImpl(E, St);
  if (Recording && Frames.size() == 1) {
    Seen[E] = R;
    bool Access = isa<ArraySubscriptExpr>(E);
    if (auto *U = dyn_cast<UnaryOperator>(E))
      Access = U->getOpcode() == UO_Deref;
    if (isa<MemberExpr>(E))
      Access = true;
    // A scalar `__shared__` or `__device__` variable is a memory access too (`kcmax = v`
    // under `if (threadIdx.x == 255)`): without its path every thread would store.
    if (auto *DR = dyn_cast<DeclRefExpr>(E))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Access = VD->hasGlobalStorage() && VD->getType()->isScalarType() &&
                 (VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDADeviceAttr>());
    if (Access && !St.Path.empty())
      AccessPaths[E] = St.Path;
    // A local's read on a condition's path, once a sync call was seen (resultKept reads
    // them for the values of later calls; one not recorded counts as read everywhere).
    if (!St.Path.empty() && !SyncCalls.empty())
      if (auto *DR = dyn_cast<DeclRefExpr>(E))
        if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()); VD && VD->hasLocalStorage())
          LocalReadPaths[E] = St.Path;
    if (Access)
      if (const Expr *M = dataMatch(St.Guards))
        AccessMatches[E] = M;
  }
  return R;
}

const Expr *ThreadDependence::dataMatch(const std::vector<Guard> &Guards) const {
  auto VarianceOf = [&](const Expr *X) {
    auto It = Seen.find(X);
    return It == Seen.end() ? Variance::Data : It->second.V;
  };
  // The `==` of a conjunction (`a && b == c`), through parentheses.
  std::function<const Expr *(const Expr *)> Find = [&](const Expr *C) -> const Expr * {
    C = C->IgnoreParenImpCasts();
    auto *B = dyn_cast<BinaryOperator>(C);
    if (!B)
      return nullptr;
    if (B->getOpcode() == BO_LAnd) {
      if (const Expr *L = Find(B->getLHS()))
        return L;
      return Find(B->getRHS());
    }
    if (B->getOpcode() != BO_EQ)
      return nullptr;
    const Expr *L = B->getLHS()->IgnoreParenImpCasts(), *R = B->getRHS()->IgnoreParenImpCasts();
    Variance VL = VarianceOf(L), VR = VarianceOf(R);
    if ((VL == Variance::Data) == (VR == Variance::Data))
      return nullptr;
    const Expr *Other = VL == Variance::Data ? R : L;
    if (Other->isValueDependent() || Other->isIntegerConstantExpr(Ctx))
      return nullptr; // a flag's test (`mask[i] == 1`): many lanes may hold it
    return B;
  };
  for (auto It = Guards.rbegin(); It != Guards.rend(); ++It)
    if (It->Kind == Guard::If && !It->Negated && It->Cond && It->Val.V == Variance::Data)
      if (const Expr *M = Find(It->Cond))
        return M;
  return nullptr;
}

const Expr *ThreadDependence::dataMatchOf(const Expr *E) const {
  auto It = AccessMatches.find(E);
  return It == AccessMatches.end() ? nullptr : It->second;
}

SymRef ThreadDependence::pathOf(const Expr *E) const {
  auto It = AccessPaths.find(E);
  if (It == AccessPaths.end())
    return nullptr;
  SymRef Out;
  for (const SymRef &P : It->second)
    Out = Out ? makeBinary(SymOp::LAnd, Out, truth(P), 8, true) : truth(P);
  return Out;
}

bool ThreadDependence::underSwitchCase(const Expr *E) const {
  auto It = AccessPaths.find(E);
  return It != AccessPaths.end() &&
         llvm::any_of(It->second, [&](const SymRef &P) { return CaseConds.count(P.get()); });
}

std::optional<int64_t> ThreadDependence::constantOf(const Expr *E) {
  auto [It, New] = Constants.try_emplace(E);
  if (New && !E->isValueDependent() && !E->HasSideEffects(Ctx)) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      It->second = R.Val.getInt().getExtValue();
  }
  return It->second;
}

static SymOp binaryOp(BinaryOperatorKind K, bool &Ok) {
  Ok = true;
  switch (K) {
  case BO_Add: case BO_AddAssign: return SymOp::Add;
  case BO_Sub: case BO_SubAssign: return SymOp::Sub;
  case BO_Mul: case BO_MulAssign: return SymOp::Mul;
  case BO_Div: case BO_DivAssign: return SymOp::Div;
  case BO_Rem: case BO_RemAssign: return SymOp::Rem;
  case BO_Shl: case BO_ShlAssign: return SymOp::Shl;
  case BO_Shr: case BO_ShrAssign: return SymOp::Shr;
  case BO_And: case BO_AndAssign: return SymOp::And;
  case BO_Or: case BO_OrAssign: return SymOp::Or;
  case BO_Xor: case BO_XorAssign: return SymOp::Xor;
  case BO_LT: return SymOp::Lt;
  case BO_GT: return SymOp::Gt;
  case BO_LE: return SymOp::Le;
  case BO_GE: return SymOp::Ge;
  case BO_EQ: return SymOp::Eq;
  case BO_NE: return SymOp::Ne;
  case BO_LAnd: return SymOp::LAnd;
  case BO_LOr: return SymOp::LOr;
  default:
    Ok = false;
    return SymOp::Const;
  }
}

void ThreadDependence::combineParts(const BinaryOperator *B, const AbsVal &L, const AbsVal &R,
                                    AbsVal &Out) {
  if (Out.V == Variance::Uniform || L.V == Variance::Data || R.V == Variance::Data)
    return;
  BinaryOperatorKind K = B->getOpcode();
  if (isa<CompoundAssignOperator>(B))
    K = BinaryOperator::getOpForCompoundAssignment(K);
  QualType LT = B->getLHS()->getType(), RT = B->getRHS()->getType();
  auto Scale = [&](QualType Ptr) -> std::optional<int64_t> {
    QualType P = Ptr->getPointeeType();
    if (P->isVoidType())
      return 1;
    if (P->isIncompleteType() || P->isDependentType() || P->isSizelessType())
      return std::nullopt;
    return Ctx.getTypeSizeInChars(P).getQuantity();
  };
  bool Compare = B->isComparisonOp();
  if (!Compare && K != BO_Add && K != BO_Sub && K != BO_Mul)
    return;
  if (!(LT->isIntegralOrEnumerationType() || LT->isPointerType()) ||
      !(RT->isIntegralOrEnumerationType() || RT->isPointerType()))
    return;
  std::optional<ThreadPart> PL = threadPart(L), PR = threadPart(R);
  if (!PL || !PR)
    return;
  if (Compare) {
    // u1 + t < u2 + t is u1 < u2 where the sum cannot wrap: pointers (one object) and
    // signed integers (overflow is undefined); an (in)equality is exact in any case.
    bool Exact = B->isEqualityOp() || LT->isPointerType() ||
                 (LT->isIntegralOrEnumerationType() && LT->isSignedIntegerOrEnumerationType());
    if (Exact && *PL == *PR)
      Out.V = Variance::Uniform;
    return;
  }
  if (K == BO_Mul) {
    const Sym *C = L.V == Variance::Uniform ? stripSymCasts(L.S.get())
                                             : stripSymCasts(R.S.get());
    const ThreadPart &P = L.V == Variance::Uniform ? *PR : *PL;
    if (!Out.S && C && C->Op == SymOp::Const)
      Out.T = std::make_shared<const ThreadPart>(scaled(P, C->Value));
    return;
  }
  int64_t SL = 1, SR = 1;
  if (LT->isPointerType() && RT->isIntegralOrEnumerationType()) {
    std::optional<int64_t> Sz = Scale(LT);
    if (!Sz)
      return;
    SR = *Sz;
  } else if (RT->isPointerType() && LT->isIntegralOrEnumerationType()) {
    std::optional<int64_t> Sz = Scale(RT);
    if (!Sz)
      return;
    SL = *Sz;
  }
  ThreadPart D = added(scaled(*PL, SL), scaled(*PR, SR), K == BO_Add ? 1 : -1);
  if (K == BO_Sub && D.Terms.empty()) {
    // The difference of two values with the same thread part: the same for every thread.
    Out.V = Variance::Uniform;
    return;
  }
  if (LT->isPointerType() && RT->isPointerType())
    return; // a distance in elements: the bytes' part does not divide in general
  if (!Out.S)
    Out.T = std::make_shared<const ThreadPart>(std::move(D));
}

/// A conversion: the operand's value in the new type (Bits, Uns: its integer width).
AbsVal ThreadDependence::evalCast(const CastExpr *CE, State &St, unsigned Bits, bool Uns) {
  AbsVal Sub = eval(CE->getSubExpr(), St);
  AbsVal Out = withLanes(evalCastOf(CE, Sub, Bits, Uns), {&Sub});
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    // The same value: its identities and symmetry (a local read keeps its Id).
    if (Out.V == Sub.V)
      keepLanes(Out, Sub);
    break;
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
    // A test's truth survives the conversion (`int are_fighting = a == b;`).
    Out.EqOf = Sub.EqOf;
    Out.EqBy = Sub.EqBy;
    break;
  default:
    break;
  }
  return Out;
}

AbsVal ThreadDependence::evalCastOf(const CastExpr *CE, const AbsVal &Sub, unsigned Bits,
                                    bool Uns) {
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_UserDefinedConversion: // HIP's threadIdx.x: a conversion operator's call
    return {Sub.V, Sub.S && Bits ? makeCast(Sub.S, Bits, Uns) : nullptr,
            Sub.S && Bits ? nullptr : Sub.T};
  // The same address as another pointer type, or an array's first element: the same
  // bytes' thread part.
  case CK_BitCast:
  case CK_ArrayToPointerDecay:
    return {Sub.V, nullptr, CE->getType()->isPointerType() ? Sub.T : nullptr};
  case CK_IntegralToBoolean:
    return {Sub.V, Sub.S ? makeBinary(SymOp::Ne, Sub.S,
                                      makeConst(0, Sub.S->Bits, Sub.S->Unsigned), 8, true)
                         : nullptr};
  // A floating value keeps a symbolic form only while it is an exact integer: an
  // integer converted, an integral literal, or a math function of such (evalCall); as a
  // 64-bit signed value. Floating arithmetic drops it.
  case CK_IntegralToFloating:
    return {Sub.V, Sub.S ? makeCast(Sub.S, 64, false) : nullptr};
  case CK_FloatingCast:
    return Sub;
  case CK_FloatingToIntegral:
    return {Sub.V, Sub.S && Bits ? makeCast(Sub.S, Bits, Uns) : nullptr};
  default:
    return {Sub.V, nullptr};
  }
}

/// A binary operator, assignments and short-circuit operands (a branch site) included.
AbsVal ThreadDependence::evalBinary(const BinaryOperator *B, State &St, unsigned Bits, bool Uns) {
  BinaryOperatorKind K = B->getOpcode();
  if (K == BO_Assign) {
    AbsVal R = eval(B->getRHS(), St);
    if (Frames.size() > 1)
      if (auto It = Frames.back().OutStores.find(B); It != Frames.back().OutStores.end())
        Frames.back().PointerOuts[It->second] = R;
    if (!localVar(B->getLHS()))
      eval(B->getLHS(), St);
    assign(B->getLHS(), R, St);
    return R;
  }
  if (K == BO_Comma) {
    eval(B->getLHS(), St);
    return eval(B->getRHS(), St);
  }
  AbsVal L = eval(B->getLHS(), St);
  if (K == BO_LAnd || K == BO_LOr) {
    if (L.V != Variance::Uniform && readsMemoryOrCalls(B->getRHS())) {
      BranchSite Site;
      Site.Kind = BranchSite::ShortCircuit;
      Site.Branch = B;
      Site.Cond = B->getLHS();
      Site.CondVal = L;
      record(std::move(Site), St);
    }
  }
  // The right operand of `&&` runs only where the left holds (of `||`, where it fails):
  // `bin < n && s[bin] > m` reads s[bin] for bin < n only, as an `if` would.
  bool Guarded = (K == BO_LAnd || K == BO_LOr) && L.S;
  if (Guarded)
    St.Path.push_back(K == BO_LAnd ? L.S : makeUnary(SymOp::LNot, L.S, 8, true));
  AbsVal R = eval(B->getRHS(), St);
  if (Guarded)
    St.Path.pop_back();
  bool Ok;
  SymOp Op = binaryOp(K, Ok);
  AbsVal Out{join(L.V, R.V), nullptr};
  // The rules that make a lane-varying value the same in a warp, for `a op b` and for
  // `a op= b` alike (SuperLU_DIST's `wrp /= WARP_SIZE`).
  auto WarpRules = [&](BinaryOperatorKind KB) {
    // A lane index divided by a multiple of 32 (or shifted by 5 or more) is the same in a
    // warp; the divisor may come through a conversion (`threadIdx.x / 32`, unsigned).
    const Sym *RC = stripSymCasts(R.S.get());
    if (L.V == Variance::LaneVarying && R.V == Variance::Uniform && RC &&
        RC->Op == SymOp::Const && ((KB == BO_Div && RC->Value % 32 == 0 && RC->Value > 0) ||
                                   (KB == BO_Shr && RC->Value >= 5)))
      Out.V = Variance::WarpUniform;
    // The base of a lane's warp (issue 23, HeCBench's btree): `X & ~31` and `X - (X & 31)`
    // (`X % 32`, a multiple of 32 for 32; `tid - laneId` with laneId = threadIdx.x & 31)
    // are the same in every lane of a warp when X counts the lanes one by one (its thread
    // part threadIdx.x with warps in rows, or the linear thread index).
    if (L.V == Variance::LaneVarying && KB == BO_And && R.V == Variance::Uniform && RC &&
        RC->Op == SymOp::Const && (RC->Value & 31) == 0 && countsLanes(threadPart(L)))
      Out.V = Variance::WarpUniform;
    if (L.V == Variance::LaneVarying && R.V == Variance::LaneVarying && KB == BO_Sub && R.S) {
      const Sym *Low = stripSymCasts(R.S.get());
      const Sym *M = Low->B ? stripSymCasts(Low->B.get()) : nullptr;
      bool LowBits = M && M->Op == SymOp::Const &&
                     ((Low->Op == SymOp::And && M->Value >= 31 && ((M->Value + 1) & M->Value) == 0) ||
                      (Low->Op == SymOp::Rem && M->Value > 0 && M->Value % 32 == 0));
      if (LowBits) {
        std::optional<ThreadPart> PL = threadPart(L), PX = linearPart(Low->A.get());
        // Both count the lanes (threadIdx.x with warps in rows or a block of one row, or the
        // linear index): they agree modulo 32, so `threadIdx.x - laneid` (the lane read from
        // %laneid, AMGX's utils::lane_id()) is the warp's base as `t - t % 32` is.
        if (PL && PX && countsLanes(PL) && countsLanes(PX))
          Out.V = Variance::WarpUniform;
      }
    }
  };
  if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
    auto [CB, CU] = typeOf(CA->getComputationResultType());
    if (Ok && L.S && R.S && CB)
      Out.S = makeBinary(Op, makeCast(L.S, CB, CU), makeCast(R.S, CB, CU), CB, CU);
    WarpRules(BinaryOperator::getOpForCompoundAssignment(K));
    combineParts(B, L, R, Out);
    Out = withLanes(Out, {&L, &R});
    laneSymmetry(K == BO_AddAssign || K == BO_MulAssign || K == BO_AndAssign ||
                     K == BO_OrAssign || K == BO_XorAssign,
                 false, false, L, R, Out);
    assign(B->getLHS(), Out, St);
    return Out;
  }
  if (Ok && L.S && R.S && Bits && B->getLHS()->getType()->isIntegralOrEnumerationType() &&
      B->getRHS()->getType()->isIntegralOrEnumerationType())
    Out.S = makeBinary(Op, L.S, R.S, Bits, Uns);
  // A comparison of exact floating values (both with a symbolic form) is the integer one.
  else if (Ok && L.S && R.S && Bits && B->isComparisonOp() &&
           B->getLHS()->getType()->isRealFloatingType() &&
           B->getRHS()->getType()->isRealFloatingType())
    Out.S = makeBinary(Op, makeCast(L.S, 64, false), makeCast(R.S, 64, false), Bits, Uns);
  WarpRules(K);
  combineParts(B, L, R, Out);
  Out = withLanes(Out, {&L, &R});
  laneSymmetry(K == BO_Add || K == BO_Mul || K == BO_And || K == BO_Or || K == BO_Xor ||
                   K == BO_EQ || K == BO_NE || K == BO_LAnd || K == BO_LOr,
               K == BO_EQ, K == BO_LAnd, L, R, Out);
  return Out;
}

bool ThreadDependence::countsLanes(const std::optional<ThreadPart> &P) const {
  if (!P)
    return false;
  ThreadPart X{{{"t0", 1}}};
  if (*P == X)
    return WarpRows || (UnitDims[1] && UnitDims[2]);
  std::optional<ThreadPart> Linear = linearPart(linearTid().get());
  return Linear && *P == *Linear;
}

/// A unary operator: increments (an assignment), an address, a load, arithmetic.
AbsVal ThreadDependence::evalUnary(const UnaryOperator *U, State &St, unsigned Bits, bool Uns) {
  UnaryOperatorKind K = U->getOpcode();
  if (U->isIncrementDecrementOp()) {
    AbsVal Old = eval(U->getSubExpr(), St);
    AbsVal New{Old.V, nullptr};
    if (Old.S && Bits)
      New.S = makeBinary(U->isIncrementOp() ? SymOp::Add : SymOp::Sub, Old.S,
                         makeConst(1, Bits, Uns), Bits, Uns);
    else if (Old.T) // a uniform step: the same part, a new value
      New.T = std::make_shared<const ThreadPart>(*Old.T);
    assign(U->getSubExpr(), New, St);
    return U->isPrefix() ? New : Old;
  }
  if (K == UO_AddrOf) {
    const Expr *Sub = strip(U->getSubExpr());
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
      // &A[i]: A + i, with its thread part.
      AbsVal Base = eval(AS->getBase(), St), Idx = eval(AS->getIdx(), St);
      AbsVal Out{join(Base.V, Idx.V), nullptr};
      QualType Elem = AS->getType();
      if (Out.V != Variance::Uniform && Out.V != Variance::Data && !Elem->isIncompleteType() &&
          !Elem->isDependentType() && !Elem->isSizelessType())
        if (std::optional<ThreadPart> PB = threadPart(Base), PI = threadPart(Idx); PB && PI)
          Out.T = std::make_shared<const ThreadPart>(
              added(*PB, scaled(*PI, Ctx.getTypeSizeInChars(Elem).getQuantity()), 1));
      return Out;
    }
    return {Variance::Uniform, nullptr};
  }
  AbsVal Sub = eval(U->getSubExpr(), St);
  if (K == UO_Deref)
    return load(U, Sub.V, laneFunction(Sub));
  SymOp Op = K == UO_Minus ? SymOp::Neg : K == UO_Not ? SymOp::BitNot : SymOp::LNot;
  if (K == UO_Plus)
    return Sub;
  if ((K == UO_Minus || K == UO_Not || K == UO_LNot) && Sub.S && Bits)
    return {Sub.V, makeUnary(Op, Sub.S, Bits, Uns)};
  return withLanes({Sub.V, nullptr}, {&Sub});
}

AbsVal ThreadDependence::evalImpl(const Expr *E, State &St) {
  if (!E)
    return {};
  if (auto *P = dyn_cast<ParenExpr>(E))
    return eval(P->getSubExpr(), St);
  if (auto *FE = dyn_cast<FullExpr>(E))
    return eval(FE->getSubExpr(), St);
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(MT->getSubExpr(), St);
  if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr(), St);
  auto [Bits, Uns] = typeOf(E->getType());
  if (Bits && !isa<ImplicitCastExpr, PseudoObjectExpr>(E))
    if (std::optional<int64_t> V = constantOf(E))
      return {Variance::Uniform, makeConst(*V, Bits, Uns)};
  if (isa<PseudoObjectExpr>(E))
    return evalBuiltinVar(E);
  if (auto *FL = dyn_cast<FloatingLiteral>(E)) {
    double D = FL->getValueAsApproximateDouble();
    if (D == double(int64_t(D)) && D > -9e15 && D < 9e15)
      return {Variance::Uniform, makeConst(int64_t(D), 64, false)};
    return {};
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return readVar(VD, DR, St);
    return {};
  }
  if (auto *CE = dyn_cast<CastExpr>(E)) {
    return evalCast(CE, St, Bits, Uns);
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    return evalBinary(B, St, Bits, Uns);
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    return evalUnary(U, St, Bits, Uns);
  }
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    AbsVal Base = eval(AS->getBase(), St);
    AbsVal Idx = eval(AS->getIdx(), St);
    AbsVal Loaded = load(E, join(Base.V, Idx.V), laneFunction(Base) && laneFunction(Idx));
    // A thread's own slot of a `__shared__` array: what it stored there last.
    if (const VarDecl *V = ownSlot(AS))
      if (auto It = St.Locals.find(V); It != St.Locals.end() && Frames.size() == 1)
        return It->second;
    return Loaded;
  }
  if (auto *M = dyn_cast<MemberExpr>(E)) {
    AbsVal Base = eval(M->getBase(), St);
    if (const VarDecl *Ref = localVar(M->getBase()); Ref && !M->isArrow())
      if (auto It = MemoryRefs.find(Ref); It != MemoryRefs.end())
        return load(E, It->second);
    if (M->isArrow())
      return load(E, Base.V, laneFunction(Base));
    // A member of a struct in memory at an address the same for the block, or for the
    // warp (`a.data.flags` with `a` bound to `artis[idx[warpIndex]]`): a load there, as
    // an element at such an address is.
    if (Base.V <= Variance::WarpUniform && !localVar(M->getBase()))
      return load(E, Base.V);
    return withLanes({Base.V, nullptr}, {&Base});
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // A condition the compiler folds picks one arm, as for an `if` (walkIf): bitpermute's
    // `(Z_COUNT > WARP_SZ) ? __syncthreads() : __syncwarp();` runs only the second.
    Expr::EvalResult Folded;
    if (!CO->getCond()->isValueDependent() && CO->getCond()->EvaluateAsInt(Folded, Ctx)) {
      AbsVal R = eval(Folded.Val.getInt().getBoolValue() ? CO->getTrueExpr()
                                                         : CO->getFalseExpr(), St);
      if (R.S && Bits)
        R.S = makeCast(R.S, Bits, Uns);
      return R;
    }
    AbsVal C = eval(CO->getCond(), St);
    if (C.V != Variance::Uniform && (CO->getTrueExpr()->HasSideEffects(Ctx) ||
                                     CO->getFalseExpr()->HasSideEffects(Ctx))) {
      BranchSite Site;
      Site.Kind = BranchSite::Conditional;
      Site.Branch = CO;
      Site.Cond = CO->getCond();
      Site.CondVal = C;
      record(std::move(Site), St);
    }
    // An access in an arm runs only where the condition picks that arm
    // (`tid < n ? s[tid] : 0` reads s[tid] for tid < n only), as in an `if`.
    if (C.S)
      St.Path.push_back(C.S);
    AbsVal A = eval(CO->getTrueExpr(), St);
    if (C.S)
      St.Path.back() = makeUnary(SymOp::LNot, C.S, 8, true);
    AbsVal B = eval(CO->getFalseExpr(), St);
    if (C.S)
      St.Path.pop_back();
    AbsVal R = merge(C, A, B);
    if (R.S && Bits)
      R.S = makeCast(R.S, Bits, Uns);
    return R;
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    return evalCall(C, St);
  // Anything else: the join of its parts, no symbolic form.
  AbsVal Out;
  for (const Stmt *Child : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(Child))
      Out.V = join(Out.V, eval(CE, St).V);
  return Out;
}

namespace {
/// The calls and thread indices of a function body, for readsOnlyInputs.
struct BodyFacts {
  bool Thread = false; ///< reads a thread index, an asm statement, or an unknown callee
  std::vector<const FunctionDecl *> Callees;
  void scan(const Stmt *S) {
    if (!S || Thread)
      return;
    if (auto *A = dyn_cast<GCCAsmStmt>(S); A && isRegisterAsm(A)) {
      // Arithmetic on registers (cuda_fp16's `setp.le.f16` of __hle): its inputs are the
      // operands, walked below.
    } else if (isa<AsmStmt>(S)) {
      Thread = true;
      return;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        if (VD->getName() == "threadIdx" || VD->getName() == "__lane_id")
          Thread = true;
    if (auto *C = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *FD = C->getDirectCallee())
        Callees.push_back(FD);
      else if (!isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParenImpCasts()))
        Thread = true; // through a pointer: unknown
    }
    if (auto *CE = dyn_cast<CXXConstructExpr>(S))
      Callees.push_back(CE->getConstructor());
    for (const Stmt *Child : S->children())
      scan(Child);
  }
};
} // namespace

bool ThreadDependence::readsOnlyInputs(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  if (auto It = OnlyInputs.find(FD); It != OnlyInputs.end())
    return It->second;
  // Eight calls deep: a header library's chains (cuda_bf16's operator* -> __hmul ->
  // __internal_device_hmul -> ...) are deeper than a hand-written accessor's.
  if (Depth > 8 || isSyncCallee(FD))
    return false;
  const FunctionDecl *Def = nullptr;
  bool Out = false;
  if (!FD->hasBody(Def) || !Def) {
    // A builtin without a body (__ldg, a math function) computes from its arguments;
    // the thread-index, lane, atomic, vote, shuffle and clock intrinsics do not.
    StringRef N = FD->getIdentifier() ? FD->getName() : "";
    Out = FD->getBuiltinID() != 0 && !N.starts_with("__nvvm_read_ptx_sreg") &&
          !N.starts_with("__builtin_amdgcn_") && !N.contains("atomic") &&
          !N.starts_with("__shfl") && !N.contains("clock");
    if (FD->isDefaulted() || FD->isTrivial())
      Out = true; // an implicit copy, move or default constructor
  } else {
    OnlyInputs[FD] = false; // recursion: not an accessor
    BodyFacts B;
    B.scan(Def->getBody());
    if (auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        B.scan(I->getInit());
    Out = !B.Thread;
    for (const FunctionDecl *Callee : B.Callees)
      if (Out && Callee->getCanonicalDecl() != FD)
        Out = readsOnlyInputs(Callee, Depth + 1);
  }
  OnlyInputs[FD] = Out;
  return Out;
}

/// HIP's thread and block indices: ROCm's conversion operators of __HIP_Coordinates, the
/// work-item builtins and functions; none for another callee.
std::optional<AbsVal> ThreadDependence::hipIndexCall(const CallExpr *C, const FunctionDecl *FD,
                                                     const std::string &Name) {
  // HIP: ROCm's headers read threadIdx.x through a conversion operator of
  // __HIP_Coordinates<__HIP_ThreadIdx>::__X, and the work-item functions and builtins
  // directly (hipThreadIdx_x is __ockl_get_local_id(0); warplint's own header uses
  // __builtin_amdgcn_workitem_id_x()).
  if (auto *Conv = dyn_cast<CXXConversionDecl>(FD)) {
    const auto *Axis = dyn_cast<CXXRecordDecl>(Conv->getParent());
    const auto *Coords =
        Axis ? dyn_cast<ClassTemplateSpecializationDecl>(Axis->getParent()) : nullptr;
    if (Coords && Coords->getName() == "__HIP_Coordinates" &&
        Coords->getTemplateArgs().size() == 1 &&
        Coords->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      StringRef Axn = Axis->getName();
      unsigned Dim = Axn == "__X" ? 0 : Axn == "__Y" ? 1 : Axn == "__Z" ? 2 : 3;
      const auto *Which = Coords->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
      StringRef F = Which ? Which->getName() : "";
      const char *Var = F == "__HIP_ThreadIdx"  ? "threadIdx"
                        : F == "__HIP_BlockIdx" ? "blockIdx"
                        : F == "__HIP_BlockDim" ? "blockDim"
                        : F == "__HIP_GridDim"  ? "gridDim"
                                                : nullptr;
      if (Var && Dim < 3)
        return builtinVar(Var, Dim);
    }
  }
  {
    StringRef N(Name);
    const char *Var = nullptr;
    std::optional<unsigned> Dim;
    if (N.consume_front("__builtin_amdgcn_")) {
      Var = N.consume_front("workitem_id_")    ? "threadIdx"
            : N.consume_front("workgroup_id_") ? "blockIdx"
            : N.consume_front("workgroup_size_") ? "blockDim"
                                                 : nullptr;
      if (Var && N.size() == 1 && N[0] >= 'x' && N[0] <= 'z')
        Dim = unsigned(N[0] - 'x');
    } else if (N.consume_front("__ockl_get_") && C->getNumArgs() == 1) {
      Var = N == "local_id"     ? "threadIdx"
            : N == "group_id"   ? "blockIdx"
            : N == "local_size" ? "blockDim"
            : N == "num_groups" ? "gridDim"
                                : nullptr;
      if (std::optional<int64_t> K = constantOf(C->getArg(0)); K && *K >= 0 && *K < 3)
        Dim = unsigned(*K);
    }
    if (Var && Dim)
      return builtinVar(Var, *Dim);
  }

  return std::nullopt;
}

/// NVVM's special registers (`__nvvm_read_ptx_sreg_tid_x`): Name without its prefix.
AbsVal ThreadDependence::specialRegister(StringRef Reg) {
  unsigned Dim = Reg.ends_with("_y") ? 1 : Reg.ends_with("_z") ? 2 : 0;
  if (Reg.starts_with("tid_"))
    return {Variance::LaneVarying, makeThreadIdx(Dim)};
  if (Reg.starts_with("ntid_"))
    return {Variance::Uniform, makeBlockDim(Dim)};
  if (Reg == "laneid")
    return {Variance::LaneVarying,
            makeBinary(SymOp::Rem, linearTid(), makeConst(32, 32, true), 32, true)};
  if (Reg.starts_with("ctaid_") || Reg.starts_with("nctaid_"))
    return {Variance::Uniform, nullptr};
  if (Reg == "warpid")
    return {Variance::WarpUniform, nullptr};
  return {Variance::Data, nullptr};
}

/// A shuffle's result where its operands' lane functions decide it. Lane l of a shuffle over
/// segments of `width` lanes reads v at a lane of its own segment picked by the source (or
/// the offset): with v the same at the same lane of every warp (a lane function), a source
/// the same for the block and whole-warp segments, every lane of every warp reads one
/// word: the block's value (PhysX's `*_ReadWarp`: lane k loads word k of a block-wide
/// struct, `__shfl_sync(FULL_MASK, input, k)` hands word k to all). With a source or
/// offset that is a lane function, lane l reads the same in every warp: a lane function.
/// A value uniform over the block is that value in any lane. Segments narrower than the
/// warp give each segment its own lane: no longer the same for the warp.
std::optional<AbsVal> ThreadDependence::shuffle(StringRef N,
                                                const std::vector<AbsVal> &Args) const {
  // A vote over a predicate that is the same at the same lane of every warp gives every
  // warp the same answer (the arg-min's `__ballot_sync(FULL_MASK, minV == v)` after a
  // butterfly over `shMinSepS[lane]`).
  if ((N == "__ballot_sync" || N == "__all_sync" || N == "__any_sync") && Args.size() == 2 &&
      Args[0].V == Variance::Uniform && laneFunction(Args[1]))
    return AbsVal{Variance::Uniform, nullptr};
  if (!N.starts_with("__shfl") || !N.ends_with("_sync") || Args.size() < 3)
    return std::nullopt;
  if (Args[1].V == Variance::Uniform)
    return AbsVal{Variance::Uniform, nullptr};
  int64_t Width = shuffleWidth(Args).value_or(0);
  bool Segments = Width > 0 && Width <= 32 && 32 % Width == 0;
  bool Direct = N == "__shfl_sync";
  if (Direct && Width == 32 && Args[2].V == Variance::Uniform && laneFunction(Args[1]))
    return AbsVal{Variance::Uniform, nullptr};
  if (Segments && laneFunction(Args[1]) && laneFunction(Args[2])) {
    AbsVal Out{join(Args[1].V, Variance::LaneVarying), nullptr};
    // A source the same for the warp over the whole warp: the existing rule below.
    if (Direct && Width == 32 && Args[2].V <= Variance::WarpUniform)
      return std::nullopt;
    Out.LaneFn = true;
    return Out;
  }
  // A source the same for the warp reads one lane per segment: each segment its own.
  if (Direct && Width < 32 && Args[2].V <= Variance::WarpUniform)
    return AbsVal{join(Args[1].V, Variance::LaneVarying), nullptr};
  return std::nullopt;
}

/// Lane symmetry through a shuffle over segments of `width` lanes (a power of two). Lane l
/// of `__shfl_sync(m, v, src, width)` reads v at lane (l's segment) + src % width: lanes l
/// and l ^ b read one lane where src % width is the same at both and b is inside the
/// segment, or where v too is the same under b (AMGX's `shfl(v, 16 * (lane / 16) + k)`:
/// one value per half-warp). `__shfl_xor_sync(m, v, c, width)` with c < width reads lane
/// l ^ c, which keeps every symmetry of v, and records the pair (XorOf) for the
/// order-free operations of v with it (laneSymmetry).
AbsVal ThreadDependence::shuffleLanes(StringRef N, const std::vector<AbsVal> &Args,
                                      AbsVal Out) const {
  if (Out.V < Variance::LaneVarying || !N.starts_with("__shfl") || !N.ends_with("_sync") ||
      Args.size() < 3)
    return Out;
  std::optional<int64_t> W = shuffleWidth(Args);
  if (!W || (Args.size() >= 4 && Args[3].V != Variance::Uniform))
    return Out;
  int64_t Width = *W;
  if (Width <= 0 || Width > 32 || (Width & (Width - 1)) != 0)
    return Out;
  uint8_t Inside = uint8_t(Width - 1);
  Out.LaneInv = 0;
  dropIdentity(Out); // settleLanes gives the new value its Id
  if (N == "__shfl_sync") {
    uint8_t OfSrc = laneInv(Args[2], true, Width);
    Out.LaneInv = OfSrc & ~Inside ? OfSrc & (Inside | laneInv(Args[1], true)) : OfSrc;
  } else if (N == "__shfl_xor_sync") {
    const Sym *C = Args[2].S ? stripSymCasts(Args[2].S.get()) : nullptr;
    if (Args[2].V == Variance::Uniform && C && C->Op == SymOp::Const && C->Value > 0 &&
        C->Value < Width) {
      Out.LaneInv = laneInv(Args[1], true);
      Out.XorOf = Args[1].Id;
      Out.XorBy = uint8_t(C->Value);
    }
  }
  settleLanes(Out);
  return Out;
}

/// The warp- and block-wide intrinsics whose result is known uniform, lane-varying or data;
/// none for another callee.
static std::optional<AbsVal> warpIntrinsic(StringRef N, const std::vector<AbsVal> &Args) {
  // A barrier that reduces a predicate gives every thread of the block the same value.
  if (N == "__syncthreads_count" || N == "__syncthreads_and" || N == "__syncthreads_or")
    return AbsVal{Variance::Uniform, nullptr};
  if (N == "__ballot_sync" || N == "__all_sync" || N == "__any_sync" || N == "__activemask" ||
      N == "__uni_sync" || N.starts_with("__reduce_"))
    return AbsVal{Variance::WarpUniform, nullptr};
  if (N == "__shfl_sync" && Args.size() >= 3)
    return AbsVal{Args[2].V <= Variance::WarpUniform ? join(Variance::WarpUniform, Args[2].V)
                                               : join(Args[1].V, Variance::LaneVarying),
            nullptr};
  if (N.starts_with("__shfl_"))
    return AbsVal{Args.size() >= 2 ? Args[1].V : Variance::Data, nullptr};
  if (N.starts_with("atomic") || N.starts_with("__ldg") || N == "clock" || N == "clock64")
    return AbsVal{Variance::Data, nullptr};
  return std::nullopt;
}

/// Math functions and bit intrinsics of known operands, and min/max; none for another callee.
static std::optional<AbsVal> mathCall(const CallExpr *C, StringRef N,
                                      const std::vector<AbsVal> &Args, Variance All,
                                      unsigned Bits, bool Uns) {
  // Math functions and bit intrinsics of known operands, evaluated as min/max are:
  // exp2/pow of exact values (an integer-valued float), log2 as floor(log2(x)) (what a
  // conversion to an integer keeps), __ffs/__clz/__popc in their operand's width.
  {
    auto Exact = [&](unsigned I) -> SymRef {
      // A floating argument has a form only when exact; log2's floor is not its value.
      const Sym *T = Args[I].S.get();
      while (T && T->Op == SymOp::Cast && T->A)
        T = T->A.get();
      if (!Args[I].S || (T && T->Op == SymOp::Log2 &&
                         C->getArg(I)->getType()->isRealFloatingType()))
        return nullptr;
      return makeCast(Args[I].S, 64, false);
    };
    bool FloatResult = C->getType()->isRealFloatingType();
    SymRef S;
    if ((N == "exp2f" || N == "exp2") && Args.size() == 1 && FloatResult) {
      if (SymRef A = Exact(0))
        S = makeBinary(SymOp::Pow, makeConst(2, 64, false), A, 64, false);
    } else if ((N == "powf" || N == "pow" || N == "__powf") && Args.size() == 2 &&
               FloatResult) {
      SymRef A = Exact(0), B = Exact(1);
      if (A && B)
        S = makeBinary(SymOp::Pow, A, B, 64, false);
    } else if ((N == "log2f" || N == "log2" || N == "__log2f") && Args.size() == 1 &&
               FloatResult) {
      if (SymRef A = Exact(0))
        S = makeUnary(SymOp::Log2, A, 64, false);
    } else if ((N == "__ffs" || N == "__ffsll" || N == "__clz" || N == "__clzll" ||
                N == "__popc" || N == "__popcll") &&
               Args.size() == 1 && Bits && Args[0].S) {
      unsigned Width = N.ends_with("ll") ? 64 : 32;
      SymOp Op = N.starts_with("__ffs") ? SymOp::Ffs
                 : N.starts_with("__clz") ? SymOp::Clz
                                          : SymOp::Popc;
      S = makeCast(makeUnary(Op, makeCast(Args[0].S, Width, true), 32, false), Bits, Uns);
    }
    if (S)
      return AbsVal{All, S};
  }
  if ((N == "min" || N == "max" || N == "umin" || N == "umax") && Args.size() == 2) {
    SymRef S;
    if (Args[0].S && Args[1].S && Bits)
      S = makeBinary(N.ends_with("min") ? SymOp::Min : SymOp::Max, makeCast(Args[0].S, Bits, Uns),
                     makeCast(Args[1].S, Bits, Uns), Bits, Uns);
    return AbsVal{All, S};
  }

  return std::nullopt;
}

/// cooperative_groups ranks and sizes; none for another member call.
std::optional<AbsVal> ThreadDependence::cooperativeGroupsCall(const CallExpr *C,
                                                              const std::string &Name,
                                                              unsigned Bits, bool Uns) {
  // `g.thread_rank()` calls a member or (CUDA's own header declares thread_block's and a
  // tile's ranks and sizes static) a static member through the object.
  const CXXRecordDecl *GroupRD = nullptr;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    GroupRD = MC->getRecordDecl();
  else if (auto *ME = dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts()))
    if (auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()); MD && MD->isStatic())
      for (const DeclContext *DC = MD->getDeclContext(); DC && !GroupRD; DC = DC->getParent())
        if (auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->getName() == "cooperative_groups")
          GroupRD = ME->getBase()->getType()->getAsCXXRecordDecl();
  if (GroupRD) {
    const CXXRecordDecl *RD = GroupRD;
    std::string Type = RD ? RD->getNameAsString() : "";
    unsigned TileSize = 32;
    if (auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
      if (Spec->getTemplateArgs().size() >= 1 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
        TileSize = unsigned(Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue());
    bool IsTile = StringRef(Type).contains("tile");
    if (Name == "thread_rank" && Bits) {
      if (IsTile && TileSize)
        return AbsVal{Variance::LaneVarying,
                makeCast(makeBinary(SymOp::Rem, linearTid(), makeConst(TileSize, 32, true), 32,
                                    true),
                         Bits, Uns)};
      if (Type == "thread_block")
        return AbsVal{Variance::LaneVarying, makeCast(linearTid(), Bits, Uns)};
      return AbsVal{Variance::LaneVarying, nullptr};
    }
    if (Name == "meta_group_rank" && IsTile && TileSize && Bits)
      return AbsVal{TileSize % 32 == 0 ? Variance::WarpUniform : Variance::LaneVarying,
              makeCast(makeBinary(SymOp::Div, linearTid(), makeConst(TileSize, 32, true), 32,
                                  true),
                       Bits, Uns)};
    if (Name == "thread_index")
      return AbsVal{Variance::LaneVarying, nullptr};
    if (Name == "size" || Name == "num_threads" || Name == "meta_group_size" ||
        Name == "group_index" || Name == "dim_threads" || Name == "group_dim")
      return AbsVal{Variance::Uniform, nullptr};
  }
  return std::nullopt;
}

namespace {

unsigned countNodes(const Stmt *S, unsigned Limit) {
  unsigned N = 0;
  llvm::SmallVector<const Stmt *, 32> Work{S};
  while (!Work.empty() && N <= Limit) {
    const Stmt *X = Work.pop_back_val();
    if (!X)
      continue;
    ++N;
    for (const Stmt *Child : X->children())
      Work.push_back(Child);
  }
  return N;
}
} // namespace

bool ThreadDependence::walkable(const FunctionDecl *Def) {
  if (Frames.size() < AnyBodyFrames)
    return true;
  if (Frames.size() >= SmallBodyFrames)
    return false;
  auto [It, New] = SmallBodies.try_emplace(Def, false);
  if (New)
    It->second = countNodes(Def->getBody(), SmallBody) <= SmallBody;
  return It->second;
}

/// A call of a device function defined in this TU: its body walked with these arguments
/// (walkable: no recursion, five calls deep, small helpers ten); its outputs through
/// pointers or references to locals unknown after. None when it is not walked.
std::optional<AbsVal> ThreadDependence::inlineCall(const CallExpr *C, const FunctionDecl *FD,
                                                   const std::vector<AbsVal> &Args, State &St,
                                                   unsigned Bits, bool Uns) {
  const FunctionDecl *Def = nullptr;
  // A static member function is a free function in a class's scope (cudpp's
  // `static __device__ bool isBackward() { return backward; }` of a traits class).
  if (FD->hasBody(Def) && Def &&
      (!isa<CXXMethodDecl>(Def) || cast<CXXMethodDecl>(Def)->isStatic()) && walkable(Def)) {
    bool Active = false;
    for (const Frame &F : Frames)
      Active |= F.Fn == Def;
    if (!Active && Def->getNumParams() == Args.size()) {
      State Callee;
      Callee.Guards = St.Guards;
      Callee.Exits = St.Exits;
      for (unsigned I = 0; I < Def->getNumParams(); ++I) {
        AbsVal A = Args[I];
        auto [PB, PU] = typeOf(Def->getParamDecl(I)->getType());
        A.S = A.S && PB ? makeCast(A.S, PB, PU) : nullptr;
        if (!Def->getParamDecl(I)->getType()->isPointerType() && !PB)
          A.T = nullptr;
        Callee.Locals[Def->getParamDecl(I)] = A;
        // A reference parameter bound to memory (a reference of the caller's that names a
        // `__shared__` buffer, or `*p`) reads that memory, as the caller's reference does.
        const ParmVarDecl *P = Def->getParamDecl(I);
        MemoryRefs.erase(P);
        if (P->getType()->isReferenceType() && I < C->getNumArgs()) {
          const Expr *Arg = C->getArg(I);
          if (const VarDecl *Ref = localVar(Arg)) {
            if (auto It = MemoryRefs.find(Ref); It != MemoryRefs.end())
              MemoryRefs[P] = It->second;
          } else if (boundToMemory(Arg)) {
            MemoryRefs[P] = A.V >= Variance::LaneVarying ? Variance::Data : A.V;
          }
        }
      }
      bool Saved = Recording;
      Recording = false;
      Frames.emplace_back();
      Frames.back().Fn = Def;
      Frames.back().GuardBase = Callee.Guards.size();
      for (unsigned I = 0; I < Def->getNumParams() && I < C->getNumArgs(); ++I) {
        auto *U = dyn_cast<UnaryOperator>(strip(C->getArg(I)));
        if (U && U->getOpcode() == UO_AddrOf && localVar(U->getSubExpr()))
          if (const BinaryOperator *B = onlyOutStore(Def, Def->getParamDecl(I)))
            Frames.back().OutStores[B] = I;
      }
      Frames.back().PointerOuts.resize(Def->getNumParams());
      CallStack.push_back(C);
      walk(Def->getBody(), Callee);
      CallStack.pop_back();
      if (!Callee.Terminated)
        noteOuts(Callee);
      std::vector<AbsVal> Returns = std::move(Frames.back().Returns);
      std::vector<std::optional<AbsVal>> Outs = std::move(Frames.back().Outs);
      std::vector<std::optional<AbsVal>> PointerOuts = std::move(Frames.back().PointerOuts);
      Frames.pop_back();
      Recording = Saved;
      AbsVal Out;
      for (const AbsVal &R : Returns)
        Out.V = join(Out.V, R.V);
      Out.LaneFn = Out.V >= Variance::LaneVarying && Returns.size() == 1 &&
                   laneFunction(Returns[0]);
      // The one value returned, with its identities (a shuffle's wrapper returns the
      // shuffle: `utils::shfl_xor(v, 16)`).
      if (Returns.size() == 1)
        keepLanes(Out, Returns[0]);
      if (Returns.size() == 1 && Returns[0].S && Bits)
        Out.S = makeCast(Returns[0].S, Bits, Uns);
      else if (Returns.size() == 1 && (Bits || C->getType()->isPointerType()))
        Out.T = Returns[0].T;
      // Outputs through pointers or references to locals: unknown from here on. A
      // reference or pointer to const is no output (`real(const complex &)`, `min(const
      // T &, const T &)`): the local keeps its value.
      // A pointer passed by value (`f(tau)`, tau a local pointer) is a copy: the callee
      // may write what it points to, never the local itself.
      // A local bound to a writable reference parameter takes what the callee left in it
      // (noteOuts: its writes are walked as a local's, the callee's conditions around its
      // returns joined in): `get_addresses(..., outer_address)` from blockIdx stays
      // uniform, `num += __popc(ballot)` warp-uniform. Through a pointer it is unknown.
      for (unsigned I = 0; I < C->getNumArgs(); ++I) {
        const Expr *A = strip(C->getArg(I));
        bool AddressOf = false;
        if (auto *U = dyn_cast<UnaryOperator>(A))
          if (U->getOpcode() == UO_AddrOf) {
            A = U->getSubExpr();
            AddressOf = true;
          }
        if (I >= Def->getNumParams())
          continue;
        QualType PT = Def->getParamDecl(I)->getType();
        if (!PT->isReferenceType() && !PT->isPointerType())
          continue;
        if (PT->getPointeeType().isConstQualified())
          continue;
        if (const VarDecl *V = localVar(A))
          if (St.Locals.count(V) &&
              (PT->isReferenceType() || AddressOf || V->getType()->isArrayType())) {
            // A reference parameter of the caller handed on (`LoadShapePairWarp(...,
            // shape0)` calling `PxgShape_ReadWarp(shape0, ...)`) is the caller's output as
            // its own writes to it are: it takes the callee's value the same way.
            if (PT->isReferenceType() && !AddressOf && !V->getType()->isArrayType() &&
                (!V->getType()->isReferenceType() || isa<ParmVarDecl>(V)) && I < Outs.size() &&
                Outs[I]) {
              AbsVal Out = *Outs[I];
              auto [VB, VU] = typeOf(V->getType());
              Out.S = Out.S && VB ? makeCast(Out.S, VB, VU) : nullptr;
              St.Locals[V] = Out;
              continue;
            }
            // `&local` to an output pointer stored once on every path: the stored value.
            if (PT->isPointerType() && AddressOf && !V->getType()->isArrayType() &&
                I < PointerOuts.size() && PointerOuts[I] && !Callee.Terminated) {
              AbsVal Out = *PointerOuts[I];
              auto [VB, VU] = typeOf(V->getType());
              Out.S = Out.S && VB ? makeCast(Out.S, VB, VU) : nullptr;
              St.Locals[V] = Out;
              continue;
            }
            St.Locals[V] = {Variance::Data, nullptr};
          }
      }
      return Out;
    }
  }
  return std::nullopt;
}

void ThreadDependence::noteOuts(const State &St) {
  if (Frames.size() < 2)
    return;
  Frame &F = Frames.back();
  // Which return a thread takes depends on the callee's own conditions around it.
  Variance Around = Variance::Uniform;
  for (size_t G = F.GuardBase; G < St.Guards.size(); ++G)
    Around = join(Around, St.Guards[G].Val.V);
  F.Outs.resize(F.Fn->getNumParams());
  for (unsigned I = 0; I < F.Fn->getNumParams(); ++I) {
    const ParmVarDecl *P = F.Fn->getParamDecl(I);
    QualType PT = P->getType();
    if (!PT->isReferenceType() || PT->getPointeeType().isConstQualified())
      continue;
    auto It = St.Locals.find(P);
    AbsVal V = It == St.Locals.end() ? AbsVal{Variance::Data, nullptr} : It->second;
    V.V = join(V.V, Around);
    if (Around != Variance::Uniform)
      V.LaneFn = false;
    std::optional<AbsVal> &Out = F.Outs[I];
    if (!Out) {
      Out = V;
      if (Around != Variance::Uniform)
        Out->S = nullptr, Out->T = nullptr;
      continue;
    }
    // A second return: only the variance is kept.
    Out = AbsVal{join(Out->V, V.V), nullptr};
  }
}

AbsVal ThreadDependence::evalCall(const CallExpr *C, State &St) {
  std::vector<AbsVal> Args;
  // The object of a member call (an operator's object is its first argument).
  std::optional<AbsVal> Object;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    Object = eval(MC->getImplicitObjectArgument(), St);
  for (const Expr *A : C->arguments())
    Args.push_back(eval(A, St));
  auto [Bits, Uns] = typeOf(C->getType());
  Variance All = Variance::Uniform;
  for (const AbsVal &A : Args)
    All = join(All, A.V);
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return {Variance::Data, nullptr};
  std::string Name = FD->getNameAsString();

  if (std::optional<AbsVal> Index = hipIndexCall(C, FD, Name))
    return *Index;
  if (StringRef(Name).starts_with("__nvvm_read_ptx_sreg_"))
    return specialRegister(StringRef(Name).drop_front(strlen("__nvvm_read_ptx_sreg_")));
  StringRef N(Name);
  const bool Sync = isSyncCallee(FD);
  if (Sync)
    recordSync(C, Args, St);
  if (std::optional<Variance> V = Sync ? groupCollective(C, FD, Args) : std::nullopt)
    return {*V, nullptr};
  // The read-only and cache-hint loads (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv) read
  // memory at their pointer argument, as `*p` does: uniform where the address is (issue 23:
  // FasterTransformer's `__ldg(attr_mask + (blockIdx.y * n + row))`, the whole block's).
  if (Args.size() == 1 && isCacheHintedLoad(N))
    return load(C, Args[0].V);
  // An atomic that adds, subtracts, ors or xors 0 leaves the word as it was and returns
  // it: a read of `*p`, uniform where the address is, as a plain load is (chai's BFS and
  // SSSP, `n_t_local = atomicAdd(n_t, 0)`, a count no thread changes, bounding every
  // thread's loop around the barriers).
  if (C->getNumArgs() == 2 && Args.size() == 2 &&
      (N == "atomicAdd" || N == "atomicSub" || N == "atomicOr" || N == "atomicXor" ||
       N.starts_with("atomicAdd_") || N.starts_with("atomicOr_")))
    if (const Expr *V = C->getArg(1)->IgnoreParenImpCasts();
        !V->isValueDependent() && V->getType()->isIntegerType())
      if (std::optional<llvm::APSInt> Z = V->getIntegerConstantExpr(Ctx); Z && Z->isZero())
        return load(C, Args[0].V);
  if (std::optional<AbsVal> Shfl = shuffle(N, Args))
    return shuffleLanes(N, Args, *Shfl);
  if (std::optional<AbsVal> Warp = warpIntrinsic(N, Args))
    return shuffleLanes(N, Args, *Warp);
  if (std::optional<AbsVal> Math = mathCall(C, N, Args, All, Bits, Uns))
    return *Math;
  if (std::optional<AbsVal> Rank = cooperativeGroupsCall(C, Name, Bits, Uns))
    return *Rank;
  // An accessor of a class (`tensor[i][j]`, a conversion to T&, a const getter): a
  // member function whose body, followed through its calls, computes only from its object
  // and arguments (no thread index, sync, atomic or call it cannot see). With an object and
  // arguments the same for the block (or the warp), so is what it returns, and a reference
  // it returns reads memory at such an address: faiss's `listIds[queryId][probeId]` with
  // blockIdx indices. A thread-dependent object or argument leaves it to the rules below.
  if (auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic() && !Sync) {
    Variance In = All;
    if (Object)
      In = join(In, Object->V);
    if (In <= Variance::WarpUniform && readsOnlyInputs(MD, 0))
      return {In, nullptr};
  }
  // A device function defined in this TU: evaluate its body with these arguments.
  if (!Sync)
    if (std::optional<AbsVal> Out = inlineCall(C, FD, Args, St, Bits, Uns))
      return *Out;
  if (Args.empty())
    return {Bits ? Variance::Data : Variance::Uniform, nullptr};
  for (const Expr *A : C->arguments())
    if (A->getType()->isPointerType())
      return {Variance::Data, nullptr};
  // A function of its arguments alone (a conversion such as __float_as_uint): a lane
  // function of lane functions.
  AbsVal Out{All, nullptr};
  Out.LaneFn = All >= Variance::LaneVarying &&
               llvm::all_of(Args, [&](const AbsVal &A) { return laneFunction(A); });
  return Out;
}

void orderUnknowns(const std::vector<unsigned> &Needed, const std::vector<SymVarInfo> &Vars,
                   std::vector<unsigned> &Plain, std::vector<unsigned> &Loops) {
  std::set<unsigned> Seen;
  std::function<void(unsigned)> Visit = [&](unsigned V) {
    if (V >= Vars.size() || !Seen.insert(V).second)
      return;
    const SymVarInfo &I = Vars[V];
    if (I.Kind == SymVarInfo::Loop) {
      std::vector<unsigned> Deps;
      for (const SymRef *P : {&I.Init, &I.Cond, &I.Step})
        if (*P)
          collectVars(**P, Deps);
      for (unsigned D : Deps)
        if (D != V)
          Visit(D);
      Loops.push_back(V);
    } else {
      Plain.push_back(V);
    }
  };
  for (unsigned V : Needed)
    Visit(V);
}

} // namespace warplint
