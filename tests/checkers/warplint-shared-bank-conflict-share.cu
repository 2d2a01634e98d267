// warplint-shared-bank-conflict: the traffic share (issue 23, HeCBench: the one-time fill of
// a tile, or the write-out of a block's results, beside the kernel's main loop). A finding
// whose places a thread runs fewer times than the kernel's most repeated shared-memory
// access, and that make under MinTrafficShare (6.25%) of the kernel's shared-memory
// accesses per thread (loops counted by their trip counts, 8 trips where a count is not a
// constant), is a note that says the share, as warplint-uncoalesced-access's is for
// global memory.
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s --config="{CheckOptions: {warplint-shared-bank-conflict.MinTrafficShare: 0}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=OFF %s
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s --config="{CheckOptions: {warplint-shared-bank-conflict.MinTrafficShare: 150}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid MinTrafficShare '150' for warplint-shared-bank-conflict: a percentage 0-100; using 6.25
// RUN: %clang_tidy --checks='-*,warplint-shared-bank-conflict' %s --dump-config -- %cuda_device 2>&1 | %FileCheck --check-prefix=DUMP %s
// DUMP: warplint-shared-bank-conflict.MinTrafficShare: '6.25'

// The fill of a table through a pointer into a dynamic buffer (6 words a lane, 2-way),
// then a filter loop of 64 trips whose own read of the table is a 2-way conflict (its own
// finding): 6 of 6 + 64 * 3 + 1 shared accesses per thread, the edge of the kernel.
__global__ void coefficientsOnce(float *out, const float *coef, const float *in) {
  extern __shared__ float smem[];
  float *s_out = smem;
  float *s_coef = &s_out[64];
  int tx = threadIdx.x;
  for (int i = 0; i < 6; i++)
    s_coef[tx * 6 + i] = coef[tx * 6 + i];
  // CHECK: :[[@LINE-1]]:5: remark: each warp's store of 's_coef[tx * 6 + i]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 24 bytes apart: the same bank comes back every 16 lanes
  // CHECK: :[[@LINE-3]]:5: note: said as a note: it runs at most 6 times per thread, and makes 6 of the kernel's 199 shared-memory accesses per thread (3.0%, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small share of the kernel's shared-memory traffic beside the accesses in its loops; the kernel's most repeated flagged access, at line [[@LINE+5]] (64 times per thread), is its own finding
  // OFF: :[[@LINE-4]]:5: warning: each warp's store of 's_coef[tx * 6 + i]' needs 2
  __syncthreads();
  float acc = 0;
  for (int n = 0; n < 64; n++) {
    s_out[tx] = acc * s_coef[tx * 6 + n % 6] + in[n * 64 + tx];
    // CHECK: :[[@LINE-1]]:23: warning: each warp's load of 's_coef[tx * 6 + n % 6]' needs 2 shared-memory wavefronts
    // CHECK: :[[@LINE-2]]:23: note: consecutive lanes
    __syncthreads();
    acc = s_out[(tx + 1) % 64] * 0.5f;
    __syncthreads();
  }
  out[blockIdx.x * 64 + tx] = acc + s_coef[0];
}
void launchCoefficients(float *o, const float *c, const float *i) {
  coefficientsOnce<<<8, 64, 64 * 7 * sizeof(float)>>>(o, c, i);
}

