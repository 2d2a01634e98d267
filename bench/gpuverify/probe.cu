// score.py runs this first with the checks it scores: each of the three sync checks must
// report here, else the build lacks it (a check a build does not have is silent, which
// would score its cases as missed: the 0/3 barrier cases of branch sync-a).
__global__ void probe(int *A) {
  __shared__ int s[64];
  s[threadIdx.x] = A[threadIdx.x];
  A[threadIdx.x] = s[63 - threadIdx.x]; // warplint-data-race: no barrier between
  if (threadIdx.x % 2 == 0)
    __syncthreads(); // warplint-barrier-divergence: the odd threads skip it
  if (threadIdx.x < 16)
    A[threadIdx.x] = __shfl_sync(0xffffffff, A[threadIdx.x], 0); // warplint-warp-sync-mask
}
void launchProbe(int *A) { probe<<<1, 64>>>(A); }
