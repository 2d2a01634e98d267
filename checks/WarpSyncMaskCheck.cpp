//===- WarpSyncMaskCheck.cpp - warplint-warp-sync-mask ----------------------===//
#include "checks/WarpSyncMaskCheck.h"
#include "checks/AnalysisNames.h"
#include "model/Facts.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace clang::tidy::warplint {

namespace {

/// The causes that can split the lanes of one warp (a warp-uniform condition moves whole
/// warps).
std::vector<const SyncCause *> laneCauses(const SyncModel &S) {
  std::vector<const SyncCause *> Out;
  for (const SyncCause &C : S.Causes)
    if (!C.WarpUniform && !C.BlockOnly)
      Out.push_back(&C);
  return Out;
}

/// "lanes 16-31", "lane 16".
std::string lanesText(uint32_t Bits) {
  return (llvm::popcount(Bits) == 1 ? "lane " : "lanes ") + laneRanges(Bits);
}

/// The alternative blocks of an assumed one: "32x1, 32x8, 64x4, 128x2".
std::string alternativesText(const SyncModel &S) {
  std::string Out;
  for (const ReachFigures &A : S.Alternatives)
    if (A.Shape.X >= 32)
      Out += (Out.empty() ? "" : ", ") + A.Shape.str();
  return Out;
}

std::string hex(uint32_t V) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::format_hex(V, 10);
  return Out;
}

/// What the call names: "mask 0xffffffff of '__shfl_down_sync()'", or the tile.
std::string namesText(const SyncModel &S, const std::string &Call) {
  if (S.Class.Kind == SyncKind::Tile)
    return Call + " (every thread of its tile of " + std::to_string(S.Class.TileSize) + ")";
  return "mask " + hex(*S.Class.MaskValue) + " of " + Call;
}

/// A constant mask that leaves out lanes which call: where nothing before the call splits
/// a warp (every cause warp-uniform), every lane of a warp that reaches it calls it, and
/// the Programming Guide requires each calling lane to have its own bit in the mask. For
/// the first block shape with such lanes, its first warp and the lanes; lanes past the end
/// of a partial warp are no threads and do not count.
struct UnnamedCallers {
  const ReachFigures *Figures = nullptr;
  unsigned Warp = 0;
  uint32_t Lanes = 0;
};
std::optional<UnnamedCallers> unnamedCallers(const SyncModel &S) {
  if (S.Class.Kind != SyncKind::WarpMask || !S.Class.MaskValue || !laneCauses(S).empty())
    return std::nullopt;
  for (const auto &[F, Where] : S.PerShape) {
    const unsigned Threads = F.Shape.threads();
    for (unsigned W = 0; W * 32 < Threads; ++W) {
      if (uint32_t Out = lanesThatExist(W, Threads) & ~*S.Class.MaskValue)
        return UnnamedCallers{&F, W, Out};
    }
  }
  return std::nullopt;
}

/// The one statement above S (through a declaration: `float t = __shfl_down_sync(...)`),
/// or null.
const Stmt *parentOf(const Stmt *S, ASTContext &C) {
  DynTypedNodeList P = C.getParents(*S);
  while (P.size() == 1 && P[0].get<Decl>() && !P[0].get<FunctionDecl>())
    P = C.getParents(P[0]);
  return P.size() == 1 ? P[0].get<Stmt>() : nullptr;
}

bool isLoopStmt(const Stmt *S) { return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

bool readsVar(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (auto *D = dyn_cast<DeclRefExpr>(S))
    if (D->getDecl() == V)
      return true;
  for (const Stmt *Ch : S->children())
    if (readsVar(Ch, V))
      return true;
  return false;
}

/// Whether the value a shuffle tree reads starts afresh before the next tree: the local
/// passed as the shuffle's value, where the tree (the loop around the call) is in no other
/// loop of its function, or where the statements after the tree in the enclosing loop's
/// body assign the local, unconditionally, from an expression that does not read it
/// (marchingCubes' `minV = v;`). Partial results of one tree's other lanes then reach no
/// later tree.
bool startsAfresh(const CallExpr *Call, ASTContext &C) {
  if (Call->getNumArgs() < 2)
    return false;
  auto *Ref = dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
  auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage())
    return false;
  const Stmt *Tree = Call;
  while (Tree && !isLoopStmt(Tree))
    Tree = parentOf(Tree, C);
  if (!Tree)
    return false;
  // The statement of the enclosing block that holds the tree (through `#pragma unroll`).
  const Stmt *Child = Tree, *Up = parentOf(Tree, C);
  while (Up && isa<AttributedStmt>(Up)) {
    Child = Up;
    Up = parentOf(Up, C);
  }
  const Stmt *Outer = Up;
  while (Outer && !isLoopStmt(Outer))
    Outer = parentOf(Outer, C);
  if (!Outer)
    return true;
  auto *Block = dyn_cast_or_null<CompoundStmt>(Up);
  if (!Block)
    return false;
  bool After = false;
  for (const Stmt *St : Block->body()) {
    if (St == Child) {
      After = true;
      continue;
    }
    if (!After)
      continue;
    if (auto *B = dyn_cast<BinaryOperator>(St))
      if (B->getOpcode() == BO_Assign)
        if (auto *L = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          if (L->getDecl() == V && !readsVar(B->getRHS(), V))
            return true;
  }
  return false;
}

} // namespace

