// warplint-data-race: a store of an element's own value (`la[td] = la[td];`) is no write
// (issue 23, twenty-ninth session: KBLAS's symmetric and Hermitian matrix-vector kernels
// mirror a tile so, the arm that keeps an entry storing it back). The compiler drops the
// store and memory keeps what it held, so another thread reading the entry meanwhile reads
// the same word: silent. The twin stores a new value there: a race. A class value's copy
// (a complex number's struct) is the same, its load dropped with its store.
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
  // CHECK: :[[@LINE-1]]:5: warning: data race on shared 'la[1]': thread (0, 1) reads it (la[tx * 32 + ty], line {{[0-9]+}}) and thread (1, 0) writes it (la[td], line {{[0-9]+}})
  __syncthreads();
  A[ty * 32 + tx] = la[td];
}

struct cplx {
  float re, im;
};
__device__ cplx conj(cplx a) { return {a.re, -a.im}; }
__device__ cplx realPart(cplx a) { return {a.re, 0.f}; }

// The upper mirror of a Hermitian tile of complex numbers (KBLAS's zhemv): the lanes above
// the diagonal store their own entry back (a struct copy, dropped), the others the
// conjugate of the mirrored one; then the first row makes the diagonal real. The
// diagonal's lane (1, 1) writes la[33] in the mirror and lane (1, 0) writes it again in
// the next statement with no barrier between: a real race, named as such.
__global__ void hermitianUpper(cplx *A, int n) {
  __shared__ cplx la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  la[td] = A[td];
  __syncthreads();
  if (ty > tx)
    la[td] = la[td];
  else
    la[td] = conj(la[tx * 32 + ty]);
  if (ty == 0)
    la[tx * 32 + tx] = realPart(la[tx * 32 + tx]);
  // CHECK: :[[@LINE-1]]:5: warning: data race on shared 'la[33]': thread (1, 1) writes it (la[td], line {{[0-9]+}}) and thread (1, 0) writes it (la[tx * 32 + tx], line {{[0-9]+}})
  __syncthreads();
  A[td] = la[td];
}

// The lower mirror: the self-stores are on the diagonal's lanes, whose entries the first
// row then rewrites; a dropped store neither reads nor writes, so no race.
__global__ void hermitianLower(cplx *A, int n) {
  __shared__ cplx la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  la[td] = A[td];
  __syncthreads();
  if (ty > tx)
    la[td] = conj(la[tx * 32 + ty]);
  else
    la[td] = la[td];
  if (ty == 0)
    la[tx * 32 + tx] = realPart(la[tx * 32 + tx]);
  __syncthreads();
  A[td] = la[td];
}

void launch(float *A, int lda) {
  mirror<<<1, dim3(32, 32)>>>(A, lda);
  mirrorScaled<<<1, dim3(32, 32)>>>(A, lda);
}

void launchComplex(cplx *A, int n) {
  hermitianUpper<<<1, dim3(32, 32)>>>(A, n);
  hermitianLower<<<1, dim3(32, 32)>>>(A, n);
}
