// warplint-divergent-branch: a halo fill behind a flag (issue 23, HeCBench's laplace3d).
// The halo's threads are a band of the block's flat thread index (`k = tx + ty * 32;
// halo = k < 84;`), the flag only narrowed under `if (halo)` to the ones inside the
// domain, and `k` reused afterwards as the plane counter: the values of a local that
// reach the test are those written before it (or in a loop around it). `if (halo)` in
// the plane loop fills the tile's halo in shared memory: a note, as the same fill under
// `if (k < 84)` is. A flag set to a pattern of the lanes (`threadIdx.x % 2 == 0`) is no
// band, and stays reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define KOFF ((BX + 2) * (BY + 2))

__global__ void planes(int NX, int NY, int NZ, const float *d_u1, float *d_u2) {
  __shared__ float u1[3 * KOFF];
  int k = threadIdx.x + threadIdx.y * BX;
  int halo = k < 2 * (BX + BY + 2);
  int ind_h = 0, indg_h = 0;
  if (halo) {
    int i = threadIdx.y < 2 ? (int)threadIdx.x : (k % 2) * (BX + 1) - 1;
    int j = threadIdx.y < 2 ? (int)threadIdx.y * (BY + 1) - 1 : k / 2 - BX - 1;
    ind_h = (i + 1) + (j + 1) * (BX + 2) + KOFF;
    i += blockIdx.x * BX;
    j += blockIdx.y * BY;
    indg_h = i + j * NX;
    halo = (i >= 0) && (i < NX) && (j >= 0) && (j < NY);
  }
  int ind = (threadIdx.x + 1) + (threadIdx.y + 1) * (BX + 2) + KOFF;
  int indg = (blockIdx.x * BX + threadIdx.x) + (blockIdx.y * BY + threadIdx.y) * NX;
  for (k = 0; k < NZ; k++) {
    if (halo) {
      indg_h += NX * NY;
      u1[ind_h - KOFF] = u1[ind_h];
      u1[ind_h] = u1[ind_h + KOFF];
      u1[ind_h + KOFF] = d_u1[indg_h];
    }
    // CHECK: :[[@LINE-6]]:9: remark: branch on 'halo' diverges in
    // CHECK: :[[@LINE-7]]:9: note: a note, not a warning: the lanes at the tile's edge (a thread index against a constant) fill its halo in shared memory and do nothing else
    __syncthreads();
    d_u2[indg] = u1[ind] + u1[ind - 1] + u1[ind + 1];
    __syncthreads();
  }
}

__global__ void striped(int NX, int NZ, const float *d_u1, float *d_u2) {
  __shared__ float u1[3 * KOFF];
  int odd = threadIdx.x % 2 == 0;
  int ind = threadIdx.x + threadIdx.y * BX;
  for (int k = 0; k < NZ; k++) {
    if (odd) {
      u1[ind] = d_u1[ind + k * NX];
    }
    // CHECK: :[[@LINE-3]]:9: remark: branch on 'odd' diverges in
    // CHECK: :[[@LINE-4]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    __syncthreads();
    d_u2[ind + k * NX] = u1[ind];
    __syncthreads();
  }
}

void launch(int NX, int NY, int NZ, const float *u1, float *u2) {
  dim3 block(BX, BY), grid((NX + BX - 1) / BX, (NY + BY - 1) / BY);
  planes<<<grid, block>>>(NX, NY, NZ, u1, u2);
  striped<<<grid, block>>>(NX, NZ, u1, u2);
}
