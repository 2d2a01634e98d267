// warplint-warp-sync-mask under an assumed block, when only rows could split a warp
// (issue 23, eighteenth session: PhysX's warp-per-item kernels, launched 32 x N from
// another file, whose item is `threadIdx.y + blockIdx.x * blockDim.y`). Every block at
// least a warp wide in x that is tried brings every named lane to the call; only a block
// narrower than a warp in x, which puts rows that may disagree into one warp, would leave
// lanes out. The issue's rule: such a finding is a note that says so. Where the kernel's own
// code lays rows narrower than a warp (a shuffle of width under 32, a tile under 32, a
// butterfly that never reaches 16 lanes away) the narrow block is the code's: a warning.
// Values loaded at an address the same for the warp, through a struct bound by reference
// (`a.data.flags`), are sampled like the block's.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Data {
  unsigned flags, n;
};
struct Item {
  Data data;
  float *m;
};

__global__ void perItem(const unsigned *idx, const Item *items, unsigned nb, bool rootMotion) {
  const unsigned item = threadIdx.y + blockIdx.x * blockDim.y;
  const unsigned t = threadIdx.x;
  if (item < nb) {
    const Item &a = items[idx[item]];
    const bool fixed = a.data.flags & 1u;
    if (t == 0 && !fixed && rootMotion) {
      a.m[0] = 1.f;
    } else if (!fixed && !rootMotion) {
      __syncwarp();
      // CHECK: :[[@LINE-1]]:7: remark: mask 0xffffffff of '__syncwarp()' in kernel 'perItem' names lanes that may not take part: it is in the else arm of 'if (t == 0 && !fixed && rootMotion)', which depends on the thread
      // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: no launch in this file gives the block shape; every block at least a warp wide in x that was tried (32x1x1, 32x8x1, 64x4x1, 128x2x1) brings every named lane to the call for the sampled values, and only a block narrower than a warp in x
      // CHECK: :[[@LINE-6]]:5: note: it is in the else arm
      // CHECK: :[[@LINE-4]]:7: note: give the lanes that arrive as the mask
      a.m[t] += 2.f;
    }
  }
}

// Rows of 16 lanes by the code's own butterfly: the narrow block is the code's.
__global__ void perHalfRow(const unsigned *idx, const Item *items, unsigned nb, bool rootMotion) {
  const unsigned item = threadIdx.y + blockIdx.x * blockDim.y;
  const unsigned t = threadIdx.x;
  if (item < nb) {
    const Item &a = items[idx[item]];
    const bool fixed = a.data.flags & 1u;
    float s = a.m[item * 16 + t];
    for (int o = 8; o > 0; o >>= 1)
      s += __shfl_xor_sync(0xffffffffu, s, o);
    if (t == 0 && !fixed && rootMotion) {
      a.m[0] = s;
    } else if (!fixed && !rootMotion) {
      __syncwarp();
      // CHECK: :[[@LINE-1]]:7: warning: mask 0xffffffff of '__syncwarp()' in kernel 'perHalfRow' names lanes that may not take part: it is in the else arm of 'if (t == 0 && !fixed && rootMotion)', which depends on the thread
      // CHECK: :[[@LINE-5]]:5: note: it is in the else arm
      // CHECK: :[[@LINE-3]]:7: note: give the lanes that arrive as the mask
      a.m[t] += s;
    }
  }
}

// A butterfly written out from 16 down reaches the warp's other half: rows a warp wide,
// whatever smaller steps (`dot` over groups of 4) the kernel also takes. A note.
__global__ void perItemButterfly(const unsigned *idx, const Item *items, unsigned nb,
                                 bool rootMotion) {
  const unsigned item = threadIdx.y + blockIdx.x * blockDim.y;
  const unsigned t = threadIdx.x;
  if (item < nb) {
    const Item &a = items[idx[item]];
    const bool fixed = a.data.flags & 1u;
    float d = a.m[item * 32 + t];
    float q = d + __shfl_down_sync(0xffffffffu, d, 1) + __shfl_down_sync(0xffffffffu, d, 2);
    float e = d + __shfl_xor_sync(0xffffffffu, d, 16);
    e += __shfl_xor_sync(0xffffffffu, e, 8);
    if (t == 0 && !fixed && rootMotion) {
      a.m[0] = e + q;
    } else if (!fixed && !rootMotion) {
      __syncwarp();
      // CHECK: :[[@LINE-1]]:7: remark: mask 0xffffffff of '__syncwarp()' in kernel 'perItemButterfly' names lanes that may not take part
      // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: no launch in this file gives the block shape
      // CHECK: :[[@LINE-6]]:5: note: it is in the else arm
      // CHECK: :[[@LINE-4]]:7: note: give the lanes that arrive as the mask
      a.m[t] += e;
    }
  }
}
