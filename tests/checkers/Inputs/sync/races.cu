// Data-race findings whose JSON records carry the accesses and threads involved.
__global__ void neighbour(float *out, const float *in) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}
__global__ void warpTail(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32) {
    volatile float *v = s;
    v[threadIdx.x] += v[threadIdx.x + 16];
  }
}
__global__ void shiftLeft(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i + 1];
}
__global__ void shiftBy(float *a, int off) {
  a[threadIdx.x + off] = a[threadIdx.x] * 2.0f;
}
__global__ void unlaunched(float *out) {
  __shared__ float t[256];
  t[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = t[(threadIdx.x + 1) % 256];
}
__global__ void silenced(float *out) {
  __shared__ float u[64];
  u[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = u[(threadIdx.x + 1) % 64]; // NOLINT(warplint-data-race)
}
void launch(float *a, float *b) {
  neighbour<<<1, 128>>>(a, b);
  warpTail<<<1, 64>>>(a);
  shiftLeft<<<4, 64>>>(a);
  shiftBy<<<1, 64>>>(a, 0);
  shiftBy<<<1, 64>>>(a, 1);
  silenced<<<1, 64>>>(a);
}
