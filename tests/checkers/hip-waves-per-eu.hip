// warplint-occupancy on HIP checks amdgpu_waves_per_eu (HIP's second __launch_bounds__
// argument) against each launch: a launch whose waves per SIMD (the launch record's
// figure: wavefronts per CU / 4 SIMDs) stay below the attribute's minimum is reported
// with what limits it, whatever MinOccupancy says. gfx90a: 8 waves per SIMD, 32 per CU,
// 512 VGPRs per SIMD in granules of 8, 64 KiB of LDS. Hermetic: the counts come from a
// recorded AMDGPU assembly (Inputs/hip/recorded/waves-gfx90a.s).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env WARPLINT_RECORDED_ASM=%recorded/waves-gfx90a.s %clang_tidy --checks='-*,warplint-occupancy' --config="{CheckOptions: {%recorded_clang_options, warplint.CacheDir: '%t', warplint-occupancy.MinOccupancy: 95}}" %s -- %hip_gfx90a 2>&1 | %check_diags %s
// Without counted VGPRs the figure is an upper bound: LDS alone keeps 'lds_bound' below.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' --config="{CheckOptions: {warplint.RegisterSource: none}}" %s -- %hip_gfx90a 2>&1 | %FileCheck --check-prefix=NONE %s

// 32 KiB of LDS: 2 workgroups per CU, 8 wavefronts, 2 waves per SIMD.
__global__ void __launch_bounds__(256, 4) lds_bound(float *p) {
  __shared__ float tile[8192];
  tile[threadIdx.x] = p[threadIdx.x];
}
// More waves than a gfx90a SIMD runs.
__global__ void __attribute__((amdgpu_flat_work_group_size(1, 256), amdgpu_waves_per_eu(10)))
too_many(float *p) {}
// 96 VGPRs: 5 waves per SIMD, where 6 would need at most 80.
__global__ void __launch_bounds__(256, 6) regs(float *p) {}
// 640-thread workgroups (10 wavefronts): 3 fit the 32 wave slots, 7 waves per SIMD.
__global__ void __launch_bounds__(640, 8) big_block(float *p) {}
// 64 VGPRs: 8 waves per SIMD, more than the 4 asked for: silent, even below MinOccupancy.
__global__ void __launch_bounds__(256, 4) met(float *p) {}

void run(float *p) {
  lds_bound<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'lds_bound' reaches 2 waves per SIMD on gfx90a (wave64) with 256-thread workgroups (2 workgroups/CU, 8 wavefronts), below the 4 its amdgpu_waves_per_eu asks for; limited by LDS [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: 32768 bytes of LDS per workgroup: the backend cannot trade LDS for waves, only registers
  // CHECK: :[[@LINE-3]]:3: note: 32 VGPRs, 0 AGPRs, 16 SGPRs from clang's AMDGPU backend (gfx90a, wave64)
  // NONE: :[[@LINE-4]]:3: warning: 'lds_bound' reaches 2 waves per SIMD on gfx90a (wave64) with 256-thread workgroups (2 workgroups/CU, 8 wavefronts), below the 4 its amdgpu_waves_per_eu asks for; VGPRs unknown, LDS allows no more [warplint-occupancy]
  too_many<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'too_many' reaches 8 waves per SIMD on gfx90a (wave64) with 256-thread workgroups (8 workgroups/CU, 32 wavefronts), below the 10 its amdgpu_waves_per_eu asks for; limited by wave slots and VGPRs and SGPRs [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: a gfx90a SIMD runs at most 8 waves: the backend ignores a larger minimum
  // CHECK: :[[@LINE-3]]:3: note: 16 VGPRs
  regs<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'regs' reaches 5 waves per SIMD on gfx90a (wave64) with 256-thread workgroups (5 workgroups/CU, 20 wavefronts), below the 6 its amdgpu_waves_per_eu asks for; limited by VGPRs [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: the backend did not fit the registers of 6 waves per SIMD (at most 80 VGPRs per lane); the attribute is a hint, not a limit
  // CHECK: :[[@LINE-3]]:3: note: 96 VGPRs
  big_block<<<64, 640>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'big_block' reaches 7 waves per SIMD on gfx90a (wave64) with 640-thread workgroups (3 workgroups/CU, 30 wavefronts), below the 8 its amdgpu_waves_per_eu asks for; limited by wave slots and VGPRs and SGPRs [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: 8 waves per SIMD need smaller workgroups: each CU holds 32 wave slots and 16 workgroups of more than one wave
  // CHECK: :[[@LINE-3]]:3: note: 24 VGPRs
  met<<<64, 256>>>(p);
  // NONE-NOT: 'met'
}
