// warplint-uncoalesced-access: a one-block one-shot (issue 23, sixteenth session: ginkgo's
// build_searchtree, `<<<1, bucket_count>>>` once per selection, whose heap-ordered store of
// one splitter per thread is strided). Every launch of the kernel in the file is a grid of
// one block, outside any loop of the launching function, and the access is in the
// kernel's body outside its loops: each thread makes it once per launch, a block's worth
// of bytes. A note. Inside a loop of the kernel, with a launch in a host loop, or with a
// grid of more than one block, a warning.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

// A note: one block, once.
__global__ void buildTree(const float *in, float *tree) {
  float v = in[threadIdx.x];
  tree[threadIdx.x * 8] = v;
  // CHECK: :[[@LINE-1]]:3: remark: each warp's store of 'tree[threadIdx.x * 8]' touches 32 sectors
  // CHECK: :[[@LINE-2]]:3: note: said as a note: every launch of 'buildTree' in this file is one block of at most 256 threads, outside any loop, and the access is outside the kernel's loops: each thread makes it once per launch, 1024 bytes in all (a one-time cost)
}
void selectOnce(const float *in, float *tree) { buildTree<<<1, 256>>>(in, tree); }

// A warning: the access is in a loop of the kernel (a one-block kernel's work).
__global__ void oneBlockLoop(const float *in, float *out, int n) {
  for (int r = 0; r < 16; ++r)
    out[r * 4096 + threadIdx.x * 8] = in[r * 256 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:5: warning: each warp's store of 'out[r * 4096 + threadIdx.x * 8]' touches 32 sectors
}
void launchLoop(const float *in, float *out, int n) { oneBlockLoop<<<1, 256>>>(in, out, n); }

// A warning: one block, but launched once per step of a host loop.
__global__ void perStep(const float *in, float *out, int k) {
  out[k * 4096 + threadIdx.x * 8] = in[threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'out[k * 4096 + threadIdx.x * 8]' touches 32 sectors
}
void steps(const float *in, float *out, int n) {
  for (int k = 0; k < n; ++k)
    perStep<<<1, 256>>>(in, out, k);
}

// A warning: a grid of many blocks.
__global__ void manyBlocks(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t * 8] = in[t];
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'out[t * 8]' touches 32 sectors
}
void launchMany(const float *in, float *out, int n) { manyBlocks<<<n / 256, 256>>>(in, out); }
