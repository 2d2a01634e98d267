// warplint-divergent-branch: lane-by-lane evaluation per warp, quiet on idioms.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s --config="{CheckOptions: {warplint-divergent-branch.ReportBoundsGuards: true, warplint-divergent-branch.ReportLeaderPatterns: true, warplint-divergent-branch.ReportTreeReductionTails: true, warplint-divergent-branch.ReportDataDependent: true, warplint-divergent-branch.ReportGridStrideLoops: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=ALL %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s --config="{CheckOptions: {warplint-divergent-branch.AssumedBlockSize: 33}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid AssumedBlockSize 33: must be a multiple of 32 from 32 to 1024; using 256

__global__ void evenOdd(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  float a = 0.f, b = 0.f;
  if (tid % 2 == 0)
    a = 100.f;
  else
    b = 200.f;
  // The arms only move registers (selects): a note, not a warning.
  // CHECK: :[[@LINE-5]]:7: remark: branch on 'tid' diverges in 2 of 2 warps of kernel 'evenOdd' (block 64x1x1); predicted branch efficiency 0% [warplint-divergent-branch]
  // CHECK: :[[@LINE-6]]:7: note: a note, not a warning: the arms only move values between registers (no memory access, call or barrier)
  // CHECK: :[[@LINE-7]]:7: note: '(tid / warpSize)' in place of 'tid' splits the same number of threads by whole warps: '(tid / warpSize) % 2 == 0'
  c[tid] = a + b;
}

__global__ void evenOddByWarp(float *c) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  float a = 0.f, b = 0.f;
  if ((tid / warpSize) % 2 == 0)
    a = 100.f;
  else
    b = 200.f;
  c[tid] = a + b;
}

__global__ void halfOf64(float *c) {
  if (threadIdx.x % 64 < 32)
    c[0] = 1;
}

__global__ void halfOfEachWarp(float *c) {
  if ((threadIdx.x % 32) < 16)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'halfOfEachWarp' (block 256x1x1 assumed); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-5]]:17: note: no launch of 'halfOfEachWarp' with a known block shape in this translation unit; assumed a 1-D block of 256 threads (a multiple of 32)
}

// The answer depends on the launch: 16x16 puts two rows in a warp, 32x8 one.
__global__ void oddRows(float *c) {
  if (threadIdx.y % 2)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.y' diverges in 8 of 8 warps of kernel 'oddRows' (block 16x16x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE+114]]:3: note: with the block 32x8x1 of this launch the branch is warp-uniform
  // CHECK: :[[@LINE-5]]:7: note: a warp spans 2 rows of 16 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}

__global__ void oddRowsAligned(float *c) {
  if (threadIdx.y % 2)
    c[0] = 1;
}

// Interleaved tree reduction: exact count over every value of s.
__global__ void reduceInterleaved(int *g, int *o) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'tid' diverges in 47 of 64 warp executions of kernel 'reduceInterleaved' (block 256x1x1, 8 values of 's'); predicted branch efficiency 27%
    // CHECK: :[[@LINE-3]]:9: note: interleaved tree reduction
    __syncthreads();
  }
  // Sequential addressing: only the tail (s < 32) splits a warp.
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    // ALL: :[[@LINE-2]]:9: warning: branch on 'tid' diverges in 5 of 64 warp executions of kernel 'reduceInterleaved' (block 256x1x1, 8 values of 's'); predicted branch efficiency 92%
    __syncthreads();
  }
  if (tid == 0)
    o[blockIdx.x] = sdata[0];
  // Reported with ReportLeaderPatterns, as a note: one store once per thread beside the
  // kernel's loops (issue 23).
  // ALL: :[[@LINE-4]]:7: remark: branch on 'tid' diverges in 1 of 8 warps of kernel 'reduceInterleaved'
}

__global__ void guards(float *c, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // ALL: :[[@LINE-2]]:7: warning: branch on 'i' diverges in up to 1 of 8 warps of kernel 'guards'
  unsigned lane = threadIdx.x & 31;
  if (lane == 0)
    c[i] = 0;
  // A note (one store once per thread beside the kernel's loop), as the leader of
  // reduceInterleaved.
  // ALL: :[[@LINE-4]]:7: remark: branch on 'lane' diverges in up to 8 of 8 warps of kernel 'guards'
  if (x[i] > 0.f)
    c[i] = 1;
  // ALL: :[[@LINE-2]]:7: warning: branch in kernel 'guards' depends on data loaded at a thread-dependent address
  for (int k = i; k < n; k += blockDim.x * gridDim.x)
    c[k] = 2;
  // Reported when asked for, as a note: the lanes differ in the last trips only.
  // ALL: :[[@LINE-3]]:19: remark: loop condition on 'k' diverges
  // ALL: :[[@LINE-4]]:19: note: a note, not a warning: at most one in sixteen evaluations of the loop condition splits (predicted branch efficiency 96% or more)
}

