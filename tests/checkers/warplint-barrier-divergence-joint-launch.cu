// warplint-barrier-divergence and warplint-warp-sync-mask when the launch's grid, block and
// arguments are computed from the same run-time values (issue 23, twenty-second session:
// ccminer's and xmrig-cuda's cryptonight phases, `dim3 grid(blocks); dim3 block8(threads
// << 3); phase1<<<grid, block8>>>(blocks * threads, ...)`, guard `thread < threads` with
// `thread = global index >> 3`; ccminer's compaction ADD, `<<<thr1 - 1, 256>>>(..., n)`
// with thr1 = (n + 255) / 256 and `if (id > n) return;`). Sampled apart, the guard leaves a
// tail; sampled together (every launch, the same values for the grid, the block and the
// arguments, the first and the last block), no thread leaves: a note that says so. A guard
// whose limit reads a value the grid and block do not (a start offset, a size passed
// beside them) stays a warning, and so does a grid rounded up past the limit.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ void work(unsigned *s, unsigned *state, unsigned t) { s[threadIdx.x % 1024] = state[t]; }

// The grid covers exactly `threads` items of 8 threads each: a note.
__global__ void phase1(unsigned threads, unsigned *state) {
  __shared__ unsigned s[1024];
  const unsigned thread = (blockDim.x * blockIdx.x + threadIdx.x) >> 3;
  if (thread < threads) {
    work(s, state, thread);
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: remark: '__syncthreads()' in kernel 'phase1' may be skipped by part of the block: it is inside 'if (thread < threads)', which depends on the thread
    // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: at the launch in this file, the grid, the block and the arguments, computed from the same values of 'blocks', 'threads' ({{[0-9]+}} samples), bring every thread of the first and the last block to it
    state[thread] = s[(threadIdx.x + 1) % 1024];
  }
}
void runPhase1(unsigned blocks, unsigned threads, unsigned *state) {
  dim3 grid(blocks);
  dim3 block8(threads << 3);
  const unsigned throughput = blocks * threads;
  phase1<<<grid, block8>>>(throughput, state);
}

// The same through a context structure the launching function only reads: a note.
struct Ctx {
  unsigned blocks, threads;
  unsigned *state;
};
__global__ void phase3(int threads, unsigned *state) {
  __shared__ unsigned s[1024];
  const int thread = (blockDim.x * blockIdx.x + threadIdx.x) >> 3;
  if (thread >= threads)
    return;
  work(s, state, thread);
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: remark: '__syncthreads()' in kernel 'phase3' may be skipped by part of the block: the threads whose 'thread' is at or past 'threads'
  // CHECK: :[[@LINE-2]]:3: note: a note, not a warning: at the launch in this file, the grid, the block and the arguments, computed from the same values of 'ctx->blocks', 'ctx->threads' ({{[0-9]+}} samples)
  state[thread] = s[(threadIdx.x + 1) % 1024];
}
void runPhase3(Ctx *ctx) {
  dim3 grid(ctx->blocks);
  dim3 block8(ctx->threads << 3);
  phase3<<<grid, block8>>>(ctx->blocks * ctx->threads, ctx->state);
}

// A uniform add over all blocks but the first: its grid stops short of n. A note.
unsigned roundUpPow2(unsigned v);
__global__ void uniformAdd(unsigned *data, const unsigned *sums, int len) {
  __shared__ unsigned buf;
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id > len)
    return;
  if (threadIdx.x == 0)
    buf = sums[blockIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: remark: '__syncthreads()' in kernel 'uniformAdd' may be skipped by part of the block: the threads whose 'id' is at or past 'len'
  // CHECK: :[[@LINE-2]]:3: note: a note, not a warning: at the launch in this file, the grid, the block and the arguments, computed from the same values of 'roundUpPow2(n)'
  data[id] += buf;
}
void runAdd(unsigned *data, const unsigned *sums, unsigned n) {
  n = roundUpPow2(n);
  int blockSize = 256;
  int thr1 = (n + blockSize - 1) / blockSize;
  int small = (thr1 < blockSize) ? thr1 : blockSize; // an lvalue `?:`: blockSize only read
  (void)small;
  uniformAdd<<<thr1 - 1, blockSize>>>(data + blockSize, sums, n);
}

// A grid rounded up past n: the last block has a tail for most n. A warning.
__global__ void roundedUp(float *p, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = p[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'roundedUp' may be skipped by part of the block: the threads whose 'i' is at or past 'n'
  p[i] = s[255 - threadIdx.x];
}
void runRounded(float *p, int n) { roundedUp<<<(n + 255) / 256, 256>>>(p, n); }

// The limit reads a value the grid and the block do not (a start offset moved by a loop):
// sampled on its own, as before. A warning.
__global__ void fromStart(float *p, unsigned start, unsigned n) {
  __shared__ float s[32];
  unsigned i = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = p[i];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'fromStart' may be skipped by part of the block: the threads whose 'i' is at or past 'n'
  p[i] = s[31 - threadIdx.x];
}
void runFromStart(float *p, unsigned n) {
  for (unsigned i = 0; i < n; i += 8192 * 32)
    fromStart<<<8192, 32>>>(p, i, n);
}

// A warp-synchronous scan whose group width is the smaller of a warp and the block, both
// from one value (ccminer's `<<<1, thr2>>>(..., thr2 > 32 ? 32 : thr2)`), in blocks of a
// power of two: whole warps in group 0 at every launch. A note.
__global__ void scanGroups(int *data, int width) {
  int warp = threadIdx.x / width;
  int v = data[threadIdx.x];
  if (warp == 0) {
    for (int d = 1; d < 32; d *= 2) {
      int o = __shfl_up_sync(0xffffffffu, v, d);
      // CHECK: :[[@LINE-1]]:15: remark: mask 0xffffffff of '__shfl_up_sync()' in kernel 'scanGroups' names lanes that may not take part: it is inside 'if (warp == 0)', which depends on the thread
      // CHECK: :[[@LINE-2]]:15: note: a note, not a warning: at the launch in this file, the grid, the block and the arguments, computed from the same values of 'logBlock' ({{[0-9]+}} samples), bring every named lane of the first and the last block to it
      if (threadIdx.x % 32 >= d)
        v += o;
    }
    data[threadIdx.x] = v;
  }
}
void runScan(int *data, unsigned logBlock) {
  unsigned threads = 1u << (logBlock % 11);
  scanGroups<<<1, threads>>>(data, threads > 32 ? 32 : threads);
}
