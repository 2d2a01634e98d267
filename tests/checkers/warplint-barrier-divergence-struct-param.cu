// warplint-barrier-divergence: a field of a struct the kernel takes by value (a params
// struct, faiss's Tensor sizes) and a getter of it with constant arguments are one value
// for the grid, as a parameter is: a strided loop `for (k = threadIdx.x; k < limit; k +=
// 32)` with `limit = roundDown(q.getSize(1), 32)` and a block 32 wide runs limit / 32 trips
// in every thread, for every value (faiss's GeneralDistance interior tile, issue 23). A
// struct the kernel writes is no such value, and a limit that is not a multiple of the
// step leaves the last trip to part of the block: both stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

template <typename T> __host__ __device__ T roundDown(T a, T b) { return (a / b) * b; }

struct Sizes {
  int size_[2];
  int dim;
  __device__ int getSize(int i) const { return size_[i]; }
};

__global__ void interiorTile(Sizes q, const float *in, float *out) {
  __shared__ float tile[16][32];
  float acc = 0.f;
  int limit = roundDown(q.getSize(1), 32);
  for (int k = threadIdx.x; k < limit; k += 32) {
    tile[threadIdx.y][threadIdx.x] = in[k];
    __syncthreads();
    acc += tile[threadIdx.x % 16][threadIdx.y];
    __syncthreads();
  }
  int limit2 = roundDown(q.dim, 32);
  for (int k = threadIdx.x; k < limit2; k += 32) {
    tile[threadIdx.y][threadIdx.x] = in[k];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// The limit as the size itself: the threads past it in the last trip skip the barrier.
__global__ void wholeSize(Sizes q, const float *in, float *out) {
  __shared__ float tile[32];
  for (int k = threadIdx.x; k < q.getSize(1); k += 32) {
    tile[threadIdx.x] = in[k];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'wholeSize' may be skipped by part of the block: it is inside a loop whose condition 'k < q.getSize(1)'
  }
  out[threadIdx.x] = tile[0];
}

// The kernel changes the struct per thread: not one value for the grid.
__global__ void written(Sizes q, const float *in, float *out) {
  __shared__ float tile[32];
  q.dim = q.dim + threadIdx.x;
  int limit = roundDown(q.dim, 32);
  for (int k = threadIdx.x; k < limit; k += 32) {
    tile[threadIdx.x] = in[k];
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'written' may be skipped by part of the block
  }
  out[threadIdx.x] = tile[0];
}

void launch(Sizes q, const float *in, float *out) {
  interiorTile<<<64, dim3(32, 16)>>>(q, in, out);
  wholeSize<<<64, 32>>>(q, in, out);
  written<<<64, 32>>>(q, in, out);
}
