//===- Records.cpp - launch figures from core, and their plain records ----===//
#include "model/Records.h"

#include <algorithm>
#include <cmath>

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

unsigned shareRank(double Share) {
  if (!(Share > 0))
    return 0;
  return unsigned(std::lround(std::min(Share, 1.0) * 100.0));
}

namespace {

Impact warpSlots(int64_t Slots, const LaunchRecord &R, const char *Unit) {
  Impact I;
  I.Value = double(std::max<int64_t>(Slots, 0));
  I.Unit = Unit;
  if (R.WavesPerSimd) { // AMD: the same figure in wavefronts per CU
    std::string U = Unit;
    U.replace(U.find("warp slots per SM"), 17, "wavefront slots per CU");
    I.Unit = U;
  }
  I.Rank = R.MaxWarpsPerSm ? shareRank(I.Value / double(*R.MaxWarpsPerSm)) : 0;
  return I;
}

const NextStep *stepOf(const LaunchRecord &R, Resource What) {
  for (const NextStep &S : R.NextSteps)
    if (S.What == What)
      return &S;
  return nullptr;
}

} // namespace

std::optional<Impact> occupancyImpact(const LaunchRecord &R) {
  if (!R.BlocksPerSm || !R.WarpsPerBlock || R.LaunchError)
    return std::nullopt;
  // The step the check advises: registers (when counted), else shared memory, else the
  // block size, of the resources that limit the launch.
  const NextStep *S = nullptr;
  for (Resource What : {Resource::Registers, Resource::SharedMemory, Resource::Warps})
    if ((R.LimiterMask & limiterBit(What)) && (What != Resource::Registers || R.Registers)) {
      S = stepOf(R, What);
      break;
    }
  int64_t Gain = 0;
  if (S && S->GainAt) {
    // A block-size step changes the warps per block: slots are counted as blocks x warps.
    int64_t Warps = S->What == Resource::Warps && R.WaveSize
                        ? (*S->GainAt + R.WaveSize - 1) / R.WaveSize
                        : *R.WarpsPerBlock;
    Gain = int64_t(S->GainBlocksPerSm) * Warps - int64_t(*R.ActiveWarpsPerSm);
  }
  return warpSlots(Gain, R, "warp slots per SM gained by the next step");
}

std::optional<Impact> cliffImpact(const LaunchRecord &R) {
  if (!R.BlocksPerSm || !R.WarpsPerBlock || R.LaunchError)
    return std::nullopt;
  int64_t Most = 0;
  for (const NextStep &S : R.NextSteps) {
    if (S.What != Resource::Registers && S.What != Resource::SharedMemory)
      continue;
    if (S.GainAt)
      Most = std::max<int64_t>(Most, int64_t(S.GainBlocksPerSm - int(*R.BlocksPerSm)) *
                                         *R.WarpsPerBlock);
    if (S.LossBlocksPerSm && *S.LossBlocksPerSm > 0)
      Most = std::max<int64_t>(Most, int64_t(int(*R.BlocksPerSm) - *S.LossBlocksPerSm) *
                                         *R.WarpsPerBlock);
  }
  return warpSlots(Most, R, "warp slots per SM at stake at the cliff");
}

std::optional<Impact> partialWaveImpact(const LaunchRecord &R) {
  if (!R.Waves)
    return std::nullopt;
  Impact I;
  I.Value = 1.0 - R.Waves->LastWaveFullness;
  I.Unit = "idle share of the last wave";
  I.Rank = shareRank(1.0 - R.Waves->Efficiency);
  return I;
}

std::optional<Impact> blockLanesImpact(const LaunchRecord &R) {
  if (!R.Block || !R.WaveSize)
    return std::nullopt;
  uint64_t Threads = (*R.Block)[0] * (*R.Block)[1] * (*R.Block)[2];
  uint64_t Lanes = (Threads + R.WaveSize - 1) / R.WaveSize * R.WaveSize;
  if (!Lanes)
    return std::nullopt;
  Impact I;
  I.Value = double(Lanes - Threads) / double(Lanes);
  I.Unit = "share of the block's warp lanes without a thread";
  I.Rank = shareRank(I.Value);
  return I;
}

std::optional<Impact> launchErrorImpact(const LaunchRecord &R) {
  if (!R.LaunchError)
    return std::nullopt;
  Impact I;
  I.Value = 1;
  I.Unit = "launch fails";
  I.Rank = 100;
  return I;
}

const std::vector<CheckImpact> &checkImpacts() {
  static const std::vector<CheckImpact> Table = {
      {"warplint-occupancy", occupancyImpact},
      {"warplint-occupancy-cliff", cliffImpact},
      {"warplint-partial-wave", partialWaveImpact},
      {"warplint-block-size-warp-multiple", blockLanesImpact},
      {"warplint-launch-config-invalid", launchErrorImpact},
      {"warplint-register-spill", nullptr, "spillImpact"},
      {"warplint-uncoalesced-access", nullptr, "accessImpact"},
      {"warplint-shared-bank-conflict", nullptr, "accessImpact"},
      {"warplint-divergent-branch", nullptr, "divergenceImpact"},
      {"warplint-barrier-divergence", nullptr, "syncImpact"},
      {"warplint-warp-sync-mask", nullptr, "syncImpact"},
      {"warplint-data-race", nullptr, "raceImpact"},
  };
  return Table;
}

