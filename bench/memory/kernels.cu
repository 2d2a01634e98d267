// bench/memory: kernels whose per-warp sectors and shared-memory wavefronts warplint
// predicts, to hold the predictions against Nsight Compute on a GPU (see README.md).
// Build: nvcc -O3 -arch=sm_86 -lineinfo -o memory-bench kernels.cu
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
  float x, y, z;
};

constexpr int N = 1 << 22; // floats per buffer
constexpr int Block = 256;

// Global: 4 sectors per request (ideal 4).
__global__ void coalesced(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// Global: 8 sectors per load request (ideal 4).
__global__ void stride2(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(2 * i) % N];
}

// Global: 32 sectors per load request (ideal 4).
__global__ void stride32(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i * 32) % N];
}

// Global: 5 sectors per load request (ideal 4): 4 bytes past a sector boundary.
__global__ void offByOne(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i + 1) % N];
}

// Global: 12 sectors per load and per store request (ideal 4): an array of structures.
__global__ void arrayOfStructs(Particle *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i].x *= 2.f;
}

// Global: 16 sectors per load request (ideal 16): consecutive float4s.
__global__ void vector4(float4 *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// Shared: the store along a row is 1 wavefront per request, the load down a column 32
// (31 bank conflicts per request) with 32x8 blocks.
__global__ void tile32(float *out, const float *in) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 2048 + x];
  __syncthreads();
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * 2048 + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Shared: the padded tile, 1 wavefront per request for both.
__global__ void tile33(float *out, const float *in) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 2048 + x];
  __syncthreads();
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * 2048 + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Shared: doubles 16 bytes apart, 2 wavefronts per half-warp (4 per request, ideal 2).
__global__ void doubleStride2(double *out) {
  __shared__ double d[512];
  d[threadIdx.x * 2] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = d[threadIdx.x * 2];
}

int main() {
  float *a, *b;
  Particle *p;
  cudaMalloc(&a, N * sizeof(float));
  cudaMalloc(&b, N * sizeof(float));
  cudaMalloc(&p, N / 4 * sizeof(Particle));
  cudaMemset(b, 0, N * sizeof(float));
  coalesced<<<N / Block, Block>>>(a, b);
  stride2<<<N / Block, Block>>>(a, b);
  stride32<<<N / Block, Block>>>(a, b);
  offByOne<<<N / Block, Block>>>(a, b);
  arrayOfStructs<<<N / 4 / Block, Block>>>(p);
  vector4<<<N / 4 / Block, Block>>>(reinterpret_cast<float4 *>(a),
                                    reinterpret_cast<const float4 *>(b));
  tile32<<<dim3(64, 64), dim3(32, 8)>>>(a, b);
  tile33<<<dim3(64, 64), dim3(32, 8)>>>(a, b);
  doubleStride2<<<N / 2 / Block, Block>>>(reinterpret_cast<double *>(a));
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(E));
  cudaFree(a);
  cudaFree(b);
  cudaFree(p);
  return E == cudaSuccess ? 0 : 1;
}
