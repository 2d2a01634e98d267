// No findings: a grid-stride scale with a bounds guard, launched with whole warps.
__global__ void scale(float *Data, float Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

void launchScale(float *Data, int N) { scale<<<(N + 255) / 256, 256>>>(Data, 2.0f, N); }
