// warplint-divergent-branch: the values a launch helper's callers pass are found wherever
// the callers are, whatever kernel was analysed before (issue 23, AFTER 12). The walk up
// from a branch narrows the AST's traversal scope to its kernel; the collection of the
// helper's callers, made the first time a kernel needs it, used to follow that scope, so a
// kernel analysed after another whose branch was walked up from saw no caller: its width
// `W` was sampled (here: taken as the row-leader idiom and silent).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

// The first lanes' copy: its branch is walked up from (the reduction idioms ask). Silent:
// it splits one warp of four.
__global__ void firstLanes(float *out, const float *in) {
  if (threadIdx.x < 4)
    out[threadIdx.x] = in[threadIdx.x];
}
void launchFirst(float *o, const float *i) { firstLanes<<<4, 128>>>(o, i); }

// Then the kernel of a launch helper: 'W' = 4 and 8, from the two calls below.
__global__ void helperWidth(float *c, int W) {
  if (threadIdx.x % W == 0)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'helperWidth' (block 128x1x1, 'W' = 4, 8 as launched); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchHelper(float *c, int W) { helperWidth<<<4, 128>>>(c, W); }
void callHelper(float *c) {
  launchHelper(c, 4);
  launchHelper(c, 8);
}
