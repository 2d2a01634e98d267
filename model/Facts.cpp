//===- Facts.cpp - kernel launches and kernel facts of one CUDA TU -------===//
#include "model/Facts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>

namespace warplint {
using namespace clang;

const char *launchApiName(LaunchApi A, bool Hip) {
  switch (A) {
  case LaunchApi::TripleChevron:
    return "triple-chevron";
  case LaunchApi::LaunchKernel:
    return Hip ? "hipLaunchKernel" : "cudaLaunchKernel";
  case LaunchApi::LaunchKernelEx:
    return Hip ? "hipLaunchKernelEx" : "cudaLaunchKernelEx";
  case LaunchApi::LaunchCooperativeKernel:
    return Hip ? "hipLaunchCooperativeKernel" : "cudaLaunchCooperativeKernel";
  case LaunchApi::LaunchKernelGGL:
    return "hipLaunchKernelGGL";
  case LaunchApi::ExtLaunchKernelGGL:
    return "hipExtLaunchKernelGGL";
  }
  return "unknown";
}

std::string ShapeFact::str() const {
  if (!Dims)
    return Text;
  const auto &D = *Dims;
  if (D[1] == 1 && D[2] == 1)
    return std::to_string(D[0]);
  std::string S = "dim3(" + std::to_string(D[0]) + "," + std::to_string(D[1]);
  if (D[2] != 1)
    S += "," + std::to_string(D[2]);
  return S + ")";
}

const KernelInfo *TUFacts::kernel(const FunctionDecl *FD) const {
  if (!FD)
    return nullptr;
  auto It = KernelIndex.find(FD->getCanonicalDecl());
  return It == KernelIndex.end() ? nullptr : &Kernels[It->second];
}

std::string targetArch(const ASTContext &Ctx) {
  auto FromTarget = [](const TargetInfo *TI) -> std::string {
    if (!TI || !(TI->getTriple().isNVPTX() || TI->getTriple().isAMDGCN()))
      return "";
    return TI->getTargetOpts().CPU;
  };
  std::string A = FromTarget(&Ctx.getTargetInfo());
  if (A.empty())
    A = FromTarget(Ctx.getAuxTargetInfo());
  return A;
}

unsigned targetWaveSize(const ASTContext &Ctx) {
  // AMDGPU's target answers with its configured wavefront size (64, or 32 on RDNA without
  // -mwavefrontsize64); NVPTX's warps are 32 lanes (and other targets have no grid
  // values to ask for).
  for (const TargetInfo *TI : {&Ctx.getTargetInfo(), Ctx.getAuxTargetInfo()})
    if (TI && TI->getTriple().isAMDGCN())
      return TI->getGridValue().GV_Warp_Size;
  return 32;
}

namespace {

using Path = llvm::SmallVector<StringRef, 4>;

std::string exprText(const Expr *E, const ASTContext &Ctx) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()),
                                               SM, Ctx.getLangOpts());
  if (R.isInvalid())
    R = CharSourceRange::getTokenRange(SM.getExpansionRange(E->getSourceRange()).getAsRange());
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

const Expr *skipTemporaries(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    else if (auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      E = D->getExpr();
    else if (auto *F = dyn_cast<CXXFunctionalCastExpr>(E);
             F && (F->getCastKind() == CK_NoOp || F->getCastKind() == CK_ConstructorConversion))
      E = F->getSubExpr();
    else if (auto *I = dyn_cast<ImplicitCastExpr>(E);
             I &&
             (I->getCastKind() == CK_NoOp || I->getCastKind() == CK_ConstructorConversion ||
              I->getCastKind() == CK_LValueToRValue) &&
             I->getType()->isRecordType())
      E = I->getSubExpr();
    else
      break;
  }
  return E;
}

/// Parent links and variable uses of one function body.
struct BodyScan {
  llvm::DenseMap<const Stmt *, const Stmt *> Parent;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>> Uses;
  /// The member expressions naming each field (`ctx->device_blocks`).
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const MemberExpr *, 4>> Members;
  llvm::DenseSet<const VarDecl *> CapturedByRef;
  bool HasGoto = false; ///< a goto can run a later write before an earlier use
  const Stmt *Root = nullptr;

  void build(const Stmt *Body) {
    Root = Body;
    walk(Body);
  }
  void walk(const Stmt *S) {
    if (!S)
      return;
    if (auto *DR = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Uses[VD].push_back(DR);
    if (auto *ME = dyn_cast<MemberExpr>(S))
      Members[ME->getMemberDecl()].push_back(ME);
    if (isa<GotoStmt, IndirectGotoStmt>(S))
      HasGoto = true;
    if (auto *LE = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
            CapturedByRef.insert(VD);
      for (const Expr *Init : LE->capture_inits())
        link(S, Init);
      link(S, LE->getBody());
      return;
    }
    for (const Stmt *C : S->children())
      link(S, C);
  }
  void link(const Stmt *P, const Stmt *C) {
    if (!C)
      return;
    Parent[C] = P;
    walk(C);
  }
  const Stmt *parent(const Stmt *S) const {
    auto It = Parent.find(S);
    return It == Parent.end() ? nullptr : It->second;
  }
  bool isAncestor(const Stmt *A, const Stmt *S) const {
    for (; S; S = parent(S))
      if (S == A)
        return true;
    return false;
  }
};

/// How one reference to a variable uses it.
struct VarUse {
  enum KindT { Read, Write, Escape } Kind = Escape;
  Path P;                    ///< the field path written (Write)
  const Expr *Rhs = nullptr; ///< the value written (Write)
  const Stmt *Top = nullptr; ///< the assignment expression (Write)
};

bool isLoop(const Stmt *S) { return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

/// Evaluates launch-shape expressions; memoizes body scans per function.
class Evaluator {
public:
  explicit Evaluator(ASTContext &Ctx) : Ctx(Ctx) {}

  std::optional<uint64_t> evalInt(const Expr *E) {
    Steps = 0;
    return evalPath(E, {}, 0);
  }

  std::optional<std::array<uint64_t, 3>> evalDim3(const Expr *E) {
    std::array<std::optional<uint64_t>, 3> P = evalDim3Parts(E);
    if (!P[0] || !P[1] || !P[2])
      return std::nullopt;
    return std::array<uint64_t, 3>{*P[0], *P[1], *P[2]};
  }

  /// Each component of a dim3 (or an integer: x, with y = z = 1) that is a compile-time
  /// fact, also where another is not (`dim3 threads(n, 1, 1)` with a run-time n).
  std::array<std::optional<uint64_t>, 3> evalDim3Parts(const Expr *E) {
    std::array<std::optional<uint64_t>, 3> D;
    const char *Names[3] = {"x", "y", "z"};
    Steps = 0;
    const Expr *S = skipTemporaries(E);
    if (S && S->getType()->isIntegralOrEnumerationType())
      return {evalInt(S), uint64_t(1), uint64_t(1)};
    for (int I = 0; I < 3; ++I) {
      Path P{Names[I]};
      D[I] = evalPath(E, P, 0);
    }
    return D;
  }

  /// A top-level evaluation of field path P of variable V at the reference At.
  std::optional<uint64_t> evalField(const VarDecl *V, const Path &P, const Stmt *At) {
    Steps = 0;
    return evalVarPath(V, P, At, 0);
  }

  /// The value of field path P of variable V, as seen at the reference At.
  std::optional<uint64_t> evalVarPath(const VarDecl *V, const Path &P, const Stmt *At,
                                      unsigned Depth);

  /// The value of field path P of the value of E.
  std::optional<uint64_t> evalPath(const Expr *E, const Path &P, unsigned Depth);

  /// Parameters read as the arguments of one call (a launch followed from a launch
  /// helper to the call that names its kernel); empty: a parameter is unknown.
  llvm::DenseMap<const ParmVarDecl *, const Expr *> Bound;

  /// Joint sampling (jointLaunchSamples): when set, a run-time unknown the evaluation
  /// meets is given the value Leaf returns for it instead of ending the evaluation. An
  /// unknown is a parameter of the launching function or a global that the function never
  /// writes (one key, its declaration: every read of it is the same value), or else the
  /// innermost integer expression that does not evaluate for a reason of its own, such as
  /// a call or a load (its own key: two such reads may differ). Leaf gets the key and a
  /// printable name; it returns nullopt to end the evaluation.
  std::function<std::optional<uint64_t>(const std::string &Key, const std::string &Name)> Leaf;

  /// Where the integer at field path P of E comes from when it is no compile-time fact:
  /// the variable it is read from, followed through copies, dim3 constructors, struct
  /// fields set by a constructor, the initialisers of variables that are never written,
  /// and the parameters in Bound. Two expressions with the same source at one launch hold
  /// the same value there (block sizes and kernel arguments: LaunchSite::BlockParams).
  struct Source {
    const VarDecl *Var = nullptr;
    unsigned MinCastBits = 64; ///< the narrowest integer cast on the way
    bool ViaInit = false;      ///< read from a variable's initialiser, not the launch
  };
  Source sourceOf(const Expr *E, const Path &P) {
    Steps = 0;
    Source S;
    S.Var = sourceVar(E, P, 0, S);
    return S;
  }

private:
  static constexpr unsigned MaxDepth = 24;
  ASTContext &Ctx;
  llvm::DenseMap<const Decl *, std::unique_ptr<BodyScan>> Scans;
  /// (variable, use) pairs being evaluated: a write's value may read the variable at
  /// an earlier point, never at the same one.
  llvm::DenseSet<std::pair<const VarDecl *, const Stmt *>> InProgress;
  /// Work done by one top-level evaluation; past the budget the value is unknown.
  unsigned Steps = 0;
  static constexpr unsigned MaxSteps = 20000;

  const BodyScan *scanOf(const VarDecl *V) {
    const DeclContext *DC = V->getParentFunctionOrMethod();
    const auto *FD = dyn_cast_or_null<FunctionDecl>(DC);
    if (!FD || !FD->getBody())
      return nullptr;
    auto &Slot = Scans[FD];
    if (!Slot) {
      Slot = std::make_unique<BodyScan>();
      Slot->build(FD->getBody());
    }
    return Slot.get();
  }

  /// How the expression At (a variable's reference, or a field of one) is used.
  VarUse classify(const Expr *At, const BodyScan &S);
  bool dominatesStraightLine(const Stmt *Top, const Stmt *At, const BodyScan &S);
  bool harmlessAfter(const Stmt *Top, const Stmt *At, const BodyScan &S);
  std::optional<uint64_t> fromAPValue(const APValue &V, QualType T, const Path &P, size_t I);
  std::optional<uint64_t> evalCtorField(const CXXConstructExpr *CE, const Path &P, unsigned Depth);
  std::optional<uint64_t> evalScalarOp(const Expr *E, unsigned Depth);
  std::optional<uint64_t> evalArrayElement(const VarDecl *V, uint64_t K, const Stmt *At,
                                           unsigned Depth);
  std::optional<uint64_t> evalPathOf(const Expr *E, const Path &P, unsigned Depth);
  const VarDecl *sourceVar(const Expr *E, const Path &P, unsigned Depth, Source &S);
  /// Leaves met so far (joint sampling): an expression that fails after one was met
  /// fails for the values given, not for want of one.
  unsigned LeavesMet = 0;
  /// Joint sampling: `ctx->device_blocks`, `cfg.n` (a chain of fields over a variable of
  /// the function that it never writes, none of the fields written in it either: every
  /// read the same value): that variable and path as one unknown's key; empty otherwise.
  std::string memberKey(const Expr *X) {
    std::string Path;
    const Expr *E = X;
    std::vector<const FieldDecl *> Fields;
    while (auto *ME = dyn_cast<MemberExpr>(E)) {
      auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return "";
      Fields.push_back(FD);
      Path = (ME->isArrow() ? "->" : ".") + FD->getName().str() + Path;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    auto *DR = dyn_cast<DeclRefExpr>(E);
    auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (Fields.empty() || !V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
        !neverWritten(V))
      return "";
    const BodyScan *S = scanOf(V);
    if (!S || S->HasGoto)
      return "";
    for (const FieldDecl *FD : Fields) {
      auto It = S->Members.find(FD);
      if (It == S->Members.end())
        continue;
      for (const MemberExpr *ME : It->second)
        if (classify(ME, *S).Kind != VarUse::Read)
          return "";
    }
    return std::to_string(reinterpret_cast<uintptr_t>(V)) + Path;
  }

  std::optional<uint64_t> leafOf(const void *Key, std::string Name, const Path &P = {}) {
    std::string K = std::to_string(reinterpret_cast<uintptr_t>(Key));
    for (StringRef F : P) {
      K += "." + F.str();
      Name += "." + F.str();
    }
    return leafOf(std::move(K), std::move(Name));
  }
  std::optional<uint64_t> leafOf(std::string Key, std::string Name) {
    ++LeavesMet;
    return Leaf(Key, Name);
  }

public:
  /// Every reference to V in its function reads it (a local or parameter that keeps the
  /// value it starts with).
  bool neverWritten(const VarDecl *V);
};

/// A MemberExpr chain over a local variable: `cfg.blockDim.x` -> (cfg, [blockDim, x]).
const DeclRefExpr *asVarPath(const Expr *E, Path &Out) {
  Path Rev;
  E = skipTemporaries(E);
  while (auto *ME = dyn_cast_or_null<MemberExpr>(E)) {
    if (ME->isArrow())
      return nullptr;
    auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return nullptr;
    Rev.push_back(FD->getName());
    E = skipTemporaries(ME->getBase());
  }
  auto *DR = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DR || !isa<VarDecl>(DR->getDecl()))
    return nullptr;
  Out.assign(Rev.rbegin(), Rev.rend());
  return DR;
}

bool isPrefix(const Path &A, const Path &B) {
  if (A.size() > B.size())
    return false;
  return std::equal(A.begin(), A.end(), B.begin());
}

VarUse Evaluator::classify(const Expr *At, const BodyScan &S) {
  VarUse U;
  const Stmt *N = At;
  bool Selected = false; // an arm of an lvalue `c ? a : b`: only a read is followed
  while (true) {
    const Stmt *P = S.parent(N);
    if (!P)
      return U;
    if (isa<ParenExpr>(P)) {
      N = P;
      continue;
    }
    if (auto *CO = dyn_cast<ConditionalOperator>(P)) {
      // `(n < b) ? n : b` of two lvalues is an lvalue: what its use does, this arm may.
      if (CO->getCond() == N || !CO->isGLValue())
        return U;
      Selected = true;
      N = P;
      continue;
    }
    if (Selected && !isa<ImplicitCastExpr>(P))
      return U;
    if (auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue) {
        U.Kind = VarUse::Read;
        return U;
      }
      if (Selected)
        return U;
      if (IC->getCastKind() == CK_NoOp) { // adds const, or a no-op lvalue cast
        N = P;
        continue;
      }
      return U;
    }
    if (auto *ME = dyn_cast<MemberExpr>(P)) {
      if (ME->isArrow() || ME->getBase()->IgnoreParens() != N)
        return U;
      if (auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        U.P.push_back(F->getName());
        N = P;
        continue;
      }
      // A method: reading only if it is const and the call does not escape `this`.
      if (auto *M = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()); M && M->isConst())
        U.Kind = VarUse::Read;
      return U;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == N) {
        U.Kind = VarUse::Write;
        U.Rhs = BO->getRHS();
        U.Top = BO;
      }
      return U;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() != UO_AddrOf)
        return U;
      // &var handed on as a pointer to const: a read.
      const Stmt *PP = S.parent(UO);
      while (PP && isa<ParenExpr>(PP))
        PP = S.parent(PP);
      if (auto *IC = dyn_cast_or_null<ImplicitCastExpr>(PP))
        if (IC->getType()->isPointerType() && IC->getType()->getPointeeType().isConstQualified())
          U.Kind = VarUse::Read;
      return U;
    }
    if (auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      // A copy, or an argument bound to a reference to const (ggml's
      // `ggml_cuda_kernel_launch_params(grid_dims, block_dims, 0, stream)`): a read.
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor->isCopyConstructor())
        U.Kind = VarUse::Read;
      for (unsigned I = 0; I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I)
        if (CE->getArg(I)->IgnoreParens() == N) {
          QualType T = Ctor->getParamDecl(I)->getType();
          if (T->isReferenceType() && T.getNonReferenceType().isConstQualified())
            U.Kind = VarUse::Read;
        }
      return U;
    }
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          OC->getArg(0)->IgnoreParens() == N) {
        U.Kind = VarUse::Write;
        U.Rhs = OC->getArg(1);
        U.Top = OC;
        return U;
      }
    }
    if (auto *Call = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return U;
      unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        if (Call->getArg(I)->IgnoreParens() != N)
          continue;
        if (Offset && I == 0) {
          if (cast<CXXMethodDecl>(Callee)->isConst())
            U.Kind = VarUse::Read;
          return U;
        }
        unsigned PI = I - Offset;
        if (PI < Callee->getNumParams()) {
          QualType T = Callee->getParamDecl(PI)->getType();
          if (T->isReferenceType() && T.getNonReferenceType().isConstQualified())
            U.Kind = VarUse::Read;
        }
        return U;
      }
      return U;
    }
    return U;
  }
}

