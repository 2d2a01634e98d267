// warplint-divergent-branch: the classes of divergent branches found silent on real kernels
// (issue 11), each with a kernel the defaults report and a neighbour they keep silent.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// Math functions and bit intrinsics as CUDA declares them (the mock header has none).
__device__ float exp2f(float);
__device__ float powf(float, float);
__device__ float __powf(float, float);
__device__ float log2f(float);
__device__ float __log2f(float);
__device__ int __ffs(int);
__device__ int __clz(int);
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);

// --- 1. A branch nested under a warp-uniform condition on run-time values -------------
// `count` is a parameter: none of its sampled values equals the block size, but the inner
// branch is to be judged as if the outer condition may hold.
__global__ void fullBlockReduce(float *d, int count) {
  __shared__ float s[256];
  unsigned tx = threadIdx.x;
  s[tx] = d[blockIdx.x * 256 + tx];
  __syncthreads();
  if (count == blockDim.x) {
    for (unsigned i = 2; i <= 256; i *= 2) {
      if ((tx + 1) % i == 0) {
        s[tx] += s[tx - i / 2];
        d[tx] = s[tx];
      }
      // CHECK: :[[@LINE-4]]:11: warning: branch on 'tx' diverges in 47 of 64 warp executions of kernel 'fullBlockReduce' (block 256x1x1, 8 values of 'i'); predicted branch efficiency 27% [warplint-divergent-branch]
      // CHECK: :[[@LINE-5]]:11: note: the arms are short: nvcc may predicate them instead of branching; the warp then issues both arms with the lanes of the other side masked off, so they still idle
      __syncthreads();
    }
  }
}

// Silent: under the same run-time condition the inner branch splits only between warps.
__global__ void fullBlockByWarp(float *d, int count) {
  unsigned tx = threadIdx.x;
  if (count == blockDim.x) {
    if ((tx / 32) % 2 == 0)
      d[tx] = 1;
  }
}

// --- 2. Uniform values through math functions and intrinsics --------------------------
// The stride of each step is exp2f(k): as known as 1 << k.
__global__ void exp2Stride(float *s) {
  for (int k = 0; k < 8; ++k) {
    int step = exp2f(k);
    if (threadIdx.x % (2 * step) == 0) {
      s[threadIdx.x] += s[threadIdx.x + step];
      s[threadIdx.x + 1] = 0;
    }
    // CHECK: :[[@LINE-4]]:9: warning: branch on 'threadIdx.x' diverges in 47 of 64 warp executions of kernel 'exp2Stride' (block 256x1x1, 8 values of 'k'); predicted branch efficiency 27%
    // CHECK: :[[@LINE-5]]:9: note: the arms are short
    __syncthreads();
  }
}

__global__ void powStride(float *s) {
  for (int k = 1; k <= 4; ++k) {
    int a = powf(2, k), b = __powf(2.0f, k);
    if (threadIdx.x % a < b / 2)
      s[threadIdx.x] += s[threadIdx.x + a];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'threadIdx.x' diverges in 32 of 32 warp executions of kernel 'powStride' (block 256x1x1, 4 values of 'k'); predicted branch efficiency 0%
    // CHECK: :[[@LINE-3]]:9: note: the arms are short
    __syncthreads();
  }
}

