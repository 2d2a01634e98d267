// warplint-warp-sync-mask: lane symmetry (issue 23, twentieth session, from AMGX's
// fill_A_kernel_4x4). Each half-warp takes one value by a shuffle from a lane of its own
// half (`shfl(col, 16 * (lane / 16) + k)`), so the value is the same in the 16 lanes of a
// half but may differ between the halves. Comparing it with the other half's
// (`mine == __shfl_xor_sync(m, mine, 16)`) gives both halves the same answer: the test is
// the warp's. And where the test holds both halves hold one value, so `mine != -1 &&
// fighting` is the warp's too: the whole warp takes the shuffle inside. A test of the half
// alone, a comparison with another value's partner, an order that matters, or a term of
// something else beside the test, stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ __forceinline__ int laneId() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

// Wrappers as AMGX's utils:: has them, the width a default argument.
__device__ __forceinline__ int shfl(int r, int lane, int bound = warpSize,
                                    unsigned mask = 0xffffffff) {
  return __shfl_sync(mask, r, lane, bound);
}
__device__ __forceinline__ int shflXor(int r, int laneMask, int bound = warpSize,
                                       unsigned mask = 0xffffffff) {
  return __shfl_xor_sync(mask, r, laneMask, bound);
}

// AMGX's form, through the wrappers, with a lane's own change between: silent.
__global__ void halfWarpsFight(const int *cols, const float *vals, float *out, int row) {
  const int lane = laneId();
  const int base = 16 * (lane / 16);
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  for (int k = 0; k < 16; ++k) {
    int mine = shfl(col, base + k);
    if (mine == row)
      mine = -1;
    int other = shflXor(mine, 16);
    int fighting = mine == other;
    if (mine != -1 && fighting)
      v += __shfl_xor_sync(0xffffffff, v, 16);
    if (fighting)
      v += __shfl_xor_sync(0xffffffff, v, 16);
  }
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// A half-warp butterfly (offsets 8 to 1) then the halves' order-free combination: the
// warp's. Silent.
__global__ void halvesThenWhole(const int *flags, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int a = flags[t];
  for (int o = 8; o > 0; o >>= 1)
    a |= __shfl_xor_sync(0xffffffff, a, o);
  int both = a + __shfl_xor_sync(0xffffffff, a, 16);
  if (both > 2)
    out[t] = __shfl_sync(0xffffffff, out[t], 0);
}

// Twin: the half's own value decides: the halves may differ.
__global__ void halfAlone(const int *cols, const float *vals, float *out) {
  const int lane = laneId();
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, 16 * (lane / 16));
  if (mine != -1)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: compared with the partner of another value: no symmetry.
__global__ void otherPartner(const int *cols, const float *vals, float *out) {
  const int lane = laneId();
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, 16 * (lane / 16));
  int theirs = shfl(col, 16 * (lane / 16) + 1);
  int fighting = mine == shflXor(theirs, 16);
  if (fighting)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: an order that matters (`<`): the halves answer differently.
__global__ void orderMatters(const int *cols, const float *vals, float *out) {
  const int lane = laneId();
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, 16 * (lane / 16));
  int less = mine < shflXor(mine, 16);
  if (less)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: beside the test, a term on another value of the half (not the one compared).
__global__ void otherTerm(const int *cols, const float *vals, float *out) {
  const int lane = laneId();
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, 16 * (lane / 16));
  int next = shfl(col, 16 * (lane / 16) + 1);
  int fighting = mine == shflXor(mine, 16);
  if (next != -1 && fighting)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: a source that reads the lane's low bit: lanes of a half read different lanes.
__global__ void oddSource(const int *cols, const float *vals, float *out) {
  const int lane = laneId();
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, 16 * (lane / 16) + (lane & 1));
  int fighting = mine == shflXor(mine, 16);
  if (fighting)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: a source that divides the thread index by 80: the same in warps 0 and 1, split
// in warp 2 (threads 64-79 read lane 0, 80-95 lane 1).
__global__ void straddlingSource(const int *cols, const float *vals, float *out) {
  int col = cols[blockIdx.x * 128 + threadIdx.x];
  float v = vals[blockIdx.x * 128 + threadIdx.x];
  int mine = shfl(col, threadIdx.x / 80);
  if (mine != -1)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()'
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

void launch(const int *c, const float *d, float *o, int row) {
  halfWarpsFight<<<64, 128>>>(c, d, o, row);
  halvesThenWhole<<<64, 128>>>(c, o);
  halfAlone<<<64, 128>>>(c, d, o);
  otherPartner<<<64, 128>>>(c, d, o);
  orderMatters<<<64, 128>>>(c, d, o);
  otherTerm<<<64, 128>>>(c, d, o);
  oddSource<<<64, 128>>>(c, d, o);
  straddlingSource<<<64, 128>>>(c, d, o);
}
