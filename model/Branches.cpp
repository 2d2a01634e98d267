//===- Branches.cpp - every thread-dependent branch of a TU with its verdict ---===//
//
// TuModel::branches: each branch of each kernel's analysis (TuModel::kernelAnalysis)
// evaluated for the block shapes of the kernel's launches, the idioms that keep it silent
// (divergence/Idioms), the reasons that make it a note, its figures as the finding says
// them, and the grouping of places with one root cause into one finding.
//
//===----------------------------------------------------------------------------===//
#include "model/Branches.h"
#include "model/TuModel.h"

#include "model/KernelFilter.h"
#include "divergence/DataRace.h"
#include "divergence/Idioms.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "warplint/core/Arch.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

using namespace ::warplint::divergence;

namespace warplint {
using namespace clang;

bool BranchOptions::operator==(const BranchOptions &O) const {
  return ReportBoundsGuards == O.ReportBoundsGuards &&
         ReportLeaderPatterns == O.ReportLeaderPatterns &&
         ReportTreeReductionTails == O.ReportTreeReductionTails &&
         ReportDataDependent == O.ReportDataDependent &&
         ReportGridStrideLoops == O.ReportGridStrideLoops &&
         AssumedBlock.X == O.AssumedBlock.X && AssumedBlock.Y == O.AssumedBlock.Y &&
         AssumedBlock.Z == O.AssumedBlock.Z && IgnoredKernels == O.IgnoredKernels;
}

const char *branchSeverityName(BranchSeverity S) {
  switch (S) {
  case BranchSeverity::Warning:
    return "warning";
  case BranchSeverity::Note:
    return "note";
  case BranchSeverity::Silent:
    return "silent";
  }
  return "silent";
}

const char *branchKindText(BranchSite::KindT Kind) {
  return Kind == BranchSite::Loop          ? "loop condition on"
         : Kind == BranchSite::Switch      ? "switch on"
         : Kind == BranchSite::Conditional ? "'?:' on"
         : Kind == BranchSite::ShortCircuit ? "short-circuit operand on"
                                            : "branch on";
}

namespace {

std::string percent(double Fraction) {
  return std::to_string(unsigned(std::lround(100.0 * Fraction))) + "%";
}

std::string sourceText(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

/// The terms of a condition joined by `&&`, as written (parentheses and conversions aside).
std::vector<const Expr *> writtenConjuncts(const Expr *Cond) {
  std::vector<const Expr *> Out;
  std::function<void(const Expr *)> Split = [&](const Expr *X) {
    X = X->IgnoreParenImpCasts();
    if (auto *BO = dyn_cast<BinaryOperator>(X))
      if (BO->getOpcode() == BO_LAnd) {
        Split(BO->getLHS());
        Split(BO->getRHS());
        return;
      }
    Out.push_back(X);
  };
  Split(Cond);
  return Out;
}

/// The conjunction of the terms of S (through casts, `&&` and `&` between truth values)
/// that Keep accepts; null when it accepts none.
SymRef keepConjuncts(const SymRef &S, const std::function<bool(const SymRef &)> &Keep) {
  const Sym *T = S.get();
  while (T && T->Op == SymOp::Cast && T->A)
    T = T->A.get();
  if (T && (T->Op == SymOp::LAnd || (T->Op == SymOp::And && isTruthAndOr(T)))) {
    SymRef L = keepConjuncts(T->A, Keep), R = keepConjuncts(T->B, Keep);
    if (!L)
      return R;
    if (!R)
      return L;
    return makeBinary(SymOp::LAnd, L, R, 8, true);
  }
  return Keep(S) ? S : nullptr;
}

/// One root cause, one finding: the places of one kernel with the same condition as
/// written and the same figures (unrolled or generated code) are one finding at the first
/// place, with a note at each other place; a place that several instantiations of a
/// template report alike is one place. Instantiations of one template that report one
/// place with other figures: one finding, the first instantiation's, with the others'
/// figures as notes.
void groupFindings(std::vector<BranchModel> &Rs) {
  std::vector<size_t> Fs; // the records that are findings (warnings and notes)
  for (size_t I = 0; I < Rs.size(); ++I)
    if (Rs[I].Severity != BranchSeverity::Silent && !Rs[I].DataDependent)
      Fs.push_back(I);
  // Each group's first record (in record order) takes the later ones, looked up by key: a
  // scan of every later finding for each finding was quadratic (14,286 findings in a file
  // of 20,000 kernels: a tenth of its analysis, most of it comparing group keys).
  std::vector<bool> Done(Fs.size());
  // Other instantiations at the same place, kind and level: folded, a note each.
  std::map<std::tuple<unsigned, StringRef, StringRef, BranchSeverity>, size_t> SamePlace;
  for (size_t I = 0; I < Fs.size(); ++I) {
    BranchModel &B = Rs[Fs[I]];
    auto [It, New] = SamePlace.try_emplace(
        {B.Loc.getRawEncoding(), B.KernelName, branchKindText(B.Kind), B.Severity}, I);
    if (New)
      continue;
    BranchModel &A = Rs[Fs[It->second]];
    Done[I] = true;
    B.FoldedInto = Fs[It->second];
    if (A.GroupKey != B.GroupKey)
      A.Notes.push_back({B.Loc, "another instantiation of '" + B.KernelName + "': " +
                                    branchKindText(B.Kind) + " '" + B.Term + "' " + B.Figures});
  }
  // The same finding at other places (the group key): folded, each place listed once.
  std::unordered_map<std::string_view, std::pair<size_t, std::set<unsigned>>> Groups;
  for (size_t I = 0; I < Fs.size(); ++I) {
    if (Done[I])
      continue;
    BranchModel &B = Rs[Fs[I]];
    auto [It, New] = Groups.try_emplace(B.GroupKey);
    auto &[First, Locs] = It->second;
    if (New) {
      First = Fs[I];
      B.Places = {Fs[I]};
      Locs.insert(B.Loc.getRawEncoding());
      continue;
    }
    Done[I] = true;
    B.FoldedInto = First;
    if (Locs.insert(B.Loc.getRawEncoding()).second)
      Rs[First].Places.push_back(Fs[I]);
  }
}

} // namespace

FunctionParents::FunctionParents(ASTContext &Ctx) : Ctx(Ctx), Saved(Ctx.getTraversalScope()) {}

FunctionParents::~FunctionParents() {
  if (Changed)
    Ctx.setTraversalScope(Saved);
}

DynTypedNodeList FunctionParents::of(const FunctionDecl *Fn, const DynTypedNode &Node) {
  // A copy: Node may lie in the map that a change of scope below clears.
  DynTypedNode N = Node;
  // A template's body: its nodes may be its instantiations' too.
  if (!Whole && Fn && !Fn->isDependentContext() && !Fn->getDescribedFunctionTemplate() &&
      (!N.get<Stmt>() || !inPattern(Fn, N.get<Stmt>()))) {
    if (Scope != Fn) {
      Ctx.setTraversalScope({const_cast<FunctionDecl *>(Fn)});
      Scope = Fn;
      Changed = true;
    }
    DynTypedNodeList L = Ctx.getParents(N);
    bool Shared = L.empty() || llvm::any_of(L, [](const DynTypedNode &P) {
                    return P.get<CXXDefaultArgExpr>() || P.get<CXXDefaultInitExpr>();
                  });
    if (!Shared)
      return L;
  }
  if (!Whole)
    useWhole();
  return Ctx.getParents(N);
}

bool FunctionParents::inPattern(const FunctionDecl *Fn, const Stmt *S) {
  const FunctionDecl *P = Fn->getTemplateInstantiationPattern();
  if (!P || P == Fn || !P->getBody())
    return false;
  auto [It, New] = PatternNodes.try_emplace(P);
  if (New) {
    struct Walk : RecursiveASTVisitor<Walk> {
      bool shouldVisitImplicitCode() const { return true; }
      llvm::DenseSet<const Stmt *> &Out;
      explicit Walk(llvm::DenseSet<const Stmt *> &Out) : Out(Out) {}
      bool VisitStmt(Stmt *X) {
        Out.insert(X);
        return true;
      }
    } W(It->second);
    W.TraverseStmt(P->getBody());
  }
  return It->second.count(S) != 0;
}

void FunctionParents::useWhole() {
  Whole = true;
  Changed = true;
  bool WholeTu = Saved.size() == 1 && Saved.front() == Ctx.getTranslationUnitDecl();
  if (!WholeTu) {
    Ctx.setTraversalScope(Saved);
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Own;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (D->getLocation().isInvalid() || !SM.isInSystemHeader(D->getLocation()))
      Own.push_back(D);
  Ctx.setTraversalScope(Own);
}

/// Decides the branches of a TU's kernels under one set of options.
class BranchBuilder {
public:
  BranchBuilder(TuModel &M, const BranchOptions &O) : M(M), O(O) {}
  std::vector<BranchModel> build();

private:
  struct Launch {
    SourceLocation Loc;
    BlockShape Block;
    bool BlockKnown = true; ///< false: a launch whose block is computed at run time
    const Expr *Call = nullptr;                  ///< its arguments
    std::optional<std::array<uint64_t, 3>> Grid; ///< when a compile-time fact
    const FunctionDecl *Enclosing = nullptr;     ///< the launching function
  };
  /// What every branch of one kernel shares: its launches and their distinct block shapes,
  /// the grid facts the demotions read, the values its launches pass. Shapes points into
  /// Owned and AssumedLaunch: made in place, never copied.
  struct KernelContext {
    const KernelInfo *KI = nullptr;
    const FunctionDecl *Kernel = nullptr;
    std::string KernelName;
    std::vector<Launch> Owned;
    /// The launches whose block is known (else the assumed one), and every launch.
    std::vector<const Launch *> Shapes, AllOfKernel;
    bool Assumed = false;
    Launch AssumedLaunch;
    /// Each block shape once, however many launches share it; ShapeOf[I] is Shapes[I]'s.
    std::vector<BlockShape> Distinct;
    std::vector<size_t> ShapeOf;
    /// The whole grid is one warp: every launch in the TU is of one block of at most one
    /// warp (a `<<<1, 32>>>` one-shot), outside any loop.
    bool OneWarpGrid = false;
    /// Grid dimensions that may hold more than one block (bits x, y, z).
    unsigned WideGridDims = 7;
    /// The kernel's body has a loop, or a device function it calls has (its main work,
    /// beside which a one-time store is small).
    bool KernelHasLoop = false;
    /// The values the launches pass to the kernel's parameters, and those of one value.
    PassedValues Passed;
    std::map<unsigned, int64_t> Fixed;
    /// The analysis's variables, with the fixed values put in.
    std::vector<SymVarInfo> Vars;
    std::vector<BlockShape> Alternatives;
    /// The places already reported: one record per place.
    std::set<SourceLocation> Reported;
    /// The kernel's branch sites (the analysis's), to find an enclosing `if`'s.
    const std::vector<BranchSite> *Sites = nullptr;
    KernelContext() = default;
    KernelContext(const KernelContext &) = delete;
  };
  /// One branch as it is decided: the site with the launch values put in, its condition,
  /// its tallies per distinct block shape and what the verdict reads of them.
  struct BranchEval {
    BranchSite B;
    const std::vector<SymVarInfo> &Vars;
    const PassedValues &Passed;
    SourceLocation Loc;
    const Sym *CondS = nullptr;
    /// A guard that is silent only where it leaves some warp of the block whole.
    bool GuardIfPartial = false;
    /// The terms beside a bounds guard that the figures are of, and their text.
    SymRef Stronger;
    const Expr *StrongerExpr = nullptr;
    std::vector<EnvSet> Envs;
    std::vector<Tally> ByShape;
    bool RowLeader = false, Pick = false, PickRun = false;
    /// The thread-dependent equalities of a test of the domain's edge cells (none: 0, 0).
    EdgeCells Edge;
    /// An idiom that silences the branch but whose split the record keeps, evaluated per
    /// shape (the final write-out: the GPU still splits that warp, and ncu counts it).
    bool ShapesToo = false;
  };
  /// The value of a launch argument: a compile-time constant, or a parameter of the
  /// launching function that every call of it in the TU passes as one (one level).
  std::vector<int64_t> argumentValues(const Expr *Arg, const FunctionDecl *Enclosing,
                                      ASTContext &Ctx);
  void analyzeKernel(const KernelInfo &KI, std::vector<BranchModel> &Out);
  /// The kernel's launches (those whose known block can run, and those whose block is
  /// computed at run time), as the analysis lists them, and their distinct block shapes.
  void kernelLaunches(const KernelAnalysis &KA, KernelContext &K) const;
  /// OneWarpGrid and WideGridDims of the kernel's launches.
  void gridFacts(KernelContext &K) const;
  /// The parameters every launch passes as compile-time constants (Passed, Fixed), put
  /// into the analysis's variables.
  void launchValues(KernelContext &K, const ThreadDependence &TD);
  /// Analyses one branch with the given variables and launch values; sets Unevaluable
  /// when no block shape could be evaluated. No record: a branch a macro wrote, or a place
  /// already reported.
  std::optional<BranchModel> analyzeBranch(KernelContext &K, const BranchSite &Found,
                                            const std::vector<SymVarInfo> &Vars,
                                            const std::map<unsigned, int64_t> &Fixed,
                                            const PassedValues &Passed, bool &Unevaluable);
  /// A named idiom that keeps the branch silent (or the data-dependent verdict): true
  /// when R is decided. Sets E.GuardIfPartial for a guard silent only when partial.
  bool decidedByIdiom(KernelContext &K, BranchEval &E, BranchModel &R) const;
  /// The branch lies in the arm of an enclosing `if` that is a warp's or a group
  /// leader's write-out (isWarpResultWriteOut): it runs in the writing lanes alone.
  bool insideWriteOut(const KernelContext &K, const BranchSite &B) const;
  /// The conditions of the other `if` statements of B's else-if chain (their sites').
  std::vector<const ::warplint::divergence::Sym *>
  elseIfConditions(const KernelContext &K, const BranchSite &B) const;
  /// A bounds guard joined by `&&` to a stronger term: E.Stronger and E.StrongerExpr.
  void strongerTerm(BranchEval &E) const;
  /// The condition's conjuncts written as guards of a padded tile (isPaddingGuard): true
  /// when there are some, with Rest the other conjuncts (null: none).
  bool withoutPaddingGuards(const BranchEval &E, SymRef &Rest) const;
  /// Whether the tallies of a set of block shapes make a finding, and the worst of them.
  /// Why: the idiom or reason that keeps it silent when it returns false.
  bool decide(const BranchEval &E, const std::vector<Tally> &Ts, size_t &Worst,
              std::string *Why) const;
  /// Why a place is a note rather than a warning; empty for a warning.
  std::vector<std::string> demotions(const KernelContext &K, const BranchEval &E,
                                     const Tally &Worst) const;
  /// Lanes idle because of the data's shape (the edge of a triangle, a tile or a tail).
  std::optional<std::string> dataShapeDemotion(const KernelContext &K, const BranchEval &E) const;
  std::optional<std::string> fixedRoleDemotion(const KernelContext &K, const BranchEval &E) const;
  bool isStagedWindow(const KernelContext &K, const BranchEval &E) const;
  /// The finding's term, its figures as the message says them, and its group key.
  void describeFinding(const KernelContext &K, const BranchEval &E, const BranchSite &Found,
                       const Tally &Worst, const Launch &Chosen, BranchModel &R) const;
  /// The finding's notes: the assumed block, the launches that keep it uniform, the
  /// stronger term, a warp-uniform remapping, rows across warps, short arms.
  void findingNotes(const KernelContext &K, BranchEval &E, const Launch &Chosen,
                    BranchModel &R) const;
  /// The figures of every shape into the record (the lanes taking the branch summed up);
  /// moves E's tallies.
  void fillShapes(const KernelContext &K, BranchEval &E, size_t WorstShape,
                  BranchModel &R) const;

  TuModel &M;
  const BranchOptions &O;
  /// The parents the walks up read (build()'s, for its duration).
  FunctionParents *Parents = nullptr;
  /// Parents->of for the nodes of Fn, as the idioms ask.
  auto parentsIn(const FunctionDecl *Fn) const {
    return [this, Fn](const DynTypedNode &N) { return Parents->of(Fn, N); };
  }
  /// Lanes per warp or wavefront of the TU's target, and whether it is an AMD one.
  unsigned WaveSize = 32;
  bool Amd = false;
};

std::vector<BranchModel> BranchBuilder::build() {
  std::vector<BranchModel> Out;
  FunctionParents Walks(M.Ctx);
  Parents = &Walks;
  const TUFacts &Facts = M.facts();
  WaveSize = Facts.WaveSize ? Facts.WaveSize : 32;
  Amd = ::warplint::isAmdArchName(Facts.Arch);
  KernelFilter Ignored(O.IgnoredKernels);
  for (const KernelInfo *K : M.analysedKernels())
    if (!Ignored.ignores(functionName(K->Decl)))
      analyzeKernel(*K, Out);
  groupFindings(Out);
  for (BranchModel &R : Out)
    if (const BranchShape *W = R.worst(); W && R.finding())
      R.Impact = ::warplint::divergenceImpact(1.0 - W->Figures.WorstEfficiency);
  Parents = nullptr;
  return Out;
}

std::vector<int64_t> BranchBuilder::argumentValues(const Expr *Arg,
                                                   const FunctionDecl *Enclosing,
                                                   ASTContext &) {
  return M.passedValues(Arg, Enclosing);
}

namespace {

/// A launch inside a loop runs again and again (Rodinia lud's `lud_diagonal<<<1, 16>>>`
/// per step of the factorisation): its split is paid each time, on the critical path.
bool launchInLoop(const Expr *Call, ParentsOf ParentsFn) {
  DynTypedNodeList Parents = ParentsFn(DynTypedNode::create(*Call));
  for (unsigned Depth = 0; Depth < 64 && !Parents.empty(); ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (P.get<ForStmt>() || P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
      return true;
    if (P.get<FunctionDecl>())
      return false;
    Parents = ParentsFn(P);
  }
  return false;
}

/// A loop over a window clamped at the data's edges: `for (v = max(0, a); v < min(K, b);
/// ++v)` with K the same for every thread (the window's size) and a, b the thread's
/// distance to the data's edges, either clamp alone with the other side plain (`v < min(K,
/// b)` from 0, `v = max(0, a)` up to K).
bool isClampedWindow(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.LoopVar < 0 || size_t(B.LoopVar) >= Vars.size())
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Cond || !L.Step)
    return false;
  const Sym *Step = skipCasts(L.Step.get());
  if (!Step || Step->Op != SymOp::Add || !Step->A || !Step->B ||
      skipCasts(Step->A.get())->Op != SymOp::Var ||
      skipCasts(Step->A.get())->Value != int64_t(B.LoopVar) ||
      skipCasts(Step->B.get())->Op != SymOp::Const || skipCasts(Step->B.get())->Value != 1)
    return false;
  // The same for every thread: no thread index, no loop counter a thread starts from its
  // own index (a grid-stride loop's `i`).
  auto Uniform = [&](const Sym *S) {
    if (!S || mentionsThreadIdx(*S))
      return false;
    std::vector<unsigned> Used;
    collectVars(*S, Used);
    for (unsigned U : Used)
      if (U < Vars.size() && Vars[U].Kind == SymVarInfo::Loop &&
          Vars[U].LoopVariance != Variance::Uniform)
        return false;
    return true;
  };
  // The start: 0 or a constant, or max(0, thread's distance).
  const Sym *Init = skipCasts(L.Init.get());
  bool StartClamped = false;
  if (Init->Op == SymOp::Max && Init->A && Init->B) {
    const Sym *A = skipCasts(Init->A.get()), *Bs = skipCasts(Init->B.get());
    StartClamped = (A->Op == SymOp::Const && A->Value == 0 && !Uniform(Bs)) ||
                   (Bs->Op == SymOp::Const && Bs->Value == 0 && !Uniform(A));
  } else if (Init->Op != SymOp::Const) {
    return false;
  }
  // The end: `v < min(K, b)` (or `v < K` when the start is clamped).
  const Sym *Cond = skipCasts(L.Cond.get());
  if (!Cond || Cond->Op != SymOp::Lt || !Cond->A || !Cond->B)
    return false;
  const Sym *V = skipCasts(Cond->A.get());
  if (V->Op != SymOp::Var || V->Value != int64_t(B.LoopVar))
    return false;
  const Sym *End = skipCasts(Cond->B.get());
  bool EndClamped = false;
  if (End->Op == SymOp::Min && End->A && End->B) {
    const Sym *A = skipCasts(End->A.get()), *Bs = skipCasts(End->B.get());
    EndClamped = (Uniform(A) && !Uniform(Bs)) || (Uniform(Bs) && !Uniform(A));
  } else if (!Uniform(End)) {
    return false;
  }
  return (StartClamped || EndClamped) && (StartClamped || Init->Op == SymOp::Const);
}

/// S's `&&` chain without its pivot exclusions: the conjuncts `x != v` (or `v != x`) with v
/// the counter of a uniform loop and x a value of the thread. Null when nothing is left;
/// Dropped says whether one was taken away.
SymRef withoutPivotExclusions(const SymRef &S, const std::vector<SymVarInfo> &Vars,
                              bool &Dropped) {
  if (!S)
    return S;
  if (S->Op == SymOp::LAnd && S->A && S->B) {
    SymRef A = withoutPivotExclusions(S->A, Vars, Dropped);
    SymRef B = withoutPivotExclusions(S->B, Vars, Dropped);
    if (!A || !B)
      return A ? A : B;
    if (A == S->A && B == S->B)
      return S;
    return makeBinary(SymOp::LAnd, A, B, S->Bits, S->Unsigned);
  }
  if (S->Op == SymOp::Ne && S->A && S->B) {
    auto Counter = [&](const Sym *X) {
      X = skipCasts(X);
      return X && X->Op == SymOp::Var && size_t(X->Value) < Vars.size() &&
             Vars[size_t(X->Value)].Kind == SymVarInfo::Loop &&
             Vars[size_t(X->Value)].LoopVariance == Variance::Uniform;
    };
    const Sym *A = S->A.get(), *B = S->B.get();
    if ((Counter(B) && mentionsThreadIdx(*A)) || (Counter(A) && mentionsThreadIdx(*B))) {
      Dropped = true;
      return nullptr;
    }
  }
  return S;
}

/// S reads or writes memory in its own code (a subscript of an array that is not the
/// thread's, a dereference, `->`), not counting the functions it calls.
bool touchesMemory(const Stmt *S) {
  if (!S)
    return false;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(S); A && !isThreadLocalElement(A))
    return true;
  if (auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
    return true;
  if (auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    return true;
  for (const Stmt *C : S->children())
    if (touchesMemory(C))
      return true;
  return false;
}

/// S holds a loop, or calls a device function that has one, Depth calls down (a loop of a
/// helper the code calls is the caller's work too: a warp's scan in a helper); the
/// subtree Skip left out. With Memory, only a loop that reads or writes memory counts (a
/// row's columns, not a warp's shuffle reduction).
bool hasLoop(const Stmt *S, unsigned Depth = 2, const Stmt *Skip = nullptr,
             bool Memory = false) {
  if (!S || S == Skip)
    return false;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) && (!Memory || touchesMemory(S)))
    return true;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee(); F && Depth > 0) {
      const FunctionDecl *Def = nullptr;
      if (F->hasBody(Def) && Def && hasLoop(Def->getBody(), Depth - 1, nullptr, Memory))
        return true;
    }
  for (const Stmt *C : S->children())
    if (hasLoop(C, Depth, Skip, Memory))
      return true;
  return false;
}

/// The parameters of the callees looked into, each bound to the expression its call
/// passed (in the caller's terms, which may name the caller's own parameters in turn).
using ArgBindings = std::map<const ParmVarDecl *, const Expr *>;

/// E with casts and parentheses taken away, a parameter of a callee replaced by what its
/// call passed, and a local that its function never writes replaced by its initialiser:
/// the value E names (`num32Slabs` is `(numSlabs + 31) / 32`, the callee's `numSlabs` is
/// the caller's `solverDesc->numSlabs`).
const Expr *resolvedValue(const Expr *E, const ArgBindings &Bound, WritesVarMemo &Writes,
                          unsigned Depth = 0) {
  while (E && Depth < 8) {
    E = E->IgnoreParenImpCasts();
    if (auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) {
      E = Cleanups->getSubExpr();
      continue;
    }
    // `threadIdx.x` is a property read of an opaque `threadIdx`.
    if (auto *Opaque = dyn_cast<OpaqueValueExpr>(E); Opaque && Opaque->getSourceExpr()) {
      E = Opaque->getSourceExpr();
      continue;
    }
    auto *DR = dyn_cast<DeclRefExpr>(E);
    if (!DR)
      return E;
    if (auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
      auto It = Bound.find(P);
      if (It == Bound.end())
        return E;
      E = It->second;
    } else if (auto *V = dyn_cast<VarDecl>(DR->getDecl());
               V && V->hasLocalStorage() && V->getInit() && !V->getType()->isReferenceType()) {
      auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
      if (!F || !F->getBody() || Writes(F->getBody(), V))
        return E;
      E = V->getInit();
    } else {
      return E;
    }
    ++Depth;
  }
  return E;
}

/// A and B name the same value once resolved (resolvedValue; the same expression).
bool sameValue(const Expr *A, const Expr *B, const ArgBindings &Bound, const ASTContext &Ctx,
               WritesVarMemo &Writes) {
  A = resolvedValue(A, Bound, Writes);
  B = resolvedValue(B, Bound, Writes);
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// The most E can be: a constant, the smaller side of a `min` (`PxMin(x, 32u)`, `min(n,
/// 32)`), the larger bound of the two sides of a `?:`.
std::optional<int64_t> upperBound(const Expr *E, const ArgBindings &Bound, const ASTContext &Ctx,
                                  WritesVarMemo &Writes, unsigned Depth = 0) {
  E = resolvedValue(E, Bound, Writes);
  if (!E || Depth > 4 || E->isValueDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    auto T = upperBound(C->getTrueExpr(), Bound, Ctx, Writes, Depth + 1);
    auto F = upperBound(C->getFalseExpr(), Bound, Ctx, Writes, Depth + 1);
    if (T && F)
      return std::max(*T, *F);
    return std::nullopt;
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = C->getDirectCallee(); F && F->getIdentifier() &&
                                                      F->getName().ends_with_insensitive("min")) {
      std::optional<int64_t> Least;
      for (const Expr *A : C->arguments())
        if (auto B = upperBound(A, Bound, Ctx, Writes, Depth + 1))
          Least = Least ? std::min(*Least, *B) : *B;
      return Least;
    }
  return std::nullopt;
}

/// F counts the 32-bit words of a set of N bits (`for (i = 0; i < (N + 31) / 32; ++i)`,
/// `/ 32`, `>> 5`, through a local set once to it): N, or null.
const Expr *wordCountOf(const ForStmt *F, const ArgBindings &Bound, const ASTContext &Ctx,
                        WritesVarMemo &Writes) {
  const VarDecl *I = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
    I = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!I || !I->getInit() || I->getInit()->isValueDependent())
    return nullptr;
  std::optional<llvm::APSInt> Start = I->getInit()->getIntegerConstantExpr(Ctx);
  auto *Inc = dyn_cast_or_null<UnaryOperator>(F->getInc());
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Start || *Start != 0 || !Inc || !Inc->isIncrementOp() || !Cond ||
      Cond->getOpcode() != BO_LT)
    return nullptr;
  auto *LHS = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!LHS || LHS->getDecl() != I)
    return nullptr;
  auto *Words = dyn_cast_or_null<BinaryOperator>(resolvedValue(Cond->getRHS(), Bound, Writes));
  if (!Words || Words->isValueDependent())
    return nullptr;
  std::optional<llvm::APSInt> By = Words->getRHS()->getIntegerConstantExpr(Ctx);
  if (!By || !((Words->getOpcode() == BO_Div && *By == 32) ||
               (Words->getOpcode() == BO_Shr && *By == 5)))
    return nullptr;
  const Expr *N = Words->getLHS()->IgnoreParenImpCasts();
  // `(N + 31) / 32`: the words rounded up.
  if (auto *Add = dyn_cast<BinaryOperator>(N); Add && Add->getOpcode() == BO_Add) {
    std::optional<llvm::APSInt> Round =
        Add->getRHS()->isValueDependent() ? std::nullopt
                                          : Add->getRHS()->getIntegerConstantExpr(Ctx);
    if (Round && *Round == 31)
      N = Add->getLHS();
  }
  return N;
}

