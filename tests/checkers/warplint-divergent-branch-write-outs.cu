// warplint-divergent-branch: a few lanes writing out what the others computed (issue 23,
// HeCBench's segsort, logic-rewrite, fpdc and match), and a row picked by a uniform value
// (tsne). Each is silent or a note; beside each, its twin that does the work in the arm
// and stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

#define BINS 13

// The first lanes of warp 0 add the block's bins to the global counters, once per block,
// one atomic each, in a kernel whose loop is a helper's (the warp's scan): a note.
__device__ void warpScan(int *s, int n) {
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    int v = __shfl_up_sync(0xffffffff, lane < n ? s[lane] : 0, d);
    if (lane >= d && lane < n)
      s[lane] += v;
  }
}
__global__ void binCount(const int *sizes, int n, int *counter) {
  __shared__ int local[BINS + 1];
  int gid = threadIdx.x + blockIdx.x * blockDim.x;
  int tid = threadIdx.x;
  if (tid < BINS + 1)
    local[tid] = 0;
  __syncthreads();
  if (gid < n) {
    int size = sizes[gid];
    if (size <= 1)
      atomicAdd(&local[0], 1);
    if (2048 < size)
      atomicMax(&local[BINS], size);
  }
  __syncthreads();
  if (tid < 32) {
    warpScan(local, BINS);
    if (tid < BINS)
      atomicAdd(&counter[tid], local[tid]);
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'tid' diverges in 1 of 1 warps of kernel 'binCount'
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the branch runs once per thread, outside the kernel's loops, and its arm is one statement
  }
}

// The even lane of each pair picks the better of its and its partner's result after the
// exchange (`__shfl_xor_sync(..., 1)`) and stores it: the pair's write-out. Silent.
__device__ int work(int root, int *level, const int *t) {
  int c = 0;
  for (int i = 0; i < root; i++)
    c += t[i];
  *level = c & 7;
  return c;
}
__global__ void pairSelect(const int *roots, const int *lens, const int *t, int *sel, int n) {
  int stride = gridDim.x * blockDim.x;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int added, other, level, otherLevel, pick;
  for (; idx < 2 * n; idx += stride) {
    int cone = idx >> 1;
    added = work(roots[cone], &level, t);
    other = __shfl_xor_sync(0xffffffff, added, 1);
    otherLevel = __shfl_xor_sync(0xffffffff, level, 1);
    if (idx % 2 == 0) {
      pick = -1;
      if (added > -1)
        pick = 0;
      if (other > -1) {
        if (added == -1)
          pick = 1;
        else if (other < added || (other == added && (lens[idx + 1] == 1 || otherLevel < level)))
          pick = 1;
      }
      sel[cone] = (pick == -1 ? -1 : idx + pick);
    }
  }
}
// Twin: the even lanes do the pair's work in the arm (a loop of their own). A warning.
__global__ void pairWork(const int *roots, const int *t, int *sel, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int level;
  int added = work(roots[idx], &level, t);
  int other = __shfl_xor_sync(0xffffffff, added, 1);
  if (idx % 2 == 0) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'idx' diverges in
    for (int i = 0; i < other; i++)
      added += t[i];
    sel[idx] = added;
  }
}

// Two lanes' half-bytes packed into one byte: every lane stores its code to a shared
// array, then the odd lane of each pair stores its and its neighbour's (`(lane & 1) != 0`),
// once per trip. Silent.
__global__ void packPairs(const int *in, char *out, const int *cut) {
  __shared__ int codes[256 + 16];
  int lane = threadIdx.x & 31;
  int slot = threadIdx.x + 16;
  int warp = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  int start = warp > 0 ? cut[warp - 1] : 0, term = cut[warp];
  int off = (start + 1) / 2;
  for (int i = start + lane; i < term; i += 32) {
    int code = in[i] & 15;
    codes[slot] = code;
    __threadfence_block();
    if ((lane & 1) != 0) {
      out[off + (lane >> 1)] = codes[slot - 1] | (code << 4);
    }
    off += 16;
  }
}
// Twin: the odd lanes store without any exchange before (their own work, no pair's
// result). A warning.
__global__ void oddLanes(const int *in, char *out, const int *cut) {
  int lane = threadIdx.x & 31;
  int warp = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
  int start = warp > 0 ? cut[warp - 1] : 0, term = cut[warp];
  for (int i = start + lane; i < term; i += 32) {
    int code = in[i] & 15;
    if ((lane & 1) != 0) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'lane' diverges in
      for (int k = 0; k < code; k++)
        out[i + k] = (char)(code << 4);
    }
  }
}

