// warplint-divergent-branch: a short arm beside its loop's work (issue 23, twelfth session,
// NVIDIA/AMGX). A warp per row: two lanes load the row's bounds for the others (`if (lane <
// 2) t = rows[r + lane];`, then shuffles), or the lanes that hold a block row's entries
// load them, once per trip of the row loop, whose trip also runs the loop over the row's
// columns. The split costs each warp a masked statement or two per row beside that loop:
// a note. The same arm in a loop with no loop of its own (the trip's only work), and a
// step of the warp's tree (`s[t] += s[t + 16]`, reading what another lane wrote), stay
// warnings.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void rowsPerWarp(const int *rows, const int *cols, const float *vals,
                            const float *x, float *y, int n) {
  const int lane = threadIdx.x % 32;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warps = gridDim.x * blockDim.x / 32;
  for (int r = warp; r < n; r += warps) {
    int t = -1;
    if (lane < 2)
      t = rows[r + lane];
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'lane' diverges in
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the arm is one statement of straight-line work inside a loop whose trip also runs a loop of its own
    int begin = __shfl_sync(0xffffffff, t, 0);
    int end = __shfl_sync(0xffffffff, t, 1);
    float sum = 0.f;
    for (int j = begin + lane; j < end; j += 32)
      sum += vals[j] * x[cols[j]];
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, o);
    if (lane == 0)
      y[r] = sum;
  }
}

// The same arm as the whole trip's work: a warning.
__global__ void armIsTheTrip(const int *rows, int *out, int n) {
  const int lane = threadIdx.x % 32;
  for (int r = 0; r < n; ++r) {
    if (lane < 2)
      out[r * 2 + lane] = rows[r + lane];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'lane' diverges in
  }
}

// A step of the warp's own tree in shared memory inside the row loop: a warning.
__global__ void treeInRowLoop(const float *vals, float *y, int n) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  const int lane = t % 32;
  for (int r = blockIdx.x; r < n; r += gridDim.x) {
    float sum = 0.f;
    for (int j = lane; j < 1024; j += 32)
      sum += vals[r * 1024 + j];
    s[t] = sum;
    __syncwarp();
    if (lane < 16)
      s[t] += s[t + 16];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'lane' diverges in
    __syncwarp();
    if (lane == 0)
      y[r] = s[t] + s[t + 1];
  }
}

void launch(const int *rows, const int *cols, const float *vals, const float *x, float *y,
            int *out, int n) {
  rowsPerWarp<<<(n + 3) / 4, 128>>>(rows, cols, vals, x, y, n);
  armIsTheTrip<<<1, 64>>>(rows, out, n);
  treeInRowLoop<<<n, 256>>>(vals, y, n);
}
