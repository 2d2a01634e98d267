//===- TrafficShare.cpp - an access's share of its kernel's memory traffic ------===//
#include "checks/TrafficShare.h"

#include "divergence/Idioms.h"
#include "model/TuModel.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <utility>

namespace clang::tidy::warplint {

namespace {

/// The trip count of a loop whose count is not a compile-time constant, in the traffic
/// share: small, so that one access in such a loop does not outweigh one outside it
/// sixteenfold by itself (1 + 8 accesses: a share of one in nine).
constexpr unsigned UnknownTrips = 8;

/// Integer values in one kernel from compile-time constants and the values every launch
/// of the kernel passes for its parameters (Known: a parameter with several values takes
/// its least), through locals initialised once from such (`const int load_size =
/// n_sections - 1`) and + - * / %. Whether the kernel writes a parameter or local is
/// asked once per variable (Writes), however many loop heads read it. In a device
/// function the count follows (Bound: its parameters' arguments at the call being
/// walked), a parameter is the value of its argument.
struct KernelValues {
  const ASTContext &C;
  const ::warplint::KnownValues *Known;
  const FunctionDecl *Kernel;
  ::warplint::WritesVarMemo Writes;
  const std::map<const ParmVarDecl *, const Expr *> *Bound = nullptr;

  /// Whether the function that declares D (the kernel, or a device function the count
  /// follows) never writes it.
  bool kept(const ValueDecl *D) {
    const auto *Fn = dyn_cast_or_null<FunctionDecl>(D->getParentFunctionOrMethod());
    const FunctionDecl *Def = nullptr;
    return Fn && Fn->hasBody(Def) && !Writes(Def->getBody(), D);
  }

