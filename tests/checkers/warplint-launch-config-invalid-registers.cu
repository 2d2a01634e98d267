// warplint-launch-config-invalid with registers from ptxas: registers x threads over the
// register file ("too many resources requested for launch"), with the spills ptxas
// reported. The log is this file's own (nvcc 13.0, sm_80 + sm_90; Inputs/occupancy/README.md).
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-launch-config-invalid-registers.log'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// Without a register source nothing about registers is said.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --allow-empty --check-prefix=NONE %s
// NONE-NOT: {{warning|error}}:

#ifdef __NVCC__
#define MAXNREG(n) __maxnreg__(n)
#else
#define MAXNREG(n)
#endif

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

// 72 registers (and spills): 72 x 1024 threads = 73728 > 65536.
__global__ void MAXNREG(72) tooFat(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// 64 registers: 64 x 1024 = 65536 fits exactly.
__global__ void MAXNREG(64) fits(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }

void launches(float *out, const float *in) {
  tooFat<<<64, 1024>>>(out, in);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'tooFat' needs 73728 registers per block on sm_80 (72 registers/thread for 1024 threads), over the 65536 of the register file: too many resources requested for launch [warplint-launch-config-invalid]
  // CHECK: :[[@LINE-2]]:3: note: at most 64 registers/thread fit 1024 threads: __launch_bounds__(1024) makes ptxas keep within them
  // CHECK: :[[@LINE-3]]:3: note: ptxas already spills 1012 bytes/thread of stores and 1792 of loads to local memory for 'tooFat' on sm_80; fewer registers will spill more
  // CHECK: :[[@LINE-4]]:3: note: registers from the ptxas log '{{.*}}warplint-launch-config-invalid-registers.log' (sm_80)
  // CHECK: :[[@LINE-5]]:3: warning: launch of 'tooFat' needs 73728 registers per block on sm_90
  // CHECK: :[[@LINE-6]]:3: note: at most 64 registers/thread
  // CHECK: :[[@LINE-7]]:3: note: ptxas already spills
  // CHECK: :[[@LINE-8]]:3: note: registers from the ptxas log '{{.*}}' (sm_90)
  tooFat<<<64, 512>>>(out, in);
  fits<<<64, 1024>>>(out, in);
}
