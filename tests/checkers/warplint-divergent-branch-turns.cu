// warplint-divergent-branch: a write-out in turns (issue 23, AFTER 14: HeCBench's tissue).
// `step` lanes share one output element; a uniform loop over k hands the one-statement
// add to the lane whose `t % step` equals k, one lane of each group per trip, so no two
// lanes add to the element at once. Each lane takes the arm in one trip at most: the loop
// costs each warp one masked statement per trip. A note. So is an arm of two statements
// (fourteenth session, NVIDIA/AMGX's fillA_4by4Blocks: the lane whose entry index is m
// publishes the cell to read and the cell to write for its half-warp). An arm of three or
// more statements run in turns, and a test that is no equality with the counter (`t % step
// < k`, a lane taking the arm in many trips), stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void turns(float *out, const float *in, int n, int step) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= step * n) return;
  const int item = i / step;
  const int part = i % step;
  float p = in[i] * 2.f;
  if (part == 0) out[item] = p;
  // CHECK: :[[@LINE-1]]:7: remark: branch on 'part' diverges
  // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the branch runs once per thread, outside the kernel's loops
  for (int k = 1; k < step; k++)
    if (part == k && item < n) out[item] += p;
  // CHECK: :[[@LINE-1]]:9: remark: branch on 'part == k' diverges
  // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: each lane takes the branch in one trip at most of the enclosing loop
}
void launchTurns(float *o, const float *i, int n) { turns<<<(4 * n + 255) / 256, 256>>>(o, i, n, 4); }

// Two statements in turns: a note.
__global__ void publishTurns(int *cells, const int *rows, const int *cols, int n) {
  __shared__ int toRead[8], toWrite[8];
  const int half = threadIdx.x / 16;
  const int entry = threadIdx.x % 16;
  const int g = blockIdx.x * 8 + half;
  const int r = rows[g * 16 + entry], c = cols[g * 16 + entry];
  for (int m = 0; m < 16; m++) {
    if (entry == m) {
      toRead[half] = r;
      toWrite[half] = c;
    }
    // CHECK: :[[@LINE-4]]:9: remark: branch on 'entry' diverges
    // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: each lane takes the branch in one trip at most of the enclosing loop (an equality with its counter) and the arm is two statements
    __syncwarp();
    cells[toWrite[half] * n + entry] += cells[toRead[half] * n + entry];
    __syncwarp();
  }
}
void launchPublish(int *c, const int *r, const int *k, int n) { publishTurns<<<64, 128>>>(c, r, k, n); }

// Reported: the arm in turns does three statements.
__global__ void heavyTurns(float *out, const float *in, int n, int step) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  const int item = i / step;
  const int part = i % step;
  float p = in[i];
  for (int k = 0; k < step; k++)
    if (part == k) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'part' diverges
      float q = in[item * step + k] * p + in[n + item];
      out[item] = q * q + out[item];
      out[n + item] = q - p;
    }
}
void launchHeavy(float *o, const float *i, int n) { heavyTurns<<<(4 * n + 255) / 256, 256>>>(o, i, n, 4); }

// Reported: lanes below the counter take the arm in many trips.
__global__ void belowCounter(float *out, const float *in, int n, int step) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  const int item = i / step;
  const int part = i % step;
  for (int k = 1; k < step; k++)
    if (part < k) out[i] += in[item * step + k];
  // CHECK: :[[@LINE-1]]:9: warning: branch on 'part' diverges
}
void launchBelow(float *o, const float *i, int n) { belowCounter<<<(4 * n + 255) / 256, 256>>>(o, i, n, 4); }
