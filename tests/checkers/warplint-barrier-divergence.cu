// warplint-barrier-divergence: barriers that part of the block (or of the grid) can skip.
// RUN: %not %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Only the first 16 threads reach the barrier: certain for a launch of 64 threads.
__global__ void firstSixteen(float *a) {
  if (threadIdx.x < 16)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'firstSixteen' is skipped by 48 of 64 threads of the block 64x1x1: threads 16-63; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside 'if (threadIdx.x < 16)', which depends on the thread
}

// The classic bounds return before a barrier: the threads past n in the last block leave.
// One finding for both barriers after the one return.
__global__ void boundsReturn(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'boundsReturn' may be skipped by part of the block: the threads whose 'i' is at or past 'n' (the tail of the last block, when 'n' is not a multiple of the block) leave at the 'return' on line 21 and never reach it; guard the work, not the barrier [warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'i' is at or past 'n'
  out[i] = tile[255 - threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: note: the same cause keeps threads from this barrier
}

// The fix: guard the work, not the barrier.
__global__ void boundsGuardedWork(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tile[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n)
    out[i] = tile[255 - threadIdx.x];
}

// A condition on data each thread loads: decided at run time.
__global__ void dataCondition(const int *flags) {
  if (flags[threadIdx.x] > 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'dataCondition' may be skipped by part of the block: it is inside 'if (flags[threadIdx.x] > 0)', which depends on data loaded at a thread-dependent address [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
}

// A loop whose trip count depends on the thread.
__global__ void perThreadTrips(float *a) {
  for (int k = 0; k < int(threadIdx.x % 4); ++k)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'perThreadTrips' is skipped by 96 of 128 threads of the block 128x1x1: threads 0-2, 4-6, 8-10, 12-14, ... (96 threads); a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside a loop whose condition 'k < int(threadIdx.x % 4)' depends on the thread: threads with fewer trips skip it in the last ones
}

// A thread-dependent break: the thread that leaves misses the later trips' barriers.
__global__ void breakOut(float *a) {
  for (int k = 0; k < 8; ++k) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'breakOut' is skipped by 1 of 32 threads of the block 32x1x1 when k = 0: thread 0; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
    if (threadIdx.x == k)
      break;
    // CHECK: :[[@LINE-1]]:7: note: threads for which 'threadIdx.x == k' holds leave at the 'break' on line 64 (in an earlier trip) before it
    a[threadIdx.x] += 1.0f;
  }
}

// Inside a uniform loop, a guard that moves with the loop counter.
__global__ void shrinkingGuard(float *a) {
  for (int s = 128; s > 0; s >>= 1)
    if (threadIdx.x < s)
      __syncthreads();
  // CHECK: :[[@LINE-1]]:7: error: '__syncthreads()' in kernel 'shrinkingGuard' is skipped by 128 of 256 threads of the block 256x1x1 when s = 128: threads 128-255; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:5: note: it is inside 'if (threadIdx.x < s)', which depends on the thread
}

// A barrier in a helper device function, called under a thread-dependent condition.
__device__ void stage(float *tile, const float *a) {
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' in kernel 'helperBarrier' is skipped by 32 of 64 threads of the block 64x1x1: threads 32-63; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE+5]]:3: note: it is inside 'if (threadIdx.x < 32)', which depends on the thread
  // CHECK: :[[@LINE+5]]:5: note: '__syncthreads()' is reached from kernel 'helperBarrier' through this call of 'stage'
}
__global__ void helperBarrier(const float *a) {
  __shared__ float tile[64];
  if (threadIdx.x < 32)
    stage(tile, a);
}

// A helper whose own early return skips its barrier.
__device__ float loadOrSkip(float *tile, const float *a, int n) {
  if (int(threadIdx.x) >= n)
    return 0.0f;
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'helperReturn' may be skipped by part of the block: the threads whose 'int(threadIdx.x)' is at or past 'n'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE+5]]:22: note: '__syncthreads()' is reached from kernel 'helperReturn' through this call of 'loadOrSkip'
  return tile[0];
}
__global__ void helperReturn(const float *a, float *out, int n) {
  __shared__ float tile[128];
  out[threadIdx.x] = loadOrSkip(tile, a, n);
}

// A 2-D block: the first row only.
__global__ void firstRow(float *a) {
  if (threadIdx.y == 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'firstRow' is skipped by 240 of 256 threads of the block 16x16x1: threads 16-255; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside 'if (threadIdx.y == 0)'
}

// A 2-D block whose rows all reach their barrier: silent.
__global__ void everyRow(float *a) {
  if (threadIdx.y < 16)
    __syncthreads();
}

// cooperative_groups: the block's sync(), member and free, and a grid barrier.
__global__ void groupSync(float *a) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 8)
    block.sync();
  // CHECK: :[[@LINE-1]]:5: error: 'thread_block::sync()' in kernel 'groupSync' is skipped by 24 of 32 threads of the block 32x1x1: threads 8-31; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  if (threadIdx.x >= 8)
    cg::sync(block);
  // CHECK: :[[@LINE-1]]:5: error: 'cg::sync()' in kernel 'groupSync' is skipped by 8 of 32 threads of the block 32x1x1: threads 0-7; a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  block.sync();
}
__global__ void gridSync(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0)
    grid.sync();
  // CHECK: :[[@LINE-1]]:5: warning: 'grid_group::sync()' in kernel 'gridSync' may be skipped by part of the grid: it is inside 'if (blockIdx.x == 0)', which depends on the block [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  grid.sync();
}

