// warplint-warp-sync-mask: the result of a butterfly over the whole warp is the same in
// every lane (issue 23, fourteenth session: PhysX's warpReduction<MaxOpPxU32>(FULL_MASK,
// count), whose maximum bounds a loop of full-mask shuffles). The xor offsets 16, 8, 4, 2
// and 1 combine the 32 lanes' values in the same tree in every lane, with an operation
// whose result does not depend on the order of its operands (`+`, max, a reduction
// functor's `op(a, b)` returning one), so a loop on it runs the same trips in each lane and
// its shuffles name only lanes that are there. A butterfly over 16-lane groups, or a
// down-shuffle tree (the total in lane 0 alone), leaves lanes with other values: still
// reported.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ int max(int a, int b);

struct MaxOp {
  __device__ static int op(int a, int b) { return max(a, b); }
};

template <typename OP, unsigned LOG2_GROUP>
__device__ int groupReduce(unsigned mask, int input) {
  const unsigned group = 1u << LOG2_GROUP;
#pragma unroll
  for (unsigned radius = group >> 1; radius > 0; radius >>= 1) {
    int val = __shfl_xor_sync(mask, input, radius, group);
    input = OP::op(input, val);
  }
  return input;
}

// PhysX's form, through a functor and a mask parameter: silent.
__global__ void butterflyBound(const int *counts, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int most = groupReduce<MaxOp, 5>(0xffffffffu, counts[t]);
  float acc = 0.f;
  for (int i = 0; i < most; ++i)
    acc += __shfl_down_sync(0xffffffffu, out[t * 8 + i % 8], 1);
  out[t] = acc;
}

// A sum written out in the loop (`v += __shfl_xor_sync(...)`, offsets 1 to 16): silent.
__global__ void butterflySum(const int *counts, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = counts[t];
  for (int o = 1; o < 32; o *= 2)
    n += __shfl_xor_sync(0xffffffff, n, o);
  float acc = 0.f;
  for (int i = 0; i < n; ++i)
    acc += __shfl_xor_sync(0xffffffff, out[t + i], 1);
  out[t] = acc;
}

// Twin: a butterfly over groups of 16 lanes: each half-warp has its own maximum.
__global__ void halfWarps(const int *counts, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int most = groupReduce<MaxOp, 4>(0xffffffffu, counts[t]);
  float acc = 0.f;
  for (int i = 0; i < most; ++i)
    acc += __shfl_down_sync(0xffffffffu, out[t * 8 + i % 8], 1);
  // CHECK: :[[@LINE-1]]:12: warning: mask 0xffffffff of '__shfl_down_sync()'
  out[t] = acc;
}

// Twin: a down-shuffle tree leaves the total in lane 0 only.
__global__ void downTree(const int *counts, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = counts[t];
  for (int o = 16; o > 0; o >>= 1)
    n += __shfl_down_sync(0xffffffff, n, o);
  float acc = 0.f;
  for (int i = 0; i < n; ++i)
    acc += __shfl_xor_sync(0xffffffff, out[t + i], 1);
  // CHECK: :[[@LINE-1]]:12: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[t] = acc;
}

void launch(const int *c, const int *ci, float *o) {
  butterflyBound<<<64, 128>>>(c, o);
  butterflySum<<<64, 128>>>(ci, o);
  halfWarps<<<64, 128>>>(c, o);
  downTree<<<64, 128>>>(ci, o);
}
