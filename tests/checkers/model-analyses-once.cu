// One thread-dependence analysis per kernel (TuModel::kernelAnalysis), however many checks
// read the kernel's body: the divergent-branch check (branch records) and the two memory
// checks (access records) share it. WARPLINT_DEBUG_ANALYSES makes the model say, when it
// is freed, how many analyses each kernel had.
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %clang_tidy --checks='-*,warplint-divergent-branch,warplint-uncoalesced-access,warplint-shared-bank-conflict' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck %s
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %not %warplint check %s --mock-cuda --registers-from none --no-cache --checks '-*,warplint-divergent-branch,warplint-uncoalesced-access,warplint-shared-bank-conflict' 2>&1 | %FileCheck %s
// With the three sync checks too (warplint-data-race reads the model's analysis, and
// so do the barrier and warp-sync-mask checks): still one.
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %clang_tidy --checks='-*,warplint-divergent-branch,warplint-uncoalesced-access,warplint-shared-bank-conflict,warplint-data-race,warplint-barrier-divergence,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck %s --check-prefixes=CHECK,RACE
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %not %warplint check %s --mock-cuda --registers-from none --no-cache --checks '-*,warplint-*' 2>&1 | %FileCheck %s --check-prefixes=CHECK,RACE
// The race check alone: one.
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck %s --check-prefixes=CHECK,RACE
// Without the memory checks, or without the divergence check, still one.
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck %s
// RUN: env WARPLINT_DEBUG_ANALYSES=1 %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck %s

// Both checks report something here, so both read the analysis.
__global__ void strided(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0)
    out[i] = in[i * 32];
}

template <int K> __global__ void tmpl(float *out) {
  if (threadIdx.x % K == 0)
    out[threadIdx.x * K] = 1.f;
}

// The race check reports here (thread 0 reads s[63], which thread 63 writes).
__global__ void racy(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[63 - threadIdx.x];
}

void launch(const float *in, float *out, int n) {
  racy<<<1, 64>>>(out);
  strided<<<n / 256, 256>>>(in, out, n);
  strided<<<n / 128, 128>>>(in, out, n);
  tmpl<2><<<1, 64>>>(out);
  tmpl<4><<<1, 64>>>(out);
}

// CHECK-NOT: thread-dependence analyses
// CHECK-DAG: warplint-debug: kernel 'strided': 1 thread-dependence analysis
// CHECK-DAG: warplint-debug: kernel 'tmpl<2>': 1 thread-dependence analysis
// CHECK-DAG: warplint-debug: kernel 'tmpl<4>': 1 thread-dependence analysis
// CHECK-DAG: warplint-debug: kernel 'racy': 1 thread-dependence analysis
// RACE-DAG: warning: data race on shared 's[63]'
// CHECK-NOT: thread-dependence analyses
