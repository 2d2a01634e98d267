// warplint-barrier-divergence: a stopping test through a method of a small class whose
// comparison is inline assembly on registers (thirteenth session, ginkgo's batch solvers:
// `if (stop.check_converged(norms_res_sh)) break;` with cuda_fp16's `__hle`, a `setp.le.f16`
// on the operands). The method reads its object and arguments only, and the assembly
// computes on registers, so a norm read from one shared word after a barrier stays
// block-uniform: the break leaves with the whole block. Silent. A comparison through
// assembly that reads %laneid (a special register) is no such computation: reported. The
// chain of calls may be as deep as a header library's (cuda_bf16's operator* -> __hmul ->
// __internal_device_hmul -> ...: six calls below the method here).
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <cuda_runtime.h>

struct Half {
  unsigned short x;
};
__device__ __forceinline__ bool lessEqual(const Half a, const Half b) {
  unsigned short v;
  asm("{ .reg .pred p;\n  setp.le.f16 p, %1, %2;\n  selp.u16 %0, 1, 0, p;}"
      : "=h"(v)
      : "h"(a.x), "h"(b.x));
  return v != 0;
}
__device__ __forceinline__ bool lessEqualLane(const Half a, const Half b) {
  unsigned v;
  asm("{ .reg .u32 l;\n  mov.u32 l, %%laneid;\n  add.u32 %0, l, %1;}" : "=r"(v) : "r"(unsigned(a.x)));
  return v <= b.x;
}

struct AbsResidual {
  Half tol;
  __device__ bool converged(const Half *norms) const { return lessEqual(norms[0], tol); }
};
struct LaneResidual {
  Half tol;
  __device__ bool converged(const Half *norms) const { return lessEqualLane(norms[0], tol); }
};

__device__ __forceinline__ Half scale1(Half a, Half b) {
  unsigned short v;
  asm("mul.rn.bf16 %0, %1, %2;" : "=h"(v) : "h"(a.x), "h"(b.x));
  return Half{v};
}
__device__ __forceinline__ Half scale2(Half a, Half b) { return scale1(a, b); }
__device__ __forceinline__ Half scale3(Half a, Half b) { return scale2(a, b); }
__device__ __forceinline__ Half scale4(Half a, Half b) { return scale3(a, b); }
__device__ __forceinline__ Half scale5(Half a, Half b) { return scale4(a, b); }
__device__ __forceinline__ Half scale6(Half a, Half b) { return scale5(a, b); }
struct RelResidual {
  Half tol;
  __device__ bool converged(const Half *norms) const {
    return lessEqual(norms[0], scale6(tol, norms[0]));
  }
};

template <typename Stop>
__global__ void solve(Half *x, int max_iter, Half tol) {
  __shared__ Half norm[1];
  if (threadIdx.x == 0)
    norm[0] = x[blockIdx.x];
  __syncthreads();
  Stop stop{tol};
  for (int it = 0; it < max_iter; ++it) {
    if (stop.converged(norm))
      break;
    __syncthreads();
    // CHECK: :[[@LINE-1]]:5: warning: '__syncthreads()' in kernel 'solve<LaneResidual>' may be skipped by part of the block{{.*}}[warplint-barrier-divergence]
    if (threadIdx.x == 0)
      norm[0].x = norm[0].x >> 1;
    __syncthreads();
  }
}

void go(Half *x, int m, Half t) {
  solve<AbsResidual><<<64, 128>>>(x, m, t);
  solve<LaneResidual><<<64, 128>>>(x, m, t);
  solve<RelResidual><<<64, 128>>>(x, m, t);
}
