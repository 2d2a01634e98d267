//===- OccupancyTest.cpp - table-driven tests of the occupancy model ------===//
#include "warplint/core/Occupancy.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

const GpuArch &arch(const char *Name) {
  const GpuArch *A = findArch(Name);
  EXPECT_NE(A, nullptr) << Name;
  return A ? *A : *allArchs().begin();
}

struct Case {
  const char *Name;
  const char *Arch;
  int64_t Threads;
  int Registers;
  uint64_t StaticSmem;
  uint64_t DynamicSmem;
  int BlocksPerSm;
  int ActiveWarps;
  unsigned Limiters; // limiterBit()s; 0: don't check
};

constexpr unsigned Warps = limiterBit(Resource::Warps);
constexpr unsigned Regs = limiterBit(Resource::Registers);
constexpr unsigned Smem = limiterBit(Resource::SharedMemory);
constexpr unsigned Blocks = limiterBit(Resource::Blocks);
constexpr unsigned Bars = limiterBit(Resource::Barriers);

class NvidiaCases : public ::testing::TestWithParam<Case> {};

TEST_P(NvidiaCases, BlocksWarpsLimiters) {
  const Case &C = GetParam();
  KernelResources K;
  K.RegistersPerThread = C.Registers;
  K.StaticSharedBytes = C.StaticSmem;
  OccupancyResult R =
      computeOccupancy(arch(C.Arch), K, LaunchShape::threads(C.Threads, C.DynamicSmem));
  EXPECT_EQ(R.BlocksPerSm, C.BlocksPerSm);
  EXPECT_EQ(R.ActiveWarpsPerSm, C.ActiveWarps);
  if (C.Limiters)
    EXPECT_EQ(R.Limiters, C.Limiters);
  EXPECT_TRUE(R.canLaunch()) << R.Failure->Message;
}

INSTANTIATE_TEST_SUITE_P(
    WorkedExamples, NvidiaCases,
    ::testing::Values(
        // RTX 3080: 32-thread blocks hit the 16-block limit: 16 of 48 warps.
        Case{"Rtx3080TinyBlocks", "8.6", 32, 16, 0, 0, 16, 16, Blocks},
        // The classic register cliff on Pascal: 64 registers fill the file exactly.
        Case{"Pascal512x64", "6.1", 512, 64, 0, 0, 2, 32, Regs},
        Case{"Pascal512x65", "6.1", 512, 65, 0, 0, 1, 16, Regs},
        Case{"GP100_512x64", "6.0", 512, 64, 0, 0, 2, 32, Regs},
        Case{"GP100_512x65", "6.0", 512, 65, 0, 0, 1, 16, Regs},
        // RTX 3080, 256 threads: 10 KiB dynamic -> 6 blocks (warps), 40 KiB -> 2 blocks.
        Case{"Rtx3080Dyn10K", "8.6", 256, 32, 0, 10240, 6, 48, Warps},
        Case{"Rtx3080Dyn40K", "8.6", 256, 32, 0, 40960, 2, 16, Smem}),
    [](const auto &I) { return std::string(I.param.Name); });

