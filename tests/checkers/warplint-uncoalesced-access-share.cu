// warplint-uncoalesced-access: the traffic share (issue 23). A finding whose places a thread
// runs fewer times than the kernel's most repeated global access, and that make under
// MinTrafficShare (6.25%) of the kernel's global accesses per thread (loops counted by
// their trip counts: a constant, or the value every launch passes, directly or through
// its callers; 8 trips otherwise), is a note that says the share: edge work beside the
// kernel's loops.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s --config="{CheckOptions: {warplint-uncoalesced-access.MinTrafficShare: 0}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=OFF %s
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s --config="{CheckOptions: {warplint-uncoalesced-access.MinTrafficShare: 150}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid MinTrafficShare '150' for warplint-uncoalesced-access: a percentage 0-100; using 6.25
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s --dump-config -- %cuda_device 2>&1 | %FileCheck --check-prefix=DUMP %s
// DUMP: warplint-uncoalesced-access.MinTrafficShare: '6.25'

// A 48-byte descriptor per thread.
struct Segment {
  int begin, count, a, b, c, d, e, f, g, h, i, j;
};

// Two fields of the descriptor, read once, before the thread's loops over its segment:
// 2 of 130 accesses per thread (an outer loop of unknown trips, 8, around one of 8).
__global__ void descriptorOnce(float *out, const float *in, const Segment *segs, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const Segment *s = &segs[t];
  int begin = s->begin;
  // CHECK: :[[@LINE-1]]:15: remark: each warp's load of 's->begin' touches 32 sectors for 128 bytes (ideal 4): lanes 48 bytes apart, each reading 4 bytes of a 48-byte 'Segment' (an array of structures) (block 256x1x1); the same for 1 more load of 'segs' in 'descriptorOnce' [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:15: note: said as a note: they run once per thread, outside every loop, and make 2 of the kernel's 130 global accesses per thread (1.5%, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small share of the kernel's memory traffic beside the accesses in its loops
  // OFF: :[[@LINE-3]]:15: warning: each warp's load of 's->begin' touches 32 sectors
  int count = s->count;
  for (int k = 0; k < count; ++k)
    for (int j = 0; j < 8; ++j)
      out[begin + k * 8 + j] += in[begin + k * 8 + j];
}

// The same two fields beside one loop access of unknown trips and one store: 2 of 11
// accesses per thread (18%): a warning.
__global__ void rangeSum(float *out, const float *in, const Segment *segs, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = segs[t].begin, end = segs[t].count;
  // CHECK: :[[@LINE-1]]:15: warning: each warp's load of 'segs[t].begin' touches 32 sectors for 128 bytes (ideal 4): lanes 48 bytes apart, each reading 4 bytes of a 48-byte 'Segment' (an array of structures) (block 256x1x1); the same for 1 more load of 'segs' in 'rangeSum' [warplint-uncoalesced-access]
  float sum = 0;
  for (int k = begin; k < end; ++k)
    sum += in[k];
  out[t] = sum;
}

// A constant trip count is used: 64 trips of two accesses beside one strided load (1 of
// 129, a note); 2 trips (1 of 5, counting down) keep it a warning.
__global__ void knownTrips(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float first = in[t * 16];
  // CHECK: :[[@LINE-1]]:17: remark: each warp's load of 'in[t * 16]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:17: note: said as a note: it runs once per thread, outside every loop, and makes 1 of the kernel's 129 global accesses per thread (0.8%, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small share of the kernel's memory traffic beside the accesses in its loops
  // OFF: :[[@LINE-3]]:17: warning: each warp's load of 'in[t * 16]'
  for (int k = 0; k < 64; ++k)
    out[k * n + t] = first + in[k * n + t];
}

__global__ void fewTrips(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float first = in[t * 16];
  // CHECK: :[[@LINE-1]]:17: warning: each warp's load of 'in[t * 16]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  for (int k = 2; k >= 1; k--)
    out[k * n + t] = first + in[k * n + t];
}