/// S holds a loop over memory that is work (hasLoop with Memory), a loop of constant
/// trips, 32 or fewer, being its body written out (what the compiler unrolls: a sum over
/// a block's warps' partials, a vector's lanes): its body is looked into instead; calls
/// followed Depth deep. Light, when given,
/// says of a loop (with its callee's parameters bound) that it costs no more than a loop
/// the lanes already shared: it is not counted.
/// Some node of S, S included, satisfies P (Skip and what is under it left out).
bool anyNode(const Stmt *S, const std::function<bool(const Stmt *)> &P,
             const Stmt *Skip = nullptr) {
  if (!S || S == Skip)
    return false;
  if (P(S))
    return true;
  for (const Stmt *C : S->children())
    if (anyNode(C, P, Skip))
      return true;
  return false;
}

/// A retry loop of one compare-and-swap (`while (!ok) { ...; ok = slot->
/// compare_exchange_strong(expected, desired); }`, `do { assumed = old; old =
/// atomicCAS(p, assumed, f(assumed)); } while (assumed != old);`): a `while` or `do` loop
/// with no loop inside, whose condition reads the swap's result (the swap itself, or a
/// variable its result is stored in). It is one atomic read-modify-write of one address,
/// repeated only while other threads win the race: no walk over memory. A loop that swaps
/// once per item of a count (`while (k < n) { cas(slot[k]); ++k; }`) is a walk.
bool isCasRetryLoop(const Stmt *S) {
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr;
  if (auto *W = dyn_cast<WhileStmt>(S)) {
    Body = W->getBody();
    Cond = W->getCond();
  } else if (auto *D = dyn_cast<DoStmt>(S)) {
    Body = D->getBody();
    Cond = D->getCond();
  }
  if (!Body || !Cond)
    return false;
  auto IsSwap = [](const Stmt *X) {
    auto *C = dyn_cast<CallExpr>(X);
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier())
      return false;
    StringRef N = F->getName();
    return N.starts_with("atomicCAS") || N.starts_with("compare_exchange") ||
           N.starts_with("__hip_atomic_compare_exchange") ||
           N.starts_with("__atomic_compare_exchange");
  };
  auto HasSwap = [&](const Stmt *X) { return anyNode(X, IsSwap); };
  // The variables that hold a swap's result, and whether the body nests a loop.
  llvm::SmallPtrSet<const Decl *, 4> Results;
  bool Nested = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
    if (!X || Nested)
      return;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(X)) {
      Nested = true;
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(X); B && B->isAssignmentOp() && HasSwap(B->getRHS()))
      if (auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
        Results.insert(D->getDecl());
    if (auto *DS = dyn_cast<DeclStmt>(X))
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D); V && V->getInit() && HasSwap(V->getInit()))
          Results.insert(V);
    for (const Stmt *C : X->children())
      Walk(C);
  };
  Walk(Body);
  if (Nested)
    return false;
  return anyNode(Cond, [&](const Stmt *X) {
    auto *D = dyn_cast<DeclRefExpr>(X);
    return IsSwap(X) || (D && Results.contains(D->getDecl()));
  });
}

