//===- BlockSizeWarpMultipleCheck.h - warplint-block-size-warp-multiple -*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

/// Finds kernel launches whose block, known at compile time, is not a whole number of
/// warps: the idle lanes of the last warp still hold a warp's registers and issue slots.
class BlockSizeWarpMultipleCheck final : public LaunchCheck {
public:
  BlockSizeWarpMultipleCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  const bool IgnoreSingleThreadBlocks;
  /// Below this share of the issued lanes idle (16 of 416 for dim3(16, 25)), the block is
  /// said as a note: a shape that follows the problem's, for a loss under the
  /// occupancy-cliff check's own MinOccupancyChange of 5 points.
  std::string MinIdleShareText = "5";
  double MinIdleShare = 0.05;
};

} // namespace clang::tidy::warplint
