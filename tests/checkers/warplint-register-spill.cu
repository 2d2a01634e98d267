// warplint-register-spill: kernels ptxas made spill registers to local memory.
// Registers and spills from the ptxas log of this very file (nvcc 13.0, sm_80 + sm_90; the
// command is in Inputs/occupancy/README.md): the analysed arch's figures are used.
// RUN: %clang_tidy --checks='-*,warplint-register-spill' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-register-spill.log'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %check_diags %s
// A threshold above the spills silences them; no register source says nothing.
// RUN: %clang_tidy --checks='-*,warplint-register-spill' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-register-spill.log', warplint-register-spill.MinSpillBytes: '10000'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: %clang_tidy --checks='-*,warplint-register-spill' %s --config="{CheckOptions: {warplint.RegisterSource: none}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --allow-empty --check-prefix=QUIET %s
// QUIET-NOT: warning:
// A -maxrregcount among the nvcc flags is named as the cause (the log then stands for
// that build).
// RUN: %clang_tidy --checks='-*,warplint-register-spill' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-register-spill.log', warplint.NvccFlags: '-maxrregcount=32'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --check-prefix=FLAG %s
// FLAG: note: -maxrregcount=32 in the build's nvcc flags caps the registers of every kernel of the file

template <int N> __device__ float churn(const float *in) {
  float r[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    r[i] = in[threadIdx.x + i * 1024];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
#pragma unroll
    for (int i = 0; i < N; ++i)
      s += r[i] * r[(i + j + 1) % N];
  return s;
}

#ifdef __NVCC__
#define MAXNREG(n) __maxnreg__(n)
#else
#define MAXNREG(n)
#endif

// __maxnreg__(32) for nvcc (clang does not know it): the cap is named when the kernel
// carries it in the AST; here the spills are reported with no cause.
__global__ void MAXNREG(32) capped(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// CHECK: :[[@LINE-1]]:29: warning: kernel 'capped' spills registers to local memory on sm_80: 1624 bytes/thread of stores and 3604 of loads with 32 registers/thread [warplint-register-spill]
// CHECK: :[[@LINE-2]]:29: note: registers from the ptxas log '{{.*}}warplint-register-spill.log' (sm_80)

// __launch_bounds__(1024, 2): 2 blocks of 1024 threads leave 32 registers per thread.
__global__ void __launch_bounds__(1024, 2) bounded(float *out, const float *in) {
  // CHECK: :[[@LINE-1]]:44: warning: kernel 'bounded' spills registers to local memory on sm_80: 1624 bytes/thread of stores and 3604 of loads with 32 registers/thread [warplint-register-spill]
  // CHECK: :[[@LINE-2]]:44: note: __launch_bounds__(1024, 2) leaves ptxas at most 32 registers/thread on sm_80: fewer threads or fewer blocks per SM in it raise the budget
  // CHECK: :[[@LINE-3]]:44: note: registers from the ptxas log '{{.*}}' (sm_80)
  out[threadIdx.x] = churn<96>(in);
}

// No spills: nothing to say.
__global__ void roomy(float *out, const float *in) { out[threadIdx.x] = churn<16>(in); }

void launches(float *out, const float *in) {
  capped<<<64, 256>>>(out, in);
  bounded<<<64, 1024>>>(out, in);
  roomy<<<64, 256>>>(out, in);
}
