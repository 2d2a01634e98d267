// warplint-divergent-branch: what a fixed role's arm may hold, and how its lanes may be
// named (issue 23, twenty-ninth session; false warnings on gpu4pyscf and BGHT). A role of
// the same lanes with straight-line work is a note (warplint-divergent-branch-fixed-role.cu);
// here the arm loops a few constant trips and leaves that loop with `break` (the arm's own
// loop, not the arm), or retries one compare-and-swap until it wins (one atomic update,
// not a walk over memory), and the lanes are named by a remainder written out by hand
// (`st - (st / P) * P`, P a value the block loads). The diagonal of two global indices
// (`g == h`) is silent like the triangle's edge: it crosses only the blocks on the
// diagonal. A lane's window inside a sweep that stages the data behind a barrier is a
// note. The arm may hold a loop of K trips from the lane's own start, and the other arm
// may store each place's own value back (a statement the compiler drops), or loop over
// the values the group reduced by shuffles just before (the leader's write-out of them).
// Each twin that stays a warning changes one thing.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__device__ unsigned atomicCAS(unsigned *address, unsigned compare, unsigned val);

// After a shuffle reduction over each group of 16 lanes, the group's lane 0 adds the
// group's sums, leaving its own unrolled loop at the last valid entry (gpu4pyscf's
// contract_ft_ao.cu): a note.
__global__ void groupWriteOut(const float *in, float *out, const int *where, int nfij,
                              int p0, int p1) {
  const int gid = threadIdx.x % 16;
  const int sp = threadIdx.x / 16;
  for (int pair = p0 + sp; pair < p1 + sp; pair += 16) {
    const int p = pair < p1 ? pair : p0;
    float g[4];
    for (int n = 0; n < 4; ++n)
      g[n] = in[p * 64 + gid * 4 + n];
    for (int n = 0; n < 4; ++n)
      for (int off = 8; off > 0; off /= 2)
        g[n] += __shfl_down_sync(0xffffu, g[n], off);
    if (pair < p1 && gid == 0) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'gid == 0' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      float *o = out + where[p] * 64;
      for (int n = 0; n < 4; ++n) {
        if (n * 16 >= nfij)
          break;
        atomicAdd(o + n * 16, g[n]);
      }
    }
  }
}

// The twin's arm leaves the loop around the branch: the group's leader stops for all.
__global__ void groupWriteOutLeaves(const float *in, float *out, int nfij, int p0,
                                    int p1) {
  const int gid = threadIdx.x % 16;
  const int sp = threadIdx.x / 16;
  for (int pair = p0 + sp; pair < p1 + sp; pair += 16) {
    const int p = pair < p1 ? pair : p0;
    float g = in[p * 64 + gid];
    for (int off = 8; off > 0; off /= 2)
      g += __shfl_down_sync(0xffffu, g, off);
    if (pair < p1 && gid == 0) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'gid == 0' diverges in
      if (g > nfij)
        break;
      atomicAdd(out + p, g);
    }
  }
}

struct Slot {
  unsigned *word;
  __device__ unsigned load() const { return *word; }
  __device__ bool compare_exchange_strong(unsigned &expected, unsigned desired) {
    unsigned seen = atomicCAS(word, expected, desired);
    bool won = seen == expected;
    expected = seen;
    return won;
  }
};

// One lane of each 16-lane group counts the group's key, retrying its compare-and-swap
// until it wins (BGHT's histogram): one atomic update, a note.
__global__ void tileCount(Slot *slots, const unsigned *keys, int count) {
  const unsigned id = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned key = id < count ? keys[id] : 0u;
  Slot *slot = slots + (key & 1023u);
  if (threadIdx.x % 16 == 0) {
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'threadIdx.x' diverges in
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    bool won = false;
    unsigned expected = slot->load();
    while (!won)
      won = slot->compare_exchange_strong(expected, expected + 1);
  }
}

// The twin's leader walks a list of slots: a loop over memory, a warning.
__global__ void tileCountWalk(Slot *slots, const unsigned *keys, int count, int n) {
  const unsigned id = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned key = id < count ? keys[id] : 0u;
  if (threadIdx.x % 16 == 0) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'threadIdx.x' diverges in
    int k = 0;
    while (k < n) {
      unsigned expected = slots[(key + k) & 1023u].load();
      slots[(key + k) & 1023u].compare_exchange_strong(expected, expected + 1);
      ++k;
    }
  }
}