  std::optional<int64_t> value(const Expr *E, unsigned Depth = 0) {
    if (!E || E->isValueDependent() || E->isTypeDependent() || Depth > 8)
      return std::nullopt;
    if (std::optional<llvm::APSInt> R = E->getIntegerConstantExpr(C))
      return R->getExtValue();
    E = E->IgnoreParenImpCasts();
    if (auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return value(Cast->getSubExpr(), Depth + 1);
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
        if (Bound)
          if (auto B = Bound->find(P); B != Bound->end())
            return kept(P) ? value(B->second, Depth + 1) : std::nullopt;
        const auto *Owner = dyn_cast_or_null<FunctionDecl>(P->getParentFunctionOrMethod());
        if (!Known || !Kernel || !Owner ||
            Owner->getCanonicalDecl() != Kernel->getCanonicalDecl())
          return std::nullopt;
        auto It = P->getName().empty() ? Known->end() : Known->find(P->getName().str());
        if (It == Known->end() || It->second.empty() || !kept(P))
          return std::nullopt;
        return *std::min_element(It->second.begin(), It->second.end());
      }
      auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V || !V->hasLocalStorage() || !V->getInit() || !V->getType()->isIntegerType() ||
          !kept(V))
        return std::nullopt;
      return value(V->getInit(), Depth + 1);
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Minus)
      if (std::optional<int64_t> X = value(U->getSubExpr(), Depth + 1))
        return -*X;
    // gridDim.x where every launch's grid is known (its least value).
    if (auto *POE = dyn_cast<PseudoObjectExpr>(E); POE && Known)
      if (std::optional<::warplint::BuiltinRead> B = ::warplint::builtinRead(POE);
          B && B->Var == "gridDim" && B->Dim < 3) {
        static const char *Names[3] = {"gridDim.x", "gridDim.y", "gridDim.z"};
        if (auto It = Known->find(Names[B->Dim]); It != Known->end() && !It->second.empty())
          return *std::min_element(It->second.begin(), It->second.end());
      }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      std::optional<int64_t> L = value(B->getLHS(), Depth + 1);
      std::optional<int64_t> R = L ? value(B->getRHS(), Depth + 1) : std::nullopt;
      if (!L || !R)
        return std::nullopt;
      switch (B->getOpcode()) {
      case BO_Add: return *L + *R;
      case BO_Sub: return *L - *R;
      case BO_Mul: return *L * *R;
      case BO_Div: return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
      case BO_Rem: return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }
};

/// `for (V = A; V op B; V step)` with A, B and the step compile-time constants (in the
/// instantiation) or values the launches pass (KernelValues): its trip count (at least 1).
std::optional<double> constantTrips(const ForStmt *F, KernelValues &Values) {
  auto Const = [&](const Expr *E) -> std::optional<int64_t> { return Values.value(E); };
  std::optional<::warplint::ForHead> H = ::warplint::forHead(F);
  // A tile loop's `v + k <= b` (SGEMM_CUDA's fill, `offset + rowStride <= BM`) counts as
  // `v <= b - k`.
  std::optional<int64_t> Offset = 0;
  const Expr *OffsetExpr = nullptr;
  if (!H && (H = ::warplint::forHeadWithOffset(F, OffsetExpr)))
    Offset = Const(OffsetExpr);
  if (!H || !Offset)
    return std::nullopt;
  std::optional<int64_t> Start = Const(H->Init), Bound = Const(H->Bound);
  if (!Start || !Bound)
    return std::nullopt;
  *Bound -= *Offset;
  const BinaryOperatorKind Op = H->Op;
  std::optional<int64_t> Step;
  if (auto *U = dyn_cast<UnaryOperator>(H->Inc))
    Step = U->isIncrementOp() ? 1 : -1;
  else if (auto *B = dyn_cast<CompoundAssignOperator>(H->Inc))
    if (std::optional<int64_t> K = Const(B->getRHS()))
      Step = B->getOpcode() == BO_AddAssign   ? *K
             : B->getOpcode() == BO_SubAssign ? -*K
                                              : std::optional<int64_t>();
  if (!Step || *Step == 0)
    return std::nullopt;
  double Span = 0;
  switch (Op) {
  case BO_LT: Span = double(*Bound - *Start); break;
  case BO_LE: Span = double(*Bound - *Start + 1); break;
  case BO_GT: Span = double(*Start - *Bound); break;
  case BO_GE: Span = double(*Start - *Bound + 1); break;
  case BO_NE: Span = double(*Bound - *Start); break;
  default: return std::nullopt;
  }
  double S = double(*Step);
  if ((Op == BO_GT || Op == BO_GE) == (S > 0) && Op != BO_NE)
    return std::nullopt; // a step away from the bound
  if (Op == BO_NE && Span / S < 0)
    return std::nullopt;
  return std::max(1.0, std::ceil(std::fabs(Span / S)));
}

/// The arguments of the calls the count is inside, by the callee's parameter.
using Bindings = std::map<const ParmVarDecl *, const Expr *>;

/// Whether a pointer or array expression reaches global memory: not a __shared__ or
/// __constant__ object, a local array, or a struct passed by value; a kernel's pointer
/// parameters, pointers loaded from memory and __device__ arrays do. A parameter of a
/// device function the count follows is its argument (Bound).
bool reachesGlobal(const Expr *E, const Bindings &Bound, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return true;
  E = E->IgnoreParenCasts();
  if (isa<CXXThisExpr>(E)) // a member function's object: where it is, the count cannot say
    return false;
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      if (auto B = Bound.find(P); B != Bound.end())
        return reachesGlobal(B->second, Bound, Depth + 1);
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDAConstantAttr>())
      return false;
    QualType T = VD->getType();
    if (T->isArrayType())
      return VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>();
    if (T->isPointerType()) {
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
        return reachesGlobal(VD->getInit(), Bound, Depth + 1);
      return true;
    }
    return !VD->hasLocalStorage(); // a local struct or scalar: not memory the check counts
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return reachesGlobal(B->getRHS(), Bound, Depth + 1);
    return reachesGlobal(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS(),
                         Bound, Depth + 1);
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->isIncrementDecrementOp())
      return reachesGlobal(U->getSubExpr(), Bound, Depth + 1);
    if (U->getOpcode() == UO_AddrOf) {
      const Expr *Sub = U->getSubExpr()->IgnoreParens();
      if (auto *A = dyn_cast<ArraySubscriptExpr>(Sub))
        return reachesGlobal(A->getBase(), Bound, Depth + 1);
      if (auto *M = dyn_cast<MemberExpr>(Sub))
        return reachesGlobal(M->getBase(), Bound, Depth + 1);
      if (auto *D = dyn_cast<UnaryOperator>(Sub); D && D->getOpcode() == UO_Deref)
        return reachesGlobal(D->getSubExpr(), Bound, Depth + 1);
      return false; // the address of a local
    }
    return true;
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) // a row of an array; else a loaded pointer
    return A->getType()->isArrayType() ? reachesGlobal(A->getBase(), Bound, Depth + 1) : true;
  if (auto *M = dyn_cast<MemberExpr>(E)) // an array field where its struct is; else a pointer
    return M->getType()->isArrayType() ? M->isArrow() || reachesGlobal(M->getBase(), Bound, Depth + 1)
                                       : true;
  if (auto *CO = dyn_cast<ConditionalOperator>(E))
    return reachesGlobal(CO->getTrueExpr(), Bound, Depth + 1);
  return true;
}