INSTANTIATE_TEST_SUITE_P(
    Boundaries, NvidiaCases,
    ::testing::Values(
        // The largest block.
        Case{"Block1024On86", "8.6", 1024, 0, 0, 0, 1, 32, Warps},
        Case{"Block1024On75", "7.5", 1024, 32, 0, 0, 1, 32, Warps},
        // Idle lanes still cost a warp: 40 threads are 2 warps.
        Case{"PartialWarp", "8.0", 40, 0, 0, 0, 32, 64, Warps | Blocks},
        // Zero shared memory on cc 8.x still allocates the 1 KiB reserve.
        Case{"ReservedOnly", "8.0", 64, 0, 0, 0, 32, 64, Warps | Blocks},
        // Exactly 48 KiB static + dynamic fits without opt-in; 2 blocks of 49 KiB.
        Case{"Exactly48K", "8.6", 128, 0, 16384, 32768, 2, 8, Smem},
        // 255 registers, the most a thread can have: 8 warps per SM on cc 7.0.
        Case{"MaxRegisters", "7.0", 64, 255, 0, 0, 4, 8, Regs},
        // Register allocation rounds per warp to 256: 33 registers cost like 40.
        Case{"RegRounding33", "8.0", 256, 33, 0, 0, 6, 48, Regs},
        Case{"RegRounding32", "8.0", 256, 32, 0, 0, 8, 64, Regs | Warps},
        // cc 12.0: 24 blocks and 24 barriers (1 per block slot) tie as limiters.
        Case{"BarriersTieOn120", "12.0", 32, 0, 0, 0, 24, 24, Blocks | Bars},
        // cc 9.0: two barriers per block slot, the block limit binds.
        Case{"BarriersOn90", "9.0", 32, 0, 0, 0, 32, 32, Blocks},
        // Shared memory granularity before cc 8.0 is 256 bytes: 19500 B take 19712, so
        // 96 KiB holds 4 blocks (with 128-byte granules it would be 5).
        Case{"SmemGranule70", "7.0", 32, 0, 19500, 0, 4, 4, Smem}),
    [](const auto &I) { return std::string(I.param.Name); });

TEST(Occupancy, ReportsPercentAndAllocation) {
  KernelResources K;
  K.RegistersPerThread = 16;
  OccupancyResult R = computeOccupancy(arch("sm_86"), K, LaunchShape::threads(32));
  EXPECT_EQ(R.MaxWarpsPerSm, 48);
  EXPECT_NEAR(R.Occupancy, 1.0 / 3.0, 1e-9);
  EXPECT_EQ(R.AllocatedRegistersPerBlock, 512);
  EXPECT_EQ(R.AllocatedSharedBytesPerBlock, 1024u);
  EXPECT_EQ(R.limit(Resource::Blocks), 16);
  EXPECT_EQ(R.limit(Resource::Warps), 48);
}

struct FailureCase {
  const char *Name;
  const char *Arch;
  int64_t Threads;
  int Registers;
  uint64_t StaticSmem;
  uint64_t DynamicSmem;
  uint64_t Optin;
  int LaunchBounds;
  LaunchFailureKind Kind;
  const char *MessagePart;
};

class NvidiaFailures : public ::testing::TestWithParam<FailureCase> {};

