#include <cuda_runtime.h>
// Launch helpers that take the block (and grid, dynamic shared memory) as parameters and
// name their kernels themselves, in the style of GASAL2's gasal_kernel_launcher: the
// shape is what every call of the helper passes.
__global__ void local_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
__global__ void global_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += 1;
}

// One call, with a local that holds 96 (GASAL2: BLOCKDIM = 128).
void launcher(int n_blocks, int blockdim, int algo, int *out, int n) {
  switch (algo) {
  case 0:
    local_kernel<<<n_blocks, blockdim>>>(out, n);
    break;
  default:
    global_kernel<<<n_blocks, blockdim, 0>>>(out, n);
    break;
  }
}
void align(int *out, int n, int algo) {
  int BLOCKDIM = 96;
  int N_BLOCKS = (n + BLOCKDIM - 1) / BLOCKDIM;
  launcher(N_BLOCKS, BLOCKDIM, algo, out, n);
}

// Two levels: the helper's caller hands on its own parameter; both of its calls agree.
void inner(int *out, int b, size_t smem) { global_kernel<<<2, dim3(b, 2), smem>>>(out, 0); }
void middle(int *out, int bb) { inner(out, bb, 1024); }
void top(int *out) {
  middle(out, 40);
  middle(out, 40);
}

// Calls that disagree: no block.
void two(int *out, int b) { local_kernel<<<1, b>>>(out, 0); }
void callsTwo(int *o) {
  two(o, 64);
  two(o, 128);
}

// An address that escapes (calls the TU does not show): no block.
void escaped(int *out, int b) { local_kernel<<<3, b>>>(out, 0); }
void (*table[])(int *, int) = {escaped};
void callEscaped(int *o) { escaped(o, 48); }

// A helper that writes its parameter before the launch: no block.
void writes(int *out, int b) {
  b *= 2;
  local_kernel<<<4, b>>>(out, 0);
}
void callWrites(int *o) { writes(o, 48); }
