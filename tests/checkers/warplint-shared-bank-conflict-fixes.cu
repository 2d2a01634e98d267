// warplint-shared-bank-conflict's fix-it: a shared tile padded by one element per row,
// offered only when the model shows the padded layout conflict-free for every access of
// the array (every instantiation, every launch's block) at no cost in blocks per SM.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fixes.cu
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %t/fixes.cu --export-fixes=%t/fixes.yaml -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=DIAG %s
// RUN: %FileCheck --check-prefix=YAML %s < %t/fixes.yaml
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %t/fixes.cu --fix -- %cuda_device --cuda-gpu-arch=sm_86 >/dev/null 2>&1
// RUN: %FileCheck --check-prefix=FIXED %s < %t/fixes.cu
// After the fix, the padded tiles give no finding (the others still do).
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %t/fixes.cu -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=AFTER --implicit-check-not='warning:' %s
// AFTER: warning: each warp's load of 'd[threadIdx.x][0]'
// AFTER: warning: each warp's load of 's[threadIdx.x][threadIdx.y]'
// AFTER: warning: each warp's store of 't[threadIdx.x][0]'
// AFTER: warning: each warp's load of 't[threadIdx.x][1]'
// AFTER: warning: each warp's store of 'f[threadIdx.x][0]'
// AFTER: warning: each warp's load of 'f[threadIdx.x][1]'
// AFTER: warning: each warp's store of 'big[threadIdx.x][0]'
// AFTER: warning: each warp's load of 'big[threadIdx.x][1]'
// AFTER: warning: each warp's store of 'u[threadIdx.x % 32][0]'
// AFTER: warning: each warp's load of 'u[threadIdx.x % 32][1]'

// The transpose: the column read is 32-way, padded it is conflict-free, and the row
// write stays conflict-free.
__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// DIAG: :[[@LINE-2]]:41: warning: each warp's load of 'tile[threadIdx.x][threadIdx.y]' needs 32
// FIXED: {{^}}  __shared__ float tile[32][33];
// YAML: ReplacementText: '33'

// Padding fixes the column read but makes the diagonal (conflict-free now: 33 words
// apart) 2-way: no fix-it.
__global__ void diagonalWorsens(float *out) {
  __shared__ float d[32][32];
  d[threadIdx.x][threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.x] = d[threadIdx.x][0];
}
// DIAG: :[[@LINE-2]]:22: warning: each warp's load of 'd[threadIdx.x][0]' needs 32
// DIAG: note: no fix-it: padded, 'd[threadIdx.x][threadIdx.x]' in 'diagonalWorsens' with block 32x1x1 would need 2 wavefronts per ideal one
// FIXED: {{^}}  __shared__ float d[32][32];

// 16x16 blocks read a 16x16 tile down its columns: padded it is still 2-way.
__global__ void staysConflicted(float *out) {
  __shared__ float s[16][16];
  s[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
// DIAG: :[[@LINE-2]]:41: warning: each warp's load of 's[threadIdx.x][threadIdx.y]' needs 8
// FIXED: {{^}}  __shared__ float s[16][16];

// A template whose instantiations disagree: W = 32 is 32-way and padding fixes it, but
// W = 31 is conflict-free and padding (32 words a row) makes it 32-way: no fix-it.
template <int W>
__global__ void widths(float *out) {
  __shared__ float t[32][W];
  t[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][1];
}
// DIAG: warning: each warp's store of 't[threadIdx.x][0]' needs 32
// DIAG: note: no fix-it: padded, 't[threadIdx.x][0]' in 'widths<31>' with block 32x1x1 would need 32 wavefronts per ideal one
// FIXED: {{^}}  __shared__ float t[32][W];

// A template whose instantiations agree (16 and 32 rows of 32): the fix pads the extent
// as written.
template <int R>
__global__ void rows(float *out) {
  __shared__ float r[R][32];
  r[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = r[threadIdx.x][1];
}
// FIXED: {{^}}  __shared__ float r[R][33];

// A named extent is padded as written.
#define COLS 32
__global__ void named(float *out) {
  __shared__ float n[32][COLS];
  n[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = n[threadIdx.x][0];
}
// FIXED: {{^}}  __shared__ float n[32][COLS + 1];
// YAML: ReplacementText: 'COLS + 1'

// The array's address is taken (a flat view of it): its layout is the program's, no
// fix-it.
__global__ void flatView(float *out) {
  __shared__ float f[32][32];
  float *flat = &f[0][0];
  flat[threadIdx.x] = 0.f;
  f[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = f[threadIdx.x][1];
}
// DIAG: note: no fix-it: 'f' is used in a way the padded layout is not evaluated for
// FIXED: {{^}}  __shared__ float f[32][32];

// 48 KiB of static shared memory: one more element per row passes the 48 KiB static
// limit, so the padding would make the launch fail: no fix-it.
__global__ void full(float *out) {
  __shared__ float big[96][128];
  big[threadIdx.x][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = big[threadIdx.x][1];
}
// DIAG: note: no fix-it: the padding adds 384 bytes per block, which lowers the blocks per SM of 'full' from 2 to 0 on sm_86
// FIXED: {{^}}  __shared__ float big[96][128];

// No launch gives the block: the shape is assumed, and no fix-it is offered for it.
__global__ void unlaunched(float *out) {
  __shared__ float u[32][32];
  u[threadIdx.x % 32][0] = 1.f;
  __syncthreads();
  out[threadIdx.x] = u[threadIdx.x % 32][1];
}
// FIXED: {{^}}  __shared__ float u[32][32];

void launchAll(float *a, const float *b) {
  transpose<<<1, dim3(32, 32)>>>(a, b);
  diagonalWorsens<<<1, 32>>>(a);
  staysConflicted<<<1, dim3(16, 16)>>>(a);
  widths<32><<<1, 32>>>(a);
  widths<31><<<1, 32>>>(a);
  rows<16><<<1, 16>>>(a);
  rows<32><<<1, 32>>>(a);
  named<<<1, 32>>>(a);
  flatView<<<1, 32>>>(a);
  full<<<1, 96>>>(a);
}
