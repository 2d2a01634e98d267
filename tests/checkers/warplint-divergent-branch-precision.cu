// warplint-divergent-branch on code nobody labelled (issue 23): one finding per root cause,
// real values before sampled ones, the assumed-shape rule, and divergence that costs next
// to nothing. Each class has a case that is reported and one that is not (or is a note).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s

// One root cause, one finding: the same condition in one kernel with the same figures.
__global__ void unrolled(float *c) {
  int lane = threadIdx.x & 31;
  if (lane & 1) c[threadIdx.x] += 1.f;
  if (lane & 1) c[threadIdx.x] += 2.f;
  if (lane  &  1) c[threadIdx.x] += 3.f;
  // CHECK: :[[@LINE-3]]:7: remark: 3 branches on 'lane' with the same figures: each diverges in 2 of 2 warps of kernel 'unrolled' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-4]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: branch on 'lane' here too (2 of 3), grouped in the finding at line 9
  // CHECK: :[[@LINE-4]]:7: note: branch on 'lane' here too (3 of 3), grouped in the finding at line 9
  // Another condition: its own finding.
  if (lane & 2) c[threadIdx.x] += 4.f;
  // CHECK: :[[@LINE-1]]:7: remark: branch on 'lane' diverges in 2 of 2 warps of kernel 'unrolled' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchUnrolled(float *c) { unrolled<<<8, 64>>>(c); }

// Real values before sampled ones: the width every launch passes decides the figure.
__global__ void widthKnown(float *c, int W) {
  if (threadIdx.x % W == 0)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'widthKnown' (block 128x1x1, 'W' = 8 as launched); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchWidth(float *c) { widthKnown<<<4, 128>>>(c, 8); }
// A width known only at run time: one lane in each run of W, the row-leader idiom.
__global__ void widthUnknown(float *c, int W) {
  if (threadIdx.x % W == 0)
    c[threadIdx.x] = 0.f;
}
void launchWidthUnknown(float *c, int W) { widthUnknown<<<4, 128>>>(c, W); }
// The column of a 3-D index recovered from a 1-D one, `(p % (nx * ny)) % nx`, at 0 (RELION's
// back-projection skips the Friedel column): one lane in each run of nx, the same idiom.
__global__ void friedelColumn(float *out, const float *in, int nx, int ny, int n) {
  for (unsigned pass = 0; pass < (n + 639) / 640; pass++) {
    unsigned pixel = pass * 640 + threadIdx.x;
    if (pixel >= n)
      continue;
    int xy = pixel % (nx * ny);
    int x = xy % nx;
    if (x == 0)
      continue;
    out[pixel] += in[pixel];
  }
}
void launchFriedel(float *o, const float *i, int x, int y) { friedelColumn<<<100, 640>>>(o, i, x, y, x * y * 4); }
// The inner remainder by a size the outer one does not divide: no run of nx lanes, a
// warning still.
__global__ void friedelOther(float *out, const float *in, int nx, int ny, int n) {
  unsigned pixel = blockIdx.x * 640 + threadIdx.x;
  int x = (pixel % ny) % nx;
  if (x == 0)
    return;
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'x' diverges
  out[pixel] += in[pixel];
}
void launchFriedelOther(float *o, const float *i, int x, int y) { friedelOther<<<100, 640>>>(o, i, x, y, x * y * 4); }
// Through a launch helper: what its callers pass.
__global__ void helperWidth(float *c, int W) {
  if (threadIdx.x % W == 0)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'helperWidth' (block 128x1x1, 'W' = 4, 8 as launched); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchHelper(float *c, int W) { helperWidth<<<4, 128>>>(c, W); }
void callHelper(float *c) {
  launchHelper(c, 4);
  launchHelper(c, 8);
}
// A negative local passed at the launch; and, when only one end of a loop is known and the
// sampled other end would leave it empty, the sampled values alone.
__global__ void disparity(float *c, int lo, int hi) {
  for (int d = lo; d <= hi; d++)
    if (threadIdx.x < 16)
      c[threadIdx.x * 4 + d + 16] = 0.f;
  // CHECK: :[[@LINE-2]]:9: remark: branch on 'threadIdx.x' diverges in 136 of 136 warp executions of kernel 'disparity' (block 32x8x1, 17 values of 'd'); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchDisparity(float *c) {
  int lo = -16, hi = 0;
  disparity<<<4, dim3(32, 8)>>>(c, lo, hi);
}
__global__ void disparityFrom(float *c, int lo, int hi) {
  for (int d = lo; d <= hi; d++)
    if (threadIdx.x < 16)
      c[threadIdx.x * 4 + d + 16] = 0.f;
  // CHECK: :[[@LINE-2]]:9: remark: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'disparityFrom' (block 32x8x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchDisparityFrom(float *c, int lo) { disparityFrom<<<4, dim3(32, 8)>>>(c, lo, 0); }

// No launch value: the figure depends on it, and the range is given.
__global__ void partner(float *c, int j) {
  if ((threadIdx.x ^ j) > threadIdx.x)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'threadIdx.x' diverges in up to 4 of 4 warps of kernel 'partner' (block 128x1x1); predicted branch efficiency 0% to 100%, depending on 'j'
}
void launchPartner(float *c, int j) { partner<<<4, 128>>>(c, j); }

// The assumed block shape (no launch here): a warning only when it holds for every block
// at least a warp wide in x.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void assumedEverywhere(float *c) {
  if (threadIdx.x % 2)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 8 of 8 warps of kernel 'assumedEverywhere' (block 256x1x1 assumed); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-5]]:17: note: no launch of 'assumedEverywhere'
}
__global__ void assumedOnly(float *c) {
  if (threadIdx.x >= 32 && threadIdx.x % 2)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 7 of 8 warps of kernel 'assumedOnly' (block 256x1x1 assumed); predicted branch efficiency 13%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the block is assumed and with a block of 32x1x1 this branch would be warp-uniform
  // CHECK: :[[@LINE-5]]:17: note: no launch of 'assumedOnly'
}

// An `if` whose arms only move registers is a select: a note. With a store it is a branch.
__device__ void swapValues(float &a, float &b) {
  float t = a;
  a = b;
  b = t;
}
__global__ void shuffleTranspose(float *c) {
  float a = c[threadIdx.x], b = c[threadIdx.x + 64];
  int lane = threadIdx.x & 31;
  if (lane & 4)
    swapValues(a, b);
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 2 of 2 warps of kernel 'shuffleTranspose' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the arms only move values between registers
  if (lane & 8)
    c[threadIdx.x] = a;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 2 of 2 warps of kernel 'shuffleTranspose' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // A builtin without side effects (what INFINITY expands to) computes in registers.
  if (lane & 16)
    b = -__builtin_huge_valf() * __builtin_fabsf(a);
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 2 of 2 warps of kernel 'shuffleTranspose' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the arms only move values between registers
  c[threadIdx.x + 64] = a + b;
}
void launchTranspose(float *c) { shuffleTranspose<<<8, 64>>>(c); }

// A shuffle scan (opencv's integral image): each step's arm adds the neighbour's sum to
// the lane's 16 register values in a loop of 16 constant trips, unrolled into register
// moves: a select, a note. A loop of run-time trips in the arm, or one that stores, is work.
__global__ void shuffleScan(int *out, int n) {
  int lane = threadIdx.x & 31;
  int result[16];
  for (int k = 0; k < 16; ++k)
    result[k] = out[threadIdx.x * 16 + k];
  int sum = result[15];
  for (int i = 1; i < 32; i *= 2) {
    int v = __shfl_up_sync(0xffffffffu, sum, i);
    if (lane >= i) {
      for (int k = 0; k < 16; ++k)
        result[k] += v;
      sum += v;
    }
    // CHECK: :[[@LINE-5]]:9: remark: branch on 'lane' diverges
    // CHECK: :[[@LINE-6]]:9: note: a note, not a warning: the arms only move values between registers
    if (lane >= i)
      for (int k = 0; k < n; ++k)
        sum += v;
    // CHECK: :[[@LINE-3]]:9: warning: branch on 'lane' diverges
  }
  for (int k = 0; k < 16; ++k)
    out[threadIdx.x * 16 + k] = result[k] + sum;
}
void launchScan(int *o, int n) { shuffleScan<<<8, 64>>>(o, n); }

// The same scan over each of a lane's sums through a range-for's reference (cuSZ's sparse
// histogram): `sum` is bound to the lane's own array, so the arm moves registers.
__global__ void scanEach(int *out) {
  int p_hist[4];
  for (int k = 0; k < 4; ++k)
    p_hist[k] = out[threadIdx.x * 4 + k];
  for (auto &sum : p_hist) {
    for (int d = 1; d < 32; d *= 2) {
      int n = __shfl_up_sync(0xffffffffu, sum, d);
      if (threadIdx.x % 32 >= d)
        sum += n;
      // CHECK: :[[@LINE-2]]:11: remark: branch on 'threadIdx.x' diverges
      // CHECK: :[[@LINE-3]]:11: note: a note, not a warning: the arms only move values between registers
    }
  }
  for (int k = 0; k < 4; ++k)
    out[threadIdx.x * 4 + k] = p_hist[k];
}
void launchScanEach(int *o) { scanEach<<<8, 64>>>(o); }

// A peak test kept in a local (popsift's orientation, `bin < n && s[bin] > ...`): the
// `&&` gives a value, its later operand loads and compares: predicated loads, not a
// branch. A note. The same operand as an `if`'s condition whose arm stores is a branch:
// a warning.
__global__ void peaks(float *out, const float *in, int n) {
  __shared__ float s[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    s[b] = in[blockIdx.x * 64 + b];
  __syncthreads();
  for (int bin = threadIdx.x; bin < 64; bin += blockDim.x) {
    bool peak = (bin & 1) && (s[bin] > s[(bin + 63) % 64] + s[(bin + 1) % 64]);
    // CHECK: :[[@LINE-1]]:17: remark: short-circuit operand on 'bin' diverges
    // CHECK: :[[@LINE-2]]:17: note: a note, not a warning: the operands after it compute a value without side effects
    out[blockIdx.x * 64 + bin] = peak ? s[bin] : 0.f;
    if ((bin & 1) && (s[bin] > 0.f))
      out[bin] = 1.f;
    // CHECK: :[[@LINE-2]]:9: warning: short-circuit operand on 'bin' diverges
  }
}
void launchPeaks(float *o, const float *i, int n) { peaks<<<8, 32>>>(o, i, n); }

// `x == uniform`: one row picked by a run-time value is a leader test; a lane in every
// group of four is not.
__global__ void pick(float *c, int k) {
  int row = threadIdx.x / 8;
  if (row == k)
    c[threadIdx.x] = 0.f;
  if (threadIdx.x % 4 == k)
    c[threadIdx.x] = 1.f;
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'threadIdx.x' diverges in up to 4 of 4 warps of kernel 'pick' (block 128x1x1); predicted branch efficiency 0% to 100%, depending on 'k'
}
void launchPick(float *c, int k) { pick<<<4, 128>>>(c, k); }

// The pick with a further conjunct (FasterTransformer's decoder attention: `vo ==
// tlength % V_PER_ITER && (Dh == Dh_MAX || vi < Dh)`): the arm's lanes are among the picked
// group's, still one group of one warp: a leader test.
template <int Dh, int Dh_MAX>
__global__ void pickAnd(float *c, int tlength) {
  const int vo = threadIdx.x / 8, vi = threadIdx.x % 8 * 4;
  if (vo == tlength % 8 && (Dh == Dh_MAX || vi < Dh))
    c[threadIdx.x] = 0.f;
}
void launchPickAnd(float *c, int t) { pickAnd<32, 32><<<4, 64>>>(c, t); }

// True in one warp of one block: a note. The same row test in every block: a warning.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void firstRowFirstBlock(float *c) {
  int tx = threadIdx.x, ty = threadIdx.y, by = blockIdx.y;
  if (ty == 0 && by == 0)
    c[tx] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'ty' diverges in up to 1 of 8 warps of kernel 'firstRowFirstBlock' (block 16x16x1); predicted branch efficiency 88% to 100%, depending on 'blockIdx.y'
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the branch splits one warp of one block of the grid
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 rows
  if (ty == 0)
    c[tx + 16] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'ty' diverges in 1 of 8 warps of kernel 'firstRowFirstBlock' (block 16x16x1); predicted branch efficiency 88%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: a warp spans 2 rows
}
void launchFirst(float *c) { firstRowFirstBlock<<<dim3(1, 8), dim3(16, 16)>>>(c); }

// A global index against 0 (AMGX's greedy colouring, `if (row_id != 0) continue;` with
// row_id = blockIdx.x * 32 + the lane group, in a grid-stride loop): only the first group of
// block 0, in the first trip, differs: a note. The same group test in every block (the
// index less its block's part) splits a warp of each block: a warning.
__global__ void gridFirstRow(int n, int *colors) {
  int row = blockIdx.x * 32 + threadIdx.x / 8;
  for (; row < n; row += gridDim.x * 32) {
    if (row != 0)
      continue;
    // CHECK: :[[@LINE-2]]:9: remark: branch on 'row' diverges in 1 of 8 warps of kernel 'gridFirstRow' (block 256x1x1); predicted branch efficiency 0% to 88%, depending on 'blockIdx.x', 'n'
    // CHECK: :[[@LINE-3]]:9: note: a note, not a warning: the condition tests a global index against 0, which only the first threads of the grid's first block hold (in the first trip of a loop around it): it splits one warp of the grid, once
    colors[row] = 1;
  }
  int group = threadIdx.x / 8;
  if (group != 0)
    return;
  // CHECK: :[[@LINE-2]]:7: warning: branch on 'group' diverges in 1 of 8 warps
  colors[blockIdx.x] += 2;
}
void launchGridFirst(int *c, int n) { gridFirstRow<<<n / 256, 256>>>(n, c); }

// A guard of a few first indices inside a block-stride loop over a run-time count
// (AutoDock-GPU's `if (gene_counter < 3)` in its gene loop): only warp 0 of the block, in
// the first trip, splits; a count of 32 or fewer leaves that warp alone in the loop, which
// is that sample's, not the guard's: silent, as `threadIdx.x < 3` is in a block of two
// warps. The lanes' own guard `threadIdx.x % 32 < 3` splits every warp: a warning.
__global__ void firstGenes(float *geno, const float *step, int genes) {
  for (int g = threadIdx.x; g < genes; g += blockDim.x) {
    if (g < 3)
      geno[g] += step[0];
    else
      geno[g] -= step[1] * geno[g];
  }
  if (threadIdx.x % 32 < 3)
    geno[threadIdx.x] += step[2];
  else
    geno[threadIdx.x] -= step[3] * geno[threadIdx.x];
  // CHECK: :[[@LINE-4]]:7: warning: branch on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'firstGenes' (block 64x1x1); predicted branch efficiency 0%
}
void launchGenes(float *g, const float *s, int n) { firstGenes<<<n, 64>>>(g, s, n); }
// A one-shot of one warp: a note. The same kernel launched in a loop: a warning.
__global__ void oneShot(float *c) {
  if (threadIdx.x % 3 == 0)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 1 of 1 warps of kernel 'oneShot' (block 32x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: every launch of 'oneShot' in this file is one block of at most one warp, outside any loop
}
void launchShot(float *c) { oneShot<<<1, 32>>>(c); }
__global__ void oneWarpRepeated(float *c) {
  if (threadIdx.x % 3 == 0)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 1 of 1 warps of kernel 'oneWarpRepeated' (block 32x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchRepeated(float *c, int steps) {
  for (int s = 0; s < steps; ++s)
    oneWarpRepeated<<<1, 32>>>(c);
}

// A triangular loop diverges only in its last trips: the efficiency is over the trips; the
// lanes leave in lane order, so it is a note.
__global__ void triangle(float *c, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = i + 1; j < N; j++)
    c[j] += 1.f;
  // CHECK: :[[@LINE-2]]:23: remark: loop condition on 'j' diverges in 4 of 4 warps of kernel 'triangle' (block 128x1x1, lanes leave after different trip counts, 'N' = 1024 as launched); predicted branch efficiency 91% to 97% over the loop's trips, depending on 'blockIdx.x'
  // CHECK: :[[@LINE-3]]:23: note: a note, not a warning: the lanes leave the loop in lane order
}
void launchTriangle(float *c) { triangle<<<8, 128>>>(c, 1024); }

// A bounds guard joined by && does not hide a stronger term.
__global__ void bitonicStep(float *c, int j, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ixj = i ^ j;
  if (i < n && ixj > i)
    c[i] = c[ixj];
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'ixj > i' diverges in 4 of 4 warps of kernel 'bitonicStep' (block 128x1x1, 'j' = 1 as launched); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: the bounds guard beside 'ixj > i' only takes the grid's tail away
  // The guard alone stays silent.
  if (i < n)
    c[i] += 1.f;
}
// A stronger term written by a macro is named as any condition's term.
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
__global__ void haloStep(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (IN_RANGE(lane, 4, 27) && i < n)
    c[i] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'lane' diverges in 4 of 4 warps of kernel 'haloStep' (block 128x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: the bounds guards among the terms of this condition only take the grid's tail away
}
void launchHalo(float *c, int n) { haloStep<<<(n + 127) / 128, 128>>>(c, n); }
void launchBitonic(float *c, int n) { bitonicStep<<<(n + 127) / 128, 128>>>(c, 1, n); }

// A grid-tail bound inside a loop condition is a bounds guard; a per-lane bound is not.
__global__ void tailInLoop(float *c, int n, int K) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < K && i < n; k++)
    c[i] += 1.f;
  for (int k = 0; k < 4 && k <= (int)threadIdx.x % 4; k++)
    c[i] += 2.f;
  // CHECK: :[[@LINE-2]]:19: warning: loop condition on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'tailInLoop' (block 128x1x1, lanes leave after different trip counts); predicted branch efficiency 40% over the loop's trips
}
void launchTail(float *c, int n, int K) { tailInLoop<<<(n + 127) / 128, 128>>>(c, n, K); }

// The bounds-flag idiom, with `&` between the guards, stays silent under the assumed block;
// a flag of a lane test is reported.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void flags(float *c, int n, int m) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  bool ok = (row < n) & (col < m);
  if (ok)
    c[row * m + col] = 1.f;
  bool odd = (col & 1) != 0;
  if (odd)
    c[col] = 2.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'odd' diverges in 8 of 8 warps of kernel 'flags' (block 256x1x1 assumed); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-11]]:17: note: no launch of 'flags'
}

