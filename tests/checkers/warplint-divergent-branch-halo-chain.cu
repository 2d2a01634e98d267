// warplint-divergent-branch: a stencil's halo guard written with `&` (issue 23, AFTER 14:
// HeCBench's hypterm kernels). `i >= 4 & j >= 4 & k >= 4 & i <= n - 5 & ...` is the
// conjunction of six bounds tests of the global indices, as the same chain written with
// `&&` is: a `&` of truth values is a truth value however long the chain, so each test
// is read as a bounds guard (silent), where a chain of three or more was one opaque term.
// Only the blocks that hold a face of the domain split; the interior blocks take the arm
// whole. A chain that holds a test of the lane's parity stays reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void halo3d(float *out, const float *in, int n) {
  int i0 = blockIdx.x * blockDim.x;
  int i = (i0 > 0 ? i0 : 0) + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= 4 & j >= 4 & k >= 4 & i <= n - 5 & j <= n - 5 & k <= n - 5)
    out[(k * n + j) * n + i] = in[(k * n + j) * n + i + 1] - in[(k * n + j) * n + i - 1];
}
void launchHalo3d(float *o, const float *i, int n) {
  halo3d<<<dim3((n + 15) / 16, (n + 3) / 4, (n + 3) / 4), dim3(16, 4, 4)>>>(o, i, n);
}

__global__ void halo2d(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 2 & j >= 2 & i < n - 2)
    out[j * n + i] = in[j * n + i - 2] + in[j * n + i + 2];
}
void launchHalo2d(float *o, const float *i, int n) {
  halo2d<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(o, i, n);
}

// Reported: beside the guards, every other lane of each row.
__global__ void haloEven(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 2 & j >= 2 & (threadIdx.x % 2 == 0) & i < n - 2) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'i' diverges in up to 8 of 8 warps of kernel 'haloEven'
    out[j * n + i] = in[j * n + i - 2] + in[j * n + i + 2];
    out[j * n + i + 1] = in[j * n + i - 1] * in[j * n + i + 3];
  }
}
void launchHaloEven(float *o, const float *i, int n) {
  haloEven<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(o, i, n);
}
