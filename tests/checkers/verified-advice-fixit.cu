// The __launch_bounds__ fix-it of warplint-occupancy and warplint-occupancy-cliff: offered
// only where nvcc's what-if run showed the bound spill-free and every launch of the
// kernel in the file fits it (docs/registers.md). clang-tidy --fix on a copy, the file
// checked after; --export-fixes holds exactly the fixes offered.
// REQUIRES: nvcc, clang-tidy-parses-toolkit
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix.cu && cp %S/Inputs/advice/heavy.cuh %t/
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %t/fix.cu --export-fixes=%t/fixes.yaml --config="{CheckOptions: {warplint.CacheDir: '%t/cache'}}" -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version > %t/diags.txt 2>&1
// RUN: %FileCheck --check-prefix=YAML %s < %t/fixes.yaml
// YAML-COUNT-2: ReplacementText: '__launch_bounds__(256, 4) '
// YAML-NOT: ReplacementText:
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %t/fix.cu --fix --config="{CheckOptions: {warplint.CacheDir: '%t/cache'}}" -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version > %t/fix.txt 2>&1
// RUN: %FileCheck --check-prefix=FIXED %s < %t/fix.cu
// The fixed file: nvcc gives the registers the note said, without spills, and warplint
// finds nothing left to say about the two fixed kernels.
// RUN: %cuda_root/bin/nvcc -arch=sm_80 -Xptxas -v -cubin -o /dev/null %t/fix.cu 2>&1 | %FileCheck --check-prefix=PTXAS %s
// PTXAS: Compiling entry function '_Z4fitsPKdPdi'
// PTXAS-NEXT: Function properties for _Z4fitsPKdPdi
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NEXT: Used {{6[0-4]}} registers
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %t/fix.cu --config="{CheckOptions: {warplint.CacheDir: '%t/cache'}}" -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version 2>&1 | %FileCheck --check-prefix=AFTER %s
// AFTER-NOT: for 'fits'
// AFTER-NOT: for 'one<26>'
// AFTER: warning: occupancy 37.5% for 'spills'
// Both occupancy checks quote the same advice (the cliff one with a margin that reaches
// 4 registers): the bound is inserted once per kernel, not once per finding.
// RUN: cp %s %t/both.cu
// RUN: %clang_tidy --checks='-*,warplint-occupancy,warplint-occupancy-cliff' %t/both.cu --fix --config="{CheckOptions: {warplint.CacheDir: '%t/cache', warplint-occupancy-cliff.RegisterMargin: '8'}}" -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version > %t/both.txt 2>&1
// RUN: %FileCheck --check-prefix=FIXED %s < %t/both.cu
// RUN: %FileCheck --check-prefix=CLIFF %s < %t/both.txt
// CLIFF: warning: 'fits' on sm_80 is 4 registers past an occupancy cliff
// CLIFF: note: with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)

#include "heavy.cuh"

// Verified spill-free, launched only with 256 threads: the fix-it.
// FIXED: {{^}}__global__ void __launch_bounds__(256, 4) fits(
__global__ void fits(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}
// The bound makes it spill: no fix-it.
// FIXED: {{^}}__global__ void spills(
__global__ void spills(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<28>(in, i, n);
}
// A launch above the bound's 256 threads: no fix-it.
// FIXED: {{^}}__global__ void over(
__global__ void over(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}
// A template with two instantiations here: no fix-it (the bound would apply to both).
// FIXED: {{^}}template <int Acc> __global__ void tk(
template <int Acc> __global__ void tk(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<Acc>(in, i, n);
}
// A template with one instantiation: the bound goes on the template.
// FIXED: {{^}}template <int Acc> __global__ void __launch_bounds__(256, 4) one(
template <int Acc> __global__ void one(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<Acc>(in, i, n);
}
// A launch whose block is not known here: no fix-it.
// FIXED: {{^}}__global__ void unknown(
__global__ void unknown(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}

void run(const double *in, double *out, int n, int threads) {
  fits<<<1000, 256>>>(in, out, n);
  spills<<<1000, 256>>>(in, out, n);
  over<<<1000, 256>>>(in, out, n);
  over<<<1000, 512>>>(in, out, n);
  tk<26><<<1000, 256>>>(in, out, n);
  tk<25><<<1000, 256>>>(in, out, n);
  one<26><<<1000, 256>>>(in, out, n);
  unknown<<<1000, 256>>>(in, out, n);
  unknown<<<1000, threads>>>(in, out, n);
}
