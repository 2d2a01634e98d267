//===- HostFacts.cpp - what the host establishes about a launch argument --------===//
//
// divergence/HostFacts.h says what a fact is. Here: reading them from the launching
// function's AST. A fact holds at a launch when the launch lies in the arm of an `if`
// whose condition states it, or after (in an enclosing block) a statement that only falls
// through where it holds: `if (c) return;` (return, throw, break, continue, a call that
// does not return: `abort()`, ggml's `GGML_ABORT`), or an assertion, `c ? (void)0 :
// __assert_fail(...)` (glibc's `assert`), `if (!(c)) ggml_abort(...)` (`GGML_ASSERT`).
// The argument must be a variable of the launching function that nothing in it writes
// (no assignment, ++, -- or address taken), so the value tested is the value passed.
//
//===----------------------------------------------------------------------------===//
#include "model/TuModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>
#include <map>
#include <numeric>
#include <vector>

namespace warplint {
using namespace clang;

namespace {

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

bool noReturnCall(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (auto *CE = dyn_cast_or_null<CStyleCastExpr>(E)) // (void)abort()
    return noReturnCall(CE->getSubExpr());
  if (auto *CE = dyn_cast_or_null<CXXFunctionalCastExpr>(E))
    return noReturnCall(CE->getSubExpr());
  if (isa_and_nonnull<CXXThrowExpr>(E))
    return true;
  auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call)
    return false;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->isNoReturn();
  return false;
}

/// S never falls through to the statement after it.
bool neverFallsThrough(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt>(S))
    return true;
  if (auto *E = dyn_cast<Expr>(S))
    return noReturnCall(E);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *X : CS->body())
      if (neverFallsThrough(X))
        return true;
    return false;
  }
  if (auto *If = dyn_cast<IfStmt>(S))
    return If->getElse() && neverFallsThrough(If->getThen()) &&
           neverFallsThrough(If->getElse());
  return false;
}

/// The facts on V that hold where C is Pol (true or false).
void factsOf(const Expr *C, bool Pol, const VarDecl *V, ASTContext &Ctx, ParamFact &F) {
  if (!C)
    return;
  C = C->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot)
    return factsOf(U->getSubExpr(), !Pol, V, Ctx, F);
  auto Const = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  // `V % K` (or `V & (K-1)` for K a power of two): K, where E is that.
  auto Modulus = [&](const Expr *E) -> std::optional<int64_t> {
    auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!B || varOf(B->getLHS()) != V)
      return std::nullopt;
    std::optional<int64_t> K = Const(B->getRHS());
    if (!K || *K <= 1 || *K > (int64_t(1) << 30))
      return std::nullopt;
    if (B->getOpcode() == BO_Rem)
      return K;
    if (B->getOpcode() == BO_And && ((*K + 1) & *K) == 0)
      return *K + 1;
    return std::nullopt;
  };
  auto *B = dyn_cast<BinaryOperator>(C);
  if (B && (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr)) {
    // Both parts hold where `a && b` is true, or `a || b` is false.
    if ((B->getOpcode() == BO_LAnd) == Pol) {
      factsOf(B->getLHS(), Pol, V, Ctx, F);
      factsOf(B->getRHS(), Pol, V, Ctx, F);
    }
    return;
  }
  if (!B || !B->isComparisonOp()) {
    // `if (n % 32) return;`: the remainder is 0 where the condition is false.
    if (std::optional<int64_t> K = Modulus(C); K && !Pol)
      F.Multiple = std::lcm(F.Multiple, *K);
    return;
  }
  BinaryOperatorKind Op = B->getOpcode();
  const Expr *L = B->getLHS(), *R = B->getRHS();
  std::optional<int64_t> RC = Const(R);
  if (!RC) { // the constant on the left: swap the sides
    std::swap(L, R);
    RC = Const(R);
    if (!RC)
      return;
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Pol)
    Op = BinaryOperator::negateComparisonOp(Op);
  if (*RC == 0 && Op == BO_EQ)
    if (std::optional<int64_t> K = Modulus(L)) {
      F.Multiple = std::lcm(F.Multiple, *K);
      return;
    }
  if (varOf(L) != V)
    return;
  auto AtLeast = [&](int64_t M) { F.Min = F.Min ? std::max(*F.Min, M) : M; };
  switch (Op) {
  case BO_EQ:
    F.Equal = *RC;
    break;
  case BO_GE:
    AtLeast(*RC);
    break;
  case BO_GT:
    AtLeast(*RC + 1);
    break;
  default:
    break;
  }
}

