// warplint-launch-config-invalid on HIP (gfx90a), hermetic: workgroups over 1024 threads,
// outside the kernel's flat work-group size range (HIP's __launch_bounds__(N) is
// amdgpu_flat_work_group_size(1, N)), and LDS over the 64 KiB a workgroup may use, in
// AMD's words; valid launches are silent.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' --config="{CheckOptions: {warplint.RegisterSource: none}}" %s -- %hip_gfx90a 2>&1 | %check_diags %s

__global__ void __launch_bounds__(128) bounded(float *p) {}
__global__ void __attribute__((amdgpu_flat_work_group_size(64, 256))) ranged(float *p) {}
__global__ void tiled(float *p) {
  __shared__ float s[12288]; // 48 KiB: fits the 64 KiB of a workgroup
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[threadIdx.x + 1];
}
__global__ void plain(float *p) {}

void run(float *p, hipStream_t st) {
  bounded<<<1, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 256 threads is over the flat work-group size maximum of 128 threads of kernel 'bounded' (amdgpu_flat_work_group_size, HIP's __launch_bounds__) [warplint-launch-config-invalid]
  // CHECK: hip-launch-config-invalid.hip:7:17: note: flat work-group size of 'bounded' declared here
  ranged<<<1, 512>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 512 threads is over the flat work-group size maximum of 256 threads of kernel 'ranged'
  // CHECK: hip-launch-config-invalid.hip:8:32: note: flat work-group size of 'ranged' declared here
  ranged<<<1, 32>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 32 threads is under the flat work-group size minimum of 64 threads of kernel 'ranged' (amdgpu_flat_work_group_size(64, 256)): the code was compiled for larger workgroups, a smaller one is undefined behaviour [warplint-launch-config-invalid]
  tiled<<<1, 256, 20480>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'tiled' asks for 68 KiB of LDS per workgroup (48 KiB static + 20 KiB dynamic), over the 64 KiB a workgroup may use on gfx90a [warplint-launch-config-invalid]
  hipLaunchKernelGGL(plain, dim3(1), dim3(2048), 0, st, p);
  // CHECK: :[[@LINE-1]]:3: warning: block of 2048 threads is over the limit of 1024 threads per workgroup on gfx90a [warplint-launch-config-invalid]
  // Valid: silent.
  bounded<<<1, 128>>>(p);
  ranged<<<1, 64>>>(p);
  tiled<<<1, 256, 16384>>>(p);
  plain<<<1, 1024, 65536>>>(p);
}
