// warplint example: warp divergence (warplint-divergent-branch).
#include <cuda_runtime.h>

__global__ void oddEven(float *Data) {
  int Tid = threadIdx.x;
  // Neighbouring lanes take different paths: every warp runs both.
  if (Tid % 2 == 0)
    Data[Tid] *= 2.0f;
  else
    Data[Tid] += 1.0f;
}

__global__ void warpAligned(float *Data) {
  int Tid = threadIdx.x;
  // Whole warps take the same path: no divergence.
  if ((Tid / warpSize) % 2 == 0)
    Data[Tid] *= 2.0f;
  else
    Data[Tid] += 1.0f;
}

void run(float *Data) {
  oddEven<<<1, 128>>>(Data);
  warpAligned<<<1, 128>>>(Data);
}
