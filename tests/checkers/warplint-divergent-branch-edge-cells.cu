// warplint-divergent-branch: the cells on a domain's edge (issue 23, HeCBench's laplace3d).
// A Jacobi sweep keeps the boundary fixed (`if (i == 0 || i == NX - 1 || j == 0 || ...)
// u2 = u1[ind]; else u2 = average`): each equality holds for one lane of a row at most
// (i along x) or for a whole row (j, k): O(perimeter) lanes take the boundary's arm beside
// O(area) the interior's, a leader's pattern, and silent like a leader. An equality of a
// row coordinate picks whole rows: it counts where the coordinate is the grid's or the
// value a run-time one (`j == my - 1`), not for `threadIdx.y == 0` against a constant. A
// test with any other disjunct (`i % 2 == 0`) is no edge and stays reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

__global__ void jacobi(int NX, int NY, const float *u1, float *u2) {
  int i = blockIdx.x * 32 + threadIdx.x;
  int j = blockIdx.y * 8 + threadIdx.y;
  if (i < NX && j < NY) {
    int ind = j * NX + i;
    float v;
    if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1)
      v = u1[ind];
    else
      v = 0.25f * (u1[ind - 1] + u1[ind + 1] + u1[ind - NX] + u1[ind + NX]);
    u2[ind] = v;
  }
}

__global__ void striped(int NX, int NY, const float *u1, float *u2) {
  int i = blockIdx.x * 32 + threadIdx.x;
  int j = blockIdx.y * 8 + threadIdx.y;
  if (i < NX && j < NY) {
    int ind = j * NX + i;
    float v;
    if (i == 0 || i % 2 == 0)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'i' diverges in
      v = u1[ind];
    else
      v = 0.25f * (u1[ind - 1] + u1[ind + 1] + u1[ind - NX] + u1[ind + NX]);
    u2[ind] = v;
  }
}

// A picture's axes in 16x16 blocks (HeCBench's colorwheel): a column (one lane per row)
// and a row of the grid (16 lanes of one warp of one block row) return early. Silent.
__global__ void axes(float *pix, int size, int half) {
  int y = blockDim.y * blockIdx.y + threadIdx.y;
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  if (y < size && x < size) {
    if (x == half || y == half)
      return;
    pix[y * size + x] = (float)(x * x + y * y);
  }
}

// The last row of a block that spans the y extent (HeCBench's reaction, blocks of 2 x my):
// `j == my - 1` picks one row of 2 lanes. Silent. The tile's first row of a block-local
// index against a constant (`threadIdx.y == 0`) is evaluated as it stands and reported.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void zeroFlux(const float *f, float *df, int mx, int my) {
  extern __shared__ float s_f[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = threadIdx.y;
  int g = blockIdx.y * mx * my + j * mx + i;
  float v = f[g];
  for (int it = 0; it < mx; ++it)
    if (threadIdx.y == 0) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'threadIdx.y' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      v = v * v + f[g + it];
      df[g + it] = v;
    }
  s_f[j * 2 + threadIdx.x] = v;
  __syncthreads();
  if (j == my - 1)
    df[g] = s_f[(j - 1) * 2 + threadIdx.x] - s_f[j * 2 + threadIdx.x];
  else
    df[g] = s_f[(j + 1) * 2 + threadIdx.x] - s_f[j * 2 + threadIdx.x];
}

