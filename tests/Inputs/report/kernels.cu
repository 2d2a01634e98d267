// Kernels and launches for the `warplint report` end-to-end test (hermetic mock CUDA).
#define TILE 256

__global__ void stencil(float *Out, const float *In) {
  extern __shared__ float Tile[];
  Tile[threadIdx.x] = In[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  Out[blockIdx.x * TILE + threadIdx.x] = Tile[threadIdx.x];
}

__global__ void oddEven(float *Out) {
  unsigned Tid = threadIdx.x;
  if (Tid % 2 == 0)
    Out[Tid] *= 2.0f;
  else
    Out[Tid] += 1.0f;
}

__global__ void scale(float *Data, float Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

void launchAll(float *Out, const float *In, int N) {
  stencil<<<1000, TILE, 40 * 1024>>>(Out, In);
  oddEven<<<64, 128>>>(Out);
  scale<<<(N + 255) / 256, 256>>>(Out, 2.0f, N);
}
