// warplint-divergent-branch on HIP: lanes are evaluated per wavefront. A branch on the
// 32-lane half of a 256-thread block is uniform in each 32-lane wavefront (RDNA) and
// splits every 64-lane one (CDNA, or RDNA with -mwavefrontsize64).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %hip_gfx90a 2>&1 | %check_diags --check-prefix=W64 %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %hip_gfx1030_w64 2>&1 | %check_diags --check-prefix=W64 %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %hip_gfx1030 2>&1 | %check_diags --check-prefix=W32 %s

__global__ void halves(float *p) {
  if ((threadIdx.x / 32) % 2 == 0)
    // W64: :[[@LINE-1]]:7: warning: branch on 'threadIdx.x' diverges in 4 of 4 wavefronts of 64 lanes of kernel 'halves' (block 256x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
    p[threadIdx.x] = 0.0f;
  else
    p[threadIdx.x + 256] = 1.0f;
}

// Uniform per 64 lanes: silent on every target.
__global__ void whole(float *p) {
  if ((threadIdx.x / 64) % 2 == 0)
    p[threadIdx.x] = 0.0f;
}

// Every wavefront splits, whatever its width (8 of 8 with 32 lanes).
__global__ void lanes(float *p) {
  if (threadIdx.x % 16 < 4)
    // W64: :[[@LINE-1]]:7: warning: branch on 'threadIdx.x' diverges in 4 of 4 wavefronts of 64 lanes of kernel 'lanes' (block 256x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
    // W32: :[[@LINE-2]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 wavefronts of 32 lanes of kernel 'lanes' (block 256x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
    p[threadIdx.x] = 0.0f;
  else
    p[threadIdx.x + 256] = 1.0f;
}

// Short arms: the note on predication names the compiler and the wavefront, not nvcc.
__global__ void shortArms(float *p) {
  unsigned t = threadIdx.x;
  if (t % 2 == 0)
    // W64: :[[@LINE-1]]:7: warning: branch on 't' diverges in 4 of 4 wavefronts of 64 lanes of kernel 'shortArms' (block 256x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
    // W64: :[[@LINE-2]]:7: note: the arms are short: the compiler may predicate them instead of branching; the wavefront then issues both arms with the lanes of the other side masked off, so they still idle
    // W32: :[[@LINE-3]]:7: warning: branch on 't' diverges in 8 of 8 wavefronts of 32 lanes of kernel 'shortArms' (block 256x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
    // W32: :[[@LINE-4]]:7: note: the arms are short: the compiler may predicate them instead of branching; the wavefront then issues both arms with the lanes of the other side masked off, so they still idle
    p[t] = 1.0f;
  else
    p[t + 256] = 2.0f;
}

void launch(float *p) {
  shortArms<<<1, 256>>>(p);
  halves<<<1, 256>>>(p);
  whole<<<1, 256>>>(p);
  lanes<<<1, 256>>>(p);
}
