// Kernels whose divergence warplint-divergent-branch predicts; measured with ncu (measure.sh).
#include <cstdio>

__global__ void evenOdd(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  float a = 0.f, b = 0.f;
  if (tid % 2 == 0) a = 100.f; else b = 200.f;
  c[tid] = a + b;
}
__global__ void evenOddByWarp(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  float a = 0.f, b = 0.f;
  if ((tid / warpSize) % 2 == 0) a = 100.f; else b = 200.f;
  c[tid] = a + b;
}
__global__ void halfOfEachWarp(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  if ((threadIdx.x % 32) < 16) c[tid] = 1.f; else c[tid] = 2.f;
}
__global__ void halfOf64(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  if (threadIdx.x % 64 < 32) c[tid] = 1.f; else c[tid] = 2.f;
}
__global__ void oddRows(float *c) {
  int tid = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (threadIdx.y % 2) c[tid] = 1.f; else c[tid] = 2.f;
}
__global__ void reduce0(const float *g, float *o) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) o[blockIdx.x] = sdata[0];
}

int main() {
  float *c, *o;
  const int blocks = 1024;
  cudaMalloc(&c, blocks * 256 * sizeof(float));
  cudaMalloc(&o, blocks * sizeof(float));
  cudaMemset(c, 0, blocks * 256 * sizeof(float));
  evenOdd<<<blocks, 256>>>(c);
  evenOddByWarp<<<blocks, 256>>>(c);
  halfOfEachWarp<<<blocks, 256>>>(c);
  halfOf64<<<blocks, 256>>>(c);
  oddRows<<<blocks, dim3(16, 16)>>>(c);
  oddRows<<<blocks, dim3(32, 8)>>>(c);
  reduce0<<<blocks, 256>>>(c, o);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