// The first row keeps each column's maximum of the rows' partial maxima after the loop
// and writes it: the block's final reduction step, once. Silent.
__global__ void columnMax(const float *a, float *best, int *where) {
  __shared__ float scores[64];
  __shared__ int indices[64];
  int tx = threadIdx.x, ty = threadIdx.y;
  float m = 0.f;
  int at = -1;
  for (int k = 0; k < 64; k++) {
    float s = a[k * 256 + ty * 16 + tx];
    if (s > m) {
      m = s;
      at = k;
    }
  }
  if (ty < 4) {
    scores[ty * 16 + tx] = m;
    indices[ty * 16 + tx] = at;
  }
  __syncthreads();
  if (ty == 0) {
    m = scores[tx];
    at = indices[tx];
    for (int y = 0; y < 4; y++)
      if (scores[y * 16 + tx] > m) {
        m = scores[y * 16 + tx];
        at = indices[y * 16 + tx];
      }
    best[blockIdx.x * 16 + tx] = m;
    where[blockIdx.x * 16 + tx] = at;
  }
}

// The row j == k of a flattened index j = tid / N skips one multiply in trip k: one row
// picked by a uniform value, at most the two warps at its ends split. Silent. A parity of
// the row (`j % 2 != k % 2`) splits every warp of rows narrower than a warp: a warning.
__global__ void interpolate(float *out, const float *ybox, const float *spacing, int points,
                            int N) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= N * points)
    return;
  int i = tid % N;
  int j = tid / N;
  float value = 1, other = 1;
  float y = ybox[i];
  for (int k = 0; k < points; k++) {
    if (j != k)
      value *= y - spacing[k];
    if (j % 2 != k % 2)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'j' diverges in
      other *= y - spacing[k + 1];
  }
  out[j * N + i] = value * other;
}

// The first lane of each row's group writes the row's result after the group's shuffle
// reduction, updating in place and reading through a cache-hinted load (AMGX's
// DILU_backward_1x1_kernel): a write-out. Silent.
__global__ void rowGroups(const float *vals, const float *delta, const float *einv, float *x,
                          float *out, int n) {
  const int lane = threadIdx.x % 32;
  const int inRow = lane % 8;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) / 8; r < n;
       r += gridDim.x * blockDim.x / 8) {
    float acc = vals[r * 8 + inRow];
    for (int m = 4; m > 0; m >>= 1)
      acc += __shfl_xor_sync(0xffffffff, acc, m);
    if (inRow == 0) {
      float d = __ldg(&delta[r]) - einv[r] * acc;
      x[r] += 0.5f * d;
      out[r] = d;
    }
  }
}

void launch(const int *sizes, int n, int *counter, const int *roots, const int *lens,
            const int *t, int *sel, char *out, const float *a, float *best, float *yb,
            const float *sp) {
  binCount<<<(n + 255) / 256, 256>>>(sizes, n, counter);
  pairSelect<<<(2 * n + 127) / 128, 128>>>(roots, lens, t, sel, n);
  pairWork<<<(2 * n + 127) / 128, 128>>>(roots, t, sel, n);
  packPairs<<<n, 256>>>(sizes, out, counter);
  oddLanes<<<n, 256>>>(sizes, out, counter);
  columnMax<<<n, dim3(16, 16)>>>(a, best, counter);
  interpolate<<<(3 * n + 127) / 128, 128>>>(best, yb, sp, 3, n);
  rowGroups<<<(n + 15) / 16, 128>>>(a, a, a, best, best, n);
}
