//===- DivergentBranchCheck.cpp - warplint-divergent-branch --------------===//
#include "checks/DivergentBranchCheck.h"
#include "checks/OptionParsing.h"

#include "model/Facts.h"
#include "model/TuModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace clang::ast_matchers;
using namespace ::warplint::divergence;

namespace clang::tidy::warplint {

namespace {

const Sym *skipCasts(const Sym *S) {
  while (S && S->Op == SymOp::Cast && S->A)
    S = S->A.get();
  return S;
}

/// A size known only at run time: uniform, not a constant, and not a loop variable
/// (`n`, `blockDim.x`, a value loaded at a uniform address), e.g. the row length of a 2-D
/// index recovered with `%` and `/`.
bool isRuntimeSize(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S || mentionsThreadIdx(*S) || S->Op == SymOp::Const)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && (Vars[V].Kind == SymVarInfo::Loop ||
                            Vars[V].Kind == SymVarInfo::Iteration || Vars[V].Launched))
      return false;
  return true;
}

/// A variable whose value is sampled (known only at run time): a parameter, blockIdx,
/// gridDim, a value loaded from a uniform address. Loop variables and iterations are
/// enumerated instead.
bool isSampledVar(unsigned V, const std::vector<SymVarInfo> &Vars) {
  return V < Vars.size() && Vars[V].Kind != SymVarInfo::Loop &&
         Vars[V].Kind != SymVarInfo::Iteration && !Vars[V].Launched;
}

bool mentionsSampledVar(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  if (!S)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (isSampledVar(V, Vars))
      return true;
  return false;
}

/// The counter of an enclosing uniform loop that steps by adding or subtracting (not a
/// halving or doubling stride): `for (m = 0; m < 16; m++)`.
bool isSweepingCounter(unsigned V, const std::vector<SymVarInfo> &Vars) {
  return V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop &&
         Vars[V].LoopVariance == Variance::Uniform && !Vars[V].Shrinking &&
         !Vars[V].Growing;
}

/// A thread index compared with the counter of an enclosing loop that sweeps the block:
/// the index is block-local (thread indices, constants, blockDim and loop counters: no
/// blockIdx, parameter or loaded value) and the limit is made of such counters and
/// compile-time values only (`for (m...) if (tx <= m)`, `for (i...) if (threadIdx.x > i)`).
/// As the counter advances the boundary moves across the lanes of the block and splits a
/// warp in most iterations: not a bounds guard. A global index against a counter over a
/// run-time size (`t2 <= t` with t = idx / NH % T) crosses any one block rarely, and
/// stays a guard.
bool sweepsBlock(const Sym *Index, const Sym *Limit, const std::vector<SymVarInfo> &Vars) {
  if (mentionsSampledVar(Index, Vars) || mentionsSampledVar(Limit, Vars))
    return false;
  std::vector<unsigned> Used;
  collectVars(*Limit, Used);
  for (unsigned V : Used)
    if (isSweepingCounter(V, Vars))
      return true;
  return false;
}

/// A comparison of a block-local thread index with a compile-time limit (`threadIdx.x <
/// 16`, `tid >= blockDim.x / 2`): the same split in every block. A bounds guard by form;
/// the evaluation decides whether it splits only part of the block.
bool isBlockLocalGuard(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  return S && mentionsThreadIdx(*S) && !mentionsSampledVar(S, Vars);
}

/// Non-decreasing in every thread index: sums and uniform multiples of thread indices.
/// With Vars, also a coordinate `i % n` of a 2-D decomposition by a run-time size n
/// (non-decreasing along each row) and, with Lanes, a lane index `tid % 32`
/// (non-decreasing within a warp).
bool isMonotone(const Sym *S, const std::vector<SymVarInfo> *Vars = nullptr,
                bool Lanes = false) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (!mentionsThreadIdx(*S))
    return true;
  switch (S->Op) {
  case SymOp::ThreadIdx:
    return true;
  case SymOp::Add:
    return isMonotone(S->A.get(), Vars, Lanes) && isMonotone(S->B.get(), Vars, Lanes);
  case SymOp::Mul:
    return (!mentionsThreadIdx(*S->A) && isMonotone(S->B.get(), Vars, Lanes)) ||
           (!mentionsThreadIdx(*S->B) && isMonotone(S->A.get(), Vars, Lanes));
  case SymOp::Sub:
  case SymOp::Div:
  case SymOp::Shr:
  case SymOp::Shl:
    return !mentionsThreadIdx(*S->B) && isMonotone(S->A.get(), Vars, Lanes);
  case SymOp::Rem: {
    if (!Vars || !isMonotone(S->A.get(), Vars, Lanes))
      return false;
    if (isRuntimeSize(S->B.get(), *Vars))
      return true;
    const Sym *K = skipCasts(S->B.get());
    return Lanes && K->Op == SymOp::Const && K->Value > 0 && K->Value % 32 == 0;
  }
  default:
    return false;
  }
}

/// A warp index: `tid / 32` (any multiple of 32), `tid >> 5` (5 or more) of a
/// non-decreasing thread index.
bool isWarpIndex(const Sym *T) {
  T = skipCasts(T);
  if (!T || (T->Op != SymOp::Div && T->Op != SymOp::Shr) || !T->B ||
      skipCasts(T->B.get())->Op != SymOp::Const)
    return false;
  int64_t K = skipCasts(T->B.get())->Value;
  return isMonotone(T->A.get()) &&
         ((T->Op == SymOp::Div && K > 0 && K % 32 == 0) || (T->Op == SymOp::Shr && K >= 5));
}

/// A test of the warp index: `tid / 32 == 0`, `(tid >> 5) < k` (uniform within a warp
/// when warps do not straddle rows; the evaluation decides).
bool isWarpIndexTest(const Sym *S) {
  S = skipCasts(S);
  if (!S || !S->A || !S->B)
    return false;
  if (S->Op != SymOp::Eq && S->Op != SymOp::Ne && S->Op != SymOp::Lt && S->Op != SymOp::Le &&
      S->Op != SymOp::Gt && S->Op != SymOp::Ge)
    return false;
  return !mentionsThreadIdx(*S->B) && isWarpIndex(S->A.get());
}

/// The same for every lane of a warp by its form: no thread index, or thread indices only
/// inside a warp index.
bool isWarpUniformForm(const Sym *S) {
  S = skipCasts(S);
  if (!S || !mentionsThreadIdx(*S))
    return S != nullptr;
  if (isWarpIndex(S))
    return true;
  if (S->Op == SymOp::ThreadIdx)
    return false;
  for (const SymRef *C : {&S->A, &S->B, &S->C})
    if (*C && !isWarpUniformForm(C->get()))
      return false;
  return true;
}

/// A truth value by its form: a comparison, a negation, a conjunction or disjunction.
bool isTruthValue(const Sym *S) {
  S = skipCasts(S);
  if (!S)
    return false;
  switch (S->Op) {
  case SymOp::Lt: case SymOp::Le: case SymOp::Gt: case SymOp::Ge: case SymOp::Eq:
  case SymOp::Ne: case SymOp::LNot: case SymOp::LAnd: case SymOp::LOr:
    return true;
  default:
    return false;
  }
}

/// `(row < n) & (col < m)`: a bitwise and (or) of two truth values is their conjunction
/// (disjunction), as a flag of two guards is often written.
bool isTruthAndOr(const Sym *S) {
  return S && (S->Op == SymOp::And || S->Op == SymOp::Or) && isTruthValue(S->A.get()) &&
         isTruthValue(S->B.get());
}

/// The conjuncts of a condition: the operands of `&&` (and of `&` between truth values),
/// flattened, in source order.
void conjuncts(const Sym *S, std::vector<const Sym *> &Out) {
  const Sym *T = skipCasts(S);
  if (T && (T->Op == SymOp::LAnd || (T->Op == SymOp::And && isTruthAndOr(T)))) {
    conjuncts(T->A.get(), Out);
    conjuncts(T->B.get(), Out);
    return;
  }
  Out.push_back(S);
}

/// Named idiom: a comparison of a monotone thread index with a uniform limit
/// (`i < n`, `if (i >= n) return;`), or a conjunction/disjunction of such. Against a size
/// known only at run time, a coordinate `i % n` and a lane-strided index
/// (`lane * 8 + k * 256 < C`) count as monotone too: such a guard splits warps only where
/// the size is not a multiple of the row or the stride.
bool isBoundsGuard(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (S->Op == SymOp::LNot)
    return isBoundsGuard(S->A.get(), Vars);
  // A flag set from a guard: `bool ok = i < n; ... if (ok)` (a select of two constants).
  if (S->Op == SymOp::Ne && skipCasts(S->B.get())->Op == SymOp::Const)
    return isBoundsGuard(S->A.get(), Vars);
  if (S->Op == SymOp::Select && skipCasts(S->B.get())->Op == SymOp::Const &&
      skipCasts(S->C.get())->Op == SymOp::Const)
    return isBoundsGuard(S->A.get(), Vars);
  if (S->Op == SymOp::LAnd || S->Op == SymOp::LOr || isTruthAndOr(S))
    return (isBoundsGuard(S->A.get(), Vars) || isWarpIndexTest(S->A.get()) ||
            !mentionsThreadIdx(*S->A)) &&
           (isBoundsGuard(S->B.get(), Vars) || isWarpIndexTest(S->B.get()) ||
            !mentionsThreadIdx(*S->B)) &&
           !(isWarpIndexTest(S->A.get()) && isWarpIndexTest(S->B.get()));
  if (S->Op != SymOp::Lt && S->Op != SymOp::Le && S->Op != SymOp::Gt && S->Op != SymOp::Ge)
    return false;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT == BT)
    return false;
  const Sym *Index = AT ? S->A.get() : S->B.get();
  const Sym *Limit = AT ? S->B.get() : S->A.get();
  if (sweepsBlock(Index, Limit, Vars))
    return false;
  // A lane index only against a run-time size, possibly shifted by uniform terms
  // (`C - k * 256`): `lane < 16` splits every warp whatever the launch.
  std::vector<unsigned> Used;
  collectVars(*Limit, Used);
  bool Runtime = false;
  for (unsigned V : Used)
    Runtime |= isSampledVar(V, Vars);
  return isMonotone(Index, &Vars, /*Lanes=*/Runtime);
}

