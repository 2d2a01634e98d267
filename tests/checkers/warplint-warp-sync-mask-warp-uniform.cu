// warplint-warp-sync-mask: values that are the same in every lane of a warp (issue 23,
// HeCBench's rsmt and btree). A count a helper updates through a reference parameter with
// __popc of a ballot is the same in each lane, so a loop on it moves whole warps; the base
// of a lane's warp, `tid - laneId` or `tid & ~31`, is the same in the 32 lanes of a 1-D
// block of any size, so an exit on it leaves whole warps. So is `threadIdx.x - lane` with the
// lane read from %laneid (thirteenth session, NVIDIA/AMGX's utils::lane_id()): a slot of the
// warp's slice of shared memory read at that base is the same in every lane, and a 'break'
// on it leaves whole warps. A lane's own count, its own index, or a warp base in a block 48
// wide (warps that straddle rows) are still reported.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ int __popc(unsigned x);

__device__ unsigned laneOf() { return threadIdx.x & 31; }

// The ballot's count, the same in every lane, added to the caller's local.
__device__ void countWarp(int &num, const int *flags) {
  unsigned bal = __ballot_sync(0xffffffffu, flags[threadIdx.x] > 0);
  num += __popc(bal);
}
// Silent: every lane makes num trips.
__global__ void refCountWarp(float *out, const int *flags, int n) {
  int num = n;
  countWarp(num, flags);
  for (int c = 0; c < num; ++c) {
    __syncwarp();
    out[c * 32 + threadIdx.x] += 1.0f;
  }
}

// Each lane adds its own flag: the trips differ between lanes. Reported.
__device__ void countLane(int &num, const int *flags) { num += flags[threadIdx.x]; }
__global__ void refCountLane(float *out, const int *flags, int n) {
  int num = n;
  countLane(num, flags);
  for (int c = 0; c < num; ++c) {
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'refCountLane' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
    out[c * 32 + threadIdx.x] += 1.0f;
  }
}

// The warp's base `tid - laneId`: the whole warp leaves or none. Silent.
__global__ void warpBaseExit(const int *v, int *out, unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned lane = laneOf();
  if (tid - lane >= n)
    return;
  int x = tid < n ? v[tid] : 0;
  x += __shfl_down_sync(0xffffffffu, x, 16);
  if (lane == 0)
    out[tid / 32] = x;
}

// The same with `tid & ~31u`. Silent.
__global__ void warpMaskExit(const int *v, int *out, unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  if ((tid & ~31u) >= n)
    return;
  int x = tid < n ? v[tid] : 0;
  x += __shfl_down_sync(0xffffffffu, x, 16);
  if ((tid & 31u) == 0)
    out[tid / 32] = x;
}

// The lane's own index: the last warp's tail leaves, and lane 0 reads lane 16. Reported.
__global__ void laneExit(const int *v, int *out, unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= n)
    return;
  int x = v[tid];
  x += __shfl_down_sync(0xffffffffu, x, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'laneExit' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
  if ((tid & 31u) == 0)
    out[tid / 32] = x;
}

// A block 48 wide in x: warp 1 holds x 32..47 of row 0 and x 0..15 of row 1, whose
// `threadIdx.x & ~31u` differ. Reported.
__global__ void rowBaseExit(const int *v, int *out, unsigned n) {
  unsigned base = (blockIdx.x * 2 + threadIdx.y) * 48 + (threadIdx.x & ~31u);
  if (base >= n)
    return;
  int x = v[base + (threadIdx.x & 31u)];
  x += __shfl_down_sync(0xffffffffu, x, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'rowBaseExit' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
  out[base] = x;
}

__device__ __forceinline__ int asmLane() {
  int id;
  asm("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
// Each warp's 32 words of shared memory at `threadIdx.x - lane`; slot k read by every lane.
// Silent in a block of 128 threads.
template <int W>
__global__ void warpSlotBreak(const int *cols, int *out, int n) {
  __shared__ volatile int s[128];
  const int lane = asmLane();
  volatile int *mine = &s[threadIdx.x - lane];
  int row = blockIdx.x * 4 + threadIdx.y;
  mine[lane] = cols[row * 32 + lane];
  __syncwarp();
  int acc = 0;
  for (int k = 0; k < 32; ++k) {
    const int c = mine[k];
    if (c == -1)
      break;
    acc += __shfl_sync(0xffffffffu, c, k);
    // CHECK: :[[@LINE-1]]:12: warning: mask 0xffffffff of '__shfl_sync()' in kernel 'warpSlotBreak<48>' names lanes that may not take part{{.*}}[warplint-warp-sync-mask]
  }
  out[row * 32 + lane] = acc;
}

// The exits' blocks are a run-time size b (1-D): no shape to evaluate the lanes with.
void launch(float *o, const int *f, const int *v, int *out, int n, int b) {
  refCountWarp<<<8, 32>>>(o, f, n);
  refCountLane<<<8, 32>>>(o, f, n);
  warpBaseExit<<<(n + b - 1) / b, b>>>(v, out, n);
  warpMaskExit<<<(n + b - 1) / b, b>>>(v, out, n);
  laneExit<<<(n + b - 1) / b, b>>>(v, out, n);
  rowBaseExit<<<(n + 95) / 96, dim3(48, 2)>>>(v, out, n);
  warpSlotBreak<128><<<64, 128>>>(f, out, n);
  warpSlotBreak<48><<<64, dim3(48, 2)>>>(f, out, n);
}
