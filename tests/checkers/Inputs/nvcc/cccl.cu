// CUB, Thrust and libcu++ in a release build (-DNDEBUG, as CMake's Release type passes):
// with __NVCC__ visible to CCCL's compiler detection, CCCL would take clang's parse for
// nvcc's and redeclare clang's device __assert_fail; warplint's compatibility header
// lets the toolkit's headers see clang.
#include <cassert>
#include <cub/cub.cuh>
#include <cuda/std/atomic>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

__global__ void blockSum(float *Out, const float *In) {
  using Reduce = cub::BlockReduce<float, 100>;
  __shared__ typename Reduce::TempStorage Temp;
  float S = Reduce(Temp).Sum(In[blockIdx.x * 100 + threadIdx.x]);
  assert(S == S);
  if (threadIdx.x == 0)
    cuda::std::atomic_ref<float>(Out[0]).fetch_add(S);
}

void run(float *Out, const float *In, thrust::device_vector<float> &V) {
  blockSum<<<64, 100>>>(Out, In);
  thrust::sort(V.begin(), V.end());
}
