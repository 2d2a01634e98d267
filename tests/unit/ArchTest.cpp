//===- ArchTest.cpp - the architecture table and findArch's spellings -----===//
#include "warplint/core/Arch.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace warplint;

namespace {

struct Spelling {
  const char *Input;
  const char *Expected; // nullptr: unknown
};

class FindArchTest : public ::testing::TestWithParam<Spelling> {};

TEST_P(FindArchTest, Resolves) {
  const Spelling &S = GetParam();
  const GpuArch *A = findArch(S.Input);
  if (!S.Expected) {
    EXPECT_EQ(A, nullptr) << S.Input;
    return;
  }
  ASSERT_NE(A, nullptr) << S.Input;
  EXPECT_STREQ(A->Name, S.Expected);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, FindArchTest,
    ::testing::Values(
        Spelling{"sm_86", "sm_86"}, Spelling{"8.6", "sm_86"}, Spelling{"86", "sm_86"},
        Spelling{"SM_86", "sm_86"}, Spelling{"compute_80", "sm_80"}, Spelling{"sm_90a", "sm_90"},
        Spelling{"sm_100f", "sm_100"}, Spelling{"10.3", "sm_103"}, Spelling{"110", "sm_110"},
        Spelling{"12.1", "sm_121"}, Spelling{"5.0", "sm_50"}, Spelling{"gfx906", "gfx906"},
        Spelling{"GFX90A", "gfx90a"}, Spelling{"gfx942:sramecc+:xnack-", "gfx942"},
        Spelling{"gfx1100", "gfx1100"}, Spelling{"sm_87", "sm_87"}, Spelling{"sm_35", "sm_35"}, Spelling{"2.1", "sm_21"},
        // Unknown or malformed.
        Spelling{"sm_13", nullptr}, Spelling{"9.9", nullptr}, Spelling{"sm_", nullptr},
        Spelling{"", nullptr}, Spelling{"8.", nullptr}, Spelling{"gfx1200", nullptr},
        Spelling{"8.6.1", nullptr}, Spelling{"-86", nullptr}));

TEST(ArchTable, HasEveryComputeCapabilityOfTheOccupancyHeader) {
  const char *Expected[] = {"5.0",  "5.2",  "5.3",  "6.0",  "6.1", "6.2", "7.0",
                            "7.2",  "7.5",  "8.0",  "8.6",  "8.7", "8.9", "9.0",
                            "10.0", "10.3", "11.0", "12.0", "12.1"};
  for (const char *CC : Expected) {
    const GpuArch *A = findArch(CC);
    ASSERT_NE(A, nullptr) << CC;
    EXPECT_EQ(A->displayVersion(), CC);
  }
  std::set<std::string> Amd;
  for (const GpuArch &A : allArchs())
    if (A.isAmd())
      Amd.insert(A.Name);
  EXPECT_EQ(Amd, (std::set<std::string>{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx1030",
                                        "gfx1100"}));
}

TEST(ArchTable, CommonNvidiaLimits) {
  for (const GpuArch &A : allArchs()) {
    if (!A.isNvidia() || A.Legacy)
      continue;
    SCOPED_TRACE(A.Name);
    EXPECT_EQ(A.MaxThreadsPerBlock, 1024);
    EXPECT_EQ(A.MaxBlockDimX, 1024);
    EXPECT_EQ(A.MaxBlockDimY, 1024);
    EXPECT_EQ(A.MaxBlockDimZ, 64);
    EXPECT_EQ(A.MaxGridDimX, 2147483647);
    EXPECT_EQ(A.MaxGridDimY, 65535);
    EXPECT_EQ(A.MaxGridDimZ, 65535);
    EXPECT_EQ(A.RegistersPerSm, 65536);
    EXPECT_EQ(A.MaxRegistersPerThread, 255);
    EXPECT_EQ(A.SharedPerBlockBytes, 48 * 1024);
    EXPECT_EQ(A.ReservedSharedPerBlockBytes, A.Major >= 8 ? 1024 : 0);
    EXPECT_EQ(A.SharedAllocUnitBytes, A.Major >= 8 ? 128 : 256);
    EXPECT_NE(A.Source, nullptr);
  }
}

struct TableRow {
  const char *Arch;
  int ThreadsPerSm, BlocksPerSm, SharedPerSmKiB, OptinKiB;
};

class GpuFactsTable : public ::testing::TestWithParam<TableRow> {};

// The table in shared/GPU-FACTS.md.
TEST_P(GpuFactsTable, Matches) {
  const TableRow &R = GetParam();
  const GpuArch *A = findArch(R.Arch);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->MaxWarpsPerSm * 32, R.ThreadsPerSm);
  EXPECT_EQ(A->MaxBlocksPerSm, R.BlocksPerSm);
  EXPECT_EQ(A->SharedPerSmBytes, R.SharedPerSmKiB * 1024);
  EXPECT_EQ(A->SharedPerBlockOptinBytes, R.OptinKiB * 1024);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, GpuFactsTable,
    ::testing::Values(TableRow{"5.0", 2048, 32, 64, 48}, TableRow{"5.2", 2048, 32, 96, 48},
                      TableRow{"6.0", 2048, 32, 64, 48}, TableRow{"6.1", 2048, 32, 96, 48},
                      TableRow{"7.0", 2048, 32, 96, 96}, TableRow{"7.5", 1024, 16, 64, 64},
                      TableRow{"8.0", 2048, 32, 164, 163}, TableRow{"8.6", 1536, 16, 100, 99},
                      TableRow{"8.7", 1536, 16, 164, 163}, TableRow{"8.9", 1536, 24, 100, 99},
                      TableRow{"9.0", 2048, 32, 228, 227}, TableRow{"10.0", 2048, 32, 228, 227},
                      TableRow{"12.0", 1536, 24, 100, 99}));

} // namespace