/// Whether a pointer or array expression surely reaches __shared__ memory: a __shared__
/// object, an element, row or address of one, pointer arithmetic on one, a local
/// pointer initialised from one (`float *s_b = s_a + n`), or a parameter of a device
/// function the count follows whose argument is one. Anything else is not counted.
bool reachesShared(const Expr *E, const Bindings &Bound, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenCasts();
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      if (auto B = Bound.find(P); B != Bound.end())
        return reachesShared(B->second, Bound, Depth + 1);
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD)
      return false;
    if (VD->hasAttr<CUDASharedAttr>())
      return true;
    return VD->getType()->isPointerType() && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
           VD->getInit() && reachesShared(VD->getInit(), Bound, Depth + 1);
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return reachesShared(B->getRHS(), Bound, Depth + 1);
    return reachesShared(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS(),
                         Bound, Depth + 1);
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UO_AddrOf)
      return false;
    const Expr *Sub = U->getSubExpr()->IgnoreParens();
    if (auto *A = dyn_cast<ArraySubscriptExpr>(Sub))
      return reachesShared(A->getBase(), Bound, Depth + 1);
    return reachesShared(Sub, Bound, Depth + 1);
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) // a row of a shared array
    return A->getType()->isArrayType() && reachesShared(A->getBase(), Bound, Depth + 1);
  return false;
}

/// How deep the count follows calls of device functions, and how many statements and
/// expressions of called functions it walks for one kernel at most (past either, the
/// calls left are not followed: the kernel's total is smaller, its shares larger, never a
/// note more).
constexpr unsigned MaxCallDepth = 6;
constexpr unsigned MaxCalleeNodes = 200000;

