// warplint-divergent-branch: the cells on a domain's edge (issue 23, HeCBench's laplace3d).
// A Jacobi sweep keeps the boundary fixed (`if (i == 0 || i == NX - 1 || j == 0 || ...)
// u2 = u1[ind]; else u2 = average`): each equality holds for one lane of a row at most
// (i along x) or for a whole row (j, k): O(perimeter) lanes take the boundary's arm beside
// O(area) the interior's, a leader's pattern, and silent like a leader. A test with any
// other disjunct (`i % 2 == 0`) is no edge and stays reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void jacobi(int NX, int NY, const float *u1, float *u2) {
  int i = blockIdx.x * 32 + threadIdx.x;
  int j = blockIdx.y * 8 + threadIdx.y;
  if (i < NX && j < NY) {
    int ind = j * NX + i;
    float v;
    if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1)
      v = u1[ind];
    else
      v = 0.25f * (u1[ind - 1] + u1[ind + 1] + u1[ind - NX] + u1[ind + NX]);
    u2[ind] = v;
  }
}

__global__ void striped(int NX, int NY, const float *u1, float *u2) {
  int i = blockIdx.x * 32 + threadIdx.x;
  int j = blockIdx.y * 8 + threadIdx.y;
  if (i < NX && j < NY) {
    int ind = j * NX + i;
    float v;
    if (i == 0 || i % 2 == 0)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'i' diverges in
      v = u1[ind];
    else
      v = 0.25f * (u1[ind - 1] + u1[ind + 1] + u1[ind - NX] + u1[ind + NX]);
    u2[ind] = v;
  }
}

void launch(int NX, int NY, const float *u1, float *u2) {
  dim3 block(32, 8), grid((NX + 31) / 32, (NY + 7) / 8);
  jacobi<<<grid, block>>>(NX, NY, u1, u2);
  striped<<<grid, block>>>(NX, NY, u1, u2);
}
