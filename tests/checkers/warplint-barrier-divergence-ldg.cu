// warplint-barrier-divergence and warplint-warp-sync-mask: __ldg(p) and the cache-hint
// loads read memory at p, as *p does (issue 23, FasterTransformer's softmax_COL32 kernels).
// A value loaded at a block-uniform address is the same in every thread: a `continue` or
// a loop bound on it keeps the block together. At a thread-dependent address it is data
// that may differ between threads: reported, as for a plain subscript.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// softmax_COL32's form: the row's mask, read once per grid-stride row. Silent.
__global__ void rowMask(float *out, const float *mask, int rows, int n) {
  __shared__ float s[256];
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    float m = __ldg(mask + (blockIdx.y * n + row));
    if (m < 0.1f)
      continue;
    s[threadIdx.x] = out[row * 256 + threadIdx.x];
    __syncthreads();
    out[row * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
  }
}
void launchRowMask(float *o, const float *m, int r, int n) { rowMask<<<dim3(8, 4), 256>>>(o, m, r, n); }

// cross_attention_kernel's form: a per-sample length by the address of an element. Silent.
__global__ void sampleLength(float *out, const int *length_per_sample) {
  __shared__ float s[128];
  int length = __ldg(&length_per_sample[blockIdx.x]);
  float acc = 0.f;
  for (int i = 0; i < length; ++i) {
    s[threadIdx.x] = out[i * 128 + threadIdx.x];
    __syncthreads();
    acc += s[127 - threadIdx.x];
    __syncthreads();
  }
  unsigned v = __ballot_sync(0xffffffff, acc > 0.f);
  out[threadIdx.x] = acc + v;
}
void launchSampleLength(float *o, const int *l) { sampleLength<<<16, 128>>>(o, l); }

// The other cache-hint loads are loads too. Silent.
__global__ void hinted(float *out, const int *len) {
  __shared__ float s[64];
  if (__ldcg(len + blockIdx.x) == 0 || __ldcs(len) < 0)
    return;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
void launchHinted(float *o, const int *l) { hinted<<<4, 64>>>(o, l); }

// The mask of each thread's own element: threads differ. Reported.
__global__ void elementMask(float *out, const float *mask, int rows) {
  __shared__ float s[256];
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    float m = __ldg(mask + row * 256 + threadIdx.x);
    if (m < 0.1f)
      continue;
    s[threadIdx.x] = out[row * 256 + threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'elementMask' may be skipped by part of the block: threads for which 'm < 0.1f' holds leave at the 'continue' on line [[@LINE-3]] before it (a condition on data loaded at a thread-dependent address)
    out[row * 256 + threadIdx.x] = s[255 - threadIdx.x];
  }
}
void launchElementMask(float *o, const float *m, int r) { elementMask<<<8, 256>>>(o, m, r); }

// A per-thread length through __ldg, before a full-mask shuffle: the lanes leave after
// different trip counts. Reported.
__global__ void threadLength(float *out, const int *len) {
  float v = 0.f;
  int n = __ldg(&len[threadIdx.x]);
  for (int i = 0; i < n; ++i)
    v += __shfl_xor_sync(0xffffffff, v + i, 1);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'threadLength' names lanes that may not take part
  out[threadIdx.x] = v;
}
void launchThreadLength(float *o, const int *l) { threadLength<<<4, 64>>>(o, l); }