// The reducing barriers count as barriers, and give every thread the same value.
__global__ void reducedFlag(const int *flags, float *a) {
  int any = __syncthreads_or(flags[threadIdx.x] > 0);
  if (any)
    __syncthreads();
  int count = __syncthreads_count(flags[threadIdx.x]);
  if (count == 64)
    __syncthreads();
  while (__syncthreads_and(a[threadIdx.x] > 0.0f))
    a[threadIdx.x] -= 1.0f;
  if (threadIdx.x < 16)
    __syncthreads_count(1);
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads_count()' in kernel 'reducedFlag' is skipped by 48 of 64 threads
  // CHECK: :[[@LINE-3]]:3: note: it is inside
}

// Block-uniform conditions: silent.
__global__ void uniformConditions(float *a, int n) {
  if (blockIdx.x == 0)
    __syncthreads();
  if (n > 4)
    __syncthreads();
  if (blockDim.x >= 64)
    __syncthreads();
  for (int k = 0; k < n; ++k)
    __syncthreads();
  if (threadIdx.x < 64) // every thread of the 64-thread launch
    __syncthreads();
}

// The tree reduction: the barrier after the if, every thread reaches it; silent. And the
// same without its barrier (a race, not this check's).
__global__ void treeReduction(float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
__global__ void treeReductionNoBarrier(float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1)
    if (tid < stride)
      s[tid] += s[tid + stride];
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// No launch with a known block: the block is assumed. An odd-lane barrier splits every
// block (a warning); a barrier for the first 128 threads splits the assumed 256 but not a
// block of 32 (a note).
__global__ void assumedOddLanes(float *a) {
  if (threadIdx.x % 2)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'assumedOddLanes' is skipped by 128 of 256 threads of the block 256x1x1 (assumed): threads 0, 2, 4, 6, ... (128 threads); a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-5]]:17: note: no launch of 'assumedOddLanes' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
}
__global__ void assumedFirstHalf(float *a) {
  if (threadIdx.x < 128)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: remark: '__syncthreads()' in kernel 'assumedFirstHalf' is skipped by 128 of 256 threads of the block 256x1x1 (assumed): threads 128-255
  // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: no launch in this file gives the block shape, and with a block of 32x1x1 every thread that reaches the code around it reaches it
  // CHECK: :[[@LINE-4]]:3: note: it is inside
  // CHECK: :[[@LINE-6]]:17: note: no launch of 'assumedFirstHalf' with a known block shape
}

