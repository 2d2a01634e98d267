//===- SyncCheck.cpp - what the two synchronisation checks share ----------===//
#include "checks/SyncCheck.h"
#include "divergence/Idioms.h"
#include "checks/AnalysisNames.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

#include <cctype>
#include <map>

namespace clang::tidy::warplint {

using namespace ast_matchers;

namespace {

std::string text(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  std::string T = Lexer::getSourceText(SM.getExpansionRange(R), SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : T) // one line, single spaces
    if (!std::isspace(static_cast<unsigned char>(C)) || (!Out.empty() && Out.back() != ' '))
      Out += std::isspace(static_cast<unsigned char>(C)) ? ' ' : C;
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  return Out.size() > 80 ? Out.substr(0, 77) + "..." : Out;
}

const char *exitWord(const Stmt *S) {
  return isa<ReturnStmt>(S) ? "return" : isa<BreakStmt>(S) ? "break" : "continue";
}

} // namespace

std::string SyncCheck::callName(const SyncModel &S) {
  if (S.Class.Name.find("()") != std::string::npos)
    return "'" + S.Class.Name + "'";
  return "'" + S.Class.Name + "()'";
}

SourceLocation SyncCheck::causeLoc(const SyncCause &C, const SourceManager &SM) {
  return C.Where ? SM.getExpansionLoc(C.Where->getBeginLoc()) : SourceLocation();
}

std::string SyncCheck::causeText(const SyncCause &C, const SyncModel &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Cond = "'" + text(C.Cond, Ctx) + "'";
  std::string Who = C.BlockOnly ? "blocks" : "threads";
  std::string Depends = C.Data        ? "data loaded at a thread-dependent address"
                        : C.BlockOnly ? "the block"
                                      : "the thread";
  unsigned Line = C.Where ? SM.getPresumedLineNumber(causeLoc(C, SM)) : 0;
  switch (C.Kind) {
  case SyncCause::Condition: {
    const char *Kind = isa_and_nonnull<SwitchStmt>(C.Where) ? "switch" : "if";
    return std::string(C.Negated ? "it is in the else arm of '" : "it is inside '") + Kind +
           " (" + text(C.Cond, Ctx) + ")', which depends on " + Depends;
  }
  case SyncCause::TripCount:
    return "it is inside a loop whose condition " + Cond + " depends on " + Depends + ": " +
           Who + " with fewer trips skip it in the last ones";
  case SyncCause::Exit:
    break;
  }
  std::string Where = "the '" + std::string(exitWord(C.Where)) + "' on line " +
                      std::to_string(Line) + (C.LaterTrips ? " (in an earlier trip)" : "");
  if (C.BoundsExit)
    return "the threads whose '" + text(C.BoundIndex, Ctx) + "' is at or past '" +
           text(C.BoundLimit, Ctx) +
           (C.BoundBlockLocal
                ? "' (in every block, when '" + text(C.BoundLimit, Ctx) +
                      "' is below the block's size) leave at "
                : "' (the tail of the last block, when '" + text(C.BoundLimit, Ctx) +
                      "' is not a multiple of the block) leave at ") +
           Where + " and never reach it";
  (void)S;
  return Who + " for which " + Cond + (C.Negated ? " is false" : " holds") + " leave at " +
         Where + " before it" +
         (C.Data ? " (a condition on data loaded at a thread-dependent address)" : "");
}

void SyncCheck::noteContext(const SyncModel &S, ASTContext &Ctx, bool ShapeUsed) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!S.Call.Via.empty()) {
    const CallExpr *Outer = S.Call.Via.front();
    const FunctionDecl *Callee = Outer->getDirectCallee();
    diag(SM.getExpansionLoc(Outer->getBeginLoc()), "%0 is reached from kernel '%1' through "
                                                   "this call of '%2'",
         DiagnosticIDs::Note)
        << callName(S) << S.Kernel->Name << (Callee ? Callee->getNameAsString() : "?");
  }
  if (ShapeUsed && S.AssumedShape)
    noteAssumedBlock(*S.Kernel);
}

std::string SyncCheck::launchDemotion(const SyncModel &S, const char *What) {
  std::string Names;
  for (size_t I = 0; I < S.LaunchUnknowns.size() && I < 4; ++I)
    Names += (I ? ", '" : "'") + S.LaunchUnknowns[I] + "'";
  if (S.LaunchUnknowns.size() > 4)
    Names += ", ...";
  std::string Launches = S.LaunchCount == 1 ? "the launch in this file"
                                            : "each of the " + std::to_string(S.LaunchCount) +
                                                  " launches in this file";
  return "at " + Launches + ", the grid, the block and the arguments" +
         (Names.empty() ? std::string(" bring ")
                        : ", computed from the same values of " + Names + " (" +
                              std::to_string(S.LaunchSamples) + " samples), bring ") +
         What + " of the first and the last block to it";
}

