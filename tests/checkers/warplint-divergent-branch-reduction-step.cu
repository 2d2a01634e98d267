// warplint-divergent-branch: the last level of a block's two-level reduction (issue 23,
// magma's fused QR kernels): after a barrier, the first K threads each sum what the block
// wrote for one result; the others have no result to compute. The tail of a reduction,
// like a tree's last steps: silent at the defaults (ReportTreeReductionTails reports it).
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' -config="{CheckOptions: {warplint-divergent-branch.ReportTreeReductionTails: true}}" %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=TAILS %s

#define NB 8
#define TPC 4

struct cplx {
  double x, y;
};
__device__ cplx &operator+=(cplx &a, const cplx &b) {
  a.x += b.x;
  a.y += b.y;
  return a;
}

// zunm2r's `reduce (2-of-2)`: the block (32x2) wrote TPC partial sums per column of sT;
// lanes tx < NB sum one column each. Silent.
__global__ void finalStep(double *out, const double *in) {
  __shared__ double sT[64];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 8; j++) {
    sT[tx + ty * 32] = in[j * 64 + tx + ty * 32];
    __syncthreads();
    double zsum;
    zsum = 0;
    if (tx < NB) {
      // TAILS: :[[@LINE-1]]:9: warning: branch on 'tx' diverges
#pragma unroll
      for (int i = 0; i < TPC; i++)
        zsum += sT[i * NB + tx];
      out[j * NB + tx] = zsum;
    }
    __syncthreads();
  }
}

// The same with a complex struct (magma's zunm2r): a class assignment between the barrier
// and the `if`, an operator += in the arm. Silent.
__global__ void finalStepComplex(cplx *out, const cplx *in) {
  __shared__ cplx sT[64];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = 0; j < 8; j++) {
    sT[tx + ty * 32] = in[j * 64 + tx + ty * 32];
    __syncthreads();
    cplx zsum;
    zsum = cplx{0.0, 0.0};
    if (tx < NB) {
      // TAILS: :[[@LINE-1]]:9: warning: branch on 'tx' diverges
      for (int i = 0; i < TPC; i++)
        zsum += sT[i * NB + tx];
      out[j * NB + tx] = zsum;
    }
    __syncthreads();
  }
}

// The same arm without the barrier before it sums its own values: no reduction of what the
// block wrote; the first NB lanes of every warp work and the rest idle. A note at the
// defaults all the same: the same lanes take it in every trip of j (a role fixed to them)
// and its loop of TPC constant trips is four loads written out, straight-line work.
__global__ void noBarrierBefore(double *out, const double *in) {
  const int tx = threadIdx.x;
  for (int j = 0; j < 8; j++) {
    double zsum = 0;
    if (tx < NB) {
      // CHECK: :[[@LINE-1]]:9: remark: branch on 'tx' diverges
      // CHECK: :[[@LINE-2]]:9: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
      // TAILS: :[[@LINE-3]]:9: warning: branch on 'tx' diverges
      for (int i = 0; i < TPC; i++)
        zsum += in[j * 256 + i * 32 + tx];
      out[j * NB + tx] = zsum;
    }
  }
}

// After a barrier, but the arm sums nothing (one lane role's store, with an else): the
// split of lanes stays. Reported.
__global__ void noSum(double *out, const double *in) {
  __shared__ double s[64];
  const int tx = threadIdx.x;
  for (int j = 0; j < 8; j++) {
    s[threadIdx.y * 32 + tx] = in[j * 64 + threadIdx.y * 32 + tx];
    __syncthreads();
    if (tx < NB) {
      // CHECK: :[[@LINE-1]]:9: warning: branch on 'tx' diverges
      // TAILS: :[[@LINE-2]]:9: warning: branch on 'tx' diverges
      out[j * 64 + tx] = s[tx] * 2.0 + s[tx + 1];
    } else {
      out[j * 64 + tx] = s[tx] - 1.0;
    }
    __syncthreads();
  }
}

void launchAll(double *out, const double *in) {
  finalStep<<<16, dim3(32, 2)>>>(out, in);
  finalStepComplex<<<16, dim3(32, 2)>>>((cplx *)out, (const cplx *)in);
  noBarrierBefore<<<16, dim3(32, 2)>>>(out, in);
  noSum<<<16, dim3(32, 2)>>>(out, in);
}
