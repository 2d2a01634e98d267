// warplint-barrier-divergence: a condition a traits class's static member function gives
// (issue 23, cudpp's scans: `if (traits::isBackward())`, `static __device__ bool
// isBackward() { return backward; }` of a class template). The call is a free function in
// the class's scope, walked with its arguments as any device function is: a template
// argument, the same for every thread, not data.
// RUN: %not %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

template <bool backward> struct Traits {
  static __device__ bool isBackward() { return backward; }
  static __device__ unsigned laneOf() { return threadIdx.x % 32; }
};

template <class traits> __device__ void load(float *s, const float *in) {
  int i = threadIdx.x;
  if (traits::isBackward()) {
    s[i] = in[255 - i];
    __syncthreads();
  } else {
    s[i] = in[i];
    __syncthreads();
  }
}

template <class traits> __global__ void scan(float *out, const float *in) {
  __shared__ float s[256];
  load<traits>(s, in);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

// A static member that reads the thread index splits the block: reported.
template <class traits> __global__ void byLane(float *out) {
  __shared__ float s[256];
  if (traits::laneOf() < 16) {
    s[threadIdx.x] = 1.f;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'byLane<Traits<true>>' is skipped by 128 of 256 threads of the block 256x1x1: threads 16-31, 48-63
  }
  out[threadIdx.x] = s[threadIdx.x];
}

void run(float *o, const float *i) {
  scan<Traits<true>><<<1, 256>>>(o, i);
  scan<Traits<false>><<<1, 256>>>(o, i);
  byLane<Traits<true>><<<1, 256>>>(o);
}
