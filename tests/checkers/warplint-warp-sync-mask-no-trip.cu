// warplint-warp-sync-mask: a warp-synchronous call in a loop that makes no trip in the
// instance launched is never made (twelfth session, NVIDIA/AMGX's
// find_max_neighbor_kernel_and_propagate_used_colors<false, 256, 1>: `for (i = WARP_SIZE /
// 2; i >= 1; i /= 2)` with WARP_SIZE = 1). Silent for that instance; the instance with
// groups of 32 lanes, whose loop runs, is reported (a full mask under a data-dependent
// branch).
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

template <int W>
__global__ void maxNeighbor(const int *rows, const int *vals, int *out, int n) {
  const int lane = threadIdx.x % 32;
  for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / W; row < n;
       row += gridDim.x * blockDim.x / W) {
    int m = vals[rows[row] + lane % W];
    if (m > 0) {
      for (int i = W / 2; i >= 1; i /= 2) {
        int o = __shfl_xor_sync(0xffffffff, m, i);
        // CHECK: :[[@LINE-1]]:17: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'maxNeighbor<32>' names lanes that may not take part
        m = o > m ? o : m;
      }
    }
    if (lane % W == 0)
      out[row] = m;
  }
}

void launchOne(const int *r, const int *v, int *o, int n) {
  maxNeighbor<1><<<(n + 255) / 256, 256>>>(r, v, o, n);
}
void launchWarp(const int *r, const int *v, int *o, int n) {
  maxNeighbor<32><<<(n + 255) / 256, 256>>>(r, v, o, n);
}
