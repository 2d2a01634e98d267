// warplint-divergent-branch: one statement beside the work every lane does (issue 23,
// sixteenth session: PhysX's aggregate.cu:315 and constraintBlockPrep.cu:351, pairs of
// lanes of which the even one also stores the pair's one entry). An `if` with no else
// whose arm is one straight-line statement, in a block whose other statements read or
// write memory at least twice, is predicated by nvcc: the lanes that skip it idle for that
// statement alone. A note. Where the `if` is the work (an interleaved scan, the only
// memory statement of its loop), or its arm is more than one statement, a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// A note: the even lane of each pair also stores the pair's index, beside two loads and
// two stores every lane makes.
__global__ void pairs(const unsigned *ids, const unsigned *bounds, unsigned *proj,
                      unsigned *handles, unsigned *index, unsigned n) {
  for (unsigned i = threadIdx.x; i < 2 * n; i += 32) {
    const unsigned id = i / 2;
    const unsigned handle = ids[id];
    const unsigned minMax = bounds[handle * 6 + (i & 1) * 3];
    proj[i] = minMax;
    handles[i] = id * 2 + (i & 1);
    if ((i % 2) == 0)
      index[id] = handle;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'i' diverges
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the arm is one statement beside 4 statements of memory work that every lane of the block around it does
  }
}
void launchPairs(const unsigned *a, const unsigned *b, unsigned *p, unsigned *h, unsigned *x,
                 unsigned n) {
  pairs<<<n / 16, 32>>>(a, b, p, h, x, n);
}

// A warning: the `if` is its loop's work (an interleaved scan: at step i one lane in 2i
// adds, the others idle).
__global__ void scan(int *lt) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = lt[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned i = 1; i < 256; i <<= 1) {
    unsigned n = 2 * i - 1;
    if ((t & n) == n)
      s[t] += s[t - i];
    // CHECK: :[[@LINE-2]]:9: warning: branch on
    __syncthreads();
  }
  lt[blockIdx.x * 256 + t] = s[t];
}
void launchScan(int *lt, int blocks) { scan<<<blocks, 256>>>(lt); }

// A warning: the one statement has a single memory statement beside it, and the lanes
// that take it change with each step: the arm is half the loop's work.
__global__ void alternate(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < steps; ++k) {
    float v = in[k * n + i];
    if ((i + k) % 2 == 0)
      out[k * n + i] = v;
    // CHECK: :[[@LINE-2]]:9: warning: branch on
  }
}
void launchAlternate(const float *in, float *out, int n, int steps) {
  alternate<<<n / 256, 256>>>(in, out, n, steps);
}
