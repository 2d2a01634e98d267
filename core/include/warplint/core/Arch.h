//===- Arch.h - per-architecture GPU limits (NVIDIA SMs, AMD CUs) -*- C++ -*-===//
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warplint {

enum class GpuVendor { Nvidia, Amd };

/// The fixed limits of one GPU architecture. NVIDIA rows use the SM fields; AMD rows
/// use the CU fields and reuse the NVIDIA names where the meaning is the same (warps
/// are wavefronts, an SM is a CU, or a WGP in RDNA's default WGP mode, blocks are
/// workgroups, shared memory is LDS).
struct GpuArch {
  /// Canonical name: "sm_86" or "gfx906".
  const char *Name;
  GpuVendor Vendor;
  /// Compute capability (NVIDIA); gfx major/minor/stepping packed as 9, 0, 6 (AMD).
  int Major;
  int Minor;
  /// Marketing family ("Ampere", "CDNA2").
  const char *Family;
  /// Where the row's figures come from.
  const char *Source;

  // --- Common -------------------------------------------------------------------
  /// Threads per warp (wavefront).
  int WarpSize;
  /// Threads per block (workgroup).
  int MaxThreadsPerBlock;
  /// Block dimension limits, threads.
  int MaxBlockDimX, MaxBlockDimY, MaxBlockDimZ;
  /// Grid dimension limits, blocks.
  int64_t MaxGridDimX;
  int MaxGridDimY, MaxGridDimZ;
  /// Resident warps per SM (waves per CU/WGP).
  int MaxWarpsPerSm;
  /// Resident blocks per SM (workgroups per CU for multi-wave workgroups on AMD).
  int MaxBlocksPerSm;

  // --- NVIDIA ---------------------------------------------------------------------
  /// 32-bit registers per SM.
  int RegistersPerSm;
  /// 32-bit registers one block may use (the per-launch hardware check).
  int RegistersPerBlock;
  /// Registers per thread ptxas can assign.
  int MaxRegistersPerThread;
  /// Register allocation unit per warp, registers.
  int RegisterAllocUnit;
  /// Register file partitions (warp schedulers) per SM. On cc 2.x and 3.x this is the
  /// occupancy calculator's warp allocation granularity (2 and 4): warps limited by
  /// registers are rounded down to a multiple of it.
  int SubPartitions;
  /// Largest shared-memory carveout per SM, bytes.
  int SharedPerSmBytes;
  /// Shared memory per block without opt-in, bytes (48 KiB).
  int SharedPerBlockBytes;
  /// Shared memory per block with cudaFuncAttributeMaxDynamicSharedMemorySize, bytes.
  int SharedPerBlockOptinBytes;
  /// Shared memory the driver reserves per block, bytes.
  int ReservedSharedPerBlockBytes;
  /// Shared memory allocation unit, bytes.
  int SharedAllocUnitBytes;
  /// Carveout steps the SM can configure, KiB, ascending (empty: fixed size).
  const int *CarveoutStepsKiB;
  int NumCarveoutSteps;
  /// cc 2.x and 3.x: the shared-memory sizes of the shared/L1 splits the SM can be
  /// configured to (cudaFuncSetCacheConfig), KiB, ascending; the largest is the default
  /// (empty: no split, cc 5.0 on).
  const int *SharedSplitsKiB;
  int NumSharedSplits;
  /// cc 2.x and 3.x: rules of NVIDIA's occupancy calculator spreadsheet, and an
  /// architecture CUDA 12 and newer can no longer compile for.
  bool Legacy;
  /// Block barriers per SM = BarrierBlocksFactor x MaxBlocksPerSm (0: no barrier limit
  /// in the occupancy model, i.e. before cc 9.0).
  int BarrierBlocksFactor;
  /// Virtual resources per SM (0: not modelled on this architecture).
  int VirtualResourcesPerSm;
  /// cc 6.0 only: also require the launch to fit a 4-sub-partition Pascal SM.
  bool PascalForwardCompatCheck;

  // --- AMD ------------------------------------------------------------------------
  /// SIMDs (execution units) per CU (per WGP in WGP mode).
  int SimdsPerCu;
  /// Wavefronts per SIMD.
  int MaxWavesPerSimd;
  /// VGPRs per lane per SIMD, and their allocation granule.
  int VgprsPerSimd;
  int VgprAllocGranule;
  /// VGPRs one wave may address.
  int MaxVgprsPerWave;
  /// SGPRs per SIMD (0: SGPRs do not limit occupancy, gfx10+).
  int SgprsPerSimd;
  /// SGPRs one wave may address.
  int MaxSgprsPerWave;
  /// LDS per CU (per WGP), bytes; LDS one workgroup may use, bytes; allocation granule.
  int LdsPerCuBytes;
  int LdsPerWorkgroupBytes;
  int LdsAllocGranuleBytes;
  /// Workgroups with more than one wave each consume a barrier; at most this many.
  int MaxBarrierWorkgroupsPerCu;

  bool isNvidia() const { return Vendor == GpuVendor::Nvidia; }
  bool isAmd() const { return Vendor == GpuVendor::Amd; }
  /// Compute capability as "8.6" (NVIDIA) or the gfx name (AMD).
  std::string displayVersion() const;
};

/// A contiguous run of architecture rows.
struct ArchRange {
  const GpuArch *First;
  const GpuArch *Last;
  const GpuArch *begin() const { return First; }
  const GpuArch *end() const { return Last; }
  std::size_t size() const { return static_cast<std::size_t>(Last - First); }
};

/// Every known architecture, NVIDIA rows by compute capability, then AMD rows.
ArchRange allArchs();

/// Looks an architecture up by "sm_86", "compute_86", "sm_90a", "8.6", "86", "gfx906"
/// (case-insensitive, also "gfx906:xnack-"); nullptr when unknown.
const GpuArch *findArch(std::string_view Name);

/// The same, for code compiled with WaveSize lanes per wavefront: RDNA rows (wave32 by
/// default) have a wave64 variant (-mwavefrontsize64) with its VGPR budget; 0 or the row's
/// own size gives the row; nullptr for a size the architecture does not run.
const GpuArch *findArch(std::string_view Name, int WaveSize);

/// Comma-separated list of the names findArch knows, for error messages.
std::string knownArchNames();

/// The limits a launch is checked against, and the one place each comparison is written:
/// threads per block (workgroup), block dimensions (threads), grid dimensions (blocks),
/// shared memory (LDS) per block without and with the opt-in (bytes).
struct LaunchLimits {
  uint64_t MaxThreadsPerBlock;
  std::array<uint64_t, 3> MaxBlock; ///< x, y, z, threads
  std::array<uint64_t, 3> MaxGrid;  ///< x, y, z, blocks
  /// Bytes a block may use without cudaFuncSetAttribute (NVIDIA: 48 KiB, also the most
  /// it may declare statically; AMD: the workgroup's LDS).
  uint64_t DefaultSharedBytes;
  /// Bytes a block may use at most, with the opt-in; nullopt when the target is not known.
  std::optional<uint64_t> OptinSharedBytes;

  bool threadsOver(uint64_t ThreadsPerBlock) const {
    return ThreadsPerBlock > MaxThreadsPerBlock;
  }
  bool blockDimOver(unsigned Dim, uint64_t Threads) const { return Threads > MaxBlock[Dim]; }
  bool gridDimOver(unsigned Dim, uint64_t Blocks) const { return Blocks > MaxGrid[Dim]; }
};

/// CUDA's launch limits from compute capability 3.0 on (CUDA C++ Programming Guide,
/// technical specifications per compute capability; sm_2x's grid x is 65535): for a
/// launch whose target is not known. No opt-in maximum.
inline constexpr LaunchLimits PortableLaunchLimits = {
    1024, {1024, 1024, 64}, {2147483647, 65535, 65535}, 48 * 1024, std::nullopt};

/// The launch limits of Arch (its row's fields); PortableLaunchLimits for nullptr.
LaunchLimits launchLimits(const GpuArch *Arch);

/// Whether an architecture name is AMD's ("gfx906", "GFX90A:xnack-"), known to the table
/// or not: the one place that tells the vendor from a name.
bool isAmdArchName(std::string_view Name);

/// The architectures warplint picks when nothing names one, each said once here:
/// a lone CUDA file (no compile database, no --arch) is parsed for DefaultCudaArch;
/// a HIP command that names no --offload-arch is parsed for DefaultHipArch;
/// an nvcc command with no -arch/-gencode compiles for nvcc 13's own default, NvccDefaultArch.
inline constexpr std::string_view DefaultCudaArch = "sm_86";
inline constexpr std::string_view DefaultHipArch = "gfx906";
inline constexpr std::string_view NvccDefaultArch = "sm_75";

} // namespace warplint
