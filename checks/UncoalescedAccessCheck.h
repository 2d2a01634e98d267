//===- UncoalescedAccessCheck.h - warplint-uncoalesced-access -------*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"
#include "checks/AnalysisNames.h"

#include <optional>

namespace clang::tidy::warplint {

/// Finds global loads and stores whose warps touch more 32-byte sectors than the bytes they
/// move need, evaluated lane by lane for every warp of the kernel's block shapes.
class UncoalescedAccessCheck final : public MemoryAccessCheck {
public:
  UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  Verdict judge(const AccessModel &A, size_t Worst, ASTContext &C) override;
  void report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
              const Group &G) override;
  std::string figureText(const WarpExecution &X, const AccessFigures &F) const override;
  /// A finding whose places run fewer times per thread than the kernel's most repeated
  /// global access and make under MinTrafficShare of the kernel's global accesses per
  /// thread (loops counted by their trip counts): a note that says the share.
  std::string groupDemotion(const std::vector<const AccessModel *> &Places,
                            const FunctionDecl *Kernel, ASTContext &C) override;
  /// The pieces of each lane's 8- or 16-byte chunk: the vector access that serves them.
  std::string groupAdvice(const std::vector<const AccessModel *> &Places) override;
  std::string MinTrafficShareText; ///< MinTrafficShare as the option gave it (a percentage)
  double MinTrafficShare;          ///< the same as a fraction; 0: off
  FindingSeverity Misalignment; ///< MisalignmentSeverity
  std::optional<DiagnosticIDs::Level> MisalignmentLevel; ///< nullopt: not reported
};

} // namespace clang::tidy::warplint
