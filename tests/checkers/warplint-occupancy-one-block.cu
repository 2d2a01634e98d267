// warplint-occupancy on a grid of one block: it runs on one SM whatever the occupancy, so
// the finding is a note (magma's trsv solves launch grid(1,1,1)); the same kernel on a
// grid of 64 blocks stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|remark}}:' %s

__global__ void heavy(float *p) {
  __shared__ float big[12 * 1024]; // 48 KiB: 2 blocks of 256 threads per SM on sm_86
  big[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = big[255 - threadIdx.x];
}

void run(float *p) {
  heavy<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: occupancy at most 33.3% for 'heavy' on sm_86: at most 16 of 48 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
  heavy<<<1, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: remark: occupancy at most 33.3% for 'heavy' on sm_86: at most 16 of 48 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: the grid is one block, which runs on one SM whatever the occupancy; more resident blocks would change nothing
  heavy<<<dim3(1, 1, 1), 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: remark: occupancy at most 33.3%
}
