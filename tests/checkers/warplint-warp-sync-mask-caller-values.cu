// Real values before sampled ones, through the host's callers (issue 23, sixteenth
// session: HeCBench softmax-online's `if (tid >= C) return;` with C = V = 50257 from main,
// through a kernel-number dispatcher and a launcher). A kernel argument that is a parameter
// of the launching function takes what every call of that function in the file passes,
// followed three callers up; the sync, memory, race and branch models all read it
// (TuModel::passedValues). A block-local index against a run-time size leaves threads in
// every block, and only when the size is below the block's: the message says so.
// Seventeenth session: a function handed to a benchmark template that calls it through
// its parameter (`bench(reps, dispatch, args...)`, `k(std::forward<A>(a)...)`) has those
// calls as its own, and a variable bound to the template's `A&&` keeps its value where the
// template only hands it on (std::forward writes nothing); a function whose address
// escapes otherwise (a table of launchers) may be called with any values: none is taken.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s
#include <utility>

// Silent: every path passes C = 50257, above every block, so no thread returns at the
// guard and all 32 lanes reach the shuffles.
__global__ void rowMax(float *out, const float *in, int N, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  int row = blockIdx.x * (blockDim.x / 32) + tid / 32;
  if (row >= N)
    return;
  float m = -1e30f;
  for (int i = tid % 32; i < C; i += 32)
    m = m > in[row * C + i] ? m : in[row * C + i];
  for (int o = 16; o > 0; o >>= 1) {
    float v = __shfl_down_sync(0xffffffffu, m, o);
    m = m > v ? m : v;
  }
  if (tid % 32 == 0)
    out[row] = m;
}
void launchRows(float *out, const float *in, int N, int C, int block) {
  rowMax<<<(N * 32 + block - 1) / block, block>>>(out, in, N, C);
}
void dispatch(int which, float *out, const float *in, int N, int C, int block) {
  switch (which) {
  case 1:
    launchRows(out, in, N, C, block);
    break;
  default:
    break;
  }
}

// Reported: the one caller passes a width of 20, below the block of 32, so lanes 20-31
// leave before the shuffles, whose tree reads them.
__global__ void narrowRows(float *out, const float *in, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  float m = in[blockIdx.x * C + tid];
  for (int o = 16; o > 0; o >>= 1)
    m += __shfl_down_sync(0xffffffffu, m, o);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'narrowRows' names lanes that may not take part: the threads whose 'tid' is at or past 'C' (in every block, when 'C' is below the block's size) leave at the 'return' on line [[@LINE-4]] and never reach it
  // CHECK: note: the threads whose 'tid' is at or past 'C' (in every block
  // CHECK: note: give the lanes that arrive as the mask
  if (tid == 0)
    out[blockIdx.x] = m;
}
void launchNarrow(float *out, const float *in, int rows, int C) {
  narrowRows<<<rows, 32>>>(out, in, C);
}

// A stride that the callers fix: 1 from one caller (coalesced, silent), 8 from another
// (reported with its real figure, not a sampled one).
__global__ void gather(const float *in, float *out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * stride];
}
void launchGather(const float *in, float *out, int n, int stride) {
  gather<<<n / 256, 256>>>(in, out, stride);
}
__global__ void gatherEight(const float *in, float *out, int stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * stride];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[t * stride]' touches 32 sectors for 128 bytes (ideal 4): stride of 8 floats between lanes
}
void launchGatherEight(const float *in, float *out, int n, int stride) {
  gatherEight<<<n / 256, 256>>>(in, out, stride);
}

template <class K, class... A> float bench(int reps, K k, A &&...a) {
  for (int r = 0; r < reps; ++r)
    k(std::forward<A>(a)...);
  return 0.f;
}

// The same guard in a kernel whose launcher's address goes into a table: whatever main
// passes directly, the table may call it with any width, so the width is a run-time
// value and the split is reported.
__global__ void tableRows(float *out, const float *in, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  float m = in[blockIdx.x * C + tid];
  for (int o = 16; o > 0; o >>= 1)
    m += __shfl_down_sync(0xffffffffu, m, o);
  // CHECK: :[[@LINE-1]]:10: warning: mask 0xffffffff of '__shfl_down_sync()' in kernel 'tableRows' names lanes that may not take part
  // CHECK: note: the threads whose 'tid' is at or past 'C'
  // CHECK: note: give the lanes that arrive as the mask
  if (tid == 0)
    out[blockIdx.x] = m;
}
void launchTable(float *out, const float *in, int rows, int C) {
  tableRows<<<rows, 32>>>(out, in, C);
}
void (*launchers[])(float *, const float *, int, int) = {launchTable};

int main(int argc, char **argv) {
  int V = 50257;
  float *o = nullptr, *i = nullptr;
  for (int b = 32; b <= 1024; b *= 2)
    dispatch(argc, o, i, 8192, V, b);
  for (int b = 32; b <= 1024; b *= 2)
    bench(10, dispatch, argc, o, i, 8192, V, b);
  launchTable(o, i, 100, 50257);
  launchNarrow(o, i, 100, 20);
  launchGather(i, o, 1 << 20, 1);
  launchGatherEight(i, o, 1 << 20, 8);
  return 0;
}
