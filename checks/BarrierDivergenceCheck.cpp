//===- BarrierDivergenceCheck.cpp - warplint-barrier-divergence ------------===//
#include "checks/BarrierDivergenceCheck.h"
#include "checks/AnalysisNames.h"

namespace clang::tidy::warplint {

std::string BarrierDivergenceCheck::rootCause(const SyncModel &S, ASTContext &C) {
  if (S.Class.Kind != SyncKind::BlockBarrier && S.Class.Kind != SyncKind::GridBarrier)
    return "";
  if (S.Causes.empty())
    return "";
  // Evaluated (or sampled whole) for every shape and no shape splits: every thread
  // reaches it.
  Shapes Sh = shapesOf(S);
  if (Sh.AllWhole && !Sh.Split)
    return "";
  // One finding per cause: the barriers after one bounds return, or inside one `if`.
  const SourceManager &SM = C.getSourceManager();
  SourceLocation Cause = causeLoc(S.Causes.front(), SM);
  return S.Kernel->Name + "\n" + Cause.printToString(SM) + "\n" +
         (Sh.AllEvaluated ? "evaluated" : "run-time");
}

void BarrierDivergenceCheck::report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
                                    const std::vector<SourceLocation> &More) {
  const SourceManager &SM = C.getSourceManager();
  bool Grid = S.Class.Kind == SyncKind::GridBarrier;
  const char *Scope = Grid ? "grid" : "block";
  [[maybe_unused]] auto [AllEvaluated, AllWhole, Split, RowsOnly] = shapesOf(S);
  const SyncCause &First = S.Causes.front();
  if (AllEvaluated && Split) {
    // Certain for a launch of this shape; an assumed block is a warning when every other
    // block splits it too, else a note.
    std::string Demotion;
    DiagnosticIDs::Level Level = splitLevel(S, Demotion);
    if (S.LaunchWhole) {
      Level = DiagnosticIDs::Remark;
      Demotion = launchDemotion(S, "every thread");
    }
    size_t Skip = 0;
    for (bool R : Split->Reaches)
      Skip += !R;
    diag(Loc,
         "%0 in kernel '%1' is skipped by %2 of %3 threads of the block %4%5%6: %7; "
         "a barrier that part of the %8 does not reach is undefined behaviour",
         Level)
        << callName(S) << S.Kernel->Name << unsigned(Skip) << unsigned(Split->Reaches.size())
        << Split->Shape.str() << (S.AssumedShape ? " (assumed)" : "")
        << (Split->Values.empty() ? "" : " when " + Split->Values)
        << threadRanges(Split->Reaches, false) << Scope;
    recordSplit(S, *Split, Loc, Level, Demotion, causeText(First, S, C), causeLoc(First, SM));
  } else {
    std::string Demotion =
        S.LaunchWhole ? launchDemotion(S, "every thread") : assumedSampledDemotion(S);
    bool Note = !Demotion.empty();
    Tu->reportSync(S, nullptr, std::string(getID()), Note ? "note" : "warning",
                   causeText(First, S, C), causeLoc(First, SM));
    diag(Loc, "%0 in kernel '%1' may be skipped by part of the %2: %3%4",
         Note ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
        << callName(S) << S.Kernel->Name << Scope << causeText(First, S, C)
        << (First.BoundsExit && !Note ? "; guard the work, not the barrier" : "");
    if (Note)
      diag(Loc, "a note, not a warning: %0", DiagnosticIDs::Note) << Demotion;
  }
  for (const SyncCause &Cause : S.Causes)
    if (SourceLocation L = causeLoc(Cause, SM); L.isValid())
      diag(L, "%0", DiagnosticIDs::Note) << causeText(Cause, S, C);
  // The other launch shapes, each with its threads.
  if (AllEvaluated)
    for (const auto &[R, L] : S.PerShape)
      if (&R != Split && L.isValid()) {
        if (R.splits())
          diag(L, "with the block %0 of this launch %1 skip it%2", DiagnosticIDs::Note)
              << R.Shape.str() << threadRanges(R.Reaches, false)
              << (R.Values.empty() ? "" : " when " + R.Values);
        else
          diag(L, "with the block %0 of this launch every thread reaches it",
               DiagnosticIDs::Note)
              << R.Shape.str();
      }
  for (SourceLocation M : More)
    diag(M, "the same cause keeps threads from this barrier", DiagnosticIDs::Note);
  noteContext(S, C, AllEvaluated && Split);
}

} // namespace clang::tidy::warplint
