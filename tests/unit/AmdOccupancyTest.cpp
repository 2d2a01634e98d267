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

// The VGPR budget the three register checks quote (occupancy, occupancy-cliff,
// register-spill): gfx90a's 512 VGPRs per SIMD lane in granules of 8, wave64, 4 SIMDs.
TEST(AmdOccupancy, VgprBudget) {
  const GpuArch &A = *findArch("gfx90a");
  EXPECT_EQ(amdVgprBudget(A, 1), 512);
  EXPECT_EQ(amdVgprBudget(A, 5), 96); // 102 rounded down to the granule
  EXPECT_EQ(amdVgprBudget(A, 8), 64);
  EXPECT_EQ(amdVgprBudget(A, 9), 0); // more waves than a SIMD runs
  EXPECT_EQ(amdVgprBudget(A, 0), 0);
  EXPECT_EQ(amdVgprBudgetText(A, 5), "at most 96 VGPRs per lane");
  EXPECT_EQ(amdVgprBudgetText(A, 9), "no VGPR count");
  EXPECT_EQ(amdVgprBudget(*findArch("sm_86"), 4), 0);
}

struct KernelBudgetRow {
  const char *Arch;
  int FlatMax, WavesPerEuMin;
  int WantFlat, WantWaves;
  bool WantByAttribute;
  int WantVgprs;
};

class AmdKernelBudget : public ::testing::TestWithParam<KernelBudgetRow> {};

TEST_P(AmdKernelBudget, WorkgroupOrAttribute) {
  const KernelBudgetRow &R = GetParam();
  AmdKernelVgprBudget B = amdKernelVgprBudget(*findArch(R.Arch), R.FlatMax, R.WavesPerEuMin);
  EXPECT_EQ(B.FlatWorkGroupMax, R.WantFlat);
  EXPECT_EQ(B.WavesPerSimd, R.WantWaves);
  EXPECT_EQ(B.ByWavesPerEu, R.WantByAttribute);
  EXPECT_EQ(B.Vgprs, R.WantVgprs);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, AmdKernelBudget,
    ::testing::Values(
        // The default 1024-lane workgroup: 16 waves over 4 SIMDs, 4 each, 128 VGPRs.
        KernelBudgetRow{"gfx90a", 0, 0, 1024, 4, false, 128},
        // waves_per_eu(5) asks for more than the workgroup's 4.
        KernelBudgetRow{"gfx90a", 0, 5, 1024, 5, true, 96},
        // 256 lanes: one wave per SIMD; an attribute of 1 asks for no more.
        KernelBudgetRow{"gfx90a", 256, 0, 256, 1, false, 512},
        KernelBudgetRow{"gfx90a", 256, 1, 256, 1, false, 512},
        // RDNA2 wave32: 1024 lanes are 32 waves, 8 per SIMD; 1024 / 8 = 128.
        KernelBudgetRow{"gfx1030", 0, 0, 1024, 8, false, 128}));

} // namespace
