// Two short-circuit operands that start at one place (each with a load on its right):
// `threadIdx.x < 4` (a guard that leaves three warps whole: silent) and
// `threadIdx.x < 4 && flag[0] && threadIdx.x % 2 == 0` (two lanes of the first warp: a
// finding).
__global__ void samePlace(const int *flags, float *out) {
  if (threadIdx.x < 4 && flags[0] > 0 && threadIdx.x % 2 == 0 && flags[threadIdx.x] > 0)
    out[threadIdx.x] = 1.f;
}
void launch(const int *f, float *o) { samePlace<<<4, 128>>>(f, o); }
