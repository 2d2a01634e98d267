// shared/GPU-FACTS.md's worked GCN examples (gfx906: 40 wave slots, 16 workgroups, 64 KiB
// of LDS per CU) as launches of HIP kernels.
#include <hip/hip_runtime.h>

__global__ void ldsHalf(float *p) {
  __shared__ float tile[8192]; // 32 KiB
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void plain(float *p) { p[threadIdx.x] *= 2.0f; }

void run(float *p) {
  ldsHalf<<<64, 256>>>(p); // 2 workgroups = 8 waves = 20%
  plain<<<64, 128>>>(p);   // 16 workgroups = 32 waves = 80%
  plain<<<64, 384>>>(p);   // 6 workgroups = 36 waves = 90%
  plain<<<64, 320>>>(p);   // 8 workgroups = 40 waves = 100%
}
