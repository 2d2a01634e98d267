// warplint example: launch shapes (warplint-block-size-warp-multiple, warplint-launch-config-invalid).
#include <cuda_runtime.h>

__global__ void scale(float *Data, float Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

__global__ void __launch_bounds__(256) boundedScale(float *Data, float Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

__global__ void tile(float *Data) {
  extern __shared__ float Tile[];
  Tile[threadIdx.x] = Data[threadIdx.x];
  __syncthreads();
  Data[threadIdx.x] = Tile[blockDim.x - 1 - threadIdx.x];
}

void run(float *Data, int N) {
  // 80 threads: three warps, the last one half idle.
  scale<<<(N + 79) / 80, dim3(40, 2)>>>(Data, 2.0f, N);
  // More threads than __launch_bounds__ allows: the launch fails.
  boundedScale<<<(N + 511) / 512, 512>>>(Data, 2.0f, N);
  // 64 KiB of dynamic shared memory without cudaFuncSetAttribute's opt-in: fails.
  tile<<<1, 256, 64 * 1024>>>(Data);
  // Fine: whole warps, within every limit.
  scale<<<(N + 255) / 256, 256>>>(Data, 2.0f, N);
}
