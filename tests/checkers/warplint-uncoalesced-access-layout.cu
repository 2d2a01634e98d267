// warplint-uncoalesced-access: the layout rule (issue 23). Where every address an access
// touches, over the block's threads, its loops' trips and the blocks that share its
// object, lies a whole number of strides from the others, the stride at least a 32-byte
// sector and decided by a run-time value no launch here fixes (a leading dimension), the
// data itself is sparse: no mapping of the work to threads puts two of its elements in
// one sector, and each already costs one sector, the least for that data. The finding
// is a note that says so. A stride the kernel's own code fixes, a footprint that a loop,
// another block or a value loaded per trip makes dense, stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

typedef long long magma_int_t;
typedef double2 cplx;

// magma's zgbtf2_swap_kernel_batched: the interchange of two rows of one band matrix per
// block (column-major, stored by columns of lddab; a row steps by lddab - 1 in the band
// layout). Each block reaches its own matrix through the table; over the block's threads
// and the lane loop's trips the addresses are (lddab - 1) * 16 bytes apart.
__global__ void rowSwapBatched(cplx **dAB_array, magma_int_t ai, magma_int_t aj,
                               magma_int_t lddab, magma_int_t **dipiv_array, int ipiv_offset,
                               int *ju_array, magma_int_t gbstep) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.x;
  cplx *dAB = dAB_array[batchid] + aj * lddab + ai;
  magma_int_t *ipiv = dipiv_array[batchid] + ipiv_offset;
  int ju = ju_array[batchid];
  int jp = (int)ipiv[0] - 1;
  int swap_len = ju - gbstep + 1;
  if (!(jp == 0)) {
    cplx tmp;
    cplx *dR1 = dAB;
    cplx *dR2 = dAB + jp;
    for (int i = tx; i < swap_len; i += ntx) {
      tmp = dR1[i * (lddab - 1)];
      // CHECK: :[[@LINE-1]]:13: remark: each warp's load of 'dR1[i * (lddab - 1)]' touches 32 sectors for 512 bytes (ideal 16): stride of 32 cplxs between lanes (block 256x1x1 assumed, aj = 1000, lddab = 33, ai = 32, ju_array[batchid] = 1000, ipiv[0] = 33, gbstep = 32); the same for 3 more loads of 'dAB_array' in 'rowSwapBatched' [warplint-uncoalesced-access]
      // CHECK: :[[@LINE-2]]:13: note: said as a note: every address they touch, over a block's threads and loop trips (each block reaches an object of its own), is a multiple of 512 bytes from the others (one cplx in every 32), a stride the run-time lddab decides (the caller's layout): no thread mapping puts two of its elements in one sector, so it already costs one sector per element, the least for that data: the layout, not the thread mapping, sets the cost
      dR1[i * (lddab - 1)] = dR2[i * (lddab - 1)];
      dR2[i * (lddab - 1)] = tmp;
    }
  }
}

// The same interchange with a stride the kernel's own code fixes (32 elements): the
// layout is its author's, and the warning stays.
__global__ void rowSwapOwnStride(cplx **dAB_array, magma_int_t ai, magma_int_t aj,
                                 magma_int_t lddab, magma_int_t **dipiv_array, int ipiv_offset,
                                 int *ju_array, magma_int_t gbstep) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.x;
  cplx *dAB = dAB_array[batchid] + aj * lddab + ai;
  magma_int_t *ipiv = dipiv_array[batchid] + ipiv_offset;
  int ju = ju_array[batchid];
  int jp = (int)ipiv[0] - 1;
  int swap_len = ju - gbstep + 1;
  if (!(jp == 0)) {
    cplx tmp;
    cplx *dR1 = dAB;
    cplx *dR2 = dAB + jp;
    for (int i = tx; i < swap_len; i += ntx) {
      tmp = dR1[i * 32];
      // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'dR1[i * 32]' touches 32 sectors for 512 bytes (ideal 16): stride of 32 cplxs between lanes
      dR1[i * 32] = dR2[i * 32];
      dR2[i * 32] = tmp;
    }
  }
}

// Rows 0..k2 of each column: the row loop walks the elements between two lanes' ones,
// so the footprint is dense and another mapping (lanes along the rows) would coalesce.
__global__ void rowBlockBatched(cplx **dAB_array, magma_int_t ai, magma_int_t aj,
                                magma_int_t lddab, magma_int_t **dipiv_array, int ipiv_offset,
                                int *ju_array, magma_int_t gbstep, int k2) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.x;
  cplx *dAB = dAB_array[batchid] + aj * lddab + ai;
  magma_int_t *ipiv = dipiv_array[batchid] + ipiv_offset;
  int ju = ju_array[batchid];
  int jp = (int)ipiv[0] - 1;
  int swap_len = ju - gbstep + 1;
  if (!(jp == 0))
    for (int i = tx; i < swap_len; i += ntx)
      for (int r = 0; r < k2; ++r)
        dAB[r + i * (lddab - 1)] = dAB[r + jp + i * (lddab - 1)];
  // CHECK: :[[@LINE-1]]:9: warning: each warp's load of 'dAB[r + i * (lddab - 1)]' touches 32 sectors for 512 bytes (ideal 16)
}

