// warplint-divergent-branch: the write-out of a result by threads the code picks by name,
// at the kernel's end (issue 23, AFTER 14: FasterTransformer's masked attention,
// `if (vo == 0 && (Dh == Dh_MAX || vi < Dh))` after the tree over value groups). An `if`
// with no else whose condition is `g == v` (a thread, lane or group index against a
// uniform value) beside uniform terms, after a barrier or warp collective, with nothing
// after it but the end of the kernel, and whose arm is straight-line work (branches on
// uniform values, conversions, stores; no barrier or collective, no branch or loop on a
// value that splits the threads, no loop but one of constant trips, in the arm or in the
// functions it calls): the other threads are done, the arm runs once, masked, a bounded
// few instructions, with no second path to serialize. Silent at the defaults, as the
// other write-outs (ReportTreeReductionTails reports it). Reported: the same pick with
// work after it, with a branch on the lane inside the arm (a test of the leaders' own data
// or a bounds guard among them splits the leaders alone and stays silent, thirteenth
// session), with a loop of run-time trips
// in the arm, with no exchange before it, with an else arm, and inside a loop.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' -config="{CheckOptions: {warplint-divergent-branch.ReportTreeReductionTails: true}}" %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=TAILS %s

struct Params {
  float *out;
  int int8_mode;
  const float *scale;
};

__device__ float convert(float v) {
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < 4; ++k) // a vector's lanes: constant trips
    r += v * 0.25f;
  return r;
}

// The head's output: value groups of THREADS_PER_VALUE threads reduce their partial sums
// through shared memory, group by group; the first group writes the result. Its arm
// branches on the kernel's mode (a template flag, a parameter) and converts.
template <int Dh, int Dh_MAX, int THREADS_PER_VALUE, bool FP8>
__global__ void headOutput(Params params, const float *in) {
  __shared__ float out_smem[1024];
  const int tidx = threadIdx.x;
  const int vo = tidx / THREADS_PER_VALUE;
  const int vi = tidx % THREADS_PER_VALUE;
  float out = in[blockIdx.x * blockDim.x + tidx];
  const int bhi = blockIdx.x;
  __syncthreads();
  if (Dh == Dh_MAX || vi < Dh) {
#pragma unroll
    for (int active_groups = 4; active_groups >= 2; active_groups /= 2) {
      int midpoint = active_groups / 2;
      if (vo >= midpoint && vo < active_groups && (Dh == Dh_MAX || vi < Dh))
        out_smem[(vo - midpoint) * Dh + vi] = out;
      __syncthreads();
      if (vo < midpoint && (Dh == Dh_MAX || vi < Dh))
        out = out_smem[vo * Dh + vi] + out;
      __syncthreads();
    }
  }
  if (vo == 0 && (Dh == Dh_MAX || vi < Dh)) {
    // TAILS: :[[@LINE-1]]:7: warning: branch on 'vo' diverges in 1 of 8 warps of kernel 'headOutput'
    if (FP8) {
      float s = params.scale[0];
      params.out[bhi * Dh + vi] = convert(s * out);
    } else if (params.int8_mode == 2) {
      out = out * *params.scale;
      params.out[bhi * Dh + vi] = (float)(int)out;
    } else {
      params.out[bhi * Dh + vi] = convert(out);
    }
  }
}
template __global__ void headOutput<12, 16, 16, false>(Params, const float *);

