// warplint-partial-wave on HIP: the grid's rounds of workgroups on an AMD GPU (warplint.Gpu:
// MI250X, one GCD of 110 CUs, gfx90a; RX 6800 XT, 36 WGPs in HIP's WGP mode, gfx1030),
// in workgroups per CU (per WGP on RDNA). A round is what the GPU runs at once (NVIDIA's
// "wave"; on AMD a wave is a wavefront). VGPRs not counted (hermetic): 256-thread
// workgroups are 4 wavefronts on gfx90a, so the CU's 32 wave slots hold 8 of them (880 on
// the GPU); on gfx1030 8 wavefronts of 32 lanes, 8 per WGP (288 on the GPU).
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' --config="{CheckOptions: {warplint.RegisterSource: none, warplint.Gpu: mi250x}}" %s -- %hip_gfx90a 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' --config="{CheckOptions: {warplint.RegisterSource: none, warplint.Gpu: rx6800xt}}" %s -- %hip_gfx1030 2>&1 | %check_diags --check-prefix=RDNA %s
// A product of another architecture gives no per-GPU figures (said once), no findings.
// RUN: %clang_tidy --checks='-*,warplint-partial-wave' --config="{CheckOptions: {warplint.RegisterSource: none, warplint.Gpu: mi50}}" %s -- %hip_gfx90a 2>&1 | %FileCheck --check-prefix=OTHER %s

__global__ void k(float *p) { p[threadIdx.x] = 0; }

void run(float *p) {
  k<<<64, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: grid of 'k' leaves 46 of Instinct MI250X (one of its two GCDs)'s 110 CUs idle: 64 workgroups of 8 per CU on 110 CUs: 1 round at 7.3%; 880 workgroups fill it [warplint-partial-wave]
  // CHECK: :[[@LINE-2]]:3: note: 8 workgroups/CU (4 wavefronts of 64 lanes each, occupancy 100%, limited by wave slots{{.*}}) on Instinct MI250X (one of its two GCDs) (gfx90a); 7.3% of the GPU's workgroup-slot time is used over the grid; a round is the workgroups the whole GPU runs at once
  // CHECK: :[[@LINE-3]]:3: note: VGPRs not counted: workgroups per CU is an upper bound
  // RDNA: :[[@LINE-4]]:3: warning: last round of workgroups of 'k' fills 22.2% of Radeon RX 6800 XT: 64 workgroups of 8 per WGP on 36 WGPs: 1 round at 22.2%; 288 workgroups fill it [warplint-partial-wave]
  // RDNA: :[[@LINE-5]]:3: note: 8 workgroups/WGP (8 wavefronts of 32 lanes each
  // RDNA: :[[@LINE-6]]:3: note: VGPRs not counted: workgroups per WGP is an upper bound
  k<<<1000, 256>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: last round of workgroups of 'k' fills 13.6% of Instinct MI250X (one of its two GCDs): 1000 workgroups of 8 per CU on 110 CUs: 2 rounds, the last at 13.6%; 1760 workgroups fill 2 rounds, 880 fill 1 [warplint-partial-wave]
  // CHECK: :[[@LINE-2]]:3: note: 8 workgroups/CU
  // CHECK: :[[@LINE-3]]:3: note: VGPRs not counted
  // RDNA: :[[@LINE-4]]:3: warning: last round of workgroups of 'k' fills 47.2% of Radeon RX 6800 XT: 1000 workgroups of 8 per WGP on 36 WGPs: 4 rounds, the last at 47.2%; 1152 workgroups fill 4 rounds, 864 fill 3 [warplint-partial-wave]
  // RDNA: :[[@LINE-5]]:3: note: 8 workgroups/WGP
  // RDNA: :[[@LINE-6]]:3: note: VGPRs not counted
  // Whole rounds: silent on both.
  k<<<1760, 256>>>(p);
  k<<<2304, 256>>>(p);
}
// OTHER: warplint.Gpu 'mi50' is gfx906
// OTHER-NOT: warning: {{.*}}[warplint-partial-wave]
