#include <cuda_runtime.h>

typedef void (*kernel_t)(float *);

__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }
__global__ void shift(float *p) { p[threadIdx.x] += 1.0f; }

// A helper that launches whatever kernel it is given (ggml's launch_fattn).
static void helper(kernel_t k, float *p, int threads) { k<<<8, threads>>>(p); }

void change(kernel_t *k);

void run(float *p, bool c) {
  // Initialised once, never written again: scale, through the helper.
  kernel_t once = scale;
  helper(once, p, 96);
  // Assigned on both paths, the same kernel: shift.
  kernel_t both;
  if (c)
    both = shift;
  else
    both = shift;
  helper(both, p, 128);
  // Two kernels: unknown.
  kernel_t either = c ? scale : shift;
  helper(either, p, 160);
  kernel_t maybe = scale;
  if (c)
    maybe = shift;
  helper(maybe, p, 192);
  // Its address escapes: unknown.
  kernel_t escaped = scale;
  change(&escaped);
  helper(escaped, p, 224);
  // Launched directly through the variable.
  kernel_t direct = shift;
  direct<<<4, 64>>>(p);
}
