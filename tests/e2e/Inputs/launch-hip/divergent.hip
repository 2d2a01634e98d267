#include <hip/hip_runtime.h>

__global__ void oddEven(float *Out) {
  int Tid = threadIdx.x;
  if (Tid % 2 == 0)
    Out[Tid] *= 2.0f;
  else
    Out[Tid] += 1.0f;
}

void launchOddEven(float *Out) { hipLaunchKernelGGL(oddEven, dim3(64), dim3(100), 0, 0, Out); }
