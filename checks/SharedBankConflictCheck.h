//===- SharedBankConflictCheck.h - warplint-shared-bank-conflict ----*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"

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
};

} // namespace clang::tidy::warplint