/// Top is a statement of a compound that encloses At and comes before it, with no label
/// or case in between: it runs before At every time At runs.
bool Evaluator::dominatesStraightLine(const Stmt *Top, const Stmt *At, const BodyScan &S) {
  const Stmt *W = Top;
  while (const Stmt *P = S.parent(W)) {
    if (!isa<ExprWithCleanups>(P))
      break;
    W = P;
  }
  const auto *C = dyn_cast_or_null<CompoundStmt>(S.parent(W));
  if (!C)
    return false;
  const Stmt *B = At;
  while (B && S.parent(B) != C)
    B = S.parent(B);
  if (!B || B == W)
    return false;
  bool Seen = false;
  for (const Stmt *Child : C->body()) {
    if (Child == W) {
      Seen = true;
      continue;
    }
    if (Seen && isa<SwitchCase, LabelStmt>(Child))
      return false;
    if (Child == B)
      return Seen;
  }
  return false;
}

/// Top comes after At in the source and no loop holds both: it cannot change At's value.
bool Evaluator::harmlessAfter(const Stmt *Top, const Stmt *At, const BodyScan &S) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(At->getEndLoc(), Top->getBeginLoc()))
    return false;
  for (const Stmt *A = S.parent(At); A; A = S.parent(A))
    if ((isLoop(A) || isa<LambdaExpr>(A)) && S.isAncestor(A, Top))
      return false;
  return true;
}