/// Named idiom: one lane in each run of n threads, n a size known only at run time:
/// `(i + 1) % n == 0` picks the last element of each row (at most one lane of a warp once
/// n >= 32), the leader pattern of a 2-D index recovered from a 1-D one.
bool isRowLeaderTest(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S || (S->Op != SymOp::Eq && S->Op != SymOp::Ne))
    return false;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT == BT)
    return false;
  const Sym *Rem = skipCasts(AT ? S->A.get() : S->B.get());
  return Rem->Op == SymOp::Rem && isMonotone(Rem->A.get()) && isRuntimeSize(Rem->B.get(), Vars);
}

/// The uniform side of a bounds guard mentions a loop variable that halves.
bool isTreeReductionTail(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  if (!isBoundsGuard(S, Vars))
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop && Vars[V].Shrinking)
      return true;
  return false;
}

/// A loop whose variable starts at a thread index and steps by one element (`for (j2 =
/// j1 + 1; j2 < M; j2++)`): each lane runs its own triangle of trips, not a tail guard.
bool isPerLaneStart(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Step || !mentionsThreadIdx(*L.Init))
    return false;
  const Sym *Step = skipCasts(L.Step.get());
  if ((Step->Op != SymOp::Add && Step->Op != SymOp::Sub) || !Step->B)
    return false;
  const Sym *K = skipCasts(Step->B.get());
  return K->Op == SymOp::Const && (K->Value == 1 || K->Value == -1);
}

/// A loop whose variable starts at a thread index and steps by a uniform stride, with a
/// bounds-guard condition (grid- and block-stride loops).
bool isStrideLoop(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Step || !L.Cond || !mentionsThreadIdx(*L.Init))
    return false;
  const Sym *Step = skipCasts(L.Step.get());
  if (Step->Op != SymOp::Add || mentionsThreadIdx(*Step->B) || mentionsVar(*Step->B, B.LoopVar))
    return false;
  // A step of one element is no stride: from a thread index each lane runs its own
  // triangle (`for (j2 = j1 + 1; j2 < M; j2++)`), trip counts differing in every warp.
  if (isPerLaneStart(B, Vars))
    return false;
  // The condition in terms of the loop variable: V < limit with a limit that is uniform,
  // or the same for the lanes of a warp (a warp-stride loop over a row chosen per warp).
  const Sym *C = skipCasts(L.Cond.get());
  if (C->Op != SymOp::Lt && C->Op != SymOp::Le && C->Op != SymOp::Gt && C->Op != SymOp::Ge)
    return false;
  return isWarpUniformForm(C->A.get()) && isWarpUniformForm(C->B.get());
}

/// A loop over a uniform range whose condition also holds a bounds guard of a thread index
/// that does not involve the loop variable (`for (k = 0; k < K && i < n; k++)`): the lanes
/// past the grid's tail run no trip, the others all K. The thread-dependent part is a
/// bounds guard, not a per-lane trip count.
bool isTailGuardedLoop(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Cond || mentionsThreadIdx(*L.Init) || (L.Step && mentionsThreadIdx(*L.Step)))
    return false;
  std::vector<const Sym *> Parts;
  conjuncts(L.Cond.get(), Parts);
  bool Guard = false;
  for (const Sym *P : Parts) {
    if (!mentionsThreadIdx(*P))
      continue;
    if (mentionsVar(*P, unsigned(B.LoopVar)) || !isBoundsGuard(P, Vars))
      return false;
    Guard = true;
  }
  return Guard;
}

/// A loop whose variable starts at a uniform value and runs up to a thread-dependent bound
/// (`for (k = 0; k <= t; ++k)`): each lane has its own trip count, not a tail guard.
bool isPerLaneTripCount(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  return L.Init && !mentionsThreadIdx(*L.Init) && L.LoopVariance != Variance::Uniform &&
         !isTailGuardedLoop(B, Vars);
}

/// `tid % (2 * s) == 0` with s growing: the interleaved tree reduction.
bool isInterleavedReduction(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S || (S->Op != SymOp::Eq && S->Op != SymOp::Ne))
    return false;
  const Sym *Rem = skipCasts(S->A.get());
  if (!Rem || Rem->Op != SymOp::Rem || !mentionsThreadIdx(*Rem->A))
    return false;
  std::vector<unsigned> Used;
  collectVars(*Rem->B, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop && Vars[V].Growing)
      return true;
  return false;
}

/// Path without the enclosing conditions that depend on run-time values only (sampled
/// unknowns and no thread index): a branch nested under `if (count == blockDim.x)` is
/// analysed as if that condition may hold; a sample in which it is false says nothing
/// about the inner branch. Conditions on the thread, and on loop counters and
/// compile-time values alone, stay.
SymRef pathWithoutRuntimeConditions(const SymRef &Path, const std::vector<SymVarInfo> &Vars) {
  if (!Path)
    return Path;
  std::vector<SymRef> Kept;
  bool Dropped = false;
  std::function<void(const SymRef &)> Split = [&](const SymRef &C) {
    const Sym *T = skipCasts(C.get());
    // truth(X) is X != 0; a conjunction splits into its operands.
    if (T->Op == SymOp::Ne && T->B && skipCasts(T->B.get())->Op == SymOp::Const &&
        skipCasts(T->B.get())->Value == 0 && skipCasts(T->A.get())->Op == SymOp::LAnd) {
      Split(skipCasts(T->A.get())->A);
      Split(skipCasts(T->A.get())->B);
      return;
    }
    if (T->Op == SymOp::LAnd) {
      Split(T->A);
      Split(T->B);
      return;
    }
    if (!mentionsThreadIdx(*C) && mentionsSampledVar(C.get(), Vars)) {
      bool PerLane = false;
      std::vector<unsigned> Used;
      collectVars(*C, Used);
      for (unsigned V : Used)
        PerLane |= V < Vars.size() && (Vars[V].Kind == SymVarInfo::Iteration ||
                                       (Vars[V].Kind == SymVarInfo::Loop &&
                                        Vars[V].LoopVariance != Variance::Uniform));
      if (!PerLane) {
        Dropped = true;
        return;
      }
    }
    Kept.push_back(C);
  };
  Split(Path);
  if (!Dropped)
    return Path;
  SymRef Out;
  for (const SymRef &C : Kept) {
    SymRef T = makeBinary(SymOp::Ne, C, makeConst(0, C->Bits, C->Unsigned), 8, true);
    Out = Out ? makeBinary(SymOp::LAnd, Out, T, 8, true) : T;
  }
  return Out;
}

/// Arms short enough that nvcc may turn the branch into predicated instructions: at most
/// two plain statements (assignments, increments, declarations) in each arm, with no call,
/// loop, nested branch, barrier or return.
bool isSimpleStmt(const Stmt *S) {
  if (!S || isa<PseudoObjectExpr>(S)) // threadIdx.x and friends: a register read
    return true;
  if (isa<CallExpr, ConditionalOperator, BinaryConditionalOperator, StmtExpr, LambdaExpr>(S))
    return false;
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isLogicalOp())
      return false;
  for (const Stmt *C : S->children())
    if (!isSimpleStmt(C))
      return false;
  return true;
}

int armStatements(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return 0;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    int N = 0;
    for (const Stmt *C : CS->body()) {
      int K = armStatements(C);
      if (K < 0)
        return -1;
      N += K;
    }
    return N;
  }
  if (isa<Expr, DeclStmt>(S))
    return isSimpleStmt(S) ? 1 : -1;
  return -1;
}

bool hasShortArms(const BranchSite &B) {
  if (B.Kind == BranchSite::Conditional) {
    auto *CO = dyn_cast<ConditionalOperator>(B.Branch);
    return CO && isSimpleStmt(CO->getTrueExpr()) && isSimpleStmt(CO->getFalseExpr());
  }
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  if (!If)
    return false;
  int Then = armStatements(If->getThen()), Else = armStatements(If->getElse());
  return Then >= 0 && Else >= 0 && Then <= 2 && Else <= 2 && Then + Else > 0;
}

/// A local of the thread (a register candidate): not static, `__shared__` or a reference,
/// or, inside a callee (Depth > 0), one of its reference parameters, bound to such locals
/// at the call.
bool isThreadLocal(const Expr *E, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (auto *M = dyn_cast<MemberExpr>(E))
    return !M->isArrow() && isThreadLocal(M->getBase(), Depth);
  auto *DR = dyn_cast<DeclRefExpr>(E);
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
    return false;
  if (V->getType()->isReferenceType())
    return Depth > 0 && isa<ParmVarDecl>(V);
  return !V->getType()->isArrayType();
}

/// An element of one of the thread's own arrays (`rA[i]`, a register array indexed by an
/// unrolled counter): thread-private, in registers once unrolled, and a value no other
/// lane waits for.
bool isThreadLocalElement(const Expr *E) {
  auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return false;
  const Expr *Base = A->getBase()->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(Base))
    return isThreadLocalElement(Base);
  auto *DR = dyn_cast<DeclRefExpr>(Base);
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>() &&
         V->getType()->isArrayType();
}

