// warplint-barrier-divergence: values that are the same at the same lane of every warp
// (issue 23, fifteenth session: PhysX's `*_ReadWarp` helpers and block-wide counts).
// Lane k loads word k of a struct at a block-wide address (`ptr[lane]`, lane =
// threadIdx.x & 31) and `__shfl_sync(FULL_MASK, input, k)` hands word k to every lane:
// every warp reads the same words, so the result is the block's value, not only the
// warp's. The same goes for a butterfly, a shuffle scan or a vote over such values
// (`perWarpCount[lane]` after a barrier), and for member reads through a reference bound
// to a `__shared__` buffer, or through a reference parameter handed on to a helper. An
// address with the warp or the whole thread index in it, a shuffle over 16-lane segments,
// a source lane that varies, or a thread's own array filled from its own data: reported.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#define FULL_MASK 0xffffffffu
#define TRIPS(n)                                                                           \
  for (unsigned i = 0; i < (n); ++i) {                                                     \
    s[threadIdx.x] = float(i);                                                             \
    __syncthreads();                                                                       \
    out[i * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];                \
    __syncthreads();                                                                       \
  }

struct Shape {
  int count;
  struct {
    int lo, hi;
  } range;
  int type;
};

// The words of one struct spread over lanes 0-3 and broadcast back, through a reference
// parameter and a nested member.
__device__ void readWarp(Shape &res, const Shape *ptr) {
  const unsigned lane = threadIdx.x & 31;
  int input;
  if (lane < 4)
    input = reinterpret_cast<const int *>(ptr)[lane];
  res.count = __shfl_sync(FULL_MASK, input, 0);
  res.range.lo = __shfl_sync(FULL_MASK, input, 1);
  res.range.hi = __shfl_sync(FULL_MASK, input, 2);
  res.type = __shfl_sync(FULL_MASK, input, 3);
}
// A helper handing its own reference parameter on.
__device__ void readPair(const Shape *shapes, unsigned idx, Shape &a) { readWarp(a, shapes + idx); }

// Silent: the trip count is the block's.
__global__ void broadcastStruct(const Shape *shapes, float *out) {
  __shared__ float s[256];
  Shape sh;
  readPair(shapes, blockIdx.x, sh);
  TRIPS(unsigned(sh.count))
}

// Silent: the struct read by warp 0 into a `__shared__` buffer, read after the barrier
// through a reference bound to that buffer.
__global__ void sharedReference(const Shape *shapes, float *out) {
  __shared__ float s[256];
  __shared__ int buffer[sizeof(Shape) / sizeof(int)];
  Shape &sh = reinterpret_cast<Shape &>(*buffer);
  if (threadIdx.x < 32)
    readWarp(sh, shapes + blockIdx.x);
  __syncthreads();
  TRIPS(unsigned(sh.count))
}

// Silent: each warp's count stored at its index, summed by every warp over the same 32
// words with a butterfly, then scanned with up-shuffles and the total taken from lane 31.
__global__ void blockCount(const int *flags, float *out) {
  __shared__ float s[256];
  __shared__ int perWarp[32];
  const unsigned lane = threadIdx.x & 31;
  unsigned mask = __ballot_sync(FULL_MASK, flags[blockIdx.x * 256 + threadIdx.x] != 0);
  if (lane == 0)
    perWarp[threadIdx.x / 32] = int(mask & 1u);
  if (threadIdx.x < 32 && threadIdx.x >= 8)
    perWarp[threadIdx.x] = 0;
  __syncthreads();
  int sum = perWarp[lane];
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(FULL_MASK, sum, offset);
  TRIPS(unsigned(sum))
  int scan = perWarp[lane];
  for (int d = 1; d < 32; d *= 2) {
    int up = __shfl_up_sync(FULL_MASK, scan, d);
    if (lane >= unsigned(d))
      scan += up;
  }
  int total = __shfl_sync(FULL_MASK, scan, 31);
  TRIPS(unsigned(total))
  unsigned any = __ballot_sync(FULL_MASK, perWarp[lane] > 0);
  TRIPS(any & 7u)
}

// The whole thread index in the address: each warp loads other words. Reported.
__global__ void wholeIndex(const int *words, float *out) {
  __shared__ float s[256];
  int input = words[blockIdx.x * 256 + threadIdx.x];
  int n = __shfl_sync(FULL_MASK, input, 4);
  TRIPS(unsigned(n))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'wholeIndex' may be skipped by part of the block
}

// The warp's index in the address. Reported.
__global__ void perWarpWords(const int *words, float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x & 31;
  int input = words[(threadIdx.x / 32) * 8 + lane];
  int n = __shfl_sync(FULL_MASK, input, 4);
  TRIPS(unsigned(n))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'perWarpWords' may be skipped by part of the block
}

// Segments of 16 lanes: the upper half reads lane 20. Reported.
__global__ void halfSegments(const int *words, float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x & 31;
  int input = words[blockIdx.x * 32 + lane];
  int n = __shfl_sync(FULL_MASK, input, 4, 16);
  TRIPS(unsigned(n))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'halfSegments' may be skipped by part of the block
}

// A source lane that varies: each lane reads its neighbour's word. Reported.
__global__ void neighbourLane(const int *words, float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x & 31;
  int input = words[blockIdx.x * 32 + lane];
  int n = __shfl_sync(FULL_MASK, input, int(lane ^ 1));
  TRIPS(unsigned(n))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'neighbourLane' may be skipped by part of the block
}

// A thread's own array, filled from its own words in a loop and read at the lane: not the
// same in every warp (nor is its first element the same in every thread). Reported.
__global__ void ownArray(const int *words, float *out) {
  __shared__ float s[256];
  const unsigned lane = threadIdx.x & 31;
  int r[32];
  for (int k = 0; k < 32; ++k)
    r[k] = words[threadIdx.x * 32 + k];
  int n = __shfl_sync(FULL_MASK, r[lane], 0);
  TRIPS(unsigned(n))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'ownArray' may be skipped by part of the block
  TRIPS(unsigned(r[0]))
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'ownArray' may be skipped by part of the block
}

void launchAll(const Shape *sh, const int *w, float *o) {
  broadcastStruct<<<8, 256>>>(sh, o);
  sharedReference<<<8, 256>>>(sh, o);
  blockCount<<<8, 256>>>(w, o);
  wholeIndex<<<8, 256>>>(w, o);
  perWarpWords<<<8, 256>>>(w, o);
  halfSegments<<<8, 256>>>(w, o);
  neighbourLane<<<8, 256>>>(w, o);
  ownArray<<<8, 256>>>(w, o);
}
