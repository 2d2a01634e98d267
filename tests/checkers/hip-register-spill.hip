// warplint-register-spill on HIP (gfx90a, wave64), hermetic: the AMDGPU kernel metadata
// comes from a recorded assembly (Inputs/hip/recorded: the form of real clang 22 output,
// read through warplint's clang register source) so the counts are fixed; the real
// backend's spills are tested in check-hip-spill.test. Spilled VGPRs and SGPRs are
// reported with the scratch per lane; the note names what sets the VGPR budget (the
// waves-per-EU minimum, or the 1024-thread default workgroup); scratch without spills
// (a run-time indexed private array) and kernels without spills are silent.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env WARPLINT_RECORDED_ASM=%S/Inputs/hip/recorded/spill-gfx90a.s %clang_tidy --checks='-*,warplint-register-spill' --config="{CheckOptions: {warplint.RegisterSource: clang, warplint.HipClang: '%S/Inputs/hip/recorded/amdgpu-clang.sh', warplint.CacheDir: '%t'}}" %s -- %hip_gfx90a 2>&1 | %check_diags %s
// MinSpillBytes counts 4 bytes per spilled register: 300 keeps only the 84 VGPRs of pinned.
// RUN: env WARPLINT_RECORDED_ASM=%S/Inputs/hip/recorded/spill-gfx90a.s %clang_tidy --checks='-*,warplint-register-spill' --config="{CheckOptions: {warplint.RegisterSource: clang, warplint.HipClang: '%S/Inputs/hip/recorded/amdgpu-clang.sh', warplint.CacheDir: '%t', warplint-register-spill.MinSpillBytes: 300}}" %s -- %hip_gfx90a 2>&1 | %check_diags --check-prefix=MIN %s

__global__ void __launch_bounds__(256, 8) pinned(float *out, const float *in, int n) {}
// CHECK: :[[@LINE-1]]:43: warning: kernel 'pinned' spills registers on gfx90a (wave64): 84 VGPRs and 0 SGPRs spilled, 340 bytes of scratch memory per lane, with 64 VGPRs and 16 SGPRs [warplint-register-spill]
// CHECK: :[[@LINE-2]]:43: note: amdgpu_waves_per_eu(8) (the second argument of HIP's __launch_bounds__) asks for 8 waves per SIMD: at most 64 VGPRs per lane on gfx90a; a smaller minimum raises the budget
// CHECK: :[[@LINE-3]]:43: note: 64 VGPRs, 0 AGPRs, 16 SGPRs from clang's AMDGPU backend (gfx90a, wave64)
// MIN: :[[@LINE-4]]:43: warning: kernel 'pinned' spills registers on gfx90a (wave64): 84 VGPRs

__global__ void wide(float *out, const float *in, int n) {}
// CHECK: :[[@LINE-1]]:17: warning: kernel 'wide' spills registers on gfx90a (wave64): 20 VGPRs and 0 SGPRs spilled, 96 bytes of scratch memory per lane, with 128 VGPRs and 18 SGPRs [warplint-register-spill]
// CHECK: :[[@LINE-2]]:17: note: workgroups of up to 1024 threads (the compiler's default without __launch_bounds__) need 4 waves per SIMD: at most 128 VGPRs per lane on gfx90a; __launch_bounds__ with the largest block the kernel is launched with raises the budget
// CHECK: :[[@LINE-3]]:17: note: 128 VGPRs, 0 AGPRs, 18 SGPRs from clang's AMDGPU backend (gfx90a, wave64)

__global__ void __launch_bounds__(256, 8) scalar(float *out, int k) {}
// CHECK: :[[@LINE-1]]:43: warning: kernel 'scalar' spills registers on gfx90a (wave64): 0 VGPRs and 6 SGPRs spilled, 0 bytes of scratch memory per lane, with 24 VGPRs and 102 SGPRs [warplint-register-spill]
// CHECK: :[[@LINE-2]]:43: note: 24 VGPRs, 0 AGPRs, 102 SGPRs from clang's AMDGPU backend (gfx90a, wave64)

__global__ void clean(float *out) {}
__global__ void indexed(float *out, int k) {}

void run(float *out, const float *in, int n, int k) {
  pinned<<<64, 256>>>(out, in, n);
  wide<<<64, 1024>>>(out, in, n);
  scalar<<<64, 256>>>(out, k);
  clean<<<64, 256>>>(out);
  indexed<<<64, 256>>>(out, k);
}
