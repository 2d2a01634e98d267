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
};

} // namespace clang::tidy::warplint