std::string SyncCheck::assumedDemotion(const SyncModel &S) {
  for (const ReachFigures &Alt : S.Alternatives)
    if (!Alt.Evaluated || !Alt.splits())
      return "no launch in this file gives the block shape, and with a block of " +
             Alt.Shape.str() + " every thread that reaches the code around it reaches it";
  return "";
}

std::string SyncCheck::assumedSampledDemotion(const SyncModel &S) {
  // Sampled values do not stand for a bounds exit's limit (`i >= n` leaves a tail for
  // most n, whatever the block): such a cause keeps the finding.
  if (!S.AssumedShape || S.PerShape.empty() ||
      llvm::any_of(S.Causes, [](const SyncCause &C) { return C.BoundsExit; }) ||
      llvm::any_of(S.PerShape, [](const auto &P) {
        return P.first.Evaluated || P.first.SampledWhole; // the assumed block: a sampled split
      }))
    return "";
  for (const ReachFigures &Alt : S.Alternatives)
    if ((Alt.Evaluated && !Alt.splits()) || Alt.SampledWhole)
      return "no launch in this file gives the block shape, and with a block of " +
             Alt.Shape.str() + " every thread reaches it" +
             (Alt.Evaluated ? std::string()
                            : " for every sampled value (block indices 0 and 1, parameters "
                              "1, 32, 33 and 1000)") +
             ": the split is the assumed block's; give the launch's block shape "
             "(--assume-block, or a launch in this file) to decide";
  return "";
}

namespace {
using ::warplint::divergence::Sym;
using ::warplint::divergence::SymOp;
using ::warplint::skipCasts;


/// The terms of a sum, or the factors of a product (through casts).
void flatten(const Sym *E, SymOp Op, std::vector<const Sym *> &Out) {
  E = skipCasts(E);
  if (E && E->Op == Op && E->A && E->B) {
    flatten(E->A.get(), Op, Out);
    flatten(E->B.get(), Op, Out);
    return;
  }
  Out.push_back(E);
}

bool isIndex(const Sym *E, SymOp Op, int64_t Dim) {
  E = skipCasts(E);
  return E && E->Op == Op && E->Value == Dim;
}

/// E is the thread's place in its block counted across rows, `threadIdx.x + threadIdx.y *
/// blockDim.x (+ threadIdx.z * blockDim.x * blockDim.y)`, or with the row's width as a
/// constant (`threadIdx.x + threadIdx.y * 32`): the warps hold consecutive such places
/// whatever the block's shape (the block the code counts its rows by), so rows read this
/// way split no warp that the same count of threads in one row would not.
bool readsRows(const Sym *E);

bool mentionsThread(const Sym *E) {
  return E && (E->Op == SymOp::ThreadIdx || mentionsThread(E->A.get()) ||
               mentionsThread(E->B.get()) || mentionsThread(E->C.get()));
}

/// The sum's other terms (a block's first thread, `blockIdx.x * blockDim.x * blockDim.y`)
/// may be anything that reads no thread index and no row.
bool isLinearThreadIndex(const Sym *E) {
  std::vector<const Sym *> Terms;
  flatten(E, SymOp::Add, Terms);
  if (Terms.size() < 2)
    return false;
  bool X = false, Rows = false;
  for (const Sym *T : Terms) {
    if (!mentionsThread(T)) {
      if (readsRows(T))
        return false;
      continue;
    }
    std::vector<const Sym *> F;
    flatten(T, SymOp::Mul, F);
    auto Has = [&](SymOp Op, int64_t Dim) {
      return llvm::any_of(F, [&](const Sym *S) { return isIndex(S, Op, Dim); });
    };
    // A row's width as the block's x or as the constant the code counts a row as
    // (`threadIdx.y * WARP_SIZE`: the code's own word that blockDim.x is that wide).
    auto Width = [&](size_t Factors) {
      size_t Sizes = 0;
      for (const Sym *S : F) {
        const Sym *X = skipCasts(S);
        Sizes += X && ((X->Op == SymOp::BlockDim && X->Value < 2) ||
                       (X->Op == SymOp::Const && X->Value > 0));
      }
      return F.size() == Factors && Sizes + 1 == Factors;
    };
    if (F.size() == 1 && Has(SymOp::ThreadIdx, 0))
      X = true;
    else if (Has(SymOp::ThreadIdx, 1) && Width(2))
      Rows = true;
    else if (Has(SymOp::ThreadIdx, 2) && (Width(2) || Width(3)))
      Rows = true;
    else
      return false;
  }
  return X && Rows;
}

/// Whether E reads threadIdx.y or .z, or blockDim.y or .z, other than in the thread's
/// place counted across rows (isLinearThreadIndex) or the block's size (`blockDim.x *
/// blockDim.y`, a count of threads, the same for every thread).
bool readsRows(const Sym *E) {
  if (!E)
    return false;
  if (isLinearThreadIndex(E))
    return false;
  if (skipCasts(E) && skipCasts(E)->Op == SymOp::Mul) {
    std::vector<const Sym *> F;
    flatten(E, SymOp::Mul, F);
    bool Width = llvm::any_of(F, [](const Sym *S) { return isIndex(S, SymOp::BlockDim, 0); });
    bool OnlySizes = Width && llvm::all_of(F, [](const Sym *S) {
                       S = skipCasts(S);
                       return S && S->Op != SymOp::ThreadIdx &&
                              (S->Op == SymOp::BlockDim || !readsRows(S));
                     });
    if (OnlySizes)
      return false;
  }
  if ((E->Op == SymOp::ThreadIdx || E->Op == SymOp::BlockDim) && E->Value > 0)
    return true;
  return readsRows(E->A.get()) || readsRows(E->B.get()) || readsRows(E->C.get());
}

/// Whether a condition or exit on the way to the call reads the block's rows (threadIdx.y
/// or .z): where the block's x is narrower than a warp, a warp holds several rows, which
/// no alternative block (each at least a warp wide in x) shows.
bool readsRows(const ::warplint::SyncCall &C) {
  for (const ::warplint::Guard &G : C.Guards)
    if (G.Val.V != ::warplint::Variance::Uniform && readsRows(G.Val.S.get()))
      return true;
  for (const ::warplint::ExitSite &X : C.Exits)
    for (const ::warplint::Guard &G : X.Guards)
      if (G.Val.V != ::warplint::Variance::Uniform && readsRows(G.Val.S.get()))
        return true;
  return false;
}
} // namespace