bool hasWorkLoop(const Stmt *S, const ASTContext &Ctx, unsigned Depth = 2,
                 const std::function<bool(const ForStmt *, const ArgBindings &)> &Light = {},
                 ArgBindings *Bound = nullptr) {
  if (!S)
    return false;
  ArgBindings None;
  if (!Bound)
    Bound = &None;
  if (auto *F = dyn_cast<ForStmt>(S)) {
    if (std::optional<int64_t> Span = constantTripSpan(F, Ctx); Span && *Span <= 32)
      return hasWorkLoop(F->getBody(), Ctx, Depth, Light, Bound);
    if (Light && Light(F, *Bound))
      return hasWorkLoop(F->getBody(), Ctx, Depth, Light, Bound);
  }
  if (isCasRetryLoop(S))
    return false;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) && touchesMemory(S))
    return true;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee(); F && Depth > 0) {
      const FunctionDecl *Def = nullptr;
      if (F->hasBody(Def) && Def) {
        ArgBindings Inner = *Bound;
        for (unsigned I = 0; I < C->getNumArgs() && I < Def->getNumParams(); ++I)
          Inner[Def->getParamDecl(I)] = C->getArg(I);
        if (hasWorkLoop(Def->getBody(), Ctx, Depth - 1, Light, &Inner))
          return true;
      }
    }
  for (const Stmt *C : S->children())
    if (hasWorkLoop(C, Ctx, Depth, Light, Bound))
      return true;
  return false;
}

/// E reads the thread's index, directly or through the locals it is computed from.
bool readsThreadIndex(const Expr *E, WritesVarMemo &Writes, unsigned Depth = 0) {
  if (!E || Depth > 6)
    return false;
  E = resolvedValue(E, {}, Writes);
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    StringRef N = DR->getDecl()->getName();
    return N == "threadIdx" || N == "__lane_id";
  }
  for (const Stmt *C : E->children())
    if (auto *X = dyn_cast_or_null<Expr>(C); X && readsThreadIndex(X, Writes, Depth + 1))
      return true;
  return false;
}

/// The bounds N of the loops of Body that end before Place and that the lanes of a group
/// of at most a warp share: `for (b = lane's start; b < N; b += P)` with P 32 or less
/// (PhysX's `b += numThreadsPerBody`, `numThreadsPerBody = PxMin(..., 32u)`).
std::vector<const Expr *> sharedLoopBounds(const Stmt *Body, SourceLocation Place,
                                           const ASTContext &Ctx, WritesVarMemo &Writes) {
  std::vector<const Expr *> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *F = dyn_cast<ForStmt>(S);
        F && SM.isBeforeInTranslationUnit(F->getEndLoc(), Place)) {
      const VarDecl *I = nullptr;
      if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
        I = dyn_cast<VarDecl>(DS->getSingleDecl());
      auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
      auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
      auto *LHS = Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts()) : nullptr;
      auto *Counter = Inc ? dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts()) : nullptr;
      if (I && I->getInit() && readsThreadIndex(I->getInit(), Writes) && Cond &&
          Cond->getOpcode() == BO_LT && LHS && LHS->getDecl() == I && Inc &&
          Inc->getOpcode() == BO_AddAssign && Counter && Counter->getDecl() == I)
        if (std::optional<int64_t> P = upperBound(Inc->getRHS(), {}, Ctx, Writes); P && *P >= 1 && *P <= 32)
          Out.push_back(Cond->getRHS());
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Out;
}

/// The bounds N of the loops `for (i = 0; i < N; ...)` of Body that end before Place and
/// shuffle values across the warp (a call whose name holds "shfl" or "shuffle"): a
/// reduction of N values per lane over the lanes of a group (hypre's sums of num_vectors
/// products, `for (i < num_vectors) for (d = K / 2; d > 0; d >>= 1) sum[i] +=
/// warp_shuffle_down_sync(...)`).
/// N of `for (i = 0; i < N; ...)`, or null for another head.
const Expr *boundFromZero(const ForStmt *F, const ASTContext &Ctx) {
  std::optional<ForHead> H = forHead(F);
  if (!H || H->Op != BO_LT || !H->Init || H->Init->isValueDependent())
    return nullptr;
  std::optional<llvm::APSInt> Z = H->Init->getIntegerConstantExpr(Ctx);
  return Z && *Z == 0 ? H->Bound : nullptr;
}

std::vector<const Expr *> reducedLoopBounds(const Stmt *Body, SourceLocation Place,
                                            const ASTContext &Ctx) {
  std::vector<const Expr *> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  auto Shuffles = [](const Stmt *S) {
    return anyNode(S, [](const Stmt *X) {
      auto *C = dyn_cast<CallExpr>(X);
      const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
      if (!F || !F->getIdentifier())
        return false;
      std::string N = F->getName().lower();
      return N.find("shfl") != std::string::npos || N.find("shuffle") != std::string::npos;
    });
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *F = dyn_cast<ForStmt>(S);
        F && SM.isBeforeInTranslationUnit(F->getEndLoc(), Place) && Shuffles(F->getBody()))
      if (const Expr *N = boundFromZero(F, Ctx))
        Out.push_back(N);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Out;
}

/// The base variable of an element access (`s[i]`, `p[i].x`), or null.
const ValueDecl *elementBase(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  while (auto *M = dyn_cast_or_null<MemberExpr>(E))
    E = M->getBase()->IgnoreParenImpCasts();
  auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E);
  if (!A)
    return nullptr;
  auto *DR = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
  return DR ? DR->getDecl() : nullptr;
}

/// S writes an element of an array and reads another element of it (`s[t] += s[t + 16]`,
/// `v[t] = v[t] + v[t + 8]`): a step of the warp's own tree or scan, where a lane reads
/// what another wrote. Reading the element it writes (`a[i] = a[i] * d`) is the lane's own.
/// Without Copies, a plain copy from one element to another (`a[dst] = a[src]`, or of a value
/// made from that one element, `conj(a[src])`) is no step.
bool readsWhatItWrites(const Stmt *S, ASTContext &Ctx, bool Copies = true) {
  if (!S)
    return false;
  if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    if (const ValueDecl *W = elementBase(B->getLHS());
        W && (Copies || B->getOpcode() != BO_Assign ||
              elementBase(B->getRHS()) != W)) {
      bool Reads = false; // a compound assignment reads the lane's own element
      std::function<void(const Stmt *)> Find = [&](const Stmt *X) {
        if (!X || Reads)
          return;
        if (auto *E = dyn_cast<Expr>(X); E && elementBase(E) == W) {
          // The lane's own element (the same index as written) is no other lane's.
          llvm::FoldingSetNodeID L, R;
          B->getLHS()->IgnoreParenImpCasts()->Profile(L, Ctx, /*Canonical=*/true);
          E->IgnoreParenImpCasts()->Profile(R, Ctx, /*Canonical=*/true);
          Reads |= L != R;
          return;
        }
        for (const Stmt *C : X->children())
          Find(C);
      };
      Find(B->getRHS());
      // Without copies: a value made from one element alone (`la[td] = conj(la[tx * 32 +
      // ty])`, a mirror's entry) moves it, as a copy does; a step of a tree combines two.
      if (Reads && !Copies && B->getOpcode() == BO_Assign) {
        unsigned Elements = 0;
        std::function<void(const Stmt *)> Count = [&](const Stmt *X) {
          if (!X)
            return;
          if (auto *E = dyn_cast<Expr>(X); E && elementBase(E) == W) {
            ++Elements;
            return;
          }
          for (const Stmt *C : X->children())
            Count(C);
        };
        Count(B->getRHS());
        Reads = Elements > 1;
      }
      if (Reads)
        return true;
    }
  for (const Stmt *C : S->children())
    if (readsWhatItWrites(C, Ctx, Copies))
      return true;
  return false;
}

} // namespace

void BranchBuilder::kernelLaunches(const KernelAnalysis &KA, KernelContext &K) const {
  K.Owned.reserve(KA.Launches.size());
  for (const KernelLaunch &KL : KA.Launches) {
    const LaunchSite &L = *KL.Site;
    Launch Site{L.Loc, BlockShape{}, KL.Shape.has_value(), L.Call, L.Grid.Dims, L.Enclosing};
    if (KL.Shape)
      Site.Block = KA.Shapes[*KL.Shape].Shape;
    K.Owned.push_back(Site);
  }
  for (const Launch &L : K.Owned) {
    K.AllOfKernel.push_back(&L);
    if (L.BlockKnown)
      K.Shapes.push_back(&L);
  }
  K.Assumed = K.Shapes.empty();
  K.AssumedLaunch = Launch{SourceLocation(), fitUnitDims(O.AssumedBlock, KA)};
  if (K.Assumed)
    K.Shapes.push_back(&K.AssumedLaunch);
  // Each block shape is evaluated once, however many launches share it.
  for (const Launch *L : K.Shapes) {
    size_t I = 0;
    while (I < K.Distinct.size() &&
           !(K.Distinct[I].X == L->Block.X && K.Distinct[I].Y == L->Block.Y &&
             K.Distinct[I].Z == L->Block.Z))
      ++I;
    if (I == K.Distinct.size())
      K.Distinct.push_back(L->Block);
    K.ShapeOf.push_back(I);
  }
}

void BranchBuilder::gridFacts(KernelContext &K) const {
  K.OneWarpGrid = !K.Assumed && !K.AllOfKernel.empty();
  for (const Launch *L : K.AllOfKernel)
    K.OneWarpGrid &= L->BlockKnown && L->Grid &&
                     (*L->Grid)[0] * (*L->Grid)[1] * (*L->Grid)[2] == 1 &&
                     L->Block.threads() <= WaveSize && L->Call && !launchInLoop(L->Call, parentsIn(L->Enclosing));
  K.WideGridDims = 7;
  if (!K.AllOfKernel.empty()) {
    K.WideGridDims = 0;
    for (const Launch *L : K.AllOfKernel)
      for (unsigned D = 0; D < 3; ++D)
        if (!L->Grid || (*L->Grid)[D] > 1)
          K.WideGridDims |= 1u << D;
  }
}

