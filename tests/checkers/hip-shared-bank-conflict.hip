// warplint-shared-bank-conflict on HIP: LDS is taken as 32 banks of 4 bytes (GCN/CDNA),
// serving 32 lanes of a wavefront at a time for 4-byte accesses (a wave64 in two
// halves); the message names the wavefront's width and counts LDS passes (on AMD a
// "wavefront" is the wave itself).
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s -- %hip_gfx90a 2>&1 | %check_diags --check-prefix=W64 %s
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s -- %hip_gfx1030 2>&1 | %check_diags --check-prefix=W32 %s

#define TILE 32

// The transpose through a tile with 32x8 workgroups: the read down a column hits one bank
// 32 times in each half of a wave64.
__global__ void transposeTile(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  // W64: :[[@LINE-1]]:34: warning: each wavefront's (64 lanes) load of 'tile[threadIdx.x][threadIdx.y + j]' needs 64 LDS passes of 32 lanes (ideal 2) over 32 banks of 4 bytes: a 32-way bank conflict (block 32x8x1) [warplint-shared-bank-conflict]
  // W64: :[[@LINE-2]]:34: note: consecutive lanes are 128 bytes apart: every lane's word is in the same bank
  // W64: :[[@LINE-12]]:20: note: padding each row by one element ('float tile[32][33]') makes the access conflict-free
  // W32: :[[@LINE-4]]:34: warning: each wavefront's (32 lanes) load of 'tile[threadIdx.x][threadIdx.y + j]' needs 32 LDS passes of 32 lanes (ideal 1) over 32 banks of 4 bytes: a 32-way bank conflict (block 32x8x1) [warplint-shared-bank-conflict]
  // W32: :[[@LINE-5]]:34: note: consecutive lanes are 128 bytes apart
  // W32: :[[@LINE-15]]:20: note: padding each row by one element
}

// Every other word: a 2-way conflict in every 32-lane pass.
__global__ void evens(float *out) {
  __shared__ float s[512];
  s[threadIdx.x * 2] = 1.0f;
  // W64: :[[@LINE-1]]:3: warning: each wavefront's (64 lanes) store of 's[threadIdx.x * 2]' needs 4 LDS passes of 32 lanes (ideal 2) over 32 banks of 4 bytes: a 2-way bank conflict (block 256x1x1) [warplint-shared-bank-conflict]
  // W64: :[[@LINE-2]]:3: note: consecutive lanes are 8 bytes apart: the same bank comes back every 16 lanes
  // W32: :[[@LINE-3]]:3: warning: each wavefront's (32 lanes) store of 's[threadIdx.x * 2]' needs 2 LDS passes of 32 lanes (ideal 1) over 32 banks of 4 bytes: a 2-way bank conflict (block 256x1x1) [warplint-shared-bank-conflict]
  // W32: :[[@LINE-4]]:3: note: consecutive lanes are 8 bytes apart
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The padded tile and consecutive words: silent.
__global__ void transposePadded(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

void run(float *o, const float *i, int w) {
  transposeTile<<<dim3(8, 8), dim3(32, 8)>>>(o, i, w);
  evens<<<1, 256>>>(o);
  transposePadded<<<dim3(8, 8), dim3(32, 8)>>>(o, i, w);
}
