//===- SyncCheck.h - what the two synchronisation checks share -*- C++ -*-===//
#pragma once

#include "checks/KernelModelCheck.h"
#include "checks/AnalysisNames.h"

#include "clang/Basic/DiagnosticIDs.h"

#include <set>
#include <vector>
#include <string>

namespace clang::tidy::warplint {

/// What warplint-barrier-divergence and warplint-warp-sync-mask share beyond
/// KernelModelCheck: at the TU's end, the model's sync calls (TuModel::syncCalls), each
/// source place reported once.
class SyncCheck : public KernelModelCheck {
protected:
  using KernelModelCheck::KernelModelCheck;
  void reportTu(TuModel &M, ASTContext &C) override;
  /// Whether the check reports this call, and the key of its root cause (calls with the
  /// same key are one finding); empty: not the check's.
  virtual std::string rootCause(const SyncModel &S, ASTContext &C) = 0;
  /// Reports one finding: its first call S, written at Loc, and the other calls of the
  /// same root cause (More, where they are written).
  virtual void report(const SyncModel &S, SourceLocation Loc, ASTContext &C,
                      const std::vector<SourceLocation> &More) = 0;
  /// What a check reports of the TU beyond the model's sync calls (after them).
  virtual void reportExtra(TuModel &, ASTContext &) {}

  /// The call as a message names it: "'__syncthreads()'", "'grid_group::sync()'".
  static std::string callName(const SyncModel &S);
  /// How one cause keeps threads away: "it is inside 'if (threadIdx.x < 16)', which
  /// depends on the thread", "threads for which 'i >= n' holds leave at the 'return' on
  /// line 5 before it".
  static std::string causeText(const SyncCause &C, const SyncModel &S, ASTContext &Ctx);
  /// Where a cause is written.
  static SourceLocation causeLoc(const SyncCause &C, const SourceManager &SM);
  /// The notes every finding ends with: the helper calls that lead to the call, and, when
  /// the finding quotes an evaluation (ShapeUsed), the assumed block (once per kernel).
  void noteContext(const SyncModel &S, ASTContext &Ctx, bool ShapeUsed);
  /// Why an evaluated split of an assumed block is a note: the first alternative block
  /// where it does not split, or "" when every one splits too.
  static std::string assumedDemotion(const SyncModel &S);
  /// Why a split that run-time values decide under an assumed block is a note: the first
  /// alternative block at least a warp wide in x where every sampled environment (block
  /// indices 0 and 1, the sampled parameters) brings every thread, or "" when none does
  /// (issue 23: a finding of the assumption alone; cuSZp's `if (warp > 0)` around a
  /// barrier, warp a global warp index, whole in a 32-thread block).
  static std::string assumedSampledDemotion(const SyncModel &S);
  /// S.LaunchWhole: why the finding is a note ("at each of the 2 launches in this file,
  /// ..."); What is who is brought to the call ("every thread", "every named lane").
  static std::string launchDemotion(const SyncModel &S, const char *What);

  /// What a call's evaluations for its block shapes say together.
  struct Shapes {
    bool AllEvaluated = true; ///< every shape evaluated for every thread
    /// Every shape reaches the call whole: evaluated, or (a launch's block only: an
    /// assumed one may lack the dimension, a run-time y, that splits the block) sampled
    /// whole.
    bool AllWhole = true;
    const ReachFigures *Split = nullptr; ///< the first shape that splits the call
    /// Not AllWhole only for the rows: under an assumed block, every block at least a warp
    /// wide in x reaches the call whole (sampled), and a condition on the way reads the
    /// rows, which a block narrower than a warp in x would put into one warp.
    bool RowsOnly = false;
  };
  static Shapes shapesOf(const SyncModel &S);
  /// The kernels whose code lays rows narrower than a warp: a shuffle of a constant width
  /// under 32, a tile of fewer than 32 threads, or shuffles across lanes that never reach
  /// 16 lanes away (reportTu fills it for the TU).
  std::set<const KernelInfo *> NarrowRows;

  /// The level of an evaluated split: an error for a launch's block; for an assumed one a
  /// warning, or a note when another block does not split it (Demotion then says why).
  static DiagnosticIDs::Level splitLevel(const SyncModel &S, std::string &Demotion);
  /// After an evaluated split's finding at Loc: the note of its Demotion, if any, and its
  /// record (the split quoted, the cause the finding names and where it is).
  void recordSplit(const SyncModel &S, const ReachFigures &Split, SourceLocation Loc,
                   DiagnosticIDs::Level Level, const std::string &Demotion, std::string Cause,
                   SourceLocation CauseLoc);

};

} // namespace clang::tidy::warplint
