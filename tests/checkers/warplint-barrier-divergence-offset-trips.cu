// warplint-barrier-divergence: a loop whose counter starts at X + t and runs while it is
// below Y + t, stepping by a uniform S, makes the same trips in every thread whatever t
// holds (trip k tests X + k * S < Y): gpu4pyscf's `for (pair_ij = shl_pair0 + sp_id;
// pair_ij < shl_pair1 + sp_id; pair_ij += nst_per_block)`, written so that the barriers
// in it stay uniform, the work guarded by `pair_ij < shl_pair1` inside. Silent. The same
// loop tested against Y alone, or with another offset on each side, keeps the warning.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void offsetTrips(const int *pairs, const int *lookup, float *out, int shl_pair0,
                            int shl_pair1) {
  __shared__ float s[256];
  int nst_per_block = 256 / lookup[0];
  int sp_id = threadIdx.x % nst_per_block;
  float acc = 0;
  for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + sp_id; pair_ij += nst_per_block) {
    __syncthreads();
    if (pair_ij < shl_pair1)
      s[threadIdx.x] = pairs[pair_ij];
    __syncthreads();
    acc += s[(threadIdx.x + 1) % blockDim.x];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The offset alone as the start (build_rys_gxyz.cuh's `for (n = gout_id; n < lij3 +
// gout_id; n += gout_stride)`, each group of threads a different start): silent.
__global__ void offsetStart(float *out, const int *lookup, int lk, int lij3) {
  __shared__ float s[256];
  int gout_stride = lookup[lk];
  int gout_id = threadIdx.x / (256 / gout_stride);
  float acc = 0;
  for (int n = gout_id; n < lij3 + gout_id; n += gout_stride) {
    __syncthreads();
    s[threadIdx.x] = n;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % blockDim.x];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void boundAlone(const int *pairs, const int *lookup, float *out, int shl_pair0,
                           int shl_pair1) {
  __shared__ float s[256];
  __shared__ int nst_per_block;
  if (threadIdx.x == 0)
    nst_per_block = 256 / lookup[0];
  __syncthreads();
  int sp_id = threadIdx.x % nst_per_block;
  float acc = 0;
  for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1; pair_ij += nst_per_block) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'boundAlone' may be skipped by part of the block
    s[threadIdx.x] = pairs[pair_ij];
    acc += s[(threadIdx.x + 1) % blockDim.x];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void otherOffset(const int *pairs, float *out, int shl_pair0, int shl_pair1) {
  __shared__ float s[256];
  int sp_id = threadIdx.x % 64, lane = threadIdx.x % 32;
  float acc = 0;
  for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + lane; pair_ij += 64) {
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'otherOffset' may be skipped by part of the block
    s[threadIdx.x] = pairs[pair_ij];
    acc += s[(threadIdx.x + 1) % blockDim.x];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void launch(const int *pairs, const int *lookup, float *out, int a, int b) {
  offsetTrips<<<8, 256>>>(pairs, lookup, out, a, b);
  offsetStart<<<8, 256>>>(out, lookup, a, b);
  boundAlone<<<8, 256>>>(pairs, lookup, out, a, b);
  otherOffset<<<8, 256>>>(pairs, out, a, b);
}