void BranchBuilder::launchValues(KernelContext &K, const ThreadDependence &TD) {
  ASTContext &Ctx = M.Ctx;
  // Real values before sampled ones: a parameter that every launch of the kernel in this
  // TU passes as a compile-time constant takes those values; one value replaces the
  // parameter in every expression (so the idioms see a constant, not a run-time size).
  K.Vars = TD.vars();
  std::vector<SymVarInfo> &Vars = K.Vars;
  if (K.AllOfKernel.empty())
    return;
  for (unsigned V = 0; V < Vars.size(); ++V) {
    if (Vars[V].Kind != SymVarInfo::Param || Vars[V].ParamIndex < 0)
      continue;
    std::set<int64_t> Values;
    bool All = true;
    for (const Launch *L : K.AllOfKernel) {
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
      QualType T = unsigned(Vars[V].ParamIndex) < K.Kernel->getNumParams()
                       ? K.Kernel->getParamDecl(Vars[V].ParamIndex)->getType()
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
    K.Passed[V].assign(Values.begin(), Values.end());
    Vars[V].Launched = true;
    if (Values.size() == 1)
      K.Fixed[V] = *Values.begin();
  }
  std::map<const Sym *, SymRef> Memo;
  for (SymVarInfo &I : Vars) {
    I.Init = substituteVars(I.Init, K.Fixed, Memo);
    I.Cond = substituteVars(I.Cond, K.Fixed, Memo);
    I.Step = substituteVars(I.Step, K.Fixed, Memo);
  }
}

void BranchBuilder::analyzeKernel(const KernelInfo &KI, std::vector<BranchModel> &Out) {
  const KernelAnalysis &KA = M.kernelAnalysis(KI.Decl);
  KernelContext K;
  K.KI = &KI;
  K.Kernel = KA.Kernel;
  kernelLaunches(KA, K);
  gridFacts(K);
  // The kernel's one thread-dependence analysis (the model's, shared with every reader).
  const ThreadDependence &TD = KA.TD;
  launchValues(K, TD);
  K.KernelName = K.Kernel->getNameAsString();
  K.KernelHasLoop = hasLoop(K.Kernel->getBody());
  K.Alternatives = branchAlternatives(WaveSize);
  K.Sites = &TD.branches();
  for (const BranchSite &Found : TD.branches()) {
    bool Unevaluable = false;
    std::optional<BranchModel> F =
        analyzeBranch(K, Found, K.Vars, K.Fixed, K.Passed, Unevaluable);
    // The launch values leave nothing to evaluate (one end of a loop known, the other
    // sampled and always past it): the sampled values alone, as without them.
    if (F && F->Severity == BranchSeverity::Silent && Unevaluable && !K.Fixed.empty())
      if (std::optional<BranchModel> Again =
              analyzeBranch(K, Found, TD.vars(), {}, {}, Unevaluable))
        F = std::move(Again);
    if (F)
      Out.push_back(std::move(*F));
  }
}

std::optional<BranchModel>
BranchBuilder::analyzeBranch(KernelContext &K, const BranchSite &Found,
                             const std::vector<SymVarInfo> &Vars,
                             const std::map<unsigned, int64_t> &Fixed, const PassedValues &Passed,
                             bool &Unevaluable) {
  ASTContext &Ctx = M.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  BranchEval E{Found, Vars, Passed};
  BranchSite &B = E.B;
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
  E.Loc = SM.getExpansionLoc(B.Cond->getBeginLoc());
  if (E.Loc.isInvalid() || K.Reported.count(E.Loc))
    return std::nullopt;
  BranchModel R;
  R.Kernel = K.KI;
  R.KernelDecl = K.Kernel;
  R.KernelName = K.KernelName;
  R.Kind = B.Kind;
  R.Site = &Found;
  R.Loc = E.Loc;
  R.Range = B.Cond->getSourceRange();
  R.Condition = sourceText(B.Cond, Ctx);
  R.AssumedShape = K.Assumed;
  R.WaveSize = WaveSize;
  R.Amd = Amd;
  if (decidedByIdiom(K, E, R)) {
    if (E.ShapesToo) {
      E.Envs.resize(K.Distinct.size());
      for (size_t I = 0; I < K.Distinct.size(); ++I)
        E.ByShape.push_back(evaluateBranch(B, Vars, K.Distinct[I], WaveSize, Passed, nullptr,
                                           &E.Envs[I]));
      fillShapes(K, E, K.Distinct.size(), R);
    }
    return R;
  }
  strongerTerm(E);

  // Evaluate lane by lane for every known block shape.
  E.Envs.resize(K.Distinct.size());
  for (size_t I = 0; I < K.Distinct.size(); ++I)
    E.ByShape.push_back(evaluateBranch(B, Vars, K.Distinct[I], WaveSize, Passed, E.Stronger,
                                       &E.Envs[I]));
  E.RowLeader = E.CondS && isRowLeaderTest(E.CondS, Vars);
  // A pick among the conjuncts (`vo == tlength % V_PER_ITER && (Dh == Dh_MAX || vi < Dh)`,
  // FasterTransformer's decoder attention): the arm's lanes are among the picked ones.
  E.Pick = false;
  if (E.CondS) {
    std::vector<const ::warplint::divergence::Sym *> Parts;
    conjuncts(E.CondS, Parts);
    bool Run = true, Any = false;
    for (const ::warplint::divergence::Sym *P : Parts) {
      E.Pick |= isUniformPick(P);
      if (!P || !mentionsThreadIdx(*P))
        continue;
      Any = true;
      auto *Q = skipCasts(P);
      const ::warplint::divergence::Sym *Side =
          Q && Q->A && Q->B ? (mentionsThreadIdx(*Q->A) ? Q->A.get() : Q->B.get()) : nullptr;
      Run &= isUniformPick(P) && Side && isMonotone(Side, &Vars);
    }
    // One pick of a coordinate that grows with the thread (`j == k`, `j != k` with j = tid
    // / N): the lanes picked are one run, so at most the two warps at its ends split.
    E.PickRun = Any && Run && Parts.size() == 1;
    E.Edge = edgeCellEqualities(E.CondS, Vars, elseIfConditions(K, B));
  }
  size_t WorstShape;
  if (!decide(E, E.ByShape, WorstShape, &R.Idiom)) {
    Unevaluable = true;
    for (const Tally &T : E.ByShape)
      Unevaluable &= !T.Evaluated;
    fillShapes(K, E, WorstShape, R);
    return R;
  }
  const Tally &Worst = E.ByShape[WorstShape];
  const Launch *Chosen = nullptr;
  for (size_t I = 0; I < K.Shapes.size() && !Chosen; ++I)
    if (K.ShapeOf[I] == WorstShape)
      Chosen = K.Shapes[I];

  std::vector<std::string> Demoted = demotions(K, E, Worst);
  R.Severity = Demoted.empty() ? BranchSeverity::Warning : BranchSeverity::Note;
  K.Reported.insert(E.Loc);
  describeFinding(K, E, Found, Worst, *Chosen, R);
  R.NoteReasons = Demoted;
  findingNotes(K, E, *Chosen, R);
  fillShapes(K, E, WorstShape, R);
  return R;
}

std::vector<const ::warplint::divergence::Sym *>
BranchBuilder::elseIfConditions(const KernelContext &K, const BranchSite &B) const {
  std::vector<const ::warplint::divergence::Sym *> Out;
  auto *If = B.Kind == BranchSite::If ? dyn_cast_or_null<IfStmt>(B.Branch) : nullptr;
  if (!If || !K.Sites)
    return Out;
  // The `if` statements of one chain: up through the ifs whose else this one is, then
  // down through the else-ifs.
  std::set<const Stmt *> Chain;
  auto ParentsFn = parentsIn(K.Kernel);
  const IfStmt *Top = If;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Ps = ParentsFn(DynTypedNode::create(*Top));
    auto *Up = Ps.empty() ? nullptr : Ps[0].get<IfStmt>();
    if (!Up || Up->getElse() != Top)
      break;
    Top = Up;
  }
  for (const IfStmt *Cur = Top; Cur && Chain.size() < 64;
       Cur = dyn_cast_or_null<IfStmt>(Cur->getElse()))
    if (Cur != If)
      Chain.insert(Cur);
  for (const BranchSite &S : *K.Sites)
    if (S.Kind == BranchSite::If && Chain.count(S.Branch) && S.CondVal.S)
      Out.push_back(S.CondVal.S.get());
  return Out;
}

bool BranchBuilder::decidedByIdiom(KernelContext &K, BranchEval &E, BranchModel &R) const {
  const BranchSite &B = E.B;
  const std::vector<SymVarInfo> &Vars = E.Vars;
  // Named idioms, each with its option.
  // A lane's bit of a loaded word (`mask & (1 << lane)`) is a packed flag per lane: the
  // data's choice of lanes, as a flag array's.
  if ((B.CondVal.V == Variance::Data && !(B.Kind == BranchSite::Loop && B.LoopVar >= 0 &&
                                           Vars[B.LoopVar].LoopVariance != Variance::Data &&
                                           Vars[B.LoopVar].Cond)) ||
      (B.Kind != BranchSite::Loop && B.CondVal.S && isLaneBitOfLoad(B.CondVal.S.get(), Vars))) {
    R.DataDependent = true;
    R.LaneBits = B.CondVal.V != Variance::Data;
    R.Idiom = "data-dependent";
    if (O.ReportDataDependent) {
      K.Reported.insert(E.Loc);
      R.Severity = BranchSeverity::Warning;
    }
    return true;
  }
  E.CondS = B.CondVal.S.get();
  const Sym *CondS = E.CondS;
  if (isStrideLoop(B, Vars) && !O.ReportGridStrideLoops) {
    R.Idiom = "stride-loop";
    return true;
  }
  // A bounds guard of a block-local index against a compile-time limit splits the same
  // warps in every block: silent only where it leaves some warp of the block whole. So is
  // a loop from a thread index stepping by one: each lane runs its own triangle of trips,
  // reported where every warp that runs it splits; a remainder of a few elements taken
  // by the first lanes (`for (i = threadIdx.x + start; i < V; i++)`) is a tail.
  E.GuardIfPartial = isPerLaneStart(B, Vars) && !O.ReportGridStrideLoops;
  // A guard of a padded tile (`Dh == Dh_MAX || vi < Dh`) among the conjuncts is a bounds
  // guard: alone, silent as one; beside other terms, the figures and idioms are theirs.
  if (CondS && B.Kind == BranchSite::If && !O.ReportBoundsGuards) {
    SymRef Rest;
    if (withoutPaddingGuards(E, Rest)) {
      if (!Rest || !mentionsThreadIdx(*Rest)) {
        R.Idiom = "bounds-guard";
        return true;
      }
      E.Stronger = Rest;
      E.CondS = CondS = Rest.get();
    }
  }
  bool OtherTail = CondS && (isTreeReductionTail(CondS, Vars) ||
                             isUnrolledTreeStep(B, CondS, M.Ctx) ||
                             isReductionFinalStep(B, CondS, parentsIn(K.Kernel)) ||
                             isWarpResultWriteOut(B, CondS, parentsIn(K.Kernel)) ||
                             insideWriteOut(K, B));
  bool FinalWriteOut = !OtherTail && CondS && K.Sites &&
                       isFinalGroupWriteOut(B, CondS, parentsIn(K.Kernel), *K.Sites, K.Kernel,
                                            M.Ctx, Vars);
  if (OtherTail || FinalWriteOut) {
    if (!O.ReportTreeReductionTails) {
      E.ShapesToo = FinalWriteOut;
      R.Idiom = "tree-reduction-tail";
      return true;
    }
  } else if (CondS && isBoundsGuard(CondS, Vars) && !isStrideLoop(B, Vars) &&
             !isPerLaneTripCount(B, Vars) && !isPerLaneStart(B, Vars)) {
    if (!O.ReportBoundsGuards) {
      if (!isBlockLocalGuard(CondS, Vars)) {
        R.Idiom = "bounds-guard";
        return true;
      }
      E.GuardIfPartial = true;
    }
  }
  return false;
}

bool BranchBuilder::insideWriteOut(const KernelContext &K, const BranchSite &B) const {
  if (!K.Sites || !B.Branch)
    return false;
  auto ParentsFn = parentsIn(K.Kernel);
  const Stmt *Cur = B.Branch;
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    DynTypedNodeList Ps = ParentsFn(DynTypedNode::create(*Cur));
    // An initializer's parent is its variable; the variable's is its declaration.
    if (!Ps.empty() && Ps[0].get<VarDecl>())
      Ps = ParentsFn(Ps[0]);
    if (Ps.empty())
      return false;
    const Stmt *Up = Ps[0].get<Stmt>();
    if (!Up)
      return false;
    if (auto *If = dyn_cast<IfStmt>(Up); If && If->getThen() == Cur)
      for (const BranchSite &S : *K.Sites)
        if (S.Branch == If && S.Kind == BranchSite::If) {
          SymRef C = S.CondVal.S;
          if (!K.Fixed.empty()) {
            std::map<const Sym *, SymRef> Memo;
            C = substituteVars(C, K.Fixed, Memo);
          }
          if (C && isWarpResultWriteOut(S, C.get(), ParentsFn))
            return true;
        }
    Cur = Up;
  }
  return false;
}

bool BranchBuilder::withoutPaddingGuards(const BranchEval &E, SymRef &Rest) const {
  const BranchSite &B = E.B;
  std::vector<const Expr *> Written = writtenConjuncts(B.Cond);
  std::vector<const Sym *> Parts;
  conjuncts(B.CondVal.S.get(), Parts);
  // The written conjuncts and the analysis's must be the same terms, one for one.
  if (Written.size() != Parts.size())
    return false;
  std::set<const Sym *> Drop;
  for (size_t I = 0; I < Parts.size(); ++I)
    if (isPaddingGuard(Written[I], M.Ctx))
      Drop.insert(Parts[I]);
  if (Drop.empty())
    return false;
  Rest = keepConjuncts(B.CondVal.S, [&](const SymRef &X) { return !Drop.count(X.get()); });
  return true;
}

namespace {
/// A bounds guard that only takes the grid's tail away: not a block-local one (thread
/// indices against compile-time limits), and its thread side reads a block index or a loop
/// variable (a global index, or a stride loop's, against a run-time size). `t / K == 0`
/// or `threadIdx.x < n` keep a prefix of every block, most of its warps out: no tail.
bool isGridTailGuard(const Sym *P, const std::vector<SymVarInfo> &Vars) {
  if (!isBoundsGuard(P, Vars) || isBlockLocalGuard(P, Vars))
    return false;
  std::vector<unsigned> Used;
  collectVars(*P, Used);
  for (unsigned V : Used)
    if (V < Vars.size() &&
        (Vars[V].Kind == SymVarInfo::BlockIdx || Vars[V].Kind == SymVarInfo::Loop ||
         Vars[V].Kind == SymVarInfo::Iteration))
      return true;
  return false;
}
} // namespace

void BranchBuilder::strongerTerm(BranchEval &E) const {
  const BranchSite &B = E.B;
  if (E.Stronger)
    return; // already the terms beside a padded tile's guard
  const std::vector<SymVarInfo> &Vars = E.Vars;
  const Sym *CondS = E.CondS;
  // A bounds guard joined by `&&` to a stronger term (`ixj > i && i < n`) only takes
  // the grid's tail away: the figure is that of the other terms, and the term named is
  // theirs.
  if (!(CondS && B.Kind == BranchSite::If && !O.ReportBoundsGuards))
    return;
  std::vector<const Sym *> Parts;
  conjuncts(CondS, Parts);
  std::vector<const Expr *> Written = writtenConjuncts(B.Cond);
  bool Guard = false;
  std::vector<size_t> Others;
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (!mentionsThreadIdx(*Parts[I]))
      continue;
    if (isGridTailGuard(Parts[I], Vars))
      Guard = true;
    else
      Others.push_back(I);
  }
  if (!Guard || Others.empty())
    return;
  E.Stronger = keepConjuncts(B.CondVal.S, [&](const SymRef &X) {
    return !mentionsThreadIdx(*X) || !isGridTailGuard(X.get(), Vars);
  });
  // Named by its text, unless a macro wrote it (`IN_RANGE(tx, ...)`): then by the
  // condition's first thread-dependent term, as any condition.
  if (Written.size() == Parts.size() && !Written[Others.front()]->getBeginLoc().isMacroID() &&
      !sourceText(Written[Others.front()], M.Ctx).empty())
    E.StrongerExpr = Written[Others.front()];
}

