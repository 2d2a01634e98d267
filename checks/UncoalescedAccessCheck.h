//===- UncoalescedAccessCheck.h - warplint-uncoalesced-access -------*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"

#include <optional>

namespace clang::tidy::warplint {

class UncoalescedAccessCheck final : public MemoryAccessCheck {
public:
  UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  Verdict judge(const AccessModel &A, size_t Worst, ASTContext &C) override;
  void report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
              const Group &G) override;
  std::string figureText(const WarpExecution &X, const AccessFigures &F) const override;
  std::optional<DiagnosticIDs::Level> MisalignmentLevel; ///< none: not reported
  std::string MisalignmentText;
};

} // namespace clang::tidy::warplint
