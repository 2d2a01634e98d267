// warplint-data-race: barrier intervals through loops whose barrier opens the body, and
// stores of one value per warp by every lane of that warp.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.ReportBenign: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BENIGN %s

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The tree reduction with its barrier at the top of the loop body (llm.c's
// softmax_forward_kernel2): the store before the loop and the reads after the barrier
// are in different intervals, although the loop's exit follows both. Silent.
__global__ void reduceBarrierFirst(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    __syncthreads();
    if (tid < k)
      s[tid] += s[tid + k];
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = s[0];
}

// The same shape, but a read before the body's barrier: at the first iteration it follows
// the store before the loop with no barrier between. A race.
__global__ void readBeforeBarrier(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  float acc = 0;
  for (unsigned k = 1; k < 4; ++k) {
    acc += s[(tid + 1) % 256];
    // CHECK: :[[@LINE-1]]:12: warning: data race on shared 's[32]': thread 32 writes it (s[tid], line [[@LINE-4]]) and thread 31 reads it (s[(tid + 1) % 256], line [[@LINE-1]]) with no barrier between (block 256x1x1) [warplint-data-race]
    // CHECK: :[[@LINE-5]]:3: note: the other access to 's[32]'
    // CHECK: :[[@LINE-3]]:12: note: a __syncthreads() between line [[@LINE-6]] and line [[@LINE-3]] separates them
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// Every lane of a warp stores its warp's cg::reduce result to the warp's slot: one value
// per word (llm.c's `shared_sum[warp_id] = warp_sum`). Benign, so silent by default.
__global__ void warpSlots(float *out, const float *in) {
  __shared__ float partial[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
  partial[threadIdx.x / 32] = v;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on shared 'partial[0]': thread 0 writes it (partial[threadIdx.x / 32], line [[@LINE-1]]) and thread 1 writes it (partial[threadIdx.x / 32], line [[@LINE-1]]) in the same warp with no __syncwarp() between; both write the same value (block 256x1x1) [warplint-data-race]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0] + partial[7];
}

// Every warp stores its own result to one word: different warps, different values. A race.
__global__ void oneSlot(float *out, const float *in) {
  __shared__ float total;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  total = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'total': thread 0 writes it (total, line [[@LINE-1]]) and thread 32 writes it (total, line [[@LINE-1]]) with no barrier between (block 256x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before it is read
  __syncthreads();
  out[blockIdx.x] = total;
}

// A tile of 16: the two half-warps reduce to different values and store them to the same
// word of their warp. A race inside the warp (lanes 0 and 16 write different values; the
// message names the first pair it met, lanes of one tile, since the analysis keeps no
// per-tile value).
__global__ void halfWarpSlots(float *out, const float *in) {
  __shared__ float partial[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  partial[threadIdx.x / 32] = cg::reduce(half, in[threadIdx.x], cg::plus<float>());
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'partial[0]': thread 0 writes it (partial[threadIdx.x / 32], line [[@LINE-1]]) and thread 1 writes it (partial[threadIdx.x / 32], line [[@LINE-1]]) in the same warp with no __syncwarp() between (block 256x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: since sm_70 (independent thread scheduling) the lanes of a warp are not in lockstep: a __syncwarp() between the accesses separates them
  __syncthreads();
  out[blockIdx.x] = partial[0];
}

// Two wavefront loops one after the other, each with its barrier last (Rodinia's nw):
// the first loop's start-of-trip store and the second loop's start-of-trip read both
// follow the first loop's last barrier in some trip, but never in the same interval (the
// second loop starts after the first has ended, at a barrier). Silent.
__global__ void twoWavefronts(int *out, const int *in) {
  int tx = threadIdx.x;
  __shared__ int t[17][17];
  t[tx + 1][0] = in[tx];
  t[0][tx + 1] = in[tx + 16];
  __syncthreads();
  for (int m = 0; m < 16; m++) {
    if (tx <= m)
      t[m - tx + 1][tx + 1] = t[m - tx][tx] + t[m - tx + 1][tx] + t[m - tx][tx + 1];
    __syncthreads();
  }
  for (int m = 14; m >= 0; m--) {
    if (tx <= m)
      t[16 - tx][tx + 16 - m] = t[15 - tx][tx + 15 - m] + t[16 - tx][tx + 15 - m];
    __syncthreads();
  }
  out[blockIdx.x * 16 + tx] = t[tx + 1][16];
}

// cuda-samples' bitonicSortShared1: a loop whose barrier sits in an inner loop, then a
// second loop with its barrier first. The second loop's start follows either no trip of
// the first (the stores before it) or its last inner trip (the reads after the inner
// barrier); those two never share an interval. Silent.
__global__ void bitonicTwoPhases(unsigned *out, const unsigned *in) {
  __shared__ unsigned key[1024];
  key[threadIdx.x] = in[blockIdx.x * 1024 + threadIdx.x];
  key[threadIdx.x + 512] = in[blockIdx.x * 1024 + threadIdx.x + 512];
  for (unsigned size = 2; size < 1024; size <<= 1) {
    unsigned dir = (threadIdx.x & (size / 2)) != 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      unsigned a = key[pos], b = key[pos + stride];
      if ((a > b) == dir) {
        key[pos] = b;
        key[pos + stride] = a;
      }
    }
  }
  for (unsigned stride = 512; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned a = key[pos], b = key[pos + stride];
    if (a > b) {
      key[pos] = b;
      key[pos + stride] = a;
    }
  }
  __syncthreads();
  out[blockIdx.x * 1024 + threadIdx.x] = key[threadIdx.x];
}

// A store after the loop body's barrier and a read after the loop: the last trip's end
// and the code after the loop share an interval. A race.
__global__ void tailThenAfter(float *out, const float *in) {
  __shared__ float s[256];
  for (int k = 0; k < 4; ++k) {
    __syncthreads();
    s[threadIdx.x] = in[k * 256 + threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 1) % 256];
  // CHECK: :[[@LINE-1]]:41: warning: data race on shared 's[32]': thread 32 writes it (s[threadIdx.x], line [[@LINE-3]]) and thread 31 reads it (s[(threadIdx.x + 1) % 256], line [[@LINE-1]]) with no barrier between (block 256x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-4]]:5: note: the other access to 's[32]'
  // CHECK: :[[@LINE-3]]:41: note: a __syncthreads() between line [[@LINE-5]] and line [[@LINE-3]] separates them
}

// A read in one arm of `?:` runs only where the condition picks that arm (ggml's cumsum:
// `tid < warps ? sums[tid] : 0`, with the chunk total stored just past the sums). Thread 8
// never reads s[8], so its store by thread 7 is no race. Silent.
__global__ void selectArmRead(float *out, const float *in) {
  __shared__ float s[9];
  unsigned tid = threadIdx.x;
  if (tid % 32 == 31)
    s[tid / 32] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  if (tid < 32) {
    float w = tid < 8 ? s[tid] : 0.0f;
    if (tid == 7)
      s[8] = w;
  }
  __syncthreads();
  out[blockIdx.x * 256 + tid] = s[8];
}

// Every thread stores one constant to its own word, then reads another thread's: the
// other thread may not have stored yet. A race (the constant does not make it benign:
// only a word every thread stores is read the same either way).
__global__ void constantOwnWord(float *out) {
  __shared__ float t[256];
  t[threadIdx.x] = 1.0f;
  out[blockIdx.x * 256 + threadIdx.x] = t[255 - threadIdx.x];
  // CHECK: :[[@LINE-1]]:41: warning: data race on shared 't[{{[0-9]+}}]': thread {{[0-9]+}} writes it (t[threadIdx.x], line [[@LINE-2]]) and thread {{[0-9]+}} reads it (t[255 - threadIdx.x], line [[@LINE-1]]) with no barrier between (block 256x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-3]]:3: note: the other access to 't[{{[0-9]+}}]'
  // CHECK: :[[@LINE-3]]:41: note: a __syncthreads() between line [[@LINE-4]] and line [[@LINE-3]] separates them
}

// A scalar `__shared__` stored by the block's last thread only (Rodinia's huffman
// `kcmax`), then read by all after the barrier. Silent: the store's guard counts for a
// scalar as it does for an array element.
__global__ void lastThreadScalar(float *out, const float *in) {
  __shared__ float last;
  if (threadIdx.x == blockDim.x - 1)
    last = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = last;
}

// The same store with no guard: every thread stores its own value. A race.
__global__ void everyThreadScalar(float *out, const float *in) {
  __shared__ float last;
  last = in[threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'last': thread 0 writes it (last, line [[@LINE-1]]) and thread 32 writes it (last, line [[@LINE-1]]) with no barrier between (block 256x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before it is read
  __syncthreads();
  out[threadIdx.x] = last;
}

void launchInt(int *o, const int *i) { twoWavefronts<<<64, 16>>>(o, i); }
void launchUnsigned(unsigned *o, const unsigned *i) { bitonicTwoPhases<<<64, 512>>>(o, i); }

void launch(float *f, const float *g) {
  lastThreadScalar<<<64, 256>>>(f, g);
  constantOwnWord<<<64, 256>>>(f);
  selectArmRead<<<64, 256>>>(f, g);
  tailThenAfter<<<64, 256>>>(f, g);
  everyThreadScalar<<<64, 256>>>(f, g);
  reduceBarrierFirst<<<64, 256>>>(f, g);
  readBeforeBarrier<<<64, 256>>>(f, g);
  warpSlots<<<64, 256>>>(f, g);
  oneSlot<<<64, 256>>>(f, g);
  halfWarpSlots<<<64, 256>>>(f, g);
}