/// A kernel's loads and stores of one memory space, each with the times a thread runs
/// it: the product of the trip counts of the loops around it (a constant count where the
/// loop has one, UnknownTrips otherwise) and of the calls it is in. Calls of device
/// functions with a body in the TU are followed, each call with its arguments for the
/// callee's parameters (a pointer parameter reaches the memory its argument does; a
/// trip count reads its argument's value): an interpreter whose loop is in a helper
/// (xmrig-cuda's `inner_loop`) counts its loop's accesses.
class TrafficCount {
public:
  TrafficCount(const ASTContext &C, MemorySpace Space, const ::warplint::KnownValues *Known,
               const FunctionDecl *Kernel)
      : Space(Space), Values{C, Known, Kernel, {}, &Bound} {
    if (Kernel)
      Stack.push_back(Kernel->getCanonicalDecl());
  }
  void walk(const Stmt *S, double Times, bool AddressOnly = false) {
    if (!S)
      return;
    if (isa<LambdaExpr>(S))
      return;
    if (Stack.size() > 1 && ++CalleeNodes > MaxCalleeNodes)
      return;
    if (auto *Call = dyn_cast<CallExpr>(S)) {
      for (const Stmt *Child : S->children())
        walk(Child, Times);
      follow(Call, Times);
      return;
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit(), Times);
      double Trips = constantTrips(F, Values).value_or(UnknownTrips);
      double T = Times * Trips;
      const Stmt *Outer = std::exchange(Loop, S);
      Loops.push_back({S, Trips, Stack.size()});
      walk(F->getCond(), T);
      walk(F->getInc(), T);
      walk(F->getBody(), T);
      Loops.pop_back();
      Loop = Outer;
      return;
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      const Stmt *Outer = std::exchange(Loop, S);
      Loops.push_back({S, double(UnknownTrips), Stack.size()});
      for (const Stmt *Child : S->children())
        walk(Child, Times * UnknownTrips);
      Loops.pop_back();
      Loop = Outer;
      return;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E) {
      for (const Stmt *Child : S->children())
        walk(Child, Times);
      return;
    }
    // What an assignment or an increment writes is a store, not a load the cache keeps.
    if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      Stores.insert(B->getLHS()->IgnoreParens());
    else if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      Stores.insert(U->getSubExpr()->IgnoreParens());
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      walk(U->getSubExpr(), Times, /*AddressOnly=*/true);
      return;
    }
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (!AddressOnly && !A->getType()->isArrayType())
        count(E, A->getBase(), Times);
      walk(A->getBase(), Times, /*AddressOnly=*/true);
      walk(A->getIdx(), Times);
      return;
    }
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow()) {
        if (!AddressOnly && !M->getType()->isArrayType())
          count(E, M->getBase(), Times);
        walk(M->getBase(), Times);
        return;
      }
      // `a[i].x`, `p->s.x`, `(*p).x`: a field of an element in memory.
      const Expr *Base = M->getBase()->IgnoreParens();
      for (auto *Inner = dyn_cast<MemberExpr>(Base); Inner && !Inner->isArrow();
           Inner = dyn_cast<MemberExpr>(Base))
        Base = Inner->getBase()->IgnoreParens();
      if (!AddressOnly && !M->getType()->isArrayType()) {
        if (auto *A = dyn_cast<ArraySubscriptExpr>(Base))
          count(E, A->getBase(), Times);
        else if (auto *P = dyn_cast<MemberExpr>(Base); P && P->isArrow())
          count(E, P->getBase(), Times);
        else if (auto *D = dyn_cast<UnaryOperator>(Base); D && D->getOpcode() == UO_Deref)
          count(E, D->getSubExpr(), Times);
      }
      walk(M->getBase(), Times, /*AddressOnly=*/true);
      return;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
      if (!AddressOnly && !U->getType()->isArrayType() && !U->getType()->isFunctionType())
        count(E, U->getSubExpr(), Times);
      walk(U->getSubExpr(), Times);
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child, Times);
  }

  /// Times a thread runs each access expression walked (global or not).
  std::map<const Expr *, double> TimesOf;
  /// The innermost loop around each access walked (null: outside every loop).
  std::map<const Expr *, const Stmt *> LoopOf;
  std::set<const Expr *> Counted; ///< the accesses that reach the space counted
  /// The loads counted once for the loops around them (sameAddressInLoop).
  std::set<const Expr *> SameAddress;
  double Total = 0;              ///< their runs per thread, all together
  double Most = 0;               ///< the runs per thread of the most repeated one

