#include <cuda_runtime.h>

typedef void (*kernel_t)(float *, const float *, int);

// 1 KiB and 40 KiB of static shared memory.
__global__ void small(float *p, const float *q, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = p[i];
  __syncthreads();
  p[i] = t[255 - threadIdx.x] + q[n + i * 32]; // a stride of 32 floats between lanes
}
__global__ void large(float *p, const float *q, int n) {
  __shared__ float t[10240];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = p[i];
  __syncthreads();
  p[i] = t[10239 - threadIdx.x];
}
void notKernel(float *p, const float *q, int n) {}

void run(float *p, const float *q, int n) {
  // transpose's loop: the pointer holds one of two kernels per iteration.
  kernel_t kernel;
  for (int k = 0; k < 2; ++k) {
    switch (k) {
    case 0:
      kernel = &small;
      break;
    default:
      kernel = &large;
      break;
    }
    kernel<<<64, 128>>>(p, p, n);
  }
  // One kernel only: that kernel's launch, as before.
  kernel_t one = &large;
  one<<<32, 256>>>(p, p, n);
  // Once a host function: unresolved.
  kernel_t mixed = &small;
  if (n > 1)
    mixed = notKernel;
  mixed<<<16, 256>>>(p, p, n);
}