/// The statements from At down to S, At first and S last (a declaration's initialiser is
/// a child of its DeclStmt); false when S is not under At. A walk of the launching
/// function's body, not clang's parent map: that map is built for the whole unit, headers
/// included, on its first use.
bool pathTo(const Stmt *At, const Stmt *S, std::vector<const Stmt *> &Path) {
  if (!At)
    return false;
  Path.push_back(At);
  if (At == S)
    return true;
  for (const Stmt *C : At->children())
    if (pathTo(C, S, Path))
      return true;
  Path.pop_back();
  return false;
}

/// The facts on V that hold at the end of Path (pathTo's, from the launching function's
/// body down to the launch): the arms of the enclosing `if`s, and the statements before
/// the launch (and before each enclosing statement) in their blocks that fall through only
/// where a condition holds.
ParamFact factsAt(const std::vector<const Stmt *> &Path, const VarDecl *V, ASTContext &Ctx) {
  ParamFact F;
  if (Path.empty())
    return F;
  // From the launch up to the body: each statement and the one that holds it.
  for (size_t I = Path.size() - 1, Depth = 0; I > 0 && Depth < 64; --I, ++Depth) {
    const Stmt *Child = Path[I], *P = Path[I - 1];
    if (auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        factsOf(If->getCond(), true, V, Ctx, F);
      else if (Child == If->getElse())
        factsOf(If->getCond(), false, V, Ctx, F);
    } else if (auto *CS = dyn_cast<CompoundStmt>(P)) {
      for (const Stmt *X : CS->body()) {
        if (X == Child)
          break;
        if (auto *If = dyn_cast<IfStmt>(X)) {
          bool ThenExits = neverFallsThrough(If->getThen());
          bool ElseExits = If->getElse() && neverFallsThrough(If->getElse());
          if (ThenExits && !ElseExits && !If->getInit() && !If->getConditionVariable())
            factsOf(If->getCond(), false, V, Ctx, F);
          else if (ElseExits && !ThenExits && !If->getInit() && !If->getConditionVariable())
            factsOf(If->getCond(), true, V, Ctx, F);
        } else if (auto *E = dyn_cast<Expr>(X)) {
          // `(void)(c ? (void)0 : abort())`, `c || abort()`: c holds after it.
          E = E->IgnoreParenImpCasts();
          while (auto *Cast = dyn_cast<ExplicitCastExpr>(E))
            E = Cast->getSubExpr()->IgnoreParenImpCasts();
          if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
            if (noReturnCall(CO->getFalseExpr()) && !noReturnCall(CO->getTrueExpr()))
              factsOf(CO->getCond(), true, V, Ctx, F);
            else if (noReturnCall(CO->getTrueExpr()) && !noReturnCall(CO->getFalseExpr()))
              factsOf(CO->getCond(), false, V, Ctx, F);
          } else if (auto *BO = dyn_cast<BinaryOperator>(E)) {
            if (BO->getOpcode() == BO_LOr && noReturnCall(BO->getRHS()))
              factsOf(BO->getLHS(), true, V, Ctx, F);
          }
        } else if (auto *Do = dyn_cast<DoStmt>(X)) {
          // `do { if (!(c)) abort(); } while (0)`: the body's facts.
          Expr::EvalResult R;
          auto *Inner = dyn_cast<CompoundStmt>(Do->getBody());
          if (Inner && !Inner->body_empty() && !Do->getCond()->isValueDependent() &&
              Do->getCond()->EvaluateAsInt(R, Ctx) && R.Val.getInt().isZero()) {
            // The facts after the body's last statement: as if S followed it.
            for (const Stmt *Y : Inner->body())
              if (auto *If = dyn_cast<IfStmt>(Y))
                if (!If->getElse() && neverFallsThrough(If->getThen()) && !If->getInit())
                  factsOf(If->getCond(), false, V, Ctx, F);
          }
        }
      }
    }
  }
  return F;
}

