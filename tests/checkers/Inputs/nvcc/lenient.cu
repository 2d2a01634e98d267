// What nvcc accepts and clang rejects by default: `#if __CUDACC__` (nvcc defines it as 1,
// clang's CUDA wrapper empty), the C++17-removed `register`, narrowing in braces (nvcc
// warns: 2361-D) and a string literal glued to a macro (the host compiler warns).
#include <cinttypes>
#include <cstdio>

#if __CUDACC__
#define ON_DEVICE __device__
#endif

ON_DEVICE float twice(float X) { return 2 * X; }

__global__ void lenient(float *Out, const float *In, long N) {
  register float Acc = 0;
  int Count[2] = {N, 1};
  for (int I = threadIdx.x; I < Count[0]; I += blockDim.x)
    Acc += twice(In[I]);
  Out[threadIdx.x] = Acc;
}

void report(int64_t V) { printf("%"PRId64"\n", V); }

void run(float *Out, const float *In) { lenient<<<1, 48>>>(Out, In, 1024); }
