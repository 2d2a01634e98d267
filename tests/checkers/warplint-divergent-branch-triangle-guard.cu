// warplint-divergent-branch: bounds guards of two kinds (issue 23, twenty-eighth session,
// gpu4pyscf, labelled false by a blind labeller).
// - A triangle guard: `i < j` with i and j global indices of the grid along different
//   thread dimensions (`if (i >= n || j >= n || i < j) return;` over 16x16 tiles). The
//   diagonal cuts only the blocks on it, O(n) of the O(n^2); in every other block the
//   comparison is the same for all threads, as a grid-tail bound is. Silent.
// - The first K threads, K a run-time width: `row == 0` with row = t / width and width
//   256 / table[b] (gpu4pyscf's `gout_id == 0`: the lanes that set up the block's shared
//   values) is `t < width`, a bounds guard.
// A comparison of two thread indices within the block (`threadIdx.x < threadIdx.y`: the
// same warps split in every block) stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

__global__ void packTril(double *out, const double *a, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n || i < j)
    return;
  out[i * (i + 1) / 2 + j] = a[i * n + j];
}

__global__ void fillTriu(double *a, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n && i < j)
    a[i * n + j] = a[j * n + i];
}

__global__ void inTile(double *a) {
  __shared__ double t[16][17];
  if (threadIdx.x < threadIdx.y)
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'inTile' (block 16x16x1); predicted branch efficiency 0% [warplint-divergent-branch]
    t[threadIdx.y][threadIdx.x] = a[threadIdx.x];
  else
    t[threadIdx.y][threadIdx.x] = 1.0;
  a[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

__global__ void setupRow(const double *coords, const int *table, double *out) {
  extern __shared__ double smem[];
  int t = threadIdx.x;
  int width = 256 / table[blockIdx.x];
  int sp = t % width;
  int row = t / width;
  double *rpq = smem + sp;
  if (row == 0) {
    double x = coords[blockIdx.x * 3 + 0], y = coords[blockIdx.x * 3 + 1];
    rpq[0] = x - y;
    rpq[width] = x * y;
  }
  __syncthreads();
  out[blockIdx.x * 256 + t] = rpq[0] + rpq[width] * row;
}

// The first K threads beside another term: a prefix of every block, not the grid's tail, so
// the guard is not set aside as one (the figures are the whole condition's), where a global
// index's guard is (`i < n && i % 4 == 0`: the figures are `i % 4 == 0`'s).
__global__ void prefixAndParity(float *out, const float *in, int width) {
  int t = threadIdx.x;
  if (t / width == 0 && t % 4 == 0)
    // CHECK: :[[@LINE-1]]:7: remark: branch on 't' diverges in up to 8 of 8 warps of kernel 'prefixAndParity'
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    // CHECK-NOT: only takes the grid's tail away
    out[blockIdx.x * 256 + t] = in[t] * 2.f + in[t + 1];
}
__global__ void tailAndParity(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 4 == 0)
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'i % 4 == 0' diverges in 8 of 8 warps of kernel 'tailAndParity'
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    // CHECK: :[[@LINE-3]]:7: note: the bounds guard beside 'i % 4 == 0' only takes the grid's tail away
    out[i] = in[i] * 2.f + in[i + 1];
}

void launchTriangles(double *o, const double *a, double *b, const int *tb, int n) {
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  packTril<<<grid, block>>>(o, a, n);
  fillTriu<<<grid, block>>>(b, n);
  inTile<<<grid, block>>>(b);
  setupRow<<<100, 256, 4096>>>(a, tb, o);
  prefixAndParity<<<100, 256>>>(reinterpret_cast<float *>(o), reinterpret_cast<const float *>(a), n);
  tailAndParity<<<100, 256>>>(reinterpret_cast<float *>(o), reinterpret_cast<const float *>(a), n);
}
