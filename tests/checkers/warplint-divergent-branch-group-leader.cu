// warplint-divergent-branch: the write-out by the lane that leads each group of lanes
// (issue 23, AFTER 12: FasterTransformer's top-k gating and head normalization). A warp
// holds several groups of W lanes (a row, a head); a shuffle reduction within each group
// leaves the group's result in its lanes, and the lane whose index in the group is 0 (or a
// uniform value) writes it: `g == 0` with g = t % W. The other lanes have nothing to
// write; the arm is a few straight-line statements issued once, masked to the leaders.
// Silent at the defaults, as the warp's write-out (ReportTreeReductionTails reports it),
// and so is a branch inside that arm (it runs in the leaders alone). A group leader with
// no collective before it, or whose arm loops, is still reported, and so is the same
// `?:` outside a leader's arm.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' -config="{CheckOptions: {warplint-divergent-branch.ReportTreeReductionTails: true}}" %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=TAILS %s
#include <cuda_runtime.h>

// Rows of 8 lanes (4 rows a warp): an arg-max by butterfly within the row, then the
// row's lead lane writes three results. Silent.
template <int W>
__global__ void rowLeader(float *out, int *idx, int *src, const float *in, int k, int rows) {
  const int g = threadIdx.x % W;
  const int row = blockIdx.x * (blockDim.x / W) + threadIdx.x / W;
  float v = in[row * W + g];
  int e = g;
  for (int m = W / 2; m > 0; m /= 2) {
    float ov = __shfl_xor_sync(0xffffffffu, v, m, W);
    int oe = __shfl_xor_sync(0xffffffffu, e, m, W);
    if (ov > v) {
      v = ov;
      e = oe;
    }
  }
  if (g == 0) {
    // TAILS: :[[@LINE-1]]:7: warning: branch on 'g' diverges
    const int i = k * row;
    out[i] = v;
    idx[i] = row < rows ? e : -1;
    src[i] = k * rows + row;
  }
}
void launchRow(float *o, int *i, int *s, const float *in) {
  rowLeader<8><<<16, 128>>>(o, i, s, in, 2, 512);
}

// Heads of 16 lanes, two halves of 8 (q and k): the lead lane of each half scales by a
// factor it loads (the q half's head scale, 1 for k) and writes it. Silent: the `if`
// and the `?:` inside its arm.
__global__ void halfHeadLeader(float *norm, const float *scales, const float *data,
                               float f, int heads) {
  const int lane = threadIdx.x % 32;
  const int inHead = lane % 16;
  const int head = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  const bool isQ = inHead < 8;
  float s = data[blockIdx.x * blockDim.x + threadIdx.x];
  s *= s;
  for (int i = 1; i < 8; i <<= 1)
    s += __shfl_xor_sync(0xffffffffu, s, i, 32);
  if (inHead % 8 == 0) {
    // TAILS: :[[@LINE-1]]:7: warning: branch on 'inHead' diverges
    const float scale = isQ ? scales[head % heads] * f : 1.f;
    norm[2 * head + inHead / 8] = scale / (s + 1e-6f);
  }
}
void launchHalf(float *n, const float *sc, const float *d) {
  halfHeadLeader<<<8, 64>>>(n, sc, d, 0.5f, 12);
}

// Reported: the same test with no collective before it (each lane's own value).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void noCollective(float *out, const float *in) {
  const int g = threadIdx.x % 8;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x] * 2.f;
  if (g == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 8] = v;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'g' diverges in 4 of 4 warps of kernel 'noCollective' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchNo(float *o, const float *i) { noCollective<<<4, 128>>>(o, i); }

// Reported: after the group's reduction the leader's arm loops over the input.
__global__ void leaderLoops(float *out, const float *in, int n) {
  const int g = threadIdx.x % 8;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int m = 4; m > 0; m /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, m, 8);
  if (g == 0) {
    for (int i = 0; i < n; ++i)
      v += in[i * 128 + threadIdx.x];
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 8] = v;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'g' diverges in 4 of 4 warps of kernel 'leaderLoops' (block 128x1x1); predicted branch efficiency 0%
}
void launchLoops(float *o, const float *i) { leaderLoops<<<4, 128>>>(o, i, 16); }

// The `?:` with a load in one arm, in every lane (not inside a leader's arm): a note since
// the thirteenth session (the compiler predicates the load and selects; 7 of 7 such
// warnings labelled on unseen code were false, docs/precision.md AFTER 20).
__global__ void selectEveryLane(float *out, const float *scales, const float *in) {
  const int inHead = threadIdx.x % 16;
  const bool isQ = inHead < 8;
  float s = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float scale = isQ ? scales[threadIdx.x / 16] : 1.f;
  // CHECK: :[[@LINE-1]]:23: remark: '?:' on 'isQ' diverges
  // CHECK: :[[@LINE-2]]:23: note: a note, not a warning: the '?:' arms compute values without side effects
  out[blockIdx.x * blockDim.x + threadIdx.x] = s * scale;
}
void launchSelect(float *o, const float *sc, const float *i) {
  selectEveryLane<<<4, 128>>>(o, sc, i);
}