std::optional<uint64_t> Evaluator::evalVarPath(const VarDecl *V, const Path &P, const Stmt *At,
                                               unsigned Depth) {
  if (auto *PV = dyn_cast_or_null<ParmVarDecl>(V); PV && Depth <= MaxDepth)
    if (auto It = Bound.find(PV); It != Bound.end())
      return evalPath(It->second, P, Depth + 1);
  // Joint sampling: a parameter or a global integer read as it is, or an integer field of
  // one (`grid.x` of a dim3 parameter).
  bool Unknown = Leaf && V && !V->getType()->isReferenceType() &&
                 (P.empty() ? V->getType()->isIntegerType() : V->getType()->isRecordType());
  if (!V || Depth > MaxDepth || (isa<ParmVarDecl>(V) && !Unknown) ||
      V->getType()->isReferenceType())
    return std::nullopt;
  bool IsConst = V->getType().isConstQualified() || V->isConstexpr();
  if (!V->hasLocalStorage() || V->isStaticLocal()) {
    if (IsConst && V->getInit())
      return evalPath(V->getInit(), P, Depth + 1);
    if (Unknown && !IsConst && V->isStaticLocal())
      return std::nullopt; // a static local may change between calls and reads
    return Unknown ? leafOf(V, V->getNameAsString(), P) : std::nullopt;
  }
  if (Unknown && isa<ParmVarDecl>(V) && neverWritten(V))
    return leafOf(V, V->getNameAsString(), P);
  if (IsConst)
    return V->getInit() ? evalPath(V->getInit(), P, Depth + 1) : std::nullopt;
  const BodyScan *S = scanOf(V);
  if (!S || S->CapturedByRef.count(V) || InProgress.count({V, At}))
    return std::nullopt;
  const VarUse *Last = nullptr;
  llvm::SmallVector<VarUse, 4> Writes;
  auto It = S->Uses.find(V);
  if (It != S->Uses.end()) {
    Writes.reserve(It->second.size());
    for (const DeclRefExpr *DR : It->second) {
      VarUse U = classify(DR, *S);
      if (U.Kind == VarUse::Read)
        continue;
      if (U.Kind == VarUse::Escape)
        return std::nullopt;
      if (!isPrefix(U.P, P) && !isPrefix(P, U.P))
        continue; // another field
      if (S->HasGoto)
        return std::nullopt; // a goto may skip a write or run a later one first
      if (S->isAncestor(U.Rhs, At))
        continue; // `t = t * 2` reads t before it writes it
      if (dominatesStraightLine(U.Top, At, *S)) {
        Writes.push_back(U);
        continue;
      }
      if (harmlessAfter(U.Top, At, *S))
        continue;
      return std::nullopt;
    }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (const VarUse &W : Writes)
    if (!Last || SM.isBeforeInTranslationUnit(Last->Top->getBeginLoc(), W.Top->getBeginLoc()))
      Last = &W;
  InProgress.insert({V, At});
  std::optional<uint64_t> R;
  if (Last) {
    if (isPrefix(Last->P, P)) {
      Path Rest(P.begin() + Last->P.size(), P.end());
      R = evalPath(Last->Rhs, Rest, Depth + 1);
    }
  } else if (isa<ParmVarDecl>(V)) {
    // Joint sampling, a parameter written later but not before At: its value on entry
    // (getInit of a parameter is its default argument, not its value).
    R = leafOf(V, V->getNameAsString(), P);
  } else if (const Expr *Init = V->getInit()) {
    R = evalPath(Init, P, Depth + 1);
  }
  InProgress.erase({V, At});
  return R;
}

std::optional<uint64_t> Evaluator::fromAPValue(const APValue &V, QualType T, const Path &P,
                                               size_t I) {
  if (I == P.size()) {
    if (V.isInt()) {
      const llvm::APSInt &N = V.getInt();
      if (N.isSigned() && N.isNegative())
        return std::nullopt;
      if (N.getActiveBits() > 64)
        return std::nullopt;
      return N.getZExtValue();
    }
    return std::nullopt;
  }
  const auto *RD = T->getAsRecordDecl();
  if (!RD || !V.isStruct())
    return std::nullopt;
  for (const FieldDecl *F : RD->fields())
    if (F->getName() == P[I]) {
      unsigned Idx = F->getFieldIndex();
      if (Idx >= V.getStructNumFields())
        return std::nullopt;
      return fromAPValue(V.getStructField(Idx), F->getType(), P, I + 1);
    }
  return std::nullopt;
}

/// The value a constructor's member initialiser stores, as written: `x(vx)`, `x{vx}`, and
/// through the copy of a class-typed field (`b(b_)` copies the argument).
static const Expr *initialiserValue(const CXXCtorInitializer *Init) {
  const Expr *IE = Init->getInit();
  if (auto *PL = dyn_cast<ParenListExpr>(IE); PL && PL->getNumExprs() == 1)
    IE = PL->getExpr(0);
  IE = IE->IgnoreParenImpCasts();
  if (auto *Copy = dyn_cast<CXXConstructExpr>(IE);
      Copy && Copy->getNumArgs() == 1 && (Copy->getConstructor()->isCopyConstructor() ||
                                          Copy->getConstructor()->isMoveConstructor()))
    IE = Copy->getArg(0)->IgnoreParenImpCasts();
  return IE;
}

std::optional<uint64_t> Evaluator::evalCtorField(const CXXConstructExpr *CE, const Path &P,
                                                 unsigned Depth) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if ((Ctor->isCopyConstructor() || Ctor->isMoveConstructor()) && CE->getNumArgs() >= 1)
    return evalPath(CE->getArg(0), P, Depth + 1);
  if (P.empty())
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!Ctor->isDefined(Def))
    return std::nullopt;
  const auto *CD = cast<CXXConstructorDecl>(Def);
  for (const CXXCtorInitializer *Init : CD->inits()) {
    const FieldDecl *F = Init->getMember();
    if (!F || F->getName() != P[0])
      continue;
    Path Rest(P.begin() + 1, P.end());
    const Expr *IE = initialiserValue(Init);
    // x(vx): the constructor's argument; x(v.x): a field of an argument.
    Path Sub;
    if (auto *DR = asVarPath(IE, Sub))
      if (auto *Parm = dyn_cast<ParmVarDecl>(DR->getDecl())) {
        unsigned Idx = Parm->getFunctionScopeIndex();
        if (Idx >= CE->getNumArgs())
          return std::nullopt;
        Sub.append(Rest.begin(), Rest.end());
        return evalPath(CE->getArg(Idx), Sub, Depth + 1);
      }
    if (isa<CXXDefaultInitExpr>(Init->getInit()) || !IE->isValueDependent())
      return evalPath(Init->getInit(), Rest, Depth + 1);
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<uint64_t> Evaluator::evalScalarOp(const Expr *E, unsigned Depth) {
  using U64 = uint64_t;
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return std::nullopt;
    auto L = evalPath(BO->getLHS(), {}, Depth + 1);
    if (!L)
      return std::nullopt;
    if (BO->getOpcode() == BO_LAnd && *L == 0)
      return 0;
    if (BO->getOpcode() == BO_LOr && *L != 0)
      return 1;
    auto R = evalPath(BO->getRHS(), {}, Depth + 1);
    if (!R)
      return std::nullopt;
    U64 A = *L, B = *R, Out = 0;
    switch (BO->getOpcode()) {
    case BO_Add:
      if (__builtin_add_overflow(A, B, &Out))
        return std::nullopt;
      return Out;
    case BO_Sub:
      if (A < B)
        return std::nullopt;
      return A - B;
    case BO_Mul:
      if (__builtin_mul_overflow(A, B, &Out))
        return std::nullopt;
      return Out;
    case BO_Div:
      return B == 0 ? std::nullopt : std::optional<U64>(A / B);
    case BO_Rem:
      return B == 0 ? std::nullopt : std::optional<U64>(A % B);
    case BO_Shl:
      if (B >= 64 || (A >> (63 - B)) > 1)
        return std::nullopt;
      return A << B;
    case BO_Shr:
      return B >= 64 ? 0 : A >> B;
    case BO_And:
      return A & B;
    case BO_Or:
      return A | B;
    case BO_Xor:
      return A ^ B;
    case BO_LT:
      return U64(A < B);
    case BO_GT:
      return U64(A > B);
    case BO_LE:
      return U64(A <= B);
    case BO_GE:
      return U64(A >= B);
    case BO_EQ:
      return U64(A == B);
    case BO_NE:
      return U64(A != B);
    case BO_LAnd:
    case BO_LOr:
      return U64(B != 0);
    default:
      return std::nullopt;
    }
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    auto V = evalPath(UO->getSubExpr(), {}, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (UO->getOpcode()) {
    case UO_Plus:
      return V;
    case UO_LNot:
      return U64(*V == 0);
    case UO_Minus:
      return *V == 0 ? std::optional<U64>(0) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evalPath(CO->getCond(), {}, Depth + 1);
    if (!C)
      return std::nullopt;
    return evalPath(*C ? CO->getTrueExpr() : CO->getFalseExpr(), {}, Depth + 1);
  }
  if (auto *Call = dyn_cast<CallExpr>(E)) {
    // min/max of known values (std::min, ::min, fminf excluded): common in block sizing.
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getIdentifier() && Call->getNumArgs() == 2 &&
        (FD->getName() == "min" || FD->getName() == "max")) {
      auto A = evalPath(Call->getArg(0), {}, Depth + 1);
      auto B = evalPath(Call->getArg(1), {}, Depth + 1);
      if (!A || !B)
        return std::nullopt;
      return FD->getName() == "min" ? std::min(*A, *B) : std::max(*A, *B);
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> Evaluator::evalPath(const Expr *E, const Path &P, unsigned Depth) {
  if (!Leaf)
    return evalPathOf(E, P, Depth);
  unsigned Before = LeavesMet;
  std::optional<uint64_t> R = evalPathOf(E, P, Depth);
  // Joint sampling: an integer that fails on its own (a call, a load, a variable written
  // where it cannot be followed) is an unknown; one that fails for the values its
  // unknowns were given (a subtraction below zero) fails.
  if (R || LeavesMet != Before || !P.empty() || !E || Depth > MaxDepth || Steps > MaxSteps ||
      E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return R;
  const Expr *X = E->IgnoreParenImpCasts();
  std::string Name;
  if (auto *DR = dyn_cast<DeclRefExpr>(X))
    Name = DR->getDecl()->getNameAsString();
  else
    Name = exprText(X, Ctx);
  if (std::string Key = memberKey(X); !Key.empty())
    return leafOf(std::move(Key), std::move(Name));
  return leafOf(E, Name);
}

std::optional<uint64_t> Evaluator::evalPathOf(const Expr *E, const Path &P, unsigned Depth) {
  if (!E || Depth > MaxDepth || ++Steps > MaxSteps || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  // Whatever clang's constant evaluator folds: literals, macros, constexpr, const locals,
  // constexpr constructors and functions with constant arguments.
  if (P.empty()) {
    if (E->getType()->isIntegralOrEnumerationType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, Ctx))
        return fromAPValue(R.Val, E->getType(), P, 0);
    }
  } else if (E->getType()->isRecordType() && E->isPRValue()) {
    Expr::EvalResult R;
    if (E->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects)
      if (auto V = fromAPValue(R.Val, E->getType(), P, 0))
        return V;
  }
  const Expr *S = skipTemporaries(E);
  if (S != E)
    return evalPath(S, P, Depth + 1);
  E = E->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(E))
    return 0;
  if (auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_ConstructorConversion:
    case CK_IntegralCast: {
      auto V = evalPath(CE->getSubExpr(), P, Depth + 1);
      if (V && P.empty() && CE->getType()->isIntegerType()) {
        unsigned Bits = Ctx.getIntWidth(CE->getType());
        if (Bits < 64 && (*V >> Bits) != 0)
          return std::nullopt; // truncated: leave it to the constant evaluator
      }
      return V;
    }
    default:
      return std::nullopt;
    }
  }
  Path Sub;
  if (auto *DR = asVarPath(E, Sub)) {
    Sub.append(P.begin(), P.end());
    return evalVarPath(cast<VarDecl>(DR->getDecl()), Sub, DR, Depth + 1);
  }
  if (auto *CE = dyn_cast<CXXConstructExpr>(E))
    return evalCtorField(CE, P, Depth);
  if (auto *IL = dyn_cast<InitListExpr>(E)) {
    if (IL->isSyntacticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    if (P.empty()) {
      if (IL->getNumInits() == 1 && IL->getType()->isScalarType())
        return evalPath(IL->getInit(0), P, Depth + 1);
      return std::nullopt;
    }
    const auto *RD = IL->getType()->getAsRecordDecl();
    if (!RD)
      return std::nullopt;
    Path Rest(P.begin() + 1, P.end());
    if (RD->isUnion()) {
      const FieldDecl *F = IL->getInitializedFieldInUnion();
      if (F && F->getName() == P[0] && IL->getNumInits() == 1)
        return evalPath(IL->getInit(0), Rest, Depth + 1);
      return std::nullopt;
    }
    if (auto *CXXRD = dyn_cast<CXXRecordDecl>(RD); CXXRD && CXXRD->getNumBases())
      return std::nullopt;
    for (const FieldDecl *F : RD->fields())
      if (F->getName() == P[0]) {
        unsigned Idx = F->getFieldIndex();
        if (Idx >= IL->getNumInits())
          return std::nullopt;
        return evalPath(IL->getInit(Idx), Rest, Depth + 1);
      }
    return std::nullopt;
  }
  // `a[k]` of a local array of integers at a constant k: the element as a local scalar
  // is read (`dim3 block(sz[0], sz[1])` with `sz[0] = 16; sz[1] = 4;` before it).
  if (auto *ASE = dyn_cast<ArraySubscriptExpr>(E); ASE && P.empty())
    if (auto *DR = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->getType()->isConstantArrayType()) {
        std::optional<uint64_t> K = evalPath(ASE->getIdx(), {}, Depth + 1);
        return K ? evalArrayElement(V, *K, ASE, Depth + 1) : std::nullopt;
      }
  if (P.empty())
    return evalScalarOp(E, Depth);
  if (auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evalPath(CO->getCond(), {}, Depth + 1);
    if (!C)
      return std::nullopt;
    return evalPath(*C ? CO->getTrueExpr() : CO->getFalseExpr(), P, Depth + 1);
  }
  return std::nullopt;
}

/// Element K of a local array of integers V as the read At sees it, by the rules of a local
/// scalar (evalVarPath): the last write `V[k] = e` (k a constant equal to K) that runs
/// before At on every path, else the initialiser's element (0 past the listed ones); any
/// other use of V (the array passed on, its address taken, an element written at an index
/// that is not a constant, or written by `+=`, `++` or a reference) leaves it unknown.
std::optional<uint64_t> Evaluator::evalArrayElement(const VarDecl *V, uint64_t K, const Stmt *At,
                                                    unsigned Depth) {
  if (!V || Depth > MaxDepth || !V->hasLocalStorage() || V->isStaticLocal() ||
      isa<ParmVarDecl>(V))
    return std::nullopt;
  const auto *CAT = Ctx.getAsConstantArrayType(V->getType());
  if (!CAT || !CAT->getElementType()->isIntegerType() || K >= CAT->getSize().getZExtValue())
    return std::nullopt;
  const BodyScan *S = scanOf(V);
  if (!S || S->HasGoto || S->CapturedByRef.count(V) || InProgress.count({V, At}))
    return std::nullopt;
  struct Write {
    const Stmt *Top;
    const Expr *Rhs;
  };
  llvm::SmallVector<Write, 4> Writes;
  auto Up = [&](const Stmt *N) {
    const Stmt *P = S->parent(N);
    while (P && (isa<ParenExpr>(P) ||
                 (isa<ImplicitCastExpr>(P) &&
                  (cast<ImplicitCastExpr>(P)->getCastKind() == CK_ArrayToPointerDecay ||
                   cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)))) {
      N = P;
      P = S->parent(N);
    }
    return std::make_pair(N, P);
  };
  InProgress.insert({V, At});
  auto Done = [&](std::optional<uint64_t> R) {
    InProgress.erase({V, At});
    return R;
  };
  if (auto It = S->Uses.find(V); It != S->Uses.end())
    for (const DeclRefExpr *DR : It->second) {
      auto [N, P] = Up(DR);
      if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
        continue; // sizeof(a)
      auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
      if (!ASE || ASE->getBase()->IgnoreParenImpCasts() != DR)
        return Done(std::nullopt); // the array handed on or its address taken
      auto [E, Q] = Up(ASE);
      auto *IC = dyn_cast_or_null<ImplicitCastExpr>(Q);
      if (IC && IC->getCastKind() == CK_LValueToRValue)
        continue; // a read
      if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(Q))
        continue;
      auto *BO = dyn_cast_or_null<BinaryOperator>(Q);
      bool Plain = BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == E;
      if (S->isAncestor(ASE, At))
        continue; // At itself
      std::optional<uint64_t> I = evalPath(ASE->getIdx(), {}, Depth + 1);
      if (!I)
        return Done(std::nullopt); // a write (or an escape) at an index not known
      if (*I != K)
        continue;
      if (!Plain)
        return Done(std::nullopt); // `a[k] += v`, `&a[k]`, a reference: not followed
      if (S->isAncestor(BO->getRHS(), At))
        continue; // `a[k] = a[k] * 2` reads a[k] before it writes it
      if (dominatesStraightLine(BO, At, *S)) {
        Writes.push_back({BO, BO->getRHS()});
        continue;
      }
      if (harmlessAfter(BO, At, *S))
        continue;
      return Done(std::nullopt);
    }
  const SourceManager &SM = Ctx.getSourceManager();
  const Write *Last = nullptr;
  for (const Write &W : Writes)
    if (!Last || SM.isBeforeInTranslationUnit(Last->Top->getBeginLoc(), W.Top->getBeginLoc()))
      Last = &W;
  if (Last)
    return Done(evalPath(Last->Rhs, {}, Depth + 1));
  const auto *IL = dyn_cast_or_null<InitListExpr>(V->getInit());
  if (IL && IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  if (!IL)
    return Done(std::nullopt); // no initialiser: not known
  if (K >= IL->getNumInits())
    return Done(IL->hasArrayFiller() || K < CAT->getSize().getZExtValue() ? std::optional<uint64_t>(0)
                                                                           : std::nullopt);
  return Done(evalPath(IL->getInit(unsigned(K)), {}, Depth + 1));
}

bool Evaluator::neverWritten(const VarDecl *V) {
  if (V->getType().isConstQualified() || V->isConstexpr())
    return true;
  if (!V->hasLocalStorage() || V->getType()->isReferenceType())
    return false;
  const BodyScan *S = scanOf(V);
  if (!S || S->CapturedByRef.count(V))
    return false;
  auto It = S->Uses.find(V);
  if (It == S->Uses.end())
    return true;
  return llvm::all_of(It->second, [&](const DeclRefExpr *DR) {
    return classify(DR, *S).Kind == VarUse::Read;
  });
}

const VarDecl *Evaluator::sourceVar(const Expr *E, const Path &P, unsigned Depth, Source &S) {
  if (!E || Depth > MaxDepth || ++Steps > MaxSteps || E->isValueDependent())
    return nullptr;
  const Expr *T = skipTemporaries(E);
  if (T != E)
    return sourceVar(T, P, Depth + 1, S);
  E = E->IgnoreParens();
  if (auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_IntegralCast:
      if (!CE->getType()->isIntegerType())
        return nullptr;
      S.MinCastBits = std::min<unsigned>(S.MinCastBits, Ctx.getIntWidth(CE->getType()));
      [[fallthrough]];
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_ConstructorConversion:
      return sourceVar(CE->getSubExpr(), P, Depth + 1, S);
    default:
      return nullptr;
    }
  }
  // std::forward<Args>(args)... and std::move: the argument itself.
  if (auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->isInStdNamespace() && FD->getIdentifier() && Call->getNumArgs() == 1 &&
        (FD->getName() == "forward" || FD->getName() == "move"))
      return sourceVar(Call->getArg(0), P, Depth + 1, S);
    return nullptr;
  }
  Path Sub;
  if (auto *DR = asVarPath(E, Sub)) {
    Sub.append(P.begin(), P.end());
    const auto *V = cast<VarDecl>(DR->getDecl());
    if (auto *PV = dyn_cast<ParmVarDecl>(V))
      if (auto It = Bound.find(PV); It != Bound.end())
        return sourceVar(It->second, Sub, Depth + 1, S);
    bool Integer = Sub.empty() && V->getType().getNonReferenceType()->isIntegerType();
    if (isa<ParmVarDecl>(V))
      return Integer ? V : nullptr; // (its init is a default argument)
    if (V->getType()->isReferenceType() || !neverWritten(V))
      return Integer && V->hasLocalStorage() ? V : nullptr;
    // A variable that keeps its initialiser: its source if it copies another, else itself.
    if (const Expr *Init = V->getInit()) {
      Source Inner = S;
      Inner.ViaInit = true;
      if (const VarDecl *From = sourceVar(Init, Sub, Depth + 1, Inner)) {
        S = Inner;
        return From;
      }
    }
    return Integer ? V : nullptr;
  }
  if (auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if ((Ctor->isCopyConstructor() || Ctor->isMoveConstructor()) && CE->getNumArgs() >= 1)
      return sourceVar(CE->getArg(0), P, Depth + 1, S);
    const FunctionDecl *Def = nullptr;
    if (P.empty() || !Ctor->isDefined(Def))
      return nullptr;
    // x(vx): the constructor's argument for the field (dim3's, ggml's launch struct's).
    for (const CXXCtorInitializer *Init : cast<CXXConstructorDecl>(Def)->inits()) {
      const FieldDecl *F = Init->getMember();
      if (!F || F->getName() != P[0])
        continue;
      const Expr *IE = initialiserValue(Init);
      Path Field;
      auto *DR = asVarPath(IE, Field);
      auto *Parm = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      if (!Parm || Parm->getFunctionScopeIndex() >= CE->getNumArgs())
        return nullptr;
      // The field's own type narrows the value as the initialiser stores it.
      if (F->getType()->isIntegerType())
        S.MinCastBits = std::min<unsigned>(S.MinCastBits, Ctx.getIntWidth(F->getType()));
      Field.append(P.begin() + 1, P.end());
      return sourceVar(CE->getArg(Parm->getFunctionScopeIndex()), Field, Depth + 1, S);
    }
    return nullptr;
  }
  return nullptr;
}

// --- Collection ---------------------------------------------------------------------

StringRef baseApiName(StringRef N) {
  if (N.consume_back("_ptsz") || N.consume_back("_ptds"))
    return N;
  return N;
}

const FunctionDecl *resolveKernel(const Expr *E, unsigned Depth = 0);

/// The values a local function-pointer variable of Fn's body can hold: its initialiser and
/// the right-hand sides of its plain assignments. False when the variable may change some
/// other way (its address taken, a reference bound to it, ++, a compound assignment).
class LocalWrites : public RecursiveASTVisitor<LocalWrites> {
public:
  explicit LocalWrites(const VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (refersToV(B->getLHS())) {
      if (B->getOpcode() == BO_Assign) {
        Values.push_back(B->getRHS());
        Handled.insert(B->getLHS()->IgnoreParens());
      }
    }
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue && refersToV(C->getSubExpr()))
      Handled.insert(C->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == V)
      Refs.push_back(D);
    return true;
  }
  /// Every reference a read or the left side of a plain assignment.
  bool onlyReadsAndAssignments() const {
    return llvm::all_of(Refs, [&](const DeclRefExpr *D) { return Handled.count(D); });
  }
  std::vector<const Expr *> Values;

private:
  bool refersToV(const Expr *E) const {
    auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return D && D->getDecl() == V;
  }
  const VarDecl *V;
  std::vector<const DeclRefExpr *> Refs;
  llvm::DenseSet<const Expr *> Handled;
};

