//===- Occupancy.h - theoretical occupancy, cliffs, sweeps and waves -*- C++ -*-===//
#pragma once

#include "warplint/core/Arch.h"

#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// A limit value meaning "this resource does not limit the block count".
constexpr int UnlimitedBlocks = INT_MAX;

/// What a kernel uses per thread / per block, independent of the launch.
struct KernelResources {
  /// Registers per thread (NVIDIA, from ptxas); 0 if the kernel uses none.
  int RegistersPerThread = 0;
  /// Static __shared__ (AMD: static LDS) bytes per block.
  uint64_t StaticSharedBytes = 0;
  /// Named barriers per block; the CUDA runtime assumes 1.
  int Barriers = 1;
  /// __launch_bounds__ maximum threads per block; 0: none.
  int LaunchBoundsMaxThreads = 0;
  /// __launch_bounds__ minimum blocks per SM; 0: none.
  int LaunchBoundsMinBlocks = 0;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize, bytes; 0: not set (48 KiB default).
  uint64_t OptinDynamicSharedBytes = 0;
  /// cudaFuncAttributePreferredSharedMemoryCarveout, percent 0..100; -1: default.
  int CarveoutPercent = -1;
  /// cc 2.x and 3.x: the shared part of the shared/L1 split asked for
  /// (cudaFuncSetCacheConfig), bytes, one of GpuArch::SharedSplitsKiB; 0: the default
  /// (the largest). A preference: a block that needs more gets the largest split.
  uint64_t SharedSplitBytes = 0;
  /// Virtual resources per block (cc 10.x to 12.x); 0: none.
  int VirtualResources = 0;
  /// AMD: VGPRs per lane (unified VGPR+AGPR count on gfx90a/gfx942).
  int Vgprs = 0;
  /// AMD: SGPRs per wave, including VCC/FLAT_SCRATCH/XNACK_MASK.
  int Sgprs = 0;
};

/// Block dimensions in threads.
struct Dim3 {
  int64_t X = 1, Y = 1, Z = 1;
};

/// One launch's configuration.
struct LaunchShape {
  /// Threads per block (x*y*z when Block is set).
  int64_t ThreadsPerBlock = 0;
  /// Dynamic shared memory per block, bytes (the third <<<>>> argument).
  uint64_t DynamicSharedBytes = 0;
  /// The block's shape when known; checked against the per-dimension limits.
  std::optional<Dim3> Block;

  static LaunchShape threads(int64_t Threads, uint64_t DynamicSharedBytes = 0) {
    LaunchShape S;
    S.ThreadsPerBlock = Threads;
    S.DynamicSharedBytes = DynamicSharedBytes;
    return S;
  }
  static LaunchShape block(Dim3 B, uint64_t DynamicSharedBytes = 0) {
    LaunchShape S;
    S.ThreadsPerBlock = B.X * B.Y * B.Z;
    S.DynamicSharedBytes = DynamicSharedBytes;
    S.Block = B;
    return S;
  }
};

/// The resources that bound blocks per SM. The order is the bit order of
/// OccupancyResult::Limiters.
enum class Resource : unsigned {
  Warps,            ///< warp (wave) slots per SM
  Registers,        ///< register file (AMD: VGPRs)
  SharedMemory,     ///< shared memory (AMD: LDS)
  Blocks,           ///< block (workgroup) slots per SM
  Barriers,         ///< block barriers (cc 9.0 on)
  VirtualResources, ///< virtual resources (cc 10.x to 12.x)
  Sgprs,            ///< AMD GCN/CDNA scalar registers
};
constexpr unsigned NumResources = 7;

/// Bit for one resource in a limiter mask.
constexpr unsigned limiterBit(Resource R) { return 1u << static_cast<unsigned>(R); }
/// "warps", "registers", "shared_memory", "blocks", "barriers", "virtual_resources", "sgprs".
const char *resourceName(Resource R);
/// Human wording: "registers", "shared memory", ... (AMD: "VGPRs", "LDS", "waves").
const char *resourceLabel(Resource R, const GpuArch &Arch);
/// The limiters of a mask (limiterBit()s) in resource order, worded for the arch and
/// joined with " and ": "shared memory and registers".
std::string limiterText(const GpuArch &Arch, unsigned LimiterMask);
/// What limits a launch, as every output says it: "limited by shared memory"; without the
/// registers, whose count may allow fewer blocks, no other resource is named the limiter:
/// "registers unknown, shared memory allows no more" (AMD: "VGPRs unknown, ...").
std::string limiterVerdict(const GpuArch &Arch, unsigned LimiterMask, bool RegistersKnown);
/// A fraction as a percentage with at most one decimal: 0.375 -> "37.5%", 0.5 -> "50%".
std::string percentText(double Fraction);

