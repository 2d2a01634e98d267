//===- OccupancyCheck.h - warplint-occupancy ---------------------*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

struct LaunchFigures;
struct LaunchModel;

/// Finds kernel launches of known shape whose theoretical occupancy is below a minimum,
/// naming the figure, the warps per SM, the limiting resource and the next step.
class OccupancyCheck final : public LaunchCheck {
public:
  OccupancyCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  /// AMD: a launch below its kernel's amdgpu_waves_per_eu minimum.
  void reportWavesPerEu(SourceLocation Loc, const LaunchModel &L, const LaunchFigures &E,
                        unsigned MinWaves);
  std::string MinOccupancyText; ///< percent, as written in the options
  double MinOccupancy;          ///< 0..1
};

/// The sentence that says what limits a launch and what would gain a block:
/// "72 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64
/// registers it keeps 4 (50%)". Empty when no single change of one resource gains.
std::string nextStepText(const LaunchFigures &E);

/// What limits a launch: "limited by registers"; with the registers unknown, what bounds
/// the figure without naming it the limiter: "registers unknown, shared memory allows no
/// more" (AMD: "VGPRs unknown, LDS allows no more").
std::string limiterVerdict(const LaunchFigures &E);


} // namespace clang::tidy::warplint
