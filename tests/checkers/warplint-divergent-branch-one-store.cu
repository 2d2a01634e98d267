// warplint-divergent-branch: an if/else whose two arms store to the same place (issue 23,
// AFTER 12: FasterTransformer's decoder attention mask). `if (c) m[i] = 1; else m[i] = 0;`
// is one store of a select of the two values, as `m[i] = c ? 1 : 0` is: the compiler
// emits the store once, and no lane waits for another. A note, not a warning. So are arms
// of a few stores each to the same places whose values read the same places (a sign
// apart: the loads are common to the arms). Arms that store to two places, do more than
// the stores, or load in one arm what the other does not, are still reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

// A causal mask over a grid-stride loop: 1 inside the triangle, 0 outside. A note.
__global__ void causalMask(float *mask, const int *lengths, int maxLen) {
  const int len = lengths[blockIdx.x];
  mask += blockIdx.x * maxLen * maxLen;
  for (int i = threadIdx.x; i < maxLen * maxLen; i += blockDim.x) {
    int row = i / maxLen;
    int col = i % maxLen;
    if (row < len && col <= row) {
      mask[i] = 1.0f;
    } else {
      mask[i] = 0.0f;
    }
    // CHECK: :[[@LINE-5]]:9: remark: branch on 'col <= row' diverges
    // CHECK: :[[@LINE-6]]:9: note: a note, not a warning: both arms store a value to the same place and do nothing else
  }
}
void launchMask(float *m, const int *l) { causalMask<<<4, 256>>>(m, l, 64); }

// A lane-parity choice of value, stored once. A note.
__global__ void parityValue(float *out, const float *in) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[t];
  if (threadIdx.x % 2 == 0)
    out[t] = v * 2.f;
  else
    out[t] = v + 1.f;
  // CHECK: :[[@LINE-4]]:7: remark: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'parityValue' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-5]]:7: note: a note, not a warning: both arms store a value to the same place
}
void launchParity(float *o, const float *i) { parityValue<<<4, 128>>>(o, i); }

// Reported: the arms store to two places.
__global__ void twoPlaces(float *a, float *b, const float *in) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0)
    a[t] = in[t];
  else
    b[t] = in[t];
  // CHECK: :[[@LINE-4]]:7: warning: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'twoPlaces' (block 128x1x1); predicted branch efficiency 0%
}
void launchTwo(float *a, float *b, const float *i) { twoPlaces<<<4, 128>>>(a, b, i); }

// Reported: one arm does more than the store.
__global__ void armDoesMore(float *out, float *side, const float *in) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0) {
    out[t] = in[t];
    side[t] = 1.f;
  } else {
    out[t] = 0.f;
  }
  // CHECK: :[[@LINE-6]]:7: warning: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'armDoesMore' (block 128x1x1); predicted branch efficiency 0%
}
void launchMore(float *o, float *s, const float *i) { armDoesMore<<<4, 128>>>(o, s, i); }

// Reported: each arm loads the value it stores (the arm's own work, not a select).
__global__ void armLoads(float *out, const float *a, const float *b) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0)
    out[t] = a[t];
  else
    out[t] = b[t];
  // CHECK: :[[@LINE-4]]:7: warning: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'armLoads' (block 128x1x1); predicted branch efficiency 0%
}
void launchLoads(float *o, const float *a, const float *b) { armLoads<<<4, 128>>>(o, a, b); }

// Both arms store the same places from the same loads, a sign apart (HeCBench's lsqt,
// `out_real[i] = in_real[i]` against `= -in_real[i]`, and the same for the imaginary
// part): the loads are common to the arms and issued once, each store one select. A note.
__global__ void signFlip(float *outRe, float *outIm, const float *inRe, const float *inIm,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (i % 2 == 0) {
      outRe[i] = inRe[i];
      outIm[i] = inIm[i];
    } else {
      outRe[i] = -inRe[i];
      outIm[i] = -inIm[i];
    }
    // CHECK: :[[@LINE-7]]:9: remark: branch on 'i' diverges in up to 4 of 4 warps of kernel 'signFlip' (block 128x1x1); predicted branch efficiency 0% to 100%
    // CHECK: :[[@LINE-8]]:9: note: a note, not a warning: both arms store a value to the same place and do nothing else
  }
}
// Reported: the same stores, the second arm's values read from other places.
__global__ void otherLoads(float *outRe, float *outIm, const float *inRe, const float *inIm,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (i % 2 == 0) {
      outRe[i] = inRe[i];
      outIm[i] = inIm[i];
    } else {
      outRe[i] = -inIm[i + 1];
      outIm[i] = -inRe[i + 1];
    }
    // CHECK: :[[@LINE-7]]:9: warning: branch on 'i' diverges in up to 4 of 4 warps of kernel 'otherLoads' (block 128x1x1); predicted branch efficiency 0% to 100%
  }
}
void launchSign(float *a, float *b, const float *c, const float *d, int n) {
  signFlip<<<(n + 127) / 128, 128>>>(a, b, c, d, n);
  otherLoads<<<(n + 127) / 128, 128>>>(a, b, c, d, n);
}
