// warplint-register-spill's reverse question: what a kernel that spills under its bound
// would keep without it (nvcc's uncapped run, core's figures for its registers; JSON
// uncapped_*).
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/spill.cu && cp %S/Inputs/advice/heavy.cuh %t/
// RUN: cd %t && %not %warplint check spill.cu --arch sm_80 --cache-dir cache --no-cache --checks='-*,warplint-register-spill' > out.txt 2>&1
// RUN: %FileCheck %s < %t/out.txt
// RUN: cd %t && %not %warplint check spill.cu --arch sm_80 --cache-dir cache --no-cache --checks='-*,warplint-register-spill' --format json -o out.json
// RUN: %FileCheck --check-prefix=JSON %s < %t/out.json
// JSON: "uncapped_blocks_per_sm": 3,
// JSON: "uncapped_occupancy": 0.375,
// JSON: "uncapped_registers": {{6[5-9]|7[0-9]}}

#include "heavy.cuh"

// CHECK: spill.cu:[[@LINE+5]]:43: warning: kernel 'bounded' spills registers to local memory on sm_80: {{[0-9]+}} bytes/thread of stores and {{[0-9]+}} of loads with 64 registers/thread
// CHECK: note: __launch_bounds__(256, 4) leaves ptxas at most 64 registers/thread on sm_80
// CHECK: note: with __maxnreg__, __launch_bounds__ and -maxrregcount removed, ptxas uses {{[0-9]+}} registers/thread on sm_80 and does not spill (a second ptxas run)
// CHECK: note: without the cap its 256-thread launch at line [[@LINE+7]] would keep 3 blocks/SM (37.5%) instead of 4 (50%): the spills buy 12.5 points of occupancy
// CHECK: note: without the cap its 128-thread launch at line [[@LINE+7]] would keep 7 blocks/SM (43.8%) instead of 8 (50%): the spills buy 6.3 points of occupancy
__global__ void __launch_bounds__(256, 4) bounded(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<28>(in, i, n);
}
void run(const double *in, double *out, int n) {
  bounded<<<1000, 256>>>(in, out, n);
  bounded<<<1000, 128>>>(in, out, n);
}