/// The kernels a local function-pointer variable (`fattn_kernel_t k = flash_attn_tile<...>;`,
/// or assigned on each path, or transpose's `kernel = &copy;` in each case of a switch)
/// can hold: every value it is given resolves to a kernel or a function (each once, in
/// the order written). Empty when one does not, or when the variable may change some
/// other way.
std::vector<const FunctionDecl *> kernelsOfLocal(const VarDecl *V, unsigned Depth) {
  if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      !V->getType()->isFunctionPointerType() || Depth > 2)
    return {};
  auto *Fn = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!Fn || !Fn->hasBody())
    return {};
  LocalWrites W(V);
  W.TraverseStmt(Fn->getBody());
  if (!W.onlyReadsAndAssignments())
    return {};
  if (const Expr *Init = V->getInit())
    W.Values.insert(W.Values.begin(), Init);
  std::vector<const FunctionDecl *> Held;
  for (const Expr *E : W.Values) {
    const FunctionDecl *K = resolveKernel(E, Depth + 1);
    if (!K)
      return {};
    if (llvm::none_of(Held, [&](const FunctionDecl *H) {
          return H->getCanonicalDecl() == K->getCanonicalDecl();
        }))
      Held.push_back(K);
  }
  return Held;
}

/// A local function-pointer variable that only ever holds one kernel: that kernel.
const FunctionDecl *kernelOfLocal(const VarDecl *V, unsigned Depth) {
  std::vector<const FunctionDecl *> Held = kernelsOfLocal(V, Depth);
  return Held.size() == 1 ? Held[0] : nullptr;
}

/// The local function-pointer variable a launch's function argument names (`kernel`,
/// `(void *)kernel`), and the kernels it can hold when that is more than one, each a
/// kernel (__global__); none otherwise.
std::pair<const VarDecl *, std::vector<const FunctionDecl *>> kernelsOfPointer(const Expr *E) {
  for (unsigned I = 0; E && I < 16; ++I) {
    E = E->IgnoreParenImpCasts();
    if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    break;
  }
  auto *DR = dyn_cast_or_null<DeclRefExpr>(E);
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  std::vector<const FunctionDecl *> Held = kernelsOfLocal(V, 0);
  if (Held.size() < 2 || llvm::any_of(Held, [](const FunctionDecl *K) {
        return !K->hasAttr<CUDAGlobalAttr>();
      }))
    return {nullptr, {}};
  return {V, std::move(Held)};
}

/// The kernel a launch's function argument names: k, &k, (void*)k, k<T>, or a local
/// function-pointer variable that only ever holds one kernel.
const FunctionDecl *resolveKernel(const Expr *E, unsigned Depth) {
  for (unsigned I = 0; E && I < 16; ++I) {
    E = E->IgnoreParenImpCasts();
    if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      E = CE->getSubExpr();
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
        return FD;
      return kernelOfLocal(dyn_cast<VarDecl>(DR->getDecl()), Depth);
    }
    return nullptr;
  }
  return nullptr;
}

std::string nameOf(const FunctionDecl *FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP(FD->getASTContext().getLangOpts());
  PP.SuppressUnwrittenScope = true;
  FD->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return S;
}

/// "launch<128>" when FD is, or is inside, a template instantiation.
std::string instantiationOf(const FunctionDecl *FD) {
  for (const DeclContext *DC = FD; DC; DC = DC->getParent()) {
    if (auto *F = dyn_cast<FunctionDecl>(DC))
      if (F->isTemplateInstantiation())
        return nameOf(F);
    if (auto *R = dyn_cast<ClassTemplateSpecializationDecl>(DC)) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      PrintingPolicy PP(R->getASTContext().getLangOpts());
      R->getNameForDiagnostic(OS, PP, /*Qualified=*/true);
      return S;
    }
  }
  return "";
}