/// Code that only moves values between registers: reads and writes of the thread's own
/// locals and arithmetic on them, with no memory access (subscript, dereference, `->`),
/// no barrier, atomic or other call (except to a function of the TU whose body is such
/// code, its reference parameters bound to locals: `swap(a, b)`), no loop, return or
/// jump. The compiler turns an `if` whose arms are such code into selects, as it does a
/// `?:` of two values.
bool movesRegistersOnly(const Stmt *S, unsigned Depth = 0) {
  if (!S)
    return true;
  if (isa<PseudoObjectExpr>(S)) // threadIdx and friends
    return true;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(S))
    return isThreadLocalElement(A) && movesRegistersOnly(A->getIdx(), Depth);
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, GotoStmt, BreakStmt, ContinueStmt,
          AsmStmt, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, LambdaExpr, StmtExpr, SwitchStmt>(S))
    return false;
  if (isa<ReturnStmt>(S) && Depth == 0)
    return false;
  if (auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)
      return false;
    if (U->isIncrementDecrementOp() && !isThreadLocal(U->getSubExpr(), Depth))
      return false;
  }
  if (auto *M = dyn_cast<MemberExpr>(S))
    if (M->isArrow())
      return false;
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp() && !isThreadLocal(B->getLHS(), Depth) &&
        !isThreadLocalElement(B->getLHS()))
      return false;
  if (auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D))
        if (!V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
          return false;
  if (auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    // A builtin without side effects (`__builtin_huge_valf` of INFINITY, `__builtin_fabsf`)
    // and libdevice's math (`__nv_expf`, what `expf` calls in device code) compute a value
    // in registers.
    if (F && !F->hasBody()) {
      unsigned Id = F->getBuiltinID();
      const Builtin::Context &BI = F->getASTContext().BuiltinInfo;
      bool Pure = (Id && (BI.isConst(Id) || BI.isPure(Id))) ||
                  (F->getName().starts_with("__nv_") &&
                   F->getASTContext().getSourceManager().isInSystemHeader(F->getLocation()));
      if (!Pure)
        return false;
      for (const Expr *A : C->arguments())
        if (!movesRegistersOnly(A, Depth))
          return false;
      return true;
    }
    if (!F || !F->hasBody(Def) || !Def || Depth >= 3)
      return false;
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C))
      if (OC->isAssignmentOp() && !isThreadLocal(OC->getArg(0), Depth))
        return false;
    for (unsigned I = 0; I < C->getNumArgs() && I < Def->getNumParams(); ++I)
      if (Def->getParamDecl(I)->getType()->isReferenceType() &&
          !Def->getParamDecl(I)->getType().getNonReferenceType().isConstQualified() &&
          !isThreadLocal(C->getArg(I), Depth))
        return false;
    if (isa<CXXMemberCallExpr>(C))
      return false; // a method may write its object's memory
    if (!movesRegistersOnly(Def->getBody(), Depth + 1))
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!movesRegistersOnly(Child, Depth))
      return false;
  return true;
}

/// An `if` (not an early exit) or a `?:` whose arms only move registers.
bool hasRegisterArms(const BranchSite &B) {
  if (B.Kind == BranchSite::Conditional)
    if (auto *C = dyn_cast_or_null<ConditionalOperator>(B.Branch))
      return movesRegistersOnly(C->getTrueExpr()) && movesRegistersOnly(C->getFalseExpr());
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  return If && !If->getConditionVariable() && movesRegistersOnly(If->getThen()) &&
         movesRegistersOnly(If->getElse());
}

/// E with the variables of Values replaced by their constants (shared nodes stay shared
/// through Memo, so a node found by identity in one tree is found in the other).
SymRef substituteVars(const SymRef &E, const std::map<unsigned, int64_t> &Values,
                      std::map<const Sym *, SymRef> &Memo) {
  if (!E || Values.empty())
    return E;
  auto It = Memo.find(E.get());
  if (It != Memo.end())
    return It->second;
  SymRef Out = E;
  if (E->Op == SymOp::Var) {
    auto V = Values.find(unsigned(E->Value));
    if (V != Values.end())
      Out = makeConst(V->second, E->Bits, E->Unsigned);
  } else {
    SymRef A = substituteVars(E->A, Values, Memo), B = substituteVars(E->B, Values, Memo),
           C = substituteVars(E->C, Values, Memo);
    if (A != E->A || B != E->B || C != E->C) {
      auto N = std::make_shared<Sym>(*E);
      N->A = A;
      N->B = B;
      N->C = C;
      Out = N;
    }
  }
  Memo[E.get()] = Out;
  return Out;
}

struct Tally {
  bool Evaluated = false;
  uint64_t Divergent = 0, Total = 0;
  unsigned MaxMinority = 0;
  unsigned MaxMinorityPerRow = 0;
  bool Varies = false; ///< the count depends on sampled unknowns
  /// In some sample, every warp (warp execution) that reaches the branch splits.
  bool EveryWarpSplits = false;
  unsigned LoopValues = 1;
  std::string LoopName;
  std::vector<int64_t> TrueLanesPerEnv;
  /// Most warps that diverge in one environment (one block, one set of values).
  unsigned MaxDivergentPerEnv = 0;
  /// A loop with per-lane trip counts: its condition's evaluations by the warps (the
  /// worst sample's), of which divergent; the efficiency is then over the loop's trips.
  bool Trips = false;
  uint64_t CondEvals = 0, DivergentCondEvals = 0;
  /// The predicted branch efficiency over the samples of the run-time values: the worst
  /// and the best (equal when no run-time value changes it), and those values' names.
  double WorstEfficiency = 1, BestEfficiency = 0;
  std::vector<std::string> Sampled;
};

/// Values of kernel parameters (environment variables) that every launch of the kernel in
/// the TU passes as compile-time constants: the distinct values passed.
using PassedValues = std::map<unsigned, std::vector<int64_t>>;

/// Environments (a block each, evaluated lane by lane) one branch may cost per shape.
constexpr size_t EnvBudget = 1024;

/// Builds the environments in which to evaluate: sampled values of uniform unknowns
/// (groups), and within each group every value of the uniform loop variables.
std::vector<std::vector<Env>> buildEnvs(const std::vector<unsigned> &Needed,
                                        const std::vector<SymVarInfo> &Vars, bool &Ok,
                                        std::string &LoopName, unsigned &LoopValues,
                                        const BlockShape &Shape, const PassedValues &Known,
                                        std::vector<std::string> &Sampled) {
  Ok = true;
  std::vector<unsigned> Plain, Loops;
  orderUnknowns(Needed, Vars, Plain, Loops);
  auto Samples = [&](unsigned V, bool Few) -> std::vector<int64_t> {
    // Real values before sampled ones: what the launches pass.
    auto K = Known.find(V);
    if (K != Known.end())
      return K->second;
    const SymVarInfo &I = Vars[V];
    switch (I.Kind) {
    case SymVarInfo::BlockIdx:
      return Few ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0, 1, 2, 5};
    case SymVarInfo::GridDim:
      return Few ? std::vector<int64_t>{2} : std::vector<int64_t>{1, 2, 8};
    case SymVarInfo::Iteration:
      return Few ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0, 1, 2, 3};
    default:
      return Few ? std::vector<int64_t>{3, 32} : std::vector<int64_t>{1, 2, 3, 16, 32, 33, 100, 1000, 100003};
    }
  };
  // Products saturate: forty unknowns with nine samples each do not fit in 64 bits.
  constexpr size_t Cap = size_t(1) << 40;
  auto productOf = [&](bool Few) {
    size_t P = 1;
    for (unsigned V : Plain)
      P = std::min(Cap, P * Samples(V, Few).size());
    return P;
  };
  bool Few = productOf(false) > 256;
  size_t Size = Vars.size();
  Env First;
  First.Vars.resize(Size);
  First.BlockDim[0] = Shape.X;
  First.BlockDim[1] = Shape.Y;
  First.BlockDim[2] = Shape.Z;
  // Many unknowns multiply into many groups (ten kernel parameters with two samples each
  // are 1024): at most MaxGroups of them, evenly spaced over the combinations (the first
  // and the last included), each decoded from its index digit by digit. The finding is a
  // sampled worst case either way.
  constexpr size_t MaxGroups = 64;
  size_t Total = productOf(Few);
  size_t Count = std::min(Total, MaxGroups);
  std::vector<std::vector<int64_t>> Choices;
  Sampled.clear();
  for (unsigned V : Plain) {
    Choices.push_back(Samples(V, Few));
    if (Choices.back().size() > 1 && Vars[V].Kind != SymVarInfo::Iteration)
      Sampled.push_back(Vars[V].Name);
  }
  // Groups are visited in bit-reversed order of their index (0, 32, 16, 48, ...), so that
  // when the budget below stops early the groups seen are spread over the samples.
  unsigned Bits = 0;
  while ((size_t(1) << Bits) < Count)
    ++Bits;
  std::vector<Env> Groups;
  for (size_t I = 0; I < (size_t(1) << Bits); ++I) {
    size_t G = 0;
    for (unsigned B = 0; B < Bits; ++B)
      if (I & (size_t(1) << B))
        G |= size_t(1) << (Bits - 1 - B);
    if (G >= Count)
      continue;
    size_t Index = Count == 1 ? 0 : size_t((unsigned __int128)G * (Total - 1) / (Count - 1));
    Env E = First;
    for (size_t K = 0; K < Plain.size(); ++K) {
      const std::vector<int64_t> &C = Choices[K];
      if (Total < Cap) {
        E.Vars[Plain[K]] = C[Index % C.size()];
        Index /= C.size();
      } else {
        // Too many combinations to index: a fixed pseudo-random choice per group and
        // unknown (the same on every run).
        uint64_t H = (uint64_t(G) + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t(K) + 1) * 0xC2B2AE3D27D4EB4Full;
        H ^= H >> 29;
        E.Vars[Plain[K]] = C[H % C.size()];
      }
    }
    Groups.push_back(std::move(E));
  }
  // At most EnvBudget environments (each a whole block, evaluated lane by lane) per branch
  // and shape: a group whose loops alone exceed it is left out, and groups stop once the
  // budget is spent (at least one is kept).
  std::vector<std::vector<Env>> Out;
  size_t Spent = 0;
  for (const Env &G : Groups) {
    std::vector<Env> Envs{G};
    bool TooMany = false;
    for (unsigned V : Loops) {
      std::vector<Env> Next;
      for (const Env &E : Envs) {
        const SymVarInfo &I = Vars[V];
        if (!I.Init || !I.Cond || !I.Step) {
          Ok = false;
          return {};
        }
        auto Values = enumerateLoop(*I.Init, *I.Cond, *I.Step, V, E);
        if (!Values) {
          // Not countable in this sample (over 256 values, or not evaluable): the sample
          // is left out, the others still count.
          TooMany = true;
          break;
        }
        if (LoopName.empty()) {
          LoopName = I.Name;
          LoopValues = unsigned(Values->size());
        }
        for (int64_t Value : *Values) {
          Env C = E;
          C.Vars[V] = Value;
          Next.push_back(std::move(C));
        }
        if (Next.size() > EnvBudget) {
          TooMany = true;
          break;
        }
      }
      if (TooMany)
        break;
      Envs = std::move(Next);
    }
    // A sample in which the loops run zero times has nothing to evaluate.
    if (TooMany || Envs.empty())
      continue;
    if (Spent + Envs.size() > EnvBudget && !Out.empty())
      break;
    Spent += Envs.size();
    Out.push_back(std::move(Envs));
  }
  if (Out.empty()) {
    Ok = false;
    return {};
  }
  return Out;
}

