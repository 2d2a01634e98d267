// warplint-occupancy-cliff: cliffs that are not worth a warning. Registers from the ptxas
// log of this very file (nvcc 13.0, sm_80 + sm_90; the command is in
// Inputs/occupancy/README.md).
// By default: a cliff must gain at least 5 points of occupancy, and one that registers or
// the block-slot cap make irrelevant is none.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff-limits.log'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %check_diags %s
// A smaller minimum gain reports the small cliffs too.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-cliff-limits.log', warplint-occupancy-cliff.MinOccupancyChange: '1'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --check-prefix=SMALL --implicit-check-not=warning: %s
// Without a register source a shared-memory cliff is a note that says registers are
// unknown: they may hold the launch to fewer blocks on both sides of it.
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.RegisterSource: none, warplint.Arch: sm_80}}" -- %cuda_host 2>&1 | %FileCheck --check-prefix=NONE --implicit-check-not=warning: %s
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint-occupancy-cliff.MinOccupancyChange: 'lots'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT: invalid MinOccupancyChange 'lots' for warplint-occupancy-cliff: percentage points 0-100; using 5

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

// 66 registers: 2 past the cliff at 64.
__global__ void MAXNREG(66) regsPast(float *out, const float *in) { out[threadIdx.x] = churn<96>(in); }
// 41000 bytes of shared memory: 40 past the cliff at 40960 on sm_80.
__global__ void smemPast(float *out) {
  __shared__ float buf[10250];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}
// 80 registers and the same 41000 bytes: with 256-thread blocks registers allow 3 blocks,
// as shared memory does, so 40 bytes less gain nothing.
__global__ void MAXNREG(80) regsAndSmem(float *out, const float *in) {
  __shared__ float buf[10250];
  buf[threadIdx.x] = churn<96>(in);
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}
// 4300 bytes: 31 blocks/SM on sm_80, 32 (the block-slot cap) at 4224.
__global__ void smallTile(float *out) {
  __shared__ float buf[1075];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x + 1];
}

void launches(float *out, const float *in) {
  // 512-thread blocks: 1 block (25%), 2 at 64 registers (50%): 25 points, a warning.
  regsPast<<<1024, 512>>>(out, in);
  // CHECK: :[[@LINE-1]]:3: warning: 'regsPast' on sm_80 is 2 registers past an occupancy cliff: 66 registers/thread allow 1 block/SM (25%) with 512-thread blocks; at 64 it keeps 2 blocks/SM (50%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: ask ptxas for 64 registers
  // CHECK: :[[@LINE-3]]:3: note: registers from the ptxas log '{{.*}}' (sm_80)
  // SMALL: :[[@LINE-4]]:3: warning: 'regsPast' on sm_80 is 2 registers past an occupancy cliff
  // 96-thread blocks: 9 blocks (42.2%), 10 at 64 registers (46.9%): 4.7 points, not worth
  // a warning by default.
  regsPast<<<1024, 96>>>(out, in);
  // SMALL: :[[@LINE-1]]:3: warning: 'regsPast' on sm_80 is 2 registers past an occupancy cliff: 66 registers/thread allow 9 blocks/SM (42.2%) with 96-thread blocks; at 64 it keeps 10 blocks/SM (46.9%) [warplint-occupancy-cliff]
  // 256-thread blocks: 3 blocks (37.5%), 4 at 40960 bytes (50%): a warning.
  smemPast<<<1024, 256>>>(out);
  // CHECK: :[[@LINE-1]]:3: warning: 'smemPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff: 41000 bytes per block allow 3 blocks/SM (37.5%) with 256-thread blocks; at 40960 it keeps 4 blocks/SM (50%) [warplint-occupancy-cliff]
  // CHECK: :[[@LINE-2]]:3: note: use 40 fewer bytes of shared memory per block
  // SMALL: :[[@LINE-3]]:3: warning: 'smemPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff
  // NONE: :[[@LINE-4]]:3: remark: 'smemPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff: 41000 bytes per block allow 3 blocks/SM (37.5%) with 256-thread blocks; at 40960 it keeps 4 blocks/SM (50%) [warplint-occupancy-cliff]
  // NONE: :[[@LINE-5]]:3: note: use 40 fewer bytes of shared memory per block
  // NONE: :[[@LINE-6]]:3: note: registers unknown: they may limit 'smemPast' to fewer blocks first; set warplint.RegisterSource (a ptxas log, objects or nvcc) to know
  // 64-thread blocks: the same bytes gain 2 warps of 64 (3.1 points): no warning.
  smemPast<<<1024, 64>>>(out);
  // SMALL: :[[@LINE-1]]:3: warning: 'smemPast' on sm_80 is 40 bytes of shared memory past an occupancy cliff: 41000 bytes per block allow 3 blocks/SM (9.4%) with 64-thread blocks; at 40960 it keeps 4 blocks/SM (12.5%)
  // Registers hold it to 3 blocks as well: no cliff, whatever the minimum gain. Without
  // the registers the figures cannot tell: a note.
  regsAndSmem<<<1024, 256>>>(out, in);
  // NONE: :[[@LINE-1]]:3: remark: 'regsAndSmem' on sm_80 is 40 bytes of shared memory past an occupancy cliff
  // NONE: :[[@LINE-2]]:3: note: use 40 fewer bytes
  // NONE: :[[@LINE-3]]:3: note: registers unknown: they may limit 'regsAndSmem' to fewer blocks first
  // 32-thread blocks: 31 blocks (48.4%); the block-slot cap allows 32 (50%) at 4224 bytes:
  // 1.6 points.
  smallTile<<<1024, 32>>>(out);
  // SMALL: :[[@LINE-1]]:3: warning: 'smallTile' on sm_80 is 76 bytes of shared memory past an occupancy cliff: 4300 bytes per block allow 31 blocks/SM (48.4%) with 32-thread blocks; at 4224 it keeps 32 blocks/SM (50%)
}
