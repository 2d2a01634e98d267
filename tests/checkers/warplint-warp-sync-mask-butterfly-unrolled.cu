// warplint-warp-sync-mask: a butterfly over the whole warp written out statement by
// statement is the same in every lane, as its loop form is (issue 23, nineteenth session,
// from PhysX's polyClip: `int a = c | __shfl_xor_sync(FULL_MASK, c, 16); a |=
// __shfl_xor_sync(FULL_MASK, a, 8); ...` then `for (; a; a &= a - 1)` around full-mask
// shuffles, and its EPA's `e = fmaxf(e, __shfl_xor_sync(FULL_MASK, e, 16)); ...`). The
// offsets 16, 8, 4, 2 and 1, once each, in consecutive statements of one block, with an
// order-free operation: every lane ends with the same value. Four offsets (half-warps
// keep their own), or an operation whose order matters, stay warnings. The loop form
// takes a commutative call on the shuffle too (`e = fmaxf(e, __shfl_xor_sync(...))`).
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ float fmaxf(float a, float b);
__device__ int __ffs(int x);

// PhysX's form: the first statement makes the value from another local: silent.
__global__ void unrolledOr(const int *edges, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int c = edges[t];
  int a = c | __shfl_xor_sync(0xffffffff, c, 16);
  a |= __shfl_xor_sync(0xffffffff, a, 8);
  a |= __shfl_xor_sync(0xffffffff, a, 4);
  a |= __shfl_xor_sync(0xffffffff, a, 2);
  a |= __shfl_xor_sync(0xffffffff, a, 1);
  float acc = 0.f;
  for (; a; a &= (a - 1))
    acc += __shfl_sync(0xffffffff, out[t], __ffs(a) - 1);
  out[t] = acc;
}

// A maximum through a commutative call, offsets in another order: silent.
__global__ void unrolledMax(const float *d, float *out, int n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float e = d[t];
  e = fmaxf(e, __shfl_xor_sync(0xffffffff, e, 1));
  e = fmaxf(__shfl_xor_sync(0xffffffff, e, 2), e);
  e = fmaxf(e, __shfl_xor_sync(0xffffffff, e, 4));
  e = fmaxf(e, __shfl_xor_sync(0xffffffff, e, 8));
  e = fmaxf(e, __shfl_xor_sync(0xffffffff, e, 16));
  if (e > 0.5f)
    out[t] = __shfl_sync(0xffffffff, out[t], 0);
}

// The loop form through the same call (`v = fmaxf(v, __shfl_xor_sync(...))`): silent.
__global__ void loopMax(const float *d, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float e = d[t];
  for (int o = 16; o > 0; o >>= 1)
    e = fmaxf(e, __shfl_xor_sync(0xffffffff, e, o));
  if (e > 0.5f)
    out[t] = __shfl_sync(0xffffffff, out[t], 0);
}

// Twin: offsets 8 to 1 only: each half-warp has its own value.
__global__ void halfUnrolled(const int *edges, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = edges[t];
  a |= __shfl_xor_sync(0xffffffff, a, 8);
  a |= __shfl_xor_sync(0xffffffff, a, 4);
  a |= __shfl_xor_sync(0xffffffff, a, 2);
  a |= __shfl_xor_sync(0xffffffff, a, 1);
  float acc = 0.f;
  for (; a; a &= (a - 1))
    acc += __shfl_sync(0xffffffff, out[t], __ffs(a) - 1);
  // CHECK: :[[@LINE-1]]:12: warning: mask 0xffffffff of '__shfl_sync()'
  out[t] = acc;
}

// Twin: a difference is no order-free combination: lanes differ.
__global__ void unrolledDifference(const int *edges, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = edges[t];
  a = a - __shfl_xor_sync(0xffffffff, a, 16);
  a -= __shfl_xor_sync(0xffffffff, a, 8);
  a -= __shfl_xor_sync(0xffffffff, a, 4);
  a -= __shfl_xor_sync(0xffffffff, a, 2);
  a -= __shfl_xor_sync(0xffffffff, a, 1);
  if (a > 3)
    out[t] = __shfl_sync(0xffffffff, out[t], 0);
  // CHECK: :[[@LINE-1]]:14: warning: mask 0xffffffff of '__shfl_sync()'
}

void launch(const int *c, const float *d, float *o, int n) {
  unrolledOr<<<64, 128>>>(c, o);
  unrolledMax<<<64, 128>>>(d, o, n);
  loopMax<<<64, 128>>>(d, o);
  halfUnrolled<<<64, 128>>>(c, o);
  unrolledDifference<<<64, 128>>>(c, o);
}