// Both ends of the extent in one else-if chain (HeCBench's reaction, its first zero-flux
// row): `j == 0` against a constant, whose chain also tests `j == my - 1`, is the
// domain's first row, not a tile's. Silent.
__global__ void zeroFluxBoth(const float *f, float *df, int mx, int my) {
  extern __shared__ float s_f[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = threadIdx.y;
  int g = blockIdx.y * mx * my + j * mx + i;
  s_f[j * 2 + threadIdx.x] = f[g];
  __syncthreads();
  if (j == 0)
    df[g] = s_f[(j + 1) * 2 + threadIdx.x] - s_f[j * 2 + threadIdx.x];
  else if (j == my - 1)
    df[g] = s_f[(j - 1) * 2 + threadIdx.x] - s_f[j * 2 + threadIdx.x];
  else
    df[g] = s_f[(j + 1) * 2 + threadIdx.x] - 2.f * s_f[j * 2 + threadIdx.x] +
            s_f[(j - 1) * 2 + threadIdx.x];
}

// The same chain whose other test is a constant row (`j == 3`): no far end, a tile's rows
// picked by the code. Reported.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void twoRows(const float *f, float *df, int mx, int my) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = threadIdx.y;
  int g = blockIdx.y * mx * my + j * mx + i;
  float v = f[g];
  for (int it = 0; it < mx; ++it) {
    if (j == 0)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'j' diverges in
      v = v * v + f[g + it];
    else if (j == 3)
      // CHECK: :[[@LINE-1]]:14: remark: branch on 'j' diverges in
      // CHECK: :[[@LINE-2]]:14: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      v = v * 0.5f + f[g + it];
  }
  df[g] = v;
}

// The interior written as the complement (HeCBench's tonemapping): `x != 0 && y != 0 &&
// x != width - 1 && y != height - 1` splits the lanes as the edge test does. Silent; with
// a parity among the terms, reported.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void interior(const float *in, float *out, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[y * width + x];
  if (x != 0 && y != 0 && x != width - 1 && y != height - 1)
    v = 0.25f * (in[y * width + x - 1] + in[y * width + x + 1] + in[(y - 1) * width + x] +
                 in[(y + 1) * width + x]);
  out[y * width + x] = v;
  if (x != 0 && y != 0 && x % 2 != 0)
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'x' diverges in
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    out[y * width + x] = 0.25f * (in[y * width + x - 1] + in[y * width + x + 1]);
}

void launch(int NX, int NY, const float *u1, float *u2) {
  dim3 block(32, 8), grid((NX + 31) / 32, (NY + 7) / 8);
  jacobi<<<grid, block>>>(NX, NY, u1, u2);
  striped<<<grid, block>>>(NX, NY, u1, u2);
  dim3 b16(16, 16), g16((NX + 15) / 16, (NX + 15) / 16);
  axes<<<g16, b16>>>(u2, NX, NX / 2);
  dim3 by(2, 128), gy(NX / 2, NY);
  zeroFlux<<<gy, by, 2 * 128 * sizeof(float)>>>(u1, u2, NX, 128);
  zeroFluxBoth<<<gy, by, 2 * 128 * sizeof(float)>>>(u1, u2, NX, 128);
  twoRows<<<gy, by>>>(u1, u2, NX, 128);
  interior<<<g16, b16>>>(u1, u2, NX, NY);
}

// The coordinates of a flattened index by a run-time size (twenty-eighth session,
// SUNDIALS' idaHeat2D: i = tid % mm, j = tid / mm, labelled false by a blind labeller): the
// domain's own boundary, O(mm) cells of the O(mm^2), however mm lays its rows across the
// warps. Silent. Any other disjunct (`i % 2 == 0`) is no edge and stays a warning.
__global__ void resHeat(const double *uu, double *rr, long mm) {
  long tid = blockDim.x * blockIdx.x + threadIdx.x;
  if (tid < mm * mm) {
    long i = tid % mm;
    long j = tid / mm;
    if (j == 0 || j == mm - 1 || i == 0 || i == mm - 1) {
      rr[tid] = uu[tid];
    } else {
      double d1 = uu[tid - 1] + uu[tid + 1] - 2 * uu[tid];
      double d2 = uu[tid - mm] + uu[tid + mm] - 2 * uu[tid];
      rr[tid] = d1 + d2;
    }
  }
}
__global__ void oddColumns(const double *uu, double *rr, long mm) {
  long tid = blockDim.x * blockIdx.x + threadIdx.x;
  long i = tid % mm;
  if (i == 0 || i % 2 == 0) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'i' diverges in up to 8 of 8 warps of kernel 'oddColumns'
    rr[tid] = uu[tid] * 3;
  } else {
    rr[tid] = uu[tid + 1] * uu[tid] - 2;
  }
}
void launchHeat(const double *u, double *r, long mm) {
  resHeat<<<(mm * mm + 255) / 256, 256>>>(u, r, mm);
  oddColumns<<<(mm * mm + 255) / 256, 256>>>(u, r, mm);
}