/// Why a launch cannot run at all.
enum class LaunchFailureKind {
  InvalidInput,         ///< negative or zero sizes, bad carveout or shared/L1 split
  BlockDimTooLarge,     ///< x or y over 1024, z over 64
  TooManyThreads,       ///< over 1024 threads per block
  OverLaunchBounds,     ///< more threads than __launch_bounds__ allows
  TooManyRegisters,     ///< registers per thread over 255 (AMD: VGPRs/SGPRs per wave)
  RegisterFileExceeded, ///< registers x threads over the per-block register file
  StaticSharedTooLarge, ///< static shared memory over 48 KiB (a ptxas error)
  OptinOverLimit,       ///< the dynamic opt-in is more than the architecture allows
  DynamicOverOptin,     ///< dynamic shared memory over the opt-in attribute
  SharedOverBlockLimit, ///< over 48 KiB without opt-in, or over the opt-in maximum
};
/// "invalid_input", "too_many_threads", ...
const char *failureKindName(LaunchFailureKind K);

struct LaunchFailure {
  LaunchFailureKind Kind;
  /// One line, lowercase, with the numbers: "1056 threads per block exceed the limit of 1024".
  std::string Message;
};

/// Theoretical occupancy of one kernel launch on one architecture.
struct OccupancyResult {
  const GpuArch *Arch = nullptr;
  /// Threads per block and warps (waves) per block, idle lanes counted.
  int ThreadsPerBlock = 0;
  int WarpsPerBlock = 0;
  /// Resident blocks per SM (AMD: workgroups per CU/WGP); 0 when it cannot launch.
  int BlocksPerSm = 0;
  /// Resident warps per SM = BlocksPerSm x WarpsPerBlock.
  int ActiveWarpsPerSm = 0;
  /// Warp slots per SM.
  int MaxWarpsPerSm = 0;
  /// ActiveWarpsPerSm / MaxWarpsPerSm, 0..1.
  double Occupancy = 0;
  /// AMD: waves per SIMD (execution unit), ActiveWarpsPerSm / SimdsPerCu rounded down:
  /// the figure of the backend's `; Occupancy:` and of amdgpu_waves_per_eu; 0 on NVIDIA.
  int WavesPerSimd = 0;
  /// Blocks per SM each resource allows (UnlimitedBlocks when it does not limit).
  std::array<int, NumResources> BlockLimit{};
  /// limiterBit() of every resource whose limit equals BlocksPerSm.
  unsigned Limiters = 0;
  /// Registers allocated per block (per-warp allocation unit x warps).
  int AllocatedRegistersPerBlock = 0;
  /// Shared memory allocated per block, bytes (static + dynamic + reserved, rounded).
  uint64_t AllocatedSharedBytesPerBlock = 0;
  /// The SM's shared-memory carveout used for the count, bytes.
  uint64_t SharedBytesPerSm = 0;
  /// BlocksPerSm >= __launch_bounds__ min blocks (true when there is none).
  bool MeetsMinBlocks = true;
  /// Set when the launch cannot run; BlocksPerSm is then 0.
  std::optional<LaunchFailure> Failure;

  bool canLaunch() const { return !Failure; }
  int limit(Resource R) const { return BlockLimit[static_cast<unsigned>(R)]; }
  bool isLimitedBy(Resource R) const { return Limiters & limiterBit(R); }
};

/// Occupancy as NVIDIA's cuda_occupancy.h computes it (with the runtime's one barrier),
/// or from VGPRs/SGPRs/LDS/wave slots on AMD.
OccupancyResult computeOccupancy(const GpuArch &Arch, const KernelResources &Res,
                                 const LaunchShape &Shape);

/// The occupancy cliff of one resource around the current value.
struct NextStep {
  /// Registers (per thread; AMD VGPRs per lane), SharedMemory (bytes per block, static +
  /// dynamic), Warps (threads per block), or Sgprs (AMD GCN/CDNA: SGPRs per wave, when
  /// counted).
  Resource What;
  /// Whether this resource is a limiter now.
  bool Limiting = false;
  /// The current value.
  int64_t Current = 0;
  /// The largest value below Current that raises occupancy; none when nothing does.
  std::optional<int64_t> GainAt;
  /// Blocks per SM and occupancy at GainAt.
  int GainBlocksPerSm = 0;
  double GainOccupancy = 0;
  /// The largest value >= Current that keeps the current occupancy.
  int64_t HeadroomUpTo = 0;
  /// Blocks per SM one step above HeadroomUpTo (0: the launch fails there); none when
  /// the value can grow to its maximum without a loss.
  std::optional<int> LossBlocksPerSm;
  /// Occupancy one step above HeadroomUpTo (0 when the launch fails there).
  double LossOccupancy = 0;
  /// Block size only: the smallest value above Current that reaches the best occupancy
  /// any larger block reaches, when that is above the current occupancy (48 threads on
  /// sm_86: 96 gives 100%; HeadroomUpTo, 768, is only where it stops being kept).
  std::optional<int64_t> BestAt;
  /// Blocks per SM and occupancy at BestAt.
  int BestBlocksPerSm = 0;
  double BestOccupancy = 0;
};