bool BranchBuilder::decide(const BranchEval &E, const std::vector<Tally> &Ts, size_t &Worst,
                           std::string *Why) const {
  Worst = Ts.size();
  for (size_t I = 0; I < Ts.size(); ++I) {
    const Tally &T = Ts[I];
    if (T.Evaluated && T.Divergent > 0 &&
        (Worst == Ts.size() || T.Divergent * Ts[Worst].Total > Ts[Worst].Divergent * T.Total))
      Worst = I;
  }
  if (Worst == Ts.size()) {
    // uniform for every shape, or not evaluable: stay silent
    if (Why) {
      bool Any = false;
      for (const Tally &T : Ts)
        Any |= T.Evaluated;
      *Why = Any ? "warp-uniform" : "not-evaluable";
    }
    return false;
  }
  if (E.GuardIfPartial) {
    // Reported when, for some shape, every warp that reaches it splits (a block of one
    // warp: `threadIdx.x < 16` with 32 threads; rows of 16 with `threadIdx.x < 8`; a
    // triangle of trips per lane).
    bool Whole = false;
    for (const Tally &T : Ts)
      Whole |= T.Evaluated && T.EveryWarpSplits;
    if (!Whole) {
      if (Why)
        *Why = "partial-guard";
      return false;
    }
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
  bool TwoWarps = true;
  for (const Tally &T : Ts)
    if (T.Evaluated)
      TwoWarps &= T.MaxDivergentPerEnv <= 2;
  Leader |= E.RowLeader || (E.Pick && OneWarp) || (E.PickRun && TwoWarps);
  if (Leader && !O.ReportLeaderPatterns) {
    if (Why)
      *Why = "leader";
    return false;
  }
  // The cells on the domain's edge (a Dirichlet boundary, `i == 0 || i == NX - 1 || ...`;
  // a picture's axes, `x == half || y == half`): each equality holds for one lane of a
  // row at most, or for whole rows; a warp's lanes on the smaller side are never more than
  // one per row per column equality and a row per row equality (rows narrower than a
  // warp; a row a warp wide or more splits no warp). The edge's cells take their arm and
  // the others theirs: O(perimeter) lanes beside O(area), a leader's pattern.
  // Equalities of a flattened index's coordinates alone (EdgeCells::Flat) are the domain's
  // edge whatever the sampled size makes of each warp.
  bool Edge = E.Edge.Columns + E.Edge.Rows + E.Edge.Flat > 0;
  for (const Tally &T : Ts)
    if (T.Evaluated && E.Edge.Columns + E.Edge.Rows > 0) {
      unsigned Row = T.RowWidth ? T.RowWidth : 32;
      unsigned RowsPerWarp = Row >= 32 ? 1 : (32 + Row - 1) / Row;
      unsigned RowLanes = Row >= 32 ? 0 : Row;
      Edge &= T.MaxMinority <= E.Edge.Columns * RowsPerWarp + E.Edge.Rows * RowLanes;
    }
  if (Edge && !O.ReportLeaderPatterns) {
    if (Why)
      *Why = "edge-cells";
    return false;
  }
  return true;
}

void BranchBuilder::fillShapes(const KernelContext &K, BranchEval &E, size_t WorstShape,
                               BranchModel &R) const {
  for (size_t I = 0; I < K.Distinct.size(); ++I) {
    BranchShape S;
    S.Shape = K.Distinct[I];
    for (size_t J = 0; J < K.Shapes.size(); ++J)
      if (K.ShapeOf[J] == I && K.Shapes[J]->Loc.isValid()) {
        S.Launch = K.Shapes[J]->Loc;
        break;
      }
    S.Figures = std::move(E.ByShape[I]);
    for (int64_t N : S.Figures.TrueLanesPerEnv) {
      S.TrueLanesMin = S.TrueLanesMin < 0 ? N : std::min(S.TrueLanesMin, N);
      S.TrueLanesMax = std::max(S.TrueLanesMax, N);
    }
    S.Figures.TrueLanesPerEnv.clear();
    S.Figures.TrueLanesPerEnv.shrink_to_fit();
    R.PerShape.push_back(std::move(S));
  }
  if (WorstShape < K.Distinct.size())
    R.Worst = WorstShape;
}

namespace {

/// S reads a run-time value that is sampled: a kernel parameter or a loaded value that no
/// launch passes.
bool readsSampled(const Sym &S, const std::vector<SymVarInfo> &Vars, const PassedValues &Passed) {
  std::vector<unsigned> Used;
  collectVars(S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() &&
        (Vars[V].Kind == SymVarInfo::Param || Vars[V].Kind == SymVarInfo::Opaque) &&
        !Passed.count(V))
      return true;
  return false;
}

/// A thread-dependent conjunct of S (through casts, `c != 0`, a flag `c ? 1 : 0`) that
/// reads no sampled run-time value: its split is the thread index's, the same in every
/// sample, and the sampled values only take lanes away.
bool threadIndexConjunct(const Sym *S, const std::vector<SymVarInfo> &Vars,
                         const PassedValues &Passed) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (S->Op == SymOp::Ne && S->B && skipCasts(S->B.get())->Op == SymOp::Const)
    return threadIndexConjunct(S->A.get(), Vars, Passed);
  if (S->Op == SymOp::Select && S->B && S->C && skipCasts(S->B.get())->Op == SymOp::Const &&
      skipCasts(S->C.get())->Op == SymOp::Const)
    return threadIndexConjunct(S->A.get(), Vars, Passed);
  if (S->Op == SymOp::LAnd || (S->Op == SymOp::And && isTruthAndOr(S)))
    return threadIndexConjunct(S->A.get(), Vars, Passed) ||
           threadIndexConjunct(S->B.get(), Vars, Passed);
  return mentionsThreadIdx(*S) && !readsSampled(*S, Vars, Passed);
}

/// The branch splits lanes by the thread index whatever the sampled values: a conjunct of
/// its condition on the thread index, loop counters and constants alone; a loop whose
/// start, bound and step read no sampled value.
bool splitOfThreadIndex(const BranchSite &B, const std::vector<SymVarInfo> &Vars,
                        const PassedValues &Passed) {
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 && size_t(B.LoopVar) < Vars.size()) {
    const SymVarInfo &L = Vars[B.LoopVar];
    if (L.LoopVariance != Variance::Uniform && L.Init && L.Cond && L.Step)
      return !readsSampled(*L.Init, Vars, Passed) && !readsSampled(*L.Cond, Vars, Passed) &&
             !readsSampled(*L.Step, Vars, Passed);
  }
  return threadIndexConjunct(B.CondVal.S.get(), Vars, Passed);
}

} // namespace