std::string WarpSyncMaskCheck::rootCause(const SyncModel &S, ASTContext &C) {
  if (S.Class.Kind != SyncKind::WarpMask && S.Class.Kind != SyncKind::Tile)
    return "";
  // A mask computed at run time (__ballot_sync, __activemask(), a parameter) names the
  // lanes that arrive: nothing to compare.
  if (S.Class.Kind == SyncKind::WarpMask && !S.Class.MaskValue)
    return "";
  if (unnamedCallers(S))
    return S.Kernel->Name + "\nunnamed callers";
  Shapes Sh = shapesOf(S);
  if (Sh.AllWhole && !Sh.Split)
    return "";
  std::vector<const SyncCause *> Causes = laneCauses(S);
  if (!Sh.AllEvaluated && Causes.empty())
    return "";
  const SourceManager &SM = C.getSourceManager();
  // One finding per cause: the partial warp of the block, or one condition or exit.
  if (Causes.empty())
    return S.Kernel->Name + "\npartial warp";
  return S.Kernel->Name + "\n" + causeLoc(*Causes.front(), SM).printToString(SM) + "\n" +
         (Sh.AllEvaluated ? "evaluated" : rowsOnly(S, Sh) ? "rows" : "run-time");
}

std::string WarpSyncMaskCheck::decidedBy(const SyncModel &S) {
  // Every block shape tried either brings every named lane for all sampled values or is
  // split only for some values of a group size; at least one is the latter.
  std::string Out;
  for (const auto &[R, Loc] : S.PerShape) {
    if (R.SampledWhole)
      continue;
    if (R.Evaluated || R.DecidedBy.empty())
      return "";
    if (Out.empty())
      Out = R.DecidedBy;
  }
  return Out;
}

bool WarpSyncMaskCheck::rowsOnly(const SyncModel &S, const Shapes &Sh) const {
  return Sh.RowsOnly && !NarrowRows.count(S.Kernel);
}

