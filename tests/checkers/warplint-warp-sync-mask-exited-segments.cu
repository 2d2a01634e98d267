// warplint-warp-sync-mask on a shuffle after lanes returned from the kernel (issue 23,
// FasterTransformer's topk_gating_softmax): an exited lane may be named in the mask (the
// rule is on the non-exited lanes), but a lane that stays must not read from one. Where each
// staying lane's source lane is known (the operand a constant or the counter of an unrolled
// butterfly, every trip; the width a constant) the check compares the sources with the
// lanes that stay. Rows of 4 or 8 lanes that leave together and butterflies inside the row's
// segment: silent. A lane that reads from a returned lane (the classic tail reduction, an
// xor that crosses the row), a source lane known only at run time, or lanes that leave by
// `continue` (alive, named, absent): reported.
// RUN: %not %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// One row per group of THREADS_PER_ROW lanes; the rows past numRows return.
template <int THREADS_PER_ROW>
__global__ void rowSoftmax(const float *in, float *out, int numRows) {
  constexpr int ROWS_PER_WARP = 32 / THREADS_PER_ROW;
  const int row = blockIdx.x * 4 * ROWS_PER_WARP + threadIdx.y * ROWS_PER_WARP +
                  threadIdx.x / THREADS_PER_ROW;
  if (row >= numRows)
    return;
  float v = in[row * THREADS_PER_ROW + threadIdx.x % THREADS_PER_ROW];
  float m = v;
#pragma unroll
  for (int mask = THREADS_PER_ROW / 2; mask > 0; mask /= 2)
    m += __shfl_xor_sync(0xFFFFFFFF, m, mask, THREADS_PER_ROW);
  float s = v - m;
#pragma unroll
  for (int mask = THREADS_PER_ROW / 2; mask > 0; mask /= 2)
    s += __shfl_xor_sync(0xFFFFFFFF, s, mask, THREADS_PER_ROW);
  // The row's first lane, the next lane of the row: inside the segment too.
  float first = __shfl_sync(0xFFFFFFFF, s, 0, THREADS_PER_ROW);
  float below = __shfl_up_sync(0xFFFFFFFF, s, 1, THREADS_PER_ROW);
  float above = __shfl_down_sync(0xFFFFFFFF, s, 1, THREADS_PER_ROW);
  out[row * THREADS_PER_ROW + threadIdx.x % THREADS_PER_ROW] = v / s + first + below + above;
}

// The classic tail: the lanes at or past n return, and a staying low lane reads a high lane.
__global__ void tailReduce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_down_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'tailReduce' names lanes that may not take part: the threads whose 'i' is at or past 'n' (the tail of the last block, when 'n' is not a multiple of the block) leave at the 'return' on line 40 and never reach it [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:8: note: give the lanes
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  // CHECK: :[[@LINE-1]]:10: note: the same cause leaves named lanes out of this call
  out[i] = v;
}

// Rows of 4 lanes with a butterfly that crosses the row: the xor 4 in a segment of 8 lanes,
// and xor masks without a width (segments of 32). A staying row reads the next row, which
// may have returned.
__global__ void crossRow(const float *in, float *out, int numRows) {
  const int row = blockIdx.x * 8 + threadIdx.x / 4;
  if (row >= numRows)
    return;
  float v = in[row * 4 + threadIdx.x % 4];
  v += __shfl_xor_sync(0xffffffff, v, 4, 8);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'crossRow' names lanes that may not take part: the threads whose 'row' is at or past 'numRows'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:8: note: give the lanes
  for (int mask = 16; mask > 0; mask /= 2)
    v += __shfl_xor_sync(0xffffffff, v, mask);
  // CHECK: :[[@LINE-1]]:10: note: the same cause leaves named lanes out of this call
  out[row * 4 + threadIdx.x % 4] = v;
}

// The same rows with a source lane read at run time: not known, so reported.
__global__ void runtimeLane(const float *in, float *out, int numRows, int src) {
  const int row = blockIdx.x * 8 + threadIdx.x / 4;
  if (row >= numRows)
    return;
  float v = in[row * 4 + threadIdx.x % 4];
  v = __shfl_sync(0xffffffff, v, src, 4);
  // CHECK: :[[@LINE-1]]:7: warning: mask 0xffffffff of '__shfl_sync()' in kernel 'runtimeLane' names lanes that may not take part: the threads whose 'row' is at or past 'numRows'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:7: note: give the lanes
  out[row * 4 + threadIdx.x % 4] = v;
}

// A butterfly whose first mask is a run-time value: its trips are not known, so reported.
__global__ void runtimeButterfly(const float *in, float *out, int numRows, int w) {
  const int row = blockIdx.x * 8 + threadIdx.x / 4;
  if (row >= numRows)
    return;
  float v = in[row * 4 + threadIdx.x % 4];
  for (int mask = w / 2; mask > 0; mask /= 2)
    v += __shfl_xor_sync(0xffffffff, v, mask, 4);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'runtimeButterfly' names lanes that may not take part: the threads whose 'row' is at or past 'numRows'
  // CHECK: :[[@LINE-5]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:10: note: give the lanes
  out[row * 4 + threadIdx.x % 4] = v;
}

// Rows that leave one trip by `continue` stay alive: they are named and skip the shuffle.
__global__ void continueRows(const float *in, float *out, int numRows) {
  float acc = 0.0f;
  for (int it = 0; it < 4; ++it) {
    const int row = it * 64 + blockIdx.x * 8 + threadIdx.x / 4;
    if (row >= numRows)
      continue;
    float v = in[row * 4 + threadIdx.x % 4];
    v += __shfl_xor_sync(0xffffffff, v, 1, 4);
    // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'continueRows' names lanes that may not take part: threads for which 'row >= numRows' holds leave at the 'continue' on line 103 before it
    // CHECK: :[[@LINE-4]]:7: note: threads for which
    // CHECK: :[[@LINE-3]]:10: note: give the lanes
    acc += v;
  }
  out[blockIdx.x * 32 + threadIdx.x] = acc;
}

