// Kernels whose ptxas resource usage the parser tests read.
#include <cstdint>

__device__ float gScale[3];
__constant__ float cTable[64];

__device__ __noinline__ float helper(float x, int n) {
  float acc = x;
  for (int i = 0; i < n; ++i)
    acc = acc * 1.0001f + cTable[i & 63];
  return acc;
}

__global__ void heavy(double *out, const double *in) {
  double r[32];
  for (int i = 0; i < 32; ++i)
    r[i] = in[threadIdx.x * 32 + i];
  double s = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      s += r[i] * r[(i * j + threadIdx.x) % 32];
  out[threadIdx.x] = s;
}

__global__ void tileKernel(float *out, const float *in, int n) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = helper(tile[255 - threadIdx.x], n) * gScale[0];
}

template <int N>
__global__ void scaleT(float *p, float s) {
  __shared__ float buf[N];
  buf[threadIdx.x % N] = p[threadIdx.x] * s;
  __syncthreads();
  p[threadIdx.x] = buf[(threadIdx.x + 1) % N];
}
template __global__ void scaleT<128>(float *, float);
template __global__ void scaleT<512>(float *, float);

__global__ void __launch_bounds__(256, 4) bounded(float *p) {
  p[threadIdx.x] *= 2.0f;
}

namespace {
__global__ void hidden(int *p) { p[threadIdx.x] = 1; }
}
void launchHidden(int *p) { hidden<<<1, 32>>>(p); }
