// warplint-warp-sync-mask on the last warp of a block whose size is not a multiple of 32
// (issue 23, HeCBench's marchingCubes and hadamard): the lanes past the block's end are no
// threads. Like lanes that returned from the kernel, a mask may name them (the rule is on
// the non-exited threads it names), so __syncwarp() and the votes are silent there. A
// shuffle is reported where a lane that executes it reads from one of them (the value is
// undefined), which is judged lane by lane where each lane's source is known: a butterfly
// inside a row of 16 lanes in a 16x25 block is silent, a shfl_down tree that reaches past
// the 16 lanes of the last warp is an error, a note where the tree's lane 0 reads only
// lanes that exist and the partial results start afresh before the next tree, and a
// source lane known only at run time keeps the rule of every named lane.
// RUN: %not %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// marchingCubes' computeMinMaxLv2: a block of 16x25 (400 threads, warp 12 has lanes 0-15)
// and a shfl_down tree from 8 with the default width: in warp 12, lanes 8-15 read lanes
// 16-23, which do not exist, and their minima carry into the next trip's tree.
__global__ void minMaxTree(const float *in, float *out) {
  float minV = in[threadIdx.y * 16 + threadIdx.x];
  for (int trip = 0; trip < 4; ++trip) {
    float v = in[trip * 400 + threadIdx.y * 16 + threadIdx.x];
    if (v < minV)
      minV = v;
#pragma unroll
    for (int c = 8; c > 0; c /= 2) {
      float t = __shfl_down_sync(0xffffffffu, minV, c);
      // CHECK: :[[@LINE-1]]:17: error: mask 0xffffffff of '__shfl_down_sync()' in kernel 'minMaxTree' names lanes 16-23 of warp 12 that do not take part (block 16x25x1, c = 8: warp 12 of the block has lanes 0-15 only, and lanes that reach it read them); a value read from a lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
      // CHECK: :[[@LINE-2]]:17: note: give the lanes
      if (t < minV)
        minV = t;
    }
    if (threadIdx.x == 0)
      out[trip * 25 + threadIdx.y] = minV;
  }
}

// marchingCubes as it is: the minima start afresh after each trip's write-out (`minV =
// v;`), so lanes 8-15's undefined partial minima reach no later tree, and lane 0's result
// (lanes 0-15) is defined. The read is still said, as a note.
__global__ void minMaxTreeReset(const float *in, float *out) {
  float v = in[threadIdx.y * 16 + threadIdx.x];
  float minV = v;
  for (int trip = 0; trip < 4; ++trip) {
    v = in[trip * 400 + threadIdx.y * 16 + threadIdx.x];
    if (v < minV)
      minV = v;
#pragma unroll
    for (int c = 8; c > 0; c /= 2) {
      float t = __shfl_down_sync(0xffffffffu, minV, c);
      // CHECK: :[[@LINE-1]]:17: remark: mask 0xffffffff of '__shfl_down_sync()' in kernel 'minMaxTreeReset' names lanes 16-23 of warp 12 that do not take part (block 16x25x1, c = 8: warp 12 of the block has lanes 0-15 only, and lanes that reach it read them); a value read from a lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
      // CHECK: :[[@LINE-2]]:17: note: a note, not a warning: the __shfl_down_sync tree reduces into lane 0 of each segment, and lane 0's result reads only lanes that take part; the lanes that read the others hold partial results that a reduction does not use
      // CHECK: :[[@LINE-3]]:17: note: give the lanes
      if (t < minV)
        minV = t;
    }
    if (threadIdx.x == 0)
      out[trip * 25 + threadIdx.y] = minV;
    minV = v;
  }
}

// The same block with the tree inside the row's 16 lanes (width 16): every source lane
// exists, silent.
__global__ void minMaxRow(const float *in, float *out) {
  float minV = in[threadIdx.y * 16 + threadIdx.x];
#pragma unroll
  for (int c = 8; c > 0; c /= 2)
  {
    float t = __shfl_down_sync(0xffffffffu, minV, c, 16);
    if (t < minV)
      minV = t;
  }
  if (threadIdx.x == 0)
    out[threadIdx.y] = minV;
}

// A butterfly within the N lanes of blocks of N threads (hadamard's hadamard_mult_warp):
// the xor masks stay below N, so no lane reads a lane that does not exist; N = 1 makes
// no trip at all. Silent for every block.
template <int kLogN>
__global__ void butterfly(float *x) {
  constexpr int N = 1 << kLogN;
  float v = x[threadIdx.x];
#pragma unroll
  for (int step = 0; step < kLogN; ++step) {
    const int laneMask = 1 << step;
    const float sign = (threadIdx.x % N & laneMask) ? -1.f : 1.f;
    v = sign * v + __shfl_xor_sync(0xffffffff, v, laneMask);
  }
  x[threadIdx.x] = v;
}

// __syncwarp(), a ballot and a vote with the full mask in a block of 48: lanes 16-31 of
// warp 1 are no threads, and no lane reads them. Silent.
__global__ void wholeMaskNoRead(int *a) {
  int v = a[threadIdx.x];
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  __syncwarp();
  int all = __all_sync(0xffffffff, v != 0);
  a[threadIdx.x] = v + int(b) + all;
}

// A broadcast from lane 0 in a block of 48: lane 0 exists in every warp. Silent.
__global__ void broadcast(float *a) {
  float v = a[threadIdx.x];
  a[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
}

// A source lane read at run time in a block of 48: it may be a lane past the end, so the
// named lanes that do not exist are reported as before.
__global__ void runtimeSource(float *a, int src) {
  float v = a[threadIdx.x];
  a[threadIdx.x] = __shfl_sync(0xffffffff, v, src);
  // CHECK: :[[@LINE-1]]:20: error: mask 0xffffffff of '__shfl_sync()' in kernel 'runtimeSource' names lanes 16-31 of warp 1 that do not take part (block 48x1x1: warp 1 of the block has lanes 0-15 only); a named lane that does not execute the call is undefined behaviour [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-2]]:20: note: give the lanes
}

void launch(const float *in, float *out, float *x, int *a, float *f, int src) {
  minMaxTree<<<64, dim3(16, 25)>>>(in, out);
  minMaxTreeReset<<<64, dim3(16, 25)>>>(in, out);
  minMaxRow<<<64, dim3(16, 25)>>>(in, out);
  butterfly<0><<<1, 1>>>(x);
  butterfly<2><<<1, 4>>>(x);
  butterfly<4><<<1, 16>>>(x);
  wholeMaskNoRead<<<1, 48>>>(a);
  broadcast<<<1, 48>>>(f);
  runtimeSource<<<1, 48>>>(f, src);
}
