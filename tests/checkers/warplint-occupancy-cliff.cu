// warplint-occupancy-cliff: launches at the edge of an occupancy cliff, or just past one.
// Registers from the ptxas log of this very file (nvcc 13.0, sm_80 + sm_90; the command
// is in Inputs/occupancy/README.md).
// With WarnBeforeCliff, launches at the edge of a cliff are reported too.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff.log', warplint-occupancy-cliff.WarnBeforeCliff: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// By default only launches past a cliff: the headroom before one is information (JSON, report).
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff.log'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=DEFAULT --implicit-check-not=warning: %s
// Without a register source only shared memory is judged, in notes that say the registers
// are unknown (they may limit first), and, when MinRegisterBudget is set, the registers a
// launch can afford.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.RegisterSource: none, warplint-occupancy-cliff.WarnBeforeCliff: true, warplint-occupancy-cliff.MinRegisterBudget: '48', warplint.Arch: sm_80}}" -- %cuda_host 2>&1 | %FileCheck --check-prefix=NONE --implicit-check-not=warning: %s
// Margins of 1 keep only the exact edges; margins of 0 turn the check off.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff.log', warplint-occupancy-cliff.WarnBeforeCliff: true, warplint-occupancy-cliff.RegisterMargin: '1', warplint-occupancy-cliff.SharedMemoryMargin: '1'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=EDGE --implicit-check-not=warning: %s
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff.log', warplint-occupancy-cliff.RegisterMargin: '0', warplint-occupancy-cliff.SharedMemoryMargin: '0'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --allow-empty --check-prefix=ZERO %s
// ZERO-NOT: warning:
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint-occupancy-cliff.RegisterMargin: 'two'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid configuration value 'two' for option 'warplint-occupancy-cliff.RegisterMargin'; expected an integer

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

// 64 registers: 2 blocks of 512 threads per SM; 65 would leave 1.
__global__ void MAXNREG(64) atEdge(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// 66 registers: 1 block of 512; 64 would give 2.
__global__ void MAXNREG(66) justPast(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// The same edge asked for with __launch_bounds__: by design, not reported.
__global__ void __launch_bounds__(512, 2) pinned(float *out, const float *in) {
  out[threadIdx.x] = churn<96>(in);
}
__global__ void roomy(float *out) { out[threadIdx.x] = 1.0f; }
// 40960 bytes: exactly 4 blocks/SM on sm_80 (1 KiB reserved per block).
__global__ void smemAtEdge(float *out) {
  __shared__ float buf[10240];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}
// 41000 bytes: 3 blocks/SM on sm_80; 40 bytes less keeps 4.
__global__ void smemJustPast(float *out) {
  __shared__ float buf[10250];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}

void launches(float *out, const float *in) {
  atEdge<<<1024, 512>>>(out, in);
  // CHECK: :[[@LINE-1]]:3: warning: 'atEdge' on sm_80 is 1 register from an occupancy cliff: 64 registers/thread keep 2 blocks/SM (50%) with 512-thread blocks; 65 drop it to 1 block/SM (25%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: keep it there as the code grows: __launch_bounds__(512, 2) or -maxrregcount=64
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}warplint-occupancy-cliff.log' (sm_80)
  // CHECK: :[[@LINE-4]]:3: warning: 'atEdge' on sm_90 is 1 register from an occupancy cliff: 64 registers/thread keep 2 blocks/SM (50%) with 512-thread blocks; 65 drop it to 1 block/SM (25%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-5]]:3: note: keep it there
  // CHECK: :[[@LINE-6]]:3: note: registers from the ptxas log '{{.*}}' (sm_90)
  // EDGE: :[[@LINE-7]]:3: warning: 'atEdge' on sm_80 is 1 register from an occupancy cliff
  // EDGE: :[[@LINE-8]]:3: warning: 'atEdge' on sm_90 is 1 register from an occupancy cliff
  // NONE: :[[@LINE-9]]:3: warning: register budget of 'atEdge' on sm_80: 512-thread blocks keep 4 blocks/SM (100%) only up to 32 registers/thread; at 33 they drop to 3 blocks/SM (75%)
  justPast<<<1024, 512>>>(out, in);
  // CHECK: :[[@LINE-1]]:3: warning: 'justPast' on sm_80 is 2 registers past an occupancy cliff: 66 registers/thread allow 1 block/SM (25%) with 512-thread blocks; at 64 it keeps 2 blocks/SM (50%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: ask ptxas for 64 registers: __launch_bounds__(512, 2) or -maxrregcount=64 (watch the spills it may add)
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}' (sm_80)
  // CHECK: :[[@LINE-4]]:3: warning: 'justPast' on sm_90 is 2 registers past an occupancy cliff
  // CHECK: :[[@LINE-5]]:3: note: ask ptxas
  // CHECK: :[[@LINE-6]]:3: note: registers from the ptxas log '{{.*}}' (sm_90)
  // DEFAULT: :[[@LINE-7]]:3: warning: 'justPast' on sm_80 is 2 registers past an occupancy cliff
  // DEFAULT: :[[@LINE-8]]:3: warning: 'justPast' on sm_90 is 2 registers past an occupancy cliff
  // NONE: :[[@LINE-9]]:3: warning: register budget of 'justPast' on sm_80: 512-thread blocks keep 4 blocks/SM (100%) only up to 32 registers/thread; at 33 they drop to 3 blocks/SM (75%)
  // NONE: :[[@LINE-10]]:3: note: registers unknown: set warplint.RegisterSource
  pinned<<<1024, 512>>>(out, in);
  roomy<<<1024, 256>>>(out);
  // NONE: :[[@LINE-1]]:3: warning: register budget of 'roomy' on sm_80: 256-thread blocks keep 8 blocks/SM (100%) only up to 32 registers/thread; at 33 they drop to 6 blocks/SM (75%)
  smemAtEdge<<<1024, 256>>>(out);
  // CHECK: :[[@LINE-1]]:3: warning: 'smemAtEdge' on sm_80 is 1 byte of shared memory from an occupancy cliff: 40960 bytes per block keep 4 blocks/SM (50%) with 256-thread blocks; 40961 drop it to 3 blocks/SM (37.5%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: any growth of the shared arrays costs a block per SM
  // NONE: :[[@LINE-3]]:3: remark: 'smemAtEdge' on sm_80 is 1 byte of shared memory from an occupancy cliff
  // EDGE: :[[@LINE-4]]:3: warning: 'smemAtEdge' on sm_80 is 1 byte of shared memory from an occupancy cliff
  smemJustPast<<<1024, 256>>>(out);
  // CHECK: :[[@LINE-1]]:3: warning: 'smemJustPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff: 41000 bytes per block allow 3 blocks/SM (37.5%) with 256-thread blocks; at 40960 it keeps 4 blocks/SM (50%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: use 40 fewer bytes of shared memory per block (a smaller tile or padding)
  // NONE: :[[@LINE-3]]:3: remark: 'smemJustPast' on sm_80 is 40 bytes
  // DEFAULT: :[[@LINE-4]]:3: warning: 'smemJustPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff
}

// Dynamic shared memory exactly at the kernel's opt-in: one byte more makes the launch
// fail (a limit, not an occupancy cliff), so nothing is said even with WarnBeforeCliff.
__global__ void optinFull(float *out) {
  extern __shared__ float dyn[];
  out[threadIdx.x] = dyn[threadIdx.x];
}
void optin(float *out) {
  cudaFuncSetAttribute(optinFull, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
  optinFull<<<100, 256, 80 * 1024>>>(out);
}
