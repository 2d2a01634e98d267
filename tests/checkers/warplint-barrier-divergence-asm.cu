// warplint-barrier-divergence: inline PTX that computes on registers only (cuda-samples'
// __btflo, `bfind.u32`) gives a value as varied as its inputs.
// RUN: %not %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=MASK --implicit-check-not='{{warning|error}}:' %s

__device__ unsigned highestBit(unsigned x) {
  unsigned r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}

__device__ unsigned laneId() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

// The bound comes from a parameter through the asm: the same for every thread. Silent.
__global__ void uniformBound(float *a, unsigned len) {
  __shared__ float s[256];
  unsigned len2 = 1u << (highestBit(len - 1u) + 1);
  for (unsigned k = 2; k <= len2; k <<= 1) {
    s[threadIdx.x] = a[threadIdx.x] * k;
    __syncthreads();
  }
  a[threadIdx.x] = s[255 - threadIdx.x];
}

// The same asm on the thread index: trips differ by thread.
__global__ void threadBound(float *a) {
  __shared__ float s[256];
  unsigned n = highestBit(threadIdx.x + 1u);
  for (unsigned k = 0; k < n; ++k) {
    s[threadIdx.x] = a[threadIdx.x] * k;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'threadBound' may be skipped by part of the block: it is inside a loop whose condition 'k < n' depends on the thread: threads with fewer trips skip it in the last ones [warplint-barrier-divergence]
    // CHECK: :[[@LINE-4]]:3: note: it is inside a loop whose condition 'k < n' depends on the thread: threads with fewer trips skip it in the last ones
  }
}

// A special register (%%laneid) is read by the asm: the lane's own value, not its inputs'.
__global__ void laneBound(float *a) {
  __shared__ float s[256];
  if (laneId() == 0) {
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: error: '__syncthreads()' in kernel 'laneBound' is skipped by 248 of 256 threads of the block 256x1x1: threads 1-31, 33-63, 65-95, 97-127, ... (248 threads); a barrier that part of the block does not reach is undefined behaviour [warplint-barrier-divergence]
    // CHECK: :[[@LINE-4]]:3: note: it is inside 'if (laneId() == 0)', which depends on the thread
  }
}

// A helper whose test the compiler folds (ggml's warp_reduce_all: `width ==
// physical_warp_size()`, both constant): only the __all_sync arm runs, so the result is
// the warp's one value, and a loop that breaks on it keeps the warp together.
constexpr int physicalWarp() { return 32; }
template <int Width = 32> __device__ int warpAll(int x) {
  if (Width == physicalWarp())
    return __all_sync(0xffffffffu, x);
  for (int o = Width / 2; o > 0; o >>= 1)
    x = __shfl_xor_sync(0xffffffffu, x, o, Width) && x;
  // MASK: :[[@LINE-1]]:9: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'halfWidthHelper' names lanes that may not take part: threads for which 'done' holds leave at the 'break' on line {{[0-9]+}} (in an earlier trip) before it (a condition on data loaded at a thread-dependent address) [warplint-warp-sync-mask]
  return x;
}

__global__ void foldedHelper(float *a, int n) {
  for (int k = 0; k < n; ++k) {
    int done = warpAll(a[k * 256 + threadIdx.x] > 0.0f);
    if (done)
      break;
    __syncwarp();
  }
}

// The same helper at a width of 16: the shuffle arm runs, a value per half-warp.
__global__ void halfWidthHelper(float *a, int n) {
  for (int k = 0; k < n; ++k) {
    int done = warpAll<16>(a[k * 256 + threadIdx.x] > 0.0f);
    if (done)
      break;
    __syncwarp();
  }
}

// A `?:` the compiler folds picks one arm too (HeCBench's bitpermute: `(Z_COUNT > WARP_SZ)
// ? __syncthreads() : __syncwarp();` with Z_COUNT = 256 / sizeof(long)): the barrier in
// the other arm never runs, whatever part of the block reaches the statement (the
// __syncwarp() it runs is the mask check's: the stride of 48 splits warps).
template <typename T> __global__ void foldedChoice(T *a, int n) {
  const unsigned Count = 256 / sizeof(T);
  for (int i = threadIdx.x; i < n; i += 48) {
    a[i] += T(1);
    (Count > 32) ? __syncthreads() : __syncwarp();
    // MASK: :[[@LINE-1]]:38: warning: mask 0xffffffff of '__syncwarp()' in kernel 'foldedChoice<long>' names lanes that may not take part: it is inside a loop whose condition 'i < n' depends on the thread
  }
}

void launch(float *a, unsigned n) {
  foldedChoice<long><<<1, 256>>>((long *)a, n);
  foldedHelper<<<1, 256>>>(a, n);
  halfWidthHelper<<<1, 256>>>(a, n);
  uniformBound<<<1, 256>>>(a, n);
  threadBound<<<1, 256>>>(a);
  laneBound<<<1, 256>>>(a);
}
