// Data races of launched kernels (and one with an assumed block):
// tests/differential/check-one-answer.py holds each race record (the JSON's data_races)
// against its warplint-data-race finding and its row on the report's kernel card;
// tests/lsp/lsp-hover-records.py hovers on both accesses of each.

// A shared word written by one thread and read by its neighbour with no barrier between.
__global__ void neighbour(float *out, const float *in) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}

// The old warp-synchronous tail: lanes of one warp, no __syncwarp().
__global__ void warpTail(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = s;
    v[tid] += v[tid + 16];
  }
  if (tid == 0)
    out[0] = s[0];
}

// The in-place stencil: each thread reads the word its neighbour writes, across blocks.
__global__ void shiftLeft(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i + 1];
}

// A shift by a launch's constant: it races for the launch that passes 1, not for 0.
__global__ void shiftBy(float *a, int off) {
  a[threadIdx.x + off] = a[threadIdx.x] * 2.0f;
}

// No launch in this file: the assumed block.
__global__ void unlaunched(float *out) {
  __shared__ float t[256];
  t[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = t[(threadIdx.x + 1) % 256];
}

// Block 1 of 2 skips the barrier (n = 1): its threads read their neighbours' words with no
// barrier between.
__global__ void skipBarrier(float *out, int n) {
  __shared__ float t[64];
  t[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < n)
    __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[(threadIdx.x + 1) % 64];
}

void launch(float *a, float *b) {
  neighbour<<<1, 128>>>(a, b);
  warpTail<<<1, 64>>>(a, b);
  shiftLeft<<<4, 64>>>(a);
  shiftBy<<<1, 64>>>(a, 0);
  shiftBy<<<1, 64>>>(a, 1);
  skipBarrier<<<2, 64>>>(a, 1);
}

// Two races at one place of one kernel (cuda-samples' dct8x8 quantization, Stride sampled):
// the same-warp pair and the pair of different warps are two findings, two records.
__global__ void twoRacesOnePlace(float *SrcDst, int Stride) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  float Cur = SrcDst[(by * 8 + ty) * Stride + (bx * 8 + tx)];
  SrcDst[(by * 8 + ty) * Stride + (bx * 8 + tx)] = Cur * 0.5f;
}
void launchTwoRacesOnePlace(float *P, int Stride) {
  twoRacesOnePlace<<<dim3(4, 4), dim3(8, 8)>>>(P, Stride);
}
