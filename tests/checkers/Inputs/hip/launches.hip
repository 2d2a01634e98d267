// HIP launches through every API warplint knows; kernel attributes as ROCm spells them.
#include <hip/hip_runtime.h>
#include <hip/hip_ext.h>

__global__ void __launch_bounds__(256, 2) bounded(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * 2.0f;
}

__global__ void __attribute__((amdgpu_flat_work_group_size(64, 128))) flat(float *a) {
  __shared__ float tile[128];
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = tile[127 - threadIdx.x];
}

void run(float *d, hipStream_t s) {
  bounded<<<10, 100>>>(d, 1000);
  hipLaunchKernelGGL(bounded, dim3(10), dim3(192), 0, s, d, 1000);
  hipLaunchKernel((const void *)flat, dim3(1), dim3(64), nullptr, 512, s);
  hipLaunchCooperativeKernel(reinterpret_cast<const void *>(flat), dim3(1), dim3(128), nullptr, 0, s);
  hipExtLaunchKernelGGL(flat, dim3(2), dim3(128), 0, s, nullptr, nullptr, 0, d);
}