TEST_P(NvidiaFailures, CannotLaunch) {
  const FailureCase &C = GetParam();
  KernelResources K;
  K.RegistersPerThread = C.Registers;
  K.StaticSharedBytes = C.StaticSmem;
  K.OptinDynamicSharedBytes = C.Optin;
  K.LaunchBoundsMaxThreads = C.LaunchBounds;
  OccupancyResult R =
      computeOccupancy(arch(C.Arch), K, LaunchShape::threads(C.Threads, C.DynamicSmem));
  ASSERT_FALSE(R.canLaunch());
  EXPECT_EQ(R.Failure->Kind, C.Kind) << R.Failure->Message;
  EXPECT_NE(R.Failure->Message.find(C.MessagePart), std::string::npos) << R.Failure->Message;
  EXPECT_EQ(R.BlocksPerSm, 0);
  EXPECT_EQ(R.Occupancy, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Failures, NvidiaFailures,
    ::testing::Values(FailureCase{"Threads1025", "8.6", 1025, 0, 0, 0, 0, 0,
                                  LaunchFailureKind::TooManyThreads,
                                  "1025 threads per block exceed the limit of 1024"},
                      FailureCase{"OverLaunchBounds", "8.0", 512, 0, 0, 0, 0, 256,
                                  LaunchFailureKind::OverLaunchBounds, "__launch_bounds__(256)"},
                      // 1024 threads x 65 registers: over the 64K register file (error 701).
                      FailureCase{"RegisterFile", "8.0", 1024, 65, 0, 0, 0, 0,
                                  LaunchFailureKind::RegisterFileExceeded, "65536-register file"},
                      FailureCase{"Registers256", "9.0", 32, 256, 0, 0, 0, 0,
                                  LaunchFailureKind::TooManyRegisters, "limit of 255"},
                      // Over 48 KiB dynamic without the opt-in attribute.
                      FailureCase{"DynamicNoOptin", "8.6", 256, 0, 0, 49153, 0, 0,
                                  LaunchFailureKind::SharedOverBlockLimit, "cudaFuncSetAttribute"},
                      FailureCase{"StaticOver48K", "9.0", 256, 0, 49153, 0, 0, 0,
                                  LaunchFailureKind::StaticSharedTooLarge, "ptxas"},
                      FailureCase{"DynamicOverOptin", "9.0", 256, 0, 0, 100000, 65536, 0,
                                  LaunchFailureKind::DynamicOverOptin, "64 KiB"},
                      FailureCase{"OptinOverArch", "8.6", 256, 0, 0, 1024, 100 * 1024, 0,
                                  LaunchFailureKind::OptinOverLimit, "99 KiB"},
                      FailureCase{"ZeroThreads", "8.6", 0, 0, 0, 0, 0, 0,
                                  LaunchFailureKind::InvalidInput, "positive"}),
    [](const auto &I) { return std::string(I.param.Name); });

TEST(Occupancy, OptinAllowsLargeDynamicSharedMemory) {
  KernelResources K;
  K.OptinDynamicSharedBytes = 99 * 1024;
  OccupancyResult R = computeOccupancy(arch("sm_86"), K, LaunchShape::threads(256, 99 * 1024));
  ASSERT_TRUE(R.canLaunch()) << R.Failure->Message;
  EXPECT_EQ(R.BlocksPerSm, 1);
  EXPECT_EQ(R.AllocatedSharedBytesPerBlock, 100u * 1024);
  EXPECT_TRUE(R.isLimitedBy(Resource::SharedMemory));
}

TEST(Occupancy, BlockShapeLimits) {
  OccupancyResult R = computeOccupancy(arch("8.0"), {}, LaunchShape::block({8, 2, 65}));
  ASSERT_FALSE(R.canLaunch());
  EXPECT_EQ(R.Failure->Kind, LaunchFailureKind::BlockDimTooLarge);
  // dim3(40, 2): 80 threads, 3 warps with 16 idle lanes.
  R = computeOccupancy(arch("8.0"), {}, LaunchShape::block({40, 2, 1}));
  EXPECT_EQ(R.ThreadsPerBlock, 80);
  EXPECT_EQ(R.WarpsPerBlock, 3);
}

TEST(Occupancy, CarveoutPreferenceLimitsSharedMemory) {
  KernelResources K;
  K.CarveoutPercent = 25; // 25% of 100 KiB -> the 32 KiB step
  OccupancyResult R = computeOccupancy(arch("8.6"), K, LaunchShape::threads(128, 7 * 1024));
  EXPECT_EQ(R.SharedBytesPerSm, 32u * 1024);
  EXPECT_EQ(R.limit(Resource::SharedMemory), 4);
}

TEST(Occupancy, MinBlocksFromLaunchBounds) {
  KernelResources K;
  K.RegistersPerThread = 64;
  K.LaunchBoundsMinBlocks = 4;
  OccupancyResult R = computeOccupancy(arch("8.0"), K, LaunchShape::threads(256));
  EXPECT_EQ(R.BlocksPerSm, 4);
  EXPECT_TRUE(R.MeetsMinBlocks);
  K.RegistersPerThread = 72;
  R = computeOccupancy(arch("8.0"), K, LaunchShape::threads(256));
  EXPECT_EQ(R.BlocksPerSm, 3);
  EXPECT_FALSE(R.MeetsMinBlocks);
}

TEST(MaxPotentialBlockSize, Rtx3080SmallKernel) {
  KernelResources K;
  K.RegistersPerThread = 32;
  BlockSizeSuggestion B = maxPotentialBlockSize(arch("sm_86"), K, 0, 68);
  EXPECT_EQ(B.BlockSize, 768);
  EXPECT_EQ(B.BlocksPerSm, 2);
  EXPECT_EQ(B.MinGridSize, 136);
  EXPECT_DOUBLE_EQ(B.Occupancy, 1.0);
}

TEST(MaxPotentialBlockSize, RespectsLaunchBoundsAndVariableSmem) {
  KernelResources K;
  K.LaunchBoundsMaxThreads = 200;
  BlockSizeSuggestion B = maxPotentialBlockSize(arch("sm_80"), K, 0, 108);
  EXPECT_EQ(B.BlockSize, 128); // 128 x 16 blocks = 2048 threads, the first full answer
  // 16 bytes per thread of dynamic shared memory on cc 7.5 (64 KiB per SM).
  K.LaunchBoundsMaxThreads = 0;
  B = maxPotentialBlockSizeVariableSmem(
      arch("sm_75"), K, [](int T) { return uint64_t(T) * 64; }, 40);
  EXPECT_GT(B.BlockSize, 0);
  EXPECT_EQ(B.DynamicSharedBytes, uint64_t(B.BlockSize) * 64);
  EXPECT_EQ(B.MinGridSize, int64_t(B.BlocksPerSm) * 40);
}

TEST(Waves, LastWaveFullness) {
  auto W = waves(150, 2, 68);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->BlocksPerWave, 136);
  EXPECT_EQ(W->WaveCount, 2);
  EXPECT_EQ(W->LastWaveBlocks, 14);
  EXPECT_NEAR(W->LastWaveFullness, 14.0 / 136, 1e-12);
  EXPECT_NEAR(W->Efficiency, 150.0 / 272, 1e-12);
  W = waves(272, 2, 68);
  EXPECT_EQ(W->WaveCount, 2);
  EXPECT_DOUBLE_EQ(W->LastWaveFullness, 1.0);
  EXPECT_FALSE(waves(0, 2, 68));
  EXPECT_FALSE(waves(10, 0, 68));
}