// Fermi and Kepler: the rows of NVIDIA's occupancy calculator (GPU data per compute
// capability) and the CUDA C Programming Guide's cc table.
struct LegacyRow {
  const char *Arch;
  int WarpsPerSm, BlocksPerSm, RegistersPerSm, RegistersPerBlock, MaxRegisters;
  int RegisterUnit, WarpGranularity, SmemUnit, SharedPerSmKiB;
  int64_t GridX;
  std::vector<int> SplitsKiB;
};

class LegacyTable : public ::testing::TestWithParam<LegacyRow> {};

TEST_P(LegacyTable, CalculatorRules) {
  const LegacyRow &R = GetParam();
  const GpuArch *A = findArch(R.Arch);
  ASSERT_NE(A, nullptr) << R.Arch;
  EXPECT_TRUE(A->Legacy);
  EXPECT_EQ(A->MaxWarpsPerSm, R.WarpsPerSm);
  EXPECT_EQ(A->MaxBlocksPerSm, R.BlocksPerSm);
  EXPECT_EQ(A->RegistersPerSm, R.RegistersPerSm);
  EXPECT_EQ(A->RegistersPerBlock, R.RegistersPerBlock);
  EXPECT_EQ(A->MaxRegistersPerThread, R.MaxRegisters);
  EXPECT_EQ(A->RegisterAllocUnit, R.RegisterUnit);
  EXPECT_EQ(A->SubPartitions, R.WarpGranularity);
  EXPECT_EQ(A->SharedAllocUnitBytes, R.SmemUnit);
  EXPECT_EQ(A->SharedPerSmBytes, R.SharedPerSmKiB * 1024);
  EXPECT_EQ(A->SharedPerBlockBytes, 48 * 1024);
  EXPECT_EQ(A->MaxThreadsPerBlock, 1024);
  EXPECT_EQ(A->MaxBlockDimZ, 64);
  EXPECT_EQ(A->MaxGridDimX, R.GridX);
  EXPECT_EQ(A->ReservedSharedPerBlockBytes, 0);
  EXPECT_EQ(std::vector<int>(A->SharedSplitsKiB, A->SharedSplitsKiB + A->NumSharedSplits),
            R.SplitsKiB);
}

INSTANTIATE_TEST_SUITE_P(
    FermiKepler, LegacyTable,
    ::testing::Values(
        LegacyRow{"sm_20", 48, 8, 32768, 32768, 63, 64, 2, 128, 48, 65535, {16, 48}},
        LegacyRow{"2.1", 48, 8, 32768, 32768, 63, 64, 2, 128, 48, 65535, {16, 48}},
        LegacyRow{"sm_30", 64, 16, 65536, 65536, 63, 256, 4, 256, 48, 2147483647, {16, 32, 48}},
        LegacyRow{"sm_32", 64, 16, 65536, 65536, 255, 256, 4, 256, 48, 2147483647, {16, 32, 48}},
        LegacyRow{"35", 64, 16, 65536, 65536, 255, 256, 4, 256, 48, 2147483647, {16, 32, 48}},
        LegacyRow{"compute_37", 64, 16, 131072, 65536, 255, 256, 4, 256, 112, 2147483647,
                  {80, 96, 112}}));

TEST(ArchTable, OnlyFermiAndKeplerAreLegacy) {
  std::set<std::string> Legacy;
  for (const GpuArch &A : allArchs())
    if (A.Legacy)
      Legacy.insert(A.Name);
  EXPECT_EQ(Legacy, (std::set<std::string>{"sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37"}));
  // NVIDIA rows stay in compute-capability order.
  int Prev = 0;
  for (const GpuArch &A : allArchs())
    if (A.isNvidia()) {
      EXPECT_GT(A.Major * 10 + A.Minor, Prev) << A.Name;
      Prev = A.Major * 10 + A.Minor;
    }
}

