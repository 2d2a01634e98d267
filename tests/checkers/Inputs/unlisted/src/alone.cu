// In no database entry and included by no file: parsed alone, and WIDTH is missing.
__global__ void scale(float *in) { in[threadIdx.x] *= WIDTH; }