TEST(NextSteps, PascalRegisterCliff) {
  KernelResources K;
  K.RegistersPerThread = 65;
  std::vector<NextStep> S = nextSteps(arch("6.1"), K, LaunchShape::threads(512));
  ASSERT_EQ(S.size(), 3u);
  const NextStep &Regs = S[0];
  EXPECT_EQ(Regs.What, Resource::Registers);
  EXPECT_TRUE(Regs.Limiting);
  ASSERT_TRUE(Regs.GainAt);
  EXPECT_EQ(*Regs.GainAt, 64);
  EXPECT_EQ(Regs.GainBlocksPerSm, 2);
  // 65..72 registers allocate the same 2304 per warp; 73 still gives 1 block; the
  // launch only fails at 129 (16 warps x 4096 > 64K).
  EXPECT_EQ(Regs.HeadroomUpTo, 128);
  ASSERT_TRUE(Regs.LossBlocksPerSm);
  EXPECT_EQ(*Regs.LossBlocksPerSm, 0);
}

// A 48-thread block on sm_86 (2 warps, 16 block slots: 32 of 48 warps): 96 threads is
// the smallest larger block that reaches 100%; no block size loses up to 768 threads.
TEST(NextSteps, SmallestBlockThatReachesTheBest) {
  KernelResources K;
  K.RegistersPerThread = 32;
  std::vector<NextStep> S = nextSteps(arch("8.6"), K, LaunchShape::threads(48));
  const NextStep &Block = S.back();
  EXPECT_EQ(Block.What, Resource::Warps);
  EXPECT_TRUE(Block.Limiting);
  EXPECT_FALSE(Block.GainAt);
  ASSERT_TRUE(Block.BestAt);
  EXPECT_EQ(*Block.BestAt, 96);
  EXPECT_EQ(Block.BestBlocksPerSm, 16);
  EXPECT_NEAR(Block.BestOccupancy, 1.0, 1e-9);
  EXPECT_EQ(Block.HeadroomUpTo, 768);
  // Already at the best (256 threads: 100%): no BestAt.
  EXPECT_FALSE(nextSteps(arch("8.6"), K, LaunchShape::threads(256)).back().BestAt);
  // Registers and shared memory never get one.
  EXPECT_FALSE(S[0].BestAt);
}

