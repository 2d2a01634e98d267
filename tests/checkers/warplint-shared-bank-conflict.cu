// warplint-shared-bank-conflict: the wavefronts each warp's shared-memory access needs.
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s --config="{CheckOptions: {warplint-shared-bank-conflict.MinConflictWays: 8}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=WAYS8 %s
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s --config="{CheckOptions: {warplint-shared-bank-conflict.MinConflictWays: two}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid MinConflictWays 'two': must be a number from 1 to 1024; using 2

#define TILE 32

// The transpose through a tile with 32x8 blocks: the write along a row is conflict-free,
// the read down a column hits one bank 32 times.
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
  // CHECK: :[[@LINE-1]]:34: warning: each warp's load of 'tile[threadIdx.x][threadIdx.y + j]' needs 32 shared-memory wavefronts (ideal 1): a 32-way bank conflict (block 32x8x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:34: note: consecutive lanes are 128 bytes apart: every lane's word is in the same bank
  // CHECK: :[[@LINE-12]]:20: note: padding each row by one element ('float tile[32][33]') makes the access conflict-free
  // WAYS8: :[[@LINE-4]]:34: warning: each warp's load of 'tile[threadIdx.x][threadIdx.y + j]' needs 32
}

// The same with the padded tile: silent.
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

// tile[ty][tx] against tile[tx][ty] with 16x16 blocks: a warp holds two rows of 16.
__global__ void rowsAndColumns(float *out) {
  __shared__ float s[16][16];
  s[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK: :[[@LINE-1]]:41: warning: each warp's load of 's[threadIdx.x][threadIdx.y]' needs 8 shared-memory wavefronts (ideal 1): a 8-way bank conflict (block 16x16x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:41: note: consecutive lanes are 64 bytes apart: the same bank comes back every 2 lanes
  // CHECK: :[[@LINE-6]]:20: note: padding each row by one element ('float s[16][17]') reduces it to 2 wavefronts per ideal one
  // WAYS8: :[[@LINE-4]]:41: warning: each warp's load of 's[threadIdx.x][threadIdx.y]' needs 8
}

// Dynamic shared memory, strided by 32 floats.
__global__ void dynamicStrided(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x * 32] = 1.f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'dyn[threadIdx.x * 32]' needs 32 shared-memory wavefronts (ideal 1): a 32-way bank conflict (block 128x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:3: note: consecutive lanes are 128 bytes apart: every lane's word is in the same bank
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x];
}

// 8-byte accesses are served per half-warp: consecutive doubles are conflict-free, doubles
// 16 bytes apart are 2-way in each half.
__global__ void doubles(double *out) {
  __shared__ double d[512];
  d[threadIdx.x] = 1.0;
  d[threadIdx.x * 2] = 2.0;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'd[threadIdx.x * 2]' needs 4 shared-memory wavefronts (ideal 2): a 2-way bank conflict (8-byte accesses, served per half-warp) (block 256x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:3: note: consecutive lanes are 16 bytes apart: the same bank comes back every 8 lanes
  // WAYS8-NOT: :[[@LINE-3]]:3:
  __syncthreads();
  out[threadIdx.x] = d[threadIdx.x];
}

// 16-byte accesses are served per quarter-warp: consecutive float4s are conflict-free.
__global__ void vectors(float4 *out) {
  __shared__ float4 v[256];
  v[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = v[255 - threadIdx.x];
  out[threadIdx.x + 256] = v[(threadIdx.x * 2) % 256];
  // CHECK: :[[@LINE-1]]:28: warning: each warp's load of 'v[(threadIdx.x * 2) % 256]' needs 8 shared-memory wavefronts (ideal 4): a 2-way bank conflict (16-byte accesses, served per quarter-warp) (block 256x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:28: note: consecutive lanes are 32 bytes apart: the same bank comes back every 4 lanes
}

// Broadcasts: every lane of a warp reads one word.
__global__ void broadcasts(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[0] + s[threadIdx.x / 32] + s[blockIdx.x % 256];
}

// Through a local row index and a loop over the columns: a row per lane.
__global__ void rowPerLane(float *out) {
  __shared__ float m[32][32];
  int row = threadIdx.x;
  for (int k = 0; k < 32; ++k)
    m[row][k] = k;
  // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 'm[row][k]' needs 32 shared-memory wavefronts (ideal 1): a 32-way bank conflict (block 32x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 128 bytes apart: every lane's word is in the same bank
  // CHECK: :[[@LINE-6]]:20: note: padding each row by one element ('float m[32][33]') makes the access conflict-free
  __syncthreads();
  float sum = 0.f;
  for (int k = 0; k < 32; ++k)
    sum += m[k][row];
  out[row] = sum;
}

// The interleaved reduction with contiguous threads: index = 2 * s * tid conflicts, more
// as s grows; the sequential reduction does not.
__global__ void reduceStrided(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    // The median of s = 1, 2, 16, 128 in the warps that reach the access: 4-way.
    // CHECK: :[[@LINE-2]]:7: warning: each warp's load and store of 'sdata[index]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict (block 256x1x1) [warplint-shared-bank-conflict]
    // CHECK: :[[@LINE-3]]:7: note: consecutive lanes are 16 bytes apart: the same bank comes back every 8 lanes
    // CHECK: :[[@LINE-4]]:7: note: up to 8 wavefronts (ideal 1, a 8-way conflict) in warp 0 (block 256x1x1)
    // CHECK: :[[@LINE-5]]:23: warning: each warp's load of 'sdata[index + s]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict (block 256x1x1) [warplint-shared-bank-conflict]
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceSequential(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Dynamic shared memory through a helper (cuda-samples' SharedMemory<T>).
template <class T> struct SharedMemory {
  __device__ operator T *() {
    extern __shared__ int smem[];
    return (T *)smem;
  }
};

template <class T> __global__ void reduceHelper(T *out) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  out[tid] = sdata[tid * 4];
  // CHECK: :[[@LINE-1]]:14: warning: each warp's load of 'sdata[tid * 4]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict (block 128x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:14: note: consecutive lanes are 16 bytes apart: the same bank comes back every 8 lanes
}

// No launch: the shape assumed is said.
__global__ void noLaunch(float *out) {
  __shared__ float s[64][32];
  s[threadIdx.x % 64][threadIdx.x / 64] = 0.f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 's[threadIdx.x % 64][threadIdx.x / 64]' needs 32 shared-memory wavefronts (ideal 1): a 32-way bank conflict (block 256x1x1 assumed) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:3: note: consecutive lanes are 128 bytes apart: every lane's word is in the same bank
  // CHECK: :[[@LINE-4]]:20: note: padding each row by one element ('float s[64][33]') makes the access conflict-free
  // CHECK: :[[@LINE-6]]:17: note: no launch of 'noLaunch' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x % 32];
}

void launchAll(float *a, float *b, double *d, float4 *v, int n) {
  transposeTile<<<dim3(8, 8), dim3(TILE, 8)>>>(a, b, n);
  transposePadded<<<dim3(8, 8), dim3(TILE, 8)>>>(a, b, n);
  rowsAndColumns<<<1, dim3(16, 16)>>>(a);
  dynamicStrided<<<1, 128, 128 * 32 * sizeof(float)>>>(a);
  doubles<<<1, 256>>>(d);
  vectors<<<1, 256>>>(v);
  broadcasts<<<4, 256>>>(a);
  rowPerLane<<<1, 32>>>(a);
  reduceStrided<<<64, 256>>>(a, b);
  reduceSequential<<<64, 256>>>(a, b);
  reduceHelper<float><<<1, 128, 128 * sizeof(float)>>>(a);
}
