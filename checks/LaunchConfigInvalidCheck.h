//===- LaunchConfigInvalidCheck.h - warplint-launch-config-invalid --*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <string>

namespace clang::tidy::warplint {

struct LaunchTarget;

/// Finds kernel launches that cannot run on the target architecture: block or grid
/// dimensions over their limits, more threads than a block or `__launch_bounds__` allows,
/// more shared memory than the block may have with or without the opt-in, or a thread
/// block cluster the architecture or the grid does not allow.
class LaunchConfigInvalidCheck final : public LaunchCheck {
public:
  LaunchConfigInvalidCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  /// Kernel-level facts that make every launch of the kernel fail.
  void checkKernel(const KernelInfo &K, const LaunchTarget &Lim);
  /// Registers x threads over the register file (with the compiler's registers).
  bool checkRegisters(const LaunchModel &L);
  /// Block and grid dimensions, threads per block, __launch_bounds__.
  bool checkShape(const LaunchModel &L, const LaunchTarget &Lim, bool Reported);
  /// Static + dynamic shared memory against the limits with and without the opt-in.
  void checkSharedMemory(const LaunchModel &L, const LaunchTarget &Lim);
  /// Thread block clusters: before sm_90, over 8 (16) blocks, a grid not a multiple.
  void checkCluster(const LaunchModel &L, const LaunchTarget &Lim);
  void instantiationNote(const LaunchModel &L);

};

} // namespace clang::tidy::warplint
