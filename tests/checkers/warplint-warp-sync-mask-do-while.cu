// warplint-warp-sync-mask in a grid-stride do-while whose step is in its condition (issue
// 23, HeCBench's bitpermute: `do { ... __syncwarp(); ... } while ((tid += blockDim.x *
// gridDim.x) < step)` with step = 1 << (lg - 5)). The do-while is a counted loop: its first
// trip always runs, and each later one where the condition held after the step. A run-time
// shift amount is sampled only where the shift is defined (amounts 0, 4, 5, 6 and 10), so
// the bound is a power of two: below 32 every lane leaves after the first trip (the stride
// is at least a warp), from 32 on it is a multiple of the warp; a `continue` on the warp's
// group (tid >> 5) drops whole warps, which a warp's mask cannot tell. Silent. A bound that is any
// run-time value splits the last warp: a warning. So does a for-loop with the power of two,
// whose first test already splits warp 0 when the bound is under 32.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void permute(long *out, const long *in, unsigned lg) {
  __shared__ long xchg[6][32];
  const unsigned long step = 1ul << (lg - 5);
  unsigned long tid = threadIdx.x + blockDim.x * (unsigned long)blockIdx.x;
  do {
    // Whole warps skip a trip (the group is the warp's): no lane of a warp is left out.
    unsigned long group = tid >> 5;
    if (group > (step >> 5) - group)
      continue;
    xchg[threadIdx.x / 32][threadIdx.x % 32] = in[tid];
    __syncwarp();
    out[tid] = xchg[threadIdx.x / 32][31 - threadIdx.x % 32];
    __syncwarp();
  } while ((tid += blockDim.x * gridDim.x) < step);
}

__global__ void anyBound(long *out, const long *in, unsigned long n) {
  __shared__ long xchg[32];
  unsigned long tid = threadIdx.x + blockDim.x * (unsigned long)blockIdx.x;
  do {
    xchg[threadIdx.x % 32] = in[tid];
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'anyBound' names lanes that may not take part: it is inside a loop whose condition '(tid += blockDim.x * gridDim.x) < n' depends on the thread: threads with fewer trips skip it in the last ones [warplint-warp-sync-mask]
    // CHECK: :[[@LINE-4]]:3: note: it is inside a loop
    // CHECK: :[[@LINE-3]]:5: note: give the lanes
    out[tid] = xchg[31 - threadIdx.x % 32];
  } while ((tid += blockDim.x * gridDim.x) < n);
}

__global__ void forPowerOfTwo(long *out, const long *in, unsigned lg) {
  __shared__ long xchg[32];
  for (unsigned long tid = threadIdx.x + blockDim.x * (unsigned long)blockIdx.x;
       tid < (1ul << lg); tid += blockDim.x * gridDim.x) {
    xchg[threadIdx.x % 32] = in[tid];
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'forPowerOfTwo' names lanes that may not take part: it is inside a loop whose condition 'tid < (1ul << lg)' depends on the thread
    // CHECK: :[[@LINE-5]]:3: note: it is inside a loop
    // CHECK: :[[@LINE-3]]:5: note: give the lanes
    out[tid] = xchg[31 - threadIdx.x % 32];
  }
}

void launch(long *out, const long *in, unsigned lg, int sms) {
  permute<<<(1u << lg) / 32 / 32, 32>>>(out, in, lg);
  permute<<<sms * 2, 192>>>(out, in, lg);
  anyBound<<<sms * 2, 192>>>(out, in, 1000);
  forPowerOfTwo<<<sms * 2, 192>>>(out, in, lg);
}
