// A block-scope cuda::barrier in shared memory, as the CUDA programming guide and
// cuda-samples' simpleAWBarrier declare it. nvcc warns (static_var_with_dynamic_init) and
// allocates it without running its constructor or destructor; clang refuses it
// ("initialization is not supported for __shared__ variables": its destructor is not
// empty), and recovers.
#include <cuda/barrier>

__global__ void sumWithBarrier(float *data) {
  __shared__ float partial[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  partial[threadIdx.x] = data[threadIdx.x];
  bar.arrive_and_wait();
  data[threadIdx.x] = partial[(threadIdx.x + 1) % 64];
}

void run(float *data) { sumWithBarrier<<<16, 48>>>(data); }
