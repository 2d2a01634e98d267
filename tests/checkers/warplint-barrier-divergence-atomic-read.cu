// warplint-barrier-divergence: an atomic that adds (or ors, xors, subtracts) 0 leaves the
// word as it was and returns it, a read of `*p` (issue 23, twenty-ninth session: chai's
// BFS and SSSP read the frontier's size so, `n_t_local = atomicAdd(n_t, 0)`, and bound the
// loop around their barriers by it). At a block-uniform address every thread reads one
// word, as a plain load: silent. An atomic that changes the word returns each thread its
// own old value (a ticket), and a read at a thread's own address differs by thread: those
// bounds split the block, reported.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void frontier(int *out, const int *q, int *n_t, int *head) {
  __shared__ int base;
  const int n = atomicAdd(n_t, 0);
  if (threadIdx.x == 0)
    base = atomicAdd(head, 256);
  __syncthreads();
  int my = base;
  while (my < n) {
    if (my + (int)threadIdx.x < n)
      out[my + threadIdx.x] = q[my + threadIdx.x] + 1;
    if (threadIdx.x == 0)
      base = atomicAdd(head, 256);
    __syncthreads();
    my = base;
  }
}

__global__ void ticket(int *out, int *n_t) {
  __shared__ int s[256];
  const int n = atomicAdd(n_t, 1);
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = out[i * 256 + threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'ticket' may be skipped by part of the block
    out[i * 256 + threadIdx.x] = s[255 - threadIdx.x];
  }
}

__global__ void ownWord(int *out, int *counts) {
  __shared__ int s[256];
  const int n = atomicAdd(&counts[threadIdx.x], 0);
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = out[i * 256 + threadIdx.x];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'ownWord' may be skipped by part of the block
    out[i * 256 + threadIdx.x] = s[255 - threadIdx.x];
  }
}

void launch(int *out, const int *q, int *n_t, int *head, int *counts) {
  frontier<<<64, 256>>>(out, q, n_t, head);
  ticket<<<64, 256>>>(out, n_t);
  ownWord<<<64, 256>>>(out, counts);
}
