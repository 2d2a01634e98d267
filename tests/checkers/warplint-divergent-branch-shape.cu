// warplint-divergent-branch: divergence that the data's shape makes (issue 23, the
// divergence classes of magma). Lanes that idle because the work is a triangle, an edge
// tile or a tail, in one contiguous range of each warp, are a note; a split the programmer
// can remap (parity, a lane role, a sweep across the block) stays a warning. Each rule has
// a case that is a note (or silent) and one that is a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s

struct cplx {
  double x, y;
};
__device__ cplx cdiv(cplx a, cplx b) {
  cplx q;
  double s = b.x * b.x + b.y * b.y;
  q = cplx{(a.x * b.x + a.y * b.y) / s, (a.y * b.x - a.x * b.y) / s};
  return q;
}

// A one-armed branch over a contiguous range, its boundary set by a loop counter that each
// warp runs over its own section (the triangle copy of a diagonal tile): a note.
__global__ void triangleCopy(float *A, int n) {
  __shared__ float la[32][33];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 32; j += 4)
    la[tx][ty + j] = A[(ty + j) * n + tx];
  __syncthreads();
  for (int i = ty * 8; i < ty * 8 + 8; i++) {
    if (i < tx)
      la[i][tx] = la[tx][i];
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'tx' diverges in 4 of 4 warps of kernel 'triangleCopy' (block 32x4x1); predicted branch efficiency 0%
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: one side of the branch does no work and the lanes that take the other are one contiguous range of each warp
    // CHECK: :[[@LINE-4]]:9: note: the arms are short
  }
  // Two arms of a statement each, over contiguous ranges (the copy and the diagonal): a note.
  for (int i = ty * 8; i < ty * 8 + 8; i++) {
    if (tx > i)
      la[i][tx] = la[tx][i];
    else if (i == tx)
      la[i][i] = 0.f;
    // CHECK: :[[@LINE-4]]:9: remark: branch on 'tx' diverges in 4 of 4 warps of kernel 'triangleCopy' (block 32x4x1); predicted branch efficiency 0%
    // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: the arms are a statement or two each and the lanes split into contiguous ranges of each warp
  }
  __syncthreads();
  A[tx] = la[tx][ty];
}
void launchTriangleCopy(float *A, int n) { triangleCopy<<<n / 32, dim3(32, 4)>>>(A, n); }

// The same one-armed split on the thread index alone (a parity inside a loop): the
// programmer's choice of lanes, remapped by `tid / warpSize`: a warning.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void parityInLoop(float *c, int n) {
  for (int k = 0; k < n; ++k)
    if (threadIdx.x % 2)
      c[threadIdx.x + k] += 1.f;
  // CHECK: :[[@LINE-2]]:9: remark: branch on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'parityInLoop' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:9: note: '(threadIdx.x / warpSize)' in place of 'threadIdx.x'
  // CHECK: :[[@LINE-5]]:9: note: the arms are short
}
void launchParity(float *c, int n) { parityInLoop<<<8, 64>>>(c, n); }

// A wavefront: the boundary sweeps the whole block step after step (Rodinia nw): a warning.
// The same sweep over the first few lanes only (a reduction of the last columns of a
// panel, one lane per column): a note.
__global__ void sweeps(float *c) {
  __shared__ float t[17][17];
  int tx = threadIdx.x;
  for (int m = 0; m < 16; m++) {
    if (tx <= m)
      t[m - tx + 1][tx + 1] = t[m - tx][tx] + 1.f;
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'tx' diverges in 15 of 16 warp executions of kernel 'sweeps' (block 16x1x1, 16 values of 'm'); predicted branch efficiency 6%
    // CHECK: :[[@LINE-3]]:9: note: the arms are short
    __syncthreads();
  }
  for (int j = 0; j < 4; j++) {
    if (tx < 3 - j)
      c[tx + j] += t[tx][j];
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'tx' diverges in 3 of 4 warp executions of kernel 'sweeps' (block 16x1x1, 4 values of 'j'); predicted branch efficiency 25%
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: one side of the branch does no work and the lanes that take the other are one contiguous range of each warp
    // CHECK: :[[@LINE-4]]:9: note: the arms are short
    __syncthreads();
  }
}
void launchSweeps(float *c) {
  for (int s = 0; s < 8; ++s)
    sweeps<<<64, 16>>>(c);
}

