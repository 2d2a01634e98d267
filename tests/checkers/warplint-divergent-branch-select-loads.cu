// warplint-divergent-branch: a '?:' whose arms compute values without side effects, loads
// included, is a select the compiler predicates: a note (thirteenth session: 7 of 7 such
// warnings labelled on unseen code were false: magma, FasterTransformer, ginkgo's second
// level of a block reduction `threadIdx.x < 16 ? warp_partial[threadIdx.x] : identity`,
// read through an accessor). An arm that calls a longer function, or that stores, stays a
// warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

template <typename T, int N>
struct Slots {
  T data_[N];
  __device__ T &operator[](int i) { return data_[i]; }
  __device__ const T &operator[](int i) const { return data_[i]; }
};

__device__ float slowScale(float a, float b) {
  float r = a;
  for (int k = 0; k < 8; ++k)
    r = r * b + a;
  return r;
}

__global__ void secondLevel(const float *in, float *out, int n) {
  __shared__ Slots<float, 16> partial;
  float v = 0.f;
  for (int i = blockIdx.x * 512 + threadIdx.x; i < n; i += gridDim.x * 512)
    v += in[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < 16 ? partial[threadIdx.x] : 0.f;
    // CHECK: :[[@LINE-1]]:9: remark: '?:' on 'threadIdx.x' diverges
    // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the '?:' arms compute values without side effects
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void heavyArm(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[t];
  out[t] = (threadIdx.x % 2 == 0) ? slowScale(v, in[t + 1]) : v;
  // CHECK: :[[@LINE-1]]:12: warning: '?:' on 'threadIdx.x' diverges in 16 of 16 warps of kernel 'heavyArm'
}

void go(const float *in, float *out, int n) {
  secondLevel<<<64, 512>>>(in, out, n);
  heavyArm<<<64, 512>>>(in, out);
}