private:
  /// A loop being walked: its trip count in the count, and how deep in calls it is.
  struct LoopFrame {
    const Stmt *S;
    double Trips;
    size_t Depth;
  };

  /// Whether the load E reads the same address in every trip of loop L of its own
  /// function: its address is made of constants, the thread's and block's indices and
  /// variables declared before L that L never writes, with no memory read or call in it,
  /// and L stores nothing through the same base. Such a load costs its sectors once: the
  /// compiler keeps the value in a register, or the later trips find it in the cache
  /// (learn-cuda's n-body, `p[i].x` read in every trip of the loop over the bodies).
  bool sameAddressInLoop(const Expr *E, const Stmt *L) {
    if (Stores.count(E) || E->getType().isVolatileQualified())
      return false;
    const SourceManager &SM = Values.C.getSourceManager();
    const ValueDecl *Base = nullptr;
    bool Ok = true;
    std::function<void(const Stmt *, bool)> Visit = [&](const Stmt *S, bool Top) {
      if (!S || !Ok)
        return;
      // threadIdx.x and its kin: the same register in every trip.
      if (isa<PseudoObjectExpr>(S))
        return;
      if (isa<CallExpr, CXXConstructExpr, LambdaExpr, StmtExpr>(S)) {
        Ok = false;
        return;
      }
      if (!Top) {
        if (isa<ArraySubscriptExpr>(S) && !cast<Expr>(S)->getType()->isArrayType())
          Ok = false;
        if (auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
          Ok = false;
        if (auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
          Ok = false;
        if (!Ok)
          return;
      }
      if (auto *DR = dyn_cast<DeclRefExpr>(S)) {
        auto *VD = dyn_cast<VarDecl>(DR->getDecl());
        if (!VD) { // an enumerator, a function's name
          Ok = isa<EnumConstantDecl>(DR->getDecl());
          return;
        }
        if (!Base && (VD->getType()->isPointerType() || VD->getType()->isArrayType()))
          Base = VD;
        if (VD->hasLocalStorage() &&
            (Writes(L, VD) || (!isa<ParmVarDecl>(VD) &&
                               !SM.isBeforeInTranslationUnit(VD->getLocation(), L->getBeginLoc()))))
          Ok = false;
        return;
      }
      // A field chain and the element it reads (`a[i].x`): the element is the access.
      bool Inner = Top && (isa<MemberExpr>(S) && !cast<MemberExpr>(S)->isArrow());
      for (const Stmt *C : S->children())
        Visit(C, Inner || (Top && isa<ArraySubscriptExpr>(C) && isa<MemberExpr>(S)));
    };
    Visit(E, true);
    if (!Ok)
      return false;
    // A store through the same base pointer in the loop: the value may change.
    if (Base) {
      auto [It, New] = StoredBases.try_emplace(L);
      if (New)
        collectStoreBases(L, It->second);
      if (It->second.count(Base) || It->second.count(nullptr))
        return false;
    }
    return true;
  }

  /// The base variables of the stores of S (null for a store whose base is none).
  static void collectStoreBases(const Stmt *S, std::set<const ValueDecl *> &Out) {
    if (!S)
      return;
    const Expr *Target = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      Target = B->getLHS();
    else if (auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    if (Target) {
      const Expr *X = Target->IgnoreParenImpCasts();
      bool Memory = false;
      for (;;) {
        if (auto *M = dyn_cast<MemberExpr>(X)) {
          Memory = Memory || M->isArrow();
          X = M->getBase()->IgnoreParenImpCasts();
        } else if (auto *A = dyn_cast<ArraySubscriptExpr>(X)) {
          Memory = true;
          X = A->getBase()->IgnoreParenImpCasts();
        } else if (auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_Deref) {
          Memory = true;
          X = U->getSubExpr()->IgnoreParenImpCasts();
        } else if (auto *B = dyn_cast<BinaryOperator>(X); B && B->isAdditiveOp()) {
          X = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())
                  ->IgnoreParenImpCasts();
        } else {
          break;
        }
      }
      if (Memory) {
        auto *DR = dyn_cast<DeclRefExpr>(X);
        Out.insert(DR ? DR->getDecl() : nullptr);
      }
    }
    // A call may store through any pointer it is handed (an atomic through its first):
    // each pointer argument's base counts as stored.
    if (auto *C = dyn_cast<CallExpr>(S))
      for (const Expr *Arg : C->arguments()) {
        if (!Arg->getType()->isPointerType())
          continue;
        const Expr *X = Arg->IgnoreParenImpCasts();
        for (;;) {
          if (auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_AddrOf)
            X = U->getSubExpr()->IgnoreParenImpCasts();
          else if (auto *A = dyn_cast<ArraySubscriptExpr>(X))
            X = A->getBase()->IgnoreParenImpCasts();
          else if (auto *M = dyn_cast<MemberExpr>(X))
            X = M->getBase()->IgnoreParenImpCasts();
          else if (auto *B = dyn_cast<BinaryOperator>(X); B && B->isAdditiveOp())
            X = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())
                    ->IgnoreParenImpCasts();
          else
            break;
        }
        if (auto *DR = dyn_cast<DeclRefExpr>(X))
          Out.insert(DR->getDecl());
      }
    for (const Stmt *Ch : S->children())
      collectStoreBases(Ch, Out);
  }

  void count(const Expr *E, const Expr *Pointer, double Times) {
    // A load whose address stays the same through the innermost loops around it (in its
    // own function) runs once for them.
    for (auto L = Loops.rbegin(); L != Loops.rend() && L->Depth == Stack.size(); ++L) {
      if (!sameAddressInLoop(E, L->S))
        break;
      Times /= L->Trips;
      SameAddress.insert(E);
    }
    double &Runs = TimesOf[E]; // a callee's access runs at each of its calls
    Runs += Times;
    LoopOf[E] = Loop;
    if (Space == MemorySpace::Global ? !reachesGlobal(Pointer, Bound)
                                     : !reachesShared(Pointer, Bound))
      return;
    Counted.insert(E);
    Total += Times;
    Most = std::max(Most, Runs);
  }

  /// A call of a device function with its body in the TU: its body walked as if written
  /// at the call (not a kernel, not one already being walked, within the depth and the
  /// budget).
  void follow(const CallExpr *Call, double Times) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    // An implicit or defaulted member (a structure's copy) moves what the call's own
    // operands access, counted at the call already.
    if (!FD || !FD->hasBody(Def) || !Def || Def->hasAttr<CUDAGlobalAttr>() ||
        Def->isTemplated() || Def->isImplicit() || Def->isDefaulted() || Stack.size() > MaxCallDepth || CalleeNodes > MaxCalleeNodes ||
        llvm::is_contained(Stack, Def->getCanonicalDecl()))
      return;
    // An operator written as a member (`acc[i]`) has its object as the call's first
    // argument, not a parameter.
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def) &&
                            !cast<CXXMethodDecl>(Def)->isStatic()
                        ? 1
                        : 0;
    std::vector<const ParmVarDecl *> Mine;
    for (unsigned I = 0; I < Def->getNumParams() && I + Skip < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      if (Bound.emplace(P, Call->getArg(I + Skip)).second)
        Mine.push_back(P);
    }
    Stack.push_back(Def->getCanonicalDecl());
    walk(Def->getBody(), Times);
    Stack.pop_back();
    for (const ParmVarDecl *P : Mine)
      Bound.erase(P);
  }

  MemorySpace Space;
  Bindings Bound;
  KernelValues Values;
  const Stmt *Loop = nullptr;
  std::vector<LoopFrame> Loops;
  std::set<const Expr *> Stores;
  std::map<const Stmt *, std::set<const ValueDecl *>> StoredBases;
  ::warplint::WritesVarMemo Writes;
  std::vector<const Decl *> Stack; ///< the kernel and the calls being walked
  unsigned CalleeNodes = 0;
};

