// warplint-uncoalesced-access: a stride the code fixes, under a bounds guard on a run-time
// size (twenty-eighth session). `if (idx < size)` with size sampled as 1 leaves the warp
// one lane, which says how many lanes run, not how they lie apart: such a sample does not
// make the figure the value's. Before, the canonical strided load below was a note ("the
// run-time value of size decides the figure") in every kernel with a grid-tail guard.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

__global__ void strided(const float *in, float *out, int size) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size)
    out[idx] = in[idx * 7];
  // CHECK: :[[@LINE-1]]:16: warning: each warp's load of 'in[idx * 7]' touches 28 sectors for 128 bytes (ideal 4): stride of 7 floats between lanes (block 256x1x1, size = 1000; a finding for size = 32 and size = 33 too) [warplint-uncoalesced-access]
}

// The stride itself a run-time value: still the value's figure, a note.
__global__ void byPitch(const float *in, float *out, int size, int pitch) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size)
    out[idx] = in[idx * pitch];
  // CHECK: :[[@LINE-1]]:16: remark: each warp's load of 'in[idx * pitch]' {{.*}} between lanes that {{.*}}pitch{{.*}} decides
  // CHECK: :[[@LINE-2]]:16: note: said as a note: the run-time value of {{.*}}pitch decides the figure
}

void launchGuarded(const float *i, float *o, int n, int p) {
  strided<<<(n + 255) / 256, 256>>>(i, o, n);
  byPitch<<<(n + 255) / 256, 256>>>(i, o, n, p);
}
