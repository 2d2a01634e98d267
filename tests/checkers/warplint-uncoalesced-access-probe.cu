// warplint-uncoalesced-access: a figure that rests on a sampled stride (issue 23, fifteenth
// session: ginkgo's fbcsr convert_to_csr and AMGX's csr_to_dense, whose stride between
// lanes is a block size no launch in the file fixes). The joint samples of the run-time
// values are a few evenly spaced combinations, and here every one that reaches the load
// gives block_size 33: the warning was that sample's. Each sampled parameter of the
// address is now also tried alone with its other samples, the rest as sampled; a value
// that makes the access coalesced (block_size = 1) makes the figure the value's: a note
// that gives the figures. A stride the code fixes, or a parameter that only moves the
// base, stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

__global__ void toRows(const float *blocks, float *values, const int *ptrs, int num_rows,
                       int block_size) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= num_rows)
    return;
  const int begin = ptrs[row], num_blocks = ptrs[row + 1] - begin;
  for (int i = lane; i < num_blocks * block_size * block_size; i += 32) {
    const int local_row = i / (num_blocks * block_size);
    const int local_block = (i % (num_blocks * block_size)) / block_size;
    const int local_col = i % block_size;
    values[begin * block_size * block_size + i] =
        blocks[(begin + local_block) * block_size * block_size + local_col * block_size +
               local_row];
    // CHECK: :[[@LINE-2]]:9: remark: each warp's load of 'blocks[...]' touches 32 sectors for 128 bytes (ideal 4): a stride between lanes that {{.*}}block_size decides
    // CHECK: :[[@LINE-3]]:9: note: said as a note: the run-time value of {{.*}}block_size decides the figure and no launch in this file passes it as a constant ({{.*}}; with block_size = 1 (the rest as sampled): {{[0-9]+}} sectors for {{[0-9]+}} bytes
  }
}

// A stride the code fixes (7 floats): a warning.
__global__ void fixedStride(const float *in, float *out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * 7];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[t * 7]' touches 28 sectors for 128 bytes (ideal 4): stride of 7 floats between lanes
}

// A parameter that moves the base only: every sample leaves the lanes 7 floats apart, and
// no sample coalesces them. A warning.
__global__ void movedBase(const float *in, float *out, int offset) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[offset + t * 7];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[offset + t * 7]' touches
}

void launchAll(const float *b, float *v, const int *p, int n, int bs, int off) {
  toRows<<<n / 16, 512>>>(b, v, p, n, bs);
  fixedStride<<<n, 256>>>(b, v);
  movedBase<<<n, 256>>>(b, v, off);
}
