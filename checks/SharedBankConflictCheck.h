//===- SharedBankConflictCheck.h - warplint-shared-bank-conflict ----*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"
#include "checks/AnalysisNames.h"

namespace clang::tidy::warplint {

/// Finds shared-memory loads and stores whose lanes hit the same bank at different words,
/// so that a warp needs more wavefronts than the bytes it moves, evaluated lane by lane for
/// every warp of the kernel's block shapes.
class SharedBankConflictCheck final : public MemoryAccessCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);

private:
  Verdict judge(const AccessModel &A, size_t Worst, ASTContext &C) override;
  void report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
              const Group &G) override;
  std::string figureText(const WarpExecution &X, const AccessFigures &F) const override;

  /// The fix-it that pads the innermost row of A's array by one element, when the model
  /// shows the padded layout conflict-free for every access of the array in every
  /// instantiation of its kernel, at every block shape of their launches, and the added
  /// bytes cost no block per SM; none otherwise (Why says why, for a note, when the
  /// array could be padded in principle).
  std::optional<FixItHint> paddingFix(const AccessModel &A, ASTContext &C, std::string &Why);
  /// Arrays (by declaration place) whose fix-it was decided: at their first finding.
  std::set<SourceLocation> FixOffered;
};

} // namespace clang::tidy::warplint
