// warplint-data-race: a word one thread writes and another touches between the same barriers.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.ReportBenign: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BENIGN %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_60 2>&1 | %FileCheck --check-prefix=SM60 %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.AssumedBlockSize: 33}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid AssumedBlockSize 33: must be a multiple of 32 from 32 to 1024; using 256

__device__ float opaque(float);

// The tree reduction with its barrier: silent.
__global__ void reduceWithBarrier(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The same without the barrier in the loop: thread 0 reads s[64] at k = 64 while
// thread 64 updated it at k = 128.
__global__ void reduceNoBarrier(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    // CHECK: :[[@LINE-1]]:17: warning: data race on shared 's[64]': thread 64 updates it (s[tid], line [[@LINE-1]]) and thread 0 reads it (s[tid + k], line [[@LINE-1]]) with no barrier between (within the loop at line [[@LINE-3]], which has no barrier) (block 256x1x1) [warplint-data-race]
    // CHECK: :[[@LINE-2]]:7: note: the other access to 's[64]'
    // CHECK: :[[@LINE-3]]:17: note: a __syncthreads() in the loop at line [[@LINE-5]], between the accesses, separates them
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The same tail written for a template block size (astra's reduce1D<N>): each step under
// `if (blockSize >= K)`, a test of the instantiation's constant, known (before, any `if`
// whose condition had no recorded value hid its accesses from the check). A step the
// block size rules out never runs: its race for another size is no finding. Two
// instantiations with the same race: one finding (cudpp's reduce gave 50 at one line).
template <unsigned blockSize>
__global__ void templateTail(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (blockSize >= 512)
    s[tid] += s[tid ^ 1];
  if (tid < 32) {
    volatile float *v = s;
    if (blockSize >= 64)
      v[tid] += v[tid + 32];
    if (blockSize >= 32)
      v[tid] += v[tid + 16];
    // CHECK: :[[@LINE-1]]:17: warning: data race on shared 's[16]': thread 16 updates it (v[tid], line [[@LINE-3]]) and thread 0 reads it (v[tid + 16], line [[@LINE-1]]) in the same warp with no __syncwarp() between (block 64x1x1); 1 more pair of accesses to 's' race in the same interval; the same race on 's' in 1 more instantiation of the kernel [warplint-data-race]
    // CHECK: :[[@LINE-4]]:7: note: the other access to 's[16]'
    // CHECK: :[[@LINE-3]]:17: note: since sm_70
    // CHECK: :[[@LINE-4]]:17: note: 'volatile' makes each access reach memory
    // CHECK: :[[@LINE-5]]:17: note: the same race in 'templateTail<128U>'
    // SM60: :[[@LINE-6]]:17: remark: data race on shared 's[16]'
    // SM60: :[[@LINE-7]]:17: note: on sm_60 the warp runs in lockstep
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// One thread stores, in the arm a type's size picks (HeCBench's bitpacking): the arm the
// constant rules out has no path of its own and never runs; no race.
template <typename LIMIT>
__global__ void oneWriter(const int *in, int *bits) {
  __shared__ int buf[64];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    if (sizeof(LIMIT) > sizeof(int))
      *bits = 64 - buf[1];
    else
      *bits = 32 - buf[1];
  }
}

// The old warp-synchronous tail: 'volatile' keeps every access in memory, but since
// sm_70 the lanes of a warp are not in lockstep.
__global__ void volatileTail(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = s;
    v[tid] += v[tid + 16];
    // CHECK: :[[@LINE-1]]:15: warning: data race on shared 's[16]': thread 16 updates it (v[tid], line [[@LINE-1]]) and thread 0 reads it (v[tid + 16], line [[@LINE-1]]) in the same warp with no __syncwarp() between (block 64x1x1); 3 more pairs of accesses to 's' race in the same interval [warplint-data-race]
    // CHECK: :[[@LINE-2]]:5: note: the other access to 's[16]'
    // CHECK: :[[@LINE-3]]:15: note: since sm_70 (independent thread scheduling) the lanes of a warp are not in lockstep: a __syncwarp() between the accesses separates them
    // CHECK: :[[@LINE-4]]:15: note: 'volatile' makes each access reach memory but does not order the accesses of different threads
    // SM60: :[[@LINE-5]]:15: remark: data race on shared 's[16]': thread 16 updates it
    // SM60: :[[@LINE-6]]:15: note: on sm_60 the warp runs in lockstep; from sm_70 on (independent thread scheduling) this is a race: put a __syncwarp() between the accesses
    v[tid] += v[tid + 8];
  }
  __syncthreads();
  if (tid == 0)
    out[0] = s[0];
}

// A 2-D block: a tile transposed in place without a barrier.
__global__ void transposeInPlace(float *out) {
  __shared__ float tile[16][16];
  unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = out[y * 16 + x];
  out[y * 16 + x] = tile[x][y];
  // CHECK: :[[@LINE-1]]:21: warning: data race on shared 'tile[2][0]': thread (0, 2) writes it (tile[y][x], line [[@LINE-2]]) and thread (2, 0) reads it (tile[x][y], line [[@LINE-1]]) with no barrier between (block 16x16x1) [warplint-data-race]
  // CHECK: :[[@LINE-3]]:3: note: the other access to 'tile[2][0]'
  // CHECK: :[[@LINE-3]]:21: note: a __syncthreads() between line [[@LINE-4]] and line [[@LINE-3]] separates them
}

// The same with its barrier: silent.
__global__ void transposeTile(float *out) {
  __shared__ float tile[16][16];
  unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = out[y * 16 + x];
  __syncthreads();
  out[y * 16 + x] = tile[x][y];
}

// The global in-place stencil: thread i reads A[i + 1], which thread i + 1 writes, in
// the same block and across the block boundary.
__global__ void stencilInPlace(float *A) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = A[i + 1];
  // CHECK: :[[@LINE-1]]:10: warning: data race on global 'A[32]': thread 32 writes it (A[i], line [[@LINE-1]]) and thread 31 reads it (A[i + 1], line [[@LINE-1]]) with no barrier between (block 128x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: the other access to 'A[32]'
  // CHECK: :[[@LINE-3]]:10: note: thread 0 of block 1 and thread 127 of block 0 collide too: no __syncthreads() orders threads of different blocks
  // CHECK: :[[@LINE-4]]:10: note: write the result to a separate array, or split the kernel where the blocks must see each other's writes
}

// To a separate output array: silent.
__global__ void stencilOut(float *B, const float *A) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  B[i] = A[i + 1];
}

// Every thread writes 0 to the same word: a benign race, reported with ReportBenign.
__global__ void sameValue(int *A) {
  __shared__ int flag[4];
  flag[0] = 0;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on shared 'flag[0]': thread 0 writes it (flag[0], line [[@LINE-1]]) and thread 32 writes it (flag[0], line [[@LINE-1]]) with no barrier between; both write the same value (block 64x1x1) [warplint-data-race]
  __syncthreads();
  A[threadIdx.x] = flag[0];
}

// Every thread writes its own index to one word: a race.
__global__ void differentValues(int *A) {
  __shared__ int last;
  last = threadIdx.x;
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'last': thread 0 writes it (last, line [[@LINE-1]]) and thread 32 writes it (last, line [[@LINE-1]]) with no barrier between (block 64x1x1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before it is read
  __syncthreads();
  A[threadIdx.x] = last;
}

// Atomics are not races.
__global__ void histogram(int *bins, const int *keys) {
  __shared__ int h[32];
  h[threadIdx.x % 32] = 0;
  __syncthreads();
  atomicAdd(&h[keys[threadIdx.x] % 32], 1);
  __syncthreads();
  if (threadIdx.x < 32)
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// An unknown call between barriers: the check stops there and says so.
__global__ void unknownCall(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = opaque(1.f);
  // CHECK: :[[@LINE-1]]:20: note: the race check stops at the call to opaque in 'unknownCall' (its body is not in this file)
  out[threadIdx.x] = s[threadIdx.x + 1];
}

// A barrier in a helper function separates the accesses: silent.
__device__ void blockSync() { __syncthreads(); }
__global__ void helperBarrier(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  blockSync();
  out[threadIdx.x] = s[127 - threadIdx.x];
}

// A parameter no launch fixes decides the race: it races for offset = 1 (and 32, 33),
// not for 1000 (past the block). Those are sampled values, not the program's: a note that
// says the race depends on the value (real values before sampled ones).
__global__ void shifted(int *A, int offset) {
  int t = A[threadIdx.x + offset];
  A[threadIdx.x] = t;
  // CHECK: :[[@LINE-1]]:3: remark: data race on global 'A[32]': thread 31 reads it (A[threadIdx.x + offset], line [[@LINE-2]]) and thread 32 writes it (A[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x1x1, offset = 1 sampled)
  // CHECK: :[[@LINE-2]]:3: note: a note, not a warning: whether it races depends on run-time values no launch in this file fixes (sampled offset: 1, 32, 33, 1000): it races for offset = 1, not for every sampled value
  // CHECK: :[[@LINE-4]]:11: note: the other access to 'A[32]'
  // CHECK: :[[@LINE-4]]:3: note: a __syncthreads() between line [[@LINE-5]] and line [[@LINE-4]] separates them
}

// The same kernel where every launch passes a constant: a real value, so a warning.
__global__ void shiftedKnown(int *A, int offset) {
  int t = A[threadIdx.x + offset];
  A[threadIdx.x] = t;
  // CHECK: :[[@LINE-1]]:3: warning: data race on global 'A[32]': thread 31 reads it (A[threadIdx.x + offset], line [[@LINE-2]]) and thread 32 writes it (A[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x1x1, offset = 1) [warplint-data-race]
  // CHECK: :[[@LINE-3]]:11: note: the other access to 'A[32]'
  // CHECK: :[[@LINE-3]]:3: note: a __syncthreads() between line [[@LINE-4]] and line [[@LINE-3]] separates them
}

// A launch passes 1000 (no race) and one passes 1 (a race): a warning with the value that
// races, and a note that the other value does not.
__global__ void shiftedTwo(int *A, int offset) {
  int t = A[threadIdx.x + offset];
  A[threadIdx.x] = t;
  // CHECK: :[[@LINE-1]]:3: warning: data race on global 'A[32]': thread 31 reads it (A[threadIdx.x + offset], line [[@LINE-2]]) and thread 32 writes it (A[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x1x1, offset = 1) [warplint-data-race]
  // CHECK: :[[@LINE-3]]:11: note: the other access to 'A[32]'
  // CHECK: :[[@LINE-3]]:3: note: a __syncthreads() between line [[@LINE-4]] and line [[@LINE-3]] separates them
  // CHECK: :[[@LINE-4]]:3: note: it races when offset = 1 (a value a launch in this file passes); the other values its launches pass do not
}

// Every thread writes its index to s[k], whatever k: a race for every sampled value, so
// a warning that says the value was not needed.
__global__ void anySlot(int *A, int k) {
  __shared__ int s[64];
  s[k] = threadIdx.x;
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 's[1]': thread 0 writes it (s[k], line [[@LINE-1]]) and thread 32 writes it (s[k], line [[@LINE-1]]) with no barrier between (block 64x1x1, every sampled value of 'k') [warplint-data-race]
  // CHECK: :[[@LINE-2]]:3: note: let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before it is read
  __syncthreads();
  A[threadIdx.x] = s[threadIdx.x];
}

// No launch: the assumed block (256 by default). The race needs threads 64 apart in x:
// with a block of 32x1 (or 32x8) the two accesses do not collide, so a note.
__global__ void noLaunch(int *A) {
  __shared__ int s[256];
  s[threadIdx.x] = A[threadIdx.x];
  A[threadIdx.x] = s[(threadIdx.x + 64) % 256];
  // CHECK: :[[@LINE-1]]:20: remark: data race on shared 's[64]': thread 64 writes it (s[threadIdx.x], line [[@LINE-2]]) and thread 0 reads it (s[(threadIdx.x + 64) % 256], line [[@LINE-1]]) with no barrier between (block 256x1x1 assumed)
  // CHECK: :[[@LINE-2]]:20: note: a note, not a warning: no launch in this file gives the block shape, and with a block of 32x1x1 these two accesses do not collide
  // CHECK: :[[@LINE-4]]:3: note: the other access to 's[64]'
  // CHECK: :[[@LINE-4]]:20: note: a __syncthreads() between line [[@LINE-5]] and line [[@LINE-4]] separates them
  // CHECK: :[[@LINE-8]]:17: note: no launch of 'noLaunch' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
}

// No launch, and a race every block at least a warp wide has (neighbours in x): a
// warning even with the block assumed.
__global__ void noLaunchNeighbour(int *A) {
  __shared__ int s[1024];
  s[threadIdx.x] = A[threadIdx.x];
  A[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK: :[[@LINE-1]]:20: warning: data race on shared 's[32]': thread 32 writes it (s[threadIdx.x], line [[@LINE-2]]) and thread 31 reads it (s[threadIdx.x + 1], line [[@LINE-1]]) with no barrier between (block 256x1x1 assumed) [warplint-data-race]
  // CHECK: :[[@LINE-3]]:3: note: the other access to 's[32]'
  // CHECK: :[[@LINE-3]]:20: note: a __syncthreads() between line [[@LINE-4]] and line [[@LINE-3]] separates them
  // CHECK: :[[@LINE-7]]:17: note: no launch of 'noLaunchNeighbour' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
}

void launch(float *f, const float *g, int *i, const int *k, int n) {
  reduceWithBarrier<<<64, 256>>>(f, g);
  reduceNoBarrier<<<64, 256>>>(f, g);
  volatileTail<<<1, 64>>>(f, g);
  templateTail<64><<<1, 64>>>(f, g);
  templateTail<128><<<1, 128>>>(f, g);
  oneWriter<long long><<<1, 64>>>(k, i);
  oneWriter<int><<<1, 64>>>(k, i);
  transposeInPlace<<<1, dim3(16, 16)>>>(f);
  transposeTile<<<1, dim3(16, 16)>>>(f);
  stencilInPlace<<<8, 128>>>(f);
  stencilOut<<<8, 128>>>(f, g);
  sameValue<<<1, 64>>>(i);
  differentValues<<<1, 64>>>(i);
  histogram<<<1, 256>>>(i, k);
  unknownCall<<<1, 128>>>(f);
  helperBarrier<<<1, 128>>>(f);
  shifted<<<1, 128>>>(i, n);
  shiftedKnown<<<1, 128>>>(i, 1);
  shiftedTwo<<<1, 128>>>(i, 1);
  shiftedTwo<<<1, 128>>>(i, 1000);
  anySlot<<<1, 64>>>(i, n);
}