// A loop whose lanes leave in lane order (a block-stride loop whose tail is the size, in
// a block one warp wide in x): a note. Trip counts that rise and fall along the warp
// (`k < tid % 4`) stay a warning.
__global__ void loops(float *c, int m) {
  int i = threadIdx.x;
  for (int j = m - i - 1; j >= 0; j -= 32)
    c[j + threadIdx.y * m] += 1.f;
  // CHECK: :[[@LINE-2]]:27: remark: loop condition on 'j' diverges in up to 16 of 16 warps of kernel 'loops' (block 32x16x1, lanes leave after different trip counts); predicted branch efficiency {{[0-9]+}}% to 100% over the loop's trips, depending on 'm'
  // CHECK: :[[@LINE-3]]:27: note: a note, not a warning: the lanes leave the loop in lane order
  for (int k = 0; k < (int)threadIdx.x % 4; ++k)
    c[k] += 2.f;
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'threadIdx.x' diverges in 16 of 16 warps of kernel 'loops' (block 32x16x1, lanes leave after different trip counts); predicted branch efficiency 25% over the loop's trips
}
void launchLoops(float *c, int m) { loops<<<1000, dim3(32, 16)>>>(c, m); }

// A one-time store beside the kernel's loop (a status flag written by the first lane of each
// matrix of N = 3 threads): a note. The same store inside the loop is a note too: the same
// lanes take it in every trip (a role fixed to them) and its arm runs no loop; the two are
// one finding. A set of lanes that moves with the loop stays a warning: the lanes whose
// place in their group is k % 3 take a two-statement arm, other lanes in each trip.
__global__ void oneTime(float *A, int *info, int n) {
  const int tx = threadIdx.x % 3;
  if (tx == 0)
    info[threadIdx.x / 3] = 0;
  // CHECK: :[[@LINE-2]]:7: remark: 2 branches on 'tx' with the same figures: each diverges in 2 of 2 warps of kernel 'oneTime' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the branch runs once per thread, outside the kernel's loops, and its arm is one statement
  // CHECK: :[[@LINE-4]]:7: note: the arms are short
  for (int k = 0; k < n; ++k) {
    A[k * 64 + threadIdx.x] *= 2.f;
    if (tx == 0)
      info[threadIdx.x / 3] += 1;
    // CHECK: :[[@LINE-2]]:9: note: branch on 'tx' here too (2 of 2), grouped in the finding at line [[@LINE-9]]
    if (tx == k % 3) {
      info[threadIdx.x / 3] += 2;
      A[threadIdx.x] += 1.f;
    }
    // CHECK: :[[@LINE-4]]:9: warning: branch on 'tx' diverges in up to 200 of 200 warp executions of kernel 'oneTime' (block 64x1x1, 100 iterations); predicted branch efficiency 0%
  }
}
void launchOneTime(float *A, int *info, int n) { oneTime<<<100, 64>>>(A, info, n); }

// The unrolled steps of a block's tree reduction (a constant limit, the arm reading the
// element that far on): the tail idiom, silent as its loop form. A warp's own tree on a
// lane index (every warp, SHOC's spmv) stays a warning.
template <int M>
__global__ void treeSteps(double *out, const double *in) {
  __shared__ double s[M];
  __shared__ volatile double w[M];
  int tx = threadIdx.x, lane = threadIdx.x & 31;
  s[tx] = in[tx];
  __syncthreads();
  if (tx < 16 && tx + 16 < M)
    s[tx] += s[tx + 16];
  __syncthreads();
  if (tx < 8 && tx + 8 < M)
    s[tx] += s[tx + 8];
  __syncthreads();
  w[tx] = s[tx];
  if (lane < 16)
    w[tx] += w[tx + 16];
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'lane' diverges in 2 of 2 warps of kernel 'treeSteps' (block 32x2x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: the arms are short
  if (tx == 0)
    out[threadIdx.y] = w[0];
}
void launchTree(double *o, const double *i) { treeSteps<32><<<100, dim3(32, 2)>>>(o, i); }

// A '?:' whose arm divides two values of registers (a struct copied by its trivial
// assignment inside the callee) is a select, as a '?:' of two values: a note. The arm that
// loads is not, and its split sweeps the row step after step: a warning.
__global__ void householder(cplx *A, cplx alpha) {
  int tx = threadIdx.x;
  cplx one{1.0, 0.0}, scale = one, acc = one;
  for (int j = 0; j < 32; j++) {
    scale = (tx > j) ? cdiv(one, alpha) : scale;
    // CHECK: :[[@LINE-1]]:13: remark: '?:' on 'tx' diverges in 31 of 32 warp executions of kernel 'householder' (block 32x1x1, 32 values of 'j'); predicted branch efficiency 3%
    // CHECK: :[[@LINE-2]]:13: note: a note, not a warning: the arms only move values between registers
    acc = (tx > j) ? cdiv(acc, A[j * 32 + tx]) : acc;
    // CHECK: :[[@LINE-1]]:11: warning: '?:' on 'tx' diverges in 31 of 32 warp executions of kernel 'householder' (block 32x1x1, 32 values of 'j'); predicted branch efficiency 3%
  }
  A[tx] = scale;
  A[32 + tx] = acc;
}
void launchHouseholder(cplx *A, cplx a) { householder<<<100, 32>>>(A, a); }
