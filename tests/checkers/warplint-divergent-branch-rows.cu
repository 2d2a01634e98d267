// warplint-divergent-branch: the note on rows (planes) of a block that straddle warps comes
// only with a condition that reads threadIdx.y (threadIdx.z), and counts the rows a warp
// really holds part of, for rows shorter and longer than a warp.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not='note: a warp spans' %s

// threadIdx.x alone: rows of 40 threads straddle warps, but the condition does not read y.
__global__ void xOnlyWideRows(float *c) {
  if (threadIdx.x % 2)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 3 of 3 warps of kernel 'xOnlyWideRows' (block 40x2x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Rows longer than a warp: warp 1 holds threads 32-39 of row 0 and 0-23 of row 1.
__global__ void yWideRows(float *c) {
  if (threadIdx.y % 2)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.y' diverges in 1 of 3 warps of kernel 'yWideRows' (block 40x2x1); predicted branch efficiency 67%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans up to 2 rows of 40 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}

// Rows of 20: warp 1 (threads 32-63) holds part of rows 1, 2 and 3.
__global__ void yRowsOf20(float *c) {
  if (threadIdx.y == 1)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.y' diverges in 2 of 3 warps of kernel 'yRowsOf20' (block 20x4x1); predicted branch efficiency 33%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans up to 3 rows of 20 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}

// Through a local and through a loop variable that starts at threadIdx.y.
__global__ void yViaLocal(float *c) {
  int Row = threadIdx.y;
  if (Row == 1)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'Row' diverges in 1 of 2 warps of kernel 'yViaLocal' (block 16x4x1); predicted branch efficiency 50%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 rows of 16 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}
__global__ void yViaLoop(float *c, int N) {
  for (int R = threadIdx.y; R < N; R += blockDim.y)
    if (R % 2)
      c[R] = 1;
  // CHECK: :[[@LINE-2]]:9: warning: branch on 'R' diverges in up to 3 of 3 warps of kernel 'yViaLoop' (block 24x4x1); predicted branch efficiency 0% to 100%, depending on 'N'
  // CHECK: :[[@LINE-3]]:9: note: a warp spans 2 rows of 24 threads: 'threadIdx.y' is warp-uniform only when blockDim.x is a multiple of 32
}

// threadIdx.z: planes of blockDim.x * blockDim.y threads.
__global__ void zPlanes(float *c) {
  if (threadIdx.z == 1)
    c[0] = 1;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.z' diverges in 1 of 2 warps of kernel 'zPlanes' (block 16x1x4); predicted branch efficiency 50%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 planes of 16x1 threads: 'threadIdx.z' is warp-uniform only when blockDim.x * blockDim.y is a multiple of 32
}

// Rows of whole warps: threadIdx.y is warp-uniform, nothing to report.
__global__ void yWholeWarps(float *c) {
  if (threadIdx.y % 2)
    c[0] = 1;
}

void launches(float *c, int N) {
  xOnlyWideRows<<<1, dim3(40, 2)>>>(c);
  yWideRows<<<1, dim3(40, 2)>>>(c);
  yRowsOf20<<<1, dim3(20, 4)>>>(c);
  yViaLocal<<<1, dim3(16, 4)>>>(c);
  yViaLoop<<<1, dim3(24, 4)>>>(c, N);
  zPlanes<<<1, dim3(16, 1, 4)>>>(c);
  yWholeWarps<<<1, dim3(64, 4)>>>(c);
}