// What a block size alone allows: the kernel's registers and shared memory taken away.
TEST(BlockSizeCeiling, BlockSlotsBoundSmallBlocks) {
  KernelResources K;
  K.RegistersPerThread = 128;
  K.StaticSharedBytes = 48000;
  // sm_86: 16 block slots of 48 warps: 32-thread blocks reach 33.3% at most.
  OccupancyResult C86 = blockSizeCeiling(arch("8.6"), K, LaunchShape::threads(32, 4096));
  EXPECT_EQ(C86.BlocksPerSm, 16);
  EXPECT_NEAR(C86.Occupancy, 16.0 / 48, 1e-9);
  EXPECT_TRUE(C86.isLimitedBy(Resource::Blocks));
  // sm_80: 32 slots of 64 warps: 50%; 64-thread blocks fill all 64 warps.
  EXPECT_NEAR(blockSizeCeiling(arch("8.0"), K, LaunchShape::threads(32)).Occupancy, 0.5, 1e-9);
  EXPECT_NEAR(blockSizeCeiling(arch("8.0"), K, LaunchShape::threads(64)).Occupancy, 1.0, 1e-9);
  // 1024-thread blocks on sm_86: one block of 32 warps in 48 slots, 66.7%.
  OccupancyResult Big = blockSizeCeiling(arch("8.6"), K, LaunchShape::threads(1024));
  EXPECT_EQ(Big.BlocksPerSm, 1);
  EXPECT_TRUE(Big.isLimitedBy(Resource::Warps));
  // The kernel's own figures are at most the ceiling.
  EXPECT_LE(computeOccupancy(arch("8.6"), K, LaunchShape::threads(32, 4096)).Occupancy,
            C86.Occupancy);
}

TEST(NextSteps, SharedMemoryCliff) {
  // RTX 3080, 256 threads, 40 KiB dynamic: 2 blocks; 32 KiB + reserve gives 3.
  std::vector<NextStep> S = nextSteps(arch("8.6"), {}, LaunchShape::threads(256, 40 * 1024));
  const NextStep &Smem = S[1];
  EXPECT_EQ(Smem.What, Resource::SharedMemory);
  EXPECT_TRUE(Smem.Limiting);
  ASSERT_TRUE(Smem.GainAt);
  // 100 KiB / 3 = 34133 B -> a 34048 B allocation, minus the 1 KiB reserve.
  EXPECT_EQ(*Smem.GainAt, 34048 - 1024);
  EXPECT_EQ(Smem.GainBlocksPerSm, 3);
  // Up to 49 KiB allocated (48 KiB usable) still gives 2 blocks, then no opt-in: fails.
  EXPECT_EQ(Smem.HeadroomUpTo, 48 * 1024);
  ASSERT_TRUE(Smem.LossBlocksPerSm);
  EXPECT_EQ(*Smem.LossBlocksPerSm, 0);
}

TEST(Sweeps, RangesAndMonotoneRegisters) {
  const GpuArch &A = arch("8.0");
  auto B = sweepBlockSize(A, {}, 0);
  ASSERT_EQ(B.size(), 32u);
  EXPECT_EQ(B.front().Value, 32);
  EXPECT_EQ(B.back().Value, 1024);
  auto R = sweepRegisters(A, {}, LaunchShape::threads(256));
  ASSERT_EQ(R.size(), 255u);
  for (std::size_t I = 1; I < R.size(); ++I)
    EXPECT_LE(R[I].BlocksPerSm, R[I - 1].BlocksPerSm);
  auto M = sweepSharedMemory(A, {}, LaunchShape::threads(256));
  EXPECT_EQ(M.size(), 48u * 1024 / 128 + 1);
  EXPECT_EQ(M.back().Value, 48 * 1024);
  KernelResources Optin;
  Optin.OptinDynamicSharedBytes = 1;
  M = sweepSharedMemory(A, Optin, LaunchShape::threads(256));
  EXPECT_EQ(M.back().Value, 163 * 1024);
  EXPECT_EQ(M.back().BlocksPerSm, 1);
}

} // namespace