/// The environments built for one branch and block shape, kept for a second condition
/// over the same unknowns (the remapping note), and the splitter that evaluated the first
/// (it knows which lanes reach the branch in each environment).
struct EnvSet {
  bool Built = false;
  std::vector<unsigned> Needed;
  bool Ok = false;
  std::vector<std::vector<Env>> Groups;
  std::string LoopName;
  unsigned LoopValues = 1;
  std::vector<std::string> Sampled;
  std::unique_ptr<WarpSplitter> Splitter;
};

/// Evaluates a branch for one block shape; Cache (when given) holds the environments of
/// an earlier call for the same branch and shape, or gets this call's.
Tally evaluateBranch(const BranchSite &B, const std::vector<SymVarInfo> &Vars,
                     const BlockShape &Shape, unsigned WaveSize, const PassedValues &Known,
                     const SymRef &CondOverride = nullptr, EnvSet *Cache = nullptr) {
  Tally T;
  const SymVarInfo *Loop = nullptr;
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 && !CondOverride) {
    const SymVarInfo &L = Vars[B.LoopVar];
    if (L.LoopVariance != Variance::Uniform && L.Init && L.Cond && L.Step)
      Loop = &L;
  }
  SymRef Cond = CondOverride ? CondOverride : B.CondVal.S;
  if (!Loop && !Cond)
    return T;
  std::vector<unsigned> Needed;
  if (Loop) {
    for (const SymRef *P : {&Loop->Init, &Loop->Cond, &Loop->Step})
      collectVars(**P, Needed);
    Needed.erase(std::remove(Needed.begin(), Needed.end(), unsigned(B.LoopVar)), Needed.end());
  } else {
    collectVars(*Cond, Needed);
  }
  if (B.Path)
    collectVars(*B.Path, Needed);
  EnvSet Local;
  EnvSet &Envs = Cache ? *Cache : Local;
  if (!Envs.Built || Envs.Needed != Needed) {
    Envs.Built = true;
    Envs.Needed = Needed;
    Envs.LoopName.clear();
    Envs.LoopValues = 1;
    Envs.Groups = buildEnvs(Needed, Vars, Envs.Ok, Envs.LoopName, Envs.LoopValues, Shape,
                            Known, Envs.Sampled);
  }
  T.Sampled = Envs.Sampled;
  T.LoopName = Envs.LoopName;
  T.LoopValues = Envs.LoopValues;
  if (!Envs.Ok)
    return T;
  const std::vector<std::vector<Env>> &Groups = Envs.Groups;
  // The condition is flattened once for all the environments.
  std::optional<LoopSplitter> LoopSplit;
  WarpSplitter *CondSplit = nullptr;
  if (Loop) {
    LoopSplit.emplace(*Loop->Init, *Loop->Cond, *Loop->Step, unsigned(B.LoopVar), 4096,
                      B.Path.get());
  } else if (Envs.Splitter) {
    Envs.Splitter->setCondition(*Cond);
    CondSplit = Envs.Splitter.get();
  } else {
    Envs.Splitter =
        std::make_unique<WarpSplitter>(*Cond, B.Kind == BranchSite::Switch, B.Path.get());
    CondSplit = Envs.Splitter.get();
  }
  double WorstRatio = -1;
  std::set<uint64_t> Counts;
  for (const auto &Group : Groups) {
    uint64_t D = 0, N = 0, Evals = 0, DivEvals = 0;
    unsigned Minority = 0, MinorityPerRow = 0, MostPerEnv = 0;
    bool GroupOk = true;
    for (const Env &E : Group) {
      // Lanes per wavefront: 64 on AMD GCN/CDNA, counted as that many 32-lane groups.
      WarpSplit S =
          (Loop ? LoopSplit->split(Shape, E) : CondSplit->split(Shape, E)).asWaves(WaveSize);
      if (!S.Evaluated) {
        GroupOk = false;
        break;
      }
      D += S.DivergentWarps;
      N += S.Warps;
      Evals += S.CondEvals;
      DivEvals += S.DivergentCondEvals;
      MostPerEnv = std::max(MostPerEnv, S.DivergentWarps);
      Minority = std::max(Minority, S.MaxMinorityLanes);
      MinorityPerRow = std::max(MinorityPerRow, S.MaxMinorityLanesPerRow);
      T.TrueLanesPerEnv.push_back(S.TrueLanes);
    }
    if (!GroupOk || N == 0)
      continue;
    T.Evaluated = true;
    T.EveryWarpSplits |= D == N;
    Counts.insert(D);
    T.MaxMinority = std::max(T.MaxMinority, Minority);
    T.MaxMinorityPerRow = std::max(T.MaxMinorityPerRow, MinorityPerRow);
    T.MaxDivergentPerEnv = std::max(T.MaxDivergentPerEnv, MostPerEnv);
    double Ratio = double(D) / double(N);
    // A loop with per-lane trip counts diverges at the trips where lanes leave: its
    // efficiency is over every evaluation of its condition, not per warp.
    double Efficiency = Loop && Evals ? 1.0 - double(DivEvals) / double(Evals) : 1.0 - Ratio;
    T.WorstEfficiency = std::min(T.WorstEfficiency, Efficiency);
    T.BestEfficiency = std::max(T.BestEfficiency, Efficiency);
    // The sample with the most divergent warps, then the most warps reaching the branch.
    if (D > T.Divergent || (D == T.Divergent && N > T.Total) || WorstRatio < 0) {
      WorstRatio = Ratio;
      T.Divergent = D;
      T.Total = N;
      T.LoopValues = unsigned(Group.size());
      T.Trips = Loop && Evals;
      T.CondEvals = Evals;
      T.DivergentCondEvals = DivEvals;
    }
  }
  T.Varies = Counts.size() > 1;
  return T;
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

/// Adds to Dims (bit D for threadIdx.D) the threadIdx dimensions S reads, directly or
/// through the start, condition and step of the loop variables it reads.
void collectTidDims(const Sym *S, const std::vector<SymVarInfo> &Vars, unsigned &Dims,
                    std::vector<bool> &SeenVars) {
  if (!S)
    return;
  if (S->Op == SymOp::ThreadIdx && S->Value >= 0 && S->Value < 3)
    Dims |= 1u << S->Value;
  if (S->Op == SymOp::Var && S->Value >= 0 && size_t(S->Value) < Vars.size() &&
      !SeenVars[S->Value]) {
    SeenVars[S->Value] = true;
    const SymVarInfo &V = Vars[S->Value];
    for (const SymRef &Part : {V.Init, V.Cond, V.Step})
      collectTidDims(Part.get(), Vars, Dims, SeenVars);
  }
  for (const SymRef &Child : {S->A, S->B, S->C})
    collectTidDims(Child.get(), Vars, Dims, SeenVars);
}

/// How the runs of RunThreads consecutive threads (a row of blockDim.x threads, or a plane
/// of blockDim.x * blockDim.y) fall on the warps of a block of Threads threads.
struct RunsPerWarp {
  unsigned Most = 0; ///< most runs that one warp holds part of
  bool Same = true;  ///< every warp holds part of the same number of runs
};

RunsPerWarp runsPerWarp(unsigned RunThreads, unsigned Threads, unsigned WaveSize) {
  RunsPerWarp R;
  unsigned Least = ~0u;
  for (unsigned First = 0; First < Threads && RunThreads > 0; First += WaveSize) {
    unsigned Last = std::min(First + WaveSize - 1, Threads - 1);
    unsigned Runs = Last / RunThreads - First / RunThreads + 1;
    R.Most = std::max(R.Most, Runs);
    Least = std::min(Least, Runs);
  }
  R.Same = R.Most == Least;
  return R;
}

} // namespace

