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
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  Verdict judge(const AccessModel &A, size_t Worst, ASTContext &C) override;
  void report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
              const Group &G) override;
  std::string figureText(const WarpExecution &X, const AccessFigures &F) const override;
  /// A finding whose places run fewer times per thread than the kernel's most repeated
  /// shared-memory access and make under MinTrafficShare of the kernel's shared-memory
  /// accesses per thread (a one-time fill or write-out beside the main loop): a note that
  /// says the share (checks/TrafficShare.h, as warplint-uncoalesced-access does for global
  /// memory).
  std::string groupDemotion(const std::vector<const AccessModel *> &Places,
                            const FunctionDecl *Kernel, ASTContext &C) override;
  std::string MinTrafficShareText; ///< MinTrafficShare as the option gave it (a percentage)
  double MinTrafficShare;          ///< the same as a fraction; 0: off

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