/// AMD: waves per SIMD a VGPR count per lane allows (LLVM getNumWavesPerEUWithNumVGPRs),
/// and SGPRs per wave (getOccupancyWithNumSGPRs; the wave limit where SGPRs set none).
int amdWavesPerSimdForVgprs(const GpuArch &Arch, int Vgprs);
int amdWavesPerSimdForSgprs(const GpuArch &Arch, int Sgprs);
/// AMD: the most VGPRs per lane that still leave room for WavesPerSimd waves on each SIMD
/// (whole allocation granules, at most what a wave can address); 0 when none does.
int amdVgprBudget(const GpuArch &Arch, int WavesPerSimd);
/// NVIDIA: the registers per thread `__launch_bounds__(Threads, MinBlocks)` leaves ptxas:
/// the most that still fit MinBlocks (at least one) blocks of Threads threads on an SM;
/// 0 when no count does.
int launchBoundsRegisterBudget(const GpuArch &Arch, int Threads, int MinBlocks);
/// AMD: waves per SIMD a workgroup of Threads threads needs resident at once (its waves
/// spread over the CU's SIMDs).
int amdWavesPerSimdForWorkgroup(const GpuArch &Arch, int64_t Threads);
/// AMD: the budget amdVgprBudget gives, as every message words it: "at most 96 VGPRs per
/// lane"; "no VGPR count" when no count leaves room for WavesPerSimd waves per SIMD.
std::string amdVgprBudgetText(const GpuArch &Arch, int WavesPerSimd);
/// AMD: the VGPR budget the backend compiles a kernel to.
struct AmdKernelVgprBudget {
  /// Threads of the largest workgroup the kernel is compiled for.
  int FlatWorkGroupMax = 0;
  /// Waves per SIMD the budget leaves room for: what the largest workgroup needs, or
  /// amdgpu_waves_per_eu's minimum where that asks for more.
  int WavesPerSimd = 0;
  /// amdgpu_waves_per_eu's minimum sets WavesPerSimd (it asks for more than the workgroup).
  bool ByWavesPerEu = false;
  /// VGPRs per lane (amdVgprBudget at WavesPerSimd); 0 when none.
  int Vgprs = 0;
};
/// The budget for a kernel compiled for workgroups of up to FlatWorkGroupMax threads
/// (amdgpu_flat_work_group_size's maximum; 0: the compiler's default, Arch's block limit)
/// with amdgpu_waves_per_eu's minimum WavesPerEuMin (0: none).
AmdKernelVgprBudget amdKernelVgprBudget(const GpuArch &Arch, int FlatWorkGroupMax,
                                        int WavesPerEuMin);

/// Per resource (registers, shared memory, block size): how far to drop to gain
/// occupancy and how much headroom remains before occupancy drops.
std::vector<NextStep> nextSteps(const GpuArch &Arch, const KernelResources &Res,
                                const LaunchShape &Shape);

/// The most a launch's block size allows: the occupancy with the kernel's registers and
/// shared memory (static and dynamic) taken away, so that only the block and warp slots
/// (and barriers, launch bounds) bound it. A MinOccupancy above it cannot be met by any
/// kernel launched with that block size.
OccupancyResult blockSizeCeiling(const GpuArch &Arch, const KernelResources &Res,
                                 const LaunchShape &Shape);

/// One point of an occupancy chart.
struct SweepPoint {
  int64_t Value = 0;
  int BlocksPerSm = 0;
  int ActiveWarpsPerSm = 0;
  double Occupancy = 0;
  unsigned Limiters = 0;
};

/// Occupancy over block sizes WarpSize..max (step WarpSize, bounded by launch bounds).
std::vector<SweepPoint> sweepBlockSize(const GpuArch &Arch, const KernelResources &Res,
                                       uint64_t DynamicSharedBytes);
/// Occupancy over registers per thread 1..255 (AMD: VGPRs 1..max per wave).
std::vector<SweepPoint> sweepRegisters(const GpuArch &Arch, const KernelResources &Res,
                                       const LaunchShape &Shape);
/// Occupancy over shared memory per block 0..limit (48 KiB, or the opt-in maximum when
/// the kernel opted in) at the allocation granularity; Value is bytes per block.
std::vector<SweepPoint> sweepSharedMemory(const GpuArch &Arch, const KernelResources &Res,
                                          const LaunchShape &Shape);

