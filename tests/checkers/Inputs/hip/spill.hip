// Kernels for warplint-register-spill on AMD with clang 22's AMDGPU backend.
#include <hip/hip_runtime.h>

// 96 values live per lane, and __launch_bounds__(256, 8) asks for 8 waves per SIMD: on
// gfx90a that leaves 64 VGPRs, and the backend spills the rest to scratch.
__global__ void __launch_bounds__(256, 8) squeezed(float *out, const float *in, int n) {
  float acc[96];
#pragma unroll
  for (int i = 0; i < 96; ++i)
    acc[i] = in[threadIdx.x + i * n];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
#pragma unroll
    for (int i = 0; i < 96; ++i)
      s += acc[i] * acc[(i + j) % 96];
  out[threadIdx.x] = s;
}

// The same work with room for it (256-thread workgroups, no waves-per-EU minimum): no spill.
__global__ void __launch_bounds__(256) roomy(float *out, const float *in, int n) {
  float acc[96];
#pragma unroll
  for (int i = 0; i < 96; ++i)
    acc[i] = in[threadIdx.x + i * n];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
#pragma unroll
    for (int i = 0; i < 96; ++i)
      s += acc[i] * acc[(i + j) % 96];
  out[threadIdx.x] = s;
}

// A private array indexed at run time lives in scratch, but nothing is spilled.
__global__ void indexed(float *out, int k) {
  float a[64];
  for (int i = 0; i < 64; ++i)
    a[i] = out[i * threadIdx.x];
  out[threadIdx.x] = a[k & 63];
}

void run(float *out, const float *in, int n, int k) {
  squeezed<<<64, 256>>>(out, in, n);
  roomy<<<64, 256>>>(out, in, n);
  indexed<<<64, 256>>>(out, k);
}
