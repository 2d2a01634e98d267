// A kernel of thread-block clusters through cooperative groups (`cg::this_cluster()`):
// nvcc 13 compiles it (-std=c++17 -arch=sm_90).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) clustered(int *out) {
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  out[cluster.block_rank() * blockDim.x + threadIdx.x] = int(threadIdx.x);
}

void launchClustered(int *out) { clustered<<<4, 40>>>(out); }
