//===- SharedBankConflictCheck.h - warplint-shared-bank-conflict ----*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"

namespace clang::tidy::warplint {

class SharedBankConflictCheck final : public MemoryAccessCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);

private:
  bool report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
              TuModel &M) override;
};

} // namespace clang::tidy::warplint
