// warplint-block-size-warp-multiple: known block shapes that are not whole warps.
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s -- %cuda_host 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.IgnoreSingleThreadBlocks: false}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=SINGLE %s
// A boolean that is not true, false, 1 or 0 is a configuration warning and the default
// (banana passed silently, as false); FALSE and 0 are read as false.
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.IgnoreSingleThreadBlocks: banana}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADBOOL %s
// BADBOOL: warning: invalid IgnoreSingleThreadBlocks 'banana' for warplint-block-size-warp-multiple: true, false, 1 or 0; using true [clang-tidy-config]
// BADBOOL-NOT: block 1 is not a whole number of warps
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.IgnoreSingleThreadBlocks: '0'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=SINGLE --implicit-check-not=invalid %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.IgnoreSingleThreadBlocks: FALSE}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=SINGLE --implicit-check-not=invalid %s
// IgnoredKernels silences every launch of the kernels named (qualified, with or without
// template arguments, or the base name): only typedKernel's launches remain.
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.IgnoredKernels: 'kernel; tkernel'}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=IGNORED --implicit-check-not="warning:" %s
// IGNORED: :86:3: warning: block 100 is not a whole number of warps

__global__ void kernel(float *p) {}
template <int N> __global__ void tkernel(float *p) {}

#define BLOCK_THREADS 100
constexpr int kOddBlock = 48;

void literals(float *p) {
  kernel<<<1, 100>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 100 is not a whole number of warps: 100 threads in 4 warps, 28 lanes idle [warplint-block-size-warp-multiple]
  kernel<<<1, dim3(40, 2)>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block dim3(40,2) is not a whole number of warps: 80 threads in 3 warps, 16 lanes idle [warplint-block-size-warp-multiple]
  kernel<<<4, 16>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 16 is not a whole number of warps: 16 threads in 1 warp, 16 lanes idle [warplint-block-size-warp-multiple]
  // The whole launch smaller than a warp (a solve of n <= 16): a note.
  kernel<<<1, 16>>>(p);
  // CHECK: :[[@LINE-1]]:3: remark: block 16 is not a whole number of warps: 16 threads in 1 warp, 16 lanes idle [warplint-block-size-warp-multiple]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: the whole launch is one block smaller than a warp: its lanes are idle because the problem is that small
  kernel<<<1, 256>>>(p);
  kernel<<<1, dim3(8, 4)>>>(p);
  kernel<<<1, dim3(16, 16)>>>(p);
  kernel<<<1, 1>>>(p); // with IgnoreSingleThreadBlocks off: one 1-thread block, a note
  // SINGLE: :[[@LINE-1]]:3: remark: block 1 is not a whole number of warps: 1 thread in 1 warp, 31 lanes idle
}

void macrosAndConstants(float *p) {
  kernel<<<1, BLOCK_THREADS>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 100 is not a whole number of warps
  kernel<<<1, kOddBlock>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 48 is not a whole number of warps: 48 threads in 2 warps, 16 lanes idle
  const int t = 33;
  kernel<<<1, t>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 33 is not a whole number of warps: 33 threads in 2 warps, 31 lanes idle
}

void fieldsSetOneByOne(float *p) {
  dim3 threads;
  threads.x = 20;
  threads.y = 5;
  kernel<<<1, threads>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block dim3(20,5) is not a whole number of warps: 100 threads in 4 warps, 28 lanes idle
}

void unknownShapesAreNotGuessed(float *p, int n) {
  kernel<<<1, n>>>(p);
  dim3 b(40, 2);
  if (n > 4)
    b.x = 64;
  kernel<<<1, b>>>(p);
}

#define LAUNCH_ODD(k, p) k<<<1, 72>>>(p)
void throughAMacro(float *p) {
  LAUNCH_ODD(kernel, p);
  // CHECK: :[[@LINE-1]]:3: warning: block 72 is not a whole number of warps: 72 threads in 3 warps, 24 lanes idle
}

template <int B> void launchWith(float *p) {
  tkernel<B><<<1, B>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 40 is not a whole number of warps: 40 threads in 2 warps, 24 lanes idle
  // CHECK: :[[@LINE-2]]:3: note: in instantiation 'launchWith<40>'
}
void instantiations(float *p) {
  launchWith<40>(p);
  launchWith<128>(p);
}

// The same shape from several instantiations: one warning naming them.
template <class T> __global__ void typedKernel(T *p) {}
template <class T> void launchTyped(T *p) {
  typedKernel<T><<<1, 100>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block 100 is not a whole number of warps: 100 threads in 4 warps, 28 lanes idle
  // CHECK: :[[@LINE-2]]:3: note: in instantiations 'launchTyped<float>', 'launchTyped<double>'
}
void typed(float *f, double *d) {
  launchTyped(f);
  launchTyped(d);
}

void runtimeApis(float *p) {
  void *args[] = {&p};
  cudaLaunchKernel(kernel, dim3(1), dim3(50), args, 0, 0);
  // CHECK: :[[@LINE-1]]:3: warning: block 50 is not a whole number of warps: 50 threads in 2 warps, 14 lanes idle
  cudaLaunchCooperativeKernel(kernel, dim3(1), dim3(96), args);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(10, 10);
  cudaLaunchKernelEx(&cfg, kernel, p);
  // CHECK: :[[@LINE-1]]:3: warning: block dim3(10,10) is not a whole number of warps: 100 threads in 4 warps, 28 lanes idle
}

void suppressed(float *p) {
  kernel<<<1, 24>>>(p); // NOLINT(warplint-block-size-warp-multiple)
}

// A few idle lanes in a block of many warps: under MinIdleShare (5% of the lanes a block
// issues) a note that says the share; at 0 every such block is a warning again.
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.MinIdleShare: 0}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=SHARE0 %s
// RUN: %clang_tidy --checks='-*,warplint-block-size-warp-multiple' %s --config="{CheckOptions: {warplint-block-size-warp-multiple.MinIdleShare: lots}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADSHARE %s
// BADSHARE: warning: invalid MinIdleShare 'lots' for warplint-block-size-warp-multiple: a percentage 0-100; using 5 [clang-tidy-config]
// BADSHARE: remark: block dim3(16,25) is not a whole number of warps
void smallShare(float *p) {
  kernel<<<8, dim3(16, 25)>>>(p);
  // CHECK: :[[@LINE-1]]:3: remark: block dim3(16,25) is not a whole number of warps: 400 threads in 13 warps, 16 lanes idle [warplint-block-size-warp-multiple]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: 16 of the 416 lanes issued per block (3.8%) are idle, under MinIdleShare (5%)
  // SHARE0: :[[@LINE-3]]:3: warning: block dim3(16,25) is not a whole number of warps: 400 threads in 13 warps, 16 lanes idle
  kernel<<<8, 600>>>(p);
  // CHECK: :[[@LINE-1]]:3: remark: block 600 is not a whole number of warps: 600 threads in 19 warps, 8 lanes idle [warplint-block-size-warp-multiple]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: 8 of the 608 lanes issued per block (1.3%) are idle, under MinIdleShare (5%)
  // SHARE0: :[[@LINE-3]]:3: warning: block 600 is not a whole number of warps
  kernel<<<8, 240>>>(p); // 16 of 256 lanes idle, 6.25%: a warning
  // CHECK: :[[@LINE-1]]:3: warning: block 240 is not a whole number of warps: 240 threads in 8 warps, 16 lanes idle [warplint-block-size-warp-multiple]
}