// Loops whose trip count differs between lanes; switch; ?: with side effects; &&.
__global__ void lanesLoop(int *o) {
  for (int k = 0; k < (int)threadIdx.x % 4; ++k)
    o[k] = 0;
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'lanesLoop' (block 256x1x1 assumed, lanes leave after different trip counts); predicted branch efficiency 25% over the loop's trips
  // CHECK: :[[@LINE-4]]:17: note: no launch
  for (int k = 0; k < 4; ++k)
    o[k] += 1;
  switch (threadIdx.x % 4) {
  // CHECK: :[[@LINE-1]]:11: warning: switch on 'threadIdx.x' diverges in 8 of 8 warps
  case 0:
    o[0] = 1;
    break;
  default:
    break;
  }
  switch ((threadIdx.x / 32) % 4) {
  case 0:
    o[1] = 1;
    break;
  }
  int v = threadIdx.x % 2 ? atomicAdd(o, 1) : 0;
  // CHECK: :[[@LINE-1]]:11: warning: '?:' on 'threadIdx.x' diverges in 8 of 8 warps
  int w = threadIdx.x % 2 ? 3 : 4;
  if ((threadIdx.x & 1) && o[threadIdx.x] > 0)
    o[2] = v + w;
  // CHECK: :[[@LINE-2]]:7: remark: short-circuit operand on 'threadIdx.x' diverges in 8 of 8 warps
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Through a device function defined in this TU.
__device__ int laneOf(int t) { return t % warpSize; }
__global__ void viaCall(int *o) {
  if (laneOf(threadIdx.x) < 8)
    o[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'laneOf(threadIdx.x)' diverges in 2 of 2 warps of kernel 'viaCall' (block 64x1x1)
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Only the lanes that reach a branch count: the scan runs in warp 0 alone.
__global__ void warpZeroScan(int *o) {
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  if (warp == 0 && threadIdx.x < 8)
    o[0] = 1;
  if (warp == 0) {
    for (int i = 1; i <= 16; i *= 2)
      if (lane >= i)
        o[lane] += 1;
    // CHECK: :[[@LINE-2]]:11: warning: branch on 'lane' diverges in 5 of 5 warp executions of kernel 'warpZeroScan' (block 256x1x1, 5 values of 'i'); predicted branch efficiency 0%
  }
}

void launchAll(float *c, int *g, const float *x, int n) {
  evenOdd<<<1, 64>>>(c);
  evenOddByWarp<<<1, 64>>>(c);
  oddRows<<<1, dim3(16, 16)>>>(c);
  oddRows<<<1, dim3(32, 8)>>>(c);
  oddRowsAligned<<<1, dim3(32, 8)>>>(c);
  reduceInterleaved<<<10, 256>>>(g, g);
  guards<<<10, 256>>>(c, x, n);
  viaCall<<<1, 64>>>(g);
  warpZeroScan<<<1, 256>>>(g);
}

// Block shapes that only the shared launch facts give: fields set one by one, and the
// runtime launch APIs. (A 1x1x1 block read from `dim3 threads;` alone would hide these.)
__global__ void rowsByFields(float *c) {
  if (threadIdx.y % 2)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.y' diverges in 8 of 8 warps of kernel 'rowsByFields' (block 16x16x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 rows of 16 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}
__global__ void lanesViaRuntimeApi(float *c) {
  if (threadIdx.x % 64 < 48)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 2 of 4 warps of kernel 'lanesViaRuntimeApi' (block 128x1x1); predicted branch efficiency 50%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchThroughFacts(float *c) {
  dim3 threads;
  threads.x = 16;
  threads.y = 16;
  rowsByFields<<<1, threads>>>(c);
  void *args[] = {&c};
  cudaLaunchKernel(lanesViaRuntimeApi, dim3(1), dim3(128), args, 0, 0);
}

// Real-code idioms (see docs/checks/divergent-branch-real-code.md). A leader of each row:
// with 16x16 blocks `threadIdx.x == 0` holds for one lane of each of the two rows of a
// warp, the same idiom as `threadIdx.x == 0` in a 1-D block.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void rowLeaders(float *c) {
  if (threadIdx.x == 0)
    c[threadIdx.y] = 0;
  // ALL: :[[@LINE-2]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'rowLeaders' (block 16x16x1)
  if (threadIdx.y == 0)
    c[threadIdx.x] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.y' diverges in 1 of 8 warps of kernel 'rowLeaders' (block 16x16x1); predicted branch efficiency 88%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 rows of 16 threads
  // ALL: :[[@LINE-5]]:7: warning: branch on 'threadIdx.y' diverges in 1 of 8 warps
}

// A 2-D index recovered from a 1-D one with a run-time row length: the edge-of-image test
// is a bounds guard, the last element of each row a leader.
__global__ void coordinates(float *c, int rows, int radius) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int r = id % rows;
  for (int k = 0; k < 2 * radius; ++k) {
    int y = r - radius + k;
    if (y >= 0 && y < rows)
      c[id] += 1;
    // ALL: :[[@LINE-2]]:9: warning: branch on 'y' diverges in up to
  }
  if ((id + 1) % rows == 0)
    c[id] = 0;
  // ALL: :[[@LINE-2]]:7: remark: branch on 'id' diverges in up to
  if (id % 2 == 0)
    c[id] = 2;
  // One store once per thread, beside the kernel's loop: a note since issue 23 (the split
  // costs each warp one masked statement once); the remapping is still given.
  // CHECK: :[[@LINE-4]]:7: remark: branch on 'id' diverges in 8 of 8 warps of kernel 'coordinates' (block 256x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-5]]:7: note: a note, not a warning: the branch runs once per thread, outside the kernel's loops
  // CHECK: :[[@LINE-6]]:7: note: '(id / warpSize)' in place of 'id'
  // ALL: :[[@LINE-7]]:7: remark: branch on 'id' diverges in 8 of 8 warps
}

// Lanes striding over channels: `lane * 8 + k * 256 < C` splits a warp only where C is not
// a multiple of 256 (a tail guard); `lane < 16` splits every warp (reported where its arm
// reads what other lanes wrote, the step of a tree; a store of a constant outside the
// loops is an initialization of 16 words, a note since issue 23).
__global__ void laneStrided(float *c, int C) {
  int lane = threadIdx.x % 32;
  for (int k = 0; k < 4; ++k) {
    int g = lane * 8 + k * 256;
    if (g < C)
      c[g] = 0;
    // ALL: :[[@LINE-2]]:9: warning: branch on 'g' diverges in up to
  }
  if (lane < 16)
    c[lane] += c[lane + 16];
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'lane' diverges in 8 of 8 warps of kernel 'laneStrided' (block 256x1x1); predicted branch efficiency 0%
  // ALL: :[[@LINE-3]]:7: warning: branch on 'lane' diverges in 8 of 8 warps
  if (lane < 16)
    c[lane] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 8 of 8 warps of kernel 'laneStrided' (block 256x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the branch runs once per thread, outside the kernel's loops, and its arm is one store of a value read from no memory (an initialization, not a step of the warp's work): the split costs each warp one masked store, once
  // ALL: :[[@LINE-4]]:7: remark: branch on 'lane' diverges in 8 of 8 warps
}

// A warp-stride loop over a row chosen per warp: the limit is the same for every lane of a
// warp, so only the last trip is partial (a stride loop). A per-lane limit is reported.
__global__ void warpPerRow(float *c, int T) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * 8 + threadIdx.x / 32) % T;
  for (int i = lane; i < row; i += 32)
    c[i] = 0;
  // Reported when asked for, as a note: the lanes leave in lane order (the row's tail).
  // ALL: :[[@LINE-3]]:22: remark: loop condition on 'i' diverges
  for (int i = 0; i < lane; ++i)
    c[i] = 1;
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'lane' diverges in 8 of 8 warps of kernel 'warpPerRow' (block 256x1x1, lanes leave after different trip counts); predicted branch efficiency 3% over the loop's trips
  // ALL: :[[@LINE-3]]:19: warning: loop condition on 'lane' diverges
  // A triangular loop over a coordinate (causal attention): each lane its own trip count.
  int t = (blockIdx.x * blockDim.x + threadIdx.x) / 12 % T;
  for (int k = 0; k <= t; ++k)
    c[k] = 2;
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 't' diverges in up to 8 of 8 warps of kernel 'warpPerRow' (block 256x1x1, lanes leave after different trip counts); predicted branch efficiency 50% to 100% over the loop's trips, depending on 'blockIdx.x', 'T'
  // ALL: :[[@LINE-3]]:19: warning: loop condition on 't' diverges
}

void launchRealCodeIdioms(float *c, int n) {
  rowLeaders<<<1, dim3(16, 16)>>>(c);
  coordinates<<<4, 256>>>(c, n, 3);
  laneStrided<<<4, 256>>>(c, n);
  warpPerRow<<<4, 256>>>(c, n);
}
