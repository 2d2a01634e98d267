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
  FindingSeverity Misalignment; ///< MisalignmentSeverity
  std::optional<DiagnosticIDs::Level> MisalignmentLevel; ///< nullopt: not reported
};

} // namespace clang::tidy::warplint
