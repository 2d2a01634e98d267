// warplint-occupancy: launches of known shape whose theoretical occupancy is low.
// Registers from the ptxas log of this very file (nvcc 13.0, sm_80 + sm_90; the command
// is in Inputs/occupancy/README.md): every arch of the log is evaluated and named.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy.log'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// No register source: registers are not counted, the budget is reported instead.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.RegisterSource: none}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=NONE --implicit-check-not=warning: %s
// A stricter minimum reports the 50% launches too.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy.log', warplint-occupancy.MinOccupancy: '60'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=MIN60 %s
// 1024-thread blocks on sm_86: one block of 32 warps in 48 warp slots, 66.7% at most.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.RegisterSource: none, warplint-occupancy.MinOccupancy: '70'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=MIN70 %s
// A log that cannot be read is a configuration error, not silence.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/missing.log'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADLOG %s
// BADLOG: cannot read ptxas log '{{.*}}missing.log'
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s --config="{CheckOptions: {warplint.RegisterSource: bogus, warplint-occupancy.MinOccupancy: lots}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT-DAG: invalid MinOccupancy 'lots'
// BADOPT-DAG: invalid warplint.RegisterSource 'bogus'

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

// 72 registers (pinned by __maxnreg__ for nvcc).
__global__ void MAXNREG(72) regHeavy(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// __launch_bounds__(256, 3): ptxas fits 80 registers so that 3 blocks fit, as asked.
__global__ void __launch_bounds__(256, 3) regHeavyBounded(float *out, const float *in) {
  out[threadIdx.x] = churn<96>(in);
}
__global__ void light(float *out) { out[threadIdx.x] = 1.0f; }
template <int N> __global__ void MAXNREG(64) tfat(float *out, const float *in) {
  out[threadIdx.x] = churn<N>(in);
}
// 48000 bytes of static shared memory: 3 blocks/SM on sm_80, 4 on sm_90, 2 on sm_86.
__global__ void smemHeavy(float *out) {
  __shared__ float buf[12000];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}
extern __global__ void external(float *out);

void launches(float *out, const float *in) {
  regHeavy<<<1024, 256>>>(out, in);
  // CHECK: :[[@LINE-1]]:3: warning: occupancy 37.5% for 'regHeavy' on sm_80: 24 of 64 warps per SM with 256-thread blocks, below the 50% minimum; limited by registers [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: 72 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}warplint-occupancy.log' (sm_80)
  // CHECK: :[[@LINE-4]]:3: warning: occupancy 37.5% for 'regHeavy' on sm_90: 24 of 64 warps per SM with 256-thread blocks, below the 50% minimum; limited by registers [warplint-occupancy]
  // CHECK: :[[@LINE-5]]:3: note: 72 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: :[[@LINE-6]]:3: note: registers from the ptxas log '{{.*}}' (sm_90)
  // MIN60: :[[@LINE-7]]:3: warning: occupancy 37.5% for 'regHeavy' on sm_80
  regHeavyBounded<<<1024, 256>>>(out, in);
  light<<<1024, 256>>>(out);
  tfat<96><<<1024, 256>>>(out, in);
  // MIN60: :[[@LINE-1]]:3: warning: occupancy 50% for 'tfat<96>' on sm_80: 32 of 64 warps per SM with 256-thread blocks, below the 60% minimum; limited by registers
  smemHeavy<<<1024, 256>>>(out);
  // CHECK: :[[@LINE-1]]:3: warning: occupancy 37.5% for 'smemHeavy' on sm_80: 24 of 64 warps per SM with 256-thread blocks, below the 50% minimum; limited by shared memory [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: 48000 bytes of shared memory per block limit this 256-thread block to 3 blocks/SM (37.5%); at {{[0-9]+}} bytes it keeps 4 (50%)
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}' (sm_80)
  // Registers unknown: shared memory bounds the figure, but is not named as the limiter
  // (registers may allow fewer blocks); its gain holds only if they allow it too.
  // NONE: :[[@LINE-6]]:3: warning: occupancy at most 33.3% for 'smemHeavy' on sm_86: at most 16 of 48 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
  // NONE: :[[@LINE-7]]:3: note: 48000 bytes of shared memory per block allow this 256-thread block at most 2 blocks/SM (33.3%); at 33024 bytes it keeps 3 (50%) if registers allow
  // NONE: :[[@LINE-8]]:3: note: registers unknown: up to 128 registers/thread keep this; at 129 it drops to 1 block/SM
  // 32-thread blocks on sm_86: 16 block slots hold 16 of 48 warps, so no 32-thread launch
  // reaches 50%: a note that says so, not a warning.
  light<<<1024, 32>>>(out);
  // NONE: :[[@LINE-1]]:3: remark: occupancy at most 33.3% for 'light' on sm_86: at most 16 of 48 warps per SM with 32-thread blocks; 32-thread blocks cannot reach the 50% minimum there: their block slots allow at most 16 blocks/SM (33.3%) [warplint-occupancy]
  // NONE: :[[@LINE-2]]:3: note: the limit of 16 blocks/SM leaves 32-thread blocks at 16 warps/SM; larger blocks fill more warp slots
  external<<<1024, 32>>>(out);
  // CHECK: :[[@LINE-1]]:3: remark: occupancy at most 33.3% for 'external' on sm_86: at most 16 of 48 warps per SM with 32-thread blocks; 32-thread blocks cannot reach the 50% minimum there: their block slots allow at most 16 blocks/SM (33.3%) [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: the limit of 16 blocks/SM leaves 32-thread blocks at 16 warps/SM; larger blocks fill more warp slots
  // CHECK: :[[@LINE-3]]:3: note: registers unknown: up to 128 registers/thread keep this; at 129 it drops to 12 blocks/SM
  // CHECK: :[[@LINE-4]]:3: note: registers not counted: the register source has no entry for '_Z8externalPf'
  // NONE: :[[@LINE-5]]:3: remark: occupancy at most 33.3% for 'external' on sm_86
  // On sm_80 and sm_90 (32 block slots of 64 warps) 32-thread blocks can reach 50%, so
  // shared memory holding them to 3 and 4 blocks is a warning; a 60% minimum is out of
  // reach there, a note. On sm_86 without registers, below even the slots' 33.3%: a note
  // that names both.
  smemHeavy<<<1024, 32>>>(out);
  // CHECK: :[[@LINE-1]]:3: warning: occupancy 4.7% for 'smemHeavy' on sm_80: 3 of 64 warps per SM with 32-thread blocks, below the 50% minimum; limited by shared memory [warplint-occupancy]
  // CHECK: :[[@LINE-2]]:3: note: 48000 bytes of shared memory per block limit this 32-thread block to 3 blocks/SM (4.7%); at 40960 bytes it keeps 4 (6.3%)
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}' (sm_80)
  // CHECK: :[[@LINE-4]]:3: warning: occupancy 6.3% for 'smemHeavy' on sm_90: 4 of 64 warps per SM with 32-thread blocks, below the 50% minimum; limited by shared memory [warplint-occupancy]
  // MIN60: :[[@LINE-5]]:3: remark: occupancy 4.7% for 'smemHeavy' on sm_80: 3 of 64 warps per SM with 32-thread blocks; 32-thread blocks cannot reach the 60% minimum there: limited by shared memory; and their block slots allow at most 32 blocks/SM (50%) [warplint-occupancy]
  // NONE: :[[@LINE-6]]:3: remark: occupancy at most 4.2% for 'smemHeavy' on sm_86: at most 2 of 48 warps per SM with 32-thread blocks; 32-thread blocks cannot reach the 50% minimum there: registers unknown, shared memory allows no more; and their block slots allow at most 16 blocks/SM (33.3%) [warplint-occupancy]
  light<<<1024, 1024>>>(out);
  // MIN70: :[[@LINE-1]]:3: remark: occupancy at most 66.7% for 'light' on sm_86: at most 32 of 48 warps per SM with 1024-thread blocks; 1024-thread blocks cannot reach the 70% minimum there: their warp slots allow at most 1 block/SM (66.7%) [warplint-occupancy]
}
