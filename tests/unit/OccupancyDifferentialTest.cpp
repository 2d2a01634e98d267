//===- OccupancyDifferentialTest.cpp - warplint's model vs cuda_occupancy.h -===//
//
// Compares blocks per SM, every per-resource limit, the limiter set and the allocations
// with NVIDIA's header from the installed toolkit over a grid of configurations on
// every NVIDIA architecture. Skipped when the toolkit's header is not installed.
//
//===----------------------------------------------------------------------------===//
#include "tests/differential/CudaOccReference.h"
#include "tests/differential/OccupancyGrid.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace warplint;

#ifdef WARPLINT_CUDA_OCCUPANCY_H
namespace {

std::string describe(const difftest::GridConfig &C) {
  return std::string(C.Arch->Name) + " threads=" + std::to_string(C.Threads) +
         " regs=" + std::to_string(C.Res.RegistersPerThread) +
         " static=" + std::to_string(C.Res.StaticSharedBytes) +
         " dyn=" + std::to_string(C.DynamicSharedBytes) +
         " optin=" + std::to_string(C.Res.OptinDynamicSharedBytes) +
         " carveout=" + std::to_string(C.Res.CarveoutPercent) +
         " split=" + std::to_string(C.Res.SharedSplitBytes) +
         " barriers=" + std::to_string(C.Res.Barriers);
}

/// Compares one configuration; returns false (after one failure message) on mismatch.
bool sameAsHeader(const difftest::GridConfig &C) {
  difftest::ReferenceResult Ref =
      difftest::referenceOccupancy(*C.Arch, C.Res, C.Threads, C.DynamicSharedBytes);
  OccupancyResult Ours =
      computeOccupancy(*C.Arch, C.Res, LaunchShape::threads(C.Threads, C.DynamicSharedBytes));
  const cudaOccResult &H = Ref.Result;
  bool Same = Ref.Ok && Ours.BlocksPerSm == H.activeBlocksPerMultiprocessor &&
              Ours.canLaunch() == (H.activeBlocksPerMultiprocessor > 0) &&
              Ours.limit(Resource::Warps) == H.blockLimitWarps &&
              Ours.limit(Resource::Registers) == H.blockLimitRegs &&
              Ours.limit(Resource::SharedMemory) == H.blockLimitSharedMem &&
              Ours.limit(Resource::Blocks) == H.blockLimitBlocks &&
              Ours.limit(Resource::Barriers) == H.blockLimitBarriers &&
              Ours.limit(Resource::VirtualResources) == H.blockLimitVirtual &&
              Ours.AllocatedRegistersPerBlock == H.allocatedRegistersPerBlock &&
              Ours.AllocatedSharedBytesPerBlock == H.allocatedSharedMemPerBlock;
  // The header ORs limiter bits before the barrier limit is applied; with at most one
  // barrier per block the barrier limit never undercuts the others, so the sets agree.
  if (Same && Ours.canLaunch())
    Same = Ours.Limiters == H.limitingFactors;
  if (!Same)
    ADD_FAILURE() << describe(C) << ": header ok=" << Ref.Ok
                  << " blocks=" << H.activeBlocksPerMultiprocessor
                  << " limits w/r/s/b/bar=" << H.blockLimitWarps << "/" << H.blockLimitRegs << "/"
                  << H.blockLimitSharedMem << "/" << H.blockLimitBlocks << "/"
                  << H.blockLimitBarriers << " mask=" << H.limitingFactors
                  << " allocR=" << H.allocatedRegistersPerBlock
                  << " allocS=" << H.allocatedSharedMemPerBlock
                  << "; warplint blocks=" << Ours.BlocksPerSm
                  << " limits w/r/s/b/bar=" << Ours.limit(Resource::Warps) << "/"
                  << Ours.limit(Resource::Registers) << "/" << Ours.limit(Resource::SharedMemory)
                  << "/" << Ours.limit(Resource::Blocks) << "/" << Ours.limit(Resource::Barriers)
                  << " mask=" << Ours.Limiters << " allocR=" << Ours.AllocatedRegistersPerBlock
                  << " allocS=" << Ours.AllocatedSharedBytesPerBlock
                  << (Ours.Failure ? " failure: " + Ours.Failure->Message : std::string());
  return Same;
}

TEST(OccupancyDifferential, BlocksPerSmOverTheGrid) {
  long long Count = 0, Mismatches = 0, Launchable = 0;
  difftest::forEachGridConfig([&](const difftest::GridConfig &C) {
    ++Count;
    if (Mismatches < 20 && !sameAsHeader(C))
      ++Mismatches;
    Launchable +=
        computeOccupancy(*C.Arch, C.Res, LaunchShape::threads(C.Threads, C.DynamicSharedBytes))
            .canLaunch();
  });
  std::printf("compared %lld configurations (%lld launchable) with cuda_occupancy.h\n", Count,
              Launchable);
  RecordProperty("configurations", std::to_string(Count));
  EXPECT_GE(Count, 10000);
  EXPECT_GE(Launchable, Count / 4);
  EXPECT_EQ(Mismatches, 0);
}

TEST(OccupancyDifferential, CarveoutsBarriersAndVirtualResources) {
  long long Count = 0, Mismatches = 0;
  for (int Carveout : {-1, 0, 10, 25, 33, 50, 67, 75, 100})
    for (int Barriers : {0, 1})
      for (int Virtual : {0, 1, 5})
        difftest::forEachGridConfig(
            [&](difftest::GridConfig C) {
              C.Res.CarveoutPercent = Carveout;
              C.Res.Barriers = Barriers;
              C.Res.VirtualResources = Virtual;
              ++Count;
              if (Mismatches < 20 && !sameAsHeader(C))
                ++Mismatches;
            },
            97);
  std::printf("compared %lld carveout/barrier/virtual-resource configurations\n", Count);
  EXPECT_GE(Count, 10000);
  EXPECT_EQ(Mismatches, 0);
}

// Kepler's shared/L1 splits (16/32/48 KiB; GK210's 80/96/112) against the header's cache
// configurations, over the whole grid of every cc 3.x row.
TEST(OccupancyDifferential, KeplerSharedL1Splits) {
  long long Count = 0, Mismatches = 0, Launchable = 0;
  difftest::forEachGridConfig([&](difftest::GridConfig C) {
    if (!C.Arch->Legacy)
      return;
    for (int I = 0; I < C.Arch->NumSharedSplits; ++I) {
      C.Res.SharedSplitBytes = uint64_t(C.Arch->SharedSplitsKiB[I]) * 1024;
      ++Count;
      if (Mismatches < 20 && !sameAsHeader(C))
        ++Mismatches;
      Launchable += computeOccupancy(*C.Arch, C.Res,
                                     LaunchShape::threads(C.Threads, C.DynamicSharedBytes))
                        .BlocksPerSm > 0;
    }
  });
  std::printf("compared %lld cc 3.x split configurations (%lld launchable)\n", Count,
              Launchable);
  EXPECT_GE(Count, 10000);
  EXPECT_GE(Launchable, Count / 5);
  EXPECT_EQ(Mismatches, 0);
}

TEST(OccupancyDifferential, MaxPotentialBlockSize) {
  long long Count = 0, Mismatches = 0;
  for (const GpuArch &A : allArchs()) {
    if (!A.isNvidia() || A.Major < 3)
      continue;
    for (int Regs : {0, 16, 32, 40, 64, 96, 128, 255})
      for (uint64_t Static : {0ull, 2048ull, 20000ull})
        for (uint64_t Dyn : {0ull, 4096ull, 12000ull, 30000ull})
          for (int Bounds : {0, 96, 200, 512}) {
            if (Regs > A.MaxRegistersPerThread)
              continue; // sm_30's 63 (the header allows 255 on every cc 3.x)
            KernelResources K;
            K.RegistersPerThread = Regs;
            K.StaticSharedBytes = Static;
            K.LaunchBoundsMaxThreads = Bounds;
            cudaOccDeviceProp P = difftest::referenceDevice(A, 68);
            cudaOccFuncAttributes F = difftest::referenceFunction(K);
            cudaOccDeviceState S = difftest::referenceState(K);
            int HGrid = -1, HBlock = -1;
            ASSERT_EQ(cudaOccMaxPotentialOccupancyBlockSize(&HGrid, &HBlock, &P, &F, &S, Dyn),
                      CUDA_OCC_SUCCESS);
            BlockSizeSuggestion Ours = maxPotentialBlockSize(A, K, Dyn, 68);
            // Dynamic shared memory growing with the block: 16 bytes per thread + Dyn.
            auto PerBlock = [Dyn](int T) { return size_t(Dyn + 16ull * T); };
            int HGridV = -1, HBlockV = -1;
            ASSERT_EQ(cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(&HGridV, &HBlockV, &P, &F,
                                                                        &S, PerBlock),
                      CUDA_OCC_SUCCESS);
            BlockSizeSuggestion OursV = maxPotentialBlockSizeVariableSmem(
                A, K, [Dyn](int T) { return uint64_t(Dyn + 16ull * T); }, 68);
            Count += 2;
            if (Ours.BlockSize != HBlock || Ours.MinGridSize != HGrid ||
                OursV.BlockSize != HBlockV || OursV.MinGridSize != HGridV) {
              if (++Mismatches <= 20)
                ADD_FAILURE() << A.Name << " regs=" << Regs << " static=" << Static
                              << " dyn=" << Dyn << " bounds=" << Bounds << ": header " << HBlock
                              << "/" << HGrid << " variable " << HBlockV << "/" << HGridV
                              << "; warplint " << Ours.BlockSize << "/" << Ours.MinGridSize
                              << " variable " << OursV.BlockSize << "/" << OursV.MinGridSize;
            }
          }
  }
  std::printf("compared %lld max-potential-block-size answers\n", Count);
  EXPECT_EQ(Mismatches, 0);
}

} // namespace
#else
TEST(OccupancyDifferential, BlocksPerSmOverTheGrid) {
  GTEST_SKIP() << "cuda_occupancy.h not found (install the CUDA toolkit and reconfigure)";
}
#endif
