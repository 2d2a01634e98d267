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

namespace warplint {

std::string VerifiedAdvice::bound() const {
  if (MaxRegisters && Amd)
    return "__attribute__((amdgpu_num_vgpr(" + std::to_string(MaxRegisters) + ")))";
  if (MaxRegisters)
    return "__maxnreg__(" + std::to_string(MaxRegisters) + ")";
  return "__launch_bounds__(" + std::to_string(Threads) + ", " + std::to_string(MinBlocks) + ")";
}

namespace {

/// The AMD wording: VGPRs, SGPRs and scratch (no local memory), workgroups per CU and
/// core's waves per SIMD.
std::string verifiedAmdText(const VerifiedAdvice &V, const std::string &With) {
  std::string Gives = With + " " + V.Compiler + " gives " + std::to_string(*V.Registers) +
                      " VGPRs and " + std::to_string(V.Sgprs) + " SGPRs";
  std::string Figures;
  if (V.BlocksPerSm && V.Occupancy)
    Figures = std::to_string(*V.BlocksPerSm) +
              (*V.BlocksPerSm == 1 ? " workgroup/CU, " : " workgroups/CU, ") +
              percentText(*V.Occupancy) +
              (V.WavesPerSimd ? ", " + std::to_string(*V.WavesPerSimd) + " waves per SIMD"
                              : std::string());
  std::string Spills = std::to_string(V.VgprSpills) + " VGPR and " +
                       std::to_string(V.SgprSpills) + " SGPR spills, " +
                       std::to_string(V.ScratchBytes) + " bytes of scratch per lane";
  if (*V.Registers > V.AskedRegisters)
    return Gives + " with " + Spills + ": it did not reach " + std::to_string(V.AskedRegisters) +
           " VGPRs" + (Figures.empty() ? "" : ", still " + Figures) +
           "; the advice does not hold for this kernel";
  if (!V.spills())
    return Gives + " with no spills (" + std::to_string(V.ScratchBytes) +
           " bytes of scratch per lane)" + (Figures.empty() ? "" : ": " + Figures) +
           " (verified)";
  return Gives + " with " + Spills +
         (V.Occupancy ? ": occupancy rises to " + percentText(*V.Occupancy) +
                            (V.WavesPerSimd ? " (" + std::to_string(*V.WavesPerSimd) +
                                                  " waves per SIMD)"
                                            : std::string())
                      : std::string()) +
         " but every lane now stores " + std::to_string(V.VgprSpills) +
         " spilled VGPRs to scratch memory; measure before keeping it";
}

} // namespace

std::string verifiedAdviceText(const VerifiedAdvice &V, bool Amd) {
  std::string With = "with " + V.bound() + (V.CapReason.empty() ? "" : " (" + V.CapReason + ")");
  if (!V.Error.empty() || !V.Registers)
    return "the what-if compile " + With + " gave no figures: " +
           (V.Error.empty() ? std::string("the kernel is not in its report") : V.Error);
  if (Amd)
    return verifiedAmdText(V, With);
  const char *Unit = " registers";
  std::string Gives = With + " " + V.Compiler + " gives " + std::to_string(*V.Registers) + Unit;
  std::string Blocks;
  if (V.BlocksPerSm && V.Occupancy)
    Blocks = std::to_string(*V.BlocksPerSm) +
             (Amd ? (*V.BlocksPerSm == 1 ? " workgroup/CU" : " workgroups/CU")
                  : (*V.BlocksPerSm == 1 ? " block/SM" : " blocks/SM"));
  if (*V.Registers > V.AskedRegisters)
    return Gives + " and " + std::to_string(V.SpillStoreBytes) +
           " bytes of spill stores: it did not reach " + std::to_string(V.AskedRegisters) +
           (Blocks.empty() ? "" : ", still " + Blocks + " (" + percentText(*V.Occupancy) + ")") +
           "; the advice does not hold for this kernel";
  if (!V.spills())
    return Gives + " and 0 bytes of spill" +
           (Blocks.empty() ? "" : ": " + Blocks + ", " + percentText(*V.Occupancy)) +
           " (verified)";
  return Gives + " and " + std::to_string(V.SpillStoreBytes) + " bytes of spill stores" +
         (V.Occupancy ? ": occupancy rises to " + percentText(*V.Occupancy) : std::string()) +
         " but every thread now stores " + std::to_string(V.SpillStoreBytes) +
         " bytes to local memory (and loads " + std::to_string(V.SpillLoadBytes) +
         "); measure before keeping it";
}

} // namespace warplint
