// warplint-warp-sync-mask: a launch whose block is a warp wide in x, with a run-time y
// (llm.c's `dim3(32, block_y)`, ggml's `(WARP_SIZE, rows)`): a row is a warp, so an exit
// on the row leaves whole warps and the full mask names only lanes that arrive.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// One row per warp: silent.
__global__ void rowPerWarp(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n)
    return;
  float s = warpSum(in[row * 32 + threadIdx.x]);
  if (threadIdx.x == 0)
    out[row] = s;
}

// The same kernel launched 16 wide: two rows share a warp, and the last block's tail can
// leave half of one.
__global__ void rowPerHalfWarp(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n)
    return;
  float s = warpSum(in[row * 16 + threadIdx.x]);
  if (threadIdx.x == 0)
    out[row] = s;
}
// CHECK: :8:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'rowPerHalfWarp' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
// CHECK: :27:5: note: the threads whose 'row' is at or past 'n'

void launch(float *o, const float *i, int n, int rows) {
  rowPerWarp<<<(n + rows - 1) / rows, dim3(32, rows)>>>(o, i, n);
  rowPerHalfWarp<<<(n + rows - 1) / rows, dim3(16, rows)>>>(o, i, n);
}