// ilog2-style helpers: log2f and 31 - __clz give the shift of a warp for 32.
__device__ int ilog2(int x) { return 31 - __clz(x); }
__global__ void logShifts(float *s) {
  int lg = log2f(32), lg2 = __log2f(1024.0f), lg3 = ilog2(32);
  if ((threadIdx.x >> lg) % 2)
    s[0] = 1;
  if ((threadIdx.x >> lg3) % 2)
    s[1] = 1;
  // lg2 is 10: threadIdx.x >> 10 is 0 for every thread; >> (lg - 1) halves each warp.
  if ((threadIdx.x >> lg2) == 0 && (threadIdx.x >> (lg - 1)) % 2)
    s[2] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'logShifts' (block 256x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: the arms are short
}

__global__ void bitIntrinsics(float *s, unsigned long long m) {
  if (__popc(threadIdx.x) & 1)
    s[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on '__popc(threadIdx.x)' diverges in 8 of 8 warps of kernel 'bitIntrinsics' (block 256x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: the arms are short
  // __ffs(32) - 1 == 5: the warp index; __popcll of a mask of 64 lanes is 64.
  if ((threadIdx.x >> (__ffs(32) - 1)) & 1)
    s[1] = 1;
  if (threadIdx.x % __popcll(0xffffffffffffffffull) < 32)
    s[2] = 1;
}

// --- 3. A thread index against the counter of a loop that sweeps the block -------------
// Wavefront over a 16-thread block: the boundary moves one lane per step.
__global__ void wavefront(int *t) {
  for (int m = 0; m < 16; m++) {
    if (threadIdx.x <= m)
      t[threadIdx.x] += t[threadIdx.x + 1];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'threadIdx.x' diverges in 15 of 16 warp executions of kernel 'wavefront' (block 16x1x1, 16 values of 'm'); predicted branch efficiency 6%
    // CHECK: :[[@LINE-3]]:9: note: the arms are short
    __syncthreads();
  }
  for (int m = 14; m >= 0; m--) {
    if (threadIdx.x <= m) {
      for (int j = 0; j < m; ++j)
        t[threadIdx.x] += t[j];
    }
    // CHECK: :[[@LINE-4]]:9: warning: branch on 'threadIdx.x' diverges in 15 of 15 warp executions of kernel 'wavefront' (block 16x1x1, 15 values of 'm'); predicted branch efficiency 0%
    __syncthreads();
  }
}

// Triangular elimination: threadIdx.x > i for i = 0..30 in a block of one warp.
__global__ void triangle(float *a) {
  for (int i = 0; i < 31; i++) {
    if (threadIdx.x > i)
      a[threadIdx.x] -= a[i];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'threadIdx.x' diverges in 31 of 31 warp executions of kernel 'triangle' (block 32x1x1, 31 values of 'i'); predicted branch efficiency 0%
    // CHECK: :[[@LINE-3]]:9: note: the arms are short
    __syncthreads();
  }
}

// A triangular loop: each lane starts one later, step 1 (no grid-stride loop).
__global__ void triangularLoop(float *a, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int j2 = j1 + 1; j2 < n; j2++)
    acc += a[j2];
  // CHECK: :[[@LINE-2]]:25: remark: loop condition on 'j2' diverges in up to {{[0-9]+}} of {{[0-9]+}} warps of kernel 'triangularLoop'
  // A note since issue 23: the lanes leave in lane order, each warp splits only in its last
  // trips (PolyBench correlation's loop in the recall set is this class).
  // CHECK: :[[@LINE-5]]:25: note: a note, not a warning: the lanes leave the loop in lane order
  a[j1] = acc;
}

// Silent: a remainder of fewer elements than lanes, taken by the first lanes of warp 0 (a
// tail, as a bounds guard is), although the step is one.
__global__ void remainderLoop(float *a, int V) {
  int start = V & ~7;
  for (int i = threadIdx.x + start; i < V; i++)
    a[i] = 0;
}

// Silent: a counter stepping by whole warps leaves every warp whole.
__global__ void warpSteps(int *t) {
  for (int k = 0; k < 256; k += 32)
    if (threadIdx.x < k)
      t[threadIdx.x] += k;
}

// Silent: a global coordinate against a counter over a run-time size (a causal mask):
// one warp per row straddles the diagonal, a bounds guard.
__global__ void causalMask(float *a, int T) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int t = idx % T;
  float acc = 0;
  for (int t2 = 0; t2 < T; t2++)
    if (t2 <= t)
      acc += a[t2];
  a[idx] = acc;
}

// Silent: the halving tree tail stays its own idiom.
__global__ void treeTail(float *s) {
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
}

// --- 4. "Divergent in one warp only" looks at the block ---------------------------------
// With 32 threads the one warp is every warp: both halves work, one after the other.
__global__ void halvesOfOneWarp(float *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = a[threadIdx.x + 16];
  } else {
    for (int i = 0; i < 16; ++i)
      a[threadIdx.x] += a[i];
  }
  // CHECK: :[[@LINE-6]]:7: warning: branch on 'threadIdx.x' diverges in 1 of 1 warps of kernel 'halvesOfOneWarp' (block 32x1x1); predicted branch efficiency 0%
}

// Silent: the same code with 256 threads splits warp 0 only, a bounds guard.
__global__ void halvesOfWarpZero(float *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = a[threadIdx.x + 16];
  } else {
    for (int i = 0; i < 16; ++i)
      a[threadIdx.x] += a[i];
  }
}

// Rows of 16 threads: threadIdx.x < 8 splits both rows of every warp.
__global__ void halfOfEachRow(float *a) {
  if (threadIdx.x < 8)
    a[threadIdx.y * 16 + threadIdx.x] = 0;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'halfOfEachRow' (block 16x16x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: the arms are short
}

// Silent: a tail guard on a global index in blocks of one warp (only the last block).
__global__ void tailOfOneWarpBlocks(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 0;
}

// --- 5. Short arms get the predication note, long ones do not ---------------------------
__global__ void longArms(float *a, int n) {
  if (threadIdx.x % 2) {
    for (int i = 0; i < n; ++i)
      a[threadIdx.x] += a[i];
  }
  // CHECK: :[[@LINE-4]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'longArms' (block 256x1x1); predicted branch efficiency 0%
  // CHECK-NOT: note: the arms are short
}

void launch(float *f, int *t, unsigned long long m, int n) {
  fullBlockReduce<<<4, 256>>>(f, n);
  fullBlockByWarp<<<4, 256>>>(f, n);
  exp2Stride<<<4, 256>>>(f);
  powStride<<<4, 256>>>(f);
  logShifts<<<4, 256>>>(f);
  bitIntrinsics<<<4, 256>>>(f, m);
  wavefront<<<8, 16>>>(t);
  triangle<<<8, 32>>>(f);
  triangularLoop<<<8, 256>>>(f, n);
  remainderLoop<<<8, 256>>>(f, n);
  warpSteps<<<8, 256>>>(t);
  causalMask<<<8, 256>>>(f, n);
  treeTail<<<8, 256>>>(f);
  halvesOfOneWarp<<<8, 32>>>(f);
  halvesOfWarpZero<<<8, 256>>>(f);
  halfOfEachRow<<<8, dim3(16, 16)>>>(f);
  tailOfOneWarpBlocks<<<8, 32>>>(f, n);
  longArms<<<8, 256>>>(f, n);
}
