// warplint lsp e2e input: two findings, one with a note, and a launch to hover on.
#include <cuda_runtime.h>

__global__ void scale(float *Data, float Factor, int N) {
  int I = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

__global__ void __launch_bounds__(256) boundedScale(float *Data, float Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

void run(float *Data, int N) {
  scale<<<(N + 79) / 80, dim3(40, 2)>>>(Data, 2.0f, N);
  boundedScale<<<(N + 511) / 512, 512>>>(Data, 2.0f, N);
  scale<<<(N + 255) / 256, 256>>>(Data, 2.0f, N);
}