void WarpSyncMaskCheck::report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
                               const std::vector<SourceLocation> &More) {
  const SourceManager &SM = C.getSourceManager();
  std::vector<const SyncCause *> Causes = laneCauses(S);
  [[maybe_unused]] auto [AllEvaluated, AllWhole, Split, RowsOnly] = shapesOf(S);
  std::string Names = namesText(S, callName(S));
  if (std::optional<UnnamedCallers> U = unnamedCallers(S)) {
    // Every lane of a warp that reaches the call calls it; some are not in the mask.
    DiagnosticIDs::Level Level =
        S.AssumedShape ? DiagnosticIDs::Warning : DiagnosticIDs::Error;
    std::string Why = "nothing before the call splits a warp, so every lane of a warp that "
                      "reaches it calls it";
    diag(Loc,
         "%0 in kernel '%1' leaves out %2 of warp %3, which call it (block %4%5: %6); a "
         "calling lane that is not in the mask is undefined behaviour",
         Level)
        << Names << S.Kernel->Name << lanesText(U->Lanes) << U->Warp << U->Figures->Shape.str()
        << (S.AssumedShape ? " assumed" : "") << Why;
    Tu->reportSync(S, nullptr, std::string(getID()),
                   Level == DiagnosticIDs::Error ? "error" : "warning",
                   "lanes " + laneRanges(U->Lanes) + " call it and are not in the mask",
                   SourceLocation());
    diag(Loc, "name every lane that calls it in the mask, or call it only from the lanes the mask "
              "names",
         DiagnosticIDs::Note);
    for (SourceLocation M : More)
      diag(M, "the same mask leaves out lanes that call this one too", DiagnosticIDs::Note);
    noteContext(S, C, true);
    return;
  }
  if (AllEvaluated && Split) {
    // The first warp with named lanes absent, and how many more.
    size_t W = 0;
    while (W < Split->AbsentNamed.size() && !Split->AbsentNamed[W])
      ++W;
    unsigned MoreWarps = 0;
    for (size_t K = W + 1; K < Split->AbsentNamed.size(); ++K)
      MoreWarps += Split->AbsentNamed[K] != 0;
    uint32_t Absent = Split->AbsentNamed[W];
    unsigned Threads = Split->Shape.threads();
    unsigned Live = Threads - unsigned(W) * 32 >= 32 ? 32 : Threads - unsigned(W) * 32;
    uint32_t Exists = Live == 32 ? 0xffffffffu : (1u << Live) - 1;
    std::string Why;
    uint32_t Read = W < Split->ExitedRead.size() ? Split->ExitedRead[W] : 0;
    if (Absent & ~Exists)
      Why = "warp " + std::to_string(W) + " of the block has lanes " + laneRanges(Exists) +
            " only" + (Read && Read == Absent ? ", and lanes that reach it read them" : "");
    else if (Read && Read == Absent)
      Why = "they returned from the kernel, and lanes that reach it read them";
    else
      Why = "they do not reach it";
    std::string Demotion;
    DiagnosticIDs::Level Level = splitLevel(S, Demotion);
    if (S.LaunchWhole) {
      Level = DiagnosticIDs::Remark;
      Demotion = launchDemotion(S, "every named lane");
    } else if (Split->LeaderDefined && Read == Absent && startsAfresh(S.Call.Call, C)) {
      // A reduction tree into each segment's lane 0, whose own result reads only lanes that
      // take part: the undefined values are in partial results a reduction does not use.
      Level = DiagnosticIDs::Remark;
      Demotion = "the __shfl_down_sync tree reduces into lane 0 of each segment, and lane 0's "
                 "result reads only lanes that take part; the lanes that read the others hold "
                 "partial results that a reduction does not use";
    }
    // Source lanes outside the mask (`__shfl_down_sync(0xff, v, 4)`: lanes 4-7 read 8-11):
    // the mask does not name them; the lanes that read them get undefined values.
    const bool Outside = S.Class.MaskValue && !(Absent & *S.Class.MaskValue);
    diag(Loc,
         Outside ? "%0 in kernel '%1' reads %2 of warp %3%4, outside its mask, which "
                   "do not take part (block %5%6%7: %8); %9 is undefined"
                 : "%0 in kernel '%1' names %2 of warp %3%4 that do not take part (block "
                   "%5%6%7: %8); %9 is undefined behaviour",
         Level)
        << Names << S.Kernel->Name << lanesText(Absent) << unsigned(W)
        << (MoreWarps ? " (and lanes of " + std::to_string(MoreWarps) +
                            (MoreWarps == 1 ? " more warp)" : " more warps)")
                      : std::string())
        << Split->Shape.str() << (S.AssumedShape ? " assumed" : "")
        << (Split->Values.empty() ? "" : ", " + Split->Values) << Why
        << (Outside || (Read && Read == Absent)
                ? "a value read from a lane that does not execute the call"
                : "a named lane that does not execute the call");
    recordSplit(S, *Split, Loc, Level, Demotion,
                Causes.empty() ? Why : causeText(*Causes.front(), S, C),
                Causes.empty() ? SourceLocation() : causeLoc(*Causes.front(), SM));
    if (!(Absent & ~Exists))
      for (const SyncCause *Cause : Causes)
        if (SourceLocation L = causeLoc(*Cause, SM); L.isValid())
          diag(L, "%0", DiagnosticIDs::Note) << causeText(*Cause, S, C);
  } else {
    const SyncCause &First = *Causes.front();
    // Under an assumed block, every block at least a warp wide in x that was tried reaches
    // the call whole, and only rows that a block narrower than a warp puts into one warp
    // could leave lanes out; the kernel's code lays no row narrower than a warp (no
    // shuffle width or tile under 32): a note that says so (issue 23's rule for findings
    // under an assumed block; PhysX's warp-per-pair kernels, launched 32 x N from another
    // file).
    bool Rows = rowsOnly(S, shapesOf(S)) && !S.LaunchWhole;
    std::string DecidedBy = S.LaunchWhole ? "" : decidedBy(S);
    bool Note = Rows || !DecidedBy.empty() || S.LaunchWhole;
    diag(Loc, "%0 in kernel '%1' names lanes that may not take part: %2",
         Note ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
        << Names << S.Kernel->Name << causeText(First, S, C);
    if (S.LaunchWhole)
      diag(Loc, "a note, not a warning: %0", DiagnosticIDs::Note)
          << launchDemotion(S, "every named lane");
    if (!DecidedBy.empty() && !Rows)
      diag(Loc,
           "a note, not a warning: the run-time value of %0 decides, and the launches in "
           "this file do not fix it: it sizes the groups of threads the condition tests (a "
           "shift amount or a divisor of the thread index), and some of its sampled values "
           "bring every named lane to the call while others do not",
           DiagnosticIDs::Note)
          << DecidedBy;
    if (Rows)
      diag(Loc,
           "a note, not a warning: no launch in this file gives the block shape; every "
           "block at least a warp wide in x that was tried (%0) brings every named lane to "
           "the call for the sampled values, and only a block narrower than a warp in x, "
           "which puts rows (threadIdx.y) that may disagree into one warp, would leave "
           "lanes out; give the launch's block shape (--assume-block, or a launch in this "
           "file) to decide",
           DiagnosticIDs::Note)
          << alternativesText(S);
    Tu->reportSync(S, nullptr, std::string(getID()), Note ? "note" : "warning",
                   causeText(First, S, C), causeLoc(First, SM));
    for (const SyncCause *Cause : Causes)
      if (SourceLocation L = causeLoc(*Cause, SM); L.isValid())
        diag(L, "%0", DiagnosticIDs::Note) << causeText(*Cause, S, C);
  }
  if (S.Class.Kind == SyncKind::Tile)
    diag(Loc, "keep every thread of the tile on the path to the call, or use the group of the "
              "threads that arrive (cg::coalesced_threads())",
         DiagnosticIDs::Note);
  else
    diag(Loc, "give the lanes that arrive as the mask (__ballot_sync of the same condition, or "
              "__activemask()), or keep every named lane on the path to the call",
         DiagnosticIDs::Note);
  for (SourceLocation M : More)
    diag(M, "the same cause leaves named lanes out of this call", DiagnosticIDs::Note);
  noteContext(S, C, AllEvaluated && Split);
}

void WarpSyncMaskCheck::reportExtra(TuModel &, ASTContext &C) {
  // The TU's own target (what nvcc compiles it for), not the figures' Arch option.
  const std::string Arch = ::warplint::targetArch(C);
  unsigned Sm = 0;
  if (!StringRef(Arch).starts_with("sm_") ||
      StringRef(Arch).drop_front(3).take_while(llvm::isDigit).getAsInteger(10, Sm) || Sm < 70)
    return;
  // The toolkit's (and clang's) maskless warp intrinsics: declared in a system header.
  static const std::set<std::string> Legacy = {"__shfl",   "__shfl_up", "__shfl_down",
                                               "__shfl_xor", "__ballot", "__any",
                                               "__all"};
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    std::vector<const CallExpr *> Calls;
    explicit Finder(const SourceManager &SM) : SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCallExpr(CallExpr *E) {
      const FunctionDecl *FD = E->getDirectCallee();
      if (FD && FD->getIdentifier() && Legacy.count(FD->getName().str()) &&
          SM.isInSystemHeader(FD->getLocation()) && !SM.isInSystemHeader(E->getExprLoc()))
        Calls.push_back(E);
      return true;
    }
  } F(C.getSourceManager());
  F.TraverseDecl(C.getTranslationUnitDecl());
  // One root cause, one finding: the file's first call, the others as notes.
  const SourceManager &SM = C.getSourceManager();
  std::vector<std::pair<SourceLocation, std::string>> Places;
  std::set<SourceLocation> Seen;
  for (const CallExpr *E : F.Calls) {
    SourceLocation Loc = SM.getExpansionLoc(E->getExprLoc());
    if (Seen.insert(Loc).second)
      Places.emplace_back(Loc, E->getDirectCallee()->getName().str());
  }
  if (Places.empty())
    return;
  std::sort(Places.begin(), Places.end(), [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first, B.first);
  });
  const std::string &Name = Places.front().second;
  std::string More;
  if (Places.size() > 1)
    More = "; " + std::to_string(Places.size() - 1) + " more maskless " +
           (Places.size() == 2 ? "call" : "calls") + " in this file";
  diag(Places.front().first,
       "'%0' without a mask does not exist for %1: nvcc declares the maskless warp "
       "intrinsics below sm_70 only and refuses the call, and ptxas has no '%2' without "
       "'.sync' there%3",
       DiagnosticIDs::Error)
      << Name << Arch << (StringRef(Name).starts_with("__shfl") ? "shfl" : "vote") << More;
  diag(Places.front().first,
       "since independent thread scheduling the lanes that take part are named: "
       "'%0_sync(mask, ...)', the mask of the lanes that reach the call",
       DiagnosticIDs::Note)
      << Name;
  for (size_t I = 1; I < Places.size(); ++I)
    diag(Places[I].first, "'%0' without a mask here too", DiagnosticIDs::Note)
        << Places[I].second;
}

} // namespace clang::tidy::warplint
