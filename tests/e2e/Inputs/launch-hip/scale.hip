#include <hip/hip_runtime.h>

__global__ void scale(float *Out, float F) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] *= F;
}

void launchScale(float *Out) { hipLaunchKernelGGL(scale, dim3(64), dim3(256), 0, 0, Out, 2.0f); }
