// AMD kernels with AGPRs (the MFMA accumulators): occupancy counts them with the VGPRs,
// the larger of the two on gfx908 (two files of 256 per SIMD) and VGPRs rounded up to 4
// plus AGPRs on gfx90a (one file of 512), so advice to use fewer VGPRs says what the count
// is made of. Hermetic: the counts come from recorded AMDGPU assemblies
// (Inputs/hip/recorded/agprs-gfx908.s, agprs-gfx90a.s).
// RUN: rm -rf %t && mkdir -p %t
// RUN: env WARPLINT_RECORDED_ASM=%recorded/agprs-gfx908.s %clang_tidy --checks='-*,warplint-occupancy,warplint-occupancy-cliff' --config="{CheckOptions: {%recorded_clang_options, warplint.CacheDir: '%t'}}" %s -- %hip_gfx908 -DGFX908 2>&1 | %FileCheck --check-prefix=G908 %s
// RUN: env WARPLINT_RECORDED_ASM=%recorded/agprs-gfx90a.s %clang_tidy --checks='-*,warplint-occupancy,warplint-occupancy-cliff' --config="{CheckOptions: {%recorded_clang_options, warplint.CacheDir: '%t'}}" %s -- %hip_gfx90a 2>&1 | %FileCheck --check-prefix=G90A %s

#ifdef GFX908
// 64 VGPRs and 64 AGPRs: 64 count, 4 waves per SIMD; 48 VGPRs alone would not gain.
__global__ void acc(float *p) {}
// 72 VGPRs and 40 AGPRs: the VGPRs count.
__global__ void vec(float *p) {}

void run(float *p) {
  acc<<<1024, 256>>>(p);
  // G908: :[[@LINE-1]]:3: warning: {{.*}}'acc'{{.*}}
  // G908: note: 64 VGPRs/lane (the larger of its 64 VGPRs and 64 AGPRs, two files on gfx908: the AGPRs must fall too) limit this 256-thread block to 4 workgroups/CU
  vec<<<1024, 256>>>(p);
  // G908: :[[@LINE-1]]:3: warning: {{.*}}'vec'{{.*}}
  // G908: note: 72 VGPRs/lane (the larger of its 72 VGPRs and 40 AGPRs, two files on gfx908) limit this 256-thread block to 3 workgroups/CU
}
#else
// 70 VGPRs (72 after rounding) and 64 AGPRs: 136 count in the one file.
__global__ void uni(float *p) {}

void run(float *p) {
  uni<<<1024, 256>>>(p);
  // G90A: :[[@LINE-1]]:3: warning: {{.*}}'uni'{{.*}}
  // G90A: note: 136 VGPRs/lane (70 VGPRs rounded up to 4 and 64 AGPRs, one file on gfx90a: fewer of either counts) limit this 256-thread block to 3 workgroups/CU
}
#endif
