// warplint-divergent-branch: the edge of a triangle whose arms are not written as an `if`
// with an empty side (issue 23, HeCBench's dxtc2 and tpacf).
// - An operand of an `if`'s `&&` chain (`if (idx < 16 && idx > i && x[idx] == x[i])`): the
//   lanes it turns away skip the rest of the condition and the arm, so the `if`'s arms are
//   the operand's. A tie-break over 16 lanes of a 64-thread block, the boundary sweeping one
//   warp of two: a note. The same sweep in a block of one warp stays a warning (the
//   recall set's lud_diagonal, `triangle` in warplint-divergent-branch-recall.cu).
// - An arm that only moves registers (`t2 += 124 << k`: the pair skipped) beside a heavy
//   one: the lanes below the diagonal of one block only wait. A note; with a store in the
//   light arm, a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void tieBreak(int *out) {
  __shared__ int xrefs[16];
  const int idx = threadIdx.x;
  if (idx < 16)
    xrefs[idx] = out[idx];
  __syncthreads();
  for (int i = 0; i < 15; i++) {
    if (idx < 16 && idx > i && xrefs[idx] == xrefs[i])
      ++xrefs[idx];
    // CHECK: :[[@LINE-2]]:9: remark: short-circuit operand on 'idx' diverges in 15 of 30 warp executions of kernel 'tieBreak' (block 64x1x1, 15 values of 'i'); predicted branch efficiency 50%
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: one side of the branch does no work and the lanes that take the other are one contiguous range of each warp
    __syncthreads();
  }
  if (idx < 16)
    out[idx] = xrefs[idx];
}

__global__ void tieBreakOneWarp(int *out) {
  __shared__ int xrefs[32];
  const int idx = threadIdx.x;
  xrefs[idx] = out[idx];
  __syncthreads();
  for (int i = 0; i < 31; i++) {
    if (idx > i && xrefs[idx] == xrefs[i])
      ++xrefs[idx];
    // CHECK: :[[@LINE-2]]:9: warning: short-circuit operand on 'idx' diverges in 31 of 31 warp executions of kernel 'tieBreakOneWarp'
    __syncthreads();
  }
  out[idx] = xrefs[idx];
}

__global__ void diagonalBlock(const double *x, const double *bounds, unsigned *out) {
  __shared__ double s[128];
  unsigned tx = threadIdx.x;
  double v = x[blockIdx.x * 128 + tx];
  s[tx] = x[blockIdx.y * 128 + tx];
  __syncthreads();
  if (blockIdx.x != blockIdx.y)
    return;
  for (int i = 0; i < 128; i += 4) {
    unsigned t2 = 0;
    for (int j = 0; j < 4; j++) {
      if (threadIdx.x <= i + j)
        t2 += (124 << (j << 3));
      else {
        double d = v * s[i + j];
        if (d < bounds[2])
          t2 += (8 << (j << 3));
        else if (d < bounds[1])
          t2 += (4 << (j << 3));
      }
      // CHECK: :[[@LINE-9]]:11: remark: branch on 'threadIdx.x' diverges in 124 of 512 warp executions of kernel 'diagonalBlock' (block 128x1x1, 128 values of 'i'); predicted branch efficiency 76%
      // CHECK: :[[@LINE-10]]:11: note: a note, not a warning: one side of the branch only moves values between registers and the lanes that take the other are one contiguous range of each warp
    }
    out[blockIdx.x * 4096 + i * 32 + tx] = t2;
  }
}

__global__ void diagonalStore(const double *x, const double *bounds, unsigned *out) {
  __shared__ double s[128];
  unsigned tx = threadIdx.x;
  double v = x[blockIdx.x * 128 + tx];
  s[tx] = x[blockIdx.y * 128 + tx];
  __syncthreads();
  for (int i = 0; i < 128; i++) {
    if (threadIdx.x <= i)
      out[i * 128 + tx] = 0;
    else {
      double d = v * s[i];
      out[i * 128 + tx] = d < bounds[2] ? 8 : 4;
    }
    // CHECK: :[[@LINE-6]]:9: warning: branch on 'threadIdx.x' diverges in
  }
}

void launch(int *o, const double *x, const double *b, unsigned *u, int n) {
  tieBreak<<<n, 64>>>(o);
  tieBreakOneWarp<<<n, 32>>>(o);
  diagonalBlock<<<dim3(64, 64), 128>>>(x, b, u);
  diagonalStore<<<dim3(64, 64), 128>>>(x, b, u);
}