// The same fill where the loop's accesses are conflict-free: no access of the kernel's
// main work conflicts, so the fill is weighed against the kernel's whole memory traffic,
// global and shared, by the wavefronts the conflict adds (6 runs of 2 wavefronts add 6
// beside 135 + 71 accesses per thread: 2.8%). A note.
__global__ void fillOnlyConflict(float *out, const float *coef, const float *in) {
  __shared__ float s_out[64];
  __shared__ float s_coef[64 * 6];
  int tx = threadIdx.x;
  for (int i = 0; i < 6; i++)
    s_coef[tx * 6 + i] = coef[tx * 6 + i];
  // CHECK: :[[@LINE-1]]:5: remark: each warp's store of 's_coef[tx * 6 + i]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 24 bytes apart: the same bank comes back every 16 lanes
  // CHECK: :[[@LINE-3]]:5: note: said as a note: it runs at most 6 times per thread, and makes 6 of the kernel's 206 memory accesses per thread (135 shared, 71 global); at 2 wavefronts per ideal one the conflict adds 6 (2.8% of the kernel's memory work with them, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small cost beside the kernel's memory traffic, whose main work is in its loops
  // OFF: :[[@LINE-4]]:5: warning: each warp's store of 's_coef[tx * 6 + i]' needs 2
  __syncthreads();
  float acc = 0;
  for (int n = 0; n < 64; n++) {
    s_out[tx] = acc + in[n * 64 + tx];
    __syncthreads();
    acc = s_out[(tx + 1) % 64] * 0.5f;
    __syncthreads();
  }
  out[blockIdx.x * 64 + tx] = acc + s_coef[tx];
}
void launchFillOnly(float *o, const float *c, const float *i) { fillOnlyConflict<<<8, 64>>>(o, c, i); }

// The fill beside a short loop: 6 of the kernel's 6 + 4 * 3 + 1 shared and 6 + 4 + 1
// global accesses per thread (20%), no small share. The kernel's one conflict: a warning.
__global__ void fillOfShortLoop(float *out, const float *coef, const float *in) {
  __shared__ float s_out[64];
  __shared__ float s_coef[64 * 6];
  int tx = threadIdx.x;
  for (int i = 0; i < 6; i++)
    s_coef[tx * 6 + i] = coef[tx * 6 + i];
  // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 's_coef[tx * 6 + i]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 24 bytes apart: the same bank comes back every 16 lanes
  __syncthreads();
  float acc = 0;
  for (int n = 0; n < 4; n++) {
    s_out[tx] = acc + in[n * 64 + tx];
    __syncthreads();
    acc = s_out[(tx + 1) % 64] * s_coef[tx];
    __syncthreads();
  }
  out[blockIdx.x * 64 + tx] = acc + s_coef[tx];
}
void launchFillOfShortLoop(float *o, const float *c, const float *i) { fillOfShortLoop<<<8, 64>>>(o, c, i); }

// The conflict is in the loop itself: a warning.
__global__ void conflictInLoop(float *out, const float *in) {
  __shared__ float s[64 * 6];
  int tx = threadIdx.x;
  float acc = 0;
  for (int n = 0; n < 64; n++) {
    s[tx * 6] = in[n * 64 + tx];
    // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 's[tx * 6]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
    // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 24 bytes apart: the same bank comes back every 16 lanes
    __syncthreads();
    acc += s[((tx + 1) % 64) * 6];
    // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 's[((tx + 1) % 64) * 6]' needs 2 shared-memory wavefronts
    // CHECK: :[[@LINE-2]]:12: note: consecutive lanes
    __syncthreads();
  }
  out[blockIdx.x * 64 + tx] = acc;
}
void launchConflictInLoop(float *o, const float *i) { conflictInLoop<<<8, 64>>>(o, i); }

// A kernel of straight-line accesses: no main work to set the write-out beside. A warning.
__global__ void straightLine(float *out, const float *in) {
  __shared__ float s[64 * 2];
  int tx = threadIdx.x;
  s[tx * 2] = in[tx];
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 's[tx * 2]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:3: note: consecutive lanes
  __syncthreads();
  out[tx] = s[(63 - tx) * 2 + 1];
  // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 's[(63 - tx) * 2 + 1]' needs 2
  // CHECK: :[[@LINE-2]]:13: note: consecutive lanes
}
void launchStraightLine(float *o, const float *i) { straightLine<<<8, 64>>>(o, i); }

