// warplint-warp-sync-mask: a value decided at the end of a chain of helpers (issue 23,
// nineteenth session, from PhysX's narrow phase: kernel -> contact generation -> SAT ->
// satConvexFaceNormals -> warpReduction(..., winnerLane) -> its overload -> the butterfly,
// the winner's feature broadcast from winnerLane when the best value passes a test).
// Callees are walked for their values six calls below the kernel, and small helpers (a
// reduction step, a broadcast) ten: the sum a butterfly computes six calls down is the
// warp's, and the feature chosen on it too. The same chain ending in a lane's own value
// stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ float fmaxf(float a, float b);
__device__ int __ffs(int x);

__device__ float reduceSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__device__ float reduceMaxWinner(float v, unsigned &winner) {
  float best = reduceSum(v);
  winner = __ffs(__ballot_sync(0xffffffff, best == v)) - 1;
  return best;
}
__device__ float reduceMaxWinner2(float v, unsigned &winner) {
  return reduceMaxWinner(v, winner);
}
__device__ void faceSearch(const float *sep, unsigned &feature) {
  const unsigned lane = threadIdx.x & 31;
  unsigned winner;
  const float best = reduceMaxWinner2(sep[lane], winner);
  feature = best > 0.f ? __shfl_sync(0xffffffff, int(lane), int(winner)) : 0;
}
__device__ void sat(const float *sep, unsigned &feature) { faceSearch(sep, feature); }
__device__ void contactGen(const float *sep, unsigned &feature) { sat(sep, feature); }

__global__ void deepWinner(const float *sep, float *out) {
  unsigned feature;
  contactGen(sep, feature);
  if (feature == 3)
    out[threadIdx.x] = __shfl_sync(0xffffffff, out[threadIdx.x], 1);
}

// Twin: the chain ends in the lane's own value: lanes differ.
__device__ void ownSearch(const float *sep, unsigned &feature) {
  const unsigned lane = threadIdx.x & 31;
  unsigned winner;
  reduceMaxWinner2(sep[lane], winner);
  feature = lane + winner;
}
__device__ void ownSat(const float *sep, unsigned &feature) { ownSearch(sep, feature); }
__device__ void ownGen(const float *sep, unsigned &feature) { ownSat(sep, feature); }

__global__ void deepOwn(const float *sep, float *out) {
  unsigned feature;
  ownGen(sep, feature);
  if (feature == 3)
    out[threadIdx.x] = __shfl_sync(0xffffffff, out[threadIdx.x], 1);
  // CHECK: :[[@LINE-1]]:24: warning: mask 0xffffffff of '__shfl_sync()'
}

void launch(const float *s, float *o) {
  deepWinner<<<64, 128>>>(s, o);
  deepOwn<<<64, 128>>>(s, o);
}