// --- Fermi and Kepler ----------------------------------------------------------------

namespace {

OccupancyResult legacy(const char *Arch, int64_t Threads, int Regs, uint64_t Smem,
                       uint64_t SplitBytes = 0) {
  KernelResources K;
  K.RegistersPerThread = Regs;
  K.SharedSplitBytes = SplitBytes;
  return computeOccupancy(arch(Arch), K, LaunchShape::threads(Threads, Smem));
}

} // namespace

// The occupancy lecture in shared/seeds (Fermi: 32K registers, 1536 threads = 48 warps,
// 8 blocks per SM, 16 or 48 KiB of shared memory): every example as written.
TEST(LegacyOccupancy, FermiLectureRegisters) {
  // 20 registers x 256 threads: 640 per warp, 51 warps -> 50 (granularity 2) -> 6 blocks.
  OccupancyResult R = legacy("sm_20", 256, 20, 0);
  EXPECT_EQ(R.limit(Resource::Registers), 6);
  EXPECT_EQ(R.BlocksPerSm, 6);
  EXPECT_EQ(R.ActiveWarpsPerSm, 48);
  EXPECT_EQ(percentText(R.Occupancy), "100%");
  // 63 registers: 2016 -> 2048 per warp, 16 warps -> 2 blocks of 8 warps = 33.3%.
  R = legacy("sm_20", 256, 63, 0);
  EXPECT_EQ(R.BlocksPerSm, 2);
  EXPECT_EQ(R.ActiveWarpsPerSm, 16);
  EXPECT_EQ(percentText(R.Occupancy), "33.3%");
  EXPECT_EQ(R.Limiters, limiterBit(Resource::Registers));
  // The lecture's 20 + 1 "implicit" register with the calculator's unit of 64: 672 ->
  // 704 per warp, 46 warps -> 5 blocks (83.3%), not the per-thread 1560 threads.
  EXPECT_EQ(legacy("sm_20", 256, 21, 0).BlocksPerSm, 5);
  // 64 registers are over Fermi's 63.
  EXPECT_FALSE(legacy("sm_20", 256, 64, 0).canLaunch());
}

TEST(LegacyOccupancy, FermiLectureSharedMemory) {
  // 32 bytes per thread in 256-thread blocks: 8 KiB, 6 blocks in 48 KiB = 100%.
  OccupancyResult R = legacy("sm_20", 256, 0, 256 * 32);
  EXPECT_EQ(R.limit(Resource::SharedMemory), 6);
  EXPECT_EQ(percentText(R.Occupancy), "100%");
  // A 1024-thread block with 32 KiB: one block, 32 of 48 warps = 66.7%.
  R = legacy("sm_20", 1024, 0, 32 * 1024);
  EXPECT_EQ(R.BlocksPerSm, 1);
  EXPECT_EQ(percentText(R.Occupancy), "66.7%");
  EXPECT_EQ(R.Limiters, limiterBit(Resource::SharedMemory) | limiterBit(Resource::Warps));
  // The 16 KiB split (--carveout 16K): 32 bytes x 256 threads -> 2 blocks = 33.3%.
  R = legacy("sm_20", 256, 0, 256 * 32, 16 * 1024);
  EXPECT_EQ(R.SharedBytesPerSm, 16u * 1024);
  EXPECT_EQ(R.BlocksPerSm, 2);
  EXPECT_EQ(percentText(R.Occupancy), "33.3%");
  // A block over the 16 KiB split: the driver overrides the preference with 48 KiB
  // (cudaFuncSetCacheConfig is a preference), so the 32 KiB block of 1024 still runs.
  R = legacy("sm_20", 1024, 0, 32 * 1024, 16 * 1024);
  EXPECT_EQ(R.SharedBytesPerSm, 48u * 1024);
  EXPECT_EQ(R.BlocksPerSm, 1);
}

