// Kernels of growing VGPR and LDS use for the AMD occupancy e2e test
// (tests/e2e/hip-registers-e2e.sh). Each has one fixed workgroup size (WG threads, four
// wavefronts), so the backend's `; Occupancy:` comment is for that size, and each launch
// uses it. LDS sizes are multiples of 512 bytes (the allocation granule, which the
// backend's LDS estimate leaves out).
#include <hip/hip_runtime.h>

#define FIXED __attribute__((amdgpu_flat_work_group_size(WG, WG)))

// N values live at once in each lane: the VGPR count grows with N.
template <int N> __global__ void FIXED live(float *out, const float *in, int n) {
  float v[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    v[k] = in[threadIdx.x + k * n];
  float acc = 0.0f;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int k = 0; k < N; ++k)
      acc += v[k] * v[(k * 7 + r) % N];
  out[threadIdx.x] = acc;
}

// Static LDS of B floats per workgroup.
template <int B> __global__ void FIXED lds(float *out, const float *in) {
  __shared__ float tile[B];
  for (int k = threadIdx.x; k < B; k += blockDim.x)
    tile[k] = in[k];
  // ROCm 5.2's __syncthreads calls __atomic_work_item_fence from hip.bc, which warplint
  // links for the register source (clang 22 alone would leave it an external call, and
  // the backend would report no occupancy).
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x * 13) % B];
}

void run(float *out, const float *in, int n) {
  live<4><<<8, WG>>>(out, in, n);
  live<24><<<8, WG>>>(out, in, n);
  live<40><<<8, WG>>>(out, in, n);
  live<64><<<8, WG>>>(out, in, n);
  live<100><<<8, WG>>>(out, in, n);
  live<160><<<8, WG>>>(out, in, n);
  lds<2048><<<8, WG>>>(out, in);
  lds<5120><<<8, WG>>>(out, in);
  lds<8448><<<8, WG>>>(out, in);
}
