// A library's own namespace aliased as `cuda` (CV-CUDA's `namespace cuda = nvcv::cuda;`):
// nvcc 13 compiles it (-std=c++17 -arch=sm_90), as no toolkit header it reads declares
// libcu++'s namespace cuda.
#include <cuda_runtime.h>

namespace mylib {
namespace cuda {
__device__ inline int twice(int v) { return 2 * v; }
} // namespace cuda
} // namespace mylib

namespace cuda = mylib::cuda;

__global__ void doubled(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = cuda::twice(int(threadIdx.x));
}

void launchDoubled(int *out) { doubled<<<4, 48>>>(out); }
