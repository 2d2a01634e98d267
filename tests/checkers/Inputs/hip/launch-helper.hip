#include <hip/hip_runtime.h>
// A launch helper in the style of ggml's ggml_cuda_kernel_launch: the kernel arrives as a
// function-pointer parameter, the shape in a struct built at the call.
struct launch_cfg {
  dim3 grid, block;
  size_t smem;
  launch_cfg(const dim3 &g, const dim3 &b, size_t s) : grid(g), block(b), smem(s) {}
};

template <typename Kernel, typename... Args>
static void launch(Kernel kernel, const launch_cfg &cfg, Args... args) {
  kernel<<<cfg.grid, cfg.block, cfg.smem>>>(args...);
}

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
__global__ void shift(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
template <int N> __global__ void fill(float *x) { x[threadIdx.x] = N; }

// One level further, as ggml's launch_fattn passes its kernel on.
template <int Warps>
static void launch_tiles(void (*k)(float *), float *x, int n) {
  const dim3 block(32, Warps);
  const launch_cfg cfg((n + 255) / 256, block, Warps * 64 * sizeof(float));
  launch(k, cfg, x);
}

void run(float *x, int n) {
  const launch_cfg cfg(dim3((n + 127) / 128), dim3(128), 0);
  launch(scale, cfg, x, n);
  launch(shift, launch_cfg(dim3(4), dim3(100), 256), x, n);
  launch_tiles<4>(fill<3>, x, n);
}
