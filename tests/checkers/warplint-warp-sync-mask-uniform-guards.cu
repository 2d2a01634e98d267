// warplint-warp-sync-mask: a uniform condition on the way to the call that reads a value
// another condition on the way reads (issue 23, eighteenth session, from PhysX's
// computeArtiMassMatrices: `if (t == 0 && !fixBase && rootMotion) ... else if (!fixBase &&
// !rootMotion) __syncwarp();`). A uniform condition splits no warp by itself, and was
// left out of who reaches the call; but where the first condition splits lane 0 from the
// rest (rootMotion set), the second keeps every lane out. The two decide together: the
// uniform one stays in the reaching condition when it shares a value with one that reads
// the thread. A second arm that lets the split through stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void masses(float *m, int fixBase, int rootMotion) {
  const unsigned t = threadIdx.x;
  if (t == 0 && fixBase == 0 && rootMotion != 0) {
    m[0] = 1.f;
  } else if (fixBase == 0 && rootMotion == 0) {
    __syncwarp();
    m[t] += 2.f;
  }
}

__global__ void massesLeaky(float *m, int fixBase, int rootMotion) {
  const unsigned t = threadIdx.x;
  if (t == 0 && fixBase == 0 && rootMotion != 0) {
    m[0] = 1.f;
  } else if (fixBase == 0) {
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'massesLeaky' names lanes that may not take part: it is in the else arm of 'if (t == 0 && fixBase == 0 && rootMotion != 0)', which depends on the thread
    // CHECK: :[[@LINE-5]]:3: note: it is in the else arm
    // CHECK: :[[@LINE-3]]:5: note: give the lanes that arrive as the mask
    m[t] += 2.f;
  }
}
