// A barrier only part of the block reaches, then a read of what another thread wrote
// without a barrier between: one finding and one record each (unlisted-records.test).
__global__ void k(float *out) {
  __shared__ float t[256];
  if (threadIdx.x < 100)
    __syncthreads();
  t[threadIdx.x] = 1.0f;
  out[threadIdx.x] = t[255 - threadIdx.x];
}