/// A count of runs per thread as the message writes it: "2", "16.5".
std::string timesText(double V) {
  if (V == std::floor(V) && V < 1e15)
    return std::to_string(int64_t(V));
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f", V);
  return Buf;
}

/// A share as a percentage with one decimal: "4.3%".
std::string percentText(double Fraction) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", Fraction * 100);
  return Buf;
}
} // namespace

std::string trafficShareDemotion(const std::vector<const AccessModel *> &Places,
                                 const FunctionDecl *Kernel, ASTContext &C, MemorySpace Space,
                                 double MinShare, const std::string &MinShareText,
                                 const std::set<const Expr *> &Flagged, bool NeedsMain,
                                 const ::warplint::KnownValues *Known) {
  if (MinShare <= 0 || !Kernel || !Kernel->hasBody())
    return "";
  TrafficCount T(C, Space, Known, Kernel);
  T.walk(Kernel->getBody(), 1);
  double Own = 0, OwnMost = 0, Total = T.Total;
  for (const AccessModel *A : Places) {
    auto It = T.TimesOf.find(A->Site.Access);
    if (It == T.TimesOf.end())
      return ""; // not a place the count knows: no share to say
    Own += It->second;
    OwnMost = std::max(OwnMost, It->second);
    if (!T.Counted.count(A->Site.Access))
      Total += It->second;
  }
  // The other flagged accesses of the places' loop bodies (or of the code outside every
  // loop) run with them: one phase of the kernel, whose share is theirs together.
  std::set<const Stmt *> Loops;
  std::set<const Expr *> Mine;
  for (const AccessModel *A : Places) {
    Loops.insert(T.LoopOf[A->Site.Access]);
    Mine.insert(A->Site.Access);
  }
  unsigned Beside = 0;
  const Expr *Main = nullptr; // the most repeated flagged access
  double MainTimes = 0;
  for (const Expr *E : Flagged) {
    auto It = T.TimesOf.find(E);
    if (It != T.TimesOf.end() && It->second > MainTimes)
      Main = E, MainTimes = It->second;
    if (Mine.count(E) || It == T.TimesOf.end() || !Loops.count(T.LoopOf[E]))
      continue;
    Own += It->second;
    ++Beside;
    if (!T.Counted.count(E))
      Total += It->second;
  }
  // The places must run less often than the kernel's most repeated access (a kernel of
  // straight-line accesses has no main work to set them beside), and make a small share.
  if (Total <= 0 || !(OwnMost < T.Most) || Own / Total >= MinShare)
    return "";
  // NeedsMain: the kernel's main work must have a flagged access of its own (one that runs
  // more often), so that these places are its edge, not the one finding of the kernel.
  // Without one, the places, already a small share of the shared-memory accesses, are
  // weighed against the kernel's whole memory traffic, global and shared too: a kernel
  // whose main loop reads global memory and writes a few values to shared memory once
  // (CudaSift's FindMaxCorr10, a block's write-out after its loop) pays a one-time
  // conflict's extra wavefronts beside far more memory work. Both shares must be small:
  // the whole-traffic share alone (counting unknown trips as 8) made true conflicts of
  // kernels whose shared-memory work is one phase notes (cudpp's cyclic reduction step,
  // 18 of 50 shared-memory accesses per thread).
  // "it runs once per thread, outside every loop, and with the 2 other flagged accesses
  // beside it in its loop, makes 6": the head of either note below.
  bool Kept = llvm::any_of(Places, [&](const AccessModel *A) {
    return T.SameAddress.count(A->Site.Access) > 0;
  });
  std::string Runs =
      (OwnMost == 1 ? std::string(Kept ? "once per thread" : "once per thread, outside every loop")
                    : "at most " + timesText(OwnMost) + " times per thread") +
      (Kept ? " (the same address in every trip of the loops around " +
                  std::string(Places.size() == 1 ? "it" : "them") +
                  ": the value stays in a register or the cache after the first)"
            : "");
  std::string With = Beside ? " with the " + std::to_string(Beside) + " other flagged " +
                                 (Beside == 1 ? "access" : "accesses") + " beside " +
                                 (Places.size() == 1 ? "it" : "them") + " in " +
                                 (Loops.count(nullptr) ? "the code outside loops" : "its loop") +
                                 ","
                           : "";
  const std::string Lead =
      std::string(Places.size() == 1 ? "it runs " : "they run ") + Runs +
      (Places.size() == 1 ? ", and" + With + " makes " : ", and" + With + " make ") +
      timesText(Own);
  if (NeedsMain && !(MainTimes > OwnMost)) {
    if (Space != MemorySpace::Shared)
      return "";
    TrafficCount G(C, MemorySpace::Global, Known, Kernel);
    G.walk(Kernel->getBody(), 1);
    double All = Total + G.Total;
    // Weighed by what the conflict costs: what it adds, each run taking the worst place's
    // wavefronts per ideal one, against the kernel's memory work with it; the gain of
    // removing it, as a cliff's gain is weighed (llm.c's naive flash attention: a 16-way
    // store, 4096 of 78336 accesses per thread, adds 61440 wavefronts, 44%, no small
    // share; SGEMM's transposing tile stores, 2-way, 64 of some 1100 accesses, add 5%).
    double Ways = 1;
    for (const AccessModel *A : Places)
      if (std::optional<size_t> W = A->worst())
        Ways = std::max(Ways, A->PerShape[*W].Figures.Typical.ratio());
    const double Extra = Own * (Ways - 1);
    const double Share = Extra / (All + Extra);
    if (!(OwnMost < std::max(T.Most, G.Most)) || Share >= MinShare)
      return "";
    return Lead + " of the kernel's " + timesText(All) + " memory accesses per thread (" +
           timesText(Total) + " shared, " + timesText(G.Total) + " global); at " +
           timesText(Ways) + " wavefronts per ideal one the conflict adds " + timesText(Extra) +
           " (" + percentText(Share) + " of the kernel's memory work with them, under "
           "MinTrafficShare " + MinShareText + "%; loops counted by their trip counts, " +
           std::to_string(UnknownTrips) +
           " trips where a count is neither a constant nor a value the launches pass): a "
           "small cost beside the kernel's memory traffic, whose main work is in its loops";
  }
  return Lead + " of the kernel's " + timesText(Total) +
         (Space == MemorySpace::Global ? " global" : " shared-memory") +
         " accesses per thread (" + percentText(Own / Total) + ", under MinTrafficShare " +
         MinShareText + "%; loops counted by their trip counts, " +
         std::to_string(UnknownTrips) +
         " trips where a count is neither a constant nor a value the launches pass): a small share of the kernel's " +
         (Space == MemorySpace::Global ? "memory" : "shared-memory") +
         " traffic beside the accesses in its loops" +
         (NeedsMain && Main
              ? "; the kernel's most repeated flagged access, at line " +
                    std::to_string(C.getSourceManager().getExpansionLineNumber(
                        Main->getBeginLoc())) +
                    " (" + timesText(MainTimes) + " times per thread), is its own finding"
              : "");
}

std::string dataMatchDemotion(const std::vector<const AccessModel *> &Places, ASTContext &C) {
  const Expr *Match = nullptr;
  for (const AccessModel *A : Places) {
    if (!A->Site.DataMatch)
      return "";
    if (!Match)
      Match = A->Site.DataMatch;
  }
  if (!Match)
    return "";
  const SourceManager &SM = C.getSourceManager();
  std::string Text =
      Lexer::getSourceText(SM.getExpansionRange(Match->getSourceRange()), SM, C.getLangOpts())
          .str();
  if (Text.empty() || Text.size() > 80)
    Text = "the match";
  return std::string(Places.size() == 1 ? "it runs" : "they run") + " only in the lanes for which '" +
         Text + "' (line " + std::to_string(SM.getExpansionLineNumber(Match->getBeginLoc())) +
         ") holds, a match on data loaded at a thread-dependent address: how many lanes "
         "match is the data's (one, for a search's hit, which costs one " +
         (Places.front()->Site.Space == MemorySpace::Shared ? "wavefront" : "sector") +
         "), and the figure takes every lane the rest of the path keeps";
}

} // namespace clang::tidy::warplint
