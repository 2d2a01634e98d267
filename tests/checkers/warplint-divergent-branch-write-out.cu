// warplint-divergent-branch: the write-out after a warp's reduction (issue 23, llm.c's
// softmax_autoregressive_backward_kernel4/5). After a shuffle reduction or cg::reduce every
// lane holds the warp's results; the first K lanes store them, one each. The other lanes
// have nothing to store: the split is the number of results, not a choice of lanes, and
// a warp-synchronous rewrite has nothing to gain. Silent at the defaults, as the other
// reduction tails (ReportTreeReductionTails reports it). A lane split that is not right
// after a warp collective, or whose arm does more than store, is still reported. The first
// lanes may be written `lane / S == 0` and the store may go to an array class's element
// (thirteenth session).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' -config="{CheckOptions: {warplint-divergent-branch.ReportTreeReductionTails: true}}" %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=TAILS %s
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define UNROLL 8

// cg::reduce of UNROLL values, then lanes k < UNROLL store result k. Silent.
__global__ void cgWriteOut(float *out, const float *in, int T) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float result[UNROLL];
  for (int k = 0; k < UNROLL; ++k)
    result[k] = in[k * 256 + threadIdx.x];
  for (int k = 0; k < UNROLL; ++k) {
    result[k] = cg::reduce(warp, result[k], cg::plus<float>());
  }
  if (warp.thread_rank() < UNROLL) {
    // TAILS: :[[@LINE-1]]:7: warning: branch on 'warp.thread_rank()' diverges
    out[blockIdx.x * UNROLL + warp.thread_rank()] = result[warp.thread_rank()];
  }
}
void launchCg(float *o, const float *i) { cgWriteOut<<<4, 256>>>(o, i, 3); }

// With a second, thread-dependent term (kernel5's `t >= t3 + lane`): still the write-out.
__global__ void cgWriteOutTerm(float *out, const float *in, int t, int t3) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float result[UNROLL];
  for (int k = 0; k < UNROLL; ++k)
    result[k] = cg::reduce(warp, in[k * 256 + threadIdx.x], cg::plus<float>());
  if (warp.thread_rank() < UNROLL && t >= t3 + warp.thread_rank()) {
    out[t3 + warp.thread_rank()] = result[warp.thread_rank()];
  }
}
void launchCgTerm(float *o, const float *i) { cgWriteOutTerm<<<4, 256>>>(o, i, 9, 3); }

// A shuffle reduction of 4 partial sums, then lanes < 4 store theirs. Silent.
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__global__ void shuffleWriteOut(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float a = warpSum(in[threadIdx.x]);
  float b = warpSum(in[threadIdx.x + 256]);
  float c = warpSum(in[threadIdx.x + 512]);
  float d = warpSum(in[threadIdx.x + 768]);
  float mine = lane == 0 ? a : lane == 1 ? b : lane == 2 ? c : d;
  if (lane < 4)
    out[blockIdx.x * 4 + lane] = mine;
}
void launchShuffle(float *o, const float *i) { shuffleWriteOut<<<4, 128>>>(o, i); }

// Reported: no warp collective before the split (the lanes' own values).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void noCollective(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x] * 2.f;
  if (lane < 4)
    out[blockIdx.x * 4 + lane] = v;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 4 of 4 warps of kernel 'noCollective' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchNoCollective(float *o, const float *i) { noCollective<<<4, 128>>>(o, i); }

// Reported: after the reduction the arm does work of its own (a loop over the input).
__global__ void armWorks(float *out, const float *in, int n) {
  int lane = threadIdx.x % 32;
  float s = warpSum(in[threadIdx.x]);
  if (lane < 4) {
    for (int i = 0; i < n; ++i)
      s += in[i * 32 + lane] * s;
    out[blockIdx.x * 4 + lane] = s;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'lane' diverges in 4 of 4 warps of kernel 'armWorks' (block 128x1x1); predicted branch efficiency 0%
}
void launchArmWorks(float *o, const float *i) { armWorks<<<4, 128>>>(o, i, 16); }

// Reported: the stored value is loaded, not the warp's result in a register.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void armLoads(float *out, const float *in) {
  int lane = threadIdx.x % 32;
  float s = warpSum(in[threadIdx.x]);
  if (lane < 4)
    out[blockIdx.x * 4 + lane] = in[lane * 64] + s;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 4 of 4 warps of kernel 'armLoads' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchArmLoads(float *o, const float *i) { armLoads<<<4, 128>>>(o, i); }

// The first subwarp of each warp, `lane / S == 0` (the same lanes as `lane < S`), stores
// the subwarps' partials after the butterfly over them into an array class's elements
// (ginkgo's generic_kernel_col_reduction_2d_small, thirteenth session). Silent.
template <typename T, int N>
struct Partials {
  T data_[N];
  __device__ T &operator[](int i) { return data_[i]; }
};
template <int S>
__global__ void subwarpPartials(float *out, const float *in) {
  __shared__ Partials<float, 16 * S> block_partial;
  const int lane = threadIdx.x % 32;
  const int local_subwarp_id = lane / S;
  float partial = in[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int i = S; i < 32; i *= 2)
    partial += __shfl_xor_sync(0xffffffff, partial, i);
  if (local_subwarp_id == 0)
    block_partial[(threadIdx.x / 32) * S + lane % S] = partial;
  // TAILS: :[[@LINE-2]]:7: warning: branch on 'local_subwarp_id' diverges
  __syncthreads();
  if (threadIdx.x < 16 * S)
    out[blockIdx.x * 16 * S + threadIdx.x] = block_partial[threadIdx.x];
}
void launchSubwarp(float *o, const float *i) { subwarpPartials<4><<<4, 512>>>(o, i); }
