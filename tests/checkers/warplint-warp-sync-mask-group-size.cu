// warplint-warp-sync-mask when a run-time value sizes the groups a condition tests (issue
// 23, twenty-first session: AutoDock-GPU's `warpID = threadIdx.x >> cData.warpbits`, whose
// host sets warpbits = 5 in another file, and ccminer's scan, `warp_id = threadIdx.x /
// width`). `if (group == 0)` keeps named lanes from a full-mask shuffle for some group sizes
// (bits 0 or 4: groups narrower than a warp) and for none at others (5 and up): the value
// decides, not the code, as divergent-branch already says of the same branch. A note,
// naming the value. A bound on the thread index (`threadIdx.x < n`) is no group size and
// stays a warning, and so does a group size the launch fixes at a split.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Params {
  int warpbits;
  int n;
};
__constant__ Params cData;

// A butterfly minimum; a macro, so that each kernel's shuffle has a place of its own.
#define WARP_MIN(v)                                                                        \
  for (int m = 16; m > 0; m /= 2) {                                                        \
    float o = __shfl_xor_sync(0xffffffffu, v, m);                                          \
    v = o < v ? o : v;                                                                     \
  }

// A note: the shift amount is a run-time value of constant memory.
__global__ void groupByShift(const float *in, float *out) {
  __shared__ float best[32];
  const int warpID = threadIdx.x >> cData.warpbits;
  const int lane = threadIdx.x & 31;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane == 0)
    best[threadIdx.x / 32] = v;
  __syncthreads();
  if (warpID == 0) {
    v = lane < blockDim.x / 32 ? best[lane] : 1e30f;
    WARP_MIN(v)
    // CHECK: :[[@LINE-1]]:5: remark: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'groupByShift' names lanes that may not take part: it is inside 'if (warpID == 0)', which depends on the thread
    // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: the run-time value of 'cData.warpbits' decides, and the launches in this file do not fix it
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

// A note: the divisor is a kernel parameter that no launch here passes.
__global__ void groupByWidth(const float *in, float *out, int width) {
  const int group = threadIdx.x / width;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (group == 0) {
    WARP_MIN(v)
    // CHECK: :[[@LINE-1]]:5: remark: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'groupByWidth' names lanes that may not take part: it is inside 'if (group == 0)', which depends on the thread
    // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: the run-time value of 'width' decides
    out[threadIdx.x] = v;
  }
}

// A warning: a bound on the thread index is no group size.
__global__ void boundedLanes(const float *in, float *out, int n) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x < n) {
    WARP_MIN(v)
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'boundedLanes' names lanes that may not take part: it is inside 'if (threadIdx.x < n)', which depends on the thread
    out[threadIdx.x] = v;
  }
}

// A warning: the launch fixes the group size at 8 lanes, which splits warp 0 (the value
// sampled only at what the launch passes).
__global__ void groupFixed(const float *in, float *out, int width) {
  const int group = threadIdx.x / width;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (group == 0) {
    WARP_MIN(v)
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'groupFixed' names lanes that may not take part: it is inside 'if (group == 0)', which depends on the thread
    out[threadIdx.x] = v;
  }
}
void launchFixed(const float *in, float *out) { groupFixed<<<4, 128>>>(in, out, 8); }
