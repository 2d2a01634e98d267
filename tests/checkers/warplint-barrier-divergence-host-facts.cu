// warplint-barrier-divergence when the host establishes a fact about a value it passes to
// every launch (issue 23): `if (n % 256 != 0) return;` before the launch makes n a
// multiple of the 256-thread block, so the bounds return leaves whole blocks and every
// thread of a block that runs reaches the barrier. A multiple of 32 does not: the last
// block may be partial.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// Silent: n is a multiple of the block.
__global__ void blocksOnly(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[255 - threadIdx.x];
}
void launchBlocksOnly(float *a, int n) {
  if (n % 256 != 0)
    return;
  blocksOnly<<<n / 256, 256>>>(a, n);
}
// Reported: n a multiple of 32 only.
__global__ void blocksOnlyWeak(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'blocksOnlyWeak' may be skipped by part of the block: the threads whose 'i' is at or past 'n'
  a[i] = s[255 - threadIdx.x];
}
void launchBlocksOnlyWeak(float *a, int n) {
  if (n % 32 != 0)
    return;
  blocksOnlyWeak<<<(n + 255) / 256, 256>>>(a, n);
}
