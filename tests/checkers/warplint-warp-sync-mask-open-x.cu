// warplint-warp-sync-mask: launches that fix y (16) but leave x a run-time value (Kaldi's
// `dim3 thrds(warpSize, 16)`, with warpSize read from cudaDevAttrWarpSize). The block is
// assumed (256 threads, y kept: 16x16), and a finding stays a warning only when the blocks
// at least a warp wide in x with the same y (32x16, 64x16) give it too.
// (A note is printed after a warning of the file: halfRow comes first.)
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// Half of each row: every width splits a warp: a warning.
__global__ void halfRow(float *out, const float *in, int n) {
  float v = in[threadIdx.y * blockDim.x + threadIdx.x];
  if (threadIdx.x < 8) {
    out[threadIdx.x] = v;
    __syncwarp();
  }
}
// CHECK: :[[@LINE-3]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'halfRow' names lanes{{.*}}[warplint-warp-sync-mask]

// Row 0 of the block: with a 16-wide x it is half a warp, with a block a warp wide or more
// it is whole warps: a note.
__global__ void rowZero(float *out, const float *in, int n) {
  float v = in[threadIdx.y * blockDim.x + threadIdx.x];
  if (threadIdx.y == 0) {
    out[threadIdx.x] = v;
    __syncwarp();
  }
}
// CHECK: :[[@LINE-3]]:5: remark: mask 0xffffffff of '__syncwarp()' in kernel 'rowZero' names lanes 16-31 of warp 0 that do not take part (block 16x16x1 assumed: they do not reach it); a named lane that does not execute the call is undefined behaviour
// CHECK: :[[@LINE-4]]:5: note: a note, not a warning: no launch in this file gives the block shape, and with a block of 32x16x1 every thread that reaches the code around it reaches it

void launch(float *o, const float *i, int n, int warpSize) {
  dim3 thrds(warpSize, 16);
  rowZero<<<n, thrds>>>(o, i, n);
  halfRow<<<n, thrds>>>(o, i, n);
}