// The lanes of a pair's setup: the first of each group of aux lanes in the first row,
// aux and the row's width loaded by the block (gpu4pyscf's `gout_id == 0 && aux_id == 0`
// with `aux_id = st_id - sp_id * aux_per_block`): a note. The loop reads aux again, a
// block-wide scalar that no loop writes: one value in every trip.
__global__ void pairSetup(const float *env, float *out, const int *lookup, int which,
                          int p0, int p1) {
  extern __shared__ float smem[];
  __shared__ int nst, aux, nsp;
  const int t = threadIdx.x;
  if (t == 0) {
    nst = 256 / lookup[which];
    aux = nst < 16 ? nst : 16;
    nsp = nst / aux;
  }
  __syncthreads();
  const int gout = t / nst;
  const int st = t - gout * nst;
  const int sp = st / aux;
  const int aux_id = st - sp * aux;
  for (int pair = p0 + sp; pair < p1 + sp; pair += nsp) {
    const int p = pair < p1 ? pair : p0;
    __syncthreads();
    if (gout == 0 && aux_id == 0) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'gout' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      smem[sp] = env[p * 3 + 1] - env[p * 3];
      smem[sp + nsp] = env[p * 3 + 1] * env[p * 3];
    }
    __syncthreads();
    out[p * 256 + t] = smem[sp] * gout + smem[sp + nsp] + aux;
  }
}

// The twin multiplies by a value that is not the divisor: which lanes take the branch is a
// run-time value's choice, a warning.
__global__ void pairSetupOther(const float *env, float *out, const int *lookup, int which,
                               int p0, int p1) {
  extern __shared__ float smem[];
  __shared__ int nst, aux, other;
  const int t = threadIdx.x;
  if (t == 0) {
    nst = 256 / lookup[which];
    aux = nst < 16 ? nst : 16;
    other = lookup[which + 1];
  }
  __syncthreads();
  const int st = t % nst;
  const int sp = st / aux;
  const int aux_id = st - sp * other;
  for (int pair = p0 + sp; pair < p1 + sp; pair += 4) {
    const int p = pair < p1 ? pair : p0;
    __syncthreads();
    if (aux_id == 0) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'aux_id' diverges in
      smem[sp] = env[p * 3 + 1] - env[p * 3];
    }
    __syncthreads();
    out[p * 256 + t] = smem[sp];
  }
}

// The diagonal of an atom pair over 16x4x4 blocks (gpu4pyscf's gen_grids.cu): only blocks
// with blockIdx.y == blockIdx.z split, silent.
__global__ void offDiagonal(float *out, const float *in, const int *idx, int ngrids,
                            int natm) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int g = blockIdx.y * blockDim.y + threadIdx.y;
  const int h = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= ngrids || g >= natm || h >= natm)
    return;
  const int a = idx[i];
  if (a < 0)
    return;
  if (g == h)
    return;
  for (int k = 0; k < ngrids; ++k)
    out[(g * natm + h) * ngrids + i] += in[k] * in[a];
}

// The twin compares a global index with a thread index of the block: the same lanes split
// in every block, a warning.
__global__ void offDiagonalLocal(float *out, const float *in, int ngrids, int natm) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int g = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= ngrids || g >= natm)
    return;
  if (g == int(threadIdx.z))
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'g' diverges in
    return;
  for (int k = 0; k < ngrids; ++k)
    out[g * ngrids + i] += in[k];
}

// A lane's window in a staged sweep (cuda-convnet2's response normalisation, 8x16 blocks):
// the block stages each pixel of the union of its lanes' windows behind a barrier, and
// each lane adds the pixels of its own 5x5 window: a note. A warp is four rows of 8 lanes
// with four x windows.
__global__ void windowSum(const float *in, float *out, int size, int imgs) {
  __shared__ float sh[8][32];
  const int x0 = blockIdx.y * 4, y0 = blockIdx.z * 4;
  const int myX = x0 + threadIdx.y % 4, myY = y0 + threadIdx.y / 4;
  const int startX = x0 - 2 > 0 ? x0 - 2 : 0, startY = y0 - 2 > 0 ? y0 - 2 : 0;
  const int endX = x0 + 6 < size ? x0 + 6 : size, endY = y0 + 6 < size ? y0 + 6 : size;
  float acc = 0.f;
  for (int y = startY; y < endY; ++y) {
    const bool inY = y >= myY - 2 && y < myY + 3;
    for (int x = startX; x < endX; ++x) {
      sh[threadIdx.y % 8][threadIdx.x] = in[(y * size + x) * imgs + threadIdx.x];
      __syncthreads();
      if (inY && x >= myX - 2 && x < myX + 3) {
        // CHECK: :[[@LINE-1]]:11: remark: branch on 'inY' diverges in
        // CHECK: :[[@LINE-2]]:11: note: a note, not a warning: the test keeps the counters of the loops around it inside the lane's own window, and those loops hold a barrier
        for (int i = 0; i < 4; ++i)
          acc += sh[i][threadIdx.x] * sh[i + 4][threadIdx.x];
      }
      __syncthreads();
    }
  }
  out[(myY * size + myX) * imgs + threadIdx.x] = acc;
}

