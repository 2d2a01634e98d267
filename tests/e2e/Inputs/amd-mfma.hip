// Kernels for the code-object e2e test (tests/e2e/hip-objects-e2e.sh): a matrix-core
// kernel whose accumulators live in AGPRs on CDNA (gfx908, gfx90a: MFMA builtins), a
// scalar fallback elsewhere, and a kernel with static LDS. Launched with WG threads.
#include <hip/hip_runtime.h>

typedef float f32x16 __attribute__((ext_vector_type(16)));

__global__ void mfma(float *out, const float *a, const float *b) {
#if defined(__gfx908__) || defined(__gfx90a__)
  f32x16 acc[4] = {};
  for (int k = 0; k < 64; ++k)
#pragma unroll
    for (int t = 0; t < 4; ++t)
      acc[t] = __builtin_amdgcn_mfma_f32_32x32x2f32(a[k * 64 + threadIdx.x + t],
                                                    b[k * 64 + threadIdx.x], acc[t], 0, 0, 0);
#pragma unroll
  for (int t = 0; t < 4; ++t)
#pragma unroll
    for (int i = 0; i < 16; ++i)
      out[(t * 16 + i) * blockDim.x + threadIdx.x] = acc[t][i];
#else
  out[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x];
#endif
}

__global__ void staged(float *out, const float *in) {
  __shared__ float tile[4096];
  for (int k = threadIdx.x; k < 4096; k += blockDim.x)
    tile[k] = in[k];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x * 33) % 4096];
}

void run(float *out, const float *a, const float *b) {
  hipLaunchKernelGGL(mfma, dim3(64), dim3(WG), 0, 0, out, a, b);
  staged<<<dim3(64), dim3(WG)>>>(out, a);
}
