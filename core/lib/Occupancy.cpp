//===- Occupancy.cpp - NVIDIA and AMD occupancy, cliffs, sweeps, waves ----===//
#include "warplint/core/Occupancy.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

namespace warplint {
namespace {

// Anything above this is absurd for every architecture here (bytes or counts); it keeps
// the arithmetic far from overflow.
constexpr uint64_t AbsurdBytes = uint64_t(1) << 32;

int64_t divUp(int64_t X, int64_t Y) { return (X + Y - 1) / Y; }
int64_t roundUp(int64_t X, int64_t Y) { return divUp(X, Y) * Y; }
uint64_t roundUpU(uint64_t X, uint64_t Y) { return (X + Y - 1) / Y * Y; }

std::string num(int64_t V) { return std::to_string(V); }

/// "48 KiB" when exact, else "49408 B".
std::string bytes(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return std::to_string(B / 1024) + " KiB";
  return std::to_string(B) + " B";
}

void fail(OccupancyResult &R, LaunchFailureKind K, std::string Msg) {
  if (!R.Failure)
    R.Failure = LaunchFailure{K, std::move(Msg)};
}

/// The SM size the carveout request maps to: the smallest step >= Bytes.
std::optional<uint64_t> alignToCarveout(const GpuArch &A, uint64_t Bytes) {
  for (int I = 0; I < A.NumCarveoutSteps; ++I) {
    uint64_t Step = uint64_t(A.CarveoutStepsKiB[I]) * 1024;
    if (Bytes <= Step)
      return Step;
  }
  return std::nullopt;
}

/// Blocks per SM the register file allows with the given number of sub-partitions.
int registerLimit(const GpuArch &A, int RegsPerThread, int WarpsPerBlock, int SubParts) {
  int64_t RegsPerWarp = roundUp(int64_t(RegsPerThread) * A.WarpSize, A.RegisterAllocUnit);
  int64_t RegsPerBlock = RegsPerWarp * WarpsPerBlock;
  // The launch check assumes the block's warps are spread over every sub-partition.
  int64_t RegsAssumed = RegsPerWarp * roundUp(WarpsPerBlock, SubParts);
  if (RegsAssumed > A.RegistersPerBlock || RegsPerBlock > A.RegistersPerBlock ||
      RegsPerThread > A.MaxRegistersPerThread)
    return 0;
  if (RegsPerWarp == 0)
    return UnlimitedBlocks;
  int64_t WarpsPerSub = (A.RegistersPerSm / SubParts) / RegsPerWarp;
  return static_cast<int>(WarpsPerSub * SubParts / WarpsPerBlock);
}

void finish(OccupancyResult &R) {
  int Min = UnlimitedBlocks;
  for (int L : R.BlockLimit)
    Min = std::min(Min, L);
  // A launch that cannot run is limited by whatever allows no block at all.
  const int Match = R.Failure ? 0 : Min;
  R.Limiters = 0;
  for (unsigned I = 0; I < NumResources; ++I)
    if (R.BlockLimit[I] == Match)
      R.Limiters |= 1u << I;
  R.BlocksPerSm = R.Failure ? 0 : Min;
  R.ActiveWarpsPerSm = R.BlocksPerSm * R.WarpsPerBlock;
  R.Occupancy = R.MaxWarpsPerSm ? double(R.ActiveWarpsPerSm) / R.MaxWarpsPerSm : 0;
  if (R.Arch && R.Arch->isAmd() && R.Arch->SimdsPerCu > 0)
    R.WavesPerSimd = R.ActiveWarpsPerSm / R.Arch->SimdsPerCu;
}

/// Checks shared by both vendors: sizes, block shape, launch bounds.
bool checkShape(const GpuArch &A, const KernelResources &K, const LaunchShape &S,
                OccupancyResult &R) {
  if (S.ThreadsPerBlock <= 0) {
    fail(R, LaunchFailureKind::InvalidInput,
         "block size must be positive (got " + num(S.ThreadsPerBlock) + ")");
    return false;
  }
  if (K.RegistersPerThread < 0 || K.Barriers < 0 || K.LaunchBoundsMaxThreads < 0 ||
      K.LaunchBoundsMinBlocks < 0 || K.VirtualResources < 0 || K.Vgprs < 0 || K.Sgprs < 0) {
    fail(R, LaunchFailureKind::InvalidInput, "kernel resources must not be negative");
    return false;
  }
  if (K.StaticSharedBytes > AbsurdBytes || S.DynamicSharedBytes > AbsurdBytes ||
      K.OptinDynamicSharedBytes > AbsurdBytes) {
    fail(R, LaunchFailureKind::SharedOverBlockLimit,
         "shared memory of more than 4 GiB per block cannot launch");
    return false;
  }
  const LaunchLimits Lim = launchLimits(&A);
  if (S.Block) {
    const Dim3 &B = *S.Block;
    if (B.X <= 0 || B.Y <= 0 || B.Z <= 0) {
      fail(R, LaunchFailureKind::InvalidInput, "block dimensions must be positive");
      return false;
    }
    if (Lim.blockDimOver(0, uint64_t(B.X)) || Lim.blockDimOver(1, uint64_t(B.Y)) ||
        Lim.blockDimOver(2, uint64_t(B.Z)))
      fail(R, LaunchFailureKind::BlockDimTooLarge,
           "block " + num(B.X) + "x" + num(B.Y) + "x" + num(B.Z) + " exceeds the limits " +
               num(A.MaxBlockDimX) + "x" + num(A.MaxBlockDimY) + "x" + num(A.MaxBlockDimZ));
  }
  if (Lim.threadsOver(uint64_t(S.ThreadsPerBlock)))
    fail(R, LaunchFailureKind::TooManyThreads,
         num(S.ThreadsPerBlock) + " threads per block exceed the limit of " +
             num(A.MaxThreadsPerBlock));
  if (K.LaunchBoundsMaxThreads > 0 && S.ThreadsPerBlock > K.LaunchBoundsMaxThreads)
    fail(R, LaunchFailureKind::OverLaunchBounds,
         num(S.ThreadsPerBlock) + " threads per block exceed __launch_bounds__(" +
             num(K.LaunchBoundsMaxThreads) + ")");
  return true;
}

/// What both vendors start with: R for A with no limit yet, the shape checked, threads and
/// warps per block set, and the warp slots' limit; false when the shape cannot be modelled.
bool start(const GpuArch &A, const KernelResources &K, const LaunchShape &S, OccupancyResult &R) {
  R.Arch = &A;
  R.MaxWarpsPerSm = A.MaxWarpsPerSm;
  R.BlockLimit.fill(UnlimitedBlocks);
  if (!checkShape(A, K, S, R))
    return false;
  R.ThreadsPerBlock = static_cast<int>(std::min<int64_t>(S.ThreadsPerBlock, INT_MAX));
  R.WarpsPerBlock = static_cast<int>(divUp(R.ThreadsPerBlock, A.WarpSize));
  R.BlockLimit[static_cast<unsigned>(Resource::Warps)] =
      launchLimits(&A).threadsOver(uint64_t(R.ThreadsPerBlock))
          ? 0
          : A.MaxWarpsPerSm / R.WarpsPerBlock;
  return true;
}

/// NVIDIA's limits after start(): registers, blocks, shared memory, barriers and virtual
/// resources.
void nvidiaLimits(const GpuArch &A, const KernelResources &K, const LaunchShape &S,
                  OccupancyResult &R) {
  const int W = R.WarpsPerBlock;
  auto setLimit = [&](Resource Res, int V) { R.BlockLimit[static_cast<unsigned>(Res)] = V; };

  // Registers.
  const int Regs = K.RegistersPerThread;
  int RegLimit = registerLimit(A, Regs, W, A.SubPartitions);
  // GP100 (2 sub-partitions) refuses what a 4-sub-partition Pascal could not run.
  if (A.PascalForwardCompatCheck && RegLimit != 0 && registerLimit(A, Regs, W, 4) == 0)
    RegLimit = 0;
  setLimit(Resource::Registers, RegLimit);
  int64_t RegsPerWarp = roundUp(int64_t(Regs) * A.WarpSize, A.RegisterAllocUnit);
  R.AllocatedRegistersPerBlock = static_cast<int>(RegsPerWarp * W);
  if (Regs > A.MaxRegistersPerThread)
    fail(R, LaunchFailureKind::TooManyRegisters,
         num(Regs) + " registers per thread exceed the limit of " + num(A.MaxRegistersPerThread));
  else if (RegLimit == 0)
    fail(R, LaunchFailureKind::RegisterFileExceeded,
         num(Regs) + " registers x " + num(W * A.WarpSize) + " threads need " +
             num(std::max<int64_t>(RegsPerWarp * W, RegsPerWarp * roundUp(W, A.SubPartitions))) +
             " registers per block, over the " + num(A.RegistersPerBlock) +
             "-register file (the launch fails: too many resources requested)");

  // Blocks (the warps' limit is start()'s).
  setLimit(Resource::Blocks, A.MaxBlocksPerSm);

  // Shared memory.
  const uint64_t Reserved = A.ReservedSharedPerBlockBytes;
  const uint64_t StaticWithReserved = K.StaticSharedBytes + Reserved;
  const uint64_t Dyn = S.DynamicSharedBytes;
  const uint64_t Alloc = roundUpU(StaticWithReserved + Dyn, A.SharedAllocUnitBytes);
  R.AllocatedSharedBytesPerBlock = Alloc;
  const bool Optin = K.OptinDynamicSharedBytes > 0;
  uint64_t PerBlockLimit = A.SharedPerBlockBytes;
  if (Optin && A.Major >= 7 &&
      StaticWithReserved + K.OptinDynamicSharedBytes > uint64_t(A.SharedPerBlockBytes))
    PerBlockLimit = A.SharedPerBlockOptinBytes;
  if (A.Major >= 8)
    PerBlockLimit += Reserved;
  const bool DynOverOptin = Optin && Dyn > K.OptinDynamicSharedBytes;
  if (DynOverOptin || Alloc > PerBlockLimit) {
    setLimit(Resource::SharedMemory, 0);
  } else {
    uint64_t Preference = A.SharedPerSmBytes;
    if (K.SharedSplitBytes != 0) {
      if (A.NumSharedSplits == 0)
        fail(R, LaunchFailureKind::InvalidInput,
             "a shared/L1 split size applies to cc 2.x and 3.x; " + std::string(A.Name) +
                 (A.NumCarveoutSteps ? " takes a carveout percentage 0..100"
                                     : " has a fixed shared-memory size"));
      else if (!isSharedSplit(A, K.SharedSplitBytes))
        fail(R, LaunchFailureKind::InvalidInput,
             "shared/L1 split " + bytes(K.SharedSplitBytes) + " is not one of " + A.Name +
                 "'s: " + sharedSplitsText(A));
      else
        Preference = K.SharedSplitBytes;
    }
    if (A.Major >= 7 && K.CarveoutPercent != -1) {
      if (K.CarveoutPercent < -1 || K.CarveoutPercent > 100) {
        fail(R, LaunchFailureKind::InvalidInput,
             "carveout must be -1 (default) or 0..100 percent (got " + num(K.CarveoutPercent) +
                 ")");
      } else {
        Preference = alignToCarveout(A, uint64_t(K.CarveoutPercent) * A.SharedPerSmBytes / 100)
                         .value_or(A.SharedPerSmBytes);
      }
    }
    uint64_t PerSm = Preference;
    // The carveout grows to fit at least one block (before cc 7.0: the largest split, as
    // the driver overrides a cudaFuncSetCacheConfig preference a block does not fit).
    if (Preference < Alloc)
      PerSm = A.Major >= 7 ? alignToCarveout(A, Alloc).value_or(A.SharedPerSmBytes)
                           : uint64_t(A.SharedPerSmBytes);
    R.SharedBytesPerSm = PerSm;
    setLimit(Resource::SharedMemory, Alloc > 0 ? static_cast<int>(PerSm / Alloc) : UnlimitedBlocks);
  }
  if (R.SharedBytesPerSm == 0)
    R.SharedBytesPerSm = A.SharedPerSmBytes;
  const uint64_t MaxOptin = uint64_t(A.SharedPerBlockOptinBytes) -
                            std::min<uint64_t>(K.StaticSharedBytes, A.SharedPerBlockOptinBytes);
  if (K.StaticSharedBytes > uint64_t(A.SharedPerBlockBytes))
    fail(R, LaunchFailureKind::StaticSharedTooLarge,
         "static shared memory " + bytes(K.StaticSharedBytes) + " exceeds the " +
             bytes(A.SharedPerBlockBytes) +
             " limit for static __shared__ (ptxas rejects it; use dynamic shared memory)");
  else if (Optin && K.OptinDynamicSharedBytes > MaxOptin)
    fail(R, LaunchFailureKind::OptinOverLimit,
         "cudaFuncAttributeMaxDynamicSharedMemorySize " + bytes(K.OptinDynamicSharedBytes) +
             " exceeds the opt-in maximum of " + bytes(MaxOptin) + " (" +
             bytes(A.SharedPerBlockOptinBytes) + " minus static)");
  else if (DynOverOptin)
    fail(R, LaunchFailureKind::DynamicOverOptin,
         "dynamic shared memory " + bytes(Dyn) +
             " exceeds cudaFuncAttributeMaxDynamicSharedMemorySize " +
             bytes(K.OptinDynamicSharedBytes));
  else if (Alloc > PerBlockLimit) {
    std::string Msg = "shared memory " + bytes(K.StaticSharedBytes + Dyn) + " per block";
    if (Reserved)
      Msg += " (+" + bytes(Reserved) + " reserved)";
    if (PerBlockLimit - (A.Major >= 8 ? Reserved : 0) == uint64_t(A.SharedPerBlockBytes) &&
        A.SharedPerBlockOptinBytes > A.SharedPerBlockBytes)
      Msg += " exceeds the " + bytes(A.SharedPerBlockBytes) +
             " default; dynamic shared memory up to " + bytes(A.SharedPerBlockOptinBytes) +
             " needs cudaFuncSetAttribute(kernel, "
             "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)";
    else
      Msg += " exceeds the per-block maximum of " +
             bytes(PerBlockLimit - (A.Major >= 8 ? Reserved : 0));
    fail(R, LaunchFailureKind::SharedOverBlockLimit, Msg);
  }

  // Barriers (cc 9.0 on) and virtual resources (cc 10.x to 12.x).
  if (A.BarrierBlocksFactor > 0 && K.Barriers > 0)
    setLimit(Resource::Barriers, A.MaxBlocksPerSm * A.BarrierBlocksFactor / K.Barriers);
  if (A.VirtualResourcesPerSm > 0 && K.VirtualResources > 0)
    setLimit(Resource::VirtualResources, A.VirtualResourcesPerSm / K.VirtualResources);
}

/// AMD's limits after start(): workgroups, VGPRs, SGPRs and LDS per CU.
void amdLimits(const GpuArch &A, const KernelResources &K, const LaunchShape &S,
               OccupancyResult &R) {
  const int W = R.WarpsPerBlock;
  auto setLimit = [&](Resource Res, int V) { R.BlockLimit[static_cast<unsigned>(Res)] = V; };
  // Waves of a workgroup spread over the SIMDs, so per-SIMD wave limits count per CU.
  auto perCu = [&](int WavesPerSimd) { return WavesPerSimd * A.SimdsPerCu / W; };

  setLimit(Resource::Blocks, W == 1 ? A.MaxWarpsPerSm : A.MaxBarrierWorkgroupsPerCu);

  if (K.Vgprs > A.MaxVgprsPerWave) {
    setLimit(Resource::Registers, 0);
    fail(R, LaunchFailureKind::TooManyRegisters,
         num(K.Vgprs) + " VGPRs exceed the " + num(A.MaxVgprsPerWave) + " a wave can address");
  } else if (K.Vgprs > 0) {
    // No VGPRs given (not counted): the register file sets no limit of its own.
    setLimit(Resource::Registers, perCu(amdWavesPerSimdForVgprs(A, K.Vgprs)));
  }
  R.AllocatedRegistersPerBlock =
      static_cast<int>(roundUp(std::max(K.Vgprs, 1), A.VgprAllocGranule) * A.WarpSize * W);
  if (A.SgprsPerSimd > 0) {
    if (K.Sgprs > A.MaxSgprsPerWave) {
      setLimit(Resource::Sgprs, 0);
      fail(R, LaunchFailureKind::TooManyRegisters,
           num(K.Sgprs) + " SGPRs exceed the " + num(A.MaxSgprsPerWave) +
               " a wave can use (including VCC, FLAT_SCRATCH, XNACK_MASK)");
    } else if (K.Sgprs > 0) {
      setLimit(Resource::Sgprs, perCu(amdWavesPerSimdForSgprs(A, K.Sgprs)));
    }
  }

  const uint64_t Lds = K.StaticSharedBytes + S.DynamicSharedBytes;
  const uint64_t Alloc = roundUpU(Lds, A.LdsAllocGranuleBytes);
  R.AllocatedSharedBytesPerBlock = Alloc;
  R.SharedBytesPerSm = A.LdsPerCuBytes;
  if (Lds > uint64_t(A.LdsPerWorkgroupBytes)) {
    setLimit(Resource::SharedMemory, 0);
    fail(R, LaunchFailureKind::SharedOverBlockLimit,
         "LDS " + bytes(Lds) + " per workgroup exceeds the " + bytes(A.LdsPerWorkgroupBytes) +
             " limit");
  } else {
    setLimit(Resource::SharedMemory,
             Alloc > 0 ? static_cast<int>(A.LdsPerCuBytes / Alloc) : UnlimitedBlocks);
  }
}

} // namespace

/// Waves per SIMD the VGPR count allows (LLVM getNumWavesPerEUWithNumVGPRs).
int amdWavesPerSimdForVgprs(const GpuArch &A, int Vgprs) {
  if (Vgprs < A.VgprAllocGranule)
    return A.MaxWavesPerSimd;
  int Rounded = static_cast<int>(roundUp(Vgprs, A.VgprAllocGranule));
  return std::min(std::max(A.VgprsPerSimd / Rounded, 1), A.MaxWavesPerSimd);
}

/// Waves per SIMD the SGPR count allows (LLVM getOccupancyWithNumSGPRs, GFX8/GFX9).
int amdWavesPerSimdForSgprs(const GpuArch &A, int Sgprs) {
  if (A.SgprsPerSimd == 0)
    return A.MaxWavesPerSimd;
  int W = Sgprs <= 80 ? 10 : Sgprs <= 88 ? 9 : Sgprs <= 100 ? 8 : 7;
  return std::min(W, A.MaxWavesPerSimd);
}

int launchBoundsRegisterBudget(const GpuArch &Arch, int Threads, int MinBlocks) {
  KernelResources Res;
  Res.LaunchBoundsMaxThreads = Threads;
  for (int R = Arch.MaxRegistersPerThread; R > 0; --R) {
    Res.RegistersPerThread = R;
    OccupancyResult O = computeOccupancy(Arch, Res, LaunchShape::threads(Threads));
    if (O.canLaunch() && O.BlocksPerSm >= std::max(MinBlocks, 1))
      return R;
  }
  return 0;
}

int amdVgprBudget(const GpuArch &A, int WavesPerSimd) {
  if (!A.isAmd() || WavesPerSimd <= 0 || WavesPerSimd > A.MaxWavesPerSimd)
    return 0;
  int Budget = A.VgprsPerSimd / WavesPerSimd / A.VgprAllocGranule * A.VgprAllocGranule;
  return std::min(Budget, A.MaxVgprsPerWave);
}

int amdWavesPerSimdForWorkgroup(const GpuArch &A, int64_t Threads) {
  if (!A.isAmd() || Threads <= 0)
    return 0;
  int64_t Waves = (Threads + A.WarpSize - 1) / A.WarpSize;
  return int((Waves + A.SimdsPerCu - 1) / A.SimdsPerCu);
}

std::string amdVgprBudgetText(const GpuArch &A, int WavesPerSimd) {
  int Budget = amdVgprBudget(A, WavesPerSimd);
  return Budget > 0 ? "at most " + num(Budget) + " VGPRs per lane" : "no VGPR count";
}

AmdKernelVgprBudget amdKernelVgprBudget(const GpuArch &A, int FlatWorkGroupMax,
                                        int WavesPerEuMin) {
  AmdKernelVgprBudget B;
  B.FlatWorkGroupMax = FlatWorkGroupMax > 0 ? FlatWorkGroupMax : A.MaxThreadsPerBlock;
  const int ForWorkgroup = amdWavesPerSimdForWorkgroup(A, B.FlatWorkGroupMax);
  B.ByWavesPerEu = WavesPerEuMin > ForWorkgroup;
  B.WavesPerSimd = std::max(ForWorkgroup, WavesPerEuMin);
  B.Vgprs = amdVgprBudget(A, B.WavesPerSimd);
  return B;
}

const char *resourceName(Resource R) {
  switch (R) {
  case Resource::Warps:
    return "warps";
  case Resource::Registers:
    return "registers";
  case Resource::SharedMemory:
    return "shared_memory";
  case Resource::Blocks:
    return "blocks";
  case Resource::Barriers:
    return "barriers";
  case Resource::VirtualResources:
    return "virtual_resources";
  case Resource::Sgprs:
    return "sgprs";
  }
  return "unknown";
}

const char *resourceLabel(Resource R, const GpuArch &Arch) {
  bool Amd = Arch.isAmd();
  switch (R) {
  case Resource::Warps:
    return Amd ? "wave slots" : "warp slots";
  case Resource::Registers:
    return Amd ? "VGPRs" : "registers";
  case Resource::SharedMemory:
    return Amd ? "LDS" : "shared memory";
  case Resource::Blocks:
    return Amd ? "workgroup slots" : "block slots";
  case Resource::Barriers:
    return "barriers";
  case Resource::VirtualResources:
    return "virtual resources";
  case Resource::Sgprs:
    return "SGPRs";
  }
  return "unknown";
}

std::string limiterText(const GpuArch &Arch, unsigned LimiterMask) {
  std::string Text;
  for (unsigned I = 0; I < NumResources; ++I) {
    if (!(LimiterMask & (1u << I)))
      continue;
    if (!Text.empty())
      Text += " and ";
    Text += resourceLabel(static_cast<Resource>(I), Arch);
  }
  return Text;
}

std::string limiterVerdict(const GpuArch &Arch, unsigned LimiterMask, bool RegistersKnown) {
  std::string Limiters = limiterText(Arch, LimiterMask);
  if (Limiters.empty())
    return "no limiter";
  if (RegistersKnown)
    return "limited by " + Limiters;
  // "shared memory allows", "warp slots allow", "LDS allows".
  bool Plural = (LimiterMask & (LimiterMask - 1)) != 0 ||
                (Limiters.back() == 's' && Limiters != "LDS");
  return std::string(Arch.isAmd() ? "VGPRs unknown, " : "registers unknown, ") + Limiters +
         (Plural ? " allow" : " allows") + " no more";
}

std::string percentText(double Fraction) {
  char Buf[32];
  double P = std::round(Fraction * 1000.0) / 10.0;
  if (P == static_cast<double>(static_cast<long long>(P)))
    std::snprintf(Buf, sizeof Buf, "%lld%%", static_cast<long long>(P));
  else
    std::snprintf(Buf, sizeof Buf, "%.1f%%", P);
  return Buf;
}

const char *failureKindName(LaunchFailureKind K) {
  switch (K) {
  case LaunchFailureKind::InvalidInput:
    return "invalid_input";
  case LaunchFailureKind::BlockDimTooLarge:
    return "block_dim_too_large";
  case LaunchFailureKind::TooManyThreads:
    return "too_many_threads";
  case LaunchFailureKind::OverLaunchBounds:
    return "over_launch_bounds";
  case LaunchFailureKind::TooManyRegisters:
    return "too_many_registers";
  case LaunchFailureKind::RegisterFileExceeded:
    return "register_file_exceeded";
  case LaunchFailureKind::StaticSharedTooLarge:
    return "static_shared_too_large";
  case LaunchFailureKind::OptinOverLimit:
    return "optin_over_limit";
  case LaunchFailureKind::DynamicOverOptin:
    return "dynamic_over_optin";
  case LaunchFailureKind::SharedOverBlockLimit:
    return "shared_over_block_limit";
  }
  return "unknown";
}

std::string sharedSplitsText(const GpuArch &Arch) {
  std::string Out;
  for (int I = 0; I < Arch.NumSharedSplits; ++I) {
    if (I)
      Out += I + 1 == Arch.NumSharedSplits ? " or " : ", ";
    Out += std::to_string(Arch.SharedSplitsKiB[I]) + " KiB";
  }
  return Out;
}

bool isSharedSplit(const GpuArch &Arch, uint64_t Bytes) {
  for (int I = 0; I < Arch.NumSharedSplits; ++I)
    if (uint64_t(Arch.SharedSplitsKiB[I]) * 1024 == Bytes)
      return true;
  return false;
}

OccupancyResult computeOccupancy(const GpuArch &Arch, const KernelResources &Res,
                                 const LaunchShape &Shape) {
  OccupancyResult R;
  if (start(Arch, Res, Shape, R)) {
    if (Arch.isNvidia())
      nvidiaLimits(Arch, Res, Shape, R);
    else
      amdLimits(Arch, Res, Shape, R);
  }
  finish(R);
  if (Res.LaunchBoundsMinBlocks > 0)
    R.MeetsMinBlocks = R.BlocksPerSm >= Res.LaunchBoundsMinBlocks;
  return R;
}

} // namespace warplint