// Eight conflicted loads of one loop body, each its own finding (eight strides), each
// alone 8 of the kernel's 152 shared-memory accesses per thread (5.3%), together 64 (42%):
// the conflicts of one phase weigh together, and it is the kernel's main work. Warnings.
__global__ void phaseOfConflicts(float *out, const float *in, int passes) {
  __shared__ float pool[1024];
  int tx = threadIdx.x;
  for (int i = 0; i < 16; i++)
    pool[i * 64 + tx] = in[i * 64 + tx];
  __syncthreads();
  float acc = 0;
  for (int p = 0; p < passes; p++) {
    for (int i = 0; i < 8; i++)
      acc += pool[i * 64 + tx];
    float a = pool[tx * 2], b = pool[tx * 4 + 1], c = pool[tx * 6 + 2], d = pool[tx * 8 + 3];
    // CHECK: :[[@LINE-1]]:15: warning: each warp's load of 'pool[tx * 2]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict
    // CHECK: :[[@LINE-2]]:33: warning: each warp's load of 'pool[tx * 4 + 1]' needs 4
    // CHECK: :[[@LINE-3]]:55: warning: each warp's load of 'pool[tx * 6 + 2]' needs 2
    // CHECK: :[[@LINE-4]]:77: warning: each warp's load of 'pool[tx * 8 + 3]' needs 8
    float e = pool[tx * 10 + 4], f = pool[tx * 12 + 5], g = pool[tx * 14 + 6], h = pool[tx * 16 + 7];
    // CHECK: :[[@LINE-1]]:15: warning: each warp's load of 'pool[tx * 10 + 4]' needs 2
    // CHECK: :[[@LINE-2]]:38: warning: each warp's load of 'pool[tx * 12 + 5]' needs 4
    // CHECK: :[[@LINE-3]]:61: warning: each warp's load of 'pool[tx * 14 + 6]' needs 2
    // CHECK: :[[@LINE-4]]:84: warning: each warp's load of 'pool[tx * 16 + 7]' needs 16
    __syncthreads();
    pool[tx] = a + b + c + d + e + f + g + h + acc;
    __syncthreads();
  }
  out[blockIdx.x * 64 + tx] = acc;
}
void launchPhase(float *o, const float *i, int n) { phaseOfConflicts<<<8, 64>>>(o, i, n); }

// An interpreter's prologue (xmrig-cuda's RandomX VM, issue 23): two conflicted loads of
// its configuration once, then a loop of 4 trips whose own conflicted read is the kernel's
// main finding, and whose work is in a device function: the 8 trips of `interpret`'s loop
// (the trip count its argument gives) over the shared registers its parameter points to.
// The count follows the call: 2 of the kernel's 42 shared-memory accesses per thread, a
// note (2 of 10 without the call, a warning before).
__device__ float interpret(const float *regs, int steps) {
  float acc = 0;
  for (int ip = 0; ip < steps; ++ip)
    acc += regs[(threadIdx.x + ip) % 64];
  return acc;
}
__global__ void interpreterPrologue(float *out, const float *in) {
  __shared__ float s_regs[64 * 4];
  int tx = threadIdx.x;
  for (int i = 0; i < 4; ++i)
    s_regs[i * 64 + tx] = in[i * 64 + tx];
  __syncthreads();
  float first = s_regs[tx * 2], second = s_regs[tx * 2 + 1];
  // CHECK: :[[@LINE-1]]:17: remark: each warp's load of 's_regs[tx * 2]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 64x1x1); the same for 1 more load of 's_regs' in 'interpreterPrologue' [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:17: note: consecutive lanes are 8 bytes apart: the same bank comes back every 16 lanes
  // CHECK: :[[@LINE-3]]:17: note: said as a note: they run once per thread, outside every loop, and make 2 of the kernel's 42 shared-memory accesses per thread (4.8%,
  // CHECK: :[[@LINE-4]]:42: note: the same load here: 's_regs[tx * 2 + 1]'
  // OFF: :[[@LINE-5]]:17: warning: each warp's load of 's_regs[tx * 2]' needs 2
  float acc = first * second;
  for (int ic = 0; ic < 4; ++ic) {
    acc += s_regs[tx * 4 + ic];
    // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 's_regs[tx * 4 + ic]' needs 4 shared-memory wavefronts
    // CHECK: :[[@LINE-2]]:12: note: consecutive lanes
    acc += interpret(s_regs, 8);
  }
  out[blockIdx.x * 64 + tx] = acc;
}
void launchInterpreter(float *o, const float *i) { interpreterPrologue<<<8, 64>>>(o, i); }

