// warplint-barrier-divergence and warplint-warp-sync-mask: an exit inside a loop whose trips
// are counted thread by thread (issue 23, FasterTransformer's topp_sampling and
// find_context_dups). The loop runs from threadIdx.x to a bound rounded up to a multiple
// of the block, so every thread makes the same trips, and leaves early on a value the
// whole block shares (a flag thread 0 sets before the barrier, a parameter): the exit
// ends the loop at the same trip for every thread. Main could not evaluate the exit's
// place in a counted loop and reported the barrier. An exit on a value of each thread's
// own, or a bound that is not rounded, still splits the block.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// find_context_dups: a shared flag set by thread 0, read after the barrier. Silent.
template <int B>
__global__ void sharedFlag(float *out, const float *in, int n) {
  __shared__ float s[B];
  __shared__ bool match;
  int end = ((n + B - 1) / B) * B;
  float acc = 0.f;
  for (int i = threadIdx.x; i < end; i += B) {
    s[threadIdx.x] = (i < n) ? in[i] : 0.f;
    if (threadIdx.x == 0)
      match = s[0] > 0.f;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % B];
    if (!match)
      break;
  }
  out[threadIdx.x] = acc;
}

// topp_sampling: a ballot in every trip and a break on a parameter. Silent.
template <int B>
__global__ void paramStop(float *out, const float *in, int n, int stop) {
  __shared__ float s[B];
  int end = B * ((n + B - 1) / B);
  float acc = 0.f;
  for (int i = threadIdx.x; i < end; i += B) {
    float v = (i < n) ? in[i] : 0.f;
    unsigned m = __ballot_sync(0xffffffff, v > 0.f);
    s[threadIdx.x] = v + m;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % B];
    if (stop > 0)
      break;
  }
  out[threadIdx.x] = acc;
}

// The same loop to n itself: the last trip is made by part of the block. Reported.
template <int B>
__global__ void plainBound(float *out, const float *in, int n, int stop) {
  __shared__ float s[B];
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += B) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'plainBound<128>' may be skipped by part of the block
    acc += s[(threadIdx.x + 1) % B];
    if (stop > 0)
      break;
  }
  out[threadIdx.x] = acc;
}

// A break on each thread's own element: threads leave at different trips. Reported.
template <int B>
__global__ void ownStop(float *out, const float *in, int n) {
  __shared__ float s[B];
  int end = ((n + B - 1) / B) * B;
  float acc = 0.f;
  for (int i = threadIdx.x; i < end; i += B) {
    s[threadIdx.x] = (i < n) ? in[i] : 0.f;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'ownStop<128>' may be skipped by part of the block
    acc += s[(threadIdx.x + 1) % B];
    if (in[i] < 0.f)
      break;
  }
  out[threadIdx.x] = acc;
}

void launch(float *o, const float *i, int n, int st) {
  sharedFlag<128><<<4, 128>>>(o, i, n);
  paramStop<256><<<4, 256>>>(o, i, n, st);
  plainBound<128><<<4, 128>>>(o, i, n, st);
  ownStop<128><<<4, 128>>>(o, i, n);
}
