// warplint-launch-config-invalid: launches that cannot run on the target architecture.
// The findings are warnings (a launch that cannot run; SARIF's level is error);
// --warnings-as-errors promotes them and clang-tidy then exits non-zero.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// The host side records no device arch: the Arch option gives it.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s --config="{CheckOptions: {warplint.Arch: sm_86}}" -- %cuda_host 2>&1 | %check_diags %s
// The opt-in maximum depends on the arch: 48 KiB on sm_52, 227 KiB on sm_90.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s -- %cuda_device --cuda-gpu-arch=sm_52 2>&1 | %FileCheck --check-prefix=SM52 %s
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s --config="{CheckOptions: {warplint.Arch: sm_90}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=SM90 %s
// SM90-NOT: asks for 120 KiB
// SM90-NOT: asks for 100 KiB of dynamic shared memory, over the maximum
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s --config="{CheckOptions: {warplint.Arch: sm_999}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADARCH %s
// BADARCH: unknown warplint.Arch 'sm_999'
// RUN: %not %clang_tidy --checks='-*,warplint-launch-config-invalid' --warnings-as-errors='warplint-*' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=WAE %s
// WAE: :[[@LINE+35]]:3: error: block of 2048 threads is over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid,-warnings-as-errors]

__global__ void kernel(float *p) {}
__global__ void __launch_bounds__(256) bounded(float *p) {}
__global__ void dynamicOnly(float *p) {
  extern __shared__ float dyn[];
  p[0] = dyn[0];
}
__global__ void withStatic(float *p) {
  __shared__ float tile[4096]; // 16 KiB
  extern __shared__ float dyn[];
  p[0] = tile[0] + dyn[0];
}
__global__ void optedIn(float *p) {
  extern __shared__ float dyn[];
  p[0] = dyn[0];
}
__global__ void optedInSmall(float *p) {
  extern __shared__ float dyn[];
  p[0] = dyn[0];
}
__global__ void optedInTooMuch(float *p) {
  extern __shared__ float dyn[];
  p[0] = dyn[0];
}
__global__ void bigStatic(float *p) {
  // CHECK: :[[@LINE-1]]:17: warning: static shared memory of kernel 'bigStatic' is 50 KiB, over the 48 KiB a block may declare statically [warplint-launch-config-invalid]
  __shared__ char huge[50 * 1024];
  p[0] = huge[threadIdx.x];
}

void blockLimits(float *p) {
  kernel<<<1, 1024>>>(p);
  kernel<<<1, dim3(32, 32)>>>(p);
  kernel<<<1, dim3(1, 1, 64)>>>(p);
  kernel<<<1, 2048>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 2048 threads is over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid]
  kernel<<<1, dim3(64, 32)>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block dim3(64,32) has 2048 threads, over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid]
  kernel<<<1, dim3(2, 2, 128)>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block dimension z of dim3(2,2,128) is 128, over the limit of 64 on sm_86 [warplint-launch-config-invalid]
  kernel<<<1, dim3(32, 0)>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block dimension y of dim3(32,0) is 0; every dimension needs at least one thread [warplint-launch-config-invalid]
}

void gridLimits(float *p, int n) {
  kernel<<<dim3(1, 65535), 32>>>(p);
  kernel<<<2147483647u, 32>>>(p);
  kernel<<<dim3(1, 70000), 32>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: grid dimension y of dim3(1,70000) is 70000, over the limit of 65535 on sm_86 [warplint-launch-config-invalid]
  kernel<<<2147483648u, 32>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: grid of 2147483648 blocks is over the limit of 2147483647 blocks in x on sm_86 [warplint-launch-config-invalid]
  kernel<<<n * 100000, 32>>>(p);
}

void launchBounds(float *p) {
  bounded<<<1, 256>>>(p);
  bounded<<<1, 512>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 512 threads is over the __launch_bounds__ maximum of 256 threads of kernel 'bounded' [warplint-launch-config-invalid]
  // CHECK: :{{[0-9]+}}:17: note: __launch_bounds__ of 'bounded' declared here
}

