// warplint-divergent-branch: a window clamped at the data's edges (issue 23, sixteenth
// session: MNN's maxpool_C8 and avgpool_C8, `for (fy = max(0, -y); fy < min(kernelY, ih -
// y); ++fy)`). Every lane runs the window's trips; only lanes whose window crosses the
// border of the image run fewer: the edge of the data. A note. A window whose size is the
// thread's own (a triangle's row), or a loop bound by a thread's data without a clamp,
// stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// CUDA's integer min and max (the mock header has none).
__device__ int max(int a, int b);
__device__ int min(int a, int b);

__global__ void maxPool(const float *in, float *out, int ih, int iw, int oh, int ow, int c,
                        int pad, int k, int stride) {
  int total = oh * ow * c;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += blockDim.x * gridDim.x) {
    int ch = i % c, x = (i / c) % ow, y = i / c / ow;
    int ix = x * stride - pad, iy = y * stride - pad;
    int sx = max(0, -ix), sy = max(0, -iy);
    int ex = min(k, iw - ix), ey = min(k, ih - iy);
    float m = -1e30f;
    for (int fy = sy; fy < ey; ++fy)
      // CHECK: :[[@LINE-1]]:{{[0-9]+}}: remark: loop condition on 'fy' diverges
      // CHECK: :[[@LINE-2]]:{{[0-9]+}}: note: a note, not a warning: the loop runs a window of uniform size clamped at the data's edges
      for (int fx = sx; fx < ex; ++fx) {
        // CHECK: :[[@LINE-1]]:{{[0-9]+}}: remark: loop condition on 'fx' diverges
        // CHECK: :[[@LINE-2]]:{{[0-9]+}}: note: a note, not a warning: the loop runs a window of uniform size clamped at the data's edges
        float v = in[((iy + fy) * iw + ix + fx) * c + ch];
        m = m > v ? m : v;
      }
    out[i] = m;
  }
}
void launchPool(const float *in, float *out, int ih, int iw, int oh, int ow, int c) {
  maxPool<<<(oh * ow * c + 255) / 256, 256>>>(in, out, ih, iw, oh, ow, c, 1, 3, 1);
}

// A warning: each thread runs its own count of trips, scattered over the warp (no
// window clamped at an edge).
__global__ void triangleRows(const float *a, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < (r * 7) % 13; ++j)
    s += a[r * n + j];
  // CHECK: :[[@LINE-2]]:{{[0-9]+}}: warning: loop condition on '{{[a-z]+}}' diverges
  out[r] = s;
}
void launchRows(const float *a, float *out, int n) { triangleRows<<<n / 256, 256>>>(a, out, n); }
