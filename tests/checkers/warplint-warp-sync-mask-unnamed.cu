// warplint-warp-sync-mask on lanes that call a warp-synchronous function without their bit
// in its constant mask (issue 23, HeCBench's btree: all 32 lanes call
// __shfl_up_sync(0x0000FFFF, ...)). The Programming Guide requires each calling thread to
// have its own bit set in the mask. Where nothing before the call splits a warp (every
// condition and exit on the way is warp-uniform), every lane of a warp that reaches it
// calls it, so the lanes the mask leaves out are callers: an error for a launch's block, a
// warning for an assumed one. A lane-dependent condition that keeps the other lanes away,
// or a block whose warps have only the mask's lanes, is silent.
// RUN: %not %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// A prefix scan over the first 16 lanes that all 32 lanes run.
__global__ void halfMaskScan(int *keys) {
  int v = keys[threadIdx.x];
  for (int d = 1; d < 16; d *= 2) {
    int up = __shfl_up_sync(0x0000FFFF, v, d);
    // CHECK: :[[@LINE-1]]:14: error: mask 0x0000ffff of '__shfl_up_sync()' in kernel 'halfMaskScan' leaves out lanes 16-31 of warp 0, which call it (block 64x1x1: nothing before the call splits a warp, so every lane of a warp that reaches it calls it); a calling lane that is not in the mask is undefined behaviour [warplint-warp-sync-mask]
    // CHECK: :[[@LINE-2]]:14: note: name every lane that calls it in the mask
    if (int(threadIdx.x % 32) >= d)
      v += up;
  }
  keys[threadIdx.x] = v;
}

// The same behind a warp-uniform condition: whole warps reach it, each with 32 lanes.
__global__ void warpUniformBranch(int *keys, int n) {
  int v = keys[threadIdx.x];
  if ((threadIdx.x / 32) % 2 == 0 && n > 4)
    v = __shfl_sync(0x0000FFFF, v, 0);
  // CHECK: :[[@LINE-1]]:9: error: mask 0x0000ffff of '__shfl_sync()' in kernel 'warpUniformBranch' leaves out lanes 16-31 of warp 0, which call it
  // CHECK: :[[@LINE-2]]:9: note: name every lane
  keys[threadIdx.x] = v;
}

// Only the first 16 lanes call it: silent.
__global__ void laneBranch(int *keys) {
  int v = keys[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = __shfl_sync(0x0000FFFF, v, 0);
  keys[threadIdx.x] = v;
}

// Blocks of 16 threads: each warp has the mask's 16 lanes only. Silent.
__global__ void sixteenLanes(int *keys) {
  int v = keys[threadIdx.x];
  __syncwarp(0x0000FFFF);
  keys[threadIdx.x] = __shfl_xor_sync(0x0000FFFF, v, 1);
}

// No launch in the TU: the assumed block's warps have 32 lanes, a warning.
__global__ void assumedBlock(int *keys) {
  int v = keys[threadIdx.x];
  keys[threadIdx.x] = __ballot_sync(0x000000FF, v != 0);
  // CHECK: :[[@LINE-1]]:23: warning: mask 0x000000ff of '__ballot_sync()' in kernel 'assumedBlock' leaves out lanes 8-31 of warp 0, which call it (block 256x1x1 assumed: nothing before the call splits a warp, so every lane of a warp that reaches it calls it); a calling lane that is not in the mask is undefined behaviour [warplint-warp-sync-mask]
  // CHECK: :[[@LINE-2]]:23: note: name every lane
  // CHECK: :[[@LINE-5]]:17: note: no launch of 'assumedBlock' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
}

void launch(int *keys, int n) {
  halfMaskScan<<<4, 64>>>(keys);
  warpUniformBranch<<<4, 64>>>(keys, n);
  laneBranch<<<4, 64>>>(keys);
  sixteenLanes<<<4, 16>>>(keys);
}
