// warplint-divergent-branch: a bounds guard of a sweep in warp-wide windows (thirteenth
// session, NVIDIA/AMGX's DILU setup: `for (wb = 0; wb < ITERS; wb++) if (a_row_id != -1 &&
// wb * WARP_SIZE + lane_id < NxN) e[wb] = A_vals[...]`). The lanes cover the aligned window
// [32 * wb, 32 * wb + 32); a compile-time limit splits the warp only in the window that
// holds it, the sweep's last, as a grid's tail does: silent, as a bounds guard. The same
// with the lane read from %laneid and with lanes two elements apart (`wb * 64 + 2 * lane`).
// The same guard alone, as a `break` (ginkgo's transpose_blocks<B, 32>: `pos = i * 32 +
// rank; if (pos >= B * B) break;`), for a 7x7 tile (two windows) and a 2x2 one (one
// window, four lanes): the sweep `for (i = lane; i < B * B; i += 32)` written by windows,
// silent as that stride loop is (seventeenth session; the 2x2 tile's idle lanes are the
// tile's size against the group's, not a branch).
// Reported: a lane role against a constant with nothing that moves the window (`lane <
// 16`), and a window not aligned to the warp (`wb * 16 + lane`: lanes of two windows).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__device__ __forceinline__ int asmLane() {
  int id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

template <int N>
__global__ void blockLoad(const double *vals, const int *diag, double *out, int n) {
  const int lane = threadIdx.x % 32;
  constexpr int NxN = N * N, ITERS = (NxN + 31) / 32;
  for (int row = blockIdx.x * 4 + threadIdx.x / 32; row < n; row += gridDim.x * 4) {
    double e[ITERS];
    int d = diag[row];
#pragma unroll
    for (int wb = 0; wb < ITERS; wb++) {
      e[wb] = 0.0;
      if (d != -1 && wb * 32 + lane < NxN)
        e[wb] = vals[NxN * d + wb * 32 + lane];
    }
#pragma unroll
    for (int wb = 0; wb < ITERS; wb++)
      out[(row * ITERS + wb) * 32 + lane] = e[wb];
  }
}

template <int N>
__global__ void blockLoadAsm(const double *vals, double *out, int n) {
  const int lane = asmLane();
  constexpr int NxN = N * N, ITERS = (NxN + 63) / 64;
  int row = blockIdx.x * 4 + threadIdx.x / 32;
#pragma unroll
  for (int wb = 0; wb < ITERS; wb++)
    if (wb * 64 + 2 * lane < NxN)
      out[row * NxN + wb * 64 + 2 * lane] = vals[row * NxN + wb * 64 + 2 * lane];
}

__global__ void laneRole(double *s, int n) {
  const int lane = threadIdx.x % 32;
  for (int k = 0; k < n; ++k) {
    if (lane < 16)
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'lane' diverges in 4 of 4 warps of kernel 'laneRole'{{.*}}[warplint-divergent-branch]
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      s[(blockIdx.x * 4 + threadIdx.x / 32) * 32 + lane] *= 2.0;
    __syncwarp();
  }
}

__global__ void halfWindows(const double *vals, double *out, int n) {
  const int lane = threadIdx.x % 32;
  int row = blockIdx.x * 4 + threadIdx.x / 32;
#pragma unroll
  for (int wb = 0; wb < 4; wb++)
    if (wb * 16 + lane < 49) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'lane' diverges in {{.*}} of kernel 'halfWindows'{{.*}}[warplint-divergent-branch]
      double v = vals[row * 49 + wb * 16 + lane];
      for (int r = 0; r < n; ++r)
        out[(row * 4 + wb) * 32 + r] += v;
    }
}

template <int B>
__global__ void transposeTiles(int tiles, float *values) {
  const int lane = threadIdx.x % 32;
  constexpr int B2 = B * B, PER = (B2 - 1) / 32 + 1;
  float orig[PER];
  for (int t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < tiles;
       t += gridDim.x * blockDim.x / 32) {
    for (int i = lane; i < B2; i += 32)
      orig[i / 32] = values[t * B2 + i];
    __syncwarp();
    for (int i = 0; i < PER; i++) {
      const int pos = i * 32 + lane;
      if (pos >= B2)
        break;
      values[t * B2 + (pos % B) * B + pos / B] = orig[i];
    }
    __syncwarp();
  }
}

void go(const double *v, const int *d, double *o, int n) {
  transposeTiles<7><<<64, 512>>>(n, (float *)o);
  transposeTiles<2><<<64, 512>>>(n, (float *)o);
  blockLoad<5><<<64, 128>>>(v, d, o, n);
  blockLoad<7><<<64, 128>>>(v, d, o, n);
  blockLoadAsm<9><<<64, 128>>>(v, o, n);
  laneRole<<<64, 128>>>(o, n);
  halfWindows<<<64, 128>>>(v, o, n);
}
