//===- Arch.cpp - the GPU architecture table and its name lookup ----------===//
#include "warplint/core/Arch.h"

#include <vector>

#include <array>
#include <cctype>
#include <cstdlib>

namespace warplint {
namespace {

constexpr int KiB = 1024;

// Carveout steps an SM can be configured to, KiB (the occupancy model rounds a request
// up to the next step). Facts from cuda_occupancy.h (CUDA 13.0).
constexpr int VoltaSteps[] = {0, 8, 16, 32, 64, 96};
constexpr int TuringSteps[] = {32, 64};
constexpr int GA100Steps[] = {0, 8, 16, 32, 64, 100, 132, 164};
constexpr int GA10xSteps[] = {0, 8, 16, 32, 64, 100};
constexpr int HopperSteps[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

// Shared/L1 splits of the legacy SMs, the shared part in KiB (cudaFuncSetCacheConfig):
// Fermi 16/48 of 64 KiB (CUDA C Programming Guide, cc 2.x), Kepler 16/32/48 of 64 KiB
// and GK210's 80/96/112 of 128 KiB (Kepler tuning guide; cuda_occupancy.h (CUDA 13.0)
// derives the same three from sharedMemPerMultiprocessor: high, high - 32 KiB, midpoint).
constexpr int FermiSplits[] = {16, 48};
constexpr int KeplerSplits[] = {16, 32, 48};
constexpr int GK210Splits[] = {80, 96, 112};

// What every NVIDIA row shares (CUDA Programming Guide, "Technical Specifications per
// Compute Capability"; CCCL arch_traits.h `__common_arch_traits`).
GpuArch nvidiaBase(const char *Name, int Major, int Minor, const char *Family, const char *Source) {
  GpuArch A{};
  A.Name = Name;
  A.Vendor = GpuVendor::Nvidia;
  A.Major = Major;
  A.Minor = Minor;
  A.Family = Family;
  A.Source = Source;
  A.WarpSize = 32;
  A.MaxThreadsPerBlock = 1024;
  A.MaxBlockDimX = 1024;
  A.MaxBlockDimY = 1024;
  A.MaxBlockDimZ = 64;
  A.MaxGridDimX = 2147483647;
  A.MaxGridDimY = 65535;
  A.MaxGridDimZ = 65535;
  A.RegistersPerSm = 64 * KiB;
  A.RegistersPerBlock = 64 * KiB;
  A.MaxRegistersPerThread = 255;
  A.RegisterAllocUnit = 256;
  A.SubPartitions = 4;
  A.SharedPerBlockBytes = 48 * KiB;
  A.SharedPerBlockOptinBytes = 48 * KiB;
  A.ReservedSharedPerBlockBytes = Major >= 8 ? 1 * KiB : 0;
  A.SharedAllocUnitBytes = Major >= 8 ? 128 : 256;
  A.CarveoutStepsKiB = nullptr;
  A.NumCarveoutSteps = 0;
  A.SharedSplitsKiB = nullptr;
  A.NumSharedSplits = 0;
  A.Legacy = false;
  // Barriers limit blocks from cc 9.0 on; cc 5.x to 8.x are not modelled (the header
  // only applies the limit from Hopper).
  A.BarrierBlocksFactor = 0;
  A.VirtualResourcesPerSm = Major >= 10 ? 128 : 0;
  A.PascalForwardCompatCheck = false;
  return A;
}

template <std::size_t N> void setSteps(GpuArch &A, const int (&Steps)[N]) {
  A.CarveoutStepsKiB = Steps;
  A.NumCarveoutSteps = static_cast<int>(N);
}

GpuArch nvidia(const char *Name, int Major, int Minor, const char *Family, int ThreadsPerSm,
               int BlocksPerSm, int SharedPerSmKiB, int OptinKiB, const char *Source) {
  GpuArch A = nvidiaBase(Name, Major, Minor, Family, Source);
  A.MaxWarpsPerSm = ThreadsPerSm / 32;
  A.MaxBlocksPerSm = BlocksPerSm;
  A.SharedPerSmBytes = SharedPerSmKiB * KiB;
  A.SharedPerBlockOptinBytes = OptinKiB * KiB;
  return A;
}

/// A cc 2.x or 3.x row, with the rules of NVIDIA's occupancy calculator spreadsheet
/// (GPU data per compute capability): registers allocated per warp in units of
/// RegAllocUnit, warps limited by registers rounded down to WarpGranularity (kept in
/// SubPartitions, where cuda_occupancy.h keeps the same rounding for cc 3.x), shared
/// memory allocated in SmemUnit bytes.
template <std::size_t N>
GpuArch legacy(const char *Name, int Major, int Minor, const char *Family, int ThreadsPerSm,
               int BlocksPerSm, int RegsPerSmK, int MaxRegsPerThread, int RegAllocUnit,
               int WarpGranularity, int SmemUnit, const int (&Splits)[N], const char *Source) {
  GpuArch A = nvidiaBase(Name, Major, Minor, Family, Source);
  A.Legacy = true;
  A.MaxWarpsPerSm = ThreadsPerSm / 32;
  A.MaxBlocksPerSm = BlocksPerSm;
  A.RegistersPerSm = RegsPerSmK * KiB;
  // Per block: 32K on Fermi, 64K on every Kepler (GK210's 128K file included).
  A.RegistersPerBlock = (Major == 2 ? 32 : 64) * KiB;
  A.MaxRegistersPerThread = MaxRegsPerThread;
  A.RegisterAllocUnit = RegAllocUnit;
  A.SubPartitions = WarpGranularity;
  A.SharedAllocUnitBytes = SmemUnit;
  A.SharedSplitsKiB = Splits;
  A.NumSharedSplits = static_cast<int>(N);
  A.SharedPerSmBytes = Splits[N - 1] * KiB;
  A.SharedPerBlockBytes = 48 * KiB;
  A.SharedPerBlockOptinBytes = 48 * KiB;
  // Fermi grids are at most 65535 blocks in x; 2^31 - 1 from cc 3.0.
  if (Major == 2)
    A.MaxGridDimX = 65535;
  return A;
}

GpuArch amd(const char *Name, int Major, int Minor, const char *Family, int WaveSize,
            int SimdsPerCu, int WavesPerSimd, int VgprsPerSimd, int VgprGranule, int MaxVgprs,
            int SgprsPerSimd, int MaxSgprs, int LdsPerCuKiB, int BarrierWorkgroups,
            const char *Source) {
  GpuArch A{};
  A.Name = Name;
  A.Vendor = GpuVendor::Amd;
  A.Major = Major;
  A.Minor = Minor;
  A.Family = Family;
  A.Source = Source;
  A.WarpSize = WaveSize;
  A.MaxThreadsPerBlock = 1024;
  A.MaxBlockDimX = 1024;
  A.MaxBlockDimY = 1024;
  A.MaxBlockDimZ = 1024;
  A.MaxGridDimX = 2147483647;
  A.MaxGridDimY = 65535;
  A.MaxGridDimZ = 65535;
  A.SimdsPerCu = SimdsPerCu;
  A.MaxWavesPerSimd = WavesPerSimd;
  A.MaxWarpsPerSm = SimdsPerCu * WavesPerSimd;
  // A single-wave workgroup takes no barrier, so only the wave slots bound them.
  A.MaxBlocksPerSm = A.MaxWarpsPerSm;
  A.VgprsPerSimd = VgprsPerSimd;
  A.VgprAllocGranule = VgprGranule;
  A.MaxVgprsPerWave = MaxVgprs;
  A.SgprsPerSimd = SgprsPerSimd;
  A.MaxSgprsPerWave = MaxSgprs;
  A.LdsPerCuBytes = LdsPerCuKiB * KiB;
  A.LdsPerWorkgroupBytes = 64 * KiB;
  A.LdsAllocGranuleBytes = 512; // 128 dwords (AMDGPUUsage, COMPUTE_PGM_RSRC2.LDS_SIZE)
  A.MaxBarrierWorkgroupsPerCu = BarrierWorkgroups;
  // NVIDIA-only fields stay zero; the shared-memory names mirror LDS for printing.
  A.SharedPerSmBytes = A.LdsPerCuBytes;
  A.SharedPerBlockBytes = A.LdsPerWorkgroupBytes;
  A.SharedPerBlockOptinBytes = A.LdsPerWorkgroupBytes;
  A.SharedAllocUnitBytes = A.LdsAllocGranuleBytes;
  return A;
}

std::array<GpuArch, 32> buildTable() {
  std::array<GpuArch, 32> T = {
      // Legacy: NVIDIA's occupancy calculator spreadsheet (CUDA_Occupancy_Calculator.xls,
      // GPU data) and the CUDA C Programming Guide's cc table of CUDA 8 to 11; cc 3.x
      // also cuda_occupancy.h (CUDA 13.0), which still has their rules.
      legacy("sm_20", 2, 0, "Fermi (GF100)", 1536, 8, 32, 63, 64, 2, 128, FermiSplits,
             "NVIDIA occupancy calculator (cc 2.0) + CUDA C Programming Guide (cc 2.x)"),
      legacy("sm_21", 2, 1, "Fermi (GF10x)", 1536, 8, 32, 63, 64, 2, 128, FermiSplits,
             "NVIDIA occupancy calculator (cc 2.1) + CUDA C Programming Guide (cc 2.x)"),
      legacy("sm_30", 3, 0, "Kepler (GK10x)", 2048, 16, 64, 63, 256, 4, 256, KeplerSplits,
             "NVIDIA occupancy calculator (cc 3.0: 63 registers/thread) + "
             "cuda_occupancy.h (CUDA 13.0)"),
      legacy("sm_32", 3, 2, "Kepler (Tegra K1)", 2048, 16, 64, 255, 256, 4, 256, KeplerSplits,
             "NVIDIA occupancy calculator (cc 3.2) + cuda_occupancy.h (CUDA 13.0)"),
      legacy("sm_35", 3, 5, "Kepler (GK110)", 2048, 16, 64, 255, 256, 4, 256, KeplerSplits,
             "NVIDIA occupancy calculator (cc 3.5) + cuda_occupancy.h (CUDA 13.0)"),
      legacy("sm_37", 3, 7, "Kepler (GK210)", 2048, 16, 128, 255, 256, 4, 256, GK210Splits,
             "NVIDIA occupancy calculator (cc 3.7: 128K registers, 112 KiB shared) + "
             "cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_50", 5, 0, "Maxwell", 2048, 32, 64, 48,
             "CUDA C++ Programming Guide (cc table) + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_52", 5, 2, "Maxwell", 2048, 32, 96, 48,
             "CUDA C++ Programming Guide (cc table) + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_53", 5, 3, "Maxwell (Tegra X1)", 2048, 32, 64, 48,
             "CUDA C++ Programming Guide (cc table: 32K registers per block) + "
             "cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_60", 6, 0, "Pascal (GP100)", 2048, 32, 64, 48,
             "CCCL arch_traits.h sm_60 + cuda_occupancy.h (CUDA 13.0: 2 sub-partitions)"),
      nvidia("sm_61", 6, 1, "Pascal", 2048, 32, 96, 48,
             "CCCL arch_traits.h sm_61 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_62", 6, 2, "Pascal (Tegra X2)", 2048, 32, 64, 48,
             "CCCL arch_traits.h sm_62 (32K registers per block) + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_70", 7, 0, "Volta", 2048, 32, 96, 96,
             "CCCL arch_traits.h sm_70 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_72", 7, 2, "Volta (Xavier)", 2048, 32, 96, 96,
             "CUDA C++ Programming Guide (cc table) + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_75", 7, 5, "Turing", 1024, 16, 64, 64,
             "CCCL arch_traits.h sm_75 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_80", 8, 0, "Ampere (GA100)", 2048, 32, 164, 163,
             "CCCL arch_traits.h sm_80 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_86", 8, 6, "Ampere (GA10x)", 1536, 16, 100, 99,
             "CCCL arch_traits.h sm_86 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_87", 8, 7, "Ampere (Orin)", 1536, 16, 164, 163,
             "CCCL arch_traits.h sm_87 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_89", 8, 9, "Ada Lovelace", 1536, 24, 100, 99,
             "CCCL arch_traits.h sm_89 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_90", 9, 0, "Hopper", 2048, 32, 228, 227,
             "CCCL arch_traits.h sm_90 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_100", 10, 0, "Blackwell (B200)", 2048, 32, 228, 227,
             "CCCL arch_traits.h sm_100 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_103", 10, 3, "Blackwell (B300)", 2048, 32, 228, 227,
             "CCCL arch_traits.h sm_103 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_110", 11, 0, "Blackwell (Thor)", 1536, 24, 228, 227,
             "CCCL arch_traits.h sm_110 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_120", 12, 0, "Blackwell (RTX 50)", 1536, 24, 100, 99,
             "CCCL arch_traits.h sm_120 + cuda_occupancy.h (CUDA 13.0)"),
      nvidia("sm_121", 12, 1, "Blackwell (GB10)", 1536, 24, 100, 99,
             "CCCL arch_traits.h sm_121 + cuda_occupancy.h (CUDA 13.0)"),
      // AMD: LLVM AMDGPU backend (AMDGPUBaseInfo.cpp: getMaxWavesPerEU, getEUsPerCU,
      // getTotalNumVGPRs, getVGPRAllocGranule, getTotalNumSGPRs, getLocalMemorySize,
      // getMaxWorkGroupsPerCU). RDNA rows assume HIP's defaults: wave32, WGP mode.
      amd("gfx900", 9, 0, "GCN5 (Vega 10)", 64, 4, 10, 256, 4, 256, 800, 102, 64, 16,
          "LLVM AMDGPUBaseInfo (GFX9)"),
      amd("gfx906", 9, 6, "GCN5 (Vega 20)", 64, 4, 10, 256, 4, 256, 800, 102, 64, 16,
          "LLVM AMDGPUBaseInfo (GFX9)"),
      amd("gfx908", 9, 8, "CDNA1 (MI100)", 64, 4, 10, 256, 4, 256, 800, 102, 64, 16,
          "LLVM AMDGPUBaseInfo (GFX9; AGPRs are a separate file, not modelled)"),
      amd("gfx90a", 9, 10, "CDNA2 (MI200)", 64, 4, 8, 512, 8, 512, 800, 102, 64, 16,
          "LLVM AMDGPUBaseInfo (GFX90A: 8 waves/SIMD, 512 unified VGPRs, granule 8)"),
      amd("gfx942", 9, 42, "CDNA3 (MI300)", 64, 4, 8, 512, 8, 512, 800, 102, 64, 16,
          "LLVM AMDGPUBaseInfo (GFX90A insts: 8 waves/SIMD, 512 unified VGPRs, granule 8)"),
      amd("gfx1030", 10, 30, "RDNA2", 32, 4, 16, 1024, 16, 256, 0, 106, 128, 32,
          "LLVM AMDGPUBaseInfo (GFX10.3, wave32, WGP mode)"),
      amd("gfx1100", 11, 0, "RDNA3", 32, 4, 16, 1536, 24, 256, 0, 106, 128, 32,
          "LLVM AMDGPUBaseInfo (GFX11, 1.5x VGPRs, wave32, WGP mode)"),
  };
  for (GpuArch &A : T) {
    if (!A.isNvidia() || A.Legacy)
      continue;
    if ((A.Major == 5 && A.Minor == 3) || (A.Major == 6 && A.Minor == 2))
      A.RegistersPerBlock = 32 * KiB;
    if (A.Major == 6 && A.Minor == 0) {
      A.SubPartitions = 2;
      A.PascalForwardCompatCheck = true;
    }
    if (A.Major == 7)
      A.Minor == 5 ? setSteps(A, TuringSteps) : setSteps(A, VoltaSteps);
    if (A.Major == 8)
      (A.Minor == 0 || A.Minor == 7) ? setSteps(A, GA100Steps) : setSteps(A, GA10xSteps);
    if (A.Major == 9 || A.Major == 10 || A.Major == 11)
      setSteps(A, HopperSteps);
    if (A.Major == 12)
      setSteps(A, GA10xSteps);
    // Barriers available per SM, as a multiple of the block limit (cc 9.0 on).
    if (A.Major >= 9)
      A.BarrierBlocksFactor = (A.Major == 11 || A.Major == 12) ? 1 : 2;
  }
  return T;
}

const std::array<GpuArch, 32> &table() {
  static const std::array<GpuArch, 32> T = buildTable();
  return T;
}

std::string lower(std::string_view S) {
  std::string R(S);
  for (char &C : R)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return R;
}

bool allDigits(std::string_view S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
  return true;
}

/// The RDNA rows compiled for wave64 (-mwavefrontsize64): the same wave slots per SIMD,
/// half the VGPRs per lane and half the allocation granule (LLVM AMDGPUBaseInfo
/// getTotalNumVGPRs and getVGPRAllocGranule for a subtarget without wavefrontsize32).
const std::vector<GpuArch> &wave64Table() {
  static const std::vector<GpuArch> T = [] {
    std::vector<GpuArch> Out;
    for (const GpuArch &A : table()) {
      if (!A.isAmd() || A.WarpSize != 32)
        continue;
      GpuArch W = A;
      W.WarpSize = 64;
      W.VgprsPerSimd = A.VgprsPerSimd / 2;
      W.VgprAllocGranule = A.VgprAllocGranule / 2;
      W.Source = A.Major == 11 ? "LLVM AMDGPUBaseInfo (GFX11, 1.5x VGPRs, wave64, WGP mode)"
                               : "LLVM AMDGPUBaseInfo (GFX10.3, wave64, WGP mode)";
      Out.push_back(W);
    }
    return Out;
  }();
  return T;
}

} // namespace

const GpuArch *findArch(std::string_view Name, int WaveSize) {
  const GpuArch *A = findArch(Name);
  if (!A || WaveSize == 0 || A->WarpSize == WaveSize)
    return A;
  if (!A->isAmd() || WaveSize != 64)
    return nullptr;
  for (const GpuArch &W : wave64Table())
    if (std::string_view(W.Name) == A->Name)
      return &W;
  return nullptr;
}

std::string GpuArch::displayVersion() const {
  if (isAmd())
    return Name;
  return std::to_string(Major) + "." + std::to_string(Minor);
}

ArchRange allArchs() {
  const auto &T = table();
  return {T.data(), T.data() + T.size()};
}

bool isAmdArchName(std::string_view Name) {
  return Name.size() >= 3 && (Name[0] | 0x20) == 'g' && (Name[1] | 0x20) == 'f' &&
         (Name[2] | 0x20) == 'x';
}

const GpuArch *findArch(std::string_view Name) {
  std::string S = lower(Name);
  if (isAmdArchName(S)) {
    S = S.substr(0, S.find(':'));
    for (const GpuArch &A : allArchs())
      if (A.isAmd() && S == A.Name)
        return &A;
    return nullptr;
  }
  int Major = -1, Minor = -1;
  if (std::size_t Dot = S.find('.'); Dot != std::string::npos) {
    std::string_view L = std::string_view(S).substr(0, Dot);
    std::string_view R = std::string_view(S).substr(Dot + 1);
    if (!allDigits(L) || !allDigits(R) || L.size() > 2 || R.size() != 1)
      return nullptr;
    Major = std::atoi(std::string(L).c_str());
    Minor = R[0] - '0';
  } else {
    std::string_view V = S;
    for (std::string_view P : {"compute_", "sm_", "sm"})
      if (V.substr(0, P.size()) == P) {
        V.remove_prefix(P.size());
        break;
      }
    // Family- and arch-specific variants (sm_90a, sm_100f) share the base limits.
    if (!V.empty() && (V.back() == 'a' || V.back() == 'f'))
      V.remove_suffix(1);
    if (!allDigits(V) || V.size() < 2 || V.size() > 3)
      return nullptr;
    int N = std::atoi(std::string(V).c_str());
    Major = N / 10;
    Minor = N % 10;
  }
  for (const GpuArch &A : allArchs())
    if (A.isNvidia() && A.Major == Major && A.Minor == Minor)
      return &A;
  return nullptr;
}

std::string knownArchNames() {
  std::string R;
  for (const GpuArch &A : allArchs()) {
    if (!R.empty())
      R += ", ";
    R += A.Name;
  }
  return R;
}

LaunchLimits launchLimits(const GpuArch *A) {
  if (!A)
    return PortableLaunchLimits;
  LaunchLimits L = PortableLaunchLimits;
  L.MaxThreadsPerBlock = uint64_t(A->MaxThreadsPerBlock);
  L.MaxBlock = {uint64_t(A->MaxBlockDimX), uint64_t(A->MaxBlockDimY), uint64_t(A->MaxBlockDimZ)};
  L.MaxGrid = {uint64_t(A->MaxGridDimX), uint64_t(A->MaxGridDimY), uint64_t(A->MaxGridDimZ)};
  if (A->isNvidia()) {
    L.DefaultSharedBytes = uint64_t(A->SharedPerBlockBytes);
    L.OptinSharedBytes = uint64_t(A->SharedPerBlockOptinBytes);
  } else {
    L.DefaultSharedBytes = uint64_t(A->LdsPerWorkgroupBytes);
    L.OptinSharedBytes = uint64_t(A->LdsPerWorkgroupBytes);
  }
  return L;
}

} // namespace warplint
