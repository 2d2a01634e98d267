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

// A static member that writes its result through an output pointer (opencv's NCV Haar
// cascade: `functor.assign(&reduceRes, reduceArr)`, `static void assign(volatile T *dst,
// volatile T *src) { *dst = *src; }`): the local takes the value stored, here the
// block's reduced sum in reduceArr[0], the same in every thread; the stage loop's exit
// leaves with the whole block.
template <typename T> struct AddValues {
  static __device__ __inline__ void assign(volatile T *dst, volatile T *src) { *dst = *src; }
  static __device__ __inline__ void reduce(volatile T &io, const volatile T &in2) { io += in2; }
};
template <typename T, class F, unsigned N, bool own>
static __device__ T subReduce(T elem) {
  F functor;
  __shared__ T arr_[N];
  volatile T *arr = arr_;
  functor.assign(arr + threadIdx.x, &elem);
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'stages<true>' may be skipped by part of the block: threads for which 'fin < th[s]' holds leave at the 'break'
  if (threadIdx.x < 64)
    functor.reduce(arr[threadIdx.x], arr[threadIdx.x + 64]);
  __syncthreads();
  if (threadIdx.x < 32)
    functor.reduce(arr[threadIdx.x], arr[threadIdx.x + 32]);
  __syncthreads();
  T res;
  functor.assign(&res, own ? arr + threadIdx.x : arr);
  return res;
}
template <bool own>
__global__ void stages(const float *w, const float *th, int nStages, int *out) {
  for (int s = 0; s < nStages; ++s) {
    float fin = subReduce<float, AddValues<float>, 128, own>(w[s * 128 + threadIdx.x]);
    if (fin < th[s])
      break;
    __syncthreads();
  }
  out[blockIdx.x] = 1;
}

void run(float *o, const float *i) {
  scan<Traits<true>><<<1, 256>>>(o, i);
  scan<Traits<false>><<<1, 256>>>(o, i);
  byLane<Traits<true>><<<1, 256>>>(o);
}
void cascade(const float *w, const float *th, int n, int *o) {
  stages<false><<<64, 128>>>(w, th, n, o);
  // Each thread's own slot stored: the exit splits the block.
  stages<true><<<64, 128>>>(w, th, n, o);
}
