//===- WarpSyncMaskCheck.h - warplint-warp-sync-mask ----------------*- C++ -*-===//
#pragma once

#include "checks/SyncCheck.h"
#include "checks/AnalysisNames.h"

namespace clang::tidy::warplint {

/// Finds warp-synchronous calls (`__shfl*_sync`, `__ballot_sync`, `__any/__all/__uni_sync`,
/// `__match_*_sync`, `__reduce_*_sync`, `__syncwarp(mask)`, the collectives of a
/// `tiled_partition` tile) whose constant mask names lanes, or whose tile holds threads, that
/// do not take part: lanes a thread-dependent condition or early exit keeps from the call,
/// or (for a shuffle) lanes past the end of a partial warp that a calling lane reads. It
/// also finds lanes that call with a constant mask that leaves them out.
class WarpSyncMaskCheck final : public SyncCheck {
public:
  WarpSyncMaskCheck(StringRef Name, ClangTidyContext *Context) : SyncCheck(Name, Context) {}

private:
  std::string rootCause(const SyncModel &S, ASTContext &C) override;
  void report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
              const std::vector<SourceLocation> &More) override;
  /// The call's run-time finding stands only for rows narrower than a warp, which the
  /// kernel's code does not lay (Shapes::RowsOnly, NarrowRows): a note.
  bool rowsOnly(const SyncModel &S, const Shapes &Sh) const;
  /// The run-time values that decide the call's finding, quoted, where each block shape
  /// tried splits it only for some sampled values of a group size
  /// (ReachFigures::DecidedBy): a note. Empty otherwise.
  static std::string decidedBy(const SyncModel &S);
  /// The warp intrinsics without a mask (`__shfl`, `__shfl_xor`, `__ballot`, `__any`, ...)
  /// called for sm_70 or later, where they no longer exist: nvcc refuses them, and ptxas
  /// has no `shfl` or `vote` without `.sync` there (cuTT's GPU model kernels).
  void reportExtra(TuModel &M, ASTContext &C) override;
};

} // namespace clang::tidy::warplint
