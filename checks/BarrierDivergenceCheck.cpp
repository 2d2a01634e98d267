//===- BarrierDivergenceCheck.cpp - warplint-barrier-divergence ------------===//
#include "checks/BarrierDivergenceCheck.h"
#include "checks/AnalysisNames.h"

namespace clang::tidy::warplint {

std::string BarrierDivergenceCheck::rootCause(const SyncModel &S, ASTContext &C) {
  if (S.Class.Kind != SyncKind::BlockBarrier && S.Class.Kind != SyncKind::GridBarrier)
    return "";
  if (S.Causes.empty())
    return "";
  // Evaluated for every shape and no shape splits: every thread reaches it.
  bool AllEvaluated = true, Splits = false, AllWhole = true;
  for (const auto &[R, Loc] : S.PerShape) {
    AllEvaluated &= R.Evaluated;
    // Sampled values count only for a launch's block: an assumed one may lack the
    // dimension (a run-time y) that splits the block.
    AllWhole &= R.Evaluated || (R.SampledWhole && Loc.isValid());
    Splits |= R.splits();
  }
  if (AllWhole && !Splits)
    return "";
  // One finding per cause: the barriers after one bounds return, or inside one `if`.
  const SourceManager &SM = C.getSourceManager();
  SourceLocation Cause = causeLoc(S.Causes.front(), SM);
  return S.Kernel->Name + "\n" + Cause.printToString(SM) + "\n" +
         (AllEvaluated ? "evaluated" : "run-time");
}

void BarrierDivergenceCheck::report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
                                    const std::vector<SourceLocation> &More) {
  const SourceManager &SM = C.getSourceManager();
  bool Grid = S.Class.Kind == SyncKind::GridBarrier;
  const char *Scope = Grid ? "grid" : "block";
  const ReachFigures *Split = nullptr;
  bool AllEvaluated = true;
  for (const auto &[R, L] : S.PerShape) {
    AllEvaluated &= R.Evaluated;
    if (!Split && R.splits())
      Split = &R;
  }
  const SyncCause &First = S.Causes.front();
  if (AllEvaluated && Split) {
    // Certain for a launch of this shape; an assumed block is a warning when every other
    // block splits it too, else a note.
    std::string Demotion = S.AssumedShape ? assumedDemotion(S) : "";
    DiagnosticIDs::Level Level = !S.AssumedShape     ? DiagnosticIDs::Error
                                 : Demotion.empty() ? DiagnosticIDs::Warning
                                                    : DiagnosticIDs::Note;
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
    if (!Demotion.empty())
      diag(Loc, "a note, not a warning: %0", DiagnosticIDs::Note) << Demotion;
    Tu->reportSync(S, Split, std::string(getID()),
                   Level == DiagnosticIDs::Error     ? "error"
                   : Level == DiagnosticIDs::Warning ? "warning"
                                                     : "note",
                   causeText(First, S, C), causeLoc(First, SM));
  } else {
    Tu->reportSync(S, nullptr, std::string(getID()), "warning", causeText(First, S, C),
                   causeLoc(First, SM));
    diag(Loc, "%0 in kernel '%1' may be skipped by part of the %2: %3%4")
        << callName(S) << S.Kernel->Name << Scope << causeText(First, S, C)
        << (First.BoundsExit ? "; guard the work, not the barrier" : "");
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
