// warplint-barrier-divergence: a value that the arms of a thread-dependent `if` leave with
// different thread-dependent values is one value afterwards, and the difference of two
// values computed from it is the same for every thread (issue 23, cudpp's block merge
// sort: `if (addPart == 0) first += depth*mult; last = first + depth*mult - 1; range =
// last - first;` then `switch (range)` around the binary search's barriers).
// RUN: %not %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ void step(float *s, unsigned &j, unsigned bump) {
  float v = s[j];
  j = v < 1.0f ? j + bump : j - bump;
  __syncthreads();
}

__global__ void mergeStep(float *out, const float *in) {
  __shared__ float s[1024];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  unsigned mult = 1, steps = 128;
  while (mult < steps) {
    unsigned first = (tid / (mult * 2)) * 16 * mult;
    unsigned addPart = tid % (mult << 1) >= mult ? 1 : 0;
    if (addPart == 0)
      first += 8 * mult;
    unsigned last = first + 8 * mult - 1;
    unsigned j = (first + last) / 2;
    unsigned range = last - first;
    __syncthreads();
    switch (range) {
    case 1023: step(s, j, 256);
    case 511: step(s, j, 128);
    case 7: step(s, j, 2);
    }
    out[tid] = s[j];
    mult *= 2;
  }
}

// The difference of the merged value and another thread-dependent one: still the thread's.
__global__ void mergeOther(float *out, const float *in) {
  __shared__ float s[1024];
  unsigned tid = threadIdx.x;
  unsigned first = tid / 3;
  if (tid % 2 == 0)
    first += 8;
  unsigned range = first - tid;
  if (range < 40) {
    s[tid] = in[tid];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'mergeOther' is skipped by
  }
  out[tid] = s[tid];
}

void run(float *o, const float *i) {
  mergeStep<<<1, 128>>>(o, i);
  mergeOther<<<1, 128>>>(o, i);
}
