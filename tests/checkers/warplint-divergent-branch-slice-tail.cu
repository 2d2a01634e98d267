// warplint-divergent-branch: the tail of each group's slice (issue 23, AFTER 12:
// FasterTransformer's normalize_kernel_v2). Two heads per warp, 16 lanes each; a lane
// sums ept = ceil(n / 16) elements of its head from ept * (t % 16) on, and stops at the
// head's end: `i < ept && i + ept * (t % 16) < n`. The last lanes of each group run fewer
// trips when 16 does not divide n: the lanes leave in lane order within each group (a row
// of its own), only in the last trips. A note. A trip count that reads the thread
// otherwise (here counted from the group's end) is judged by the warp's lane order.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void sliceTail(float *out, const float *in, int n) {
  const int g = threadIdx.x % 16;
  const int head = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  const int ept = (n + 15) / 16;
  float s = 0.f;
  for (int i = 0; i < ept && i + ept * g < n; i++)
    s += in[head * n + ept * g + i];
  // CHECK: :[[@LINE-2]]:19: remark: loop condition on 'g' diverges
  // CHECK: :[[@LINE-3]]:19: note: a note, not a warning: the lanes leave the loop in lane order
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
void launchSlice(float *o, const float *i, int n) { sliceTail<<<8, 128>>>(o, i, n); }

// Reported: the same slices counted from each group's end.
__global__ void sliceFromEnd(float *out, const float *in, int n) {
  const int g = threadIdx.x % 16;
  const int head = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  const int ept = (n + 15) / 16;
  float s = 0.f;
  for (int i = 0; i < ept && i + ept * (15 - g) < n; i++)
    s += in[head * n + ept * (15 - g) + i];
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'g' diverges
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
void launchFromEnd(float *o, const float *i, int n) { sliceFromEnd<<<8, 128>>>(o, i, n); }