// A global warp index (cuSZp's look-back scan, launched from another file with blocks of
// 32): `warp > 0` splits block 0 of the assumed 256 threads, and run-time block indices
// decide; with a block of 32 it is the block's own index, whole for every sampled block.
// A note (so is `warp % 2 == 1`: whole in a block of one warp). The odd threads of the
// global index split every block: a warning.
__global__ void assumedGlobalWarp(float *a) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (warp > 0)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: remark: '__syncthreads()' in kernel 'assumedGlobalWarp' may be skipped by part of the block: it is inside 'if (warp > 0)', which depends on the thread [warplint-barrier-divergence]
  // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: no launch in this file gives the block shape, and with a block of 32x1x1 every thread reaches it for every sampled value
  // CHECK: :[[@LINE-4]]:3: note: it is inside
  if (((blockIdx.x * blockDim.x + threadIdx.x) & 1) == 1)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'assumedGlobalWarp' may be skipped by part of the block
  // CHECK: :[[@LINE-3]]:3: note: it is inside
}

// A value loaded at a block-uniform address, passed through helpers that take it by
// const reference (as a complex type's real() or a min()): it stays uniform, and the return
// on it is taken by the whole block or none. Silent.
struct cplx { double x, y; };
__device__ double realOf(const cplx &c) { return c.x; }
__device__ bool isOne(const cplx a) { return realOf(a) == 1.0 && a.y == 0.0; }
template <class T> __device__ T smaller(const T &a, const T &b) { return a < b ? a : b; }
__device__ void gemmSteps(int k, float *s) {
  for (int i = 0; i < k; ++i) {
    s[threadIdx.x] += 1.0f;
    __syncthreads();
  }
}
__global__ void uniformLoadByConstRef(const int *K, int maxK, cplx beta, float *out) {
  __shared__ float s[64];
  int myK = K[blockIdx.z];
  myK = smaller(myK, maxK);
  if (myK == 0 && isOne(beta))
    return;
  gemmSteps(myK, s);
  out[threadIdx.x] = s[threadIdx.x];
}