// The butterfly in a helper the kernel calls after its rows of 4 returned: silent too.
__device__ float rowSum(float v) {
  for (int o = 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, 4);
  return v;
}
__global__ void helperRows(const float *in, float *out, int numRows) {
  const int row = blockIdx.x * 8 + threadIdx.x / 4;
  if (row >= numRows)
    return;
  out[row] = rowSum(in[row * 4 + threadIdx.x % 4]);
}

// A launch's block and no run-time value: evaluated. Lanes 20-31 return and lanes 4-15
// read them: an error. Lanes 16-31 return and the butterfly stays in lanes 0-15: silent.
__global__ void fixedTail(float *a) {
  if (threadIdx.x >= 20)
    return;
  float v = a[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  // CHECK: :[[@LINE-1]]:8: error: mask 0xffffffff of '__shfl_down_sync()' in kernel 'fixedTail' names lanes 20-31 of warp 0 that do not take part (block 32x1x1: they returned from the kernel, and lanes that reach it read them); a value read from a lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-4]]:5: note: threads for which 'threadIdx.x >= 20' holds leave
  // CHECK: :[[@LINE-3]]:8: note: give the lanes
  a[threadIdx.x] = v;
}
__global__ void fixedHalf(float *a) {
  if (threadIdx.x >= 16)
    return;
  float v = a[threadIdx.x];
  for (int m = 8; m > 0; m /= 2)
    v += __shfl_xor_sync(0xffffffff, v, m);
  a[threadIdx.x] = v;
}

void launchAll(const float *in, float *out, int n, int src) {
  rowSoftmax<4><<<(n + 31) / 32, dim3(32, 4)>>>(in, out, n);
  rowSoftmax<8><<<(n + 15) / 16, dim3(32, 4)>>>(in, out, n);
  rowSoftmax<1><<<(n + 127) / 128, dim3(32, 4)>>>(in, out, n);
  tailReduce<<<(n + 255) / 256, 256>>>(in, out, n);
  crossRow<<<(n + 7) / 8, 32>>>(in, out, n);
  runtimeLane<<<(n + 7) / 8, 32>>>(in, out, n, src);
  runtimeButterfly<<<(n + 7) / 8, 32>>>(in, out, n, src);
  continueRows<<<1, 32>>>(in, out, n);
  helperRows<<<(n + 7) / 8, 32>>>(in, out, n);
  fixedTail<<<1, 32>>>(out);
  fixedHalf<<<1, 32>>>(out);
}

// No launch in this file (HeCBench's softmax-online: the block size is the host's run-time
// value): the assumed block. After `if (tid >= C) return;` a broadcast from lane 0 reads a
// lane that stays whenever a lane of its warp stays, for every sampled C and in every
// alternative block (2-D ones too): silent. A shfl_down after the same return reads lanes
// that may have returned: a warning, as with a launch.
__global__ void broadcastAfterTail(const float *in, float *out, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  float v = in[blockIdx.x * C + tid];
  v = __shfl_sync(0xFFFFFFFF, v, 0);
  out[blockIdx.x * C + tid] = v;
}
__global__ void downAfterTail(const float *in, float *out, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  float v = in[blockIdx.x * C + tid];
  v += __shfl_down_sync(0xFFFFFFFF, v, 1);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'downAfterTail' names lanes that may not take part: the threads whose 'tid' is at or past 'C'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose
  // CHECK: :[[@LINE-3]]:8: note: give the lanes
  out[blockIdx.x * C + tid] = v;
}

// The same sampled whole under the assumed block, but on the block's rows (HeCBench's
// simpleSpmv: `m = blockIdx.x * blockDim.y + threadIdx.y`, launched as dim3(BS, bs / BS)
// from another function's run-time values): a block narrower than a warp in x puts rows
// that disagree into one warp, which no alternative block shows. Still a warning: the
// launch is in the file, with a run-time width.
template <int BS>
__global__ void rowsOfBS(const float *in, float *out, int numRows) {
  int m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < numRows) {
    float t = in[m * BS + threadIdx.x];
    for (int i = BS >> 1; i > 0; i >>= 1)
      t += __shfl_down_sync(0xFFFFFFFF, t, i, BS);
    // CHECK: :[[@LINE-1]]:12: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'rowsOfBS<4>' names lanes that may not take part: it is inside 'if (m < numRows)', which depends on the thread
    // CHECK: :[[@LINE-5]]:3: note: it is inside 'if (m < numRows)'
    // CHECK: :[[@LINE-3]]:12: note: give the lanes
    out[m] = t;
  }
}
void launchRowsOfBS(const float *in, float *out, int numRows, int bs) {
  rowsOfBS<4><<<(numRows + bs / 4 - 1) / (bs / 4), dim3(4, bs / 4)>>>(in, out, numRows);
}

// With no launch of the kernel in the file at all (PhysX launches its kernels from host
// code through the driver API), the block is assumed, and the assumed block and every
// alternative are a whole number of warps wide in x: a warp never holds two rows, so an
// item taken from threadIdx.y is the warp's own (thirteenth session). Silent.
__global__ void warpPerItem(const float *in, float *out, int numItems) {
  const int item = blockIdx.x * blockDim.y + threadIdx.y;
  if (item < numItems) {
    float t = in[item * 32 + threadIdx.x];
    for (int i = 16; i > 0; i >>= 1)
      t += __shfl_down_sync(0xFFFFFFFF, t, i);
    if (threadIdx.x == 0)
      out[item] = t;
  }
}
