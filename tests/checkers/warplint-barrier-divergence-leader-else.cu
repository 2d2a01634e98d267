// warplint-barrier-divergence: an exit in the else-if arm after a leader arm (issue 23,
// FasterTransformer's topk_stage_2_opt3, beam_search_topk_kernels.cu:256-262). The exit's
// path is `p != nullptr && !(n[b] == 0 && tid == 0) && n[b] == k`: the pointer test is
// block-uniform with no integer form (it turns the exit on or off for the whole block)
// and n[b] is a block-uniform load. The path is evaluated per thread with the uniform
// values sampled together (n[b] also at the 0 it is compared with): the exit is whole
// when for every sample all threads or none take it.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Hyps {
  int *num_beams;
  float *min_scores;
  int ite, local;
};

// n[b] == k with k >= 1 rules out n[b] == 0: the block returns together or not at all.
// Silent.
__global__ void elseIfAfterLeader(float *out, Hyps h, int k) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (h.num_beams != nullptr) {
    const int b = h.ite * h.local + blockIdx.x;
    if (h.num_beams[b] == 0 && tid == 0) {
      h.min_scores[b] = 1e30f;
    } else if (h.num_beams[b] == k) {
      return;
    }
  }
  s[tid] = out[tid];
  __syncthreads();
  out[tid] = s[127 - tid];
}
void launchElseIf(float *o, Hyps h, int k) { elseIfAfterLeader<<<4, 128>>>(o, h, k); }

// The else-if tests the leader arm's own value: with n[b] == 0 thread 0 takes the first
// arm and the others return. Reported.
__global__ void elseIfSameValue(float *out, const int *n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (n[blockIdx.x] == 0 && tid == 0) {
    out[0] = 1.f;
  } else if (n[blockIdx.x] == 0) {
    return;
  }
  s[tid] = out[tid];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'elseIfSameValue' may be skipped by part of the block: threads for which 'n[blockIdx.x] == 0 && tid == 0' is false leave at the 'return' on line [[@LINE-4]] before it
  out[tid] = s[127 - tid];
}
void launchSameValue(float *o, const int *n) { elseIfSameValue<<<4, 128>>>(o, n); }

// Behind the formless pointer test, a plain else after the leader arm: every thread but
// the leader returns whenever the pointer is set. Reported.
__global__ void elseAfterLeader(float *out, Hyps h) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (h.num_beams != nullptr) {
    if (h.num_beams[blockIdx.x] == 0 && tid == 0)
      h.min_scores[blockIdx.x] = 1e30f;
    else
      return;
  }
  s[tid] = out[tid];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'elseAfterLeader' may be skipped by part of the block: threads for which 'h.num_beams[blockIdx.x] == 0 && tid == 0' is false leave at the 'return' on line [[@LINE-4]] before it
  out[tid] = s[127 - tid];
}
void launchElse(float *o, Hyps h) { elseAfterLeader<<<4, 128>>>(o, h); }

// Two exits behind formless tests, each of half the block: whole when both are taken,
// split when one is. Reported.
__global__ void twoHalves(float *out, const float *p, const float *q) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (p != nullptr && tid < 64)
    return;
  if (q != nullptr && tid >= 64)
    return;
  s[tid] = out[tid];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'twoHalves' may be skipped by part of the block
  out[tid] = s[127 - tid];
}
void launchTwoHalves(float *o, const float *p, const float *q) { twoHalves<<<4, 128>>>(o, p, q); }

// The whole exit beside a real one (topk_stage_2_opt3's loop, :269-354): the leader alone
// leaves the loop at the `break` and skips the barrier the others reach. Reported, with
// the break as the cause and not the whole return.
__global__ void leaderBreak(float *out, Hyps h, int k) {
  __shared__ float s[128];
  __shared__ int stop;
  int tid = threadIdx.x;
  if (h.num_beams != nullptr) {
    if (h.num_beams[blockIdx.x] == 0 && tid == 0)
      h.min_scores[blockIdx.x] = 1e30f;
    else if (h.num_beams[blockIdx.x] == k)
      return;
  }
  for (int it = 0; it < 2 * k; ++it) {
    if (tid == 0) {
      if (out[it] < h.min_scores[blockIdx.x]) {
        stop = 1;
        break;
      }
    }
    s[tid] = out[tid];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'leaderBreak' may be skipped by part of the block: threads for which 'tid == 0' holds leave at the 'break' on line [[@LINE-5]] before it
    if (stop)
      break;
  }
  out[tid] = s[127 - tid];
}
void launchLeaderBreak(float *o, Hyps h, int k) { leaderBreak<<<4, 128>>>(o, h, k); }

// llm.c's wte_backward_kernel (encoder.cuh:69-71): a lane's bounds return on a run-time
// limit beside a warp's return. Sampled values say nothing of where the limit falls (most
// C leave part of a warp), so the bounds return stays the cause. Reported.
__global__ void channelTail(float *out, const int4 *info, int C) {
  __shared__ float s[256];
  int warp_id = threadIdx.x / 32, lane = threadIdx.x % 32;
  int c = info[blockIdx.x].w * 256 + lane * 8;
  int size = info[blockIdx.x].y;
  if (c >= C)
    return;
  if (warp_id >= size)
    return;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'channelTail' may be skipped by part of the block: the threads whose 'c' is at or past 'C' (the tail of the last block, when 'C' is not a multiple of the block) leave at the 'return' on line [[@LINE-5]] and never reach it
  out[threadIdx.x] = s[255 - threadIdx.x];
}
void launchChannelTail(float *o, const int4 *i, int C) { channelTail<<<8, 256>>>(o, i, C); }
