// warplint-divergent-branch: a convolution's padding test on coordinates recovered from a
// linear index (issue 23, HeCBench's dwconv). `w = i - (i / W) * W` is `i % W` written by
// hand, and `h_in >= 0 && h_in < H && w_in >= 0 && w_in < W` keeps each tap inside the
// image: a bounds guard on the image's coordinates, silent as with `%`. On an H200 the tap
// ran with 31.4 of 32 lanes at 224 x 224 (docs/measuring.md). A pattern of the same
// coordinate (`(w & 1) == 0`) is no guard and stays reported: as with `%`, a note when its
// arm is straight-line work (the even lanes' fixed role), a warning when the arm loops
// over memory.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void dwconv(const float *in, const float *wt, float *out, int total, int C, int H,
                       int W, int pad) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += blockDim.x * gridDim.x) {
    int q = i / W;
    const int w = i - q * W;
    int r = q / H;
    const int h = q - r * H;
    const int c = r % C;
    float acc = 0.f;
#pragma unroll
    for (int kh = 0; kh < 3; ++kh) {
#pragma unroll
      for (int kw = 0; kw < 3; ++kw) {
        const int h_in = -pad + h + kh;
        const int w_in = -pad + w + kw;
        if ((h_in >= 0) && (h_in < H) && (w_in >= 0) && (w_in < W))
          acc += wt[c * 9 + kh * 3 + kw] * in[(r * H + h_in) * W + w_in];
      }
    }
    out[i] = acc;
  }
}

__global__ void striped(const float *in, float *out, int total, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int q = i / W;
    const int w = i - q * W;
    float v = 0.f;
    if ((w & 1) == 0)
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'w' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning:
      v = in[i] * in[i] + 1.f;
    if ((w & 1) == 0)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'w' diverges in
      for (int k = 0; k < W; ++k)
        v += in[q * W + k];
    out[i] = v;
  }
}

// Cholla's interior of a 3-D grid, its coordinates recovered by hand with products written
// in another grouping (`zid * nx * ny` beside `tid / (nx * ny)`): `xid` is the remainder by
// nx of the remainder by nx * ny, and the test that keeps the ghost ring out is a bounds
// guard on the coordinates, silent as with `%`.
__global__ void interior(float *c, const float *d, int nx, int ny, int nz) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int zid = tid / (nx * ny);
  int yid = (tid - zid * nx * ny) / nx;
  int xid = tid - zid * nx * ny - yid * nx;
  int id = xid + yid * nx + zid * nx * ny;
  if (xid > 0 && xid < nx - 1 && yid > 0 && yid < ny - 1 && zid > 0 && zid < nz - 1)
    c[id] = d[id] + d[id - 1] + d[id + 1] + d[id - nx] + d[id + nx];
}

void launch(const float *in, const float *wt, float *out, int total, int C, int H, int W) {
  dwconv<<<(total + 255) / 256, 256>>>(in, wt, out, total, C, H, W, 1);
  striped<<<(total + 255) / 256, 256>>>(in, out, total, W);
  interior<<<(total + 255) / 256, 256>>>(out, in, W, H, C);
}
