// warplint-warp-sync-mask and warplint-barrier-divergence when run-time values decide who
// reaches the call (issue 23, darknet's backward_shortcut_multilayer_kernel): the values
// are sampled (1, 32, 33, 1000; blocks 0 and 1), and a call that no sampled value keeps
// from a named lane (or a thread of the block) is not reported. A guard that admits only
// warps wholly below the bound (`size / 32 > id / 32 + 1`) keeps the returned lanes' warps
// away from the shuffle. A call some sampled value splits is reported as before.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ float warpSum(float v) {
  for (int m = 16; m > 0; m /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}

// Silent: the shuffle runs only in warps wholly below size.
__global__ void wholeWarpsOnly(int size, const float *in, float *out, int step) {
  const int id = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
  if (id >= size)
    return;
  float v = in[id];
  if (step == 1 && (size / 32) > (id / 32 + 1)) {
    float s = warpSum(v);
    if (threadIdx.x % 32 == 0)
      atomicAdd(out, s);
  } else {
    atomicAdd(out, v);
  }
}
void launchWhole(int size, const float *in, float *out) {
  wholeWarpsOnly<<<dim3((size + 511) / 512, 1), 512>>>(size, in, out, 1);
}

// Silent too with more run-time values in the guard: the parts on run-time values alone
// (`mode == 1 && step == 2 && kind != 0`) are the same in every thread and are not
// sampled (4 x 4 x 4 x 4 values with size would pass the 256 environments sampled).
__global__ void wholeWarpsManyValues(int size, const float *in, float *out, int mode, int step,
                                     int kind) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= size)
    return;
  float v = in[id];
  if (mode == 1 && step == 2 && kind != 0 && (size / 32) > (id / 32 + 1)) {
    float s = warpSum(v);
    if (threadIdx.x % 32 == 0)
      atomicAdd(out, s);
  }
}
void launchMany(int size, const float *in, float *out, int m, int s, int k) {
  wholeWarpsManyValues<<<(size + 511) / 512, 512>>>(size, in, out, m, s, k);
}

// Reported: the same shuffle with no such guard; size = 33 leaves lanes 1-31 of warp 1
// out of it.
__global__ void anyTail(int size, const float *in, float *out) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= size)
    return;
  float s = warpSum(in[id]);
  // CHECK: warplint-warp-sync-mask-sampled.cu:11:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'anyTail' names lanes that may not take part: the threads whose 'id' is at or past 'size'
  // CHECK: :[[@LINE-3]]:5: note: the threads whose 'id' is at or past 'size'
  // CHECK: :11:10: note: give the lanes that arrive as the mask
  // CHECK: :[[@LINE-4]]:13: note: '__shfl_xor_sync()' is reached from kernel 'anyTail' through this call of 'warpSum'
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, s);
}
void launchAnyTail(int size, const float *in, float *out) {
  anyTail<<<(size + 255) / 256, 256>>>(size, in, out);
}

// Reported: a barrier under the same warp-wise guard; warps of one block disagree.
__global__ void barrierInGuard(int size, float *a) {
  __shared__ float s[512];
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= size)
    return;
  if ((size / 32) > (id / 32 + 1)) {
    s[threadIdx.x] = a[id];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'barrierInGuard' may be skipped by part of the block
    // CHECK: :[[@LINE-4]]:3: note: it is inside
    // CHECK: :[[@LINE-6]]:5: note: the threads whose 'id' is at or past 'size'
    a[id] = s[511 - threadIdx.x];
  }
}
void launchBarrier(int size, float *a) { barrierInGuard<<<(size + 511) / 512, 512>>>(size, a); }
