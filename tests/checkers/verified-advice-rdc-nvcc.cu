// Relocatable device code (-rdc=true, as CMake's CUDA_SEPARABLE_COMPILATION and every
// cuda-samples build give): a kernel that calls a device function of another file leaves
// the call extern in the PTX, and ptxas must assemble it relocatable, as the register run
// compiles it. The what-if of the register advice and the spill check's uncapped run
// assemble the kept PTX with -rdc=true then (before, each failed on cuda-samples'
// dynamic-parallelism files: "Unresolved extern function"), and find a static kernel's
// entry under the name -rdc gives it (before: "no entry in the PTX").
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/rdc.cu && cp %S/Inputs/advice/heavy.cuh %t/
// RUN: printf "CheckOptions:\n  warplint.NvccFlags: '-rdc=true'\n" > %t/.clang-tidy
// RUN: cd %t && %not %warplint check rdc.cu --arch sm_80 --cache-dir cache --no-cache --checks='-*,warplint-occupancy,warplint-register-spill' > out.txt 2>&1
// RUN: %FileCheck %s --implicit-check-not='gave no figures' --implicit-check-not='Unresolved' < %t/out.txt

#include "heavy.cuh"

// Defined in another file of the program.
extern __device__ void record(double *slot, double v);

__global__ void fits(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  record(out + i, churn<26>(in, i, n));
}

// CHECK: rdc.cu:[[@LINE+3]]:43: warning: kernel 'bounded' spills registers to local memory on sm_80
// CHECK: note: __launch_bounds__(256, 4) leaves ptxas at most 64 registers/thread on sm_80
// CHECK: note: with __maxnreg__, __launch_bounds__ and -maxrregcount removed, ptxas uses {{[0-9]+}} registers/thread on sm_80 and does not spill (a second ptxas run)
__global__ void __launch_bounds__(256, 4) bounded(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  record(out + i, churn<28>(in, i, n));
}

// Internal linkage under -rdc: the PTX names the entry
// __nv_static_<N>__<hash>__Z6hiddenPKdPdi, which the what-if's bound must find.
static __global__ void hidden(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}

void run(const double *in, double *out, int n) {
  // CHECK: rdc.cu:[[@LINE+3]]:3: warning: occupancy 37.5% for 'fits' on sm_80
  // CHECK: note: {{6[5-9]|7[0-9]}} registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: note: with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives {{[0-9]+}} registers and {{[0-9]+}} bytes of spill
  fits<<<1000, 256>>>(in, out, n);
  bounded<<<1000, 256>>>(in, out, n);
  // CHECK: rdc.cu:[[@LINE+3]]:3: warning: occupancy 37.5% for 'hidden' on sm_80
  // CHECK: note: 68 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: note: with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)
  hidden<<<1000, 256>>>(in, out, n);
}
