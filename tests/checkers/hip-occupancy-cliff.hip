// warplint-occupancy-cliff on HIP (gfx906: GCN, wave64, 256 VGPRs per SIMD in granules of
// 4, 800 SGPRs, 64 KiB of LDS in 512-byte granules), hermetic: the counts come from a
// recorded AMDGPU assembly (Inputs/hip/recorded/cliff-gfx906.s, read through the clang
// register source). 256-thread workgroups are 4 wavefronts, one per SIMD, so workgroups
// per CU equal waves per SIMD: 66 VGPRs round to 68 = 3 waves (64 keep 4); 82 SGPRs give 9
// waves (80 keep 10); 16896 bytes of LDS fit 3 workgroups (16384 fit 4).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env WARPLINT_RECORDED_ASM=%recorded/cliff-gfx906.s %clang_tidy --checks='-*,warplint-occupancy-cliff' --config="{CheckOptions: {%recorded_clang_options, warplint.CacheDir: '%t'}}" %s -- %hip_gfx906 2>&1 | %check_diags %s
// Before the cliffs, with WarnBeforeCliff: 'under' is one VGPR from losing a wave.
// RUN: env WARPLINT_RECORDED_ASM=%recorded/cliff-gfx906.s %clang_tidy --checks='-*,warplint-occupancy-cliff' --config="{CheckOptions: {%recorded_clang_options, warplint.CacheDir: '%t', warplint-occupancy-cliff.WarnBeforeCliff: true}}" %s -- %hip_gfx906 2>&1 | %FileCheck --check-prefix=BEFORE %s
// Without counted VGPRs, the budget: up to 24 VGPRs keep 10 waves per SIMD (GPU-FACTS).
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' --config="{CheckOptions: {warplint.RegisterSource: none, warplint-occupancy-cliff.MinRegisterBudget: 32}}" %s -- %hip_gfx906 2>&1 | %FileCheck --check-prefix=BUDGET %s

__global__ void past(float *p) {}
__global__ void under(float *p) {}
__global__ void sgpr(float *p) {}
__global__ void lds(float *p) {}
__global__ void fine(float *p) {}

void run(float *p) {
  past<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'past' on gfx906 (wave64) is 2 VGPRs past an occupancy cliff: 66 VGPRs per lane allow 3 workgroups/CU (12 wavefronts, 30%) with 256-thread workgroups; at 64 it keeps 4 workgroups/CU (16 wavefronts, 40%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: ask the backend for 4 waves per SIMD: __launch_bounds__(256, 4) (amdgpu_waves_per_eu(4)) leaves at most 64 VGPRs per lane (watch the spills it may add)
  // CHECK: :[[@LINE-3]]:3: note: 66 VGPRs, 0 AGPRs, 16 SGPRs from clang's AMDGPU backend (gfx906, wave64)
  // BEFORE: :[[@LINE-4]]:3: warning: 'past' on gfx906 (wave64) is 2 VGPRs past an occupancy cliff
  // BUDGET: :[[@LINE-5]]:3: warning: VGPR budget of 'past' on gfx906 (wave64): 256-thread workgroups keep 10 workgroups/CU (40 wavefronts, 100%) only up to 24 VGPRs per lane; at 25 they drop to 9 workgroups/CU (36 wavefronts, 90%) [warplint-occupancy-cliff]
  // BUDGET: :[[@LINE-6]]:3: note: VGPRs unknown: --registers-from clang (warplint.RegisterSource: clang) counts them with clang's AMDGPU backend
  under<<<64, 256>>>(p);
  // BEFORE: :[[@LINE-1]]:3: warning: 'under' on gfx906 (wave64) is 1 VGPR from an occupancy cliff: 40 VGPRs per lane keep 6 workgroups/CU (24 wavefronts, 60%) with 256-thread workgroups; 41 drop it to 5 workgroups/CU (20 wavefronts, 50%) [warplint-occupancy-cliff]
  // BEFORE: :[[@LINE-2]]:3: note: keep it there as the code grows: __launch_bounds__(256, 6) asks the backend for 6 waves per SIMD (amdgpu_waves_per_eu), which leaves at most 40 VGPRs per lane
  sgpr<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'sgpr' on gfx906 (wave64) is 2 SGPRs past an occupancy cliff: 82 SGPRs per wave allow 9 workgroups/CU (36 wavefronts, 90%) with 256-thread workgroups; at 80 it keeps 10 workgroups/CU (40 wavefronts, 100%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: SGPRs count VCC, FLAT_SCRATCH and XNACK_MASK; __launch_bounds__(256, 10) (amdgpu_waves_per_eu(10)) asks the backend to fit 10 waves per SIMD
  // CHECK: :[[@LINE-3]]:3: note: 20 VGPRs, 0 AGPRs, 82 SGPRs from clang's AMDGPU backend (gfx906, wave64)
  lds<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: 'lds' on gfx906 (wave64) is 512 bytes of LDS past an occupancy cliff: 16896 bytes per workgroup allow 3 workgroups/CU (12 wavefronts, 30%) with 256-thread workgroups; at 16384 it keeps 4 workgroups/CU (16 wavefronts, 40%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: use 512 fewer bytes of LDS per workgroup (a smaller tile); the CU's 64 KiB of LDS is allocated in 512-byte granules
  fine<<<64, 256>>>(p);
  // BEFORE-NOT: 'fine'
}
