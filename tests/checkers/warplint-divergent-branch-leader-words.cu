// warplint-divergent-branch: a group's leader whose arm walks the 32-bit words of a set
// that the group's lanes already shared a loop over (issue 23, eighteenth session: PhysX's
// computeAverageSolverBodyVelocity, where after the slabs' shuffle reduction the body's
// leader counts and clears the body's slab bits, a loop over `(numSlabs + 31) / 32`
// words in two helpers). Each lane ran a trip per group width of the slabs' loop (`b +=
// numThreadsPerBody`, at most 32); the leader runs a trip per 32 slabs: no more than every
// lane did, a note. A leader looping over the items themselves, over the words of a set no
// loop of the lanes shared, or after a loop the whole block shared (a step over a warp)
// stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ unsigned __popc(unsigned x);
template <typename T> __device__ T myMin(T a, T b) { return a < b ? a : b; }
struct Desc {
  unsigned numSlabs;
  unsigned nBodies;
};
__device__ unsigned countSlabs(unsigned idx, unsigned numSlabs, unsigned n, const unsigned *bits) {
  unsigned c = 0;
  const unsigned words = (numSlabs + 31) / 32;
  for (unsigned i = 0; i < words; ++i)
    c += __popc(bits[idx + i * n]);
  return c > 1 ? c : 1;
}
__device__ void clearSlabs(unsigned idx, unsigned numSlabs, unsigned n, unsigned *bits) {
  for (unsigned i = 0; i < (numSlabs + 31) / 32; ++i)
    bits[idx + i * n] = 0;
}

__global__ void average(const Desc *d, const float *v, float *out, unsigned *bits) {
  const unsigned numSlabs = d->numSlabs;
  const unsigned per = myMin(numSlabs, 32u);
  const unsigned lane = threadIdx.x & (per - 1);
  const unsigned body = (blockIdx.x * blockDim.x + threadIdx.x) / per;
  float s = 0;
  for (unsigned b = lane; b < numSlabs; b += per)
    s += v[body * numSlabs + b];
  for (unsigned r = per / 2; r > 0; r /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, r, per);
  if (lane == 0) {
    unsigned c = countSlabs(body, d->numSlabs, d->nBodies, bits);
    clearSlabs(body, d->numSlabs, d->nBodies, bits);
    out[body] = s / c;
  }
  // CHECK: :[[@LINE-5]]:7: remark: branch on 'lane' diverges in up to 8 of 8 warps of kernel 'average'
  // CHECK: :[[@LINE-6]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs (a role of those lanes: a leader, the first lanes of a group), and its arm's loops walk the 32-bit words of a set of N items that the group's lanes already shared a loop over, at most a warp wide, before the branch
}

// The words of a set of n bits that no loop of the lanes shared.
__global__ void leaderBitmap(const unsigned *bits, unsigned n, float *out) {
  float s = 0;
  if (threadIdx.x % 8 == 0) {
    for (unsigned i = 0; i < (n + 31) / 32; ++i)
      s += __popc(bits[i]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'leaderBitmap'
  // CHECK: :[[@LINE-6]]:7: note: '(threadIdx.x / warpSize)' in place of 'threadIdx.x'
}

// The group shared a loop over n, and the leader loops over the n items again.
__global__ void leaderItems(const float *v, unsigned n, float *out) {
  const unsigned lane = threadIdx.x % 8;
  float s = 0;
  for (unsigned b = lane; b < n; b += 8)
    s += v[b];
  if (lane == 0) {
    for (unsigned i = 0; i < n; ++i)
      s += v[i] * v[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'lane' diverges in 8 of 8 warps of kernel 'leaderItems'
}

// The lanes shared a loop with a step of the block, more than a warp: each ran n / 256
// trips, fewer than the leader's n / 32.
__global__ void leaderBlockStride(const float *v, const unsigned *bits, unsigned n, float *out) {
  float s = 0;
  for (unsigned b = threadIdx.x; b < n; b += blockDim.x)
    s += v[b];
  if (threadIdx.x % 8 == 0) {
    for (unsigned i = 0; i < (n + 31) / 32; ++i)
      s += __popc(bits[i]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'leaderBlockStride'
  // CHECK: :[[@LINE-6]]:7: note: '(threadIdx.x / warpSize)' in place of 'threadIdx.x'
}

void host(const Desc *d, const float *v, float *o, unsigned *bits, unsigned n) {
  average<<<64, 256>>>(d, v, o, bits);
  leaderBitmap<<<64, 256>>>(bits, n, o);
  leaderItems<<<64, 256>>>(v, n, o);
  leaderBlockStride<<<64, 256>>>(v, bits, n, o);
}
