// warplint-warp-sync-mask: a shuffle whose readers of absent lanes discard what they read
// (seventeenth session, PhysX's ps_updateBoundSecondPassLaunch: lanes 0-5 hold a bound's
// min and max, `c = (__shfl_sync(0x3F, v, lane + 3) + v) * 0.5f` has lanes 3-5 read lanes
// 6-8, which are not there, and only lanes 0-2 store `c`). A lane that reads an absent
// lane gets an undefined value; where the kernel only stores the shuffle's value, under
// conditions false for those lanes, nothing undefined is kept: silent. Stored by them too,
// or used otherwise, it is a finding.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error}}:' %s

__global__ void boundCenter(float *out, const float *in) {
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.y == 0 && lane < 6) {
    float value = in[lane];
    out[lane] = value;
    unsigned mask = 0x3F;
    float center = (__shfl_sync(mask, value, lane + 3) + value) * 0.5f;
    if (lane < 3)
      out[8 + lane] = center;
  }
}

// Every lane that computes it stores it: lanes 3-5 keep what they read from 6-8.
__global__ void storedByAll(float *out, const float *in) {
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.y == 0 && lane < 6) {
    float value = in[lane];
    float center = (__shfl_sync(0x3F, value, lane + 3) + value) * 0.5f;
    // CHECK: :[[@LINE-1]]:21: warning: mask 0x0000003f of '__shfl_sync()' in kernel 'storedByAll' reads lanes 6-8 of warp 0 (and lanes of 7 more warps), outside its mask
    out[8 + lane] = center;
  }
}

// Used beyond a store (returned through another computation that every lane keeps).
__global__ void usedOtherwise(float *out, const float *in) {
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.y == 0 && lane < 6) {
    float value = in[lane];
    float center = __shfl_sync(0x3F, value, lane + 3);
    // CHECK: :[[@LINE-1]]:20: warning: mask 0x0000003f of '__shfl_sync()' in kernel 'usedOtherwise' reads lanes 6-8 of warp 0 (and lanes of 7 more warps), outside its mask
    value += center;
    if (lane < 3)
      out[8 + lane] = value;
    out[lane] = value;
  }
}

// A tree reduction over a mask of 8 lanes (opencv_contrib's histogram and CLAHE LUT
// kernels, twenty-second session): lanes 4-7 read lanes 8-11, outside the mask, but only
// lanes below the offset use what they read (`if (tId < delta)`), and those read lanes of
// the mask that take part. Silent.
__global__ void lutMinimum(const int *in, int *out) {
  __shared__ int warpMin[8];
  const int tId = threadIdx.x;
  if (tId % 32 == 0)
    warpMin[tId / 32] = in[blockIdx.x * blockDim.x + tId];
  __syncthreads();
  if (tId < 8) {
    int v = warpMin[tId];
    for (int delta = 4; delta > 0; delta /= 2) {
      int other = __shfl_down_sync(0x000000FF, v, delta);
      if (tId < delta)
        v = other < v ? other : v;
    }
    if (tId == 0)
      out[blockIdx.x] = v;
  }
}

// The same with every lane using what it read: lanes 4-7 keep undefined values (no launch
// here: the block assumed, a warning).
__global__ void lutMinimumAll(const int *in, int *out) {
  __shared__ int warpMin[8];
  const int tId = threadIdx.x;
  if (tId % 32 == 0)
    warpMin[tId / 32] = in[blockIdx.x * blockDim.x + tId];
  __syncthreads();
  if (tId < 8) {
    int v = warpMin[tId];
    for (int delta = 4; delta > 0; delta /= 2) {
      int other = __shfl_down_sync(0x000000FF, v, delta);
      // CHECK: :[[@LINE-1]]:19: warning: mask 0x000000ff of '__shfl_down_sync()' in kernel 'lutMinimumAll' reads lanes 8-11 of warp 0, outside its mask, which do not take part (block 256x1x1 assumed, delta = 4: they do not reach it); a value read from a lane that does not execute the call is undefined
      v = other < v ? other : v;
    }
    if (tId == 0)
      out[blockIdx.x] = v;
  }
}
void launchLut(const int *in, int *out) { lutMinimum<<<4, 256>>>(in, out); }
