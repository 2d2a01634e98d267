// Register advice checked by the compiler (docs/registers.md): with registers from nvcc,
// each launch whose next step is fewer registers gets a what-if ptxas run (one per file,
// over the kept PTX, a bound per kernel), and the note says what nvcc gave.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/advice.cu && cp %S/Inputs/advice/heavy.cuh %t/
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache --checks='-*,warplint-occupancy' > cold.txt 2>&1
// RUN: %FileCheck %s < %t/cold.txt
// The result cache keeps every note: a warm run says the same and comes from the cache.
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache --checks='-*,warplint-occupancy' > warm.txt 2>&1
// RUN: grep -v ' in [0-9.]* s' %t/cold.txt > %t/cold.notime && grep -v ' in [0-9.]* s' %t/warm.txt | grep -v 'from the result cache' > %t/warm.notime
// RUN: diff %t/cold.notime %t/warm.notime
// RUN: %FileCheck --check-prefix=WARM %s < %t/warm.txt
// WARM: (1 from the result cache)
// The JSON carries the record (one figure, one record), cold and warm alike.
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache --no-cache --checks='-*,warplint-occupancy' --format json -o cold.json
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache --checks='-*,warplint-occupancy' --format json -o warm.json
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache --checks='-*,warplint-occupancy' --format json -o warm2.json
// RUN: cmp %t/warm.json %t/warm2.json
// RUN: cmp %t/cold.json %t/warm2.json
// RUN: %FileCheck --check-prefix=JSON %s < %t/warm.json
// RUN: cat %t/cold.json | %FileCheck --check-prefix=JSON %s
// --no-verify-advice: no what-if run, no note.
// RUN: cd %t && %not %warplint check advice.cu --arch sm_80 --cache-dir cache2 --no-cache --no-verify-advice --checks='-*,warplint-occupancy' > off.txt 2>&1
// RUN: %FileCheck --check-prefix=OFF %s < %t/off.txt
// OFF: warning: occupancy 37.5% for 'fits'
// OFF-NOT: (verified)
// OFF-NOT: nvcc 13
// The cost: with the what-if the cache holds three entries (nvcc's register report, the
// kept PTX, and the one what-if ptxas report for all three kernels); without it one (no
// kernel here spills, so no PTX is kept).
// RUN: ls %t/cache | grep -c 'ptxas.log$' | %FileCheck --check-prefix=ENTRIES %s
// ENTRIES: {{^}}3{{$}}
// RUN: ls %t/cache2 | grep -c 'ptxas.log$' | %FileCheck --check-prefix=ENTRIES-OFF %s
// ENTRIES-OFF: {{^}}1{{$}}

#include "heavy.cuh"

__global__ void fits(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}
__global__ void spills(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<28>(in, i, n);
}
__global__ void over(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = churn<26>(in, i, n);
}

void run(const double *in, double *out, int n) {
  // CHECK: advice.cu:[[@LINE+4]]:3: warning: occupancy 37.5% for 'fits' on sm_80: 24 of 64 warps per SM with 256-thread blocks, below the 50% minimum; limited by registers
  // CHECK: note: 68 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: note: with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)
  // CHECK: note: registers from nvcc (sm_80)
  fits<<<1000, 256>>>(in, out, n);
  // CHECK: advice.cu:[[@LINE+3]]:3: warning: occupancy 37.5% for 'spills' on sm_80
  // CHECK: note: 71 registers/thread limit this 256-thread block to 3 blocks/SM (37.5%); at 64 registers it keeps 4 (50%)
  // CHECK: note: with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives 64 registers and {{[1-9][0-9]*}} bytes of spill stores: occupancy rises to 50% but every thread now stores {{[1-9][0-9]*}} bytes to local memory (and loads {{[0-9]+}}); measure before keeping it
  spills<<<1000, 256>>>(in, out, n);
  // A kernel launched with two block sizes: one __launch_bounds__ cannot serve both, a
  // register cap answers for each launch.
  // CHECK: advice.cu:[[@LINE+2]]:3: warning: occupancy 37.5% for 'over'
  // CHECK: note: with __maxnreg__(64) (a register cap: its launches here differ in block size, up to 512 threads) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)
  over<<<1000, 256>>>(in, out, n);
  // CHECK: advice.cu:[[@LINE+2]]:3: warning: occupancy 25% for 'over'
  // CHECK: note: with __maxnreg__(64) (a register cap: its launches here differ in block size, up to 512 threads) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 2 blocks/SM, 50% (verified)
  over<<<1000, 512>>>(in, out, n);
}

// JSON: "verified_advice": {
// JSON-DAG: "bound": "__launch_bounds__(256, 4)"
// JSON-DAG: "spill_free": true
// JSON-DAG: "spill_free": false
// JSON-DAG: "bound": "__maxnreg__(64)"
// JSON-DAG: "note": "with __launch_bounds__(256, 4) nvcc 13.{{[0-9]+}} gives {{6[0-4]}} registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)"
