//===- AmdgpuAsmTest.cpp - kernel resources from AMDGPU device assembly ---===//
#include "warplint/core/AmdgpuAsm.h"
#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"

#include <gtest/gtest.h>

using namespace warplint;

namespace {

// The shape of clang-22's output for two kernels (trimmed): the target, the function
// symbols with their occupancy comments, the metadata with a nested .args list whose
// entries have keys of their own.
constexpr const char *Asm = R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack-"
	.text
	.protected	_Z1kPfi
	.globl	_Z1kPfi
	.type	_Z1kPfi,@function
_Z1kPfi:
	s_endpgm
; NumVgprs: 6
; Occupancy: 8
	.type	_Z4heavyPf,@function
_Z4heavyPf:
	s_endpgm
; Occupancy: occupancy(8, 8, 512, 8, 8, max(_Z4heavyPf.numbered_sgpr, 1, 0), 1)
	.type	__hip_cuid_0,@object
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .name:           a
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 256
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           _Z1kPfi
    .private_segment_fixed_size: 0
    .sgpr_count:     11
    .sgpr_spill_count: 0
    .vgpr_count:     6
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     32
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z4heavyPf
    .private_segment_fixed_size: 24
    .sgpr_count:     40
    .vgpr_count:     61
    .vgpr_spill_count: 3
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a:xnack-
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
)";

TEST(AmdgpuAsm, ReadsTheKernelMetadataAndOccupancyComments) {
  std::string Err;
  std::vector<AmdgpuKernel> K = parseAmdgpuAssembly(Asm, Err);
  ASSERT_TRUE(Err.empty()) << Err;
  ASSERT_EQ(K.size(), 2u);
  EXPECT_EQ(K[0].Name, "_Z1kPfi");
  EXPECT_EQ(K[0].Target, "gfx90a");
  EXPECT_EQ(K[0].Vgprs, 6);
  EXPECT_EQ(K[0].Sgprs, 11);
  EXPECT_EQ(K[0].Agprs, 0);
  EXPECT_EQ(K[0].LdsBytes, 256u);
  EXPECT_EQ(K[0].MaxFlatWorkgroupSize, 256);
  EXPECT_EQ(K[0].WaveSize, 64);
  EXPECT_EQ(K[0].BackendOccupancy, 8);
  EXPECT_EQ(K[1].Name, "_Z4heavyPf");
  EXPECT_EQ(K[1].Vgprs, 61);
  EXPECT_EQ(K[1].Agprs, 32);
  EXPECT_EQ(K[1].PrivateBytes, 24u);
  EXPECT_EQ(K[1].VgprSpills, 3);
  // A symbolic occupancy (a call the backend could not resolve) is no number.
  EXPECT_FALSE(K[1].BackendOccupancy.has_value());
  // gfx90a's unified file: VGPRs rounded to 4, then the AGPRs.
  EXPECT_EQ(amdgpuOccupancyVgprs(K[0]), 6);
  EXPECT_EQ(amdgpuOccupancyVgprs(K[1]), 64 + 32);
  AmdgpuKernel Gfx908 = K[1];
  Gfx908.Target = "gfx908";
  EXPECT_EQ(amdgpuOccupancyVgprs(Gfx908), 61); // separate files: the larger one
}

TEST(AmdgpuAsm, NoMetadataIsAnError) {
  std::string Err;
  EXPECT_TRUE(parseAmdgpuAssembly("\t.text\n_Z1kv:\n\ts_endpgm\n", Err).empty());
  EXPECT_NE(Err.find("no AMDGPU kernel metadata"), std::string::npos);
  Err.clear();
  EXPECT_TRUE(parseAmdgpuAssembly(".amdgpu_metadata\namdhsa.kernels:\n  - .name: k\n"
                                  ".end_amdgpu_metadata\n",
                                  Err)
                  .empty());
  EXPECT_NE(Err.find(".vgpr_count"), std::string::npos);
}

TEST(AmdgpuArch, RdnaWave64Variant) {
  const GpuArch *W32 = findArch("gfx1030", 32);
  const GpuArch *W64 = findArch("gfx1030", 64);
  ASSERT_TRUE(W32 && W64);
  EXPECT_EQ(W32, findArch("gfx1030"));
  EXPECT_EQ(W64->WarpSize, 64);
  EXPECT_EQ(W64->VgprsPerSimd, 512);
  EXPECT_EQ(W64->VgprAllocGranule, 8);
  EXPECT_EQ(W64->MaxWavesPerSimd, W32->MaxWavesPerSimd);
  EXPECT_EQ(findArch("gfx1100", 64)->VgprsPerSimd, 768);
  EXPECT_EQ(findArch("gfx1100", 64)->VgprAllocGranule, 12);
  // GCN/CDNA run only wave64.
  EXPECT_EQ(findArch("gfx90a", 64), findArch("gfx90a"));
  EXPECT_EQ(findArch("gfx90a", 32), nullptr);
  EXPECT_EQ(findArch("sm_80", 0), findArch("sm_80"));
  // 128 VGPRs in wave64: 512/128 = 4 waves per SIMD; the same kernel in wave32 (1024
  // registers, granule 16): 8.
  KernelResources R;
  R.Vgprs = 128;
  EXPECT_EQ(computeOccupancy(*W64, R, LaunchShape::threads(64)).ActiveWarpsPerSm / 4, 4);
  EXPECT_EQ(computeOccupancy(*W32, R, LaunchShape::threads(32)).ActiveWarpsPerSm / 4, 8);
}

} // namespace
