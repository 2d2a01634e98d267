// hrcp and h2rcp of ROCm's hip_fp16.h: with ROCm 5's headers and clang 22 they need the
// reciprocal declarations warplint's ROCm 5 compatibility header gives.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__global__ void inv(__half *p) { p[threadIdx.x] = hrcp(p[threadIdx.x]); }
__global__ void inv2(__half2 *p) { p[threadIdx.x] = h2rcp(p[threadIdx.x]); }

void run(__half *p, __half2 *q) {
  inv<<<2, 40>>>(p);
  inv2<<<2, 256>>>(q);
}
