// warplint-occupancy on Fermi (sm_20) and Kepler (sm_35): the occupancy lecture's shared
// memory examples, with cudaFuncSetCacheConfig choosing the shared/L1 split.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s -- %cuda_device --cuda-gpu-arch=sm_20 --no-cuda-version-check 2>&1 | %check_diags %s
// On Kepler the L1 preference leaves 16 KiB too, and "equal" 32 KiB.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s -- %cuda_device --cuda-gpu-arch=sm_35 --no-cuda-version-check 2>&1 | %FileCheck --check-prefix=KEPLER %s --implicit-check-not='warning:'

__global__ void defaultSplit(float *p) {
  extern __shared__ float tile[];
  p[threadIdx.x] = tile[threadIdx.x];
}
__global__ void preferL1(float *p) {
  extern __shared__ float tile[];
  p[threadIdx.x] = tile[threadIdx.x];
}
__global__ void preferEqual(float *p) {
  extern __shared__ float tile[];
  p[threadIdx.x] = tile[threadIdx.x];
}

void run(float *p) {
  cudaFuncSetCacheConfig(preferL1, cudaFuncCachePreferL1);
  cudaFuncSetCacheConfig(preferEqual, cudaFuncCachePreferEqual);
  // 32 bytes per thread, 256-thread blocks: 8 KiB per block.
  defaultSplit<<<100, 256, 256 * 32>>>(p);
  preferL1<<<100, 256, 256 * 32>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: occupancy at most 33.3% for 'preferL1' on sm_20: at most 16 of 48 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
  // KEPLER: :[[@LINE-2]]:3: warning: occupancy at most 25% for 'preferL1' on sm_35: at most 16 of 64 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
  preferEqual<<<100, 256, 256 * 32>>>(p);
}