Impact spillImpact(uint64_t StoreBytes, uint64_t LoadBytes, unsigned Registers) {
  Impact I;
  I.Value = double(StoreBytes + LoadBytes);
  I.Unit = "bytes of spill stores and loads per thread";
  double Words = double(StoreBytes) / 4.0;
  I.Rank = Words > 0 ? shareRank(Words / (double(Registers) + Words)) : 0;
  return I;
}

std::optional<Impact> accessImpact(const AccessRecord &A) {
  Impact I;
  if (A.Sectors && A.IdealSectors && *A.Sectors) {
    I.Value = double(*A.Sectors) - double(*A.IdealSectors);
    I.Unit = "sectors per request over the ideal";
    I.Rank = shareRank(1.0 - double(*A.IdealSectors) / double(*A.Sectors));
    return I;
  }
  if (A.Wavefronts && A.IdealWavefronts && *A.Wavefronts) {
    I.Value = double(*A.Wavefronts) - double(*A.IdealWavefronts);
    I.Unit = "wavefronts per request over the ideal";
    I.Rank = shareRank(1.0 - double(*A.IdealWavefronts) / double(*A.Wavefronts));
    return I;
  }
  return std::nullopt;
}

Impact divergenceImpact(double SplitShare) {
  Impact I;
  I.Value = std::clamp(SplitShare, 0.0, 1.0);
  I.Unit = "share of warps that split at the branch";
  I.Rank = shareRank(I.Value / 2.0);
  return I;
}

unsigned correctnessRank(const std::string &Certainty, const std::string &Severity,
                         bool Benign) {
  if (Benign)
    return 10;
  if (Severity == "note")
    return 25;
  if (Certainty == "assumed-shape")
    return 95;
  if (Certainty == "depends-on-value")
    return 90;
  return 100;
}

std::optional<Impact> syncImpact(const SyncRecord &S) {
  bool Barrier = S.Check == "warplint-barrier-divergence";
  if (!Barrier && S.Check != "warplint-warp-sync-mask")
    return std::nullopt;
  // How sure: an evaluated error is for a launch's block; an evaluated warning for an
  // assumed block that every alternative block splits too; no evaluation: run-time
  // values decide who reaches the call.
  std::string Certainty = !S.Evaluated             ? "depends-on-value"
                          : S.Severity == "error" ? "certain"
                                                  : "assumed-shape";
  uint64_t Threads = uint64_t(S.Block[0]) * S.Block[1] * S.Block[2];
  uint64_t Involved = 0;
  if (S.Evaluated) {
    for (const auto &R : S.SkippingThreads)
      Involved += R[1] - R[0] + 1;
    for (const auto &W : S.AbsentLanes)
      for (uint32_t Bits = W[1]; Bits; Bits &= Bits - 1)
        ++Involved;
  }
  Impact I;
  I.Value = Threads ? double(Involved) / double(Threads) : 0;
  I.Unit = Barrier ? "share of the block's threads that skip the barrier (undefined behaviour)"
                   : "share of the block's threads named by the mask that do not take part "
                     "(undefined behaviour)";
  // Not evaluated: the 0 is no share of threads but the lack of one.
  if (!S.Evaluated)
    I.Unit += ": not known, run-time values decide which";
  I.Rank = correctnessRank(Certainty, S.Severity);
  return I;
}

std::string raceSkipText(const RaceSkipRecord &S) {
  bool Many = S.BlockCount > 1;
  std::string Out = (Many ? "blocks " : "block ") + S.Blocks;
  if (S.GridBlocks)
    Out += " of " + std::to_string(S.GridBlocks);
  else
    Out += " of a sampled grid of 2";
  Out += (Many ? " skip the " : " skips the ") + S.Barrier + " on line " + std::to_string(S.Line) +
         " (" + S.Condition;
  if (!S.Values.empty())
    Out += ", " + S.Values;
  return Out + ")";
}

Impact raceImpact(const RaceRecord &R) {
  Impact I;
  I.Value = 1 + R.MorePairs;
  I.Unit = R.ClampWriteBack ? "pairs of accesses that race, a clamp written back"
           : R.Benign        ? "pairs of accesses that race, writing the same value"
                    : "pairs of accesses that race (undefined behaviour)";
  I.Rank = correctnessRank(R.Certainty, R.Severity, R.Benign);
  return I;
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

KernelBranchEfficiency
predictedKernelBranchEfficiency(const std::vector<BranchRecord> &Branches,
                                const std::optional<std::array<uint64_t, 3>> &Block) {
  KernelBranchEfficiency K;
  double Weighted = 0;
  for (const BranchRecord &B : Branches) {
    // The shape of this block, else the one its finding quotes.
    const BranchShapeRecord *S = nullptr;
    for (const BranchShapeRecord &X : B.Shapes)
      if (Block && X.Block[0] == (*Block)[0] && X.Block[1] == (*Block)[1] &&
          X.Block[2] == (*Block)[2])
        S = &X;
    if (!S && B.Worst && *B.Worst < B.Shapes.size())
      S = &B.Shapes[*B.Worst];
    if (!S && !B.Shapes.empty())
      S = &B.Shapes.front();
    if (!S || !S->Evaluated || S->Warps == 0) {
      ++K.Unevaluated;
      continue;
    }
    ++K.Branches;
    K.Warps += S->Warps;
    K.DivergentWarps += S->DivergentWarps;
    Weighted += double(S->Warps) * S->WorstEfficiency;
  }
  if (K.Warps)
    K.Efficiency = Weighted / double(K.Warps);
  return K;
}

} // namespace warplint
