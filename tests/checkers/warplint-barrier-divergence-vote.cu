// warplint-barrier-divergence: a warp vote is 0 or 1. A loop or `if` whose condition
// compares one with a constant that neither value meets never runs its body (gardenia's
// betweenness centrality: `while (__any_sync(0xFFFFFFFF, size) >= WARP_SIZE)`, a warp
// expansion that never runs), so the barriers in it are never reached, and are no
// barrier that part of a block skips. A vote compared with a value it can take still
// splits the block by warps.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#define WARP_SIZE 32

__global__ void expandNever(const int *rows, float *out, int n) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int size = tid < n ? rows[tid + 1] - rows[tid] : 0;
  while (__any_sync(0xFFFFFFFF, size) >= WARP_SIZE) {
    s[threadIdx.x] = size;
    __syncthreads();
    size = 0;
  }
  if (__all_sync(0xFFFFFFFF, size > 0) > 1) {
    __syncthreads();
  }
  if (tid < n)
    out[tid] = s[threadIdx.x];
}

__global__ void expandSome(const int *rows, float *out, int n) {
  __shared__ float s[256];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int size = tid < n ? rows[tid + 1] - rows[tid] : 0;
  while (__any_sync(0xFFFFFFFF, size >= WARP_SIZE) == 1) {
    s[threadIdx.x] = size;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'expandSome' may be skipped by part of the block
    size = 0;
  }
  if (tid < n)
    out[tid] = s[threadIdx.x];
}

void launch(const int *rows, float *out, int n) {
  expandNever<<<(n + 255) / 256, 256>>>(rows, out, n);
  expandSome<<<(n + 255) / 256, 256>>>(rows, out, n);
}
