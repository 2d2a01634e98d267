// The first round's disagreement: the check said 16.7%, the JSON null and the report
// "cannot launch" for this launch (80 KiB of dynamic shared memory with the opt-in, 256
// threads, sm_86: 1 block of 8 warps per SM of 48).
__global__ void big(float *p) {
  extern __shared__ float s[];
  p[threadIdx.x] = s[threadIdx.x];
}

__global__ void small(float *p) { p[threadIdx.x] *= 2; }

void run(float *p) {
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
  big<<<100, 256, 80 * 1024>>>(p);
  small<<<100, 64>>>(p);
  small<<<100, 1024>>>(p);
}