// Reported: the same pick with work after it (every thread stores again).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void workAfter(float *out, float *all, const float *in) {
  __shared__ float s[256];
  const int vo = threadIdx.x / 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  v += s[threadIdx.x ^ 16];
  if (vo == 0)
    out[blockIdx.x * 16 + threadIdx.x] = v;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'vo' diverges in 1 of 8 warps of kernel 'workAfter'
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  all[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Reported: a branch on the lane inside the arm splits the writing group again (itself a
// note: its arm only moves registers).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void laneBranchInArm(float *out, const float *in) {
  __shared__ float s[256];
  const int vo = threadIdx.x / 16;
  const int vi = threadIdx.x % 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  v += s[threadIdx.x ^ 16];
  if (vo == 0) {
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'vo' diverges in 1 of 8 warps of kernel 'laneBranchInArm'
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    if (vi < 4)
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'vi' diverges in 1 of 1 warps of kernel 'laneBranchInArm'
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the arms only move values between registers
      v *= 2.f;
    out[blockIdx.x * 16 + vi] = v;
  }
}

// Reported: the arm loops over a run-time count, work the idle lanes could share.
__global__ void loopInArm(float *out, const float *in, int n) {
  __shared__ float s[256];
  const int vo = threadIdx.x / 16;
  const int vi = threadIdx.x % 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  if (vo == 0) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'vo' diverges in 1 of 8 warps of kernel 'loopInArm'
    for (int k = 0; k < n; ++k)
      v += s[(k * 16 + vi) % 256];
    out[blockIdx.x * 16 + vi] = v;
  }
}

// Reported: no barrier or collective before it: each thread's own value, picked.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void noExchange(float *out, const float *in) {
  const int vo = threadIdx.x / 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x] * 2.f;
  if (vo == 0)
    out[blockIdx.x * 16 + threadIdx.x] = v;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'vo' diverges in 1 of 8 warps of kernel 'noExchange'
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Reported: an else arm, a second path the other threads run.
__global__ void withElse(float *out, float *rest, const float *in) {
  __shared__ float s[256];
  const int vo = threadIdx.x / 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  v += s[threadIdx.x ^ 16];
  if (vo == 0)
    out[blockIdx.x * 16 + threadIdx.x] = v;
  else
    rest[blockIdx.x * blockDim.x + threadIdx.x] = v * v + 1.f;
  // CHECK: :[[@LINE-4]]:7: warning: branch on 'vo' diverges in 1 of 8 warps of kernel 'withElse'
}

// Reported: inside a loop the next trip follows; the pick splits the warp in each.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void inLoop(float *out, const float *in, int steps) {
  __shared__ float s[256];
  const int vo = threadIdx.x / 16;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int k = 0; k < steps; ++k) {
    s[threadIdx.x] = v;
    __syncthreads();
    v += s[threadIdx.x ^ 16];
    if (vo == 0)
      out[(blockIdx.x * steps + k) * 16 + threadIdx.x] = v;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'vo' diverges in 1 of 8 warps of kernel 'inLoop'
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    __syncthreads();
  }
}

// A subwarp's leader writes its entry after the subwarp's reduction (ginkgo's ILU sweeps,
// thirteenth session): inside the arm, a test of the leaders' own data (`if (finite(v))`)
// and a bounds guard on the subwarp's index (`lower = sub < l_nnz`: the lower triangle's
// subwarps, the one warp at the limit splits) split the leaders alone; the stores are
// assembly (ginkgo's store_relaxed). Silent.
__device__ bool finite(float v) { return v == v && v - v == 0.f; }
__device__ void storeRelaxed(float *p, float v) {
  asm volatile("st.relaxed.gpu.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
template <int S>
__global__ void sweepLeader(const float *a, float *l, float *u, int l_nnz, int u_nnz) {
  const int sub = (blockIdx.x * blockDim.x + threadIdx.x) / S;
  if (sub >= l_nnz + u_nnz)
    return;
  const bool lower = sub < l_nnz;
  float sum = a[sub * S + threadIdx.x % S];
  for (int o = S / 2; o > 0; o /= 2)
    sum += __shfl_xor_sync(0xffffffff, sum, o, S);
  if (threadIdx.x % S == 0) {
    if (lower) {
      float v = (a[sub] - sum) / a[sub + 1];
      if (finite(v))
        storeRelaxed(l + sub, v);
    } else {
      float v = a[sub] - sum;
      if (finite(v))
        storeRelaxed(u + sub - l_nnz, v);
    }
  }
}
void launchSweep(const float *a, float *l, float *u, int ln, int un) {
  sweepLeader<8><<<(ln + un + 63) / 64, 512>>>(a, l, u, ln, un);
}
