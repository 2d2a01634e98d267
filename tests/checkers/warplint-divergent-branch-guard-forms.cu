// warplint-divergent-branch: two more forms of a bounds guard (issue 23, HeCBench labelled
// at AFTER 17).
// - A row per lane from a base loaded for the warp, the lane written `31 & t` (either
//   operand order of `&`): `row = warp_num[warp_id] + lane; if (row >= m) return;`
//   (sptrsv's thread-per-row tail). Only the warp that holds row m splits.
// - A coordinate that falls with the lane (`x_top - (tid - 16)`, a merge path's 32-wide
//   search on a diagonal) against the matrix's edges: a guard on a falling index splits a
//   row into one contiguous range as one on a growing index does.
// A lane role against a compile-time limit (`(31 & t) < 16`) and a parity of the falling
// coordinate are no guards and stay reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void perRow(const int *warp_num, float *x, int m, int Len) {
  const int local_id = threadIdx.x;
  const int global_id = blockIdx.x * blockDim.x + local_id;
  const int warp_id = global_id / 32;
  if (warp_id >= (Len - 1))
    return;
  const int lane_id = 31 & local_id;
  int row = warp_num[warp_id] + lane_id;
  if (row >= m)
    return;
  x[row] = 2.f * x[row];
}

__global__ void mergePath(const int *A, const int *B, int *out, int A_length, int B_length,
                          int x_top, int y_top) {
  int offset = (int)threadIdx.x - 16;
  int current_x = x_top - offset;
  int current_y = y_top + offset;
  int v;
  if (current_x >= A_length || current_y < 0)
    v = 0;
  else if (current_y >= B_length || current_x < 1)
    v = 1;
  else
    v = A[current_x - 1] <= B[current_y] ? 1 : 0;
  out[blockIdx.x * 32 + threadIdx.x] = v;
}

__global__ void laneRole(float *x) {
  const int lane_id = 31 & threadIdx.x;
  if (lane_id < 16)
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'lane_id' diverges in
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    x[blockIdx.x * 256 + threadIdx.x] *= 2.f;
}

__global__ void fallingParity(float *x, int x_top) {
  int current_x = x_top - (int)threadIdx.x;
  if (current_x % 2 == 0)
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'current_x' diverges in
    x[blockIdx.x * 256 + threadIdx.x] *= 2.f;
}

void launch(const int *w, float *x, int m, int L, const int *A, const int *B, int *o) {
  perRow<<<8, 256>>>(w, x, m, L);
  mergePath<<<8, 32>>>(A, B, o, m, L, 40, 0);
  laneRole<<<8, 256>>>(x);
  fallingParity<<<8, 256>>>(x, m);
}
