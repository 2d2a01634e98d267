// warplint-barrier-divergence: the dimensions every launch fixes at compile time are kept
// when another dimension of the block is a run-time value (issue 23, "fixed launch y").
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// magma's batched kernels: ntcol problems per block along y. Every launch below fixes
// y = 1 (`dim3 threads(nthreads, 1, 1)` with a run-time nthreads), so threadIdx.y is 0,
// blockDim.y is 1 and batchid = blockIdx.x is block-uniform: the return is the whole
// block's. Silent.
__global__ void batchedFixedY(float **dA, int n, int batchCount) {
  __shared__ float s[1024];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int batchid = blockIdx.x * blockDim.y + ty;
  if (batchid >= batchCount)
    return;
  s[tx] = dA[batchid][tx];
  __syncthreads();
  dA[batchid][tx] = s[n - 1 - tx];
}

// The same kernel launched with a run-time ntcol: rows of a block hold other problems and
// the rows past batchCount in the last block leave before the barrier. True.
__global__ void batchedRuntimeY(float **dA, int n, int batchCount) {
  __shared__ float s[1024];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int batchid = blockIdx.x * blockDim.y + ty;
  if (batchid >= batchCount)
    return;
  s[tx] = dA[batchid][tx];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'batchedRuntimeY' may be skipped by part of the block: the threads whose 'batchid' is at or past 'batchCount' (the tail of the last block, when 'batchCount' is not a multiple of the block) leave at the 'return' on line 29 and never reach it; guard the work, not the barrier [warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'batchid' is at or past 'batchCount'
  dA[batchid][tx] = s[n - 1 - tx];
}

// Two launches: one fixes y = 1, the other does not: the dimension is not fixed. True.
__global__ void batchedMixedY(float **dA, int n, int batchCount) {
  __shared__ float s[1024];
  const int batchid = blockIdx.x * blockDim.y + threadIdx.y;
  if (batchid >= batchCount)
    return;
  s[threadIdx.x] = dA[batchid][threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'batchedMixedY' may be skipped by part of the block: the threads whose 'batchid' is at or past 'batchCount'
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'batchid' is at or past 'batchCount'
  dA[batchid][threadIdx.x] = s[n - 1 - threadIdx.x];
}

// z fixed at 1 by `dim3 threads(n, n, 1)` (magma's zherk_small_reduce): tz is 0 and
// bx = blockIdx.x * blockDim.z + tz is block-uniform. Silent.
__global__ void squareFixedZ(float **dA, int n, int nblocks) {
  __shared__ float s[32][33];
  const int tz = threadIdx.z;
  const int bx = blockIdx.x * blockDim.z + tz;
  if (bx >= nblocks)
    return;
  s[threadIdx.y][threadIdx.x] = dA[bx][threadIdx.y * n + threadIdx.x];
  __syncthreads();
  dA[bx][threadIdx.x * n + threadIdx.y] = s[threadIdx.y][threadIdx.x];
}

// An integer block is 1-D: `k<<<g, nthreads>>>` fixes y = z = 1 too. Silent.
__global__ void integerBlock(float **dA, int n, int batchCount) {
  __shared__ float s[1024];
  const int batchid = blockIdx.x * blockDim.y + threadIdx.y;
  if (batchid >= batchCount)
    return;
  s[threadIdx.x] = dA[batchid][threadIdx.x];
  __syncthreads();
  dA[batchid][threadIdx.x] = s[n - 1 - threadIdx.x];
}

// y fixed at 1 leaves x alone: a return on threadIdx.x before the barrier stays. True.
__global__ void fixedYThreadX(float *a, int n) {
  __shared__ float s[1024];
  if (threadIdx.x + threadIdx.y * 32 >= n)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'fixedYThreadX' may be skipped by part of the block
  // CHECK: :[[@LINE-4]]:5: note:
  a[threadIdx.x] = s[n - 1 - threadIdx.x];
}

void launchAll(float **dA, float *a, int n, int nthreads, int ntcol, int batchCount) {
  dim3 threads(nthreads, 1, 1);
  dim3 grid((batchCount + 0) / 1, 1, 1);
  batchedFixedY<<<grid, threads, 0>>>(dA, n, batchCount);
  batchedFixedY<<<grid, dim3(2 * nthreads, 1, 1)>>>(dA, n, batchCount);
  dim3 threadsCol(nthreads, ntcol, 1);
  dim3 gridCol((batchCount + ntcol - 1) / ntcol, 1, 1);
  batchedRuntimeY<<<gridCol, threadsCol>>>(dA, n, batchCount);
  batchedMixedY<<<grid, threads>>>(dA, n, batchCount);
  batchedMixedY<<<gridCol, threadsCol>>>(dA, n, batchCount);
  squareFixedZ<<<batchCount, dim3(n, n, 1)>>>(dA, n, batchCount);
  integerBlock<<<batchCount, nthreads>>>(dA, n, batchCount);
  fixedYThreadX<<<1, threads>>>(a, n);
}
