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
    // CHECK: :[[@LINE-1]]:21: warning: mask 0x0000003f of '__shfl_sync()' in kernel 'storedByAll' names lanes 6-8 of warp 0
    out[8 + lane] = center;
  }
}

// Used beyond a store (returned through another computation that every lane keeps).
__global__ void usedOtherwise(float *out, const float *in) {
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.y == 0 && lane < 6) {
    float value = in[lane];
    float center = __shfl_sync(0x3F, value, lane + 3);
    // CHECK: :[[@LINE-1]]:20: warning: mask 0x0000003f of '__shfl_sync()' in kernel 'usedOtherwise' names lanes 6-8 of warp 0
    value += center;
    if (lane < 3)
      out[8 + lane] = value;
    out[lane] = value;
  }
}