TEST(LegacyOccupancy, FermiBlockLimitCapsSmallBlocks) {
  // 8 blocks per SM: 128-thread blocks reach 32 of 48 warps, 192 threads fill the SM.
  OccupancyResult R = legacy("sm_21", 128, 16, 0);
  EXPECT_EQ(R.BlocksPerSm, 8);
  EXPECT_EQ(R.Limiters, limiterBit(Resource::Blocks));
  EXPECT_EQ(percentText(R.Occupancy), "66.7%");
  EXPECT_EQ(percentText(legacy("sm_21", 192, 16, 0).Occupancy), "100%");
  EXPECT_EQ(percentText(legacy("sm_21", 32, 16, 0).Occupancy), "16.7%");
}

TEST(LegacyOccupancy, KeplerRulesAndSplits) {
  // Kepler: 64 warps, 16 blocks; 32 registers x 256 threads: 1024 per warp, 16 warps per
  // sub-partition -> 64 warps = 8 blocks.
  OccupancyResult R = legacy("sm_35", 256, 32, 0);
  EXPECT_EQ(R.BlocksPerSm, 8);
  EXPECT_EQ(R.ActiveWarpsPerSm, 64);
  // 16/32/48 KiB splits: 12 KiB blocks -> 1, 2, 4.
  EXPECT_EQ(legacy("sm_35", 256, 0, 12 * 1024, 16 * 1024).BlocksPerSm, 1);
  EXPECT_EQ(legacy("sm_35", 256, 0, 12 * 1024, 32 * 1024).BlocksPerSm, 2);
  EXPECT_EQ(legacy("sm_35", 256, 0, 12 * 1024, 48 * 1024).BlocksPerSm, 4);
  EXPECT_EQ(legacy("sm_35", 256, 0, 12 * 1024).BlocksPerSm, 4);
  // GK210: 128K registers and 112 KiB: 64 registers x 256 threads fit 8 blocks.
  EXPECT_EQ(legacy("sm_37", 256, 64, 0).BlocksPerSm, 8);
  EXPECT_EQ(legacy("sm_35", 256, 64, 0).BlocksPerSm, 4);
  EXPECT_EQ(legacy("sm_37", 256, 0, 12 * 1024, 80 * 1024).BlocksPerSm, 6);
  // cc 3.0 keeps the calculator's 63 registers per thread.
  EXPECT_FALSE(legacy("sm_30", 256, 64, 0).canLaunch());
  EXPECT_TRUE(legacy("sm_32", 256, 64, 0).canLaunch());
}

TEST(LegacyOccupancy, SplitsAreValidated) {
  OccupancyResult R = legacy("sm_20", 256, 0, 0, 32 * 1024);
  ASSERT_FALSE(R.canLaunch());
  EXPECT_EQ(R.Failure->Kind, LaunchFailureKind::InvalidInput);
  EXPECT_EQ(R.Failure->Message, "shared/L1 split 32 KiB is not one of sm_20's: 16 KiB or 48 KiB");
  R = legacy("sm_86", 256, 0, 0, 16 * 1024);
  ASSERT_FALSE(R.canLaunch());
  EXPECT_NE(R.Failure->Message.find("takes a carveout percentage"), std::string::npos);
  EXPECT_EQ(sharedSplitsText(arch("sm_30")), "16 KiB, 32 KiB or 48 KiB");
  EXPECT_TRUE(isSharedSplit(arch("sm_37"), 96 * 1024));
  EXPECT_FALSE(isSharedSplit(arch("sm_37"), 48 * 1024));
}

// --- Thread block clusters --------------------------------------------------------------

TEST(Clusters, ProblemsPerArchAndSize) {
  EXPECT_EQ(clusterProblem(arch("sm_90"), 8, false), "");
  EXPECT_EQ(clusterProblem(arch("sm_90"), 16, true), "");
  EXPECT_NE(clusterProblem(arch("sm_90"), 9, false).find("portable maximum of 8"),
            std::string::npos);
  EXPECT_NE(clusterProblem(arch("sm_90"), 17, true).find("maximum of 16"), std::string::npos);
  EXPECT_NE(clusterProblem(arch("sm_86"), 2, false).find("need sm_90"), std::string::npos);
  EXPECT_NE(clusterProblem(arch("sm_90"), 0, false), "");
}

