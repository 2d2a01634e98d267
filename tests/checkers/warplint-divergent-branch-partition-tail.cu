// warplint-divergent-branch: the tail of an even partition of the work (issue 23, AFTER 14:
// HeCBench's mnist kernels). Each lane runs its own chunk [n * pos / size, n * (pos + 1) /
// size): floor(n / size) items or one more. The lanes of a warp run the common trips
// together and split in one trip at most, the last: a bounds tail, a note in every sample.
// A loop whose start is the same for every lane and whose bound picks lanes (`k <
// (threadIdx.x & 1)`, an `if` on the lane's parity in disguise) and a partition whose chunks
// differ by more than one item stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void chunks(float *out, const float *in, int n) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  for (int i = n * pos / size; i < n * (pos + 1) / size; ++i)
    out[i] = 2.f * in[i];
  // CHECK: :[[@LINE-2]]:32: remark: loop condition on 'i' diverges in up to 2 of 2 warps of kernel 'chunks'
  // CHECK: :[[@LINE-3]]:32: note: a note, not a warning: each lane runs its own chunk of the work, and the trip counts of one warp's lanes differ by at most one in every sample
}
void launchChunks(float *o, const float *i, int n) { chunks<<<64, 64>>>(o, i, n); }

// A fixed size: 3456 items over 4096 threads, no lane runs more than one trip.
__global__ void fixedChunks(float *out) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  const int N = 3456;
  for (int i = N * pos / size; i < N * (pos + 1) / size; ++i)
    out[i] += 1.f;
  // CHECK: :[[@LINE-2]]:32: remark: loop condition on 'i' diverges
  // CHECK: :[[@LINE-3]]:32: note: a note, not a warning: each lane runs its own chunk
}
void launchFixed(float *o) { fixedChunks<<<64, 64>>>(o); }

// Reported: the start is every lane's, the bound picks the odd lanes.
__global__ void parity(float *out, const float *in, int n) {
  for (int k = 0; k < (threadIdx.x & 1); ++k)
    out[threadIdx.x] += in[k];
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'parity'
}
void launchParity(float *o, const float *i, int n) { parity<<<64, 64>>>(o, i, n); }

// Reported: chunks of 0 to 7 items, one lane's after another's.
__global__ void uneven(float *out, const float *in, int n) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = pos * 8; i < pos * 8 + (pos % 8); ++i)
    out[i] = in[i];
  // CHECK: :[[@LINE-2]]:25: warning: loop condition on 'i' diverges in 2 of 2 warps of kernel 'uneven'
}
void launchUneven(float *o, const float *i, int n) { uneven<<<64, 64>>>(o, i, n); }
