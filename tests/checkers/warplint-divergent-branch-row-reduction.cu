// warplint-divergent-branch: the last level of a block's reduction by its first row
// (issue 23, AFTER 14: HeCBench's jacobi). Each warp's lane 0 leaves its partial sum in
// shared memory; after the barrier, the first row, `threadIdx.y == 0`, loads the partials
// and sums them by a shuffle tree, and one lane adds the block's total. With 16x16 blocks
// the first warp holds rows 0 and 1, so it splits, once per block: the tail of a tree
// reduction (silent), as the first K threads summing the partials in a loop are. A test
// that picks other lanes than the block's first threads (every other lane) stays reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void rowReduce(const float *in, float *total, int n) {
  __shared__ float partial[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  float v = (i < n && j < n) ? in[j * n + i] : 0.0f;
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0)
    partial[threadIdx.y] = v;
  __syncthreads();
  if (threadIdx.y == 0) {
    v = partial[threadIdx.x];
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0)
      atomicAdd(total, v);
  }
}
void launchRowReduce(const float *in, float *t, int n) {
  rowReduce<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(in, t, n);
}

// Reported: after the same barrier, every other lane of each row sums.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void evenLanes(const float *in, float *total, int n) {
  __shared__ float partial[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  float v = (i < n && j < n) ? in[j * n + i] : 0.0f;
  if (threadIdx.x == 0)
    partial[threadIdx.y] = v;
  __syncthreads();
  if (threadIdx.x % 2 == 0) {
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'threadIdx.x' diverges
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    v = partial[threadIdx.x];
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    total[j * n + i] = v;
  }
}
void launchEvenLanes(const float *in, float *t, int n) {
  evenLanes<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(in, t, n);
}