// A helper that writes through a non-const reference: what it writes is unknown from there
// on (here a per-thread value), and the return on it splits the block.
__device__ void perThreadCount(int &k, const int *counts) { k = counts[threadIdx.x]; }
__global__ void outputByReference(const int *counts, float *out) {
  __shared__ float s[64];
  int k = 1;
  perThreadCount(k, counts);
  if (k == 0)
    return;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'outputByReference' may be skipped by part of the block: threads for which 'k == 0' holds leave at the 'return' on line [[#@LINE-3]] before it (a condition on data loaded at a thread-dependent address) [warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: threads for which
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// Two pointers with the same thread offset (Blast = B + jb after B moved by the thread):
// the loop `B < Blast` runs jb / 16 trips in every thread. Silent.
__global__ void samePointerOffset(const float *B, int ldb, int jb, float *out) {
  __shared__ float s[64];
  B += threadIdx.x + threadIdx.y * ldb;
  const float *Blast = B + jb;
  float acc = 0.0f;
  do {
    s[threadIdx.x] = B[0];
    __syncthreads();
    acc += s[63 - threadIdx.x];
    __syncthreads();
    B += 16;
  } while (B < Blast);
  out[threadIdx.x] = acc;
  // The same with integers whose form the loop drops, and their difference.
  int i = threadIdx.x * 4, end = i + jb;
  for (; i < end; i += 64)
    __syncthreads();
  int left = end - i;
  if (left > 0)
    __syncthreads();
}

// The bound moves with the thread (Blast = B + threadIdx.x), or a thread-dependent branch
// moves one of the two pointers: the trip count differs between threads.
__global__ void otherPointerOffset(const float *B, int jb, float *out) {
  __shared__ float s[64];
  B += threadIdx.x;
  const float *Blast = B + threadIdx.x + jb;
  for (; B < Blast; B += 16)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'otherPointerOffset' may be skipped by part of the block: it is inside a loop whose condition 'B < Blast' depends on the thread: threads with fewer trips skip it in the last ones [warplint-barrier-divergence]
  // CHECK: :[[@LINE-3]]:3: note: it is inside a loop
  const float *C = out + threadIdx.x, *Clast = C + jb;
  if (threadIdx.x < 8)
    C += 32;
  while (C < Clast) {
    s[threadIdx.x] = *C;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'otherPointerOffset' may be skipped by part of the block: it is inside a loop whose condition 'C < Clast' depends on the thread
    // CHECK: :[[@LINE-4]]:3: note: it is inside a loop
    C += 16;
  }
}

// Parenthesised builtins are the builtins: (blockIdx.y) is uniform. Silent.
__global__ void parenthesisedBlockIndex(float *a) {
  __shared__ float s[64];
  bool lower = blockIdx.x > blockIdx.y;
  int ii = lower ? (blockIdx.x - 1) : (blockIdx.y + gridDim.y);
  int jj = lower ? (blockIdx.y) : (blockIdx.x + gridDim.y);
  if (ii == jj) {
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[63 - threadIdx.x];
  }
  if ((threadIdx.x) < 16)
    __syncthreads();
  // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'parenthesisedBlockIndex' is skipped by 48 of 64 threads of the block 64x1x1: threads 16-63
  // CHECK: :[[@LINE-3]]:3: note: it is inside
}

void launchAll(float *a, const float *c, const int *f, int n) {
  firstSixteen<<<1, 64>>>(a);
  boundsReturn<<<(n + 255) / 256, 256>>>(c, a, n);
  boundsGuardedWork<<<(n + 255) / 256, 256>>>(c, a, n);
  dataCondition<<<1, 64>>>(f);
  perThreadTrips<<<1, 128>>>(a);
  breakOut<<<1, 32>>>(a);
  shrinkingGuard<<<1, 256>>>(a);
  helperBarrier<<<1, 64>>>(c);
  helperReturn<<<1, 128>>>(c, a, n);
  firstRow<<<1, dim3(16, 16)>>>(a);
  everyRow<<<1, dim3(16, 16)>>>(a);
  groupSync<<<1, 32>>>(a);
  gridSync<<<8, 32>>>(a);
  reducedFlag<<<1, 64>>>(f, a);
  uniformConditions<<<4, 64>>>(a, n);
  treeReduction<<<4, 256>>>(a);
  treeReductionNoBarrier<<<4, 256>>>(a);
  uniformLoadByConstRef<<<dim3(1, 1, 8), 64>>>(f, n, cplx{1.0, 0.0}, a);
  outputByReference<<<1, 64>>>(f, a);
  samePointerOffset<<<1, dim3(16, 4)>>>(c, n, n, a);
  otherPointerOffset<<<1, 64>>>(c, n, a);
  parenthesisedBlockIndex<<<dim3(4, 4), 64>>>(a);
}

// An exit on a value one lane hands to its warp (cudasift's extrema search): warp-uniform.
// In blocks of one warp it keeps or drops the whole block: silent. In blocks of two warps
// one warp may leave while the other waits at the barrier: a warning.
__global__ void broadcastExitOneWarp(float *d, float thresh) {
  __shared__ float s[32];
  float v = d[blockIdx.x * 32 + threadIdx.x];
  if (__shfl_sync(0xffffffffu, v, 0) <= thresh)
    return;
  s[threadIdx.x] = v;
  __syncthreads();
  d[blockIdx.x * 32 + threadIdx.x] = s[31 - threadIdx.x];
}
__global__ void broadcastExitTwoWarps(float *d, float thresh) {
  __shared__ float s[64];
  float v = d[blockIdx.x * 64 + threadIdx.x];
  if (__shfl_sync(0xffffffffu, v, 0) <= thresh)
    return;
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'broadcastExitTwoWarps' may be skipped by part of the block: threads for which '__shfl_sync(0xffffffffu, v, 0) <= thresh' holds leave at the 'return' on line [[@LINE-3]] before it [warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: threads for which
  d[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
void launchBroadcastExits(float *d, float t) {
  broadcastExitOneWarp<<<16, 32>>>(d, t);
  broadcastExitTwoWarps<<<16, 64>>>(d, t);
}
