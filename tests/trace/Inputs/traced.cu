// A kernel traced with warplint/trace.cuh: an early return for half of the threads (the
// case a __syncthreads() in the guard's destructor would get wrong) and the host side of
// one traced launch. Compiled by tests/trace/trace-compile.sh with nvcc and clang.
#include <warplint/trace.cuh>

#include <cstdio>

__global__ void earlyReturn(float *Out, int N, warplint::trace::Slots Trace) {
  WARPLINT_TRACE_BLOCK(Trace);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N || threadIdx.x % 2)
    return;
  Out[I] = 2.0f * I;
}

int main() {
  const int N = 1000;
  dim3 Grid((N + 255) / 256), Block(256);
  float *Out = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Out), N * sizeof(float)) != cudaSuccess)
    return 1;
  warplint::trace::Buffer Buf;
  if (warplint::trace::allocate(Buf, Grid) != cudaSuccess)
    return 1;
  earlyReturn<<<Grid, Block>>>(Out, N, Buf.slots());
  cudaError_t Error;
  warplint::trace::WriteResult R = warplint::trace::save(Buf, "earlyReturn", stdout, 0, &Error);
  warplint::trace::release(Buf);
  cudaFree(Out);
  std::fprintf(stderr, "%llu blocks traced\n", R.Written);
  return Error == cudaSuccess && R.Written == Grid.x ? 0 : 1;
}
