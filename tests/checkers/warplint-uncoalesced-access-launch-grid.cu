// warplint-uncoalesced-access: the grid every launch gives is the grid the figures use
// (gridDim is sampled at 2 only where a launch's grid is unknown).
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// A whole-grid partition: each thread takes the items N*pos/size .. N*(pos+1)/size. With
// the launch's 64 blocks of 64 threads, 4096 threads share 216 items, at most one each:
// the lanes of a warp read neighbours (coalesced as far as the items go), where a grid of
// 2 blocks would give each lane about two items, two apart.
__global__ void partition(float *out, const float *in) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  const int N = 6 * 6 * 6;
  for (int n = N * pos / size; n < N * (pos + 1) / size; ++n)
    out[n] = in[n] * 2.0f;
}

// A stride the grid decides: with one block, lanes read neighbours; with 32 blocks, 32
// floats apart, and the figure names the grid.
__global__ void gridStride(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x * gridDim.x];
}
__global__ void gridStrideWide(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x * gridDim.x];
}

void run(float *out, const float *in) {
  partition<<<64, 64>>>(out, in);
  gridStride<<<1, 64>>>(out, in);
  gridStrideWide<<<32, 64>>>(out, in);
}
// CHECK: :[[@LINE-8]]:22: warning: each warp's load of 'in[threadIdx.x * gridDim.x]' touches 32 sectors for 128 bytes (ideal 4): stride of 32 floats between lanes (block 64x1x1, gridDim.x = 32) [warplint-uncoalesced-access]
