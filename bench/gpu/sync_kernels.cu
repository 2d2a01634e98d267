// The sync checks' positive and silent cases as one program, for compute-sanitizer's
// racecheck (shared memory) and synccheck to confirm or contradict (bench/gpu/run.sh;
// docs/measuring.md). Each kernel is launched once, from main, with the block the
// comment names, so warplint's checks see the same launches the sanitizer runs.
// usage: sync_kernels [KERNEL...]   (the named kernels only; default every kernel)
#include <cstdio>
#include <cstring>

// --- warplint-barrier-divergence
// Positive: half of each block skips the barrier.
__global__ void barrierHalf(float *Out) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 32)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[threadIdx.x];
}
__device__ void helperBarrier() { __syncthreads(); }
// Positive: the barrier sits in a helper that lanes 0..15 call.
__global__ void barrierInHelper(float *Out) {
  if (threadIdx.x % 32 < 16)
    helperBarrier();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}
// Silent: the condition is the same for the whole block (and true for every block).
__global__ void barrierUniform(float *Out, int N) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < N)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
}
// The same kernel where block 1 skips the barrier (N = 1, 2 blocks): no barrier
// divergence (each block agrees), but block 1 reads its neighbours' words unsynchronised.
__global__ void raceUniformSkip(float *Out, int N) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < N)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
}

// --- warp-sync masks
// Positive: a 16-thread block names all 32 lanes.
__global__ void maskAbsentLanes(float *Out) {
  float V = threadIdx.x;
  V += __shfl_down_sync(0xffffffffu, V, 1);
  Out[threadIdx.x] = V;
}
// Positive: a full mask after lanes 16..31 returned: the shuffle reads exited lanes.
__global__ void maskAfterReturn(float *Out) {
  if (threadIdx.x % 32 >= 16)
    return;
  float V = threadIdx.x;
  V += __shfl_xor_sync(0xffffffffu, V, 1);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = V;
}
// Silent by the model's rule: __syncwarp's mask counts the lanes that have not exited.
__global__ void syncwarpAfterExit(float *Out) {
  if (threadIdx.x % 32 >= 16)
    return;
  __syncwarp(0xffffffffu);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}
// Silent: the mask is the ballot of the same condition.
__global__ void maskFromBallot(float *Out) {
  float V = threadIdx.x;
  unsigned M = __ballot_sync(0xffffffffu, threadIdx.x % 32 < 16);
  if (threadIdx.x % 32 < 16)
    V += __shfl_down_sync(M, V, 1);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = V;
}

// --- warplint-data-race (shared memory)
// Positive: each thread reads its neighbour's word with no barrier between.
__global__ void raceNeighbour(float *Out) {
  __shared__ float S[128];
  S[threadIdx.x] = threadIdx.x;
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 128];
}
// Silent: the same with the barrier.
__global__ void raceNeighbourSynced(float *Out) {
  __shared__ float S[128];
  S[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 128];
}
// Positive: a warp exchanges through shared memory with no __syncwarp (sm_70+).
__global__ void raceInWarp(float *Out) {
  __shared__ float S[32];
  S[threadIdx.x] = threadIdx.x;
  Out[threadIdx.x] = S[threadIdx.x ^ 1];
}
// Silent: the same with __syncwarp().
__global__ void raceInWarpSynced(float *Out) {
  __shared__ float S[32];
  S[threadIdx.x] = threadIdx.x;
  __syncwarp();
  Out[threadIdx.x] = S[threadIdx.x ^ 1];
}
// Positive: every thread writes a different value to one word.
__global__ void raceSameWord(float *Out) {
  __shared__ float S[1];
  S[0] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[0];
}
// Silent by default (GPUVerify's benign race): every thread writes the same value.
__global__ void benignSameValue(float *Out) {
  __shared__ float S[1];
  S[0] = 0.f;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[0];
}
// Positive: the loop's next iteration writes what this one's neighbour reads.
__global__ void raceAcrossIterations(float *Out) {
  __shared__ float S[64];
  float Acc = 0.f;
  for (int K = 0; K < 4; ++K) {
    S[threadIdx.x] = K + threadIdx.x;
    __syncthreads();
    Acc += S[(threadIdx.x + 1) % 64];
  }
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Acc;
}
// Silent: the second barrier closes the iteration.
__global__ void raceAcrossIterationsSynced(float *Out) {
  __shared__ float S[64];
  float Acc = 0.f;
  for (int K = 0; K < 4; ++K) {
    S[threadIdx.x] = K + threadIdx.x;
    __syncthreads();
    Acc += S[(threadIdx.x + 1) % 64];
    __syncthreads();
  }
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Acc;
}
// Global memory, in place (racecheck does not cover global memory: no confirmation).
__global__ void raceGlobalStencil(float *A, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I + 1 < N)
    A[I] = A[I + 1];
}

int main(int Argc, char **Argv) {
  // The kernels named on the command line, or every kernel.
  auto Want = [&](const char *Name) {
    if (Argc < 2)
      return true;
    for (int I = 1; I < Argc; ++I)
      if (std::strcmp(Argv[I], Name) == 0)
        return true;
    return false;
  };
  float *Out = nullptr;
  if (cudaMalloc(&Out, 1 << 20) != cudaSuccess) {
    std::printf("sync_kernels: no device memory\n");
    return 1;
  }
  cudaMemset(Out, 0, 1 << 20);
  if (Want("barrierHalf"))
    barrierHalf<<<2, 64>>>(Out);
  if (Want("barrierInHelper"))
    barrierInHelper<<<2, 64>>>(Out);
  if (Want("barrierUniform"))
    barrierUniform<<<2, 64>>>(Out, 2);
  if (Want("raceUniformSkip"))
    raceUniformSkip<<<2, 64>>>(Out, 1);
  if (Want("maskAbsentLanes"))
    maskAbsentLanes<<<1, 16>>>(Out);
  if (Want("maskAfterReturn"))
    maskAfterReturn<<<2, 64>>>(Out);
  if (Want("syncwarpAfterExit"))
    syncwarpAfterExit<<<2, 64>>>(Out);
  if (Want("maskFromBallot"))
    maskFromBallot<<<2, 64>>>(Out);
  if (Want("raceNeighbour"))
    raceNeighbour<<<2, 128>>>(Out);
  if (Want("raceNeighbourSynced"))
    raceNeighbourSynced<<<2, 128>>>(Out);
  if (Want("raceInWarp"))
    raceInWarp<<<1, 32>>>(Out);
  if (Want("raceInWarpSynced"))
    raceInWarpSynced<<<1, 32>>>(Out);
  if (Want("raceSameWord"))
    raceSameWord<<<2, 64>>>(Out);
  if (Want("benignSameValue"))
    benignSameValue<<<2, 64>>>(Out);
  if (Want("raceAcrossIterations"))
    raceAcrossIterations<<<2, 64>>>(Out);
  if (Want("raceAcrossIterationsSynced"))
    raceAcrossIterationsSynced<<<2, 64>>>(Out);
  if (Want("raceGlobalStencil"))
    raceGlobalStencil<<<4, 256>>>(Out, 1024);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("sync_kernels: %s\n", cudaGetErrorString(E));
  cudaFree(Out);
  return E == cudaSuccess ? 0 : 1;
}
