// warplint-data-race: a store of an element's own value (`la[td] = la[td];`) is no write
// (issue 23, twenty-ninth session: KBLAS's symmetric and Hermitian matrix-vector kernels
// mirror a tile so, the arm that keeps an entry storing it back). The compiler drops the
// store and memory keeps what it held, so another thread reading the entry meanwhile reads
// the same word: silent. The twin stores a new value there: a race.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void mirror(float *A, int lda) {
  __shared__ float la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  la[td] = A[ty * 32 + tx];
  __syncthreads();
  if (ty > tx)
    la[td] = la[tx * 32 + ty];
  else
    la[td] = la[td];
  __syncthreads();
  A[ty * 32 + tx] = la[td];
}

__global__ void mirrorScaled(float *A, int lda) {
  __shared__ float la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  la[td] = A[ty * 32 + tx];
  __syncthreads();
  if (ty > tx)
    la[td] = la[tx * 32 + ty];
  else
    la[td] = la[td] * 2.f;
  // CHECK: :[[@LINE-1]]:5: warning: data race on shared 'la[1]': thread (0, 1) reads it (la[tx * 32 + ty], line 29) and thread (1, 0) writes it (la[td], line 31)
  __syncthreads();
  A[ty * 32 + tx] = la[td];
}

void launch(float *A, int lda) {
  mirror<<<1, dim3(32, 32)>>>(A, lda);
  mirrorScaled<<<1, dim3(32, 32)>>>(A, lda);
}