// Two one-time conflicts beside a loop of global loads (CudaSift's homography test: a
// staging store before the loop, a load of the block's count after a tree over a
// conflict-free row): 2 of the kernel's 39 memory accesses per thread, global and shared
// (the tree's halving loop and the count's loop counted at 8 trips each), but 2 of its 21
// shared-memory accesses (9.5%): both shares must be small. Warnings.
__global__ void stageAndCount(int *counts, const float *homo, const float *coord, int n) {
  __shared__ float h[8 * 16];
  __shared__ int c[16 * 16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (ty < 8)
    h[tx * 8 + ty] = homo[tx * 8 + ty];
  // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 'h[tx * 8 + ty]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict (block 16x16x1) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 32 bytes apart
  __syncthreads();
  float a0 = h[ty * 8], a1 = h[ty * 8 + 1];
  int cnt = 0;
  for (int i = tx; i < n; i += 16)
    cnt += coord[i] * a0 + coord[i + n] * a1 < 1.f;
  c[ty * 16 + tx] = cnt;
  __syncthreads();
  for (int len = 8; len > 0; len /= 2) {
    if (tx < len)
      c[ty * 16 + tx] += c[ty * 16 + tx + len];
    __syncthreads();
  }
  if (ty == 0)
    counts[blockIdx.x * 16 + tx] = c[16 * tx];
  // CHECK: :[[@LINE-1]]:36: warning: each warp's load of 'c[16 * tx]' needs 8 shared-memory wavefronts
  // CHECK: :[[@LINE-2]]:36: note: consecutive lanes are 64 bytes apart
}
void launchStageAndCount(int *c, const float *h, const float *x, int n) { stageAndCount<<<8, dim3(16, 16)>>>(c, h, x, n); }

// A 16-way store in the main loop beside 16 conflict-free loads per trip (llm.c's naive
// flash attention writes its score row so): 64 of the kernel's 1088 shared-memory accesses
// per thread (5.9%) and 3% of its 2113 memory accesses, global and shared, but at 16
// wavefronts each its runs weigh 48% of them. A warning.
__global__ void scoreRow(float *out, const float *q) {
  __shared__ float k[64 * 16];
  __shared__ float s[64 * 16];
  int tx = threadIdx.x;
  float acc = 0;
  for (int y = 0; y < 64; y++) {
    float x = 0;
    for (int i = 0; i < 16; i++)
      x += k[y * 16 + i] * q[i];
    s[16 * tx + y % 16] = x;
    // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 's[16 * tx + y % 16]' needs 16 shared-memory wavefronts (ideal 1): a 16-way bank conflict (block 64x1x1) [warplint-shared-bank-conflict]
    // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 64 bytes apart
    acc += x;
  }
  out[blockIdx.x * 64 + tx] = acc;
}
void launchScoreRow(float *o, const float *q) { scoreRow<<<8, 64>>>(o, q); }

// A GEMM's tile loop (SGEMM_CUDA's kernel 7): each tile's A is stored transposed, 2-way,
// 4 stores per thread beside 64 conflict-free loads of the tile. No access of the main
// work conflicts: the stores are weighed by what they add, 32 wavefronts over the run
// (8 trips of the run-time K), 5.5% of the kernel's memory work with them. A note.
__global__ void tileTranspose(float *out, const float *A, int K) {
  __shared__ float As[8 * 128];
  int tx = threadIdx.x, row = tx / 2, col = tx % 2;
  float acc = 0;
  for (int k = 0; k < K; k += 8) {
    float4 t = reinterpret_cast<const float4 *>(A + row * K + k + col * 4)[0];
    As[(col * 4 + 0) * 128 + row] = t.x;
    // CHECK: :[[@LINE-1]]:5: remark: each warp's store of 'As[(col * 4 + 0) * 128 + row]' needs 2 shared-memory wavefronts (ideal 1): a 2-way bank conflict (block 256x1x1; alike for K = 1, K = 1000, K = 32 and K = 33); the same for 3 more stores of 'As' in 'tileTranspose' [warplint-shared-bank-conflict]
    // CHECK: :[[@LINE-2]]:5: note: consecutive lanes are 2048 bytes apart: every lane's word is in the same bank
    // CHECK: :[[@LINE-3]]:5: note: said as a note: they run at most 8 times per thread, and make 32 of the kernel's 553 memory accesses per thread (544 shared, 9 global); at 2 wavefronts per ideal one the conflict adds 32 (5.5% of the kernel's memory work with them, under MinTrafficShare 6.25%; loops counted by their trip counts, 8 trips where a count is neither a constant nor a value the launches pass): a small cost beside the kernel's memory traffic, whose main work is in its loops
    As[(col * 4 + 1) * 128 + row] = t.y;
    // CHECK: :[[@LINE-1]]:5: note: the same store here: 'As[(col * 4 + 1) * 128 + row]'
    As[(col * 4 + 2) * 128 + row] = t.z;
    // CHECK: :[[@LINE-1]]:5: note: the same store here: 'As[(col * 4 + 2) * 128 + row]'
    As[(col * 4 + 3) * 128 + row] = t.w;
    // CHECK: :[[@LINE-1]]:5: note: the same store here: 'As[(col * 4 + 3) * 128 + row]'
    __syncthreads();
    for (int d = 0; d < 8; ++d)
      for (int i = 0; i < 8; ++i)
        acc += As[d * 128 + (tx / 2 + i) % 128];
    __syncthreads();
  }
  out[blockIdx.x * 256 + tx] = acc;
}
void launchTileTranspose(float *o, const float *a, int k) { tileTranspose<<<64, 256>>>(o, a, k); }

// The tile fill's loop `offset + 64 <= 128` runs twice (SGEMM_CUDA's kernel 9): 8 of the
// 136 shared-memory accesses per tile, beside the conflicted loads of the main work. A note.
__global__ void tileFillTwice(float *out, const float *A, int K) {
  __shared__ float As[16 * 128];
  int tx = threadIdx.x, row = tx / 4, col = tx % 4;
  float acc = 0;
  for (int k = 0; k < K; k += 16) {
    for (int offset = 0; offset + 64 <= 128; offset += 64) {
      float4 t = reinterpret_cast<const float4 *>(A + (row + offset) * K + k + col * 4)[0];
      As[(col * 4 + 0) * 128 + row + offset] = t.x;
      // CHECK: :[[@LINE-1]]:7: remark: each warp's store of 'As[(col * 4 + 0) * 128 + row + offset]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict (block 256x1x1; alike for K = 1, K = 1000, K = 32 and K = 33); the same for 3 more stores of 'As' in 'tileFillTwice' [warplint-shared-bank-conflict]
      // CHECK: :[[@LINE-2]]:7: note: consecutive lanes are 2048 bytes apart: every lane's word is in the same bank
      // CHECK: :[[@LINE-3]]:7: note: said as a note: they run at most 16 times per thread, and make 64 of the kernel's 1088 shared-memory accesses per thread (5.9%, under MinTrafficShare 6.25%;
      As[(col * 4 + 1) * 128 + row + offset] = t.y;
      // CHECK: :[[@LINE-1]]:7: note: the same store here: 'As[(col * 4 + 1) * 128 + row + offset]'
      As[(col * 4 + 2) * 128 + row + offset] = t.z;
      // CHECK: :[[@LINE-1]]:7: note: the same store here: 'As[(col * 4 + 2) * 128 + row + offset]'
      As[(col * 4 + 3) * 128 + row + offset] = t.w;
      // CHECK: :[[@LINE-1]]:7: note: the same store here: 'As[(col * 4 + 3) * 128 + row + offset]'
    }
    __syncthreads();
    for (int d = 0; d < 16; ++d)
      for (int i = 0; i < 8; ++i)
        acc += As[d * 128 + (tx % 32) * 4 + i];
        // CHECK: :[[@LINE-1]]:16: warning: each warp's load of 'As[d * 128 + (tx % 32) * 4 + i]' needs 4 shared-memory wavefronts (ideal 1): a 4-way bank conflict
        // CHECK: :[[@LINE-2]]:16: note: consecutive lanes are 16 bytes apart
    __syncthreads();
  }
  out[blockIdx.x * 256 + tx] = acc;
}
void launchTileFillTwice(float *o, const float *a, int k) { tileFillTwice<<<64, 256>>>(o, a, k); }