namespace {
/// The largest value a shuffle's operand takes, where it is a constant or the counter of a
/// loop that halves down from a constant (`for (o = 8; o > 0; o >>= 1)`) or climbs below
/// one (`for (o = 1; o < 16; o *= 2)`).
std::optional<int64_t> largestOperand(const Sym *X,
                                      const std::vector<::warplint::SymVarInfo> &Vars) {
  using ::warplint::SymVarInfo;
  X = skipCasts(X);
  if (!X)
    return std::nullopt;
  if (X->Op == SymOp::Const)
    return X->Value;
  if (X->Op != SymOp::Var || X->Value < 0 || size_t(X->Value) >= Vars.size())
    return std::nullopt;
  const SymVarInfo &L = Vars[size_t(X->Value)];
  if (L.Kind != SymVarInfo::Loop || !L.Init || !L.Cond || !L.Step)
    return std::nullopt;
  const Sym *Init = skipCasts(L.Init.get()), *Step = skipCasts(L.Step.get());
  const Sym *Cond = skipCasts(L.Cond.get());
  if (Init && Init->Op == SymOp::Const && Step &&
      (Step->Op == SymOp::Shr || Step->Op == SymOp::Div))
    return Init->Value;
  if (Cond && (Cond->Op == SymOp::Lt || Cond->Op == SymOp::Le) && Cond->B &&
      skipCasts(Cond->B.get())->Op == SymOp::Const && Step &&
      (Step->Op == SymOp::Shl || Step->Op == SymOp::Mul || Step->Op == SymOp::Add))
    return skipCasts(Cond->B.get())->Value - (Cond->Op == SymOp::Lt ? 1 : 0);
  return std::nullopt;
}

/// What S says of how its kernel lays rows: Narrow, a shuffle of a constant width under 32
/// (vector_mv_csr's `__shfl_down_sync(m, t, i, BS)`) or a tile of fewer than 32 threads;
/// Reach, for a shuffle across lanes (xor, down, up), the farthest lane it reaches (32:
/// not known).
void rowEvidence(const SyncModel &S, const std::vector<::warplint::SymVarInfo> &Vars,
                 bool &Narrow, std::optional<int64_t> &Reach) {
  using ::warplint::SyncClass;
  if (S.Class.Kind == SyncKind::Tile) {
    Narrow |= S.Class.TileSize > 0 && S.Class.TileSize < 32;
    return;
  }
  if (S.Class.Kind != SyncKind::WarpMask || S.Class.Shuffle == SyncClass::NoShuffle)
    return;
  if (S.Class.ShuffleWidth > 0 && S.Class.ShuffleWidth < 32) {
    Narrow = true;
    return;
  }
  if (S.Class.Shuffle == SyncClass::ShflIdx)
    return;
  std::optional<int64_t> Most = S.Call.Args.size() >= 3 && S.Call.Args[2].S
                                    ? largestOperand(S.Call.Args[2].S.get(), Vars)
                                    : std::nullopt;
  Reach = std::max(Reach.value_or(0), Most && *Most > 0 ? *Most : int64_t(32));
}
} // namespace