// The matrix per blockIdx.z, its row per blockIdx.x: blocks of one matrix take adjacent
// rows, a dense footprint over the grid.
__global__ void rowPerBlock(cplx **dAB_array, magma_int_t ai, magma_int_t aj,
                            magma_int_t lddab, magma_int_t **dipiv_array, int ipiv_offset,
                            int *ju_array, magma_int_t gbstep) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.z;
  cplx *dAB = dAB_array[batchid] + aj * lddab + ai + blockIdx.x;
  magma_int_t *ipiv = dipiv_array[batchid] + ipiv_offset;
  int ju = ju_array[batchid];
  int jp = (int)ipiv[0] - 1;
  int swap_len = ju - gbstep + 1;
  if (!(jp == 0)) {
    cplx tmp;
    cplx *dR1 = dAB;
    cplx *dR2 = dAB + jp;
    for (int i = tx; i < swap_len; i += ntx) {
      tmp = dR1[i * (lddab - 1)];
      // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'dR1[i * (lddab - 1)]' touches 48 sectors for 512 bytes (ideal 16): stride of 31 cplxs between lanes
      dR1[i * (lddab - 1)] = dR2[i * (lddab - 1)];
      dR2[i * (lddab - 1)] = tmp;
    }
  }
}

// A pivot loaded in every trip of a loop over pivots (laswp's serial form): the row each
// trip swaps is anywhere; what the loop touches is not known to be sparse.
__global__ void pivotsBatched(cplx **dA_array, magma_int_t ai, magma_int_t aj,
                              magma_int_t lddab, magma_int_t **dipiv_array, int k1, int k2,
                              int *ju_array, magma_int_t gbstep) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.x;
  cplx *dA = dA_array[batchid] + aj * lddab + ai;
  magma_int_t *ipiv = dipiv_array[batchid];
  int swap_len = ju_array[batchid] - gbstep + 1;
  for (int k = k1; k < k2; ++k) {
    int jp = (int)ipiv[k] - 1;
    for (int i = tx; i < swap_len; i += ntx) {
      cplx t = dA[jp + i * (lddab - 1)];
      // CHECK: :[[@LINE-1]]:16: warning: each warp's load of 'dA[jp + i * (lddab - 1)]' touches 32 sectors for 512 bytes (ideal 16)
      t.x = -t.x;
      dA[jp + i * (lddab - 1)] = t;
    }
  }
}

// One allocation for the whole batch (a strided batch): the blocks share the object, and
// the values each loads (its length and pivot) may put its rows anywhere in it.
__global__ void rowSwapStrided(cplx *dAB0, magma_int_t strideA, magma_int_t ai, magma_int_t aj,
                               magma_int_t lddab, magma_int_t *ipiv0, int *ju_array,
                               magma_int_t gbstep) {
  const int tx = threadIdx.x;
  const int ntx = blockDim.x;
  const int batchid = blockIdx.x;
  cplx *dAB = dAB0 + batchid * strideA + aj * lddab + ai;
  int ju = ju_array[batchid];
  int jp = (int)ipiv0[batchid] - 1;
  int swap_len = ju - gbstep + 1;
  if (!(jp == 0)) {
    cplx tmp;
    cplx *dR1 = dAB;
    cplx *dR2 = dAB + jp;
    for (int i = tx; i < swap_len; i += ntx) {
      tmp = dR1[i * (lddab - 1)];
      // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'dR1[i * (lddab - 1)]' touches 32 sectors for 512 bytes (ideal 16)
      dR1[i * (lddab - 1)] = dR2[i * (lddab - 1)];
      dR2[i * (lddab - 1)] = tmp;
    }
  }
}

// A spacing under a sector that a parameter decides (HeCBench's vol2col, a strided
// convolution's gather): with stride and dilation 2 every input it reads is an odd one,
// one float in two, over the threads, the window's trips and the blocks; a warp's 32
// elements span 8 sectors (9 where the first is not a sector's) whatever thread reads which. The launch passes 2 for both: the
// problem's stride, not a layout of the kernel's, and a note.
__global__ void stridedGather(const float *in, float *col, int n, int width, int stride,
                              int dilation, int ksize) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int w_in = i * stride + 1;
    for (int k = 0; k < ksize; ++k)
      col[k * n + i] = in[w_in + k * dilation];
    // CHECK: :[[@LINE-1]]:24: remark: each warp's load of 'in[w_in + k * dilation]' touches 9 sectors for 128 bytes (ideal 4): stride of 2 floats between lanes (block 256x1x1, n = 65536, gridDim.x = 64, stride = 2, ksize = 3, dilation = 2) [warplint-uncoalesced-access]
    // CHECK: :[[@LINE-2]]:24: note: said as a note: every address it touches, over the block's threads, the loop trips and the blocks, is a multiple of 8 bytes from the others (one float in every 2), a spacing the parameter stride decides (the problem's stride, not the kernel's layout): the data read is itself that sparse, so no thread mapping touches fewer sectors for it than each warp does: the spacing, not the thread mapping, sets the cost
  }
}

