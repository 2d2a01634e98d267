// Our mock CUDA header must type-check launches on both sides, with no toolkit.
// RUN: %clangxx %cuda_device --cuda-gpu-arch=sm_86 -fsyntax-only -Werror %s
// RUN: %clangxx %cuda_host -fsyntax-only -Werror %s

__global__ void saxpy(int n, float a, const float *x, float *y) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 64] = x[i];
  __syncthreads();
  if (i < n) y[i] = a * tile[threadIdx.x % 64] + y[i] + warpSize;
}

void launchAll(int n, float *x, float *y) {
  saxpy<<<dim3((n + 255) / 256), dim3(256), 0, nullptr>>>(n, 2.0f, x, y);
  void *args[] = {&n, &x, &y};
  cudaLaunchKernel(saxpy, dim3(4), dim3(64), args, 0, nullptr);
  cudaFuncSetAttribute(saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  cudaLaunchConfig_t config{};
  config.blockDim = dim3(128);
  config.gridDim = dim3(8);
  cudaLaunchKernelEx(&config, saxpy, n, 2.0f, (const float *)x, y);
}