bool DivergentBranchCheck::readFlag(StringRef Key) {
  return readBoolOption(
      Key, false, getID(), [&](StringRef K, StringRef D) { return Options.get(K, D); },
      [&](StringRef M) { return configurationDiag(M); });
}

DivergentBranchCheck::DivergentBranchCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Model(ModelOptions::read(Context->getOptions().CheckOptions)),
      Ignored(Options.get("IgnoredKernels", "")),
      ReportBoundsGuards(readFlag("ReportBoundsGuards")),
      ReportLeaderPatterns(readFlag("ReportLeaderPatterns")),
      ReportTreeReductionTails(readFlag("ReportTreeReductionTails")),
      ReportDataDependent(readFlag("ReportDataDependent")),
      ReportGridStrideLoops(readFlag("ReportGridStrideLoops")),
      AssumedBlockSize(Options.get("AssumedBlockSize", 256U)) {
  if (AssumedBlockSize == 0 || AssumedBlockSize % 32 != 0 || AssumedBlockSize > 1024) {
    configurationDiag("invalid AssumedBlockSize %0: must be a multiple of 32 from 32 to 1024; "
                      "using 256")
        << AssumedBlockSize;
    AssumedBlockSize = 256;
  }
}

void DivergentBranchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, "ReportBoundsGuards", ReportBoundsGuards ? "true" : "false");
  Options.store(Opts, "ReportLeaderPatterns", ReportLeaderPatterns ? "true" : "false");
  Options.store(Opts, "ReportTreeReductionTails", ReportTreeReductionTails ? "true" : "false");
  Options.store(Opts, "ReportDataDependent", ReportDataDependent ? "true" : "false");
  Options.store(Opts, "ReportGridStrideLoops", ReportGridStrideLoops ? "true" : "false");
  Options.store(Opts, "AssumedBlockSize", AssumedBlockSize);
}

void DivergentBranchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                     this);
}

void DivergentBranchCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
    if (!K->isDependentContext() && K->hasBody() && !Ignored.ignores(functionName(K)))
      Kernels.push_back(K);
}

void DivergentBranchCheck::onEndOfTranslationUnit() {
  if (Ctx && !Kernels.empty()) {
    // The block shapes of the launches in this TU whose block is a compile-time fact.
    const TUFacts &Facts = TuModel::of(*Ctx, nullptr, Model).facts();
    WaveSize = Facts.WaveSize ? Facts.WaveSize : 32;
    Amd = StringRef(Facts.Arch).starts_with("gfx");
    for (const LaunchSite &L : Facts.Launches) {
      if (!L.Kernel)
        continue;
      Launch Site{L.Kernel->getCanonicalDecl(), L.Loc, BlockShape{}};
      Site.BlockKnown = false;
      Site.Call = L.Call;
      Site.Enclosing = L.Enclosing;
      Site.Grid = L.Grid.Dims;
      if (L.Block.known()) {
        std::optional<BlockShape> Block = launchableBlock(L);
        if (!Block)
          continue; // cannot launch: warplint-launch-config-invalid reports it
        Site.Block = *Block;
        Site.BlockKnown = true;
      }
      Launches.push_back(Site);
    }
    for (const FunctionDecl *K : Kernels)
      analyzeKernel(K, *Ctx);
    emitFindings(Ctx->getSourceManager());
  }
  Kernels.clear();
  Launches.clear();
  CallsOf.reset();
  LaunchesOf.clear();
  Dependence.reset();
}

namespace {


std::string plural(const std::string &What) {
  if (What == "branch on")
    return "branches on";
  if (What == "switch on")
    return "switches on";
  if (What == "'?:' on")
    return "'?:' operators on";
  if (What == "loop condition on")
    return "loop conditions on";
  return "short-circuit operands on";
}

std::string percent(double Fraction) {
  return std::to_string(unsigned(std::lround(100.0 * Fraction))) + "%";
}

/// The block shapes at least a warp wide in x that a kernel launched from elsewhere may
/// have: 1-D blocks of 1 to 32 warps and 2-D blocks of 2 to 8 rows.
std::vector<BlockShape> assumedAlternatives(unsigned WaveSize) {
  std::vector<BlockShape> Out;
  for (unsigned X : {32u, 64u, 96u, 128u, 256u, 512u, 1024u})
    for (unsigned Y : {1u, 2u, 4u, 8u})
      if (X >= WaveSize && X * Y <= 1024)
        Out.push_back(BlockShape{X, Y, 1});
  return Out;
}

/// `blockIdx.d == constant` among the conjuncts: the dimensions pinned to one block.
unsigned pinnedBlockDims(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  std::vector<const Sym *> Parts;
  conjuncts(S, Parts);
  unsigned Dims = 0;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (P && P->Op == SymOp::Ne && skipCasts(P->B.get())->Op == SymOp::Const &&
        skipCasts(P->B.get())->Value == 0) {
      // A path condition `c != 0` (the form in which enclosing conditions are kept).
      Dims |= pinnedBlockDims(P->A.get(), Vars);
      continue;
    }
    if (!P || P->Op != SymOp::Eq)
      continue;
    const Sym *A = skipCasts(P->A.get()), *B = skipCasts(P->B.get());
    if (A->Op == SymOp::Const)
      std::swap(A, B);
    if (A->Op != SymOp::Var || B->Op != SymOp::Const || A->Value < 0 ||
        size_t(A->Value) >= Vars.size() || Vars[A->Value].Kind != SymVarInfo::BlockIdx)
      continue;
    const std::string &N = Vars[A->Value].Name; // blockIdx.x
    Dims |= 1u << (N.back() == 'x' ? 0 : N.back() == 'y' ? 1 : 2);
  }
  return Dims;
}

/// `x == v` (or `!=`) with x thread-dependent and v a uniform value that is not a
/// compile-time constant (a pivot, a loop counter, a parameter): picks the lanes whose x
/// is v, a leader test when those lanes lie in one warp.
bool isUniformPick(const Sym *S) {
  S = skipCasts(S);
  if (!S || (S->Op != SymOp::Eq && S->Op != SymOp::Ne))
    return false;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT == BT)
    return false;
  std::vector<unsigned> Used;
  collectVars(AT ? *S->B : *S->A, Used);
  return !Used.empty();
}

} // namespace

/// What is reported at one place, before places with the same root cause are grouped.
struct DivergentBranchCheck::Finding {
  SourceLocation Loc;
  SourceRange Range;
  DiagnosticIDs::Level Level = DiagnosticIDs::Warning;
  std::string What, Term, Kernel;
  std::string Figures; ///< from "diverges in" to the efficiency: the same for a group
  std::string Key;     ///< kernel, condition as written (no white space), figures, level
  std::vector<std::pair<SourceLocation, std::string>> Notes;
  double SplitShare = 0; ///< 1 - the worst predicted branch efficiency (the impact)
};

namespace {
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  explicit CallCollector(
      llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Out)
      : Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      Out[F->getCanonicalDecl()].push_back(C);
    return true;
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Out;
};
} // namespace

/// Whether the body S writes the variable D (assigns it, increments it, takes its address).
bool writesVar(const Stmt *S, const ValueDecl *D) {
  if (!S)
    return false;
  auto IsD = [&](const Expr *E) {
    auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == D;
  };
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp() && IsD(B->getLHS()))
      return true;
  if (auto *U = dyn_cast<UnaryOperator>(S))
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && IsD(U->getSubExpr()))
      return true;
  if (auto *C = dyn_cast<CallExpr>(S)) // passed by non-const reference
    if (const FunctionDecl *F = C->getDirectCallee())
      for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I)
        if (F->getParamDecl(I)->getType()->isReferenceType() &&
            !F->getParamDecl(I)->getType().getNonReferenceType().isConstQualified() &&
            IsD(C->getArg(I)))
          return true;
  for (const Stmt *Child : S->children())
    if (writesVar(Child, D))
      return true;
  return false;
}

