// warplint-block-size-warp-multiple on HIP: the unit is the wavefront, 64 lanes on CDNA
// (gfx90a), 32 on RDNA (gfx1030) unless compiled with -mwavefrontsize64; every message
// names the width. Launches through <<<>>>, hipLaunchKernelGGL and hipLaunchKernel.
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s -- %hip_gfx90a 2>&1 | %check_diags --check-prefixes=W64,BOTH %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s -- %hip_gfx1030_w64 2>&1 | %check_diags --check-prefixes=W64,BOTH %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s -- %hip_gfx1030 2>&1 | %check_diags --check-prefixes=W32,BOTH %s

__global__ void kernel(float *p) {}

void launches(float *p, hipStream_t s) {
  kernel<<<1, 100>>>(p);
  // W64: :[[@LINE-1]]:3: warning: block 100 is not a whole number of wavefronts: 100 threads in 2 wavefronts of 64 lanes, 28 lanes idle [warplint-block-size-warp-multiple]
  // W32: :[[@LINE-2]]:3: warning: block 100 is not a whole number of wavefronts: 100 threads in 4 wavefronts of 32 lanes, 28 lanes idle [warplint-block-size-warp-multiple]
  hipLaunchKernelGGL(kernel, dim3(4), dim3(96), 0, s, p);
  // W64: :[[@LINE-1]]:3: warning: block 96 is not a whole number of wavefronts: 96 threads in 2 wavefronts of 64 lanes, 32 lanes idle [warplint-block-size-warp-multiple]
  hipLaunchKernel(kernel, dim3(2), dim3(32), nullptr);
  // W64: :[[@LINE-1]]:3: warning: block 32 is not a whole number of wavefronts: 32 threads in 1 wavefront of 64 lanes, 32 lanes idle [warplint-block-size-warp-multiple]
  hipLaunchKernel(kernel, dim3(1), dim3(32), nullptr);
  // W64: :[[@LINE-1]]:3: remark: block 32 is not a whole number of wavefronts: 32 threads in 1 wavefront of 64 lanes, 32 lanes idle [warplint-block-size-warp-multiple]
  // W64: :[[@LINE-2]]:3: note: said as a note: the whole launch is one block smaller than a wavefront
  hipExtLaunchKernelGGL(kernel, dim3(4), dim3(40, 2), 0, s, nullptr, nullptr, 0, p);
  // BOTH: :[[@LINE-1]]:3: warning: block dim3(40,2) is not a whole number of wavefronts
  // Whole wavefronts of either width: silent.
  kernel<<<1, 256>>>(p);
  hipLaunchKernelGGL(kernel, dim3(4), dim3(64), 0, s, p);
  hipLaunchCooperativeKernel(kernel, dim3(1), dim3(128), nullptr);
}
