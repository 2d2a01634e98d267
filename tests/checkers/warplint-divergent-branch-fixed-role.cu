// warplint-divergent-branch: a role fixed to some lanes, with straight-line work (issue 23,
// fourteenth session: the leaders' write-outs, the first N lanes, the lanes of a padded
// record that made most of the check's false warnings on AMGX, ginkgo, PhysX and
// TensorRT). The same lanes of each warp take the branch in every trip of the loops around
// it, and the arm runs no loop over memory (a loop of 32 constant trips or fewer is its
// body written out): a note, with the reason. Each twin that stays a warning changes one
// thing: the set of lanes moves with the loop, the arm loops over memory, both arms work,
// the arm is a step of the warp's own tree, or it holds a barrier.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' -config="{CheckOptions: {warplint-divergent-branch.ReportLeaderPatterns: true}}" %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=LEADERS %s

// One lane of each group of 4 writes the group's row flag, row after row (no collective
// before it, so not the leaders' write-out of a reduction): a note.
__global__ void groupLeader(float *out, const float *in, int rows) {
  const int g = threadIdx.x % 4;
  for (int r = blockIdx.x * 32 + threadIdx.x / 4; r < rows; r += gridDim.x * 32) {
    float v = in[r * 4 + g];
    out[r * 4 + g] = v * 2.f;
    if (g == 1)
      out[rows * 4 + r] = v * 0.5f;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'g' diverges in up to 4 of 4 warps of kernel 'groupLeader' (block 128x1x1); predicted branch efficiency 0%
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs, through every trip of the loops around it (a role of those lanes: a leader, the first lanes of a group), and its arm runs no loop over memory
    // LEADERS: :[[@LINE-4]]:9: warning: branch on 'g' diverges in up to 4 of 4 warps of kernel 'groupLeader'
  }
}

struct Word4 {
  unsigned x, y, z, w;
};

// The lanes past a 14-word record in groups of 16 (PhysX's bodies): straight-line loads
// and stores by lanes 0-13 of each group, every trip: a note.
__global__ void paddedRecords(Word4 *dst, const Word4 *src, int n) {
  const int lane = threadIdx.x & 15;
  for (int b = blockIdx.x * 8 + threadIdx.x / 16; b < n; b += gridDim.x * 8)
    if (lane < 14) {
      Word4 w = src[b * 14 + lane];
      w.x += 1;
      dst[b * 14 + lane] = w;
    }
  // CHECK: :[[@LINE-5]]:9: remark: branch on 'lane' diverges in up to 4 of 4 warps of kernel 'paddedRecords' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-6]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// The first 6 lanes of each warp copy a 6-vector, element by element in a loop of 4
// constant trips (its body written out, as the compiler unrolls it), once per trip of the
// row loop: a note.
__global__ void unrolledArm(float *dst, const float *src, int rows) {
  const int lane = threadIdx.x & 31;
  for (int r = blockIdx.x * 4 + threadIdx.x / 32; r < rows; r += gridDim.x * 4)
    if (lane < 6) {
      for (int k = 0; k < 4; ++k)
        dst[(r * 6 + lane) * 4 + k] = src[(r * 6 + lane) * 4 + k];
    }
  // CHECK: :[[@LINE-4]]:9: remark: branch on 'lane' diverges in up to 4 of 4 warps of kernel 'unrolledArm' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Groups of a run-time size P (a power of two, PhysX's lanes per body): the leader of
// each, `t & (P - 1) == 0`, whatever P is: a note.
__global__ void runtimeGroups(float *out, const float *in, unsigned slabs) {
  const unsigned P = slabs < 32u ? slabs : 32u;
  const unsigned inUnit = threadIdx.x & (P - 1);
  const unsigned body = (blockIdx.x * blockDim.x + threadIdx.x) / P;
  float v = in[body * P + inUnit];
  if (inUnit == 0)
    out[body] = v * 0.5f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'inUnit' diverges
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}

// Twin: a run-time value that picks the lanes rather than sizing groups (a bitonic step's
// partner, j from the host's loop): a warning.
__global__ void partnerStep(float *c, unsigned j) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ixj = i ^ j;
  if (ixj > i) {
    float a = c[i], b = c[ixj];
    c[i] = a < b ? a : b;
    c[ixj] = a < b ? b : a;
  }
  // CHECK: :[[@LINE-5]]:7: warning: branch on 'ixj' diverges
}

// Twin: the lanes that take it move with the loop (a tree over the block, interleaved):
// a warning.
__global__ void movingSet(float *s) {
  for (int stride = 1; stride < 128; stride *= 2) {
    if (threadIdx.x % (2 * stride) == 0)
      s[threadIdx.x] += s[threadIdx.x + stride];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'threadIdx.x' diverges in 23 of 28 warp executions of kernel 'movingSet' (block 128x1x1, 7 values of 'stride'); predicted branch efficiency 18%
    __syncthreads();
  }
}

// Twin: the same leader, its arm looping over memory for a run-time count (a case body's
// work): a warning.
__global__ void leaderLoops(float *out, const float *in, int rows, int n) {
  const int g = threadIdx.x % 4;
  for (int r = blockIdx.x * 32 + threadIdx.x / 4; r < rows; r += gridDim.x * 32)
    if (g == 1) {
      float v = 0;
      for (int k = 0; k < n; ++k)
        v += in[r * n + k];
      out[r] = v;
    }
  // CHECK: :[[@LINE-6]]:9: warning: branch on 'g' diverges in up to 4 of 4 warps of kernel 'leaderLoops' (block 128x1x1); predicted branch efficiency 0%
}

// Twin: both arms work (two paths the warp runs one after the other): a warning.
__global__ void twoPaths(float *a, float *b, int rows) {
  const int g = threadIdx.x % 4;
  for (int r = blockIdx.x * 32 + threadIdx.x / 4; r < rows; r += gridDim.x * 32) {
    if (g == 1)
      a[r] = a[r] * 2.f + 1.f;
    else
      b[r * 4 + g] = b[r * 4 + g] * 3.f;
    // CHECK: :[[@LINE-4]]:9: warning: branch on 'g' diverges in up to 4 of 4 warps of kernel 'twoPaths' (block 128x1x1); predicted branch efficiency 0%
  }
}

// Twin: a step of the warp's own tree (the arm reads what another lane wrote): a warning.
__global__ void warpTree(volatile float *s) {
  const int lane = threadIdx.x & 31;
  for (int k = 0; k < 4; ++k) {
    if (lane < 16)
      s[threadIdx.x] += s[threadIdx.x + 16];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'lane' diverges in 16 of 16 warp executions of kernel 'warpTree' (block 128x1x1, 4 values of 'k'); predicted branch efficiency 0%
  }
}

void launchAll(float *f, const float *cf, Word4 *u, const Word4 *cu, int n) {
  groupLeader<<<64, 128>>>(f, cf, n);
  paddedRecords<<<64, 128>>>(u, cu, n);
  unrolledArm<<<64, 128>>>(f, cf, n);
  runtimeGroups<<<64, 128>>>(f, cf, n);
  partnerStep<<<64, 128>>>(f, n);
  movingSet<<<64, 128>>>(f);
  leaderLoops<<<64, 128>>>(f, cf, n, n);
  twoPaths<<<64, 128>>>(f, f, n);
  warpTree<<<64, 128>>>(f);
}
