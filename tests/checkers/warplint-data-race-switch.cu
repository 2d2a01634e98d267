// warplint-data-race: a switch on a thread-dependent value runs each case's code only for
// the threads whose value selects it, as an `if` runs its arm only for the threads whose
// condition holds (issue 23, HeCBench resnet-kernels' winograd AtIA: a store under
// `case 0:` of `switch (threadIdx.y)` written by one row only). The cases after a break are
// walked too, each under its own condition.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// Rows 0 and 1 each write a range of their own (one word per thread); rows 2-5 take
// default and store nothing. Silent.
__global__ void rowCases(float *out, const float *in) {
  int x = threadIdx.x, y = threadIdx.y;
  float v = in[y * 6 + x];
  switch (y) {
  case 0:
    out[blockIdx.x * 64 + x] = v;
    break;
  case 1:
    out[blockIdx.x * 64 + 8 + x] = v * 2.0f;
    break;
  default:
    break;
  }
}
void launchRowCases(float *o, const float *i) { rowCases<<<4, dim3(6, 6)>>>(o, i); }

// The case's store leaves the row out of its address: every row y == 0 or y == 2 (a
// fall-through label pair) writes the same word out[x]. Reported.
__global__ void sharedCase(float *out, const float *in) {
  int x = threadIdx.x, y = threadIdx.y;
  switch (y) {
  case 0:
  case 2:
    out[blockIdx.x * 64 + x] = in[y * 6 + x];
    // CHECK: :[[@LINE-1]]:5: warning: data race on global 'out[0]': thread (0, 0) writes it (out[blockIdx.x * 64 + x], line [[@LINE-1]]) and thread (0, 2) writes it (out[blockIdx.x * 64 + x], line [[@LINE-1]]) in the same warp with no __syncwarp() between (block 6x6x1) [warplint-data-race]
    break;
  }
}
void launchSharedCase(float *o, const float *i) { sharedCase<<<4, dim3(6, 6)>>>(o, i); }

// A later label (after a break), default: rows 1-5 reach it and share the word. Reported.
__global__ void laterCase(float *out, const float *in) {
  int x = threadIdx.x, y = threadIdx.y;
  switch (y) {
  case 0:
    out[blockIdx.x * 64 + 32 + x] = in[x];
    break;
  default:
    out[blockIdx.x * 64 + x] = in[y * 6 + x];
    // CHECK: :[[@LINE-1]]:5: warning: data race on global 'out[2]': thread (2, 1) writes it (out[blockIdx.x * 64 + x], line [[@LINE-1]]) and thread (2, 5) writes it (out[blockIdx.x * 64 + x], line [[@LINE-1]]) with no barrier between (block 6x6x1) [warplint-data-race]
    break;
  }
}
void launchLaterCase(float *o, const float *i) { laterCase<<<4, dim3(6, 6)>>>(o, i); }
