// warplint-divergent-branch: an operand of an `if`'s `&&` chain whose later operands only
// compute values (loads and arithmetic) and whose `if` only moves registers (issue 23,
// fourteenth session: PhysX's segmented scans by shuffles, `lane >= r && key ==
// keys[lane - r]` then a register add). The compiler predicates the loads and makes selects
// of the arm: a note, as a '?:' of loads is. The twin whose arm stores stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void segmentedScan(float *out, const float *in, const int *keys) {
  __shared__ int sKey[128];
  const unsigned lane = threadIdx.x & 31;
  const int key = keys[blockIdx.x * 128 + threadIdx.x];
  sKey[threadIdx.x] = key;
  __syncwarp();
  float v = in[blockIdx.x * 128 + threadIdx.x];
  for (unsigned r = 1; r < 32; r <<= 1) {
    float other = __shfl_up_sync(0xffffffff, v, r);
    if (lane >= r && key == sKey[threadIdx.x - r])
      v += other;
    // CHECK: :[[@LINE-2]]:9: remark: short-circuit operand on 'lane' diverges
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the operands after it compute values without side effects (loads and arithmetic) and the 'if''s arms only move registers
  }
  out[blockIdx.x * 128 + threadIdx.x] = v;
}

// Twin: the arm stores, each trip: a warning.
__global__ void segmentedStore(float *out, const float *in, const int *keys) {
  __shared__ int sKey[128];
  const unsigned lane = threadIdx.x & 31;
  const int key = keys[blockIdx.x * 128 + threadIdx.x];
  sKey[threadIdx.x] = key;
  __syncwarp();
  float v = in[blockIdx.x * 128 + threadIdx.x];
  for (unsigned r = 1; r < 32; r <<= 1) {
    float other = __shfl_up_sync(0xffffffff, v, r);
    if (lane >= r && key == sKey[threadIdx.x - r])
      out[(blockIdx.x * 128 + threadIdx.x) * 5 + r % 5] = other;
    // CHECK: :[[@LINE-2]]:9: warning: short-circuit operand on 'lane' diverges
  }
}

void launch(float *o, const float *i, const int *k) {
  segmentedScan<<<64, 128>>>(o, i, k);
  segmentedStore<<<64, 128>>>(o, i, k);
}
