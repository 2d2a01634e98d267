// warplint-warp-sync-mask: warp-synchronous calls whose mask (or tile) names lanes that do
// not take part.
// RUN: %not %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A block of 48 threads: warp 1 has lanes 0-15 only, and the full mask names 16-31, which
// lanes 0-15 read. The __syncwarp() after it names them too, but they are no threads, and
// a __syncwarp() reads nothing (warplint-warp-sync-mask-partial-warp.cu).
__global__ void partialWarp(float *a) {
  float v = a[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  // CHECK: :[[@LINE-1]]:10: error: mask 0xffffffff of '__shfl_down_sync()' in kernel 'partialWarp' names lanes 16-31 of warp 1 that do not take part (block 48x1x1, offset = 16: warp 1 of the block has lanes 0-15 only, and lanes that reach it read them); a value read from a lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-2]]:10: note: give the lanes that arrive as the mask
  a[threadIdx.x] = v;
  __syncwarp();
}

// A thread-dependent condition keeps half of each warp away from a full-mask shuffle.
__global__ void halfWarp(float *a) {
  float v = a[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK: :[[@LINE-1]]:9: error: mask 0xffffffff of '__shfl_sync()' in kernel 'halfWarp' names lanes 16-31 of warp 0 (and lanes of 1 more warp) that do not take part (block 64x1x1: they do not reach it); a named lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-3]]:3: note: it is inside 'if (threadIdx.x % 32 < 16)', which depends on the thread
  // CHECK: :[[@LINE-3]]:9: note: give the lanes
  a[threadIdx.x] = v;
}

// The full mask after a thread-dependent early return: decided by n at run time.
__global__ void returnBeforeShuffle(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = a[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'returnBeforeShuffle' names lanes that may not take part: the threads whose 'i' is at or past 'n' (the tail of the last block, when 'n' is not a multiple of the block) leave at the 'return' on line 36 and never reach it [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:8: note: give the lanes
  a[i] = v;
}

// __syncwarp under an odd-lane condition, and a ballot under a data condition.
__global__ void oddLanes(const int *flags, unsigned *out) {
  if (threadIdx.x & 1)
    __syncwarp();
  // CHECK: :[[@LINE-1]]:5: error: mask 0xffffffff of '__syncwarp()' in kernel 'oddLanes' names lanes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 of warp 0 that do not take part (block 32x1x1: they do not reach it)
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-3]]:5: note: give the lanes
  if (flags[threadIdx.x])
    out[threadIdx.x] = __ballot_sync(0xffffffff, 1);
  // CHECK: :[[@LINE-1]]:24: warning: mask 0xffffffff of '__ballot_sync()' in kernel 'oddLanes' names lanes that may not take part: it is inside 'if (flags[threadIdx.x])', which depends on data loaded at a thread-dependent address [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-3]]:24: note: give the lanes
}

// A 2-D block of 8x4 threads is one warp; its first row is lanes 0-7.
__global__ void firstRowOfWarp(float *a) {
  float v = a[threadIdx.y * 8 + threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK: :[[@LINE-1]]:9: error: mask 0xffffffff of '__shfl_sync()' in kernel 'firstRowOfWarp' names lanes 8-31 of warp 0 that do not take part (block 8x4x1: they do not reach it)
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-3]]:9: note: give the lanes
  a[threadIdx.x] = v;
}

// A tile of 16: its collectives need every thread of the tile.
__global__ void tileHalf(float *a) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  float v = a[threadIdx.x];
  if (tile.thread_rank() < 8)
    v = tile.shfl_down(v, 1);
  // CHECK: :[[@LINE-1]]:9: error: 'thread_block_tile<16>::shfl_down()' (every thread of its tile of 16) in kernel 'tileHalf' names lanes 8-15, 24-31 of warp 0 that do not take part (block 32x1x1: they do not reach it)
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-3]]:9: note: keep every thread of the tile on the path to the call
  v = tile.shfl_down(v, 1);
  a[threadIdx.x] = v;
}