TEST(Clusters, ActiveClustersPerGpc) {
  // The GH100 layout measured on an H100 and an H200 (bench/gpu/cluster_probe.cu): 2 GPCs of
  // 18 SMs, 5 of 16, 1 of 8 and 4 pairs; the expected values are the runtime's own answers
  // (cudaOccupancyMaxActiveClusters, tests/Inputs/gpu/h200/clusters.jsonl).
  const int Gpcs[] = {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2};
  // 3 blocks/SM, clusters of 2: 27 + 27 + 5 x 24 + 12 + 4 x 3 = 198, all 396 slots.
  std::optional<ClusterOccupancy> C = activeClusters(3, 2, Gpcs, 12);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->ActiveClusters, 198);
  EXPECT_EQ(C->ActiveBlocks, 396);
  EXPECT_EQ(C->BlockSlots, 396);
  // 1 block/SM, clusters of 16: one in each GPC of 16 or more SMs (7); the GPC of 8 and
  // the pairs hold none.
  C = activeClusters(1, 16, Gpcs, 12);
  EXPECT_EQ(C->ActiveClusters, 7);
  EXPECT_EQ(C->EmptyGpcs, 5);
  // A cluster's blocks run on different SMs: 2 blocks/SM, clusters of 3 leave the pairs
  // empty although each has 4 block slots (79, not 83).
  EXPECT_EQ(activeClusters(2, 3, Gpcs, 12)->ActiveClusters, 79);
  // 1 block/SM, clusters of 4: 4 + 4 + 5 x 4 + 2 = 30.
  EXPECT_EQ(activeClusters(1, 4, Gpcs, 12)->ActiveClusters, 30);
  // Clusters count at most 8 blocks per SM: 16 blocks/SM answers as 8.
  C = activeClusters(16, 1, Gpcs, 12);
  EXPECT_EQ(C->ActiveClusters, 1056);
  EXPECT_EQ(C->ClusterBlocksPerSm, 8);
  EXPECT_EQ(C->BlockSlots, 2112);
  EXPECT_EQ(activeClusters(16, 3, Gpcs, 12)->ActiveClusters, 327);
  EXPECT_FALSE(activeClusters(0, 2, Gpcs, 12));
  // A GPC with fewer SMs than the cluster has blocks holds none.
  const int Small[] = {4, 16};
  EXPECT_EQ(activeClusters(1, 8, Small, 2)->EmptyGpcs, 1);
}

TEST(Waves, WavesOfAGivenWidth) {
  std::optional<WaveInfo> W = wavesOf(132, 396);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->WaveCount, 1);
  EXPECT_EQ(percentText(W->LastWaveFullness), "33.3%");
  W = waves(132, 3, 132);
  EXPECT_EQ(W->BlocksPerWave, 396);
  EXPECT_FALSE(wavesOf(0, 396));
  EXPECT_FALSE(wavesOf(10, 0));
}

// __launch_bounds__(256, B) on sm_86 (64K registers, 8-register steps per thread): two
// blocks of 8 warps leave 128 registers per thread, three 80 (85 rounded down to the
// step); more blocks than the SM holds leave none. The register-spill check reads this.
TEST(Occupancy, LaunchBoundsRegisterBudget) {
  EXPECT_EQ(launchBoundsRegisterBudget(arch("sm_86"), 256, 2), 128);
  EXPECT_EQ(launchBoundsRegisterBudget(arch("sm_86"), 256, 3), 80);
  EXPECT_EQ(launchBoundsRegisterBudget(arch("sm_86"), 256, 1), 255);
  EXPECT_EQ(launchBoundsRegisterBudget(arch("sm_86"), 256, 7), 0);
  // Each budget is the most that keeps the blocks: one register more loses one.
  KernelResources K;
  K.LaunchBoundsMaxThreads = 256;
  K.RegistersPerThread = 81;
  EXPECT_LT(computeOccupancy(arch("sm_86"), K, LaunchShape::threads(256)).BlocksPerSm, 3);
}