// Straight-line code: no access runs more often than the strided one, however many there
// are (1 of 18): a warning.
__global__ void straightLine(float *out, const float *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t] + in[t + 256] + in[t + 512] + in[t + 768] + in[t + 1024] + in[t + 1280] +
           in[t + 1536] + in[t + 1792] + in[t + 2048] + in[t + 2304] + in[t + 2560] +
           in[t + 2816] + in[t + 3072] + in[t + 3328] + in[t + 3584] + in[t + 3840] +
           in[t * 16 + 9000];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[t * 16 + 9000]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
}

// Shared and local memory are not global traffic: a loop over a shared tile does not
// make the one global load small.
__global__ void sharedLoop(float *out, const float *in) {
  __shared__ float tile[256];
  float local[4] = {0, 0, 0, 0};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[t * 16];
  // CHECK: :[[@LINE-1]]:23: warning: each warp's load of 'in[t * 16]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 256; ++k)
    acc += tile[(threadIdx.x + k) % 256] * local[k % 4];
  out[t] = acc;
}

// A trip count the launches pass (HeCBench's sosfil: a filter's coefficients copied into
// shared memory, then a loop over the signal's samples): 'samples' is 4096 at the one
// launch, through the launcher's caller, so the copy is 6 of 8194 accesses per thread.
__global__ void passedTrips(float *x, const float *coef, int samples, int width) {
  __shared__ float c[256 * 6];
  const int tx = threadIdx.x;
  for (int i = 0; i < 6; i++)
    c[tx * 6 + i] = coef[tx * 6 + i];
  // CHECK: :[[@LINE-1]]:21: remark: each warp's load of 'coef[tx * 6 + i]' touches 24 sectors for 128 bytes (ideal 4): stride of 6 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:21: note: said as a note: it runs at most 6 times per thread, and makes 6 of the kernel's 8194 global accesses per thread (0.1%, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small share of the kernel's memory traffic beside the accesses in its loops
  // OFF: :[[@LINE-3]]:21: warning: each warp's load of 'coef[tx * 6 + i]'
  __syncthreads();
  const int first = width - 1;
  for (int n = first; n < samples; n++)
    x[blockIdx.x * samples + n] += c[tx * 6] * x[blockIdx.x * samples + n - 1];
}

// The same kernel where the launch passes 4 samples: 6 of 14, a warning.
__global__ void fewPassedTrips(float *x, const float *coef, int samples, int width) {
  __shared__ float c[256 * 6];
  const int tx = threadIdx.x;
  for (int i = 0; i < 6; i++)
    c[tx * 6 + i] = coef[tx * 6 + i];
  // CHECK: :[[@LINE-1]]:21: warning: each warp's load of 'coef[tx * 6 + i]' touches 24 sectors for 128 bytes (ideal 4): stride of 6 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  __syncthreads();
  const int first = width - 1;
  for (int n = first; n < samples; n++)
    x[blockIdx.x * samples + n] += c[tx * 6] * x[blockIdx.x * samples + n - 1];
}

void filter(float *x, const float *coef, int samples) {
  passedTrips<<<8, 256>>>(x, coef, samples, 3);
}

void host(float *o, const float *i, const Segment *s, int n) {
  filter(o, i, 4096);
  fewPassedTrips<<<8, 256>>>(o, i, 4, 1);
  descriptorOnce<<<100, 256>>>(o, i, s, n);
  rangeSum<<<100, 256>>>(o, i, s, n);
  knownTrips<<<100, 256>>>(o, i, n);
  fewTrips<<<100, 256>>>(o, i, n);
  straightLine<<<100, 256>>>(o, i);
  sharedLoop<<<100, 256>>>(o, i);
}

