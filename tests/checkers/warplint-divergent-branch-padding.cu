// warplint-divergent-branch: guards of a padded tile are bounds guards (issue 23, AFTER 12:
// FasterTransformer's attention kernel and mask transform).
// - `Dh == Dh_MAX || vi < Dh`: the work is laid out for a padded size Dh_MAX and the code
//   skips the guard when the size fills it; for a smaller head the lanes past Dh have no
//   element. Silent alone; beside other terms the figures and idioms are the other terms'
//   (a step of a tree over groups stays the tree's tail).
// - an index of a tile's fragment layout (bit fields of the lane: `((c >> 1) & 3) << 1`)
//   against a size known only at run time: it splits lanes only in the tile that holds
//   the size's edge, as a lane-strided index does.
// The same guard against another limit, or without the padding's test, and a fragment
// index against a compile-time limit, are still reported.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s
#include <cuda_runtime.h>

// Groups of 16 lanes, 4 elements each: Dh_MAX = 64. Silent for a head of 56.
template <int Dh, int Dh_MAX>
__global__ void paddedHead(float *out, const float *in) {
  const int vi = (threadIdx.x % 16) * 4;
  if (Dh == Dh_MAX || vi < Dh)
    out[blockIdx.x * Dh + vi] = in[blockIdx.x * Dh + vi] * 2.f;
}
void launchPadded(float *o, const float *i) { paddedHead<56, 64><<<8, 64>>>(o, i); }

// The tree over groups with the padding's guard beside each step: the tree's tail. Silent.
template <int Dh, int Dh_MAX, int GROUPS>
__global__ void paddedTree(float *out, const float *in) {
  __shared__ float s[GROUPS * Dh_MAX];
  const int vi = (threadIdx.x % 16) * 4;
  const int vo = threadIdx.x / 16;
  float v = in[blockIdx.x * 256 + threadIdx.x];
  for (int active = GROUPS; active >= 2; active /= 2) {
    int mid = active / 2;
    if (vo >= mid && vo < active && (Dh == Dh_MAX || vi < Dh))
      s[(vo - mid) * Dh + vi] = v;
    __syncthreads();
    if (vo < mid && (Dh == Dh_MAX || vi < Dh))
      v += s[vo * Dh + vi];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = v;
}
void launchTree(float *o, const float *i) { paddedTree<56, 64, 4><<<8, 64>>>(o, i); }

// Reported: the same index against a limit that is neither size.
template <int Dh, int Dh_MAX>
__global__ void otherLimit(float *out, const float *in) {
  const int vi = (threadIdx.x % 16) * 4;
  if (Dh == Dh_MAX || vi < 48)
    out[blockIdx.x * Dh + vi] = in[blockIdx.x * Dh + vi] * 2.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'vi' diverges in 2 of 2 warps of kernel 'otherLimit' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchOther(float *o, const float *i) { otherLimit<56, 64><<<8, 64>>>(o, i); }

// Reported: the lane-role test without the padding's test.
template <int Dh>
__global__ void noPadding(float *out, const float *in) {
  const int vi = (threadIdx.x % 16) * 4;
  if (vi < Dh)
    out[blockIdx.x * Dh + vi] = in[blockIdx.x * Dh + vi] * 2.f;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'vi' diverges in 2 of 2 warps of kernel 'noPadding' (block 64x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
}
void launchNoPadding(float *o, const float *i) { noPadding<56><<<8, 64>>>(o, i); }

// A warp's 16x16 fragment of an S x S mask padded to S2: each lane's two columns. Silent.
__global__ void fragmentMask(float *tiles, const float *mask, unsigned S, unsigned warpsN) {
  const int c = threadIdx.x * 2;
  const int tileN = (blockIdx.y % warpsN) << 4;
  const int ni = tileN + (((c >> 1) & 3) << 1);
  const int mi = ((blockIdx.y / warpsN) << 4) + (c >> 3);
  float tmp = -30000.f;
  if (mi < S && ni < S)
    tmp = mask[mi * S + ni];
  tiles[(blockIdx.y << 5) + threadIdx.x] = tmp;
}
void launchFragment(float *t, const float *m, unsigned S) {
  fragmentMask<<<dim3(4, 16), 32>>>(t, m, S, 4);
}

// Reported: the fragment's column against a compile-time limit (a choice of lanes).
// Since the fourteenth session the finding is a note (remark), with the reason: the same
// lanes take the branch every time and its arm runs no loop over memory, a role fixed to
// those lanes (warplint-divergent-branch-fixed-role.cu); the figures are unchanged.
__global__ void fragmentConst(float *tiles, const float *mask) {
  const int c = threadIdx.x * 2;
  const int ni = ((c >> 1) & 3) << 1;
  float tmp = 0.f;
  if (ni < 4)
    tmp = mask[blockIdx.x * 32 + threadIdx.x];
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'ni' diverges in 1 of 1 warps of kernel 'fragmentConst' (block 32x1x1); predicted branch efficiency 0%
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
  tiles[blockIdx.x * 32 + threadIdx.x] = tmp;
}
void launchFragmentConst(float *t, const float *m) { fragmentConst<<<8, 32>>>(t, m); }
