//===- AmdOccupancyTest.cpp - AMD occupancy: the GCN numbers of GPU-FACTS -===//
#include "warplint/core/Occupancy.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

OccupancyResult amdOcc(const char *Arch, int64_t Threads, int Vgprs, int Sgprs = 0,
                       uint64_t Lds = 0) {
  const GpuArch *A = findArch(Arch);
  EXPECT_NE(A, nullptr) << Arch;
  KernelResources K;
  K.Vgprs = Vgprs;
  K.Sgprs = Sgprs;
  K.StaticSharedBytes = Lds;
  return computeOccupancy(*A, K, LaunchShape::threads(Threads));
}

struct VgprRow {
  int Vgprs;
  int WavesPerSimd;
};

class GcnVgprTable : public ::testing::TestWithParam<VgprRow> {};

// Single-wave workgroups, so only VGPRs bound the CU's 4 SIMDs.
TEST_P(GcnVgprTable, WavesPerSimd) {
  const VgprRow &R = GetParam();
  OccupancyResult O = amdOcc("gfx906", 64, R.Vgprs);
  ASSERT_TRUE(O.canLaunch());
  EXPECT_EQ(O.ActiveWarpsPerSm, 4 * R.WavesPerSimd) << R.Vgprs << " VGPRs";
  EXPECT_EQ(O.MaxWarpsPerSm, 40);
  if (R.WavesPerSimd < 10)
    EXPECT_TRUE(O.isLimitedBy(Resource::Registers));
}

INSTANTIATE_TEST_SUITE_P(GpuFacts, GcnVgprTable,
                         ::testing::Values(VgprRow{1, 10}, VgprRow{24, 10}, VgprRow{25, 9},
                                           VgprRow{28, 9}, VgprRow{32, 8}, VgprRow{36, 7},
                                           VgprRow{40, 6}, VgprRow{44, 5}, VgprRow{48, 5},
                                           VgprRow{52, 4}, VgprRow{64, 4}, VgprRow{68, 3},
                                           VgprRow{84, 3}, VgprRow{88, 2}, VgprRow{128, 2},
                                           VgprRow{132, 1}, VgprRow{256, 1}));

TEST(AmdOccupancy, SgprsOnGcn) {
  EXPECT_EQ(amdOcc("gfx906", 64, 0, 80).ActiveWarpsPerSm, 40);
  EXPECT_EQ(amdOcc("gfx906", 64, 0, 88).ActiveWarpsPerSm, 36);
  OccupancyResult O = amdOcc("gfx906", 64, 0, 96);
  EXPECT_EQ(O.ActiveWarpsPerSm, 32);
  EXPECT_TRUE(O.isLimitedBy(Resource::Sgprs));
  // RDNA: SGPRs do not limit.
  EXPECT_EQ(amdOcc("gfx1030", 32, 0, 106).ActiveWarpsPerSm, 64);
}

struct WorkgroupRow {
  int64_t Threads;
  uint64_t Lds;
  int Workgroups;
  int Waves;
  double Occupancy;
};

class GcnWorkgroups : public ::testing::TestWithParam<WorkgroupRow> {};

TEST_P(GcnWorkgroups, FromGpuFacts) {
  const WorkgroupRow &R = GetParam();
  OccupancyResult O = amdOcc("gfx906", R.Threads, 0, 0, R.Lds);
  EXPECT_EQ(O.BlocksPerSm, R.Workgroups);
  EXPECT_EQ(O.ActiveWarpsPerSm, R.Waves);
  EXPECT_NEAR(O.Occupancy, R.Occupancy, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(
    GpuFacts, GcnWorkgroups,
    ::testing::Values(WorkgroupRow{256, 32768, 2, 8, 0.2}, // LDS-bound
                      WorkgroupRow{128, 0, 16, 32, 0.8},   // 16-workgroup limit
                      WorkgroupRow{384, 0, 6, 36, 0.9},    // wave slots
                      WorkgroupRow{64, 0, 40, 40, 1.0},    // single wave: no barrier
                      WorkgroupRow{256, 0, 10, 40, 1.0}, WorkgroupRow{320, 0, 8, 40, 1.0},
                      WorkgroupRow{512, 0, 5, 40, 1.0}, WorkgroupRow{1024, 0, 2, 32, 0.8}));

TEST(AmdOccupancy, NewerParts) {
  // CDNA2/3: 8 waves per SIMD, 512 unified VGPRs in granules of 8.
  OccupancyResult O = amdOcc("gfx90a", 64, 0);
  EXPECT_EQ(O.MaxWarpsPerSm, 32);
  EXPECT_EQ(O.ActiveWarpsPerSm, 32);
  EXPECT_EQ(amdOcc("gfx942", 64, 128).ActiveWarpsPerSm, 16); // 512/128 = 4 per SIMD
  EXPECT_EQ(amdOcc("gfx942", 64, 129).ActiveWarpsPerSm, 12); // 136 -> 3 per SIMD
  // RDNA2 wave32 in WGP mode: 4 SIMDs x 16 waves, 1024 VGPRs in granules of 16.
  O = amdOcc("gfx1030", 32, 64);
  EXPECT_EQ(O.MaxWarpsPerSm, 64);
  EXPECT_EQ(O.ActiveWarpsPerSm, 64);
  EXPECT_EQ(amdOcc("gfx1030", 32, 72).ActiveWarpsPerSm, 48); // 80 -> 12 per SIMD
  // RDNA3 gfx1100: 1536 VGPRs in granules of 24.
  EXPECT_EQ(amdOcc("gfx1100", 32, 96).ActiveWarpsPerSm, 64);
  EXPECT_EQ(amdOcc("gfx1100", 32, 128).ActiveWarpsPerSm, 40); // 144 -> 10 per SIMD
  // 32 workgroups per WGP (barriers) on RDNA in WGP mode.
  EXPECT_EQ(amdOcc("gfx1030", 64, 0).BlocksPerSm, 32);
}

TEST(AmdOccupancy, Failures) {
  OccupancyResult O = amdOcc("gfx906", 64, 257);
  ASSERT_FALSE(O.canLaunch());
  EXPECT_EQ(O.Failure->Kind, LaunchFailureKind::TooManyRegisters);
  O = amdOcc("gfx906", 64, 0, 0, 65537);
  ASSERT_FALSE(O.canLaunch());
  EXPECT_EQ(O.Failure->Kind, LaunchFailureKind::SharedOverBlockLimit);
  EXPECT_NE(O.Failure->Message.find("64 KiB"), std::string::npos);
  O = amdOcc("gfx906", 1088, 0);
  ASSERT_FALSE(O.canLaunch());
  EXPECT_EQ(O.Failure->Kind, LaunchFailureKind::TooManyThreads);
}

TEST(AmdOccupancy, MaxPotentialBlockSize) {
  // Only wave and workgroup slots bound it: walking down from 1024, 640 (10 waves x 4
  // workgroups) is the first size that fills all 40 wave slots.
  BlockSizeSuggestion B = maxPotentialBlockSize(*findArch("gfx906"), {}, 0, 60);
  EXPECT_EQ(B.BlockSize, 640);
  EXPECT_EQ(B.BlocksPerSm, 4);
  EXPECT_EQ(B.MinGridSize, 240);
}

} // namespace