/// `__maxnreg__(N)` is not a clang attribute: find it in the declaration's tokens.
std::optional<uint64_t> maxNRegOf(const FunctionDecl *FD) {
  const ASTContext &Ctx = FD->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc());
  for (const Attr *A : FD->attrs()) {
    if (A->isInherited() || A->isImplicit())
      continue;
    SourceLocation L = SM.getExpansionLoc(A->getLocation());
    if (L.isValid() && SM.getFileID(L) == SM.getFileID(Begin) &&
        SM.isBeforeInTranslationUnit(L, Begin))
      Begin = L;
  }
  SourceLocation End = FD->getBody() ? SM.getExpansionLoc(FD->getBody()->getBeginLoc())
                                     : SM.getExpansionLoc(FD->getEndLoc());
  if (Begin.isInvalid() || End.isInvalid() || SM.getFileID(Begin) != SM.getFileID(End))
    return std::nullopt;
  StringRef Text =
      Lexer::getSourceText(CharSourceRange::getCharRange(Begin, End), SM, Ctx.getLangOpts());
  size_t Pos = Text.find("__maxnreg__");
  if (Pos == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Text.substr(Pos + strlen("__maxnreg__")).ltrim();
  if (!Rest.consume_front("("))
    return std::nullopt;
  Rest = Rest.ltrim();
  uint64_t N = 0;
  if (Rest.consumeInteger(0, N))
    return std::nullopt;
  if (!Rest.ltrim().starts_with(")"))
    return std::nullopt;
  return N;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, const FactsOptions &Opts, TUFacts &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Opts(Opts), Out(Out), Eval(Ctx),
        Mangler(Ctx.createMangleContext()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && !Opts.IncludeSystemHeaders &&
        inSystemHeader(D->getLocation()))
      return true;
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (FD)
      Stack.push_back(FD);
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Stack.pop_back();
    return R;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    Stack.push_back(LE->getCallOperator());
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    Stack.pop_back();
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext() && !FD->isInvalidDecl())
      kernelIndex(FD);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (!enclosingOk(E))
      return true;
    const CallExpr *Config = E->getConfig();
    // ROCm's hipLaunchKernelGGL macro expands to a triple-chevron launch.
    LaunchApi Api = LaunchApi::TripleChevron;
    if (Out.Hip && E->getBeginLoc().isMacroID() &&
        macroNameAt(E->getBeginLoc()) == "hipLaunchKernelGGL")
      Api = LaunchApi::LaunchKernelGGL;
    LaunchSite L = start(E, Api, E->getCallee());
    // __cudaPushCallConfiguration / cudaConfigureCall(grid, block, smem, stream); a
    // device-side launch (-fgpu-rdc) is cudaLaunchDevice(func, params, grid, block, ...).
    unsigned First = 0;
    if (Config && Config->getDirectCallee() && Config->getDirectCallee()->getIdentifier() &&
        Config->getDirectCallee()->getName() == "cudaLaunchDevice")
      First = 2;
    Forwarded F;
    if (Config && Config->getNumArgs() >= First + 2) {
      L.Grid = shape(Config->getArg(First));
      L.Block = shape(Config->getArg(First + 1));
      F.Grid = Config->getArg(First);
      F.Block = Config->getArg(First + 1);
      if (Config->getNumArgs() >= First + 3) {
        L.DynamicSmem = bytes(Config->getArg(First + 2));
        F.Smem = Config->getArg(First + 2);
      }
    }
    // `kernel<<<...>>>` on a parameter of the enclosing function (a launch helper such as
    // ggml's ggml_cuda_kernel_launch): followed to the calls that name the kernel.
    F.Param = L.Kernel ? nullptr : kernelParam(E->getCallee(), L.Enclosing);
    if (F.Block && (L.Kernel || L.Candidates))
      L.BlockParams = blockParams(E, F.Block);
    size_t Before = Out.Launches.size();
    finish(std::move(L));
    if (!F.Param)
      noteCallerShape(Before, F.Grid, F.Block, F.Smem);
    if (F.Param) {
      F.Index = Out.Launches.size() - 1;
      Forwards.push_back(F);
    }
    return true;
  }

  /// Every reference to a function in user code: a call's callee, an argument handed to
  /// a function that calls it through its parameter (ArgRefs), or else an address that
  /// escapes (finalize: Out.Escapes).
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (auto *F = dyn_cast<FunctionDecl>(D->getDecl()))
      FunctionRefs.push_back({D, F});
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *F = E->getDirectCallee())
      Out.CallsOf[F->getCanonicalDecl()].push_back({E, Stack.empty() ? nullptr : Stack.back()});
    if (auto *DR = dyn_cast<DeclRefExpr>(E->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(DR);
    // A call through a function-pointer parameter of the enclosing function (a benchmark
    // template's `kernel(std::forward<Args>(args)...)`).
    if (!Stack.empty() && !Stack.back()->isDependentContext())
      if (const ParmVarDecl *P = kernelParam(E->getCallee(), Stack.back()))
        PointerCalls[Stack.back()->getCanonicalDecl()].push_back(
            {E, P->getFunctionScopeIndex()});
    // A function handed to a call as an argument (`benchmark(reps, forward, ...)`).
    if (const FunctionDecl *G = E->getDirectCallee())
      for (unsigned I = 0; I < E->getNumArgs(); ++I) {
        const Expr *A = E->getArg(I)->IgnoreParenImpCasts();
        if (auto *U = dyn_cast<UnaryOperator>(A); U && U->getOpcode() == UO_AddrOf)
          A = U->getSubExpr()->IgnoreParenImpCasts();
        if (auto *DR = dyn_cast<DeclRefExpr>(A); DR && isa<FunctionDecl>(DR->getDecl()))
          ArgRefs[DR] = {G, I};
      }
    if (isa<CUDAKernelCallExpr>(E))
      return true;
    const FunctionDecl *Callee = E->getDirectCallee();
    if (Callee && !isa<CXXOperatorCallExpr>(E) && !Stack.empty() &&
        !Stack.back()->isDependentContext() && !E->containsErrors() &&
        llvm::any_of(Callee->parameters(), [](const ParmVarDecl *P) {
          return P->getType()->isFunctionPointerType();
        }))
      CallsTo[Callee->getCanonicalDecl()].push_back({E, Stack.back()});
    if (!Callee || !Callee->getIdentifier())
      return true;
    StringRef Name = baseApiName(Callee->getName());
    if (!Name.starts_with("cuda") && !Name.starts_with("hip"))
      return true;
    if (!enclosingOk(E))
      return true;
    // The HIP runtime's launch API has the CUDA one's arguments under its own names.
    std::string CudaName;
    if (Name.consume_front("hip")) {
      if (Name == "LaunchKernelGGL" || Name == "ExtLaunchKernelGGL") {
        // (kernel, grid, block, smem, stream, ...)
        if (E->getNumArgs() < 5)
          return true;
        LaunchSite L = start(E,
                             Name == "LaunchKernelGGL" ? LaunchApi::LaunchKernelGGL
                                                       : LaunchApi::ExtLaunchKernelGGL,
                             E->getArg(0));
        L.Grid = shape(E->getArg(1));
        L.Block = shape(E->getArg(2));
        L.DynamicSmem = bytes(E->getArg(3));
        size_t First = Out.Launches.size();
        finish(std::move(L));
        noteCallerShape(First, E->getArg(1), E->getArg(2), E->getArg(3));
        return true;
      }
      if (Name == "ExtLaunchKernel")
        Name = "LaunchKernel"; // (func, grid, block, args, smem, stream, events, flags)
      CudaName = ("cuda" + Name).str();
      Name = CudaName;
    }
    if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") {
      if (E->getNumArgs() < 3)
        return true;
      LaunchSite L = start(E,
                           Name == "cudaLaunchKernel" ? LaunchApi::LaunchKernel
                                                      : LaunchApi::LaunchCooperativeKernel,
                           E->getArg(0));
      L.Grid = shape(E->getArg(1));
      L.Block = shape(E->getArg(2));
      if (E->getNumArgs() >= 5)
        L.DynamicSmem = bytes(E->getArg(4));
      size_t First = Out.Launches.size();
      finish(std::move(L));
      noteCallerShape(First, E->getArg(1), E->getArg(2),
                      E->getNumArgs() >= 5 ? E->getArg(4) : nullptr);
    } else if (Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC") {
      if (E->getNumArgs() < 2)
        return true;
      LaunchSite L = start(E, LaunchApi::LaunchKernelEx, E->getArg(1));
      configFields(E->getArg(0), L);
      launchCluster(L);
      finish(std::move(L));
    } else if (Name == "cudaFuncSetAttribute" && E->getNumArgs() == 3) {
      optin(E);
      nonPortableCluster(E);
    } else if (Name == "cudaFuncSetCacheConfig" && E->getNumArgs() == 2) {
      cacheConfig(E);
    }
    return true;
  }

  void finalize();

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const FactsOptions &Opts;
  TUFacts &Out;
  Evaluator Eval;
  std::unique_ptr<MangleContext> Mangler;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  struct OptinSeen {
    bool Any = false;
    std::optional<uint64_t> MaxBytes;
    std::string Text;
    SourceLocation Loc;
  };
  llvm::DenseMap<const FunctionDecl *, OptinSeen> Optins;
  /// A triple-chevron launch on a function-pointer parameter (Index in Out.Launches) and
  /// its configuration expressions, resolved in finalize through CallsTo.
  struct Forwarded {
    size_t Index = 0;
    const ParmVarDecl *Param = nullptr;
    const Expr *Grid = nullptr, *Block = nullptr, *Smem = nullptr;
  };
  std::vector<Forwarded> Forwards;
  /// The references to functions (FunctionRefs), those that are a call's callee
  /// (CalleeRefs), and those that are an argument of a call (ArgRefs: the callee and the
  /// argument's index); the calls through a function-pointer parameter, by function
  /// (canonical declaration): the call and the parameter's index.
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> FunctionRefs;
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
  llvm::DenseMap<const DeclRefExpr *, std::pair<const FunctionDecl *, unsigned>> ArgRefs;
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<std::pair<const CallExpr *, unsigned>, 2>>
      PointerCalls;
  /// Calls of functions that take a function pointer, with the calling function.
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4>>
      CallsTo;

  /// The parameter of FD that Callee names, when it is a function pointer.
  static const ParmVarDecl *kernelParam(const Expr *Callee, const FunctionDecl *FD) {
    for (unsigned I = 0; Callee && I < 8; ++I) {
      Callee = Callee->IgnoreParenImpCasts();
      if (auto *UO = dyn_cast<UnaryOperator>(Callee); UO && UO->getOpcode() == UO_Deref) {
        Callee = UO->getSubExpr();
        continue;
      }
      break;
    }
    auto *DR = dyn_cast_or_null<DeclRefExpr>(Callee);
    auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (!P || !FD || P->getDeclContext() != FD || !P->getType()->isFunctionPointerType())
      return nullptr;
    return P;
  }

  /// Follows F's parameter P of Fn to the calls of Fn (and, where the argument is again a
  /// parameter, to the calls of the caller, two levels at most): one launch per call that
  /// names a kernel, at that call, its shape evaluated with the parameters bound to the
  /// arguments. Returns the launches added.
  unsigned resolveForwarded(const Forwarded &F, const ParmVarDecl *P, const FunctionDecl *Fn,
                            llvm::DenseMap<const ParmVarDecl *, const Expr *> Bound,
                            unsigned Depth) {
    auto It = CallsTo.find(Fn->getCanonicalDecl());
    if (It == CallsTo.end())
      return 0;
    unsigned Added = 0;
    unsigned Idx = P->getFunctionScopeIndex();
    for (auto [C, Caller] : It->second) {
      if (!C->getDirectCallee() ||
          C->getDirectCallee()->getCanonicalDecl() != Fn->getCanonicalDecl() ||
          Idx >= C->getNumArgs())
        continue;
      auto B = Bound;
      for (unsigned I = 0; I < Fn->getNumParams() && I < C->getNumArgs(); ++I)
        B[Fn->getParamDecl(I)] = C->getArg(I);
      const Expr *Arg = C->getArg(Idx);
      const FunctionDecl *K = resolveKernel(Arg);
      if (K && K->hasAttr<CUDAGlobalAttr>()) {
        LaunchSite L = Out.Launches[F.Index];
        const auto *Inner = dyn_cast_or_null<CUDAKernelCallExpr>(L.Call);
        L.Call = C;
        L.Loc = SM.getExpansionLoc(C->getBeginLoc());
        L.Enclosing = Caller;
        L.Instantiation = instantiationOf(Caller);
        const KernelInfo &KI = Out.Kernels[kernelIndex(K)];
        L.Kernel = KI.Decl;
        L.KernelName = KI.Name;
        L.MangledName = KI.MangledName;
        Eval.Bound = std::move(B);
        if (F.Grid)
          L.Grid = shape(F.Grid);
        if (F.Block)
          L.Block = shape(F.Block);
        if (F.Smem)
          L.DynamicSmem = bytes(F.Smem);
        if (F.Block && Inner)
          L.BlockParams = blockParams(Inner, F.Block, C);
        Eval.Bound.clear();
        Resolved.push_back(std::move(L));
        ++Added;
      } else if (Depth < 1) {
        if (const ParmVarDecl *Q = kernelParam(Arg, Caller))
          Added += resolveForwarded(F, Q, Caller, std::move(B), Depth + 1);
      }
    }
    return Added;
  }
  std::vector<LaunchSite> Resolved;

  /// Launches Out.Launches[First, Last) whose configuration expressions may read
  /// parameters of the launching function, for bindCallerShapes.
  struct CallerShape {
    size_t First = 0, Last = 0;
    const Expr *Grid = nullptr, *Block = nullptr, *Smem = nullptr;
  };
  std::vector<CallerShape> CallerShapes;
  void noteCallerShape(size_t First, const Expr *Grid, const Expr *Block, const Expr *Smem) {
    if (Out.Launches.size() > First)
      CallerShapes.push_back({First, Out.Launches.size(), Grid, Block, Smem});
  }

  using Parts3 = std::array<std::optional<uint64_t>, 3>;
  using Binding = llvm::DenseMap<const ParmVarDecl *, const Expr *>;
  /// The components Get computes with Fn's parameters bound to the arguments of each
  /// call of Fn in the TU, kept where every call gives one and all agree; a call that
  /// leaves a component unknown is followed to its caller's calls (Depth more levels).
  /// Nothing when Fn is a kernel, its address escapes (calls the TU does not show) or
  /// it has no call. Calls counts Fn's calls, At is the first.
  Parts3 agreedOverCalls(const FunctionDecl *Fn, const Binding &B, unsigned Depth,
                         llvm::function_ref<Parts3()> Get, unsigned &Calls,
                         SourceLocation &At) {
    Parts3 None{};
    if (!Fn || Fn->hasAttr<CUDAGlobalAttr>() || Fn->isDependentContext() ||
        Out.Escapes.count(Fn->getCanonicalDecl()))
      return None;
    auto It = Out.CallsOf.find(Fn->getCanonicalDecl());
    if (It == Out.CallsOf.end() || It->second.empty() || It->second.size() > 64)
      return None;
    Parts3 Agreed{};
    std::array<bool, 3> Live{true, true, true};
    bool FirstCall = true;
    for (auto [C, Caller] : It->second) {
      // A call in a template's pattern: its instantiations' calls are the ones that run.
      if (Caller && Caller->isDependentContext())
        continue;
      if (isa<CXXOperatorCallExpr>(C) || isa<CUDAKernelCallExpr>(C) || C->containsErrors() ||
          C->getNumArgs() < Fn->getNumParams())
        return None;
      Binding CB = B;
      for (unsigned I = 0; I < Fn->getNumParams(); ++I)
        if (Eval.neverWritten(Fn->getParamDecl(I)))
          CB[Fn->getParamDecl(I)] = C->getArg(I);
      Eval.Bound = CB;
      Parts3 Got = Get();
      Eval.Bound.clear();
      if (!(Got[0] && Got[1] && Got[2]) && Depth > 0 && Caller) {
        unsigned Up = 0;
        SourceLocation UpAt;
        Parts3 Above = agreedOverCalls(Caller, CB, Depth - 1, Get, Up, UpAt);
        for (unsigned D = 0; D < 3; ++D)
          if (!Got[D])
            Got[D] = Above[D];
      }
      for (unsigned D = 0; D < 3; ++D) {
        if (!Got[D])
          Live[D] = false;
        else if (FirstCall)
          Agreed[D] = Got[D];
        else if (Agreed[D] != Got[D])
          Live[D] = false;
      }
      if (FirstCall)
        At = SM.getExpansionLoc(C->getBeginLoc());
      FirstCall = false;
      ++Calls;
    }
    if (FirstCall)
      return None;
    for (unsigned D = 0; D < 3; ++D)
      if (!Live[D])
        Agreed[D].reset();
    return Agreed;
  }

  /// A launch whose grid, block or dynamic shared memory reads parameters of the host
  /// function that launches it (GASAL2's `gasal_kernel_launcher(N_BLOCKS, BLOCKDIM,
  /// ...)`, called with a local `BLOCKDIM = 128`): each component the launch leaves
  /// unknown takes the value every call of that function gives it (LaunchSite::FromCalls).
  void bindCallerShapes() {
    for (const CallerShape &S : CallerShapes) {
      const LaunchSite &L0 = Out.Launches[S.First];
      const FunctionDecl *Fn = L0.Enclosing;
      if (!Fn || Fn->getNumParams() == 0 || Fn->hasAttr<CUDAGlobalAttr>())
        continue;
      auto Fill = [&](ShapeFact LaunchSite::*Field, const Expr *E) {
        if (!E || (Out.Launches[S.First].*Field).known())
          return;
        unsigned Calls = 0;
        SourceLocation At;
        Parts3 P = agreedOverCalls(Fn, Binding(), 1, [&] { return Eval.evalDim3Parts(E); }, Calls, At);
        for (size_t I = S.First; I < S.Last; ++I) {
          ShapeFact &Sh = Out.Launches[I].*Field;
          bool Any = false;
          for (unsigned D = 0; D < 3; ++D)
            if (!Sh.Parts[D] && P[D]) {
              Sh.Parts[D] = P[D];
              Any = true;
            }
          if (!Any)
            continue;
          if (Sh.Parts[0] && Sh.Parts[1] && Sh.Parts[2])
            Sh.Dims = std::array<uint64_t, 3>{*Sh.Parts[0], *Sh.Parts[1], *Sh.Parts[2]};
          Out.Launches[I].FromCalls = Calls;
          Out.Launches[I].FromCallLoc = At;
        }
      };
      Fill(&LaunchSite::Block, S.Block);
      Fill(&LaunchSite::Grid, S.Grid);
      if (S.Smem && !isa<CXXDefaultArgExpr>(S.Smem) && !L0.DynamicSmem.Bytes) {
        unsigned Calls = 0;
        SourceLocation At;
        Parts3 P = agreedOverCalls(
            Fn, Binding(), 1, [&] { return Parts3{Eval.evalInt(S.Smem), 1, 1}; }, Calls, At);
        if (P[0])
          for (size_t I = S.First; I < S.Last; ++I) {
            Out.Launches[I].DynamicSmem.Bytes = P[0];
            Out.Launches[I].FromCalls = Calls;
            Out.Launches[I].FromCallLoc = At;
          }
      }
    }
  }

  bool inSystemHeader(SourceLocation L) const {
    return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L));
  }

  bool enclosingOk(const Expr *E) const {
    if (Stack.empty())
      return false;
    const FunctionDecl *FD = Stack.back();
    // Nothing from a function clang could not build, or from a launch it recovered from
    // errors in (a file analysed with errors): no invented launch.
    if (FD->isDependentContext() || FD->isInvalidDecl())
      return false;
    if (!Opts.IncludeSystemHeaders && inSystemHeader(E->getBeginLoc()))
      return false;
    return !E->isValueDependent() && !E->isTypeDependent() && !E->containsErrors();
  }

  /// LaunchSite::BlockParams of the launch Call (its arguments, in the order of the
  /// kernel's parameters) with the block Block. A size and an argument hold the same value
  /// when both are read from one variable that keeps its value (or, for one that is
  /// written elsewhere, when both read it in the launch itself, Outer when the launch goes
  /// through a helper, and nothing there writes it), through no cast narrower than the
  /// variable: a block size that can launch (1 to 1024) is then the argument's value.
  std::array<int, 3> blockParams(const CUDAKernelCallExpr *Call, const Expr *Block,
                                 const Expr *Outer = nullptr) {
    std::array<int, 3> Out{-1, -1, -1};
    const Expr *S = skipTemporaries(Block);
    bool Scalar = S && S->getType()->isIntegralOrEnumerationType();
    const char *Names[3] = {"x", "y", "z"};
    for (unsigned D = 0; D < (Scalar ? 1u : 3u); ++D) {
      Evaluator::Source B = Eval.sourceOf(Block, Scalar ? Path{} : Path{Names[D]});
      if (!B.Var || !usableSource(B, Call, Outer))
        continue;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        Evaluator::Source A = Eval.sourceOf(Call->getArg(I), {});
        if (A.Var == B.Var && usableSource(A, Call, Outer)) {
          Out[D] = int(I);
          break;
        }
      }
    }
    return Out;
  }
  bool usableSource(const Evaluator::Source &S, const Expr *Call, const Expr *Outer) {
    QualType T = S.Var->getType().getNonReferenceType();
    if (!T->isIntegerType())
      return false;
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits > 32 || S.MinCastBits < Bits)
      return false;
    if (Eval.neverWritten(S.Var))
      return true;
    return !S.ViaInit && !writesVar(Call, S.Var) && !(Outer && writesVar(Outer, S.Var));
  }

  ShapeFact shape(const Expr *E) {
    ShapeFact S;
    S.Text = exprText(E, Ctx);
    S.Parts = Eval.evalDim3Parts(E);
    if (S.Parts[0] && S.Parts[1] && S.Parts[2])
      S.Dims = std::array<uint64_t, 3>{*S.Parts[0], *S.Parts[1], *S.Parts[2]};
    return S;
  }
  BytesFact bytes(const Expr *E) {
    BytesFact B;
    if (isa<CXXDefaultArgExpr>(E)) {
      B.Bytes = 0;
      return B;
    }
    B.Text = exprText(E, Ctx);
    B.Bytes = Eval.evalInt(E);
    return B;
  }

  std::string mangle(const FunctionDecl *FD) {
    if (!Mangler->shouldMangleDeclName(FD))
      return FD->getName().str();
    std::string S;
    llvm::raw_string_ostream OS(S);
    Mangler->mangleName(GlobalDecl(FD, KernelReferenceKind::Kernel), OS);
    return S;
  }

  unsigned kernelIndex(const FunctionDecl *FD) {
    const FunctionDecl *Canon = FD->getCanonicalDecl();
    auto It = Out.KernelIndex.find(Canon);
    if (It != Out.KernelIndex.end())
      return It->second;
    unsigned Idx = Out.Kernels.size();
    Out.KernelIndex[Canon] = Idx;
    KernelInfo K;
    const FunctionDecl *Def = FD->getDefinition();
    K.Decl = Def ? Def : FD;
    K.HasBody = Def && Def->hasBody();
    K.Name = nameOf(K.Decl);
    K.MangledName = mangle(K.Decl);
    Out.Kernels.push_back(std::move(K));
    return Idx;
  }

  LaunchSite start(const Expr *Call, LaunchApi Api, const Expr *Callee) {
    LaunchSite L;
    L.Api = Api;
    L.Call = Call;
    L.Loc = SM.getExpansionLoc(Call->getBeginLoc());
    L.Enclosing = Stack.back();
    L.Instantiation = instantiationOf(L.Enclosing);
    L.Kernel = resolveKernel(Callee);
    if (L.Kernel && !L.Kernel->hasAttr<CUDAGlobalAttr>())
      L.Kernel = nullptr;
    if (L.Kernel) {
      const KernelInfo &K = Out.Kernels[kernelIndex(L.Kernel)];
      L.Kernel = K.Decl;
      L.KernelName = K.Name;
      L.MangledName = K.MangledName;
    } else {
      L.KernelName = exprText(Callee, Ctx);
      auto [Var, Held] = kernelsOfPointer(Callee);
      if (Var) {
        L.Via = Var->getName().str();
        L.Candidates = Held.size();
      }
      Candidates = std::move(Held);
    }
    return L;
  }

  /// The launch; one per kernel where start found a pointer that can hold several.
  void finish(LaunchSite L) {
    L.Hip = Out.Hip;
    std::vector<const FunctionDecl *> Held = std::move(Candidates);
    Candidates.clear();
    if (Held.empty()) {
      Out.Launches.push_back(std::move(L));
      return;
    }
    for (const FunctionDecl *K : Held) {
      const KernelInfo &KI = Out.Kernels[kernelIndex(K)];
      LaunchSite One = L;
      One.Kernel = KI.Decl;
      One.KernelName = KI.Name;
      One.MangledName = KI.MangledName;
      Out.Launches.push_back(std::move(One));
    }
  }
  /// The kernels the launch start saw can hold (a local pointer to several), for finish.
  std::vector<const FunctionDecl *> Candidates;

  /// The name of the outermost macro whose expansion Loc is in: the token the expansion
  /// starts with.
  std::string macroNameAt(SourceLocation Loc) const {
    SourceLocation Start = SM.getExpansionRange(Loc).getBegin();
    Token Tok;
    if (Start.isInvalid() || Start.isMacroID() ||
        Lexer::getRawToken(Start, Tok, SM, Ctx.getLangOpts()) || !Tok.is(tok::raw_identifier))
      return "";
    return Tok.getRawIdentifier().str();
  }

  /// cudaLaunchKernelEx(&config, ...): the config's gridDim, blockDim, dynamicSmemBytes.
  void configFields(const Expr *Arg, LaunchSite &L) {
    const Expr *E = Arg->IgnoreParenImpCasts();
    std::string Base = exprText(E, Ctx);
    StringRef BaseRef(Base);
    BaseRef.consume_front("&");
    L.Grid.Text = (BaseRef + ".gridDim").str();
    L.Block.Text = (BaseRef + ".blockDim").str();
    L.DynamicSmem.Text = (BaseRef + ".dynamicSmemBytes").str();
    auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return;
    Path Prefix;
    const DeclRefExpr *DR = asVarPath(UO->getSubExpr(), Prefix);
    if (!DR)
      return;
    const auto *V = cast<VarDecl>(DR->getDecl());
    auto Field = [&](StringRef F, StringRef Sub) {
      Path P = Prefix;
      P.push_back(F);
      if (!Sub.empty())
        P.push_back(Sub);
      return Eval.evalField(V, P, DR);
    };
    auto Dims = [&](StringRef F, ShapeFact &Out) {
      Out.Parts = {Field(F, "x"), Field(F, "y"), Field(F, "z")};
      if (Out.Parts[0] && Out.Parts[1] && Out.Parts[2])
        Out.Dims = std::array<uint64_t, 3>{*Out.Parts[0], *Out.Parts[1], *Out.Parts[2]};
    };
    Dims("gridDim", L.Grid);
    Dims("blockDim", L.Block);
    L.DynamicSmem.Bytes = Field("dynamicSmemBytes", "");
  }

  void optin(const CallExpr *E) {
    const Expr *Attr = E->getArg(1)->IgnoreParenImpCasts();
    auto *DR = dyn_cast<DeclRefExpr>(Attr);
    auto *EC = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
    if (!EC || (EC->getName() != "cudaFuncAttributeMaxDynamicSharedMemorySize" &&
                EC->getName() != "hipFuncAttributeMaxDynamicSharedMemorySize"))
      return;
    const FunctionDecl *K = resolveKernel(E->getArg(0));
    if (!K || !K->hasAttr<CUDAGlobalAttr>())
      return;
    OptinSeen &O = Optins[K->getCanonicalDecl()];
    auto V = Eval.evalInt(E->getArg(2));
    if (!O.Any) {
      O.Loc = SM.getExpansionLoc(E->getBeginLoc());
      O.MaxBytes = V;
      if (!V)
        O.Text = exprText(E->getArg(2), Ctx);
    } else if (O.MaxBytes && V) {
      O.MaxBytes = std::max(*O.MaxBytes, *V);
    } else if (!V) {
      O.MaxBytes.reset();
      O.Text = exprText(E->getArg(2), Ctx);
    }
    O.Any = true;
  }

  void sharedOf(KernelInfo &K);

  /// cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, v).
  void nonPortableCluster(const CallExpr *E) {
    const Expr *Attr = E->getArg(1)->IgnoreParenImpCasts();
    auto *DR = dyn_cast<DeclRefExpr>(Attr);
    auto *EC = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
    if (!EC || EC->getName() != "cudaFuncAttributeNonPortableClusterSizeAllowed")
      return;
    const FunctionDecl *K = resolveKernel(E->getArg(0));
    if (!K || !K->hasAttr<CUDAGlobalAttr>())
      return;
    std::optional<uint64_t> V = Eval.evalInt(E->getArg(2));
    if (!V || *V != 0)
      NonPortable.insert(K->getCanonicalDecl());
  }

  /// The cluster attribute of a cudaLaunchKernelEx: a reference to
  /// cudaLaunchAttributeClusterDimension in the launching function, and the values
  /// assigned there to `<attr>.val.clusterDim.x/y/z` (each once, a compile-time fact).
  void launchCluster(LaunchSite &L) {
    const Stmt *Body = L.Enclosing ? L.Enclosing->getBody() : nullptr;
    if (!Body)
      return;
    bool Named = false;
    std::array<std::optional<uint64_t>, 3> Dims;
    std::array<int, 3> Writes{0, 0, 0};
    std::array<std::string, 3> Texts;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *DR = dyn_cast<DeclRefExpr>(S))
        if (auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
          Named |= EC->getName() == "cudaLaunchAttributeClusterDimension";
      if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
        auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
        auto *Parent = ME ? dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts()) : nullptr;
        if (ME && Parent && Parent->getMemberDecl()->getName() == "clusterDim") {
          StringRef C = ME->getMemberDecl()->getName();
          int I = C == "x" ? 0 : C == "y" ? 1 : C == "z" ? 2 : -1;
          if (I >= 0) {
            ++Writes[I];
            Texts[I] = exprText(BO->getRHS(), Ctx);
            Dims[I] = BO->getOpcode() == BO_Assign ? Eval.evalInt(BO->getRHS()) : std::nullopt;
          }
        }
      }
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(Body);
    if (!Named)
      return;
    L.HasLaunchCluster = true;
    L.LaunchCluster.Text = "clusterDim(" + Texts[0] + ", " + Texts[1] + ", " + Texts[2] + ")";
    for (int I = 0; I < 3; ++I)
      if (Writes[I] != 1 || !Dims[I])
        return;
    L.LaunchCluster.Dims = std::array<uint64_t, 3>{*Dims[0], *Dims[1], *Dims[2]};
  }

  llvm::DenseSet<const FunctionDecl *> NonPortable;

  /// cudaFuncSetCacheConfig(k, cudaFuncCachePreferX): one value for the kernel, or -1
  /// when the calls disagree or one is not a known enumerator.
  void cacheConfig(const CallExpr *E) {
    const FunctionDecl *K = resolveKernel(E->getArg(0));
    if (!K || !K->hasAttr<CUDAGlobalAttr>())
      return;
    int V = -1;
    if (auto *DR = dyn_cast<DeclRefExpr>(E->getArg(1)->IgnoreParenImpCasts()))
      if (auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
        V = llvm::StringSwitch<int>(EC->getName())
                .Case("cudaFuncCachePreferNone", 0)
                .Case("cudaFuncCachePreferShared", 1)
                .Case("cudaFuncCachePreferL1", 2)
                .Case("cudaFuncCachePreferEqual", 3)
                .Default(-1);
    auto [It, New] = CacheConfigs.try_emplace(K->getCanonicalDecl(), V);
    if (!New && It->second != V)
      It->second = -1;
  }
  llvm::DenseMap<const FunctionDecl *, int> CacheConfigs;
};