/// The host expression passed for kernel parameter P at launch L, and the function it is
/// in: the launch's own argument, or, for a launch through a helper (ggml's
/// `ggml_cuda_kernel_launch(kernel, params, args...)`), the helper call's argument that
/// the helper passes on unchanged.
std::pair<const Expr *, const FunctionDecl *> hostArgument(const LaunchSite &L, unsigned P) {
  if (auto *K = dyn_cast_or_null<CUDAKernelCallExpr>(L.Call))
    return {P < K->getNumArgs() ? K->getArg(P) : nullptr, L.Enclosing};
  auto *C = dyn_cast_or_null<CallExpr>(L.Call);
  const FunctionDecl *Helper = C ? C->getDirectCallee() : nullptr;
  if (!Helper || !Helper->getBody())
    return {nullptr, nullptr};
  // The helper's one launch, on one of its parameters.
  const CUDAKernelCallExpr *Inner = nullptr;
  std::function<bool(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S)
      return true;
    if (auto *K = dyn_cast<CUDAKernelCallExpr>(S)) {
      if (Inner)
        return false;
      Inner = K;
    }
    for (const Stmt *Ch : S->children())
      if (!Find(Ch))
        return false;
    return true;
  };
  if (!Find(Helper->getBody()) || !Inner || P >= Inner->getNumArgs())
    return {nullptr, nullptr};
  // The argument passed on as it is, or through std::forward or std::move.
  const Expr *A = Inner->getArg(P)->IgnoreParenImpCasts();
  if (auto *Fwd = dyn_cast<CallExpr>(A); Fwd && Fwd->getNumArgs() == 1 && Fwd->getDirectCallee() &&
                                        Fwd->getDirectCallee()->isInStdNamespace() &&
                                        Fwd->getDirectCallee()->getIdentifier() &&
                                        (Fwd->getDirectCallee()->getName() == "forward" ||
                                         Fwd->getDirectCallee()->getName() == "move"))
    A = Fwd->getArg(0);
  const VarDecl *Passed = varOf(A);
  auto *PV = dyn_cast_or_null<ParmVarDecl>(Passed);
  if (!PV || PV->getDeclContext() != Helper || writesVar(Helper->getBody(), PV))
    return {nullptr, nullptr};
  unsigned I = PV->getFunctionScopeIndex();
  if (I >= C->getNumArgs())
    return {nullptr, nullptr};
  return {C->getArg(I), L.Enclosing};
}

} // namespace

HostFacts hostFacts(const KernelInfo &K, const TUFacts &F, ASTContext &Ctx,
                    WritesVarMemo &Writes) {
  HostFacts Out;
  if (!K.Decl || K.Launches.empty())
    return Out;
  // Each launch's path from its function's body, walked once for all the parameters.
  std::map<unsigned, std::vector<const Stmt *>> Paths;
  auto PathOf = [&](unsigned I, const FunctionDecl *Fn) -> const std::vector<const Stmt *> & {
    auto [It, New] = Paths.try_emplace(I);
    if (New && !pathTo(Fn->getBody(), F.Launches[I].Call, It->second))
      It->second.clear();
    return It->second;
  };
  for (unsigned P = 0; P < K.Decl->getNumParams(); ++P) {
    if (!K.Decl->getParamDecl(P)->getType()->isIntegerType())
      continue;
    std::optional<ParamFact> All;
    for (unsigned I : K.Launches) {
      const LaunchSite &L = F.Launches[I];
      auto [Arg, Fn] = hostArgument(L, P);
      const VarDecl *V = varOf(Arg);
      ParamFact One;
      if (V && Fn && Fn->getBody() && V->getType()->isIntegerType() &&
          !V->getType()->isReferenceType() && V->getDeclContext() == Fn &&
          !Writes(Fn->getBody(), V))
        One = factsAt(PathOf(I, Fn), V, Ctx);
      if (!All) {
        All = One;
        continue;
      }
      // What every launch establishes: the common multiple's divisor, the lower minimum.
      All->Multiple = std::gcd(All->Multiple, One.Multiple);
      All->Min = All->Min && One.Min ? std::optional<int64_t>(std::min(*All->Min, *One.Min))
                                     : std::nullopt;
      if (!(All->Equal && One.Equal && *All->Equal == *One.Equal))
        All->Equal.reset();
      if (!All->restricts())
        break;
    }
    if (All && All->restricts())
      Out[int(P)] = *All;
  }
  return Out;
}

} // namespace warplint
