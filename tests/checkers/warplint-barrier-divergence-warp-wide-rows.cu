// warplint-barrier-divergence and warplint-warp-sync-mask: a sweep whose test every warp
// recomputes from the same words (issue 23, thirtieth session: KBLAS's one-sided Jacobi
// SVD, svd_kernels.cuh). Each warp stores its largest off-diagonal term at its index,
// and after the barrier every warp takes the maximum of the same 32 words,
// `warpAllReduceMax(thread_x < pairs ? svals[thread_x] : 0)`, a butterfly whose maximum is
// written as `if (val < t) val = t;`. In blocks launched exactly a warp wide in x
// (`dim3(32, pairs)`), threadIdx.x is the lane: the words each lane reads are the same in
// every warp, so the loop's test is the block's and its barriers and shuffles are reached
// by every thread. Reported: the same kernel in 64-wide blocks (two warps of a row read
// other words), a branch that is no maximum, a comparison of another value.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --check-prefixes=CHECK,MASK %s

#define WARP_SIZE 32

template <class T> __device__ __forceinline__ T warpAllReduceMax(T val) {
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask > 0; mask /= 2) {
    T t = __shfl_xor_sync(0xFFFFFFFF, val, mask);
    if (val < t)
      val = t;
  }
  return val;
}

// The same maximum as a conditional expression.
template <class T> __device__ __forceinline__ T warpAllReduceMaxSelect(T val) {
  for (int mask = WARP_SIZE / 2; mask > 0; mask /= 2) {
    T t = __shfl_xor_sync(0xFFFFFFFF, val, mask);
    val = t > val ? t : val;
  }
  return val;
}

// Not a maximum: the branch adds one to what it takes.
template <class T> __device__ __forceinline__ T warpAllReduceBumped(T val) {
  for (int mask = WARP_SIZE / 2; mask > 0; mask /= 2) {
    T t = __shfl_xor_sync(0xFFFFFFFF, val, mask);
    // MASK-DAG: :[[@LINE-1]]:11: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'bumped' names lanes that may not take part
    if (val < t)
      val = t + 1;
  }
  return val;
}

// Not a maximum: the comparison reads another value.
template <class T> __device__ __forceinline__ T warpAllReduceOther(T val, T other) {
  for (int mask = WARP_SIZE / 2; mask > 0; mask /= 2) {
    T t = __shfl_xor_sync(0xFFFFFFFF, val, mask);
    // MASK-DAG: :[[@LINE-1]]:11: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'otherCompare' names lanes that may not take part
    if (other < t)
      val = t;
  }
  return val;
}

#define SWEEP(REDUCE)                                                                      \
  int sweep = 0;                                                                           \
  float off = 1;                                                                           \
  while (off > 1e-9f && sweep < 12) {                                                      \
    off = 0;                                                                               \
    for (int k = 0; k < n - 1; k++) {                                                      \
      float r = m[thread_x + warp_id * 32];                                                \
      if (off < r)                                                                         \
        off = r;                                                                           \
      __syncthreads();                                                                     \
      m[thread_x + warp_id * 32] = r * 0.5f;                                               \
      __syncthreads();                                                                     \
    }                                                                                      \
    if (thread_x == 0)                                                                     \
      svals[warp_id] = off;                                                                \
    __syncthreads();                                                                       \
    off = REDUCE;                                                                          \
    __syncthreads();                                                                       \
    sweep++;                                                                               \
  }

__device__ void parSweep(float *m, float *svals, int n, int thread_x, int warp_id, int pairs) {
  SWEEP(warpAllReduceMax(thread_x < pairs ? svals[thread_x] : 0.0f))
}

// Silent: launched 32 wide, through a helper taking the indices as parameters.
__global__ void jacobi(float *M, int n) {
  extern __shared__ float sm[];
  int thread_x = threadIdx.x, warp_id = threadIdx.y, pairs = blockDim.y;
  sm[thread_x + warp_id * 32] = M[blockIdx.x * 256 + thread_x + warp_id * 32];
  __syncthreads();
  parSweep(sm, sm + 256, n, thread_x, warp_id, pairs);
  M[blockIdx.x * 256 + thread_x + warp_id * 32] = sm[thread_x + warp_id * 32];
}

// Silent: the maximum as a conditional expression.
__global__ void selectMax(float *M, int n) {
  __shared__ float m[256];
  __shared__ float svals[32];
  int thread_x = threadIdx.x, warp_id = threadIdx.y;
  SWEEP(warpAllReduceMaxSelect(svals[thread_x]))
  M[blockIdx.x] = off;
}

// The same sweep in blocks 64 wide: lanes 0-31 and 32-63 of a row read other words, the
// two warps of a row may disagree. Reported.
__global__ void wideRows(float *M, int n) {
  __shared__ float m[512];
  __shared__ float svals[64];
  int thread_x = threadIdx.x, warp_id = threadIdx.y;
  SWEEP(warpAllReduceMax(svals[thread_x]))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'wideRows' may be skipped by part of the block
  M[blockIdx.x] = off;
}

__global__ void bumped(float *M, int n) {
  __shared__ float m[256];
  __shared__ float svals[32];
  int thread_x = threadIdx.x, warp_id = threadIdx.y;
  SWEEP(warpAllReduceBumped(svals[thread_x]))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'bumped' may be skipped by part of the block
  M[blockIdx.x] = off;
}

__global__ void otherCompare(float *M, int n) {
  __shared__ float m[256];
  __shared__ float svals[32];
  int thread_x = threadIdx.x, warp_id = threadIdx.y;
  SWEEP(warpAllReduceOther(svals[thread_x], m[threadIdx.x]))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'otherCompare' may be skipped by part of the block
  M[blockIdx.x] = off;
}

void launch(float *M, int n, int ops, int pairs) {
  jacobi<<<ops, dim3(WARP_SIZE, pairs), 2048>>>(M, n);
  selectMax<<<ops, dim3(32, 8)>>>(M, n);
  wideRows<<<ops, dim3(64, 8)>>>(M, n);
  bumped<<<ops, dim3(32, 8)>>>(M, n);
  otherCompare<<<ops, dim3(32, 8)>>>(M, n);
}