std::vector<std::string> BranchBuilder::demotions(const KernelContext &K, const BranchEval &E,
                                                  const Tally &Worst) const {
  const BranchSite &B = E.B;
  const Sym *CondS = E.CondS;
  std::vector<std::string> Demoted;
  // Under an assumed block shape, a warning only when it holds for every block at least
  // a warp wide in x.
  if (K.Assumed) {
    for (const BlockShape &Alt : K.Alternatives) {
      EnvSet AltEnvs;
      std::vector<Tally> One{
          evaluateBranch(B, E.Vars, Alt, WaveSize, E.Passed, E.Stronger, &AltEnvs)};
      size_t Ignored;
      if (!decide(E, One, Ignored, nullptr)) {
        Demoted.push_back("the block is assumed and with a block of " + Alt.str() +
                          " this branch would " +
                          (One[0].Evaluated && One[0].Divergent == 0
                               ? std::string("be warp-uniform")
                               : std::string("not be reported")) +
                          "; give the launch's block shape (--assume-block, or a launch "
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
                                  : Amd       ? "wavefronts"
                                              : "warps") +
                      " splits (predicted branch efficiency " + percent(Worst.WorstEfficiency) +
                      " or more): a small part of the branch's time");
  // A partition of the work in chunks, one per lane (`for (i = n * pos / size; i < n *
  // (pos + 1) / size; ++i)`): the loop's start and bound both read the thread, and in
  // every sample the trip counts of one warp's lanes differ by at most one. All lanes run
  // the common trips together; the warp splits in one trip at most, the last, where the
  // lanes holding one more item run it: the bounds tail of the partition (as `if (i < n)`
  // is of a grid), whatever the sampled sizes.
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 && size_t(B.LoopVar) < E.Vars.size()) {
    const SymVarInfo &L = E.Vars[B.LoopVar];
    bool Chunk = L.LoopVariance != Variance::Uniform && L.Init && L.Cond &&
                 mentionsThreadIdx(*L.Init) && mentionsThreadIdx(*L.Cond);
    bool OneTrip = Chunk;
    for (const Tally &T : E.ByShape)
      if (T.Evaluated && T.Divergent > 0)
        OneTrip &= T.Trips && T.MaxTripSpread <= 1;
    if (OneTrip)
      Demoted.push_back("each lane runs its own chunk of the work, and the trip counts of "
                        "one warp's lanes differ by at most one in every sample: the warp "
                        "splits in one trip, the last, that only the lanes holding one more "
                        "item run (the tail of an even partition, as a bounds guard's)");
  }
  // A write-out in turns: an `if` with no else whose arm is one statement, on an equality
  // with the counter of an enclosing uniform loop (`for (k = 1; k < step; k++) if (t %
  // step == k) out[g] += p;`): each lane takes it in one trip at most, so the loop costs
  // each warp a masked statement or two per trip, whichever lanes take it (two: AMGX's
  // lane publishing the cell it reads and the one it writes, for its half-warp).
  if (Demoted.empty() && B.Kind == BranchSite::If && isOneArmed(B) &&
      isTurnTest(E.Stronger ? E.Stronger.get() : CondS, E.Vars))
    if (auto *If = dyn_cast<IfStmt>(B.Branch)) {
      int T = lightStatements(If->getThen());
      if (T == 1)
        Demoted.push_back("each lane takes the branch in one trip at most of the enclosing "
                          "loop (an equality with its counter) and the arm is one statement: "
                          "the loop hands the statement out to the lanes in turns, one "
                          "masked statement per trip");
      else if (T == 2)
        Demoted.push_back("each lane takes the branch in one trip at most of the enclosing "
                          "loop (an equality with its counter) and the arm is two statements: "
                          "the loop hands them out to the lanes in turns, two masked "
                          "statements per trip");
    }
  if (Demoted.empty() && isTileEdgeFill(B, M.Ctx))
    Demoted.push_back("the lanes at the tile's edge (a thread index against a constant) "
                      "fill its halo in shared memory and do nothing else: a few loads at "
                      "the edge of a stencil's tile, inherent to the tiling");
  if (hasRegisterArms(B))
    Demoted.push_back("the arms only move values between registers (no memory access, "
                      "call or barrier): the compiler makes selects of them, as of a "
                      "'?:' of two values, and no lane waits for another");
  else if (hasLoadingSelectArms(B))
    Demoted.push_back("the '?:' arms compute values without side effects (loads and "
                      "arithmetic): the compiler predicates the loads and selects the "
                      "value, and no lane waits for another");
  else if (isValueShortCircuit(B, parentsIn(K.Kernel)))
    Demoted.push_back("the operands after it compute a value without side effects (loads "
                      "and arithmetic) that a local keeps, not a branch: the compiler "
                      "predicates the loads and computes the value, and no lane waits for "
                      "another");
  else if (const IfStmt *If = B.Kind == BranchSite::ShortCircuit
                                   ? enclosingIf(B, parentsIn(K.Kernel))
                                   : nullptr;
           If && !If->getInit() && !If->getConditionVariable() &&
           movesRegistersOnly(If->getThen()) && movesRegistersOnly(If->getElse()) &&
           movesRegistersOnly(If->getCond(), 0, /*Loads=*/true))
    // An operand of an `if`'s `&&` chain (a segmented scan's `lane >= r && key ==
    // keys[lane - r]`): the operands after it compute a value, loads included, and the
    // `if`'s arms move registers: predicated loads and selects, as a '?:' of loads.
    Demoted.push_back("the operands after it compute values without side effects (loads "
                      "and arithmetic) and the 'if''s arms only move registers: the "
                      "compiler predicates the loads and makes selects of the arms, and no "
                      "lane waits for another");
  else if (storesOnePlace(B, M.Ctx))
    Demoted.push_back("both arms store a value to the same place and do nothing else: the "
                      "compiler makes one store of a select of the two values, as of a "
                      "'?:', and no lane waits for another");
  else if (isPairSwap(B))
    Demoted.push_back("the arm swaps the elements at '" +
                      sourceText(cast<BinaryOperator>(cast<IfStmt>(B.Branch)->getCond()
                                                          ->IgnoreParenImpCasts())
                                     ->getLHS(),
                                 M.Ctx) +
                      "' and '" +
                      sourceText(cast<BinaryOperator>(cast<IfStmt>(B.Branch)->getCond()
                                                          ->IgnoreParenImpCasts())
                                     ->getRHS(),
                                 M.Ctx) +
                      "' and the comparison picks one thread of each pair: the other has "
                      "nothing to do by design (a permutation applied in place, each pair "
                      "swapped once), and the split costs one swap");
  // The pins must be what narrows the grid to one block: a grid of one block launched
  // as such pays the split in a good part of its warps.
  unsigned Pinned = pinnedBlockDims(CondS, E.Vars) | pinnedBlockDims(B.Path.get(), E.Vars);
  bool OneBlock = (K.WideGridDims & Pinned) != 0 && (K.WideGridDims & ~Pinned) == 0;
  bool OneWarpEach = true;
  for (const Tally &T : E.ByShape)
    OneWarpEach &= !T.Evaluated || T.MaxDivergentPerEnv <= 1;
  if (K.OneWarpGrid)
    Demoted.push_back("every launch of '" + K.KernelName + "' in this file is one block of "
                      "at most one warp, outside any loop: a one-shot whose split costs "
                      "one warp once");
  else if (OneBlock && OneWarpEach)
    Demoted.push_back("the branch splits one warp of one block of the grid (blockIdx is "
                      "pinned by the condition): a one-time cost");
  else if (OneWarpEach && CondS && isGridZeroPick(CondS, E.Vars))
    // `row_id != 0` with row_id = blockIdx.x * W + warp (+ a grid-stride trip): a global
    // index is 0 at one place of the grid, the first lanes of block 0 in the first trip.
    Demoted.push_back("the condition tests a global index against 0, which only the first "
                      "threads of the grid's first block hold (in the first trip of a "
                      "loop around it): it splits one warp of the grid, once");
  if (Demoted.empty())
    if (std::optional<std::string> Shape = dataShapeDemotion(K, E))
      Demoted.push_back(std::move(*Shape));
  // A lane's window in a staged sweep (cuda-convnet2's response normalisation: `for (y =
  // startY; y < endY; ++y) for (x = startX; x < endX; ++x) { stage pixel (y, x);
  // __syncthreads(); if (y >= myStartY && y < myEndY && x >= myStartX && x < myEndX) ...
  // }`): the block sweeps the union of its lanes' windows together, because each trip
  // stages the data behind a barrier, and each lane works in the trips of its own window.
  // The lanes outside idle through the arm; only a sweep of each lane's own window, without
  // the shared staging, would spare that.
  if (Demoted.empty() && isStagedWindow(K, E))
    Demoted.push_back("the test keeps the counters of the loops around it inside the lane's "
                      "own window, and those loops hold a barrier: the block sweeps the "
                      "union of its lanes' windows together to stage the data in shared "
                      "memory, and each lane works in the trips of its window; the others "
                      "idle through the arm, inherent to the shared staging");
  // A window clamped at the data's edges (a pooling or convolution window over an image
  // with padding: `for (fy = max(0, -y); fy < min(kernelY, ih - y); ++fy)`): every lane
  // runs the window's trips, fewer only where its window crosses the edge of the data,
  // the border of the image: the edge of the data, O(perimeter) beside O(area).
  if (Demoted.empty() && B.Kind == BranchSite::Loop && isClampedWindow(B, E.Vars))
    Demoted.push_back("the loop runs a window of uniform size clamped at the data's edges "
                      "(its start clamped at 0, its end at the window's size): only "
                      "lanes whose window crosses the edge of the data run fewer trips, the "
                      "border of the data");
  // A one-time store: an `if` with no else, outside the loops of a kernel that has some,
  // whose arm is one statement of straight-line work (`if (tx == 0) *info = 0;`):
  // whatever lanes take it, the split costs each warp one masked statement once. A lane
  // role (`lane < 16`, the step of a warp's own tree) is the warp's work and stays, unless
  // its one statement stores a value read from no memory (`if (lane < 4) s[lane] = 0;`):
  // an initialization of a few words, where a tree step reads what another lane wrote
  // (`s[lane] += s[lane + 8]`).
  const Sym *Figured = E.Stronger ? E.Stronger.get() : CondS;
  if (Demoted.empty() && isOneArmed(B) && B.Kind == BranchSite::If && K.KernelHasLoop &&
      !insideLoop(B.Branch, parentsIn(K.Kernel))) {
    auto *If = dyn_cast<IfStmt>(B.Branch);
    bool LaneRole = Figured && isLaneRoleTest(Figured);
    if (If && lightStatements(If->getThen()) == 1 && !LaneRole)
      Demoted.push_back("the branch runs once per thread, outside the kernel's loops, and "
                        "its arm is one statement: the split costs each warp one masked "
                        "statement, once");
    else if (If && lightStatements(If->getThen()) == 1 && storesRegisterValue(If->getThen()))
      Demoted.push_back("the branch runs once per thread, outside the kernel's loops, and "
                        "its arm is one store of a value read from no memory (an "
                        "initialization, not a step of the warp's work): the split costs "
                        "each warp one masked store, once");
  }
  // The lanes past a packing return at once: `if (lane >= blockrows_per_warp * 9) return;`
  // at the top of the kernel (before any loop), C a compile-time count inside the warp.
  // They have no work in the kernel: idle lanes, as in a block that is no whole number of
  // warps, not two paths the warp runs one after the other.
  if (Demoted.empty() && B.Kind == BranchSite::If && B.EarlyExit && CondS &&
      isLanePaddingTest(CondS) && !insideLoop(B.Branch, parentsIn(K.Kernel)))
    Demoted.push_back("the lanes of each warp past a compile-time count return at once, "
                      "before any loop: lanes with no work (the remainder of a packing into "
                      "the warp), idle as in a block that is no whole number of warps, not "
                      "two paths run one after the other");
  // A short arm beside its loop's work: an `if` with no else whose arm is a statement or
  // two of straight-line work (a load of a row's bounds by two lanes, `if (lane < 2) t =
  // rows[r + lane];`; a block row's entry on the lanes that hold one), inside a loop whose
  // trip also runs a loop of its own over memory (the row's columns; a warp's shuffle
  // reduction is no such work: ggml's forward substitution `if (lane < row) sum += ...;`
  // then `warp_reduce_sum(sum)` stays a warning): the split costs each warp a
  // masked statement or two per trip beside that loop, whichever lanes take it. A step of
  // the warp's own tree or scan (the arm reads the array it writes, `s[t] += s[t + 16]`)
  // is the trip's work and stays.
  if (Demoted.empty() && B.Kind == BranchSite::If && !B.EarlyExit && isOneArmed(B))
    if (auto *If = dyn_cast<IfStmt>(B.Branch)) {
      int T = lightStatements(If->getThen());
      // Loops of constant trips around the `if` whose bodies hold nothing else are the
      // arm written out (`#pragma unroll for (i = 0; i < N; ++i) if (lane < N) sum +=
      // s[N * lane + i];`, AMGX's sum of a block row by the lanes that hold it): the
      // statements are per trip of the loop outside them.
      const Stmt *Skip = If;
      const Stmt *Loop = enclosingLoop(If, parentsIn(K.Kernel));
      bool Unrolled = false;
      while (auto *F = dyn_cast_or_null<ForStmt>(Loop)) {
        const Stmt *Body = F->getBody();
        auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
        bool Only = Body == Skip || (CS && CS->size() == 1 && *CS->body_begin() == Skip);
        // A few trips only (an unrolled vector's or a small block's): 256 of them are work.
        std::optional<int64_t> Span = constantTripSpan(F, M.Ctx);
        if (!Only || !Span || *Span > 32)
          break;
        Unrolled = true;
        Skip = F;
        Loop = enclosingLoop(F, parentsIn(K.Kernel));
      }
      bool TripHasLoop = Loop && llvm::any_of(Loop->children(), [&](const Stmt *C) {
                           return hasLoop(C, 2, Skip, /*Memory=*/true);
                         });
      if (T >= 1 && T <= 2 && TripHasLoop &&
          !readsWhatItWrites(If->getThen(), M.Ctx))
        Demoted.push_back("the arm is " + std::string(T == 1 ? "one statement" : "two statements") +
                          " of straight-line work" +
                          (Unrolled ? " (repeated by a loop of constant trips)" : "") +
                          " inside a loop whose trip also runs a loop of its own: the split "
                          "costs each warp " +
                          (Unrolled ? std::string("a few masked statements")
                           : T == 1 ? std::string("a masked statement")
                                    : std::string("two masked statements")) +
                          " per trip beside that loop");
    }
  // A split of one warp that only some samples of run-time values nobody passed make
  // (the other reasons first: one is enough): for some values one warp of the block
  // splits, for others none. The figure is the samples', not the launches' (darknet's
  // col2im gather, "up to 1 of 1 warps" of a 512-thread block at sampled sizes).
  // Information, with the values it depends on. A split that holds in every sample, one
  // of several warps of a block in some sample, one of the thread index alone, a bounds
  // guard reported on request, or a split for the values the launches pass stays a
  // warning.
  bool OneWarpOfMany = true;
  for (size_t I = 0; I < E.ByShape.size() && I < K.Distinct.size(); ++I)
    if (E.ByShape[I].Evaluated)
      OneWarpOfMany &= E.ByShape[I].MaxDivergentPerEnv <= 1 && K.Distinct[I].warps() > 1;
  if (Demoted.empty() && Worst.Evaluated && Worst.RuntimeSampled && Worst.UniformSample &&
      Worst.Divergent > 0 && OneWarpOfMany && !splitOfThreadIndex(B, E.Vars, E.Passed) &&
      !(CondS && isBoundsGuard(CondS, E.Vars))) {
    // Named: the parameters and loaded values sampled (block indices take all values).
    std::string Names;
    for (const std::string &N : Worst.Sampled)
      for (const SymVarInfo &V : E.Vars)
        if (V.Name == N && (V.Kind == SymVarInfo::Param || V.Kind == SymVarInfo::Opaque)) {
          Names += (Names.empty() ? "'" : ", '") + N + "'";
          break;
        }
    Demoted.push_back("whether it diverges depends on " + Names +
                      ", which no launch in this file passes: it splits one warp of the "
                      "block for some sampled values and none for others (predicted "
                      "branch efficiency " +
                      percent(Worst.WorstEfficiency) + " to " +
                      percent(Worst.BestEfficiency) + "); the values the launches pass decide");
  }
  if (Demoted.empty())
    if (std::optional<std::string> Role = fixedRoleDemotion(K, E))
      Demoted.push_back(std::move(*Role));
  if (Demoted.empty())
    // One statement beside the work every lane does (PhysX's pairs of lanes of which the
    // even one also stores the pair's entry, `if (offset == 0) sh[0] = v0;`, among the
    // pair's loads and stores): an `if` with no else whose arm is one straight-line
    // statement, in a block whose other statements (not branches or loops) read or write
    // memory at least twice. nvcc predicates the statement; the lanes that skip it idle for
    // that one statement, a small share of the work around it. Where the `if` is the work
    // (the only memory statement of its loop: an interleaved scan's `if ((t & n) == n)
    // s[t] += s[t - i];`), or the arm reads the array it writes (a step of a tree or a scan,
    // `w[t] += w[t + 16]`, whose steps are the work), it stays a warning. Last: a named
    // idiom's reason comes first. Asked for the leaders' patterns, the lanes' roles are
    // reported with them, this one too.
    if (B.Kind == BranchSite::If && isOneArmed(B) && !O.ReportLeaderPatterns &&
        !O.ReportTreeReductionTails)
      if (auto *If = dyn_cast<IfStmt>(B.Branch);
          If && !If->getInit() && !If->getConditionVariable() &&
          lightStatements(If->getThen()) == 1 && touchesMemory(If->getThen()) &&
          !readsWhatItWrites(If->getThen(), M.Ctx) &&
          movesRegistersOnly(If->getCond(), 0, /*Loads=*/true)) {
        const CompoundStmt *Around = nullptr;
        for (const DynTypedNode &P : parentsIn(K.Kernel)(DynTypedNode::create(*If)))
          if (auto *CS = P.get<CompoundStmt>())
            Around = CS;
        unsigned Work = 0;
        if (Around)
          for (const Stmt *S : Around->body())
            if (S != If && !isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt>(S) &&
                lightStatements(S) == 1 && touchesMemory(S))
              ++Work;
        if (Work >= 2)
          Demoted.push_back("the arm is one statement beside " + std::to_string(Work) +
                            " statements of memory work that every lane of the block around "
                            "it does: the compiler predicates it, and the lanes that skip it "
                            "idle for that statement alone");
      }
  return Demoted;
}

bool BranchBuilder::isStagedWindow(const KernelContext &K, const BranchEval &E) const {
  const BranchSite &B = E.B;
  if (B.Kind != BranchSite::If && B.Kind != BranchSite::ShortCircuit)
    return false;
  auto ParentsFn = parentsIn(K.Kernel);
  const IfStmt *If = enclosingIf(B, ParentsFn);
  if (!If || B.EarlyExit || (If->getElse() && !isa<NullStmt>(If->getElse())) || !E.CondS)
    return false;
  // Every conjunct that reads the thread bounds the counter of a uniform loop by a
  // lane's value, from below or from above; each such counter is bounded both ways.
  std::vector<const Sym *> Terms;
  conjuncts(E.CondS, Terms);
  auto LoopVarOf = [&](const Sym *X) -> int {
    X = skipCasts(X);
    if (!X || X->Op != SymOp::Var || X->Value < 0 || size_t(X->Value) >= E.Vars.size())
      return -1;
    const SymVarInfo &I = E.Vars[size_t(X->Value)];
    return I.Kind == SymVarInfo::Loop && I.LoopVariance == Variance::Uniform ? int(X->Value)
                                                                               : -1;
  };
  std::map<int, unsigned> Bounds; // loop variable -> 1: from below, 2: from above
  for (const Sym *T : Terms) {
    T = skipCasts(T);
    if (!T || !mentionsThreadIdx(*T))
      continue;
    bool Less = T->Op == SymOp::Lt || T->Op == SymOp::Le;
    bool Greater = T->Op == SymOp::Gt || T->Op == SymOp::Ge;
    if (!Less && !Greater)
      return false;
    int A = LoopVarOf(T->A.get()), C = LoopVarOf(T->B.get());
    if ((A >= 0) == (C >= 0))
      return false;
    const Sym *Lane = A >= 0 ? T->B.get() : T->A.get();
    int V = A >= 0 ? A : C;
    if (!mentionsThreadIdx(*Lane) || mentionsVar(*Lane, unsigned(V)))
      return false;
    // `x < hi(t)` or `hi(t) > x`: from above; `x >= lo(t)` or `lo(t) <= x`: from below.
    bool Above = (A >= 0) == Less;
    Bounds[V] |= Above ? 2u : 1u;
  }
  if (Bounds.empty())
    return false;
  // The loops of those counters, around the branch, each with a barrier outside the `if`.
  auto Barrier = [&](const Stmt *S) {
    return anyNode(
        S,
        [](const Stmt *X) {
          auto *C = dyn_cast<CallExpr>(X);
          return C && isBlockBarrier(C);
        },
        If);
  };
  std::set<std::string> Staged;
  const Stmt *Cur = If;
  for (unsigned Depth = 0; Depth < 64 && Cur; ++Depth) {
    DynTypedNodeList Ps = ParentsFn(DynTypedNode::create(*Cur));
    if (Ps.empty())
      break;
    const Stmt *P = Ps[0].get<Stmt>();
    if (!P)
      break;
    if (auto *F = dyn_cast<ForStmt>(P); F && F->getBody() == Cur)
      if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
        if (auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()); V && Barrier(F->getBody()))
          Staged.insert(V->getName().str());
    Cur = P;
  }
  for (const auto &[V, Ways] : Bounds)
    if (Ways != 3u || !Staged.count(E.Vars[size_t(V)].Name))
      return false;
  return true;
}