// The same descriptor read before a loop whose accesses are in a device function (the
// segment's sum through its pointer parameters, 8 trips of 8): the count follows the call,
// 2 of the kernel's 67 global accesses per thread, a note (2 of 3 without it: a warning
// before).
__device__ float segmentSum(const float *in, int begin, int count) {
  float acc = 0;
  for (int k = 0; k < count; ++k)
    for (int j = 0; j < 8; ++j)
      acc += in[begin + k * 8 + j];
  return acc;
}
__global__ void descriptorThenHelper(float *out, const float *in, const Segment *segs) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = segs[t].begin, count = segs[t].count;
  // CHECK: :[[@LINE-1]]:15: remark: each warp's load of 'segs[t].begin' touches 32 sectors for 128 bytes (ideal 4): lanes 48 bytes apart, each reading 4 bytes of a 48-byte 'Segment' (an array of structures) (block 256x1x1); the same for 1 more load of 'segs' in 'descriptorThenHelper' [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:15: note: said as a note: they run once per thread, outside every loop, and make 2 of the kernel's 67 global accesses per thread (3.0%,
  // OFF: :[[@LINE-3]]:15: warning: each warp's load of 'segs[t].begin' touches 32 sectors
  out[t] = segmentSum(in, begin, count);
}
void launchDescriptorThenHelper(float *o, const float *i, const Segment *s) {
  descriptorThenHelper<<<64, 256>>>(o, i, s);
}

// A load whose address is the same in every trip of the loops around it counts once
// (learn-cuda's n-body: `p[i].x` in the loop over a tile's bodies, inside the loop over
// the tiles): the compiler keeps the value in a register or the later trips find it in
// the cache. Here 3 of the kernel's 104 global accesses per thread (100 tiles, the grid
// every launch passes, and the store), a note; counted per trip they were 19200 of 19301.
__global__ void bodyForce(float4 *p, float *f) {
  __shared__ float4 tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float fx = 0;
  for (int t = 0; t < gridDim.x; t++) {
    tile[threadIdx.x] = p[t * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < 64; j++)
      fx += (tile[j].x - p[i].x) + (tile[j].y - p[i].y) + (tile[j].z - p[i].z);
    // CHECK: :[[@LINE-1]]:26: remark: each warp's load of 'p[i].x' touches 16 sectors for 128 bytes (ideal 4): lanes 16 bytes apart, each reading 4 bytes of a 16-byte 'float4' (an array of structures) (block 64x1x1, gridDim.x = 100); the same for 2 more loads of 'p' in 'bodyForce' [warplint-uncoalesced-access]
    // CHECK: :[[@LINE-2]]:26: note: said as a note: they run once per thread (the same address in every trip of the loops around them: the value stays in a register or the cache after the first), and make 3 of the kernel's 104 global accesses per thread (2.9%, under MinTrafficShare 6.25%;
    // OFF: :[[@LINE-3]]:26: warning: each warp's load of 'p[i].x'
    __syncthreads();
  }
  f[i] = fx;
}

// The loop stores through the same pointer: the value may change between trips, each
// trip loads it again (a warning). A volatile load is made in every trip too.
__global__ void bodyForceMoves(float4 *p, float *f) {
  __shared__ float4 tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float fx = 0;
  for (int t = 0; t < gridDim.x; t++) {
    tile[threadIdx.x] = p[t * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < 64; j++)
      fx += (tile[j].x - p[i].x) + (tile[j].y - p[i].y) + (tile[j].z - p[i].z);
    // CHECK: :[[@LINE-1]]:26: warning: each warp's load of 'p[i].x' touches 16 sectors for 128 bytes (ideal 4): lanes 16 bytes apart, each reading 4 bytes of a 16-byte 'float4' (an array of structures) (block 64x1x1, gridDim.x = 100); the same for 2 more loads of 'p' in 'bodyForceMoves' [warplint-uncoalesced-access]
    __syncthreads();
    p[t * blockDim.x + threadIdx.x].w = fx;
    // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 'p[t * blockDim.x + threadIdx.x].w' touches 16 sectors for 128 bytes (ideal 4)
  }
  f[i] = fx;
}

__global__ void volatileFlag(volatile int *flags, float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < 64; k++) {
    acc += in[k * 6400 + i];
    if (flags[i * 8])
      // CHECK: :[[@LINE-1]]:9: warning: each warp's load of 'flags[i * 8]' touches 32 sectors for 128 bytes (ideal 4): stride of 8 ints between lanes (block 64x1x1) [warplint-uncoalesced-access]
      break;
  }
  out[i] = acc;
}

void launchBodies(float4 *p, float *f, volatile int *flags, const float *in) {
  bodyForce<<<100, 64>>>(p, f);
  bodyForceMoves<<<100, 64>>>(p, f);
  volatileFlag<<<100, 64>>>(flags, f, in);
}
