// warplint-partial-wave: a known grid whose last wave fills too little of the named GPU.
// REQUIRES: cluster-dims-attribute
// 640-thread blocks are 20 warps: 3 blocks per SM on sm_90, 396 per wave on an H100 SXM5.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s --config="{CheckOptions: {warplint.Gpu: h100}}" -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %check_diags %s
// The check's own Gpu option names the GPU too.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s --config="{CheckOptions: {warplint-partial-wave.Gpu: H100}}" -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %check_diags %s
// Off unless a GPU is named.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %FileCheck --allow-empty --check-prefix=OFF %s
// OFF-NOT: warning:
// A GPU of another architecture gives no figures, and says so once.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s --config="{CheckOptions: {warplint.Gpu: a100}}" -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %FileCheck --check-prefix=OTHER %s
// OTHER: warning: warplint.Gpu 'a100' is sm_80, the figures are for sm_90: no waves or clusters for it (analyse with --arch sm_80) [clang-tidy-config]
// OTHER-NOT: warplint-partial-wave]
// An unknown GPU is a configuration problem.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s --config="{CheckOptions: {warplint.Gpu: gtx9999}}" -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %FileCheck --check-prefix=BAD %s
// BAD: unknown GPU 'gtx9999' for warplint.Gpu
// A lower threshold keeps the 33% wave quiet; the idle SMs are still reported.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' %s --config="{CheckOptions: {warplint.Gpu: h100, warplint-partial-wave.MinLastWaveFill: 30}}" -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %FileCheck --check-prefix=LOW %s
// LOW-NOT: 1 wave at 33.3%
// LOW: leaves 68 of H100 SXM5's 132 SMs idle

__global__ void kernel(float *p) { p[threadIdx.x] = 0; }
__global__ void __cluster_dims__(2, 1, 1) paired(float *p) { p[threadIdx.x] = 0; }

void waves(float *p, int n) {
  kernel<<<132, 640>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: last wave of 'kernel' fills 33.3% of H100 SXM5: 132 blocks of 3 per SM on 132 SMs: 1 wave at 33.3%; 396 blocks fill it [warplint-partial-wave]
  // CHECK: :[[@LINE-2]]:3: note: 3 blocks/SM (occupancy 93.8%, limited by warp slots) on H100 SXM5 (sm_90); 33.3% of the GPU's block-slot time is used over the grid
  kernel<<<396, 640>>>(p);
  kernel<<<64, 640>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: grid of 'kernel' leaves 68 of H100 SXM5's 132 SMs idle: 64 blocks of 3 per SM on 132 SMs: 1 wave at 16.2%; 396 blocks fill it [warplint-partial-wave]
  kernel<<<800, 640>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: last wave of 'kernel' fills 2% of H100 SXM5: 800 blocks of 3 per SM on 132 SMs: 3 waves, the last at 2%; 1188 blocks fill 3 waves, 792 fill 2 [warplint-partial-wave]
  kernel<<<700, 640>>>(p);
  // More waves than MaxWaves (4): the tail costs little.
  kernel<<<4000, 640>>>(p);
  kernel<<<n, 640>>>(p);
}

void clusters(float *p) {
  // Clusters of 2 share a GPC: 198 clusters = 396 blocks at once.
  paired<<<132, 640>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: last wave of 'paired' fills 33.3% of H100 SXM5: 132 blocks in clusters of 2 (198 clusters of 3 blocks/SM at once) on 132 SMs: 1 wave at 33.3%; 396 blocks fill it [warplint-partial-wave]
  paired<<<396, 640>>>(p);
}

void suppressed(float *p) {
  kernel<<<100, 640>>>(p); // NOLINT(warplint-partial-wave)
}
