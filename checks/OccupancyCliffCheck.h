//===- OccupancyCliffCheck.h - warplint-occupancy-cliff ----------*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"
#include "warplint/core/Occupancy.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <cmath>

namespace clang::tidy::warplint {

/// Finds kernel launches just past an occupancy cliff, where a small reduction of registers
/// or shared memory would win a block per SM back (and, with `WarnBeforeCliff`, launches a
/// few registers or bytes from losing one).
class OccupancyCliffCheck final : public LaunchCheck {
public:
  OccupancyCliffCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  void reportRegisterCliff(TuModel &M, const LaunchModel &L, const LaunchFigures &E, const ::warplint::NextStep &S,
                           const std::string &Now, const std::string &Threads, bool Pinned);
  void reportRegisterBudget(SourceLocation Loc, const std::string &Name,
                            const LaunchFigures &E, const ::warplint::NextStep &S,
                            const std::string &Now, const std::string &Threads);
  void reportSharedCliff(SourceLocation Loc, const std::string &Name, const LaunchFigures &E,
                         const ::warplint::NextStep &S, const std::string &Now,
                         const std::string &Threads);
  /// AMD: VGPRs per lane, SGPRs per wave, LDS per workgroup; workgroups per CU, waves per
  /// SIMD, and HIP's __launch_bounds__(threads, waves per EU) as the lever.
  void reportAmdStep(SourceLocation Loc, const std::string &Name, const LaunchFigures &E,
                     const KernelInfo *K, const ::warplint::NextStep &S);

  /// The launch being reported (for the note on a launch through a function pointer).
  const LaunchSite *Site = nullptr;
  /// Whether a finding (not a note) was said since it was last cleared: the note naming
  /// the kernels with the same figures follows a launch's findings only.
  bool Said = false;
  DiagnosticBuilder diag(SourceLocation Loc, StringRef Description,
                         DiagnosticIDs::Level Level = DiagnosticIDs::Warning) {
    if (Level != DiagnosticIDs::Note)
      Said = true;
    return ClangTidyCheck::diag(Loc, Description, Level);
  }
  int64_t RegisterMargin = 2;       ///< registers per thread
  int64_t SharedMemoryMargin = 512; ///< bytes per block
  int64_t MinRegisterBudget = 0;    ///< registers per thread, when the count is unknown (0: off)
  /// Also warn before a cliff (N registers or bytes from losing a block), not only past.
  bool WarnBeforeCliff = false;
  /// The least occupancy a cliff must gain (past it) or lose (before it) to be reported,
  /// as written (percentage points) and as a fraction.
  std::string MinOccupancyChangeText = "5";
  double MinOccupancyChange = 0.05;
  /// Whether a step from Now to Then (occupancies) is big enough to report.
  bool worthIt(double Now, double Then) const {
    return std::abs(Then - Now) + 1e-9 >= MinOccupancyChange;
  }
};

} // namespace clang::tidy::warplint