/// Static __shared__ variables the kernel and what it calls refer to, in first-use order.
void Collector::sharedOf(KernelInfo &K) {
  if (!K.HasBody)
    return;
  llvm::DenseSet<const FunctionDecl *> Seen;
  llvm::DenseSet<const VarDecl *> Vars;
  llvm::SmallVector<const FunctionDecl *, 16> Work{K.Decl};
  bool Unknown = false;
  auto AddVar = [&](const VarDecl *VD) {
    if (!VD->hasAttr<CUDASharedAttr>() || VD->hasExternalStorage() || !Vars.insert(VD).second)
      return;
    // A declaration clang refused counts only when the refusal was its initialisation
    // (`__shared__ cuda::barrier<...> b;`: a constructor or destructor that is not empty,
    // which nvcc ignores with a warning and allocates the storage for): the type is one
    // clang built. Otherwise (an unknown type, taken as int) nothing is invented.
    if (VD->isInvalidDecl() && !isa_and_nonnull<CXXConstructExpr>(VD->getInit()))
      return;
    QualType T = VD->getType();
    if (T->isIncompleteType() || T->isDependentType() || !T->isConstantSizeType()) {
      if (!T->isIncompleteArrayType())
        Unknown = true;
      return;
    }
    SharedVarFact F;
    F.Var = VD;
    F.Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    // An empty struct (cooperative groups' block_tile_memory where the hardware reserves
    // the scratch) has sizeof 1 in C++ but no storage on the GPU.
    if (const auto *RD = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
        RD && RD->hasDefinition() && RD->isEmpty())
      F.Bytes = 0;
    F.Align = Ctx.getDeclAlign(VD).getQuantity();
    K.SharedVars.push_back(F);
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    // Only referenced variables: one declared and never used is dropped by the compiler
    // (nvcc's warning 177), and ptxas allocates nothing for it.
    if (auto *DR = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        AddVar(VD);
    const FunctionDecl *Callee = nullptr;
    if (auto *C = dyn_cast<CallExpr>(S))
      Callee = C->getDirectCallee();
    else if (auto *C = dyn_cast<CXXConstructExpr>(S))
      Callee = C->getConstructor();
    if (Callee && !Callee->getBuiltinID()) {
      const FunctionDecl *Def = Callee->getDefinition();
      if (Def && Def->hasBody()) {
        if (Seen.insert(Def).second)
          Work.push_back(Def);
      } else if (!inSystemHeader(Callee->getLocation())) {
        K.CallsUnknown = true;
      }
    }
    if (auto *LE = dyn_cast<LambdaExpr>(S)) {
      Walk(LE->getBody());
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Seen.insert(K.Decl);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    Walk(F->getBody());
  }
  uint64_t Offset = 0;
  for (const SharedVarFact &F : K.SharedVars)
    if (F.Bytes)
      Offset = llvm::alignTo(Offset, std::max<uint64_t>(F.Align, 1)) + F.Bytes;
  if (!Unknown)
    K.StaticSmemBytes = Offset;
}

void Collector::finalize() {
  // A function whose address is taken may be called with any values; where the address
  // only goes to a function that calls it through that parameter, those calls are its
  // calls too (TuModel::passedValues follows them).
  for (auto [D, F] : FunctionRefs) {
    if (CalleeRefs.count(D))
      continue;
    const FunctionDecl *Canon = F->getCanonicalDecl();
    auto A = ArgRefs.find(D);
    const FunctionDecl *G = A == ArgRefs.end() ? nullptr : A->second.first;
    const FunctionDecl *GDef = G ? G->getDefinition() : nullptr;
    auto P = GDef ? PointerCalls.find(GDef->getCanonicalDecl()) : PointerCalls.end();
    bool Through = false;
    if (P != PointerCalls.end())
      for (auto [Call, Index] : P->second)
        if (Index == A->second.second) {
          Out.CallsOf[Canon].push_back({Call, GDef});
          Through = true;
        }
    if (!Through)
      Out.Escapes.insert(Canon);
  }
  bindCallerShapes();
  // Launches through a launch helper: one per call that names the kernel, in place of
  // the helper's own launch (kept where no call names one).
  if (!Forwards.empty()) {
    std::vector<bool> Drop(Out.Launches.size(), false);
    for (const Forwarded &F : Forwards)
      if (resolveForwarded(F, F.Param, Out.Launches[F.Index].Enclosing,
                           llvm::DenseMap<const ParmVarDecl *, const Expr *>(), 0))
        Drop[F.Index] = true;
    std::vector<LaunchSite> Kept;
    for (size_t I = 0; I < Out.Launches.size(); ++I)
      if (!Drop[I])
        Kept.push_back(std::move(Out.Launches[I]));
    for (LaunchSite &L : Resolved)
      Kept.push_back(std::move(L));
    Out.Launches = std::move(Kept);
  }
  for (KernelInfo &K : Out.Kernels) {
    sharedOf(K);
    if (auto *LB = K.Decl->getAttr<CUDALaunchBoundsAttr>()) {
      K.LaunchBoundsLoc = SM.getExpansionLoc(LB->getLocation());
      if (LB->getMaxThreads())
        K.LaunchBoundsMaxThreads = Eval.evalInt(LB->getMaxThreads());
      if (LB->getMinBlocks())
        K.LaunchBoundsMinBlocks = Eval.evalInt(LB->getMinBlocks());
      if (LB->getMaxBlocks())
        K.LaunchBoundsMaxCluster = Eval.evalInt(LB->getMaxBlocks());
    }
    if (auto *FW = K.Decl->getAttr<AMDGPUFlatWorkGroupSizeAttr>()) {
      K.FlatWorkGroupMin = Eval.evalInt(FW->getMin());
      K.FlatWorkGroupMax = Eval.evalInt(FW->getMax());
      if (!K.LaunchBoundsMaxThreads && K.FlatWorkGroupMax) {
        K.LaunchBoundsMaxThreads = K.FlatWorkGroupMax;
        K.LaunchBoundsLoc = SM.getExpansionLoc(FW->getLocation());
      }
    }
    if (auto *WE = K.Decl->getAttr<AMDGPUWavesPerEUAttr>()) {
      K.WavesPerEuMin = Eval.evalInt(WE->getMin());
      if (WE->getMax())
        K.WavesPerEuMax = Eval.evalInt(WE->getMax());
    }
    K.MaxNReg = maxNRegOf(K.Decl);
#if CLANG_VERSION_MAJOR >= 20 // __cluster_dims__ is known to clang from version 20 on
    if (auto *CD = K.Decl->getAttr<CUDAClusterDimsAttr>()) {
      K.ClusterDimsLoc = SM.getExpansionLoc(CD->getLocation());
      auto Dim = [&](const Expr *E) -> std::optional<uint64_t> {
        return E ? Eval.evalInt(E) : std::optional<uint64_t>(1);
      };
      std::optional<uint64_t> X = Dim(CD->getX()), Y = Dim(CD->getY()), Z = Dim(CD->getZ());
      if (X && Y && Z)
        K.ClusterDims = std::array<uint64_t, 3>{*X, *Y, *Z};
    }
#endif
    K.NonPortableCluster = NonPortable.contains(K.Decl->getCanonicalDecl());
    if (auto It = CacheConfigs.find(K.Decl->getCanonicalDecl());
        It != CacheConfigs.end() && It->second >= 0)
      K.CacheConfig = It->second;
    auto It = Optins.find(K.Decl->getCanonicalDecl());
    if (It != Optins.end()) {
      K.HasOptin = true;
      K.Optin.Bytes = It->second.MaxBytes;
      K.Optin.Text = It->second.Text;
      K.OptinLoc = It->second.Loc;
    }
  }
  std::stable_sort(Out.Launches.begin(), Out.Launches.end(),
                   [&](const LaunchSite &A, const LaunchSite &B) {
                     return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
                   });
  for (unsigned I = 0; I < Out.Launches.size(); ++I)
    if (const FunctionDecl *K = Out.Launches[I].Kernel)
      Out.Kernels[Out.KernelIndex[K->getCanonicalDecl()]].Launches.push_back(I);
}

} // namespace

TUFacts collectFacts(ASTContext &Ctx, const FactsOptions &Opts) {
  TUFacts F;
  F.Arch = targetArch(Ctx);
  F.WaveSize = targetWaveSize(Ctx);
  F.Hip = Ctx.getLangOpts().HIP;
  Collector C(Ctx, Opts, F);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.finalize();
  return F;
}

std::optional<uint64_t> evaluateInt(const Expr *E, ASTContext &Ctx) {
  Evaluator Ev(Ctx);
  return Ev.evalInt(E);
}

std::optional<std::array<uint64_t, 3>> evaluateDim3(const Expr *E, ASTContext &Ctx) {
  Evaluator Ev(Ctx);
  return Ev.evalDim3(E);
}

std::vector<JointLaunch> jointLaunchSamples(const LaunchSite &L, ASTContext &Ctx,
                                            unsigned Count, std::vector<std::string> *Unknowns) {
  std::vector<JointLaunch> Out;
  auto *K = dyn_cast_or_null<CUDAKernelCallExpr>(L.Call);
  const CallExpr *Config = K ? K->getConfig() : nullptr;
  if (!K || !L.Kernel || !Config || Config->getNumArgs() < 2 || !Config->getDirectCallee() ||
      (Config->getDirectCallee()->getIdentifier() &&
       Config->getDirectCallee()->getName() == "cudaLaunchDevice"))
    return Out;
  // The values an unknown is drawn from: sizes a host passes (a warp and a block's worth,
  // a power of two and its neighbours, a few thousands to a million), small ones too.
  static const uint64_t Values[] = {1,   2,   3,   4,    7,    8,     16,    31,     32,
                                    33,  64,  96,  100,  127,  128,   255,   256,    257,
                                    500, 512, 1000, 1024, 4096, 10000, 65536, 100000, 1048576};
  constexpr size_t N = sizeof(Values) / sizeof(Values[0]);
  std::map<std::string, unsigned> Ordinal;
  std::vector<std::string> Names;
  Evaluator Ev(Ctx);
  // First every unknown the same value, each value once (a launch that runs only for
  // large sizes gets them), then values drawn at random for each unknown apart.
  const unsigned Attempts = unsigned(N) + Count * 2;
  unsigned Drawn = 0;
  for (unsigned Sample = 0; Sample < Attempts; ++Sample) {
    if (Sample >= N && Drawn >= Count)
      break;
    bool Met = false;
    std::set<unsigned> Read; // the unknowns the evaluation under way has read
    Ev.Leaf = [&](const std::string &Key, const std::string &Name) -> std::optional<uint64_t> {
      auto [It, New] = Ordinal.try_emplace(Key, unsigned(Ordinal.size()));
      if (New)
        Names.push_back(Name);
      Met = true;
      Read.insert(It->second);
      if (Sample < N)
        return Values[Sample];
      // A fixed mix of the sample and the unknown's place: the same runs draw the same.
      uint64_t H = (uint64_t(Sample) + 1) * 0x9E3779B97F4A7C15ull ^
                   (uint64_t(It->second) + 1) * 0xC2B2AE3D27D4EB4Full;
      H ^= H >> 29;
      H *= 0xBF58476D1CE4E5B9ull;
      H ^= H >> 32;
      return Values[H % N];
    };
    JointLaunch J;
    std::array<std::optional<uint64_t>, 3> G = Ev.evalDim3Parts(Config->getArg(0));
    std::array<std::optional<uint64_t>, 3> B = Ev.evalDim3Parts(Config->getArg(1));
    bool Ok = true;
    for (int D = 0; D < 3; ++D) {
      Ok &= G[D] && B[D] && *G[D] > 0 && *B[D] > 0;
      if (Ok) {
        J.Grid[D] = *G[D];
        J.Block[D] = *B[D];
      }
    }
    // A launch that cannot run is no sample of one that does.
    Ok = Ok && J.Block[0] <= 1024 && J.Block[1] <= 1024 && J.Block[2] <= 64 &&
         J.Block[0] * J.Block[1] * J.Block[2] <= 1024 && J.Grid[0] < (uint64_t(1) << 31) &&
         J.Grid[1] < 65536 && J.Grid[2] < 65536;
    if (!Ok)
      continue;
    // An argument that reads an unknown the grid and the block do not is free of them (a
    // start offset, a size the launch does not cover): left out, it is sampled on its own.
    std::set<unsigned> Shape = Read;
    for (unsigned P = 0; P < L.Kernel->getNumParams() && P < K->getNumArgs(); ++P) {
      if (!L.Kernel->getParamDecl(P)->getType()->isIntegerType())
        continue;
      Read.clear();
      std::optional<uint64_t> V = Ev.evalInt(K->getArg(P));
      if (V && std::includes(Shape.begin(), Shape.end(), Read.begin(), Read.end()))
        J.Args[P] = *V;
    }
    J.Sampled = Met;
    Out.push_back(std::move(J));
    if (!Met)
      break; // no unknown: one launch, every sample the same
    if (Sample >= N)
      ++Drawn;
    else if (Ordinal.size() < 2 && Sample + 1 == N)
      break; // one unknown: every value it is drawn from was tried
  }
  if (Unknowns)
    *Unknowns = Names;
  return Out;
}

std::string functionName(const FunctionDecl *FD) { return nameOf(FD); }

const Expr *forwardedOperand(const Expr *X) {
  auto *C = X ? dyn_cast<CallExpr>(X->IgnoreParenImpCasts()) : nullptr;
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || C->getNumArgs() != 1 || !F->getIdentifier() || !F->isInStdNamespace() ||
      (F->getName() != "forward" && F->getName() != "move"))
    return nullptr;
  return C->getArg(0);
}