// The same gather with a dilation of 1: the window's next trip reads the inputs between
// two lanes' ones, the footprint is dense, and the warning stays.
__global__ void stridedGatherDense(const float *in, float *col, int n, int width, int stride,
                                   int dilation, int ksize) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int w_in = i * stride + 1;
    for (int k = 0; k < ksize; ++k)
      col[k * n + i] = in[w_in + k * dilation];
    // CHECK: :[[@LINE-1]]:24: warning: each warp's load of 'in[w_in + k * dilation]' touches 9 sectors for 128 bytes (ideal 4): stride of 2 floats between lanes
  }
}

// The spacing the kernel's own code fixes (every other float): its author's layout, a
// warning.
__global__ void ownSpacing(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[2 * i + 1];
  // CHECK: :[[@LINE-1]]:14: warning: each warp's load of 'in[2 * i + 1]' touches 8 sectors for 128 bytes (ideal 4): stride of 2 floats between lanes
}

// The channels of a pixel read in statements of their own, the spacing a parameter (4
// channels, passed): each load alone is one float in four, but together they read every
// float of the pixel, a dense footprint that one float4 load serves: a warning.
__global__ void channels(const float *in, float *out, int n, int numChannels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * numChannels + 0] + in[i * numChannels + 1] + in[i * numChannels + 2] +
             in[i * numChannels + 3];
  // CHECK: :[[@LINE-2]]:14: warning: each warp's load of 'in[i * numChannels + 0]' touches 16 sectors for 128 bytes (ideal 4): stride of 4 floats between lanes
}

void convolve(const float *in, float *col) {
  channels<<<64, 256>>>(in, col, 65536, 4);
  stridedGather<<<64, 256>>>(in, col, 65536, 255, 2, 2, 3);
  stridedGatherDense<<<64, 256>>>(in, col, 65536, 255, 2, 1, 3);
  ownSpacing<<<64, 256>>>(in, col, 65536);
}

// A field of an element that an earlier statement of the same block loads whole
// (DualSPHysics' symplectic step: `const float4 v = velrho[p];` then `velrho[p].w`), the
// array never stored: the compiler reads the field from the whole load's register, the
// field read moves no bytes of its own: silent. The same field read alone, or after a
// whole load in another block (an `if` arm), is a strided 4-of-16-byte load: a warning.
__global__ void wholeThenField(const float4 *velrho, const float *ar, float4 *out, float dt) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 v = velrho[p];
  const float rho = velrho[p].w + dt * ar[p];
  float4 o = v;
  o.w = rho;
  out[p] = o;
}
__global__ void fieldAlone(const float4 *velrho, float *out, int k) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (k) {
    float4 v = velrho[p];
    out[p] = v.x;
  }
  out[p] += velrho[p].w;
  // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'velrho[p].w' touches 16 sectors for 128 bytes (ideal 4): lanes 16 bytes apart, each reading 4 bytes of a 16-byte 'float4'
}
void launchWhole(const float4 *v, const float *a, float4 *o, float *f, int k) {
  wholeThenField<<<64, 256>>>(v, a, o, 0.5f);
  fieldAlone<<<64, 256>>>(v, f, k);
}

// A small table read by groups of lanes (specfem3d's 5x5 derivative matrix, `hprime[l *
// 5 + tx % 5]`): each warp reads the 20 bytes of one row, lanes repeating them; the bytes
// together are one gapless run, which touches one sector more than its ideal only where
// the row starts past a boundary: misalignment, a note. A table row read with a gap
// between the lanes' elements (every other float) stays a warning.
__global__ void tableRow(const float *hprime, float *out) {
  int tx = threadIdx.x, I = tx % 5;
  float s = 0.f;
  for (int l = 0; l < 5; l++)
    s += hprime[l * 5 + I];
  // CHECK: :[[@LINE-1]]:10: remark: each warp's load of 'hprime[l * 5 + I]' touches 2 sectors for 20 bytes (ideal 1): the lanes start 20 bytes past a 32-byte sector boundary
  // CHECK: :[[@LINE-6]]:39: note: assuming 'hprime' is 32-byte aligned
  out[blockIdx.x * blockDim.x + tx] = s;
}
__global__ void tableGaps(const float *hprime, float *out) {
  int tx = threadIdx.x, I = tx % 5;
  float s = 0.f;
  for (int l = 0; l < 5; l++)
    s += hprime[l * 10 + 2 * I];
  // CHECK: :[[@LINE-1]]:10: warning: each warp's load of 'hprime[l * 10 + 2 * I]' touches 2 sectors for 20 bytes (ideal 1): stride of 2 floats between lanes
  out[blockIdx.x * blockDim.x + tx] = s;
}
void launchTable(const float *h, float *o) {
  tableRow<<<64, 128>>>(h, o);
  tableGaps<<<64, 128>>>(h, o);
}
