//===- BarrierDivergenceCheck.h - warplint-barrier-divergence -------*- C++ -*-===//
#pragma once

#include "checks/SyncCheck.h"
#include "checks/AnalysisNames.h"

namespace clang::tidy::warplint {

/// Finds barriers (`__syncthreads()`, `__syncthreads_count/_and/_or`, `__barrier_sync`, a
/// thread block's `sync()`, a grid's `sync()`) that part of the block, or of the grid, can
/// skip: under a condition that depends on the thread, after a thread-dependent `return`,
/// `break` or `continue`, or inside a loop whose trip count depends on the thread.
class BarrierDivergenceCheck final : public SyncCheck {
public:
  BarrierDivergenceCheck(StringRef Name, ClangTidyContext *Context)
      : SyncCheck(Name, Context) {}

private:
  std::string rootCause(const SyncModel &S, ASTContext &C) override;
  void report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
              const std::vector<SourceLocation> &More) override;
};

} // namespace clang::tidy::warplint