/// E's value when it is a compile-time fact in function Fn: an integer constant expression
/// (negative ones included), a local of Fn initialised with one and never written after,
/// or what the launch-facts evaluator finds (fields of a dim3, sizes).
std::optional<int64_t> constantIn(const Expr *E, const FunctionDecl *Fn, ASTContext &Ctx,
                                  unsigned Depth = 0) {
  if (!E || E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt() && R.Val.getInt().getSignificantBits() <= 64)
    return R.Val.getInt().getSExtValue();
  if (auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (Fn && Depth < 4 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
          !V->getType()->isReferenceType() && V->getDeclContext() == Fn &&
          !writesVar(Fn->getBody(), V))
        return constantIn(V->getInit(), Fn, Ctx, Depth + 1);
  if (std::optional<uint64_t> V = evaluateInt(E, Ctx))
    return int64_t(*V);
  return std::nullopt;
}

std::vector<int64_t> DivergentBranchCheck::argumentValues(const Expr *Arg,
                                                          const FunctionDecl *Enclosing,
                                                          ASTContext &Ctx) {
  if (!Arg || Arg->isValueDependent())
    return {};
  if (std::optional<int64_t> V = constantIn(Arg, Enclosing, Ctx))
    return {*V};
  // A parameter of the launching function (a launch helper's `W`): what its callers pass,
  // unless the helper writes it.
  const auto *DR = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (!P || !Enclosing || P->getDeclContext() != Enclosing || Enclosing->isDependentContext() ||
      P->getType()->isReferenceType() || writesVar(Enclosing->getBody(), P))
    return {};
  if (!CallsOf) {
    CallsOf.emplace();
    CallCollector(*CallsOf).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  auto It = CallsOf->find(Enclosing->getCanonicalDecl());
  if (It == CallsOf->end() || It->second.empty())
    return {};
  std::set<int64_t> Values;
  unsigned Index = P->getFunctionScopeIndex();
  for (const CallExpr *C : It->second) {
    if (isa<CXXMemberCallExpr>(C) || Index >= C->getNumArgs())
      return {};
    const FunctionDecl *Caller = nullptr;
    for (DynTypedNodeList Ps = Ctx.getParents(*C); !Ps.empty() && !Caller;) {
      Caller = Ps[0].get<FunctionDecl>();
      if (!Caller)
        Ps = Ctx.getParents(Ps[0]);
    }
    std::optional<int64_t> V = constantIn(C->getArg(Index), Caller, Ctx);
    if (!V)
      return {};
    Values.insert(*V);
  }
  return {Values.begin(), Values.end()};
}

void DivergentBranchCheck::analyzeKernel(const FunctionDecl *Kernel, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (LaunchesOf.empty())
    for (const Launch &L : Launches)
      LaunchesOf[L.Kernel].push_back(&L);
  std::vector<const Launch *> Shapes, AllOfKernel;
  auto Known = LaunchesOf.find(Kernel->getCanonicalDecl());
  if (Known != LaunchesOf.end())
    for (const Launch *L : Known->second) {
      AllOfKernel.push_back(L);
      if (L->BlockKnown)
        Shapes.push_back(L);
    }
  bool Assumed = Shapes.empty();
  Launch AssumedLaunch{Kernel, SourceLocation(), BlockShape{AssumedBlockSize, 1, 1}};
  if (Assumed)
    Shapes.push_back(&AssumedLaunch);
  // Each block shape is evaluated once, however many launches share it.
  std::vector<BlockShape> Distinct;
  std::vector<size_t> ShapeOf;
  for (const Launch *L : Shapes) {
    size_t K = 0;
    while (K < Distinct.size() &&
           !(Distinct[K].X == L->Block.X && Distinct[K].Y == L->Block.Y &&
             Distinct[K].Z == L->Block.Z))
      ++K;
    if (K == Distinct.size())
      Distinct.push_back(L->Block);
    ShapeOf.push_back(K);
  }
  // The whole grid is one warp: every launch in the TU is of one block of at most one
  // warp (a `<<<1, 32>>>` one-shot).
  // A launch inside a loop runs again and again (Rodinia lud's `lud_diagonal<<<1, 16>>>`
  // per step of the factorisation): its split is paid each time, on the critical path.
  auto InLoop = [&](const Expr *Call) {
    DynTypedNodeList Parents = Ctx.getParents(*Call);
    for (unsigned Depth = 0; Depth < 64 && !Parents.empty(); ++Depth) {
      const DynTypedNode &P = Parents[0];
      if (P.get<ForStmt>() || P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
        return true;
      if (P.get<FunctionDecl>())
        return false;
      Parents = Ctx.getParents(P);
    }
    return false;
  };
  bool OneWarpGrid = !Assumed && !AllOfKernel.empty();
  for (const Launch *L : AllOfKernel)
    OneWarpGrid &= L->BlockKnown && L->Grid &&
                   (*L->Grid)[0] * (*L->Grid)[1] * (*L->Grid)[2] == 1 &&
                   L->Block.threads() <= WaveSize && L->Call && !InLoop(L->Call);
  // Grid dimensions that may hold more than one block.
  unsigned WideGridDims = 7;
  if (!AllOfKernel.empty()) {
    WideGridDims = 0;
    for (const Launch *L : AllOfKernel)
      for (unsigned D = 0; D < 3; ++D)
        if (!L->Grid || (*L->Grid)[D] > 1)
          WideGridDims |= 1u << D;
  }

  // One analysis object for the TU: what it keeps of the AST serves every kernel.
  if (!Dependence)
    Dependence.emplace(Ctx);
  ThreadDependence &TD = *Dependence;
  TD.analyze(Kernel);

  // Real values before sampled ones: a parameter that every launch of the kernel in this
  // TU passes as a compile-time constant takes those values; one value replaces the
  // parameter in every expression (so the idioms see a constant, not a run-time size).
  PassedValues Passed;
  std::map<unsigned, int64_t> Fixed;
  std::vector<SymVarInfo> KernelVars = TD.vars();
  std::vector<SymVarInfo> &Vars = KernelVars;
  if (!AllOfKernel.empty()) {
    for (unsigned V = 0; V < Vars.size(); ++V) {
      if (Vars[V].Kind != SymVarInfo::Param || Vars[V].ParamIndex < 0)
        continue;
      std::set<int64_t> Values;
      bool All = true;
      for (const Launch *L : AllOfKernel) {
        const auto *Call = dyn_cast_or_null<CUDAKernelCallExpr>(L->Call);
        std::vector<int64_t> Got;
        if (Call && unsigned(Vars[V].ParamIndex) < Call->getNumArgs())
          Got = argumentValues(Call->getArg(Vars[V].ParamIndex), L->Enclosing, Ctx);
        if (Got.empty()) {
          All = false;
          break;
        }
        // The value as the parameter's type holds it (`int minDisp = -16` evaluates to
        // the 64-bit pattern of the conversion).
        QualType T = unsigned(Vars[V].ParamIndex) < Kernel->getNumParams()
                         ? Kernel->getParamDecl(Vars[V].ParamIndex)->getType()
                         : QualType();
        unsigned Bits = !T.isNull() && T->isIntegralOrEnumerationType()
                            ? unsigned(Ctx.getTypeSize(T))
                            : 64;
        bool Unsigned = !T.isNull() && T->isUnsignedIntegerOrEnumerationType();
        for (int64_t X : Got) {
          if (Bits < 64) {
            uint64_t Mask = (uint64_t(1) << Bits) - 1, U = uint64_t(X) & Mask;
            if (!Unsigned && (U >> (Bits - 1)) & 1)
              U |= ~Mask;
            X = int64_t(U);
          }
          Values.insert(X);
        }
      }
      if (!All || Values.empty())
        continue;
      Passed[V].assign(Values.begin(), Values.end());
      Vars[V].Launched = true;
      if (Values.size() == 1)
        Fixed[V] = *Values.begin();
    }
    std::map<const Sym *, SymRef> Memo;
    for (SymVarInfo &I : Vars) {
      I.Init = substituteVars(I.Init, Fixed, Memo);
      I.Cond = substituteVars(I.Cond, Fixed, Memo);
      I.Step = substituteVars(I.Step, Fixed, Memo);
    }
  }
  std::set<SourceLocation> Reported;
  std::string KernelName = Kernel->getNameAsString();
  const std::vector<BlockShape> Alternatives = assumedAlternatives(WaveSize);

  // Analyses one branch with the given environment variables and launch values; sets
  // Unevaluable when no block shape could be evaluated.
  bool Unevaluable = false;
  auto Analyze = [&](const BranchSite &Found, const std::vector<SymVarInfo> &Vars,
                     const std::map<unsigned, int64_t> &Fixed,
                     const PassedValues &Passed) -> std::optional<Finding> {
    BranchSite B = Found;
    if (!Fixed.empty()) {
      std::map<const Sym *, SymRef> Memo;
      B.CondVal.S = substituteVars(B.CondVal.S, Fixed, Memo);
      B.TermSym = substituteVars(B.TermSym, Fixed, Memo);
      B.Path = substituteVars(B.Path, Fixed, Memo);
    }
    B.Path = pathWithoutRuntimeConditions(B.Path, Vars);
    // A condition written with a macro (`if (IN_RANGE(x, 0, n))`) is reported where the
    // macro is used; a branch produced entirely by a macro is not reported.
    if (B.Branch->getBeginLoc().isMacroID())
      return std::nullopt;
    SourceLocation Loc = SM.getExpansionLoc(B.Cond->getBeginLoc());
    if (Loc.isInvalid() || Reported.count(Loc))
      return std::nullopt;
    // Named idioms, each with its option.
    if (B.CondVal.V == Variance::Data && !(B.Kind == BranchSite::Loop && B.LoopVar >= 0 &&
                                            Vars[B.LoopVar].LoopVariance != Variance::Data &&
                                            Vars[B.LoopVar].Cond)) {
      if (ReportDataDependent) {
        Reported.insert(Loc);
        diag(Loc, "branch in kernel '%0' depends on data loaded at a thread-dependent "
                  "address; it diverges where the data differs between lanes")
            << KernelName << B.Cond->getSourceRange();
      }
      return std::nullopt;
    }
    const Sym *CondS = B.CondVal.S.get();
    if (isStrideLoop(B, Vars) && !ReportGridStrideLoops)
      return std::nullopt;
    // A bounds guard of a block-local index against a compile-time limit splits the same
    // warps in every block: silent only where it leaves some warp of the block whole. So is
    // a loop from a thread index stepping by one: each lane runs its own triangle of trips,
    // reported where every warp that runs it splits; a remainder of a few elements taken
    // by the first lanes (`for (i = threadIdx.x + start; i < V; i++)`) is a tail.
    bool GuardIfPartial = isPerLaneStart(B, Vars) && !ReportGridStrideLoops;
    if (CondS && isTreeReductionTail(CondS, Vars)) {
      if (!ReportTreeReductionTails)
        return std::nullopt;
    } else if (CondS && isBoundsGuard(CondS, Vars) && !isStrideLoop(B, Vars) &&
               !isPerLaneTripCount(B, Vars) && !isPerLaneStart(B, Vars)) {
      if (!ReportBoundsGuards) {
        if (!isBlockLocalGuard(CondS, Vars))
          return std::nullopt;
        GuardIfPartial = true;
      }
    }
    // A bounds guard joined by `&&` to a stronger term (`ixj > i && i < n`) only takes
    // the grid's tail away: the figure is that of the other terms, and the term named is
    // theirs.
    SymRef Stronger;
    const Expr *StrongerExpr = nullptr;
    if (CondS && B.Kind == BranchSite::If && !ReportBoundsGuards) {
      std::vector<const Sym *> Parts;
      conjuncts(CondS, Parts);
      std::vector<const Expr *> Written;
      std::function<void(const Expr *)> Split = [&](const Expr *E) {
        E = E->IgnoreParenImpCasts();
        if (auto *BO = dyn_cast<BinaryOperator>(E))
          if (BO->getOpcode() == BO_LAnd) {
            Split(BO->getLHS());
            Split(BO->getRHS());
            return;
          }
        Written.push_back(E);
      };
      Split(B.Cond);
      bool Guard = false;
      std::vector<size_t> Others;
      for (size_t I = 0; I < Parts.size(); ++I) {
        if (!mentionsThreadIdx(*Parts[I]))
          continue;
        if (isBoundsGuard(Parts[I], Vars) && !isBlockLocalGuard(Parts[I], Vars))
          Guard = true;
        else
          Others.push_back(I);
      }
      if (Guard && !Others.empty()) {
        std::function<SymRef(const SymRef &)> Keep = [&](const SymRef &E) -> SymRef {
          const Sym *T = E.get();
          while (T && T->Op == SymOp::Cast && T->A)
            T = T->A.get();
          if (T && (T->Op == SymOp::LAnd || (T->Op == SymOp::And && isTruthAndOr(T)))) {
            SymRef L = Keep(T->A), R = Keep(T->B);
            if (!L)
              return R;
            if (!R)
              return L;
            return makeBinary(SymOp::LAnd, L, R, 8, true);
          }
          if (!mentionsThreadIdx(*E))
            return E;
          if (isBoundsGuard(E.get(), Vars) && !isBlockLocalGuard(E.get(), Vars))
            return nullptr;
          return E;
        };
        Stronger = Keep(B.CondVal.S);
        // Named by its text, unless a macro wrote it (`IN_RANGE(tx, ...)`): then by the
        // condition's first thread-dependent term, as any condition.
        if (Written.size() == Parts.size() &&
            !Written[Others.front()]->getBeginLoc().isMacroID() &&
            !sourceText(Written[Others.front()], Ctx).empty())
          StrongerExpr = Written[Others.front()];
      }
    }

    // Evaluate lane by lane for every known block shape.
    std::vector<EnvSet> Envs(Distinct.size());
    std::vector<Tally> ByShape;
    for (size_t K = 0; K < Distinct.size(); ++K)
      ByShape.push_back(
          evaluateBranch(B, Vars, Distinct[K], WaveSize, Passed, Stronger, &Envs[K]));
    bool RowLeader = CondS && isRowLeaderTest(CondS, Vars);
    bool Pick = CondS && isUniformPick(CondS);
    // Whether the tallies of a set of block shapes make a finding, and the worst of them.
    auto decide = [&](const std::vector<Tally> &Ts, size_t &Worst) {
      Worst = Ts.size();
      for (size_t I = 0; I < Ts.size(); ++I) {
        const Tally &T = Ts[I];
        if (T.Evaluated && T.Divergent > 0 &&
            (Worst == Ts.size() ||
             T.Divergent * Ts[Worst].Total > Ts[Worst].Divergent * T.Total))
          Worst = I;
      }
      if (Worst == Ts.size())
        return false; // uniform for every shape, or not evaluable: stay silent
      if (GuardIfPartial) {
        // Reported when, for some shape, every warp that reaches it splits (a block of one
        // warp: `threadIdx.x < 16` with 32 threads; rows of 16 with `threadIdx.x < 8`; a
        // triangle of trips per lane).
        bool Whole = false;
        for (const Tally &T : Ts)
          Whole |= T.Evaluated && T.EveryWarpSplits;
        if (!Whole)
          return false;
      }
      // At most one lane of each row of a warp on the smaller side (one lane of the warp
      // for rows of 32 or more threads), or one lane in each run of a run-time row length,
      // or the lanes of one warp picked by a uniform value (`row == k`).
      bool Leader = true, OneWarp = true;
      for (const Tally &T : Ts)
        if (T.Evaluated) {
          Leader &= T.MaxMinorityPerRow <= 1;
          OneWarp &= T.MaxDivergentPerEnv <= 1;
        }
      Leader |= RowLeader || (Pick && OneWarp);
      return !(Leader && !ReportLeaderPatterns);
    };
    size_t WorstShape;
    if (!decide(ByShape, WorstShape)) {
      Unevaluable = true;
      for (const Tally &T : ByShape)
        Unevaluable &= !T.Evaluated;
      return std::nullopt;
    }
    const Tally &Worst = ByShape[WorstShape];
    const Launch *Chosen = nullptr;
    for (size_t I = 0; I < Shapes.size() && !Chosen; ++I)
      if (ShapeOf[I] == WorstShape)
        Chosen = Shapes[I];

    Finding F;
    F.Loc = Loc;
    F.Range = B.Cond->getSourceRange();
    F.Kernel = KernelName;
    // Why a place is a note rather than a warning; empty for a warning.
    std::vector<std::string> Demoted;
    // Under an assumed block shape, a warning only when it holds for every block at least
    // a warp wide in x.
    if (Assumed) {
      for (const BlockShape &Alt : Alternatives) {
        EnvSet AltEnvs;
        std::vector<Tally> One{
            evaluateBranch(B, Vars, Alt, WaveSize, Passed, Stronger, &AltEnvs)};
        size_t Ignored;
        if (!decide(One, Ignored)) {
          Demoted.push_back("the block is assumed and with a block of " + Alt.str() +
                            " this branch would " +
                            (One[0].Evaluated && One[0].Divergent == 0
                                 ? std::string("be warp-uniform")
                                 : std::string("not be reported")) +
                            "; give the launch's block shape (AssumedBlockSize, or a launch "
                            "in this file) to decide");
          break;
        }
      }
    }
    // Divergence that costs next to nothing: at most one warp (or loop evaluation) in
    // sixteen splits, whatever the run-time values (the one partial warp of a 512-thread
    // block at a matrix edge; the last trips of a block-stride loop).
    if (Worst.Evaluated && Worst.WorstEfficiency * 16 >= 15)
      Demoted.push_back("at most one in sixteen " +
                        std::string(Worst.Trips ? "evaluations of the loop condition"
                                                : Amd ? "wavefronts" : "warps") +
                        " splits (predicted branch efficiency " +
                        percent(Worst.WorstEfficiency) +
                        " or more): a small part of the branch's time");
    if (hasRegisterArms(B))
      Demoted.push_back("the arms only move values between registers (no memory access, "
                        "call or barrier): the compiler makes selects of them, as of a "
                        "'?:' of two values, and no lane waits for another");
    // The pins must be what narrows the grid to one block: a grid of one block launched
    // as such pays the split in a good part of its warps.
    unsigned Pinned = pinnedBlockDims(CondS, Vars) | pinnedBlockDims(B.Path.get(), Vars);
    bool OneBlock = (WideGridDims & Pinned) != 0 && (WideGridDims & ~Pinned) == 0;
    bool OneWarpEach = true;
    for (const Tally &T : ByShape)
      OneWarpEach &= !T.Evaluated || T.MaxDivergentPerEnv <= 1;
    if (OneWarpGrid)
      Demoted.push_back("every launch of '" + KernelName + "' in this file is one block of "
                        "at most one warp, outside any loop: a one-shot whose split costs "
                        "one warp once");
    else if (OneBlock && OneWarpEach)
      Demoted.push_back("the branch splits one warp of one block of the grid (blockIdx is "
                        "pinned by the condition): a one-time cost");
    if (!Demoted.empty())
      F.Level = DiagnosticIDs::Remark;

    Reported.insert(Loc);
    std::string Term = StrongerExpr ? sourceText(StrongerExpr, Ctx)
                       : B.Term     ? sourceText(B.Term, Ctx)
                                    : sourceText(B.Cond, Ctx);
    F.Term = Term;
    F.What = B.Kind == BranchSite::Loop          ? "loop condition on"
             : B.Kind == BranchSite::Switch      ? "switch on"
             : B.Kind == BranchSite::Conditional ? "'?:' on"
             : B.Kind == BranchSite::ShortCircuit ? "short-circuit operand on"
                                                 : "branch on";
    bool Executions = !Worst.LoopName.empty();
    // On AMD the unit is the wavefront, named with its width.
    std::string Unit = Amd ? "wavefront" : "warp";
    std::string Counted = Executions ? " " + Unit + " executions" : " " + Unit + "s";
    if (Amd)
      Counted += " of " + std::to_string(WaveSize) + " lanes";
    std::string Detail = "block " + Chosen->Block.str() + (Assumed ? " assumed" : "");
    if (Executions && !Worst.LoopName.empty())
      Detail += ", " + std::to_string(Worst.LoopValues) +
                (Worst.Varies ? " iterations" : " values of '" + Worst.LoopName + "'");
    if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 &&
        Vars[B.LoopVar].LoopVariance != Variance::Uniform)
      Detail += ", lanes leave after different trip counts";
    for (const auto &[V, Values] : Passed) {
      std::string List;
      for (int64_t X : Values)
        List += (List.empty() ? "" : ", ") + std::to_string(X);
      std::vector<unsigned> Used;
      if (CondS)
        collectVars(*Found.CondVal.S, Used);
      if (std::find(Used.begin(), Used.end(), V) != Used.end())
        Detail += ", '" + Vars[V].Name + "' = " + List + " as launched";
    }
    // The efficiency: one figure, or the range over the run-time values it depends on.
    std::string Efficiency = percent(Worst.WorstEfficiency);
    bool Range = percent(Worst.WorstEfficiency) != percent(Worst.BestEfficiency);
    if (Range)
      Efficiency += " to " + percent(Worst.BestEfficiency);
    if (Worst.Trips)
      Efficiency += " over the loop's trips";
    if (Range) {
      std::string Names;
      for (const std::string &N : Worst.Sampled)
        Names += (Names.empty() ? "'" : ", '") + N + "'";
      Efficiency += Names.empty() ? std::string(", depending on run-time values")
                                  : ", depending on " + Names;
    }
    F.SplitShare = 1.0 - Worst.WorstEfficiency;
    F.Figures = "diverges in " + std::string(Worst.Varies ? "up to " : "") +
                std::to_string(Worst.Divergent) + " of " + std::to_string(Worst.Total) +
                Counted + " of kernel '" + KernelName + "' (" + Detail +
                "); predicted branch efficiency " + Efficiency;
    std::string CondText = sourceText(B.Cond, Ctx);
    std::string Compact;
    for (char C : CondText)
      if (!isspace(static_cast<unsigned char>(C)))
        Compact += C;
    F.Key = KernelName + '\n' + Compact + '\n' + F.What + '\n' + F.Figures + '\n' +
            std::to_string(int(F.Level));
    for (const std::string &Why : Demoted)
      F.Notes.push_back({Loc, "a note, not a warning: " + Why});
    if (Assumed)
      F.Notes.push_back({Kernel->getLocation(),
                         "no launch of '" + KernelName +
                             "' with a known block shape in this translation unit; assumed "
                             "a 1-D block of " +
                             std::to_string(AssumedBlockSize) + " threads (a multiple of 32)"});
    for (size_t I = 0; I < Shapes.size(); ++I) {
      const Tally &T = ByShape[ShapeOf[I]];
      if (T.Evaluated && T.Divergent == 0 && Shapes[I]->Loc.isValid())
        F.Notes.push_back({Shapes[I]->Loc, "with the block " + Shapes[I]->Block.str() +
                                               " of this launch the branch is warp-uniform"});
    }
    if (Stronger && StrongerExpr)
      F.Notes.push_back({Loc, "the bounds guard beside '" + Term +
                                  "' only takes the grid's tail away: the figures are "
                                  "those of '" + Term + "'"});
    else if (Stronger)
      F.Notes.push_back({Loc, "the bounds guards among the terms of this condition only take "
                              "the grid's tail away: the figures are those of the other terms"});

    // Notes with a warp-uniform remapping.
    if (CondS && isInterleavedReduction(CondS, Vars)) {
      F.Notes.push_back(
          {Loc, "interleaved tree reduction: the active threads spread over every warp; index "
                "contiguous threads instead ('int index = 2 * s * tid; if (index < "
                "blockDim.x)') so that whole warps go idle"});
    } else if (!Stronger && B.Kind != BranchSite::Loop && B.TermSym && B.Term && CondS &&
               mentionsThreadIdx(*B.TermSym)) {
      SymRef Remapped = replaceNode(
          B.CondVal.S, B.TermSym.get(),
          makeBinary(SymOp::Div, B.TermSym,
                     makeConst(WaveSize, B.TermSym->Bits, B.TermSym->Unsigned), B.TermSym->Bits,
                     B.TermSym->Unsigned));
      bool Works = true;
      for (size_t K = 0; K < Distinct.size(); ++K) {
        Tally New = evaluateBranch(B, Vars, Distinct[K], WaveSize, Passed, Remapped, &Envs[K]);
        if (!New.Evaluated || New.Divergent != 0 ||
            New.TrueLanesPerEnv != ByShape[K].TrueLanesPerEnv)
          Works = false;
      }
      if (Works) {
        unsigned Offset = SM.getFileOffset(B.Term->getBeginLoc()) -
                          SM.getFileOffset(B.Cond->getBeginLoc());
        std::string NewText = CondText;
        if (Offset + Term.size() <= NewText.size())
          NewText.replace(Offset, Term.size(), "(" + Term + " / warpSize)");
        F.Notes.push_back({B.Term->getBeginLoc(),
                           "'(" + Term + " / warpSize)' in place of '" + Term +
                               "' splits the same number of threads by whole warps: '" +
                               NewText + "' (this changes which threads take each path)"});
      }
    }
    // Rows (planes) that straddle warps, when the condition reads threadIdx.y (.z).
    unsigned TidDims = 0;
    std::vector<bool> SeenVars(Vars.size());
    if (!Assumed)
      collectTidDims(CondS, Vars, TidDims, SeenVars);
    const BlockShape &Shape = Chosen->Block;
    std::string Wave = Amd ? "wavefront" : "warp";
    if ((TidDims & 2) && Shape.X % WaveSize != 0 && Shape.Y > 1) {
      RunsPerWarp R = runsPerWarp(Shape.X, Shape.threads(), WaveSize);
      F.Notes.push_back({Loc, "a " + Wave + " spans " + (R.Same ? "" : "up to ") +
                                  std::to_string(R.Most) + (R.Most == 1 ? " row" : " rows") +
                                  " of " + std::to_string(Shape.X) +
                                  " threads: 'threadIdx.y' is " + Wave +
                                  "-uniform only when blockDim.x is a multiple of " +
                                  std::to_string(WaveSize)});
    }
    if ((TidDims & 4) && (Shape.X * Shape.Y) % WaveSize != 0 && Shape.Z > 1) {
      RunsPerWarp R = runsPerWarp(Shape.X * Shape.Y, Shape.threads(), WaveSize);
      F.Notes.push_back({Loc, "a " + Wave + " spans " + (R.Same ? "" : "up to ") +
                                  std::to_string(R.Most) +
                                  (R.Most == 1 ? " plane" : " planes") + " of " +
                                  std::to_string(Shape.X) + "x" + std::to_string(Shape.Y) +
                                  " threads: 'threadIdx.z' is " + Wave +
                                  "-uniform only when blockDim.x * blockDim.y is a multiple "
                                  "of " + std::to_string(WaveSize)});
    }
    // Last: what the compiler may make of it.
    if (hasShortArms(B) && !hasRegisterArms(B))
      F.Notes.push_back({Loc, std::string("the arms are short: ") +
                                  (Amd ? "the compiler" : "nvcc") +
                                  " may predicate them instead of branching; the " + Wave +
                                  " then issues both arms with the lanes of the other side "
                                  "masked off, so they still idle"});
    return F;
  };
  for (const BranchSite &Found : TD.branches()) {
    Unevaluable = false;
    std::optional<Finding> F = Analyze(Found, KernelVars, Fixed, Passed);
    // The launch values leave nothing to evaluate (one end of a loop known, the other
    // sampled and always past it): the sampled values alone, as without them.
    if (!F && Unevaluable && !Fixed.empty())
      F = Analyze(Found, TD.vars(), {}, {});
    if (F)
      Findings.push_back(std::make_shared<Finding>(std::move(*F)));
  }
}

void DivergentBranchCheck::emitFindings(const SourceManager &SM) {
  // One root cause, one finding: the places of one kernel with the same condition as
  // written and the same figures (unrolled or generated code) are one finding at the
  // first place, with a note at each other place; a place that several instantiations of
  // a template report alike is one place.
  // Instantiations of one template that report one place with other figures: one finding,
  // the first instantiation's, with the others' figures as notes.
  std::vector<bool> Done(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I)
    for (size_t J = I + 1; J < Findings.size() && !Done[I]; ++J) {
      Finding &A = *Findings[I];
      const Finding &B = *Findings[J];
      if (Done[J] || A.Loc != B.Loc || A.Kernel != B.Kernel || A.What != B.What ||
          A.Level != B.Level)
        continue;
      Done[J] = true;
      if (A.Key != B.Key)
        A.Notes.push_back({B.Loc, "another instantiation of '" + B.Kernel + "': " + B.What +
                                      " '" + B.Term + "' " + B.Figures});
    }
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (Done[I])
      continue;
    const Finding &F = *Findings[I];
    std::vector<size_t> Group{I};
    for (size_t J = I + 1; J < Findings.size(); ++J)
      if (!Done[J] && Findings[J]->Key == F.Key) {
        Done[J] = true;
        bool Seen = false;
        for (size_t K : Group)
          Seen |= Findings[K]->Loc == Findings[J]->Loc;
        if (!Seen)
          Group.push_back(J);
      }
    std::string Message =
        Group.size() == 1
            ? F.What + " '" + F.Term + "' " + F.Figures
            : std::to_string(Group.size()) + " " + plural(F.What) + " '" + F.Term +
                  "' with the same figures: each " + F.Figures;
    diag(F.Loc, "%0", F.Level) << Message << F.Range;
    TuModel::of(*Ctx, nullptr, Model)
        .reportImpact(F.Loc, std::string(getID()), ::warplint::divergenceImpact(F.SplitShare));
    for (const auto &[NoteLoc, Text] : F.Notes)
      diag(NoteLoc, "%0", DiagnosticIDs::Note) << Text;
    PresumedLoc First = SM.getPresumedLoc(F.Loc);
    for (size_t K = 1; K < Group.size(); ++K)
      diag(Findings[Group[K]]->Loc,
           "%0 '%1' here too (%2 of %3), grouped in the finding at line %4",
           DiagnosticIDs::Note)
          << F.What << F.Term << unsigned(K + 1) << unsigned(Group.size())
          << (First.isValid() ? First.getLine() : 0u);
  }
  Findings.clear();
}

} // namespace clang::tidy::warplint
