// warplint-barrier-divergence: a `__shared__` array whose slot `a[threadIdx.x]` is each
// thread's own variable (issue 23, thirtieth session: gpuNUFFT's convolution kernels,
// `sec[threadIdx.x] = blockIdx.x; while (sec[threadIdx.x] < N) { ...; sec[threadIdx.x] =
// sec[threadIdx.x] + gridDim.x; }`). Where every use of the array is its own slot, read,
// written or handed to a helper that only reads it there, and every launch is 1-D (one
// thread per threadIdx.x), the slot holds what the thread stored: a block-uniform sector
// number, so the loop's barriers are reached by all. Reported: a read of another thread's
// slot, a slot filled from data, and blocks with a z extent (threads of two z share a slot:
// gpuNUFFT's multi-coil kernels).
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#define TBS 128

__device__ void work(int *sec, float *sdata, const int *sectors, float *out) {
  for (int s = threadIdx.x; s < 64; s += blockDim.x)
    sdata[s] = 0;
  __syncthreads();
  // CHECK-DAG: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'other' may be skipped by part of the block
  int first = sectors[sec[threadIdx.x]];
  out[first + threadIdx.x] = sdata[threadIdx.x % 64];
}

// Silent.
__global__ void ownSlot(const int *sectors, float *out, int N) {
  __shared__ float sdata[64];
  __shared__ int sec[TBS];
  sec[threadIdx.x] = blockIdx.x;
  while (sec[threadIdx.x] < N) {
    work(sec, sdata, sectors, out);
    __syncthreads();
    sec[threadIdx.x] = sec[threadIdx.x] + gridDim.x;
  }
}

// Silent: incremented in place.
__global__ void ownSlotIncrement(const int *sectors, float *out, int N) {
  __shared__ float sdata[64];
  __shared__ int sec[TBS];
  sec[threadIdx.x] = blockIdx.x;
  while (sec[threadIdx.x] < N) {
    work(sec, sdata, sectors, out);
    __syncthreads();
    sec[threadIdx.x] += gridDim.x;
  }
}

// The loop reads the next thread's slot.
__global__ void other(const int *sectors, float *out, int N) {
  __shared__ float sdata[64];
  __shared__ int sec[TBS];
  sec[threadIdx.x] = blockIdx.x + threadIdx.x;
  __syncthreads();
  while (sec[(threadIdx.x + 1) % TBS] < N) {
    work(sec, sdata, sectors, out);
    __syncthreads();
    sec[threadIdx.x] = sec[threadIdx.x] + gridDim.x;
  }
}

// The slot filled from data at the thread's index.
__global__ void ownData(const int *sectors, float *out, int N) {
  __shared__ float sdata[64];
  __shared__ int sec[TBS];
  sec[threadIdx.x] = sectors[threadIdx.x];
  while (sec[threadIdx.x] < N) {
    work(sec, sdata, sectors, out);
    __syncthreads();
    // CHECK-DAG: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'ownData' may be skipped by part of the block
    sec[threadIdx.x] = sec[threadIdx.x] + gridDim.x;
  }
}

// Launched with two threads per threadIdx.x (z = 2).
__global__ void twoPerSlot(const int *sectors, float *out, int N) {
  __shared__ float sdata[64];
  __shared__ int sec[TBS];
  sec[threadIdx.x] = blockIdx.x;
  while (sec[threadIdx.x] < N) {
    work(sec, sdata, sectors, out);
    __syncthreads();
    // CHECK-DAG: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'twoPerSlot' may be skipped by part of the block
    sec[threadIdx.x] = sec[threadIdx.x] + gridDim.x;
  }
}

void launch(const int *s, float *o, int N) {
  ownSlot<<<64, TBS>>>(s, o, N);
  ownSlotIncrement<<<64, TBS>>>(s, o, N);
  other<<<64, TBS>>>(s, o, N);
  ownData<<<64, TBS>>>(s, o, N);
  twoPerSlot<<<64, dim3(TBS, 1, 2)>>>(s, o, N);
}