// The launch limits every check and the model read (launch-config-invalid, the model's
// launchable blocks, the shape options): the unknown target gets CUDA's limits from
// compute capability 3.0 on, a known one its row's.
TEST(LaunchLimits, PortableWhenTheTargetIsUnknown) {
  const LaunchLimits L = launchLimits(nullptr);
  EXPECT_EQ(L.MaxThreadsPerBlock, 1024u);
  EXPECT_EQ(L.MaxBlock, (std::array<uint64_t, 3>{1024, 1024, 64}));
  EXPECT_EQ(L.MaxGrid, (std::array<uint64_t, 3>{2147483647, 65535, 65535}));
  EXPECT_EQ(L.DefaultSharedBytes, 48u * 1024);
  EXPECT_FALSE(L.OptinSharedBytes);
}

struct LimitsRow {
  const char *Arch;
  uint64_t MaxThreads;
  std::array<uint64_t, 3> MaxBlock, MaxGrid;
  uint64_t DefaultShared, OptinShared;
};

class LaunchLimitsTable : public ::testing::TestWithParam<LimitsRow> {};

TEST_P(LaunchLimitsTable, FromTheRow) {
  const LimitsRow &R = GetParam();
  const GpuArch *A = findArch(R.Arch);
  ASSERT_NE(A, nullptr);
  const LaunchLimits L = launchLimits(A);
  EXPECT_EQ(L.MaxThreadsPerBlock, R.MaxThreads);
  EXPECT_EQ(L.MaxBlock, R.MaxBlock);
  EXPECT_EQ(L.MaxGrid, R.MaxGrid);
  EXPECT_EQ(L.DefaultSharedBytes, R.DefaultShared);
  ASSERT_TRUE(L.OptinSharedBytes);
  EXPECT_EQ(*L.OptinSharedBytes, R.OptinShared);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, LaunchLimitsTable,
    ::testing::Values(
        // Fermi: grid x is 65535 (the portable limits start at 3.0).
        LimitsRow{"sm_20", 1024, {1024, 1024, 64}, {65535, 65535, 65535}, 48 * 1024, 48 * 1024},
        LimitsRow{"sm_86", 1024, {1024, 1024, 64}, {2147483647, 65535, 65535}, 48 * 1024, 99 * 1024},
        LimitsRow{"sm_90", 1024, {1024, 1024, 64}, {2147483647, 65535, 65535}, 48 * 1024, 227 * 1024},
        // AMD: a workgroup's LDS with or without asking; z up to 1024.
        LimitsRow{"gfx90a", 1024, {1024, 1024, 1024}, {2147483647, 65535, 65535}, 64 * 1024, 64 * 1024}));

// The comparisons at their boundaries: the limit itself is allowed, one more is over.
TEST(LaunchLimits, Boundaries) {
  const LaunchLimits &L = PortableLaunchLimits;
  EXPECT_FALSE(L.threadsOver(1024));
  EXPECT_TRUE(L.threadsOver(1025));
  EXPECT_FALSE(L.blockDimOver(2, 64));
  EXPECT_TRUE(L.blockDimOver(2, 65));
  EXPECT_FALSE(L.blockDimOver(0, 1024));
  EXPECT_TRUE(L.blockDimOver(0, 1025));
  EXPECT_FALSE(L.gridDimOver(0, 2147483647));
  EXPECT_TRUE(L.gridDimOver(0, 2147483648ull));
  EXPECT_FALSE(L.gridDimOver(1, 65535));
  EXPECT_TRUE(L.gridDimOver(1, 65536));
}

// The vendor of a name is told in one place; every architecture row agrees with it, and
// names the table does not know (a newer gfx) are still AMD's.
TEST(ArchTable, VendorFromName) {
  for (const GpuArch &A : allArchs())
    EXPECT_EQ(isAmdArchName(A.Name), A.isAmd()) << A.Name;
  EXPECT_TRUE(isAmdArchName("GFX90A:xnack-"));
  EXPECT_TRUE(isAmdArchName("gfx1250"));
  EXPECT_FALSE(isAmdArchName("sm_86"));
  EXPECT_FALSE(isAmdArchName("gf"));
  EXPECT_FALSE(isAmdArchName(""));
  // The defaults are rows of the table, each of its vendor.
  ASSERT_NE(findArch(DefaultCudaArch), nullptr);
  EXPECT_TRUE(findArch(DefaultCudaArch)->isNvidia());
  ASSERT_NE(findArch(DefaultHipArch), nullptr);
  EXPECT_TRUE(findArch(DefaultHipArch)->isAmd());
  ASSERT_NE(findArch(NvccDefaultArch), nullptr);
}
