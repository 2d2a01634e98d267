// warplint-data-race: a loop that surely runs a trip, with a barrier in every trip,
// separates the code before it from the code after it (issue 23, magma's
// zgetf2_fused_kernel_batched: info_array[batchid] read before zgetf2_fused_device<N>, whose
// loop of N >= 1 trips has unconditional barriers, and written by thread 0 after it).
// A loop that may run no trip (a run-time bound) does not: the read and the write may meet,
// but only with no trip at all, which is a run-time value: a note that names the loop (the
// same for a warp barrier: xmrig-cuda's cryptonight lanes, read before a main loop whose
// trips each __syncwarp() and written after it). A bound every launch of the file passes
// decides it; a trip count that differs between the threads keeps the warning.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// The JSON record names the loop of a race only a loop of no trip leaves (null otherwise):
// RUN: %not %warplint check --mock-cuda --no-cache --registers-from none --checks='-*,warplint-data-race' --format json %s -o %t.json
// RUN: python3 -c "import json,sys; [print('ZT', r['line'], r['severity'], r['zero_trip_loop_line']) for r in json.load(open(sys.argv[1]))['data_races']]" %t.json | %FileCheck --check-prefix=ZT %s
// ZT: ZT 83 note 76
// ZT-NEXT: ZT 119 warning None
// ZT-NEXT: ZT 138 warning None
// ZT-NEXT: ZT 152 warning None
// ZT-NEXT: ZT 176 note 173

template <int WIDTH> __device__ void factor(double *s, int &linfo) {
  for (int i = 0; i < WIDTH; i++) {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  }
}

// A template's WIDTH = 4: four trips, each with its barriers. Silent.
template <int N> __global__ void constantTrips(int *info_array, int batchCount) {
  extern __shared__ double s[];
  const int batchid = blockIdx.x * blockDim.y + threadIdx.y;
  if (batchid >= batchCount)
    return;
  int linfo = info_array[batchid];
  factor<N>(s, linfo);
  if (threadIdx.x == 0)
    info_array[batchid] = linfo;
}
void launchConstant(int *i, int b) { constantTrips<4><<<dim3(b, 1), dim3(64, 1), 512>>>(i, b); }

// The same written out in the kernel, and as a do-while. Silent.
__global__ void constantLoop(int *info) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  for (int i = 8; i > 0; --i) {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
}
void launchConstantLoop(int *i) { constantLoop<<<8, 64>>>(i); }

__global__ void doWhile(int *info, int n) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  int i = 0;
  do {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  } while (++i < n);
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
}
void launchDoWhile(int *i, int n) { doWhile<<<8, 64>>>(i, n); }

// A run-time trip count: with n = 0 no barrier separates the read and the write. A note.
__global__ void runtimeTrips(int *info, int n) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  for (int i = 0; i < n; i++) {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
  // CHECK: :[[@LINE-1]]:5: remark: data race on global 'info[0]': thread 1 reads it
  // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: a barrier in every trip of the loop at line [[@LINE-9]] orders the two accesses, so they race only when that loop runs no trip (its trip count is a run-time value no launch in this file fixes)
}
void launchRuntime(int *i, int n) { runtimeTrips<<<8, 64>>>(i, n); }

// The same kernel launched with constant trip counts (7 and 2): every launch runs a trip.
// Silent.
__global__ void launchedTrips(int *info, int n) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  for (int i = 0; i < n; i++) {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
}
void launchLaunched(int *i) {
  launchedTrips<<<8, 64>>>(i, 7);
  launchedTrips<<<8, 64>>>(i, 2);
}

// One launch passes 0: that launch has no trip, and the race is certain. Reported.
__global__ void launchedNoTrip(int *info, int n) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  for (int i = 0; i < n; i++) {
    s[threadIdx.x] = i;
    __syncthreads();
    linfo += s[(threadIdx.x + 1) % 64] > 3;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
  // CHECK: :[[@LINE-1]]:5: warning: data race on global 'info[0]': thread 1 reads it
}
void launchLaunchedNoTrip(int *i) {
  launchedNoTrip<<<8, 64>>>(i, 7);
  launchedNoTrip<<<8, 64>>>(i, 0);
}

// A trip count that depends on the thread (a strided loop over n items): the threads past
// n run no trip while others do, whatever n is. Reported.
__global__ void threadTrips(float *out, int n) {
  __shared__ float s[64];
  __shared__ float total;
  float t = total;
  for (int i = threadIdx.x; i < n; i += 64) {
    s[threadIdx.x] = out[i];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    total = t + 1;
  // CHECK: :[[@LINE-1]]:5: warning: data race on shared 'total': thread 1 reads it
}
void launchThreadTrips(float *o, int n) { threadTrips<<<8, 64>>>(o, n); }

// A constant loop whose start fails its condition runs no trip. Reported.
__global__ void noTrip(int *info) {
  __shared__ double s[64];
  int linfo = info[blockIdx.x];
  for (int i = 4; i < 2; i++) {
    s[threadIdx.x] = i;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    info[blockIdx.x] = linfo;
  // CHECK: :[[@LINE-1]]:5: warning: data race on global 'info[0]': thread 1 reads it
}
void launchNoTrip(int *i) { noTrip<<<8, 64>>>(i); }

// A warp's steps end with inline PTX's warp barrier (`bar.warp.sync`, __syncwarp's
// instruction; xmrig-cuda's RandomX interpreter, twenty-second session), in every trip of
// a loop that surely runs one: the read before the loop and the leader's write after it
// are ordered. Silent; with a run-time trip count (maybe none), a note.
__device__ void warpStep(unsigned mask) { asm volatile("bar.warp.sync %0;" ::"r"(mask)); }
__global__ void asmWarpBarrier(unsigned *rounding) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = rounding[idx / 8];
  for (unsigned ic = 0; ic < 16; ++ic)
    warpStep(0xffu << (threadIdx.x & 24));
  if ((threadIdx.x & 7) == 0)
    rounding[idx / 8] = v + 1;
}
__global__ void asmWarpBarrierRuntime(unsigned *rounding, unsigned n) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = rounding[idx / 8];
  for (unsigned ic = 0; ic < n; ++ic)
    warpStep(0xffu << (threadIdx.x & 24));
  if ((threadIdx.x & 7) == 0)
    rounding[idx / 8] = v + 1;
  // CHECK: :[[@LINE-1]]:5: remark: data race on global 'rounding[0]': thread 1 reads it
  // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: a barrier in every trip of the loop at line [[@LINE-5]] orders
}
void launchAsm(unsigned *r, unsigned n) {
  asmWarpBarrier<<<4, 32>>>(r);
  asmWarpBarrierRuntime<<<4, 32>>>(r, n);
}