void sharedWithoutOptin(float *p, size_t runtimeBytes) {
  dynamicOnly<<<1, 128, 48 * 1024>>>(p);
  dynamicOnly<<<1, 128, 64 * 1024>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'dynamicOnly' asks for 64 KiB of dynamic shared memory, over the 48 KiB a block gets without cudaFuncSetAttribute(dynamicOnly, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) [warplint-launch-config-invalid]
  withStatic<<<1, 128, 32 * 1024>>>(p);
  withStatic<<<1, 128, 40 * 1024>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'withStatic' asks for 16 KiB static + 40 KiB dynamic = 56 KiB of shared memory, over the 48 KiB a block gets without cudaFuncSetAttribute(withStatic, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) [warplint-launch-config-invalid]
  dynamicOnly<<<1, 128, runtimeBytes>>>(p);
}

void sharedWithOptin(float *p) {
  cudaFuncSetAttribute(optedIn, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
  optedIn<<<1, 128, 80 * 1024>>>(p);
  // SM52: :[[@LINE-1]]:3: warning: launch of 'optedIn' asks for 80 KiB of dynamic shared memory, over the maximum of 48 KiB per block on sm_52
  optedIn<<<1, 128, 100 * 1024>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'optedIn' asks for 100 KiB of dynamic shared memory, over the maximum of 99 KiB per block on sm_86 [warplint-launch-config-invalid]
  // SM90: :[[@LINE-2]]:3: warning: launch of 'optedIn' asks for 100 KiB of dynamic shared memory, over the 96 KiB set with cudaFuncSetAttribute
  cudaFuncSetAttribute(optedInSmall, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  optedInSmall<<<1, 128, 80 * 1024>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'optedInSmall' asks for 80 KiB of dynamic shared memory, over the 64 KiB set with cudaFuncSetAttribute [warplint-launch-config-invalid]
  // CHECK: :[[@LINE-3]]:3: note: cudaFuncAttributeMaxDynamicSharedMemorySize of 'optedInSmall' set here
  cudaFuncSetAttribute(optedInTooMuch, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 * 1024);
  // CHECK: :[[@LINE-1]]:3: warning: cudaFuncSetAttribute asks for 120 KiB of dynamic shared memory for kernel 'optedInTooMuch'; with 0 bytes static, at most 99 KiB are allowed per block on sm_86 [warplint-launch-config-invalid]
}

template <int Threads> void launchTemplated(float *p) { kernel<<<1, Threads>>>(p); }
// CHECK: :[[@LINE-1]]:57: warning: block of 4096 threads is over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid]
// CHECK: :[[@LINE-2]]:57: note: in instantiation 'launchTemplated<4096>'
void instantiations(float *p) {
  launchTemplated<256>(p);
  launchTemplated<4096>(p);
}

void runtimeApis(float *p) {
  void *args[] = {&p};
  cudaLaunchKernel(kernel, dim3(1), dim3(2048), args, 0, 0);
  // CHECK: :[[@LINE-1]]:3: warning: block of 2048 threads is over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid]
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1, 1, 70000);
  cfg.blockDim = dim3(128);
  cudaLaunchKernelEx(&cfg, kernel, p);
  // CHECK: :[[@LINE-1]]:3: warning: grid dimension z of dim3(1,1,70000) is 70000, over the limit of 65535 on sm_86 [warplint-launch-config-invalid]
}

// NOLINT works as for every clang-tidy warning.
void suppressed(float *p) {
  kernel<<<1, 4096>>>(p); // NOLINT(warplint-launch-config-invalid)
  kernel<<<1, 4096>>>(p); // NOLINT(warplint-*)
  kernel<<<1, 4096>>>(p); // NOLINT
  // NOLINTNEXTLINE(warplint-launch-config-invalid)
  kernel<<<1, 4096>>>(p);
  kernel<<<1, 4096>>>(p); // NOLINT(warplint-block-size-warp-multiple)
  // CHECK: :[[@LINE-1]]:3: warning: block of 4096 threads is over the limit of 1024 threads per block on sm_86 [warplint-launch-config-invalid]
}