static bool writesVarAt(const Stmt *S, const ValueDecl *D, unsigned Depth,
                        std::set<const ValueDecl *> &Open);

bool writesVar(const Stmt *S, const ValueDecl *D) {
  std::set<const ValueDecl *> Open;
  return writesVarAt(S, D, 0, Open);
}

/// Open: the callees' parameters being looked into, down the chain of calls. A call that
/// hands one on to itself (a dispatcher recursing over a list of template values, one
/// instantiation per value, is a chain; a recursive helper, a cycle) writes through it
/// only where a statement of the chain does, which the walk of that statement finds.
static bool writesVarAt(const Stmt *S, const ValueDecl *D, unsigned Depth,
                        std::set<const ValueDecl *> &Open) {
  if (!S)
    return false;
  // D itself, or D handed on by `std::forward` / `std::move` (which write nothing).
  std::function<bool(const Expr *)> Names = [&](const Expr *X) -> bool {
    if (const Expr *Operand = forwardedOperand(X))
      return Names(Operand);
    auto *DR = X ? dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()) : nullptr;
    return DR && DR->getDecl() == D;
  };
  if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Names(BO->getLHS()))
    return true;
  if (auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
      Names(UO->getSubExpr()))
    return true;
  auto MutableRef = [](QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  };
  if (auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *X : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(X); VD && MutableRef(VD->getType()) && Names(VD->getInit()))
        return true;
  // Bound to a callee's reference to non-const: a write, unless the callee's own body
  // (followed sixteen calls deep) writes nothing through it; `std::forward` and
  // `std::move` only hand it on (Names follows them).
  if (auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee(); FD && !forwardedOperand(Call))
      for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
        if (Names(Call->getArg(I)) && MutableRef(FD->getParamDecl(I)->getType())) {
          const FunctionDecl *Def = nullptr;
          if (Depth >= 16 || !FD->hasBody(Def) || !Def || Def->isDependentContext() ||
              I >= Def->getNumParams())
            return true;
          const ParmVarDecl *Callee = Def->getParamDecl(I);
          if (!Open.insert(Callee).second)
            continue;
          bool Written = writesVarAt(Def->getBody(), Callee, Depth + 1, Open);
          Open.erase(Callee);
          if (Written)
            return true;
        }
  for (const Stmt *C : S->children())
    if (writesVarAt(C, D, Depth, Open))
      return true;
  return false;
}

} // namespace warplint
