// warplint-barrier-divergence: an accessor of a class (faiss's Tensor: operator[] to a
// sub-view, a conversion to T&) at block-uniform indices reads a block-uniform value
// (issue 23, "uniform accessor load"); at a thread-dependent index it does not.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

template <typename T, int Dim> struct View;

template <typename T> struct View<T, 0> {
  __device__ View(T *d) : data_(d) {}
  __device__ operator T &() { return *data_; }
  __device__ T *data() const { return data_; }
  T *data_;
};

template <typename T, int Dim> struct View {
  __device__ View(T *d, const int *strides) : data_(d), strides_(strides) {}
  __device__ View<T, Dim - 1> operator[](int i) {
    if constexpr (Dim == 1)
      return View<T, 0>(data_ + i);
    else
      return View<T, Dim - 1>(data_ + i * strides_[0], strides_ + 1);
  }
  T *data_;
  const int *strides_;
};

struct Tensor2 {
  long *data_;
  int stride_[2];
  __device__ View<long, 1> operator[](int i) const {
    return View<long, 1>(data_ + i * stride_[0], stride_ + 1);
  }
  __device__ int getSize(int d) const { return d == 0 ? 8 : 16; }
};

// listIds[queryId][probeId] with blockIdx indices: the same list for the whole block, so
// the return is the block's. Silent.
__global__ void scanUniformList(Tensor2 listIds, float *out) {
  __shared__ float s[128];
  int queryId = blockIdx.y;
  int probeId = blockIdx.x;
  long listId = listIds[queryId][probeId];
  if (listId == -1)
    return;
  s[threadIdx.x] = out[listId * 128 + threadIdx.x];
  __syncthreads();
  out[listId * 128 + threadIdx.x] = s[127 - threadIdx.x];
}

// A uniform const getter: silent too.
__global__ void uniformGetter(Tensor2 t, float *out) {
  __shared__ float s[128];
  if (blockIdx.x >= unsigned(t.getSize(0)))
    return;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
}

// The same accessor at a thread-dependent index reads per-thread data: the return may
// leave part of the block. True.
__global__ void scanPerThreadList(Tensor2 listIds, float *out) {
  __shared__ float s[128];
  long listId = listIds[blockIdx.y][threadIdx.x];
  if (listId == -1)
    return;
  s[threadIdx.x] = out[listId * 128 + threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'scanPerThreadList' may be skipped by part of the block: threads for which 'listId == -1' holds leave at the 'return' on line 66 before it (a condition on data loaded at a thread-dependent address) [warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: threads for which 'listId == -1' holds
  out[listId * 128 + threadIdx.x] = s[127 - threadIdx.x];
}

// An accessor that reads the thread index itself is no accessor of its inputs. True.
struct Lane {
  int *data_;
  __device__ int own() const { return data_[threadIdx.x]; }
};
__global__ void threadReadingMethod(Lane l, float *out) {
  __shared__ float s[128];
  if (l.own() == 0)
    return;
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'threadReadingMethod' may be skipped by part of the block
  // CHECK: :[[@LINE-4]]:5: note:
  out[threadIdx.x] = s[127 - threadIdx.x];
}

void launchAll(Tensor2 t, Lane l, float *out) {
  scanUniformList<<<dim3(4, 4), 128>>>(t, out);
  uniformGetter<<<4, 128>>>(t, out);
  scanPerThreadList<<<dim3(4, 4), 128>>>(t, out);
  threadReadingMethod<<<4, 128>>>(l, out);
}
