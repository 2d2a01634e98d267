//===- Records.cpp - launch figures from core, and their plain records ----===//
#include "model/Records.h"

namespace warplint {

LaunchEvaluation evaluateLaunch(const GpuArch &Arch, const KernelResources &Res,
                                const std::optional<LaunchShape> &Shape, bool RegistersCounted) {
  LaunchEvaluation E;
  if (!Shape)
    return E;
  E.Result = computeOccupancy(Arch, Res, *Shape);
  if (!E.Result->canLaunch())
    return E;
  E.Ceiling = blockSizeCeiling(Arch, Res, *Shape);
  KernelResources Probe = Res;
  if (!RegistersCounted)
    Probe.RegistersPerThread = 1;
  E.Steps = nextSteps(Arch, Probe, *Shape);
  return E;
}

void setFigures(LaunchRecord &R, const GpuArch &Arch, const KernelResources &Res,
                const std::optional<LaunchShape> &Shape, const LaunchEvaluation &E,
                bool RegistersCounted) {
  R.Arch = Arch.Name;
  R.Resources = Res;
  R.Shape = Shape;
  if (!E.Result)
    return;
  const OccupancyResult &O = *E.Result;
  R.WarpsPerBlock = unsigned(O.WarpsPerBlock);
  R.MaxWarpsPerSm = unsigned(O.MaxWarpsPerSm);
  if (O.Failure) {
    R.LaunchError = O.Failure->Message;
    R.LaunchErrorKind = failureKindName(O.Failure->Kind);
    R.BlocksPerSm = 0;
    R.ActiveWarpsPerSm = 0;
    R.Occupancy = 0.0;
    return;
  }
  R.BlocksPerSm = unsigned(O.BlocksPerSm);
  R.ActiveWarpsPerSm = unsigned(O.ActiveWarpsPerSm);
  R.Occupancy = O.Occupancy;
  if (Arch.isAmd())
    R.WavesPerSimd = unsigned(O.WavesPerSimd);
  R.LimiterMask = O.Limiters;
  if (E.Ceiling && E.Ceiling->canLaunch()) {
    R.CeilingBlocksPerSm = unsigned(E.Ceiling->BlocksPerSm);
    R.CeilingOccupancy = E.Ceiling->Occupancy;
  }
  for (unsigned I = 0; I < NumResources; ++I)
    if (O.isLimitedBy(static_cast<Resource>(I)))
      R.Limiters.push_back(resourceName(static_cast<Resource>(I)));
  for (const NextStep &S : E.Steps) {
    if (S.What != Resource::Registers || RegistersCounted) {
      R.NextSteps.push_back(S);
      continue;
    }
    // Registers not counted: their entry is the budget, not a cliff of this kernel.
    R.RegisterBudget = S.HeadroomUpTo;
    R.RegisterBudgetLossBlocks = S.LossBlocksPerSm;
  }
}

} // namespace warplint
