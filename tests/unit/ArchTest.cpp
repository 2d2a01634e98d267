//===- ArchTest.cpp - the architecture table and findArch's spellings -----===//
#include "warplint/core/Arch.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

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
        Spelling{"gfx1100", "gfx1100"}, Spelling{"sm_87", "sm_87"},
        // Unknown or malformed.
        Spelling{"sm_35", nullptr}, Spelling{"9.9", nullptr}, Spelling{"sm_", nullptr},
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
    if (!A.isNvidia())
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
