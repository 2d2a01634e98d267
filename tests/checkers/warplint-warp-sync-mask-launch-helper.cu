// warplint-warp-sync-mask: the block of a launch made through a helper that takes the
// kernel as a function-pointer parameter and the shape in a struct (ggml's
// ggml_cuda_kernel_launch and ggml_cuda_kernel_launch_params), where the dim3 is a local
// variable handed to the struct's constructor by reference to const: the constructor
// reads it, so the block is the variable's value at the construction.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// The launch records: 32x4 and 16x4 read through the struct; the third block not known.
// RUN: %warplint check --no-cache --registers-from none --mock-cuda --checks='-*' --format json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// JSON: "block": [
// JSON-NEXT: 32,
// JSON-NEXT: 4,
// JSON-NEXT: 1
// JSON: "kernel": "rowPerWarp",
// JSON: "block": [
// JSON-NEXT: 16,
// JSON-NEXT: 4,
// JSON-NEXT: 1
// JSON: "kernel": "rowPerHalfWarp",
// JSON: "block": null,
// JSON: "kernel": "rowPerUnknown",

struct launch_params {
  dim3 grid, block;
  size_t smem;
  launch_params(const dim3 &g, const dim3 &b, size_t s) : grid(g), block(b), smem(s) {}
};

template <typename Kernel, typename... Args>
static void launch(Kernel kernel, const launch_params &p, Args... args) {
  kernel<<<p.grid, p.block, p.smem>>>(args...);
}

void setWidth(dim3 &b, int w);

// ggml's topk_moe_cuda: `dim3 block_dims(WARP_SIZE, rows_per_block, 1)`, then the struct.
// The block is 32x4: one row per warp, the return leaves whole warps. Silent.
__global__ void rowPerWarp(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n)
    return;
  float s = in[row * 32 + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x == 0)
    out[row] = s;
}

// The same kernel, the local set to 16 wide before the struct is built: two rows share a
// warp, and the butterfly's first step (xor 16) reads the other row, which may have
// returned. True. (From xor 8 down it would stay inside the row: the lanes of a returned
// row may be named, the rule is on the non-exited lanes, and none is read.)
__global__ void rowPerHalfWarp(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n)
    return;
  float s = in[row * 16 + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x == 0)
    out[row] = s;
}
// CHECK: :[[@LINE-4]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'rowPerHalfWarp' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
// CHECK: :[[@LINE-8]]:5: note: the threads whose 'row' is at or past 'n'

// The local handed to a function that may change it (a reference that is not const)
// before the struct is built: its value is not known, and the assumed block decides. True.
__global__ void rowPerUnknown(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n)
    return;
  float s = in[row * 16 + threadIdx.x];
  for (int o = 8; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x == 0)
    out[row] = s;
}
// CHECK: :[[@LINE-4]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'rowPerUnknown' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
// CHECK: :[[@LINE-8]]:5: note: the threads whose 'row' is at or past 'n'

void run(float *o, const float *i, int n, int w) {
  const int rows = 4;
  dim3 grid((n + rows - 1) / rows, 1, 1);
  dim3 block(32, rows, 1);
  const launch_params p = launch_params(grid, block, 0);
  launch(rowPerWarp, p, o, i, n);

  dim3 half(32, rows, 1);
  half.x = 16;
  const launch_params q = launch_params(grid, half, 0);
  launch(rowPerHalfWarp, q, o, i, n);

  dim3 some(32, rows, 1);
  setWidth(some, w);
  const launch_params r = launch_params(grid, some, 0);
  launch(rowPerUnknown, r, o, i, n);
}