// Two instantiations of a template that split the same place alike: one finding.
template <int N> __global__ void perInstance(float *c) {
  if (threadIdx.x % 2)
    c[threadIdx.x] = N;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'perInstance' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchInstances(float *c) {
  perInstance<1><<<4, 64>>>(c);
  perInstance<2><<<4, 64>>>(c);
}
// Instantiations that split one place with other figures: one finding, the others as notes.
template <int M> __global__ void perModulus(float *c) {
  if (threadIdx.x % M == 0)
    c[threadIdx.x] = M;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'perModulus' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  // CHECK: :[[@LINE-4]]:7: note: another instantiation of 'perModulus': branch on 'threadIdx.x' diverges in 1 of 1 warps of kernel 'perModulus' (block 32x1x1); predicted branch efficiency 0%
}
void launchModuli(float *c) {
  perModulus<2><<<4, 64>>>(c);
  perModulus<4><<<4, 32>>>(c);
}

// A '?:' whose arms are the thread's own registers, an array of them indexed by an
// unrolled counter included (magma's `rA[i] = (tx < i) ? ZERO : rA[i]`): a select, silent
// as a '?:' of two values is.
__global__ void registerSelect(float *c) {
  float rA[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    rA[i] = c[i * 64 + threadIdx.x];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    rA[i] = ((int)threadIdx.x % 8 < i) ? 0.f : rA[i];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    c[i * 64 + threadIdx.x] = rA[i];
}
// The same split whose arm stores to memory stays a warning.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void memorySelect(float *c) {
  if ((int)threadIdx.x % 8 < 3)
    c[threadIdx.x] = 0.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 2 of 2 warps of kernel 'memorySelect'
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
// A split in one warp of sixteen (a 512-thread block; warp 3's odd lanes): a note, the
// branch costs a small part of the block's time. The same split in every warp stays a
// warning (memorySelect above).
__global__ void oneWarpInSixteen(float *c) {
  if (threadIdx.x / 32 == 3 && threadIdx.x % 2)
    c[threadIdx.x] += 1.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 1 of 16 warps of kernel 'oneWarpInSixteen' (block 512x1x1); predicted branch efficiency 94% [warplint-divergent-branch]
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: at most one in sixteen warps splits (predicted branch efficiency 94% or more): a small part of the branch's time
}
void launchSelects(float *c) {
  registerSelect<<<4, 64>>>(c);
  memorySelect<<<4, 64>>>(c);
  oneWarpInSixteen<<<1000, 512>>>(c);
}
// A guard joined with a row test (ggml's mmvq.cu, `threadIdx.x < rows && threadIdx.y ==
// 0`): the guard's split in the row the test keeps, silent as the guard alone is; the
// row test no longer makes it a branch of its own. A guard that splits every row it keeps
// stays a finding.
template <int rows>
__global__ void guardInRow(const float *bias, float *out) {
  float b = 0.f;
  if (threadIdx.x < rows && threadIdx.y == 0)
    b = bias[blockIdx.x * rows + threadIdx.x];
  if (threadIdx.x < 16 && threadIdx.y < 4)
    out[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x] = b;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges in 4 of 4 warps of kernel 'guardInRow' (block 32x4x1); predicted branch efficiency 0% [warplint-divergent-branch]
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchGuardInRow(const float *b, float *o) { guardInRow<4><<<64, dim3(32, 4)>>>(b, o); }

// A permutation applied in place, each pair swapped once (ViennaCL's in-place transpose
// and FFT bit reversal: `if (i < new_pos)` then a swap of x[i] and x[new_pos]): the strict
// comparison picks one thread of each pair, the other has nothing to do by design. A note;
// an arm that writes only the thread's own element (no swap) keeps its warning.
__global__ void transposeInPlace(float *x, unsigned rows, unsigned cols) {
  unsigned size = rows * cols;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x) {
    unsigned r = i / cols, c = i - r * cols;
    unsigned p = c * rows + r;
    if (i < p) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'i' diverges in up to 4 of 4 warps of kernel 'transposeInPlace' (block 128x1x1); predicted branch efficiency 0% to 33%, depending on 'rows', 'cols', 'blockIdx.x'
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the arm swaps the elements at 'i' and 'p' and the comparison picks one thread of each pair: the other has nothing to do by design (a permutation applied in place, each pair swapped once), and the split costs one swap
      float t = x[i];
      x[i] = x[p];
      x[p] = t;
    }
  }
}
__global__ void upperFromLower(float *x, unsigned rows, unsigned cols) {
  unsigned size = rows * cols;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x) {
    unsigned r = i / cols, c = i - r * cols;
    unsigned p = c * rows + r;
    if (i < p)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'i' diverges in up to 4 of 4 warps of kernel 'upperFromLower' (block 128x1x1)
      x[i] = x[p] + x[i];
  }
}
// The same with struct elements (ViennaCL's complex numbers, float2): the swap's
// assignments are calls of the trivial operator=.
__global__ void transposePairs(float2 *x, unsigned rows, unsigned cols) {
  unsigned size = rows * cols;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x) {
    unsigned r = i / cols, c = i - r * cols;
    unsigned p = c * rows + r;
    if (i < p) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'i' diverges in up to 4 of 4 warps of kernel 'transposePairs' (block 128x1x1)
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the arm swaps the elements at 'i' and 'p'
      float2 t = x[i];
      x[i] = x[p];
      x[p] = t;
    }
  }
}
void launchTranspose(float *x, float2 *y, unsigned n, unsigned m) {
  transposeInPlace<<<128, 128>>>(x, n, m);
  upperFromLower<<<128, 128>>>(x, n, m);
  transposePairs<<<128, 128>>>(y, n, m);
}
