//===- WhatIf.cpp - occupancy cliffs, sweeps, best block size and waves ---===//
#include "warplint/core/Occupancy.h"

#include <algorithm>

namespace warplint {
namespace {

int64_t roundUp(int64_t X, int64_t Y) { return (X + Y - 1) / Y * Y; }

/// Evaluates occupancy with the total shared bytes per block set to V: dynamic shared
/// memory shrinks first, then static.
OccupancyResult withSharedTotal(const GpuArch &A, KernelResources K, LaunchShape S, int64_t V) {
  uint64_t U = static_cast<uint64_t>(V);
  if (U >= K.StaticSharedBytes) {
    S.DynamicSharedBytes = U - K.StaticSharedBytes;
  } else {
    K.StaticSharedBytes = U;
    S.DynamicSharedBytes = 0;
  }
  return computeOccupancy(A, K, S);
}

int &registersOf(const GpuArch &A, KernelResources &K) {
  return A.isAmd() ? K.Vgprs : K.RegistersPerThread;
}

int maxRegisters(const GpuArch &A) {
  return A.isAmd() ? A.MaxVgprsPerWave : A.MaxRegistersPerThread;
}

int maxThreads(const GpuArch &A, const KernelResources &K) {
  int Limit = A.MaxThreadsPerBlock;
  if (K.LaunchBoundsMaxThreads > 0)
    Limit = std::min(Limit, K.LaunchBoundsMaxThreads);
  return Limit;
}

SweepPoint point(int64_t V, const OccupancyResult &R) {
  return {V, R.BlocksPerSm, R.ActiveWarpsPerSm, R.Occupancy, R.Limiters};
}

/// Fills GainAt/HeadroomUpTo/LossBlocksPerSm by evaluating the candidates below and
/// above the current value in order of distance.
template <typename Eval>
void scan(NextStep &N, int BaseWarps, const std::vector<int64_t> &Below,
          const std::vector<int64_t> &Above, int64_t Max, Eval Evaluate) {
  for (int64_t V : Below) {
    OccupancyResult R = Evaluate(V);
    if (R.ActiveWarpsPerSm > BaseWarps) {
      N.GainAt = V;
      N.GainBlocksPerSm = R.BlocksPerSm;
      N.GainOccupancy = R.Occupancy;
      break;
    }
  }
  N.HeadroomUpTo = N.Current;
  for (int64_t V : Above) {
    OccupancyResult R = Evaluate(V);
    if (R.ActiveWarpsPerSm < BaseWarps || !R.canLaunch()) {
      N.LossBlocksPerSm = R.BlocksPerSm;
      N.LossOccupancy = R.canLaunch() ? R.Occupancy : 0.0;
      return;
    }
    N.HeadroomUpTo = V;
  }
  N.HeadroomUpTo = std::max(N.HeadroomUpTo, Max);
}

} // namespace

std::vector<NextStep> nextSteps(const GpuArch &A, const KernelResources &K, const LaunchShape &S) {
  std::vector<NextStep> Steps;
  const OccupancyResult Base = computeOccupancy(A, K, S);
  const int BaseWarps = Base.ActiveWarpsPerSm;

  // Registers per thread (AMD: VGPRs), one register at a time.
  {
    NextStep N;
    N.What = Resource::Registers;
    KernelResources K2 = K;
    N.Current = registersOf(A, K2);
    N.Limiting = Base.isLimitedBy(Resource::Registers);
    std::vector<int64_t> Below, Above;
    for (int64_t V = N.Current - 1; V >= 0; --V)
      Below.push_back(V);
    for (int64_t V = N.Current + 1; V <= maxRegisters(A); ++V)
      Above.push_back(V);
    scan(N, BaseWarps, Below, Above, N.Current >= maxRegisters(A) ? N.Current : maxRegisters(A),
         [&](int64_t V) {
           KernelResources K3 = K;
           registersOf(A, K3) = static_cast<int>(V);
           return computeOccupancy(A, K3, S);
         });
    Steps.push_back(N);
  }

  // AMD GCN/CDNA with counted SGPRs (the SGPR file limits waves there, not on gfx10+):
  // SGPRs per wave, one at a time.
  if (A.isAmd() && A.SgprsPerSimd > 0 && K.Sgprs > 0) {
    NextStep N;
    N.What = Resource::Sgprs;
    N.Current = K.Sgprs;
    N.Limiting = Base.isLimitedBy(Resource::Sgprs);
    std::vector<int64_t> Below, Above;
    for (int64_t V = N.Current - 1; V > 0; --V)
      Below.push_back(V);
    for (int64_t V = N.Current + 1; V <= A.MaxSgprsPerWave; ++V)
      Above.push_back(V);
    scan(N, BaseWarps, Below, Above, std::max<int64_t>(N.Current, A.MaxSgprsPerWave),
         [&](int64_t V) {
           KernelResources K3 = K;
           K3.Sgprs = static_cast<int>(V);
           return computeOccupancy(A, K3, S);
         });
    Steps.push_back(N);
  }

  // Shared memory per block: one allocation unit at a time, taking the largest size
  // that still lands in each allocation.
  {
    NextStep N;
    N.What = Resource::SharedMemory;
    N.Current = static_cast<int64_t>(K.StaticSharedBytes + S.DynamicSharedBytes);
    N.Limiting = Base.isLimitedBy(Resource::SharedMemory);
    const int64_t Unit = A.SharedAllocUnitBytes;
    const int64_t Reserved = A.ReservedSharedPerBlockBytes;
    const int64_t K0 = (N.Current + Reserved + Unit - 1) / Unit;
    const int64_t Ceiling = std::max<int64_t>(A.SharedPerBlockOptinBytes, A.SharedPerBlockBytes);
    std::vector<int64_t> Below, Above;
    for (int64_t Kk = K0 - 1; Kk * Unit - Reserved >= 0; --Kk)
      if (Kk * Unit - Reserved < N.Current)
        Below.push_back(Kk * Unit - Reserved);
    if (N.Current > 0 && (Below.empty() || Below.back() != 0))
      Below.push_back(0);
    for (int64_t Kk = K0 + 1; Kk * Unit - Reserved <= Ceiling + Unit; ++Kk)
      Above.push_back(Kk * Unit - Reserved);
    scan(N, BaseWarps, Below, Above, N.Current,
         [&](int64_t V) { return withSharedTotal(A, K, S, V); });
    Steps.push_back(N);
  }

  // Threads per block, one warp at a time.
  {
    NextStep N;
    N.What = Resource::Warps;
    N.Current = S.ThreadsPerBlock;
    N.Limiting = Base.isLimitedBy(Resource::Warps) || Base.isLimitedBy(Resource::Blocks);
    const int64_t Wsz = A.WarpSize;
    const int64_t Max = maxThreads(A, K);
    std::vector<int64_t> Below, Above;
    for (int64_t V = (N.Current - 1) / Wsz * Wsz; V > 0; V -= Wsz)
      if (V < N.Current)
        Below.push_back(V);
    for (int64_t V = roundUp(std::max<int64_t>(N.Current, 1), Wsz); V <= Max; V += Wsz)
      if (V > N.Current)
        Above.push_back(V);
    auto Evaluate = [&](int64_t V) {
      return computeOccupancy(A, K, LaunchShape::threads(V, S.DynamicSharedBytes));
    };
    scan(N, BaseWarps, Below, Above, N.Current, Evaluate);
    // The smallest larger block that reaches the best occupancy of all larger blocks.
    int BestWarps = BaseWarps;
    for (int64_t V : Above) {
      OccupancyResult R = Evaluate(V);
      if (R.canLaunch() && R.ActiveWarpsPerSm > BestWarps) {
        BestWarps = R.ActiveWarpsPerSm;
        N.BestAt = V;
        N.BestBlocksPerSm = R.BlocksPerSm;
        N.BestOccupancy = R.Occupancy;
      }
    }
    Steps.push_back(N);
  }
  return Steps;
}

OccupancyResult blockSizeCeiling(const GpuArch &A, const KernelResources &K, const LaunchShape &S) {
  KernelResources Bare = K;
  registersOf(A, Bare) = 0;
  Bare.Sgprs = 0;
  Bare.StaticSharedBytes = 0;
  LaunchShape Shape = S;
  Shape.DynamicSharedBytes = 0;
  return computeOccupancy(A, Bare, Shape);
}

std::vector<SweepPoint> sweepBlockSize(const GpuArch &A, const KernelResources &K,
                                       uint64_t DynamicSharedBytes) {
  std::vector<SweepPoint> Points;
  for (int T = A.WarpSize; T <= maxThreads(A, K); T += A.WarpSize)
    Points.push_back(point(T, computeOccupancy(A, K, LaunchShape::threads(T, DynamicSharedBytes))));
  return Points;
}

std::vector<SweepPoint> sweepRegisters(const GpuArch &A, const KernelResources &K,
                                       const LaunchShape &S) {
  std::vector<SweepPoint> Points;
  KernelResources K2 = K;
  for (int Regs = 1; Regs <= maxRegisters(A); ++Regs) {
    registersOf(A, K2) = Regs;
    Points.push_back(point(Regs, computeOccupancy(A, K2, S)));
  }
  return Points;
}

std::vector<SweepPoint> sweepSharedMemory(const GpuArch &A, const KernelResources &K,
                                          const LaunchShape &S) {
  std::vector<SweepPoint> Points;
  KernelResources K2 = K;
  K2.StaticSharedBytes = 0;
  const bool Optin = K.OptinDynamicSharedBytes > 0 && A.isNvidia();
  const int64_t Limit = Optin ? A.SharedPerBlockOptinBytes : A.SharedPerBlockBytes;
  if (Optin)
    K2.OptinDynamicSharedBytes = static_cast<uint64_t>(Limit);
  for (int64_t V = 0; V <= Limit; V += A.SharedAllocUnitBytes) {
    LaunchShape S2 = S;
    S2.DynamicSharedBytes = static_cast<uint64_t>(V);
    Points.push_back(point(V, computeOccupancy(A, K2, S2)));
  }
  return Points;
}

BlockSizeSuggestion
maxPotentialBlockSizeVariableSmem(const GpuArch &A, const KernelResources &K,
                                  const std::function<uint64_t(int)> &DynamicSharedForBlock,
                                  int SmCount) {
  BlockSizeSuggestion Best;
  const int Granule = A.WarpSize;
  const int Limit = maxThreads(A, K);
  const int64_t ThreadsLimit = int64_t(A.MaxWarpsPerSm) * A.WarpSize;
  int64_t BestThreads = 0;
  for (int Aligned = static_cast<int>(roundUp(Limit, Granule)); Aligned > 0; Aligned -= Granule) {
    const int T = std::min(Limit, Aligned);
    const uint64_t Dyn = DynamicSharedForBlock ? DynamicSharedForBlock(T) : 0;
    const OccupancyResult R = computeOccupancy(A, K, LaunchShape::threads(T, Dyn));
    const int64_t Threads = int64_t(T) * R.BlocksPerSm;
    if (Threads > BestThreads) {
      BestThreads = Threads;
      Best.BlockSize = T;
      Best.BlocksPerSm = R.BlocksPerSm;
      Best.Occupancy = R.Occupancy;
      Best.DynamicSharedBytes = Dyn;
    }
    if (BestThreads == ThreadsLimit)
      break;
  }
  Best.MinGridSize = int64_t(Best.BlocksPerSm) * std::max(SmCount, 0);
  return Best;
}

BlockSizeSuggestion maxPotentialBlockSize(const GpuArch &A, const KernelResources &K,
                                          uint64_t DynamicSharedBytes, int SmCount) {
  return maxPotentialBlockSizeVariableSmem(
      A, K, [DynamicSharedBytes](int) { return DynamicSharedBytes; }, SmCount);
}

std::optional<WaveInfo> waves(int64_t GridBlocks, int BlocksPerSm, int SmCount) {
  if (BlocksPerSm <= 0 || SmCount <= 0)
    return std::nullopt;
  return wavesOf(GridBlocks, int64_t(BlocksPerSm) * SmCount);
}

std::optional<WaveInfo> wavesOf(int64_t GridBlocks, int64_t BlocksPerWave) {
  if (GridBlocks <= 0 || BlocksPerWave <= 0)
    return std::nullopt;
  WaveInfo W;
  W.BlocksPerWave = BlocksPerWave;
  W.WaveCount = (GridBlocks + W.BlocksPerWave - 1) / W.BlocksPerWave;
  W.Waves = double(GridBlocks) / double(W.BlocksPerWave);
  W.LastWaveBlocks = GridBlocks - (W.WaveCount - 1) * W.BlocksPerWave;
  W.LastWaveFullness = double(W.LastWaveBlocks) / double(W.BlocksPerWave);
  W.Efficiency = double(GridBlocks) / double(W.WaveCount * W.BlocksPerWave);
  return W;
}

std::string clusterProblem(const GpuArch &Arch, int64_t ClusterBlocks, bool NonPortable) {
  const std::string N = std::to_string(ClusterBlocks);
  if (ClusterBlocks <= 0)
    return "a cluster needs at least one block (got " + N + ")";
  if (!Arch.isNvidia() || Arch.Major < 9)
    return "thread block clusters need sm_90 or newer; " + std::string(Arch.Name) +
           " cannot launch a cluster";
  if (ClusterBlocks > NonPortableClusterBlocks)
    return "a cluster of " + N + " blocks exceeds the maximum of " +
           std::to_string(NonPortableClusterBlocks) + " (with the non-portable attribute)";
  if (ClusterBlocks > PortableClusterBlocks && !NonPortable)
    return "a cluster of " + N + " blocks exceeds the portable maximum of " +
           std::to_string(PortableClusterBlocks) +
           "; up to 16 needs cudaFuncSetAttribute(kernel, "
           "cudaFuncAttributeNonPortableClusterSizeAllowed, 1)";
  return "";
}

std::optional<ClusterOccupancy> activeClusters(int BlocksPerSm, int64_t ClusterBlocks,
                                               const int *SmsPerGpc, int GpcCount) {
  if (BlocksPerSm <= 0 || ClusterBlocks <= 0 || !SmsPerGpc || GpcCount <= 0)
    return std::nullopt;
  ClusterOccupancy C;
  C.ClusterBlocks = ClusterBlocks;
  C.BlocksPerSm = BlocksPerSm;
  C.ClusterBlocksPerSm = std::min(BlocksPerSm, ClusterBlocksPerSmCap);
  for (int G = 0; G < GpcCount; ++G) {
    C.BlockSlots += int64_t(SmsPerGpc[G]) * BlocksPerSm;
    // The blocks of one cluster run on as many different SMs of one GPC.
    if (SmsPerGpc[G] < ClusterBlocks) {
      ++C.EmptyGpcs;
      continue;
    }
    C.ActiveClusters += int64_t(SmsPerGpc[G]) * C.ClusterBlocksPerSm / ClusterBlocks;
  }
  C.ActiveBlocks = C.ActiveClusters * ClusterBlocks;
  return C;
}

} // namespace warplint
