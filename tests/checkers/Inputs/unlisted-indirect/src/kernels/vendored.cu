// Reached from main.cu only through sysinc/vendor.h, a system header.
__global__ void vendored(float *in) { in[threadIdx.x] = WIDTH; }