// Silent: masks from the same condition, the active mask, a coalesced group, full warps.
__global__ void silentMasks(float *a, int n) {
  float v = a[threadIdx.x];
  unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 16);
  if (threadIdx.x < 16)
    v = __shfl_sync(m, v, 0);
  if (a[threadIdx.x] > 0.0f) {
    unsigned active = __activemask();
    v += __shfl_down_sync(active, v, 1);
    cg::coalesced_group g = cg::coalesced_threads();
    v += g.shfl(v, 0);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x < 32) // warp 0, whole
    v += __shfl_xor_sync(0xffffffff, v, 1);
  if (threadIdx.x / 32 == 1) // warp 1, whole
    v += __shfl_xor_sync(0xffffffff, v, 2);
  if (threadIdx.x % 32 < 16) // the lanes the mask names
    v += __shfl_xor_sync(0x0000ffff, v, 1);
  if (n > 2) // uniform
    __syncwarp();
  a[threadIdx.x] = v;
}

// Lanes that returned from the kernel have exited: the mask rule of __syncwarp and the
// votes names the non-exited lanes only (the batched small-matrix idiom: rows of the block
// past batchCount leave). Silent. A return from a helper leaves the lane alive: it skips
// the helper's __syncwarp (a warning); and a shuffle after the kernel's return still reads
// from exited lanes (returnBeforeShuffle above).
__global__ void exitedRows(float *a, int batchCount) {
  __shared__ float s[64];
  int batchid = blockIdx.x * blockDim.y + threadIdx.y;
  if (batchid >= batchCount)
    return;
  s[threadIdx.y * 8 + threadIdx.x] = a[batchid * 8 + threadIdx.x];
  __syncwarp();
  unsigned any = __ballot_sync(0xffffffff, s[threadIdx.y * 8] > 0.0f);
  a[batchid * 8 + threadIdx.x] = float(any);
}
__device__ void rowStep(float *s, int batchid, int batchCount) {
  if (batchid >= batchCount)
    return;
  s[threadIdx.y * 8 + threadIdx.x] += 1.0f;
  __syncwarp();
  // CHECK: :[[@LINE-1]]:3: warning: mask 0xffffffff of '__syncwarp()' in kernel 'helperRows' names lanes that may not take part: the threads whose 'batchid' is at or past 'batchCount'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:3: note: give the lanes
  // CHECK: :[[@LINE+6]]:3: note: '__syncwarp()' is reached from kernel 'helperRows' through this call of 'rowStep'
}
__global__ void helperRows(float *a, int batchCount) {
  __shared__ float s[64];
  int batchid = blockIdx.x * blockDim.y + threadIdx.y;
  s[threadIdx.y * 8 + threadIdx.x] = 0.0f;
  rowStep(s, batchid, batchCount);
  a[threadIdx.y * 8 + threadIdx.x] = s[threadIdx.y * 8 + threadIdx.x];
}

// One row per warp (idx from threadIdx.x / 32, in an `unsigned` division): the run-time
// bound keeps or drops whole warps, so the full mask names only lanes that arrive. Silent
// with no launch in the file (the bound is no compile-time fact). A row per lane group of
// 16 splits warps: a warning.
__global__ void rowPerWarp(float *a, int rows) {
  int warpId = threadIdx.x / 32;
  for (int idx = blockIdx.x * (blockDim.x / 32) + warpId; idx < rows; idx += 64) {
    float v = a[idx * 32 + threadIdx.x % 32];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    a[idx * 32 + threadIdx.x % 32] = v;
  }
  if (warpId < rows)
    a[threadIdx.x] = __shfl_xor_sync(0xffffffff, a[threadIdx.x], 2);
  if (threadIdx.x / 16 < rows)
    a[threadIdx.x] = __shfl_xor_sync(0xffffffff, a[threadIdx.x], 4);
  // CHECK: :[[@LINE-1]]:22: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'rowPerWarp' names lanes that may not take part: it is inside 'if (threadIdx.x / 16 < rows)', which depends on the thread
  // CHECK: :[[@LINE-3]]:3: note: it is inside
  // CHECK: :[[@LINE-3]]:22: note: give the lanes
}

void launchAll(float *a, const int *f, unsigned *u, int n) {
  partialWarp<<<1, 48>>>(a);
  halfWarp<<<1, 64>>>(a);
  returnBeforeShuffle<<<(n + 255) / 256, 256>>>(a, n);
  oddLanes<<<1, 32>>>(f, u);
  firstRowOfWarp<<<1, dim3(8, 4)>>>(a);
  tileHalf<<<1, 32>>>(a);
  silentMasks<<<2, 128>>>(a, n);
  exitedRows<<<(n + 7) / 8, dim3(8, 8)>>>(a, n);
  helperRows<<<(n + 7) / 8, dim3(8, 8)>>>(a, n);
}
