#ifdef __CUDA_ARCH__
  #define PRAGMA_UNROLL #pragma unroll
#else
  #define PRAGMA_UNROLL
#endif
__global__ void sum4(const float *in, float *out) {
  float s = 0;
  PRAGMA_UNROLL
  for (int k = 0; k < 4; ++k)
    s += in[32 * (blockIdx.x * blockDim.x + threadIdx.x) + k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
void go(const float *in, float *out) { sum4<<<8, 128>>>(in, out); }
