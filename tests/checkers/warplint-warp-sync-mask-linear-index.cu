// warplint-warp-sync-mask: a thread's place counted across the block's rows
// (`threadIdx.y * blockDim.x + threadIdx.x`) under an assumed block (issue 23, eighteenth
// session: PhysX's convexConvexNphase_stage1Kernel, four lanes per pair, launched from
// another file, whose pairs past numTests return and whose lanes then read word 3 of their
// own group). Warps hold consecutive places whatever the block's shape, so such a
// condition splits a warp of a 16x16 block exactly as it does one of a 256x1 block: the
// alternative blocks, each sampled whole, settle it as they do for a condition on
// threadIdx.x alone. Silent where every lane reads a lane of its own group, which exits
// with it; a warning where lanes read the next group, which may have left. The row's
// width may be the constant the code counts it by (`threadIdx.y * 32`).
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Words {
  unsigned x, y, z, w;
};

__global__ void pairs(unsigned numTests, const Words *data, unsigned *out) {
  unsigned g = (blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x) >> 2;
  if (g >= numTests)
    return;
  unsigned t = threadIdx.x % 4;
  Words w;
  if (t < 4)
    w = data[g * 4 + t];
  unsigned n = __shfl_sync(0xffffffffu, (int)w.x, int((threadIdx.x & ~0x3) + 3));
  out[g * 4 + t] = n;
}

__global__ void nextPair(unsigned numTests, const Words *data, unsigned *out) {
  unsigned g = (blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x) >> 2;
  if (g >= numTests)
    return;
  unsigned n = __shfl_down_sync(0xffffffffu, (int)data[g].x, 4);
  // CHECK: :[[@LINE-1]]:16: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'nextPair' names lanes that may not take part: the threads whose 'g' is at or past 'numTests' (the tail of the last block, when 'numTests' is not a multiple of the block) leave at the 'return' on line [[@LINE-2]] and never reach it
  // CHECK: :[[@LINE-3]]:5: note: the threads whose 'g' is at or past 'numTests'
  // CHECK: :[[@LINE-3]]:16: note: give the lanes that arrive as the mask
  out[g * 4 + threadIdx.x % 4] = n;
}

// The row's width as the constant the code counts it by (PhysX's femCloth vertex loops,
// `threadIdx.x + threadIdx.y * WARP_SIZE` up to the vertex count rounded up to 32): every
// warp holds one 32-aligned run of places, and the rounded bound leaves no warp split.
__global__ void paddedVerts(const float *v, unsigned numVerts, unsigned *hits) {
  const unsigned padded = (numVerts + 31) & (~31u);
  for (unsigned i = threadIdx.x + threadIdx.y * 32; i < padded; i += blockDim.x * blockDim.y) {
    bool hit = i < numVerts && v[i] > 0.f;
    unsigned m = __ballot_sync(0xffffffffu, hit);
    if (threadIdx.x == 0)
      hits[blockIdx.x * 32 + i / 32] = m;
  }
}

// The same loop up to the vertex count itself: the last warp's lanes past it leave.
__global__ void plainVerts(const float *v, unsigned numVerts, unsigned *hits) {
  for (unsigned i = threadIdx.x + threadIdx.y * 32; i < numVerts; i += blockDim.x * blockDim.y) {
    unsigned m = __ballot_sync(0xffffffffu, v[i] > 0.f);
    // CHECK: :[[@LINE-1]]:18: warning: mask 0xffffffff of '__ballot_sync()' in kernel 'plainVerts' names lanes that may not take part: it is inside a loop whose condition 'i < numVerts' depends on the thread
    // CHECK: :[[@LINE-3]]:3: note: it is inside a loop whose condition 'i < numVerts'
    // CHECK: :[[@LINE-3]]:18: note: give the lanes that arrive as the mask
    if (threadIdx.x == 0)
      hits[blockIdx.x * 32 + i / 32] = m;
  }
}

// The warp's index kept in a variable divided in place (`wrp /= WARP_SIZE`, SuperLU_DIST's
// dlsum_fmod_inv_gpu_1rhs_warp): as `(tid + blockIdx.x * block_size) / 32`, the same in a
// warp, and so is what the warp loads at it. Silent.
__global__ void warpPerColumn(const int *cols, const long *offsets, double *x, int nbcol) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int block_size = blockDim.x * blockDim.y;
  int wrp = tid + blockIdx.x * block_size;
  int lne = wrp % 32;
  wrp /= 32;
  if (wrp < nbcol) {
    int lk = cols[wrp];
    if (offsets[lk] != -1) {
      __syncwarp();
      x[lk * 32 + lne] += 1.0;
    }
  }
}

// Divided in place by 16: half-warps. A warning.
__global__ void halfWarpPerColumn(const int *cols, const long *offsets, double *x, int nbcol) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;
  int wrp = tid + blockIdx.x * blockDim.x * blockDim.y;
  wrp /= 16;
  if (wrp < nbcol) {
    int lk = cols[wrp];
    if (offsets[lk] != -1)
      __syncwarp();
    // CHECK: :[[@LINE-1]]:7: warning: mask 0xffffffff of '__syncwarp()' in kernel 'halfWarpPerColumn' names lanes that may not take part
  }
}