std::optional<std::string> BranchBuilder::fixedRoleDemotion(const KernelContext &K,
                                                            const BranchEval &E) const {
  // A role fixed to some lanes, with straight-line work: an `if` (or an operand of its
  // `&&` chain) that the same lanes of each warp take every time it runs, through every
  // trip of the loops around it (a group's leader writing the group's result, the first
  // N lanes loading N entries, the lanes that hold a padded record), whose working side
  // runs no loop over memory. The other lanes idle through a few straight-line
  // statements per pass: a cost set by how the data is laid over the lanes, the same in
  // every trip, which no order of the loop's work removes (a loop of 32 constant trips or
  // fewer is its body written out). Stays a warning: a set of lanes that moves with the
  // loop (a tree's `tid % (2 * s) == 0`, a wavefront's `tx <= m`, a bitonic step's `ixj >
  // i`), an arm that loops over memory (a case body of a dispatch on the lane), two
  // working arms, a step of the warp's own tree (the arm reads the array it writes), an
  // arm that leaves (`return`, `break`) or holds a barrier.
  const BranchSite &B = E.B;
  // Asked for: the leaders' and the tails' patterns reported, roles of lanes with them.
  if (O.ReportLeaderPatterns || O.ReportTreeReductionTails)
    return std::nullopt;
  if (B.EarlyExit || (B.Kind != BranchSite::If && B.Kind != BranchSite::ShortCircuit))
    return std::nullopt;
  const IfStmt *If = B.Kind == BranchSite::ShortCircuit ? enclosingIf(B, parentsIn(K.Kernel))
                                                        : dyn_cast_or_null<IfStmt>(B.Branch);
  if (!If || If->getInit() || If->getConditionVariable())
    return std::nullopt;
  bool Any = false, Fixed = true;
  for (const Tally &T : E.ByShape)
    if (T.Evaluated) {
      Any = true;
      Fixed &= T.LanesFixed;
    }
  // A role less the pivot of an elimination step (AMGX's Gauss-Jordan inversion of an NxN
  // block per lane group: `if (is_active && row_of_lane == 0 && col_of_lane != row)` in
  // `for (row = 0; row < N; ++row)`): the lanes that take it move with the loop only by
  // the one lane of each group that the counter names, the pivot, whose entry the step
  // does not update. The role is the rest: the same lanes in every trip once those
  // exclusions are taken away.
  bool LessPivot = false;
  if (Any && !Fixed) {
    SymRef Whole = E.Stronger ? E.Stronger : B.CondVal.S;
    bool Dropped = false;
    SymRef Role = Whole ? withoutPivotExclusions(Whole, E.Vars, Dropped) : nullptr;
    // The condition is the exclusions alone (AMGX's `if (col_of_lane != row) tmp = ...`
    // inside the role's own `if`): the role is every lane that reaches it, the same lanes
    // in every trip, less the pivot.
    if (Whole && Dropped && !Role)
      LessPivot = true;
    if (Role && Dropped) {
      bool RoleAny = false, RoleFixed = true;
      for (size_t I = 0; I < K.Distinct.size(); ++I) {
        EnvSet Envs;
        Tally T = evaluateBranch(B, E.Vars, K.Distinct[I], WaveSize, E.Passed, Role, &Envs);
        if (T.Evaluated) {
          RoleAny = true;
          RoleFixed &= T.LanesFixed;
        }
      }
      LessPivot = RoleAny && RoleFixed;
    }
  }
  if (!Any || (!Fixed && !LessPivot))
    return std::nullopt;
  // The role is the code's, not a run-time value's: the condition reads the thread and
  // block indices, constants, values every launch passes, and counters of uniform loops
  // (which the evaluation has shown not to move the lanes; a loop whose counter reads the
  // thread is evaluated in one trip, so it is not taken). A parameter no launch passes or
  // a loaded value may pick other lanes at each launch (a bitonic step's `(i ^ j) > i`
  // with j from the host's loop): a warning. It may size the groups, though (`t % P`, `t /
  // P`, `t & (P - 1)`: the lanes per item, a leader of each group of P whatever P is).
  const Sym *Figured = E.Stronger ? E.Stronger.get() : E.CondS;
  if (!Figured)
    return std::nullopt;
  // A block-wide `__shared__` scalar that no loop writes (gpu4pyscf's `aux_per_block`,
  // set by thread 0 before the loops and read in them as a stride): one value for the
  // block through every trip, though a loop reads it again.
  auto sharedSetOutsideLoops = [&](const std::string &Name) {
    const VarDecl *Shared = nullptr;
    bool WrittenInLoop = false;
    std::function<void(const Stmt *, unsigned)> Walk = [&](const Stmt *S, unsigned Loops) {
      if (!S || WrittenInLoop)
        return;
      if (auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (auto *V = dyn_cast<VarDecl>(D); V && V->getName() == Name &&
                                              V->hasAttr<CUDASharedAttr>() &&
                                              V->getType()->isScalarType())
            Shared = V;
      const Expr *Target = nullptr;
      if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
        Target = B->getLHS();
      else if (auto *U = dyn_cast<UnaryOperator>(S); U && (U->isIncrementDecrementOp() ||
                                                           U->getOpcode() == UO_AddrOf))
        Target = U->getSubExpr();
      if (Target && Loops > 0)
        if (auto *R = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
            R && R->getDecl()->getName() == Name)
          WrittenInLoop = true;
      bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
      for (const Stmt *C : S->children())
        Walk(C, Loops + (Loop ? 1 : 0));
    };
    if (K.Kernel && K.Kernel->getBody())
      Walk(K.Kernel->getBody(), 0);
    return Shared && !WrittenInLoop;
  };
  std::function<bool(const Sym *, bool)> CodeOnly = [&](const Sym *X, bool Divisor) {
    if (!X)
      return true;
    if (X->Op == SymOp::Var) {
      if (X->Value < 0 || size_t(X->Value) >= E.Vars.size())
        return false;
      const SymVarInfo &I = E.Vars[size_t(X->Value)];
      bool Code = I.Kind == SymVarInfo::BlockIdx || I.Kind == SymVarInfo::GridDim ||
                  (I.Kind == SymVarInfo::Param && I.Launched) ||
                  (I.Kind == SymVarInfo::Loop && I.LoopVariance == Variance::Uniform);
      bool Size = I.Kind == SymVarInfo::Param ||
                  (I.Kind == SymVarInfo::Opaque && (!I.InLoop || sharedSetOutsideLoops(I.Name)));
      return Code || (Divisor && Size);
    }
    // `t & (P - 1)`: the remainder by a power of two written as a mask.
    auto PowerMask = [](const Sym *M) {
      while (M && M->Op == SymOp::Cast && M->A)
        M = M->A.get();
      const Sym *One = M && M->Op == SymOp::Sub ? M->B.get() : nullptr;
      while (One && One->Op == SymOp::Cast && One->A)
        One = One->A.get();
      return One && One->Op == SymOp::Const && One->Value == 1;
    };
    bool Div = X->Op == SymOp::Div || X->Op == SymOp::Rem;
    bool Mask = X->Op == SymOp::And;
    // `(t / P) * P`: the remainder `t - (t / P) * P` written out (gpu4pyscf's `aux_id =
    // st_id - sp_id * aux_per_block` with sp_id = st_id / aux_per_block): P sizes the
    // groups on both sides.
    auto QuotientTimesDivisor = [](const Sym *Q, const Sym *P) {
      Q = skipCasts(Q);
      return Q && Q->Op == SymOp::Div && sameUpToCasts(Q->B.get(), P);
    };
    bool Regroup = X->Op == SymOp::Mul && (QuotientTimesDivisor(X->A.get(), X->B.get()) ||
                                           QuotientTimesDivisor(X->B.get(), X->A.get()));
    return CodeOnly(X->A.get(), Divisor || Regroup || (Mask && PowerMask(X->A.get()))) &&
           CodeOnly(X->B.get(), Divisor || Div || Regroup || (Mask && PowerMask(X->B.get()))) &&
           CodeOnly(X->C.get(), Divisor);
  };
  if (!CodeOnly(Figured, false))
    return std::nullopt;
  const Stmt *Then = If->getThen(), *Else = If->getElse();
  const Stmt *Work = nullptr;
  if (!Else || isa<NullStmt>(Else) || isSelfStore(Else) || movesRegistersOnly(Else))
    Work = Then;
  else if (isSelfStore(Then) || movesRegistersOnly(Then))
    Work = Else;
  if (!Work)
    return std::nullopt;
  bool Leaves = false, Barrier = false;
  // Loops and switches of the arm that the scan is inside: their `break` and `continue`
  // end a trip or a case of the arm's own loop, not the arm (gpu4pyscf's leader writing
  // `for (n < GOUT_WIDTH) { if (ij >= nfij) break; atomicAdd(...); }`).
  unsigned InLoop = 0, InSwitch = 0;
  std::function<void(const Stmt *, unsigned)> Scan = [&](const Stmt *S, unsigned Depth) {
    if (!S || Leaves || Barrier)
      return;
    if (isa<ReturnStmt, GotoStmt>(S) || (isa<ContinueStmt>(S) && !InLoop) ||
        (isa<BreakStmt>(S) && !InLoop && !InSwitch))
      Leaves = true;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S)) {
      unsigned &Level = isa<SwitchStmt>(S) ? InSwitch : InLoop;
      ++Level;
      for (const Stmt *C : S->children())
        Scan(C, Depth);
      --Level;
      return;
    }
    if (auto *C = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = C->getDirectCallee()) {
        StringRef N = F->getIdentifier() ? F->getName() : StringRef();
        Barrier |= N.starts_with("__syncthreads") || N == "__barrier_sync";
        const FunctionDecl *Def = nullptr;
        if (Depth > 0 && F->hasBody(Def) && Def) {
          bool Was = Leaves; // a return inside a callee returns from the callee
          Scan(Def->getBody(), Depth - 1);
          Leaves = Was;
        }
      }
    for (const Stmt *C : S->children())
      Scan(C, Depth);
  };
  Scan(Work, 2);
  // A loop of the arm over the 32-bit words of N bits, where the group's lanes shared a
  // loop over the N items before the branch, at most a warp wide: each lane ran a trip
  // per P items there, at least the trip per 32 that the role runs here, so the role costs
  // no more than what every lane did (PhysX's body leader counting and clearing its slabs'
  // bits after the slabs' reduction). A loop over N items, or words of a set the lanes
  // did not share, stays work.
  bool WordLoops = false, ResultLoops = false;
  if (hasWorkLoop(Work, M.Ctx)) {
    // Only an arm with a loop over memory asks for the loops the group shared before it.
    std::vector<const Expr *> Shared =
        K.Kernel && K.Kernel->getBody()
            ? sharedLoopBounds(K.Kernel->getBody(), If->getBeginLoc(), M.Ctx, M.Writes)
            : std::vector<const Expr *>();
    auto PerWarpOfShared = [&](const ForStmt *F, const ArgBindings &Bound) {
      const Expr *N = Shared.empty() ? nullptr : wordCountOf(F, Bound, M.Ctx, M.Writes);
      return N && llvm::any_of(Shared, [&](const Expr *G) {
               return sameValue(N, G, Bound, M.Ctx, M.Writes);
             });
    };
    WordLoops = !Shared.empty() && !hasWorkLoop(Work, M.Ctx, 2, PerWarpOfShared);
    // A loop of the arm over the N results the group's lanes reduced together just
    // before, by shuffles in a loop over the same N (hypre's leader writing the row's
    // num_vectors sums): the leader writes out one result per value every lane reduced.
    if (!WordLoops) {
      std::vector<const Expr *> Reduced =
          K.Kernel && K.Kernel->getBody()
              ? reducedLoopBounds(K.Kernel->getBody(), If->getBeginLoc(), M.Ctx)
              : std::vector<const Expr *>();
      auto OverReduced = [&](const ForStmt *F, const ArgBindings &Bound) {
        const Expr *N = boundFromZero(F, M.Ctx);
        return N && llvm::any_of(Reduced, [&](const Expr *G) {
                 return sameValue(N, G, Bound, M.Ctx, M.Writes);
               });
      };
      ResultLoops = !Reduced.empty() && !hasWorkLoop(Work, M.Ctx, 2, OverReduced);
    }
    if (!WordLoops && !ResultLoops)
      return std::nullopt;
  }
  // A copy from one element to another (`a[dst] = a[src]`, records moved) combines no
  // values: not a tree's step.
  // An elimination step reads the pivot's row and column, which it does not write: no
  // tree's step, whose lanes halve.
  if (Leaves || Barrier ||
      (!LessPivot && readsWhatItWrites(Work, M.Ctx, /*Copies=*/false)))
    return std::nullopt;
  const char *Group = Amd ? "wavefront" : "warp";
  if (LessPivot)
    return std::string("the same lanes of each ") + Group +
           " take the branch every time it runs, less the one lane of each group that the "
           "counter of the loop around it names (the pivot of an elimination step, '!= "
           "row'), and its arm runs no loop over memory: the other lanes idle through "
           "straight-line statements, a cost set by how the data is laid over the lanes";
  if (WordLoops)
    return std::string("the same lanes of each ") + Group +
           " take the branch every time it runs (a role of those lanes: a leader, the first "
           "lanes of a group), and its arm's loops walk the 32-bit words of a set of N "
           "items that the group's lanes already shared a loop over, at most a " + Group +
           " wide, before the branch: the role runs a trip per 32 items where each lane "
           "ran one per group width, no more than the work every lane did";
  if (ResultLoops)
    return std::string("the same lanes of each ") + Group +
           " take the branch every time it runs (a role of those lanes: a leader, the first "
           "lanes of a group), and its arm's loops write out one result for each of the N "
           "values that the group's lanes reduced together by shuffles just before: the "
           "leader's write-out of the group's results, a trip per value every lane reduced";
  return std::string("the same lanes of each ") + Group +
         " take the branch every time it runs, through every trip of the loops around it "
         "(a role of those lanes: a leader, the first lanes of a group), and its arm runs "
         "no loop over memory: the other lanes idle through straight-line statements, a "
         "cost set by how the data is laid over the lanes, not a split that moves with "
         "the loop";
}

