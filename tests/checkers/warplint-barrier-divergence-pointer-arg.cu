// warplint-barrier-divergence: a pointer passed by value to a function is a copy (issue 23,
// magma's zgeqr2_sm_kernel_batched): the callee may write what it points to, never the
// caller's pointer. A later load through the same pointer, at a block-uniform address,
// stays uniform, and a return on it keeps the whole block together. A local passed by
// address or by reference may be changed by the callee: a return on it is reported.
// RUN: %not %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ void generate(double *v, double *tau) {
  if (threadIdx.x == 0)
    *tau = v[0];
}
__device__ void apply(double *v, double *tau, double *sum) {
  if (*tau == 0)
    return;
  sum[threadIdx.x] = v[threadIdx.x] * *tau;
  __syncthreads();
  v[threadIdx.x] += sum[(threadIdx.x + 1) % 64];
}
__device__ void step(double *v, double *tau, double *sum) {
  generate(v, tau);
  __syncthreads();
  apply(v, tau, sum);
  __syncthreads();
}

// tau = tau_array[blockIdx.z] + s: the same address in every thread of the block. Silent.
__global__ void byValue(int n, double **tau_array) {
  __shared__ double v[64];
  __shared__ double sum[64];
  double *dtau = tau_array[blockIdx.z];
  v[threadIdx.x] = threadIdx.x;
  __syncthreads();
  for (int s = 0; s < n; s++)
    step(v, dtau + s, sum);
}
void launchByValue(int n, double **t) { byValue<<<dim3(1, 1, 8), 64>>>(n, t); }

// The callee sets a local of the caller through its address, each thread its own value:
// a return on it leaves part of the block before the barrier. Reported, with the threads:
// the callee's one store `*out = v` on every path is the local's value.
__device__ void pick(int *out) { *out = threadIdx.x % 3; }
__global__ void byAddress(float *a) {
  __shared__ float s[64];
  int k = 0;
  pick(&k);
  if (k == 0)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: error: '__syncthreads()' in kernel 'byAddress' is skipped by 22 of 64 threads of the block 64x1x1: threads 0, 3, 6, 9,
  a[threadIdx.x] = s[63 - threadIdx.x];
}
void launchByAddress(float *a) { byAddress<<<4, 64>>>(a); }

// The same through a reference. Reported.
__device__ void pickRef(int &out) { out = threadIdx.x % 3; }
__global__ void byReference(float *a) {
  __shared__ float s[64];
  int k = 0;
  pickRef(k);
  if (k == 0)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'byReference' may be skipped by part of the block
  a[threadIdx.x] = s[63 - threadIdx.x];
}
void launchByReference(float *a) { byReference<<<4, 64>>>(a); }
