//===- PartialWaveCheck.h - warplint-partial-wave ----------------*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

/// Finds launches of a known grid whose last wave fills less than a threshold of the
/// named GPU's block slots, or that leave SMs idle, naming the waves and the grid that
/// fills them.
class PartialWaveCheck final : public LaunchCheck {
public:
  PartialWaveCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  void reportAmd(SourceLocation Loc, const LaunchModel &L, const LaunchFigures &E,
                 bool IdleUnits);
  std::string GpuText;           ///< the Gpu option as written
  std::string MinLastWaveText;   ///< percent, as written
  double MinLastWave = 0.5;      ///< 0..1
  unsigned MaxWaves = 4;         ///< grids of more waves are not reported
};

} // namespace clang::tidy::warplint
