// warplint-data-race: every block storing one value to the same word, where the value is
// a sum over the thread's own array (issue 23, fifteenth session). A thread's own array is
// no uniform value (what its elements hold is what was stored to them), and whether the
// stored value differs between blocks follows the local's stores: loaded at addresses
// without blockIdx, every block stores the same sum (benign, silent); with blockIdx in the
// address, the blocks store different sums to one word: a race.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void sameInEveryBlock(float *out, const float *in) {
  float acc[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc[k] = in[threadIdx.x + k * 256];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += acc[k] * acc[(k + 1) % 8];
  out[threadIdx.x] = s;
}

__global__ void perBlock(float *out, const float *in) {
  float acc[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc[k] = in[blockIdx.x * 2048 + threadIdx.x + k * 256];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += acc[k] * acc[(k + 1) % 8];
  out[threadIdx.x] = s;
  // CHECK: :[[@LINE-1]]:3: warning: data race on global 'out[0]': thread 0 of block 0 writes it (out[threadIdx.x], line [[@LINE-1]]) and thread 0 of block 1 writes it (out[threadIdx.x], line [[@LINE-1]]) in different blocks
}

void launchAll(float *o, const float *i) {
  sameInEveryBlock<<<64, 256>>>(o, i);
  perBlock<<<64, 256>>>(o, i);
}
