#include <hip/hip_runtime.h>

// N values loaded into each lane, then combined out of order: the backend's VGPRs grow
// with N (gfx906, clang 22: N = 44 gives 59, N = 96 gives 122).
template <int N>
__device__ float gather(const float *in, int n) {
  float v[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    v[k] = in[threadIdx.x + k * n];
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc += v[k] * v[(k * 5 + 3) % N];
  return acc;
}

// 59 VGPRs: 4 waves per SIMD; at 48 it keeps 5, and the backend gets there by
// scheduling alone (no spill).
__global__ void __launch_bounds__(256) light(float *out, const float *in, int n) {
  out[threadIdx.x] = gather<44>(in, n);
}

// 122 VGPRs: 2 waves per SIMD; at 84 it keeps 3, and the backend spills to get there.
__global__ void __launch_bounds__(256) wide(float *out, const float *in, int n) {
  out[threadIdx.x] = gather<96>(in, n);
}

void run(float *out, const float *in, int n) {
  light<<<64, 256>>>(out, in, n);
  wide<<<64, 256>>>(out, in, n);
}