SyncCheck::Shapes SyncCheck::shapesOf(const SyncModel &S) {
  Shapes Out;
  // An assumed block sampled whole counts when every alternative block (2-D ones among
  // them, which a condition on threadIdx.y would split) is whole too, and no condition
  // reads the rows (a block narrower than a warp in x, vector_mv_csr's (BS, bs / BS),
  // would put rows that disagree into one warp).
  // (The 16x16 alternative of a kernel that reads threadIdx.y is one of those narrower
  // blocks: it can only make a finding a note, never one a warning.)
  const bool WideWhole =
      !S.Alternatives.empty() && llvm::all_of(S.Alternatives, [](const ReachFigures &A) {
        return A.Shape.X < 32 || (A.Evaluated && !A.splits()) || A.SampledWhole;
      });
  const bool Rows = readsRows(S.Call);
  const bool AlternativesWhole = WideWhole && !Rows;
  bool WholeButRows = true;
  for (const auto &[R, Loc] : S.PerShape) {
    Out.AllEvaluated &= R.Evaluated;
    Out.AllWhole &= R.Evaluated || (R.SampledWhole && (Loc.isValid() || AlternativesWhole));
    WholeButRows &= R.Evaluated || (R.SampledWhole && (Loc.isValid() || WideWhole));
    if (!Out.Split && R.splits())
      Out.Split = &R;
  }
  Out.RowsOnly = !Out.AllWhole && !Out.Split && WholeButRows && Rows && S.AssumedShape;
  return Out;
}

DiagnosticIDs::Level SyncCheck::splitLevel(const SyncModel &S, std::string &Demotion) {
  Demotion = S.AssumedShape ? assumedDemotion(S) : "";
  return !S.AssumedShape     ? DiagnosticIDs::Error
         : Demotion.empty() ? DiagnosticIDs::Warning
                            : DiagnosticIDs::Remark;
}

void SyncCheck::recordSplit(const SyncModel &S, const ReachFigures &Split, SourceLocation Loc,
                            DiagnosticIDs::Level Level, const std::string &Demotion,
                            std::string Cause, SourceLocation CauseLoc) {
  if (!Demotion.empty())
    diag(Loc, "a note, not a warning: %0", DiagnosticIDs::Note) << Demotion;
  Tu->reportSync(S, &Split, std::string(getID()),
                 Level == DiagnosticIDs::Error     ? "error"
                 : Level == DiagnosticIDs::Warning ? "warning"
                                                   : "note",
                 std::move(Cause), CauseLoc);
}

void SyncCheck::reportTu(TuModel &M, ASTContext &C) {
  const SourceManager &SM = C.getSourceManager();
  std::set<SourceLocation> Seen;
  struct Finding {
    const SyncModel *First;
    SourceLocation Loc;
    std::vector<SourceLocation> More;
  };
  std::vector<Finding> Findings;
  std::map<std::string, size_t> ByCause;
  // The kernels whose code lays rows narrower than a warp: a shuffle width or tile under
  // 32, or shuffles across lanes none of which reaches 16 lanes away (a butterfly of
  // `o = 8, 4, 2, 1` combines groups of 16; one written out from 16 down reaches the
  // warp's other half).
  NarrowRows.clear();
  std::map<const KernelInfo *, std::pair<bool, std::optional<int64_t>>> Evidence;
  for (const SyncModel &S : M.syncCalls(AssumedBlock)) {
    auto &[Narrow, Reach] = Evidence[S.Kernel];
    rowEvidence(S, M.kernelAnalysis(S.Kernel->Decl).TD.vars(), Narrow, Reach);
  }
  for (const auto &[K, E] : Evidence)
    if (E.first || (E.second && *E.second < 16))
      NarrowRows.insert(K);
  for (const SyncModel &S : M.syncCalls(AssumedBlock)) {
    if (Ignored.ignores(S.Kernel->Name))
      continue;
    SourceLocation Loc = SM.getExpansionLoc(S.Call.Call->getBeginLoc());
    if (Loc.isInvalid() || Seen.count(Loc))
      continue;
    std::string Key = rootCause(S, C);
    if (Key.empty())
      continue;
    Seen.insert(Loc);
    auto [It, New] = ByCause.try_emplace(Key, Findings.size());
    if (New)
      Findings.push_back({&S, Loc, {}});
    else
      Findings[It->second].More.push_back(Loc);
  }
  for (const Finding &F : Findings)
    report(*F.First, F.Loc, C, F.More);
  reportExtra(M, C);
}

} // namespace clang::tidy::warplint