// The twin stages nothing: each lane could sweep its own window, a warning.
__global__ void windowSumUnstaged(const float *in, float *out, int size, int imgs) {
  const int x0 = blockIdx.y * 4, y0 = blockIdx.z * 4;
  const int myX = x0 + threadIdx.y % 4, myY = y0 + threadIdx.y / 4;
  const int startX = x0 - 2 > 0 ? x0 - 2 : 0, startY = y0 - 2 > 0 ? y0 - 2 : 0;
  const int endX = x0 + 6 < size ? x0 + 6 : size, endY = y0 + 6 < size ? y0 + 6 : size;
  float acc = 0.f;
  for (int y = startY; y < endY; ++y) {
    const bool inY = y >= myY - 2 && y < myY + 3;
    for (int x = startX; x < endX; ++x) {
      if (inY && x >= myX - 2 && x < myX + 3) {
        // CHECK: :[[@LINE-1]]:11: warning: branch on 'inY' diverges in
        for (int i = 0; i < 4; ++i)
          acc += in[((y * size + x) * 8 + i) * imgs + threadIdx.x];
      }
    }
  }
  out[(myY * size + myX) * imgs + threadIdx.x] = acc;
}

// The first row of a 16x2 block sums the block's partial results, each lane its row of 16
// from its own diagonal on (`for (j = tx; j < tx + 16; j++)`: 16 trips whatever tx is),
// and adds it to y, in every block but the last (KBLAS's symv tail): a loop of constant
// trips is its body written out, a note.
__global__ void rowTail(float *y, const float *A, int n) {
  __shared__ float la[16 * 16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.f;
  for (int i = 0; i < n; ++i)
    acc += A[i * 32 + ty * 16 + tx];
  la[ty * 16 + tx] = acc;
  __syncthreads();
  if (blockIdx.x != gridDim.x - 1)
    if (ty == 0) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'ty' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      float t = 0.f;
      for (int j = tx; j < tx + 16; j++)
        t += la[tx * 16 + (j % 16)];
      atomicAdd(&y[tx], t);
    }
}

// The twin's row runs n trips from its diagonal: a loop over memory, a warning.
__global__ void rowTailLong(float *y, const float *A, int n) {
  __shared__ float la[16 * 16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  la[ty * 16 + tx] = A[ty * 16 + tx];
  __syncthreads();
  if (blockIdx.x != gridDim.x - 1)
    if (ty == 0) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'ty' diverges in
      float t = 0.f;
      for (int j = tx; j < tx + n; j++)
        t += A[j];
      atomicAdd(&y[tx], t);
    }
}

// The mirror of a symmetric tile: the lanes below the diagonal copy the entry above it,
// the others store their own entry back (KBLAS's `else la[td] = la[td];`, a statement the
// compiler drops): one arm of one statement, a fixed role, a note.
__global__ void mirrorTile(float *A, int lda, int n) {
  __shared__ float la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  float acc = 0.f;
  for (int i = 0; i < n; ++i) {
    la[td] = A[i * lda + td];
    __syncthreads();
    if (ty > tx)
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'tx' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      la[td] = la[tx * 32 + ty];
    else
      la[td] = la[td];
    __syncthreads();
    acc += la[td] * la[tx];
    __syncthreads();
  }
  A[td] = acc;
}

// The twin's other arm doubles its entry: two working arms, a warning.
__global__ void mirrorTileScaled(float *A, int lda, int n) {
  __shared__ float la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  float acc = 0.f;
  for (int i = 0; i < n; ++i) {
    la[td] = A[i * lda + td];
    __syncthreads();
    if (ty > tx)
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'tx' diverges in
      la[td] = la[tx * 32 + ty];
    else
      la[td] = 2.f * la[td];
    __syncthreads();
    acc += la[td] * la[tx];
    __syncthreads();
  }
  A[td] = acc;
}

