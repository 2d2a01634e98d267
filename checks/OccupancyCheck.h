//===- OccupancyCheck.h - warplint-occupancy ---------------------*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace warplint {
struct OccupancyResult;
} // namespace warplint

namespace clang::tidy::warplint {

/// Finds kernel launches of known shape whose theoretical occupancy is below a minimum,
/// naming the figure, the warps per SM, the limiting resource and the next step.
class OccupancyCheck final : public LaunchCheck {
public:
  OccupancyCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  /// One evaluation of a launch that can run: the finding when it is below the minimum,
  /// with its notes (the next step, the registers, the instantiation).
  /// True when it reported (a warning or a note of its own).
  bool checkLaunch(TuModel &M, const LaunchModel &L, const LaunchFigures &E,
                   const std::string &Missing);
  /// A minimum the block size itself cannot reach: a remark that names the ceiling.
  void reportOutOfReach(const LaunchModel &L, const LaunchFigures &E,
                        const ::warplint::OccupancyResult &Ceiling);
  /// Below the minimum (a remark for a grid of one block), with the fix-it where known.
  void reportBelowMinimum(TuModel &M, const LaunchModel &L, const LaunchFigures &E,
                          bool OneBlock);
  /// The registers as counted, or, unknown, how many keep the occupancy and why.
  void registerNotes(const LaunchModel &L, const LaunchFigures &E, const std::string &Missing);
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
