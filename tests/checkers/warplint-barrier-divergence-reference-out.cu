// warplint-barrier-divergence: a helper's writes through its reference parameters (issue
// 23, HeCBench's bm3d get_block_addresses): a local bound to a writable reference takes
// what the callee left in it. Built from blockIdx and by-value arguments it is the same in
// the whole block, and a return on it keeps the block together. Written from the thread
// index, or left different by a return the callee takes in some threads only, it is not.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Pos {
  unsigned x, y;
};

// The block's corner and first element, from blockIdx and by-value sizes only.
__device__ void corner(const Pos &start, const unsigned &step, const Pos &dim, Pos &out,
                       unsigned &first) {
  first = step * (blockIdx.x + blockIdx.y * gridDim.x);
  out.x = start.x + blockIdx.x * step;
  out.y = start.y + blockIdx.y * step;
  if (out.y >= dim.y && out.y < dim.y + step - 1)
    out.y = dim.y - 1;
}
// Silent.
__global__ void uniformCorner(Pos start, unsigned step, Pos dim, float *a) {
  __shared__ float s[64];
  unsigned first;
  Pos p;
  corner(start, step, dim, p, first);
  if (p.x >= dim.x || p.y >= dim.y)
    return;
  s[threadIdx.x] = a[first + threadIdx.x];
  __syncthreads();
  a[first + threadIdx.x] = s[63 - threadIdx.x];
}

// The callee leaves its odd threads early: out differs between threads. Reported.
__device__ void evenOnly(unsigned &out) {
  out = 0;
  if (threadIdx.x & 1)
    return;
  out = blockIdx.x + 1;
}
__global__ void earlyReturn(float *a) {
  __shared__ float s[64];
  unsigned k;
  evenOnly(k);
  if (k == 0)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'earlyReturn' may be skipped by part of the block
  a[threadIdx.x] = s[63 - threadIdx.x];
}

// A member written from the thread index. Reported.
__device__ void laneCorner(Pos &out) {
  out.x = blockIdx.x;
  out.y = threadIdx.x / 8;
}
__global__ void laneMember(float *a) {
  __shared__ float s[64];
  Pos p;
  laneCorner(p);
  if (p.y >= 4)
    return;
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'laneMember' may be skipped by part of the block
  a[threadIdx.x] = s[63 - threadIdx.x];
}

void launch(Pos st, unsigned step, Pos dim, float *a) {
  uniformCorner<<<dim3(4, 4), 64>>>(st, step, dim, a);
  earlyReturn<<<4, 64>>>(a);
  laneMember<<<4, 64>>>(a);
}