// Each group of 8 lanes reduces its row's nv sums by shuffles, then the group's lane 0
// writes the nv results out (hypre's SpMV with num_vectors): the leader's loop walks the
// values every lane reduced just before, a note.
__global__ void rowSums(const float *a, float *y, int rows, int nv) {
  const int lane = threadIdx.x & 7;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  float sum[4];
  for (int i = 0; i < nv; i++)
    sum[i] = row < rows ? a[(row * nv + i) * 8 + lane] : 0.f;
  for (int i = 0; i < nv; i++)
    for (int d = 4; d > 0; d >>= 1)
      sum[i] += __shfl_down_sync(0xffffffffu, sum[i], d, 8);
  if (row < rows && lane == 0) {
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'lane == 0' diverges in
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs (a role of those lanes: a leader, the first lanes of a group), and its arm's loops write out one result for each of the N values that the group's lanes reduced together by shuffles just before
    for (int i = 0; i < nv; i++)
      y[row * nv + i] = sum[i];
  }
}

// The twin's leader walks another count than the one reduced: its own work, a warning.
__global__ void rowSumsOther(const float *a, float *y, int rows, int nv, int m) {
  const int lane = threadIdx.x & 7;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
  float sum[4];
  for (int i = 0; i < nv; i++)
    sum[i] = row < rows ? a[(row * nv + i) * 8 + lane] : 0.f;
  for (int i = 0; i < nv; i++)
    for (int d = 4; d > 0; d >>= 1)
      sum[i] += __shfl_down_sync(0xffffffffu, sum[i], d, 8);
  if (row < rows && lane == 0) {
    // CHECK: :[[@LINE-1]]:7: warning: branch on 'lane == 0' diverges in
    for (int i = 0; i < m; i++)
      y[row * m + i] = sum[i % 4] * a[i];
  }
}

__device__ float flip(float v) { return -v; }

// The upper mirror: the lanes above the diagonal store their own entry back, the others
// the flipped mirrored entry, a value made from one element (a copy, not a tree's step):
// a note.
__global__ void mirrorTileUpper(float *A, int lda, int n) {
  __shared__ float la[32 * 32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int td = ty * 32 + tx;
  float acc = 0.f;
  for (int i = 0; i < n; ++i) {
    la[td] = A[i * lda + td];
    __syncthreads();
    if (ty > tx)
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'tx' diverges in
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      la[td] = la[td];
    else
      la[td] = flip(la[tx * 32 + ty]);
    __syncthreads();
    acc += la[td] * la[tx];
    __syncthreads();
  }
  A[td] = acc;
}

void launchAll(const float *in, float *out, const int *w, Slot *s, const unsigned *k,
               int n) {
  groupWriteOut<<<100, 256>>>(in, out, w, n, 0, n);
  groupWriteOutLeaves<<<100, 256>>>(in, out, n, 0, n);
  tileCount<<<100, 128>>>(s, k, n);
  tileCountWalk<<<100, 128>>>(s, k, n, n);
  pairSetup<<<100, 256, 8192>>>(in, out, w, n, 0, n);
  pairSetupOther<<<100, 256, 8192>>>(in, out, w, n, 0, n);
  dim3 block(16, 4, 4);
  dim3 grid((n + 15) / 16, (n + 3) / 4, (n + 3) / 4);
  offDiagonal<<<grid, block>>>(out, in, w, n, n);
  offDiagonalLocal<<<grid, block>>>(out, in, n, n);
  dim3 win(8, 16);
  dim3 tiles(1, (n + 3) / 4, (n + 3) / 4);
  windowSum<<<tiles, win>>>(in, out, n, n);
  windowSumUnstaged<<<tiles, win>>>(in, out, n, n);
  rowTail<<<n, dim3(16, 2)>>>(out, in, n);
  rowTailLong<<<n, dim3(16, 2)>>>(out, in, n);
  mirrorTile<<<n, dim3(32, 8)>>>(out, 32, n);
  mirrorTileScaled<<<n, dim3(32, 8)>>>(out, 32, n);
  mirrorTileUpper<<<n, dim3(32, 8)>>>(out, 32, n);
  rowSums<<<(n + 31) / 32, 256>>>(in, out, n, 4);
  rowSumsOther<<<(n + 31) / 32, 256>>>(in, out, n, 4, n);
}
