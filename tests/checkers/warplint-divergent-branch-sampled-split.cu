// warplint-divergent-branch when only some sampled run-time values make a branch diverge
// (issue 23, darknet's col2im gather): the figure is the samples', not the launches', so
// the finding is a note that says which values decide, where at most one warp of the
// block splits in any sample. A sample counts as uniform only where warps of two or more
// lanes reach the branch and no run-time value is 1 or less. A warning stays where the
// split holds for every such sample, where several warps split in a sample (cuda-samples'
// oddEvenMergeGlobal, whose host loop passes every stride), where a conjunct on the
// thread index alone splits (the sampled values only take lanes away: an interleaved tree
// reduction behind a bounds return), and where the launches pass the values.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s

// A note: lanes of warp 0 in groups of g; with g a multiple of 32 they agree, below it
// the warp splits: one warp of the block, for some values.
__global__ void grouped(const float *in, float *out, int g) {
  const int t = threadIdx.x;
  if (t < 32) {
    if ((t / g) % 2 == 0) {
      out[t] = in[t] * 2.f;
      out[t + 256] = in[t + 1];
    }
    // CHECK: :[[@LINE-4]]:9: remark: branch on 't' diverges in up to 1 of 1 warps of kernel 'grouped' (block 256x1x1); predicted branch efficiency 0% to 100%, depending on 'g'
    // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: whether it diverges depends on 'g', which no launch in this file passes: it splits one warp of the block for some sampled values and none for others (predicted branch efficiency 0% to 100%); the values the launches pass decide
  }
}
void launchGrouped(const float *in, float *out, int g) { grouped<<<1, 256>>>(in, out, g); }

// A warning: the same kernel launched with g = 2, the value passed.
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void groupedPassed(const float *in, float *out, int g) {
  const int t = threadIdx.x;
  if (t < 32) {
    if ((t / g) % 2 == 0) {
      out[t] = in[t] * 2.f;
      out[t + 256] = in[t + 1];
    }
    // CHECK: :[[@LINE-4]]:9: remark: branch on 't' diverges in 1 of 1 warps of kernel 'groupedPassed'
    // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  }
}
void launchGroupedPassed(const float *in, float *out) { groupedPassed<<<1, 256>>>(in, out, 2); }

// A warning: every warp of the block splits for some values (all lanes in groups of g).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void groupedBlock(const float *in, float *out, int g) {
  const int t = threadIdx.x;
  if ((t / g) % 2 == 0) {
    out[t] = in[t] * 2.f;
    out[t + 256] = in[t + 1];
  }
  // CHECK: :[[@LINE-4]]:7: remark: branch on 't' diverges in up to 8 of 8 warps of kernel 'groupedBlock' (block 256x1x1); predicted branch efficiency 0% to 100%, depending on 'g'
  // CHECK: :[[@LINE-5]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchGroupedBlock(const float *in, float *out, int g) { groupedBlock<<<1, 256>>>(in, out, g); }

// A warning: a sample of 1 (a unit size or step) is no evidence of a uniform split: a
// dilated gather diverges for every other sampled dilation.
__global__ void dilated(const float *col, float *im, int dil) {
  const int w = threadIdx.x;
  float v = 0.f;
  for (int c = 0; c < 3; c += 1) {
    int h = w - c;
    if (h % dil == 0 && w % dil == 0)
      v += col[c * 256 + h / dil];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'h' diverges in up to 16 of 24 warp executions of kernel 'dilated'
  }
  im[w] = v;
}
void launchDilated(const float *col, float *im, int dil) { dilated<<<1, 256>>>(col, im, dil); }

// A warning: an offset that no sample makes uniform (every warp holds both parities).
__global__ void everySample(const float *in, float *out, int off) {
  int t = threadIdx.x + off;
  if (t % 2 == 0) {
    out[threadIdx.x] = in[t];
    out[threadIdx.x + 256] = in[t + 1];
  }
  // CHECK: :[[@LINE-4]]:7: warning: branch on 't' diverges in 8 of 8 warps
}
void launchEverySample(const float *in, float *out, int off) {
  everySample<<<1, 256>>>(in, out, off);
}

// A warning: the interleaved tree reduction; n (the bounds return) only takes lanes away,
// and with n = 1 one lane per warp is left, which says nothing of a split.
__global__ void neighbored(int *data, int *sums, unsigned n) {
  unsigned tid = threadIdx.x;
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  int *local = data + blockIdx.x * blockDim.x;
  if (idx >= n)
    return;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0)
      local[tid] += local[tid + stride];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'tid' diverges
    __syncthreads();
  }
  if (tid == 0)
    sums[blockIdx.x] = local[0];
}
void launchNeighbored(int *data, int *sums, unsigned n) {
  neighbored<<<(n + 511) / 512, 512>>>(data, sums, n);
}
