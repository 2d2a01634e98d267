// warplint-divergent-branch: a role less the pivot of an elimination step (issue 23,
// sixteenth session: AMGX's DILU_setup_NxN_kernel, a Gauss-Jordan inversion of one NxN
// block per group of lanes). In `for (row = 0; row < N; ++row)` the step scales the pivot
// row but the pivot (`col != row`) and updates the entries off the pivot's row and column
// (`r != row && c != row`): the lanes that take the arm move with the loop only by the one
// lane of each group that the counter names. Less those exclusions the lanes are the same
// in every trip, and the arm is one straight-line statement: a note. A set that moves with
// the loop otherwise (a tree's `t % (2 * s) == 0`) stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

template <int N>
__global__ void invert(float *A, const float *E, int rows) {
  const int NxN = N * N;
  const int lane = threadIdx.x & 31;
  const int lane_mod = lane % NxN;
  const int r = lane_mod / N, c = lane_mod % N;
  const bool is_active = lane < NxN * (32 / NxN);
  __shared__ float s[128];
  float *my_s = s + (threadIdx.x / 32) * 32 + (lane / NxN) * NxN;
  my_s[lane_mod] = E[blockIdx.x * 128 + threadIdx.x];
  __syncwarp();
#pragma unroll
  for (int row = 0; row < N; ++row) {
    float diag = 1.0f / my_s[N * row + row];
    if (is_active && r == 0 && c != row) {
      my_s[N * row + c] *= diag;
    }
    // CHECK: :[[@LINE-3]]:9: remark: branch on 'is_active' diverges
    // CHECK: :[[@LINE-4]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs, less the one lane of each group that the counter of the loop around it names (the pivot of an elimination step, '!= row')
    __syncwarp();
    if (is_active && r != row && c != row) {
      my_s[lane_mod] -= my_s[N * r + row] * my_s[N * row + c];
    }
    // CHECK: :[[@LINE-3]]:9: remark: branch on 'is_active' diverges
    // CHECK: :[[@LINE-4]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs, less the one lane of each group that the counter of the loop around it names
    __syncwarp();
    // The exclusion alone, inside the role's own `if` (seventeenth session, AMGX's :623):
    // every lane that reaches it, less the pivot.
    if (is_active && r == 0) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'is_active' diverges
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs, through every trip of the loops around it
      float tmp = diag;
      if (c != row)
        tmp = -my_s[N * c + row] * diag;
      // CHECK: :[[@LINE-2]]:11: remark: branch on 'c' diverges in 16 of 16 warp executions of kernel 'invert'
      // CHECK: :[[@LINE-3]]:11: note: a note, not a warning: the same lanes of each warp take the branch every time it runs, less the one lane of each group that the counter of the loop around it names (the pivot of an elimination step, '!= row')
      my_s[N * c + row] = tmp;
    }
    __syncwarp();
  }
  A[blockIdx.x * 128 + threadIdx.x] = my_s[lane_mod];
}
void launchInvert(float *A, const float *E, int rows) { invert<4><<<rows, 128>>>(A, E, rows); }

// A warning: the lanes a tree step keeps halve with each trip (no pivot: an equality of a
// multiple, not an exclusion of one lane).
__global__ void tree(float *out, const float *in) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 1; k < 256; k *= 2) {
    if (t % (2 * k) == 0)
      s[t] += s[t + k];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 't' diverges
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
void launchTree(float *out, const float *in, int n) { tree<<<n, 256>>>(out, in); }
