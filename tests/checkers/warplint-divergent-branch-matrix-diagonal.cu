// warplint-divergent-branch: the diagonal of a matrix flattened onto a 1-D grid (issue 23,
// AFTER 14: HeCBench's pcc kernel). One thread per element, row idx / n and column
// idx % n; `if (i < j)` copies the upper triangle. A warp holds pieces of one or more rows
// and each piece splits at the diagonal into one contiguous range: only the warps the
// diagonal crosses split, and nothing the other lanes could do instead. A note, like the
// same triangle on a 2-D grid. A test of the column against another pattern of the row
// (`j < i % 8`) is no diagonal, and stays reported; the row of a batch of square matrices
// (`(idx / T) % T`, attention's causal mask) is.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void upperTriangle(const float *m, float *u, int n) {
  size_t idx = blockDim.x * blockIdx.x + threadIdx.x;
  if (idx < (size_t)n * n) {
    size_t i = idx / n;
    size_t j = idx % n;
    if (i < j) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'i' diverges in up to 32 of 32 warps of kernel 'upperTriangle'
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: one side of the branch does no work and it compares the row and the column of one flattened index
      size_t t = n * i - i * (i + 1) / 2 + j - i - 1;
      u[t] = m[j * n + i];
    }
  }
}
void launchUpper(const float *m, float *u, int n) {
  upperTriangle<<<(n * n + 1023) / 1024, 1024>>>(m, u, n);
}

// Reported: the column against the row's residue, not the diagonal.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void columnPattern(const float *m, float *u, int n) {
  size_t idx = blockDim.x * blockIdx.x + threadIdx.x;
  size_t i = idx / n;
  size_t j = idx % n;
  if (j < (i % 8))
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'j' diverges in up to 32 of 32 warps of kernel 'columnPattern'
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    u[idx] = m[idx] * m[idx] + 1.f;
}
void launchPattern(const float *m, float *u, int n) {
  columnPattern<<<(n * n + 1023) / 1024, 1024>>>(m, u, n);
}

// The causal mask of attention scores flattened over batch, head and a T x T matrix (llm.c
// dev/cuda attention_forward.cu, attention_query_key_kernel1): the row within its matrix is
// `(idx / T) % T`, constant along each row of T threads like `idx / T`. On an H200 the
// arm ran with 31.6 of 32 lanes on average at T = 1024 (docs/measuring.md, "Real code,
// line by line"). A note, with the early return in the arm.
__global__ void causalMask(float *preatt, const float *inp, int B, int T, int C, int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * T * T) {
    int t2 = idx % T;
    int t = (idx / T) % T;
    if (t2 > t) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 't2' diverges in up to 8 of 8 warps of kernel 'causalMask'
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: one side of the branch does no work and it compares the row and the column of one flattened index
      preatt[idx] = -1.0f;
      return;
    }
    float val = 0.0f;
    for (int i = 0; i < C; i++)
      val += inp[t * C + i] * inp[t2 * C + i];
    preatt[idx] = val;
  }
}
void launchMask(float *preatt, const float *inp, int B, int T, int C, int NH) {
  causalMask<<<(B * NH * T * T + 255) / 256, 256>>>(preatt, inp, B, T, C, NH);
}