/// cudaOccupancyMaxPotentialBlockSize's answer.
struct BlockSizeSuggestion {
  /// The block size with the highest occupancy (largest among ties); 0 if none fits.
  int BlockSize = 0;
  int BlocksPerSm = 0;
  /// BlocksPerSm x SmCount: the smallest grid that fills the GPU.
  int64_t MinGridSize = 0;
  double Occupancy = 0;
  /// Dynamic shared memory per block at BlockSize, bytes.
  uint64_t DynamicSharedBytes = 0;
};

/// Walks block sizes down from the maximum in warp steps, like
/// cudaOccupancyMaxPotentialBlockSize, with a fixed dynamic shared size.
BlockSizeSuggestion maxPotentialBlockSize(const GpuArch &Arch, const KernelResources &Res,
                                          uint64_t DynamicSharedBytes, int SmCount);
/// The same with dynamic shared memory that depends on the block size
/// (cudaOccupancyMaxPotentialBlockSizeVariableSMem).
BlockSizeSuggestion
maxPotentialBlockSizeVariableSmem(const GpuArch &Arch, const KernelResources &Res,
                                  const std::function<uint64_t(int)> &DynamicSharedForBlock,
                                  int SmCount);

/// How a grid runs in waves of BlocksPerSm x SmCount blocks.
struct WaveInfo {
  /// Blocks that run at once on the whole GPU.
  int64_t BlocksPerWave = 0;
  /// Waves, counting a partial last wave as one.
  int64_t WaveCount = 0;
  /// Grid / BlocksPerWave.
  double Waves = 0;
  /// Blocks in the last wave and its fullness (0..1].
  int64_t LastWaveBlocks = 0;
  double LastWaveFullness = 0;
  /// Grid / (WaveCount x BlocksPerWave): how busy the GPU is over all waves.
  double Efficiency = 0;
};

/// "16 KiB or 48 KiB": the shared/L1 splits of a cc 2.x/3.x arch; empty for others.
std::string sharedSplitsText(const GpuArch &Arch);
/// Whether Bytes is one of the arch's shared/L1 split sizes.
bool isSharedSplit(const GpuArch &Arch, uint64_t Bytes);

/// Waves of a grid; none when an argument is not positive.
std::optional<WaveInfo> waves(int64_t GridBlocks, int BlocksPerSm, int SmCount);
/// Waves of a grid that fills BlocksPerWave blocks at once (clusters: active clusters x
/// blocks per cluster); none when an argument is not positive.
std::optional<WaveInfo> wavesOf(int64_t GridBlocks, int64_t BlocksPerWave);

/// Thread block clusters (cc 9.0 on): at most 8 blocks portably, 16 with
/// cudaFuncAttributeNonPortableClusterSizeAllowed (CUDA C++ Programming Guide, "Thread
/// Block Clusters"; H100 and B200).
constexpr int PortableClusterBlocks = 8;
constexpr int NonPortableClusterBlocks = 16;

/// Why a cluster shape cannot launch on an arch, or empty: before cc 9.0, over 8 blocks
/// without the non-portable attribute, over 16 with it.
std::string clusterProblem(const GpuArch &Arch, int64_t ClusterBlocks, bool NonPortable);

/// Clusters count at most this many blocks per SM: measured on an H100 and an H200 (driver
/// 580.159.04, CUDA 13.0), cudaOccupancyMaxActiveClusters gives the same answer at 16 and
/// 32 blocks per SM as at 8, for every cluster size (1056 clusters of 1 block on 132 SMs).
constexpr int ClusterBlocksPerSmCap = 8;

/// Clusters resident at once on a GPU, as cudaOccupancyMaxActiveClusters counts them
/// (measured, bench/gpu): all blocks of a cluster share a GPC and run on as many different
/// SMs of it, so a GPC with fewer SMs than the cluster has blocks holds none; the others hold
/// floor(SMs x min(blocks per SM, 8) / blocks per cluster) each.
struct ClusterOccupancy {
  int64_t ClusterBlocks = 0;  ///< blocks per cluster
  int BlocksPerSm = 0;        ///< from the per-SM occupancy
  int ClusterBlocksPerSm = 0; ///< BlocksPerSm capped at ClusterBlocksPerSmCap
  int64_t ActiveClusters = 0; ///< on the whole GPU
  int64_t ActiveBlocks = 0;   ///< ActiveClusters x ClusterBlocks
  int64_t BlockSlots = 0;     ///< BlocksPerSm x SMs: what the GPU holds without clusters
  /// GPCs with no room for one cluster (fewer SMs than ClusterBlocks).
  int EmptyGpcs = 0;
};
/// SmsPerGpc: the SMs of each GPC. None when an argument is not positive.
std::optional<ClusterOccupancy> activeClusters(int BlocksPerSm, int64_t ClusterBlocks,
                                               const int *SmsPerGpc, int GpcCount);

} // namespace warplint
