// warplint-data-race: a store through a class's trivial `operator=` (a `__half`, a small
// struct copied whole) is a store of its right-hand side, as `a = v` is
// (thirteenth session, ginkgo's batch CG: `norms_res_sh[0] = sqrt(abs(rho_old_sh[0]))` in
// __half, every thread one value to one word). Every thread storing one block-uniform value:
// benign, silent by default. A thread-dependent value through the same operator, and a
// local never initialized (each thread's own indeterminate bytes, GPUVerify's
// memcpy/fail_arrayofstruct): reported.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.ReportBenign: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BENIGN %s
#include <cuda_runtime.h>

struct Half {
  unsigned short x;
};

__global__ void sameValue(Half *out, int iters) {
  __shared__ Half norm[1];
  __shared__ Half rho[1];
  if (threadIdx.x == 0)
    rho[0] = out[blockIdx.x];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    norm[0] = rho[0];
    // BENIGN: :[[@LINE-1]]:5: warning: data race on shared 'norm[0]'{{.*}}both write the same value (block 128x1x1, every sampled value of 'iters')
    __syncthreads();
    if (threadIdx.x == 0)
      rho[0].x = norm[0].x >> 1;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = norm[0];
}

__global__ void laneValue(Half *out) {
  __shared__ Half slot[1];
  Half mine;
  mine.x = threadIdx.x;
  slot[0] = mine;
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'slot[0]'
  // BENIGN: :[[@LINE-2]]:3: warning: data race on shared 'slot[0]'
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = slot[0];
}

__global__ void freshValue(Half *out) {
  Half fresh;
  out[42] = fresh;
  // CHECK: :[[@LINE-1]]:3: warning: data race on global 'out[42]'
  // BENIGN: :[[@LINE-2]]:3: warning: data race on global 'out[42]'
}

// Declared without a value but assigned before the store (HeCBench's btree init_btree:
// lane 0 allocates, a shuffle hands its id to the warp): one value, benign. Silent.
__global__ void sharedRoot(unsigned *d_root, const unsigned *ids) {
  unsigned root_id;
  if (threadIdx.x % 32 == 0)
    root_id = ids[0];
  root_id = __shfl_sync(0xffffffffu, (int)root_id, 0);
  *d_root = root_id;
  // BENIGN: :[[@LINE-1]]:3: warning: data race on global 'd_root[0]'{{.*}}both write the same value
}

void go(Half *o, int n) {
  sharedRoot<<<1, 32>>>(nullptr, nullptr);
  freshValue<<<1, 64>>>(o);
  sameValue<<<64, 128>>>(o, n);
  laneValue<<<64, 128>>>(o);
}
