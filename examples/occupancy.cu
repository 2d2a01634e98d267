// warplint example: occupancy (warplint-occupancy, warplint-occupancy-cliff).
#include <cuda_runtime.h>

// 40 KiB of static shared memory per block: on sm_86 (100 KiB per SM) only two blocks
// of 128 threads fit, 8 of 48 warps.
__global__ void bigTile(const float *In, float *Out) {
  __shared__ float Tile[10240];
  for (int I = threadIdx.x; I < 10240; I += blockDim.x)
    Tile[I] = In[I];
  __syncthreads();
  Out[threadIdx.x] = Tile[threadIdx.x * 3];
}

void run(const float *In, float *Out) { bigTile<<<64, 128>>>(In, Out); }
