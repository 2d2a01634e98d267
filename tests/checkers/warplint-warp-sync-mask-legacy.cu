// warplint-warp-sync-mask: the warp intrinsics without a mask (`__shfl`, `__shfl_xor`,
// `__ballot`, `__any`, ...) do not exist for sm_70 and later: nvcc declares them below
// sm_70 only and refuses the call, and ptxas has no `shfl` or `vote` without `.sync`
// there (cuTT's GPU model kernels, written for Kepler). One finding per file, the other
// calls as notes; for sm_61 none.
// RUN: %not %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck %s --implicit-check-not='{{warning|error|remark}}:'
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_61 2>&1 | %FileCheck --check-prefix=SM61 %s --allow-empty --implicit-check-not='{{warning|error|remark}}:'

__device__ int warpSum(int v) {
  for (int i = 16; i >= 1; i /= 2)
    v += __shfl_xor(v, i);
  // CHECK: :[[@LINE-1]]:10: error: '__shfl_xor' without a mask does not exist for sm_80: nvcc declares the maskless warp intrinsics below sm_70 only and refuses the call, and ptxas has no 'shfl' without '.sync' there; 2 more maskless calls in this file [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-2]]:10: note: since independent thread scheduling the lanes that take part are named: '__shfl_xor_sync(mask, ...)', the mask of the lanes that reach the call
  return v;
}

__global__ void countSegments(int *out, const int *seg) {
  int s0 = seg[threadIdx.x];
  int s1 = __shfl(s0, (threadIdx.x + 31) % 32);
  // CHECK: :[[@LINE-1]]:12: note: '__shfl' without a mask here too
  int n = __ballot(s0 != s1) != 0u;
  // CHECK: :[[@LINE-1]]:11: note: '__ballot' without a mask here too
  out[blockIdx.x * 32 + threadIdx.x] = warpSum(n);
}

// The same with masks: no finding.
__global__ void countSegmentsSync(int *out, const int *seg) {
  int s0 = seg[threadIdx.x];
  int s1 = __shfl_sync(0xffffffffu, s0, (threadIdx.x + 31) % 32);
  out[blockIdx.x * 32 + threadIdx.x] = __ballot_sync(0xffffffffu, s0 != s1) != 0u;
}

void run(int *out, const int *seg) {
  countSegments<<<8, 32>>>(out, seg);
  countSegmentsSync<<<8, 32>>>(out, seg);
}
// SM61-NOT: error:
