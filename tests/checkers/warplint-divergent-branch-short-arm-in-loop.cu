// warplint-divergent-branch: a short arm beside its loop's work (issue 23, twelfth session,
// NVIDIA/AMGX). A warp per row: two lanes load the row's bounds for the others (`if (lane <
// 2) t = rows[r + lane];`, then shuffles), or the lanes that hold a block row's entries
// load them, once per trip of the row loop, whose trip also runs the loop over the row's
// columns. The split costs each warp a masked statement or two per row beside that loop:
// a note. The same arm in a loop with no loop of its own (the trip's only work), and a
// step of the warp's tree (`s[t] += s[t + 16]`, reading what another lane wrote), stay
// warnings. Loops of constant trips around the arm, holding nothing else, are the arm
// written out (thirteenth session, AMGX's DILU: `#pragma unroll for (i = 0; i < N; ++i) if
// (lane < N) sum += s[N * lane + i];` after the row's loop over its blocks): a note; the
// same unrolled arm as the trip's only work stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void rowsPerWarp(const int *rows, const int *cols, const float *vals,
                            const float *x, float *y, int n) {
  const int lane = threadIdx.x % 32;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warps = gridDim.x * blockDim.x / 32;
  for (int r = warp; r < n; r += warps) {
    int t = -1;
    if (lane < 2)
      t = rows[r + lane];
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the arm is one statement of straight-line work inside a loop whose trip also runs a loop of its own
    int begin = __shfl_sync(0xffffffff, t, 0);
    int end = __shfl_sync(0xffffffff, t, 1);
    float sum = 0.f;
    for (int j = begin + lane; j < end; j += 32)
      sum += vals[j] * x[cols[j]];
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, o);
    if (lane == 0)
      y[r] = sum;
  }
}

// The same arm as the whole trip's work: a warning.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void armIsTheTrip(const int *rows, int *out, int n) {
  const int lane = threadIdx.x % 32;
  for (int r = 0; r < n; ++r) {
    if (lane < 2)
      out[r * 2 + lane] = rows[r + lane];
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  }
}

// A step of the warp's own tree in shared memory inside the row loop: a warning.
__global__ void treeInRowLoop(const float *vals, float *y, int n) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  const int lane = t % 32;
  for (int r = blockIdx.x; r < n; r += gridDim.x) {
    float sum = 0.f;
    for (int j = lane; j < 1024; j += 32)
      sum += vals[r * 1024 + j];
    s[t] = sum;
    __syncwarp();
    if (lane < 16)
      s[t] += s[t + 16];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'lane' diverges in
    __syncwarp();
    if (lane == 0)
      y[r] = s[t] + s[t + 1];
  }
}

// The lane's own element, scaled in the pivot loop beside the loop over the block: a note
// (it reads no other lane's element).
__global__ void scaleRow(float *a, const float *d, int n) {
  __shared__ float s[32 * 8];
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x];
  for (int row = 0; row < 8; ++row) {
    float diag = d[row];
    if (lane < 8 && lane != row)
      s[8 * row + lane] = s[8 * row + lane] * diag;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the arm is one statement of straight-line work inside a loop whose trip also runs a loop of its own
    __syncwarp();
    for (int k = lane; k < 64; k += 32)
      s[k] += diag;
    __syncwarp();
  }
  a[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x];
}

// Three 3x3 blocks to a warp: the 5 lanes past them return at the start. A note. The same
// return inside a loop, after the lanes worked, stays a warning.
template <int BLOCKS, int BSQ>
__global__ void packed(const float *in, float *out, int n) {
  const int lane = threadIdx.x & 31;
  if (lane >= BLOCKS * BSQ) { return; }
  // CHECK: :[[@LINE-1]]:7: remark: branch on 'lane' diverges in 4 of 4 warps of kernel 'packed' (block 128x1x1)
  // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the lanes of each warp past a compile-time count return at once
  const int i = (threadIdx.x / 32) * BLOCKS * BSQ + lane + blockIdx.x * 4 * BLOCKS * BSQ;
  for (int k = 0; k < n; ++k)
    out[i] += in[i + k];
}
__global__ void packedInLoop(const float *in, float *out, int n) {
  const int lane = threadIdx.x & 31;
  const int i = (threadIdx.x / 32) * 27 + lane + blockIdx.x * 4 * 27;
  for (int k = 0; k < n; ++k) {
    out[i] += in[i + k];
    if (lane >= 27) { return; }
    // CHECK: :[[@LINE-1]]:9: warning: branch on 'lane' diverges in
  }
}

// Forward substitution in a warp (ggml's solve_tri_f32_fast): the lanes left of the
// diagonal add their term, then the warp's shuffle reduction. The trip's only other loop is
// that reduction, no work over memory: the split is the step's work, a warning.
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__global__ void forwardSubst(const float *A, float *xOut, int n) {
  const int lane = threadIdx.x % 32;
  float x = xOut[lane];
  for (int row = 0; row < 32; ++row) {
    float sum = 0.f;
    if (lane < row)
      sum += A[row * 32 + lane] * x;
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'lane' diverges in
    sum = warpSum(sum);
    if (lane == row)
      x = (x - sum) / A[row * 33];
  }
  xOut[lane] = x;
}

// The first N lanes sum their row of an NxN block in shared memory, in a loop of constant
// trips, after the row loop's own loop over the row's blocks: a note.
template <int N>
__global__ void blockRowSum(const int *rows, const float *vals, float *y, int n) {
  __shared__ float s[4 * 32];
  const int lane = threadIdx.x % 32;
  float *mine = &s[(threadIdx.x / 32) * 32];
  for (int r = blockIdx.x * 4 + threadIdx.x / 32; r < n; r += gridDim.x * 4) {
    for (int j = rows[r]; j < rows[r + 1]; ++j)
      mine[lane] += vals[j * 32 + lane];
    __syncwarp();
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (lane < N)
        sum += mine[N * lane + i];
    }
    // CHECK: :[[@LINE-3]]:11: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-4]]:11: note: a note, not a warning: the arm is one statement of straight-line work (repeated by a loop of constant trips) inside a loop whose trip also runs a loop of its own
    if (lane < N)
      y[r * N + lane] = sum;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the arm is one statement of straight-line work inside a loop whose trip also runs a loop of its own
  }
}
// The same sum over 64 constant trips: no arm written out but a loop of work, a warning.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void blockRowSumLong(const int *rows, const float *vals, float *y, int n) {
  __shared__ float s[4 * 64 * 4];
  const int lane = threadIdx.x % 32;
  float *mine = &s[(threadIdx.x / 32) * 256];
  for (int r = blockIdx.x * 4 + threadIdx.x / 32; r < n; r += gridDim.x * 4) {
    for (int j = rows[r]; j < rows[r + 1]; ++j)
      mine[lane] += vals[j * 32 + lane];
    __syncwarp();
    float sum = 0.f;
    for (int i = 0; i < 64; ++i) {
      if (lane < 4)
        sum += mine[4 * i + lane];
    }
    // CHECK: :[[@LINE-3]]:11: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-4]]:11: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    y[r * 4 + lane % 4] = sum;
  }
}

// The same sum with no other loop in the row's trip: a warning.
template <int N>
__global__ void blockRowSumOnly(const float *vals, float *y, int n) {
  __shared__ float s[4 * 32];
  const int lane = threadIdx.x % 32;
  float *mine = &s[(threadIdx.x / 32) * 32];
  for (int r = blockIdx.x * 4 + threadIdx.x / 32; r < n; r += gridDim.x * 4) {
    mine[lane] = vals[r * 32 + lane];
    __syncwarp();
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (lane < N)
        sum += mine[N * lane + i];
    // CHECK: :[[@LINE-2]]:11: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:11: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    y[r * N + lane % N] = sum;
  }
}

void launch(const int *rows, const int *cols, const float *vals, const float *x, float *y,
            int *out, int n) {
  forwardSubst<<<n, 32>>>(vals, y, n);
  scaleRow<<<n, 256>>>(y, vals, n);
  packed<3, 9><<<n, 128>>>(vals, y, n);
  packedInLoop<<<n, 128>>>(vals, y, n);
  rowsPerWarp<<<(n + 3) / 4, 128>>>(rows, cols, vals, x, y, n);
  armIsTheTrip<<<1, 64>>>(rows, out, n);
  treeInRowLoop<<<n, 256>>>(vals, y, n);
  blockRowSum<4><<<n, 128>>>(rows, vals, y, n);
  blockRowSumOnly<4><<<n, 128>>>(vals, y, n);
  blockRowSumLong<<<n, 128>>>(rows, vals, y, n);
}
