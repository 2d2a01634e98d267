// Two sync findings whose JSON records carry the threads involved.
__global__ void firstSixteen(float *a) {
  if (threadIdx.x < 16)
    __syncthreads();
}
__global__ void partialWarp(float *a) {
  float v = a[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  a[threadIdx.x] = v;
}
__global__ void boundsReturn(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __syncthreads();
  a[i] = 0.0f;
}
void launch(float *a, int n) {
  firstSixteen<<<1, 64>>>(a);
  partialWarp<<<1, 48>>>(a);
  boundsReturn<<<(n + 127) / 128, 128>>>(a, n);
}