std::optional<std::string> BranchBuilder::dataShapeDemotion(const KernelContext &K,
                                                            const BranchEval &E) const {
  const BranchSite &B = E.B;
  const std::vector<SymVarInfo> &Vars = E.Vars;
  // Lanes idle because of the data's shape: one side of the branch does no work (or both
  // are a statement or two), the lanes that take it are one contiguous range of each row
  // of each warp (a loop: they leave in lane order), and the boundary is set by the data
  // (an ordered test of a run-time value or an additive loop counter). The edge of a
  // triangle, a tile or a tail: no remapping of threads gives the idle lanes work. Still
  // a warning where the boundary sweeps the block step after step of an enclosing loop,
  // splitting more than one warp (or the one warp of a one-warp block) and leaving at
  // least a quarter of a warp's lanes on the smaller side at some step: wavefronts,
  // triangular factorisations, shrinking halos, whose lanes idle through the kernel's
  // main loop. A split of the thread index alone (`tid % 2`, `lane < 16`) is the
  // programmer's choice of lanes, and stays.
  bool OneArmed = isOneArmed(B), Light = hasLightArms(B);
  // An operand of an `if`'s `&&` chain (`if (idx < 16 && idx > i && x[idx] == x[i])`):
  // the lanes it turns away skip the rest of the condition and the `if`'s arm, so the
  // arms are the `if`'s.
  const IfStmt *If = B.Kind == BranchSite::ShortCircuit ? enclosingIf(B, parentsIn(K.Kernel))
                     : B.Kind == BranchSite::If && !B.EarlyExit
                         ? dyn_cast_or_null<IfStmt>(B.Branch)
                         : nullptr;
  if (If && B.Kind == BranchSite::ShortCircuit) {
    OneArmed = !If->getElse() || isa<NullStmt>(If->getElse());
    int T = lightStatements(If->getThen()), F = lightStatements(If->getElse());
    Light = T >= 0 && F >= 0 && T <= 2 && F <= 2;
  }
  // An arm that only moves registers (`temp2 += 124 << k`, a pair skipped) does no work
  // the other lanes wait for: as good as none.
  bool RegisterSide = If && !OneArmed && If->getElse() &&
                      (movesRegistersOnly(If->getThen()) || movesRegistersOnly(If->getElse()));
  OneArmed |= RegisterSide;
  // The term the figures are of: a bounds guard beside a stronger term only takes the
  // grid's tail away.
  const Sym *Figured = E.Stronger ? E.Stronger.get() : E.CondS;
  bool Shaped = B.Kind == BranchSite::Loop && B.LoopVar >= 0
                    ? isDataBoundary(B, Figured, Vars) ||
                          !(mentionsLaneForm(Vars[B.LoopVar].Init.get()) ||
                            mentionsLaneForm(Vars[B.LoopVar].Cond.get()))
                    : isDataBoundary(B, Figured, Vars);
  if (!((OneArmed || Light) && Shaped))
    return std::nullopt;
  bool Contiguous = true, SweepsWarps = false;
  // A loop whose trips read the thread only as its place in a group of lanes (`size_i +
  // ept * (t % 16) < n`, a head's slice per group of 16 lanes): the lanes leave in lane
  // order within each group, the groups being rows of their own.
  bool GroupRows = B.Kind == BranchSite::Loop && Figured && readsGroupLaneOnly(Figured);
  // A test of a flattened index's row against its column (`idx / n < idx % n`): a warp
  // holds pieces of one or more rows of the matrix, and each piece splits at the diagonal
  // into one contiguous range; only the warps the diagonal crosses split.
  bool MatrixRows = B.Kind != BranchSite::Loop && Figured && isRowColumnTest(Figured);
  for (size_t I = 0; I < E.ByShape.size(); ++I) {
    const Tally &T = E.ByShape[I];
    if (!T.Evaluated || T.Divergent == 0)
      continue;
    Contiguous &= B.Kind == BranchSite::Loop ? T.InLaneOrder || GroupRows
                                             : T.MaxRunsPerRow <= 3 || MatrixRows;
    SweepsWarps |= T.MaxDivergentPerEnv >= std::min(2u, K.Distinct[I].warps()) &&
                   T.MaxMinority * 4 >= WaveSize;
  }
  bool Swept = B.Kind != BranchSite::Loop && isSweptCondition(Figured, Vars) && SweepsWarps;
  if (!Contiguous || Swept)
    return std::nullopt;
  return B.Kind == BranchSite::Loop
             ? std::string("the lanes leave the loop in lane order (the edge of a "
                           "triangle or the tail of a stride): each warp splits only in "
                           "its last trips, which no remapping of threads avoids")
         : OneArmed && MatrixRows && !RegisterSide
             ? std::string("one side of the branch does no work and it compares the row "
                           "and the column of one flattened index: the lanes that take "
                           "the other are one contiguous range of each row of the matrix "
                           "(the edge of a triangle): only the warps that the diagonal "
                           "crosses split, about one per row of the matrix, and the others "
                           "take the arm whole or skip it")
         : RegisterSide
             ? std::string("one side of the branch only moves values between registers "
                           "and the lanes that take the other are one contiguous range of "
                           "each warp (the edge of a triangle, a tile or a tail): the others "
                           "only wait, and no remapping of threads gives them work")
         : OneArmed
             ? std::string("one side of the branch does no work and the lanes that "
                           "take the other are one contiguous range of each warp (the "
                           "edge of a triangle, a tile or a tail): the others only "
                           "wait, and no remapping of threads gives them work")
             : std::string("the arms are a statement or two each and the lanes split "
                           "into contiguous ranges of each warp (the edge of a "
                           "triangle, a tile or a tail): the warp issues both in a few "
                           "instructions, and no remapping of threads saves them");
}

void BranchBuilder::describeFinding(const KernelContext &K, const BranchEval &E,
                                    const BranchSite &Found, const Tally &Worst,
                                    const Launch &Chosen, BranchModel &R) const {
  ASTContext &Ctx = M.Ctx;
  const BranchSite &B = E.B;
  const std::vector<SymVarInfo> &Vars = E.Vars;
  R.Term = E.StrongerExpr ? sourceText(E.StrongerExpr, Ctx)
           : B.Term       ? sourceText(B.Term, Ctx)
                          : sourceText(B.Cond, Ctx);
  const std::string What = branchKindText(B.Kind);
  bool Executions = !Worst.LoopName.empty();
  // On AMD the unit is the wavefront, named with its width.
  std::string Unit = Amd ? "wavefront" : "warp";
  std::string Counted = Executions ? " " + Unit + " executions" : " " + Unit + "s";
  if (Amd)
    Counted += " of " + std::to_string(WaveSize) + " lanes";
  std::string Detail = "block " + Chosen.Block.str() + (K.Assumed ? " assumed" : "");
  if (Executions && !Worst.LoopName.empty())
    Detail += ", " + std::to_string(Worst.LoopValues) +
              (Worst.Varies ? " iterations" : " values of '" + Worst.LoopName + "'");
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 &&
      Vars[B.LoopVar].LoopVariance != Variance::Uniform)
    Detail += ", lanes leave after different trip counts";
  for (const auto &[V, Values] : E.Passed) {
    std::string List;
    for (int64_t X : Values)
      List += (List.empty() ? "" : ", ") + std::to_string(X);
    std::vector<unsigned> Used;
    if (E.CondS)
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
  R.Figures = "diverges in " + std::string(Worst.Varies ? "up to " : "") +
              std::to_string(Worst.Divergent) + " of " + std::to_string(Worst.Total) +
              Counted + " of kernel '" + K.KernelName + "' (" + Detail +
              "); predicted branch efficiency " + Efficiency;
  std::string CondText = sourceText(B.Cond, Ctx);
  std::string Compact;
  for (char C : CondText)
    if (!isspace(static_cast<unsigned char>(C)))
      Compact += C;
  R.GroupKey = K.KernelName + '\n' + Compact + '\n' + What + '\n' + R.Figures + '\n' +
               branchSeverityName(R.Severity);
}

void BranchBuilder::findingNotes(const KernelContext &K, BranchEval &E, const Launch &Chosen,
                                 BranchModel &R) const {
  ASTContext &Ctx = M.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const BranchSite &B = E.B;
  const std::vector<SymVarInfo> &Vars = E.Vars;
  const Sym *CondS = E.CondS;
  const std::string &Term = R.Term;
  SourceLocation Loc = E.Loc;
  if (K.Assumed)
    R.Notes.push_back({K.Kernel->getLocation(),
                       "no launch of '" + K.KernelName +
                           "' with a known block shape in this translation unit; assumed " +
                           (O.AssumedBlock.Y == 1 && O.AssumedBlock.Z == 1
                                ? "a 1-D block of " + std::to_string(O.AssumedBlock.X)
                                : "a block of " + O.AssumedBlock.str()) +
                           " threads" +
                           (O.AssumedBlock.threads() % 32 == 0 ? " (a multiple of 32)" : "")});
  for (size_t I = 0; I < K.Shapes.size(); ++I) {
    const Tally &T = E.ByShape[K.ShapeOf[I]];
    if (T.Evaluated && T.Divergent == 0 && K.Shapes[I]->Loc.isValid())
      R.Notes.push_back({K.Shapes[I]->Loc, "with the block " + K.Shapes[I]->Block.str() +
                                               " of this launch the branch is warp-uniform"});
  }
  if (E.Stronger && E.StrongerExpr)
    R.Notes.push_back({Loc, "the bounds guard beside '" + Term +
                                "' only takes the grid's tail away: the figures are "
                                "those of '" + Term + "'"});
  else if (E.Stronger)
    R.Notes.push_back({Loc, "the bounds guards among the terms of this condition only take "
                            "the grid's tail away: the figures are those of the other terms"});

  // Notes with a warp-uniform remapping.
  if (CondS && isInterleavedReduction(CondS, Vars)) {
    R.Notes.push_back(
        {Loc, "interleaved tree reduction: the active threads spread over every warp; index "
              "contiguous threads instead ('int index = 2 * s * tid; if (index < "
              "blockDim.x)') so that whole warps go idle"});
  } else if (!E.Stronger && B.Kind != BranchSite::Loop && B.TermSym && B.Term && CondS &&
             mentionsThreadIdx(*B.TermSym)) {
    SymRef Remapped = replaceNode(
        B.CondVal.S, B.TermSym.get(),
        makeBinary(SymOp::Div, B.TermSym,
                   makeConst(WaveSize, B.TermSym->Bits, B.TermSym->Unsigned), B.TermSym->Bits,
                   B.TermSym->Unsigned));
    bool Works = true;
    for (size_t I = 0; I < K.Distinct.size(); ++I) {
      Tally New = evaluateBranch(B, Vars, K.Distinct[I], WaveSize, E.Passed, Remapped, &E.Envs[I]);
      if (!New.Evaluated || New.Divergent != 0 ||
          New.TrueLanesPerEnv != E.ByShape[I].TrueLanesPerEnv)
        Works = false;
    }
    if (Works) {
      unsigned Offset = SM.getFileOffset(B.Term->getBeginLoc()) -
                        SM.getFileOffset(B.Cond->getBeginLoc());
      std::string NewText = sourceText(B.Cond, Ctx);
      if (Offset + Term.size() <= NewText.size())
        NewText.replace(Offset, Term.size(), "(" + Term + " / warpSize)");
      R.Notes.push_back({B.Term->getBeginLoc(),
                         "'(" + Term + " / warpSize)' in place of '" + Term +
                             "' splits the same number of threads by whole warps: '" +
                             NewText + "' (this changes which threads take each path)"});
    }
  }
  // Rows (planes) that straddle warps, when the condition reads threadIdx.y (.z).
  unsigned TidDims = 0;
  std::vector<bool> SeenVars(Vars.size());
  if (!K.Assumed)
    collectTidDims(CondS, Vars, TidDims, SeenVars);
  const BlockShape &Shape = Chosen.Block;
  std::string Wave = Amd ? "wavefront" : "warp";
  if ((TidDims & 2) && Shape.X % WaveSize != 0 && Shape.Y > 1) {
    RunsPerWarp Runs = runsPerWarp(Shape.X, Shape.threads(), WaveSize);
    R.Notes.push_back({Loc, "a " + Wave + " spans " + (Runs.Same ? "" : "up to ") +
                                std::to_string(Runs.Most) + (Runs.Most == 1 ? " row" : " rows") +
                                " of " + std::to_string(Shape.X) +
                                " threads: 'threadIdx.y' is " + Wave +
                                "-uniform only when blockDim.x is a multiple of " +
                                std::to_string(WaveSize)});
  }
  if ((TidDims & 4) && (Shape.X * Shape.Y) % WaveSize != 0 && Shape.Z > 1) {
    RunsPerWarp Runs = runsPerWarp(Shape.X * Shape.Y, Shape.threads(), WaveSize);
    R.Notes.push_back({Loc, "a " + Wave + " spans " + (Runs.Same ? "" : "up to ") +
                                std::to_string(Runs.Most) +
                                (Runs.Most == 1 ? " plane" : " planes") + " of " +
                                std::to_string(Shape.X) + "x" + std::to_string(Shape.Y) +
                                " threads: 'threadIdx.z' is " + Wave +
                                "-uniform only when blockDim.x * blockDim.y is a multiple "
                                "of " + std::to_string(WaveSize)});
  }
  // Last: what the compiler may make of it.
  if (hasShortArms(B) && !hasRegisterArms(B))
    R.Notes.push_back({Loc, std::string("the arms are short: ") +
                                (Amd ? "the compiler" : "nvcc") +
                                " may predicate them instead of branching; the " + Wave +
                                " then issues both arms with the lanes of the other side "
                                "masked off, so they still idle"});
}

const std::vector<BranchModel> &TuModel::branches(const BranchOptions &Opts) {
  for (const auto &[O, Records] : Branches)
    if (O == Opts)
      return Records;
  // The loop tests' parent maps: BranchBuilder's FunctionParents (per function, the
  // traversal scope put back after).
  std::vector<BranchModel> Records = BranchBuilder(*this, Opts).build();
  Branches.emplace_back(Opts, std::move(Records));
  return Branches.back().second;
}

} // namespace warplint
