// warplint-data-race: a barrier under a condition that is the same for every thread of a
// block but not for every block (blockIdx, a kernel parameter). The blocks that skip it
// run the code before and after it in one interval; the blocks that take it do not.
// (compute-sanitizer's racecheck reports skipUniform's race on an H200: 9 errors.)
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %check_diags %s
// The JSON record carries the barrier and the blocks that skip it; the same from the
// result cache.
// RUN: rm -rf %t.cache
// RUN: %not %warplint check --mock-cuda --cache-dir %t.cache --registers-from none --checks='-*,warplint-data-race' --arch sm_90 --format json %s -o %t.json
// RUN: python3 -c "import json,sys; [print(r['kernel'], r['severity'], r['certainty'], json.dumps(r['barrier_skipped'], sort_keys=True)) for r in json.load(open(sys.argv[1]))['data_races']]" %t.json | %FileCheck --check-prefix=JSON %s
// RUN: %not %warplint check --mock-cuda --cache-dir %t.cache --registers-from none --checks='-*,warplint-data-race' --arch sm_90 --format json %s -o %t.cached.json
// RUN: python3 -c "import json,sys; [print(r['kernel'], r['severity'], r['certainty'], json.dumps(r['barrier_skipped'], sort_keys=True)) for r in json.load(open(sys.argv[1]))['data_races']]" %t.cached.json | %FileCheck --check-prefix=JSON %s

// Block 1 of 2 skips the barrier (N = 1 at the launch): its threads read their neighbours'
// words with no barrier between. A warning that says which block skips which barrier.
__global__ void skipUniform(float *Out, int N) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < N)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
  // CHECK: :[[@LINE-1]]:48: warning: data race on shared 'S[32]': thread 32 of block 1 writes it (S[threadIdx.x], line [[@LINE-4]]) and thread 31 of block 1 reads it (S[(threadIdx.x + 1) % 64], line [[@LINE-1]]) with no barrier between (block 64x1x1, N = 1); block 1 of 2 skips the __syncthreads() on line [[@LINE-2]] (blockIdx.x < N, N = 1) [warplint-data-race]
  // CHECK: :[[@LINE-5]]:3: note: the other access to 'S[32]'
  // CHECK: :[[@LINE-3]]:48: note: the __syncthreads() on line [[@LINE-4]] separates them only in the blocks that take it: let every block reach it (outside the `if`), or keep the accesses on both sides of it in the same arm
}

// The same kernel launched with N = 2: both blocks take the barrier. Silent.
__global__ void everyBlockTakes(float *Out, int N) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < N)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
}

// Whole blocks leave before the barrier: a block that returns runs none of the accesses
// after it, and every block that stays reaches the barrier. Silent.
__global__ void blockReturns(float *Out) {
  __shared__ float S[64];
  if (blockIdx.x == 0)
    return;
  S[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
}

// The blocks that skip the barrier skip the accesses too (the whole exchange is in the
// barrier's arm). Silent.
__global__ void exchangeInArm(float *Out, int N) {
  __shared__ float S[64];
  if (blockIdx.x < N) {
    S[threadIdx.x] = threadIdx.x;
    __syncthreads();
    Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
  }
}

// No launch passes M: with the sampled M = 1, block 1 of the grid of 4 skips the barrier;
// with 32, 33 and 1000 no block does. A note that names the value, not a warning.
__global__ void skipSampled(float *Out, int M) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < M)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
  // CHECK: :[[@LINE-1]]:48: remark: data race on shared 'S[32]': thread 32 of block 1 writes it (S[threadIdx.x], line [[@LINE-4]]) and thread 31 of block 1 reads it (S[(threadIdx.x + 1) % 64], line [[@LINE-1]]) with no barrier between (block 64x1x1, M = 1 sampled); blocks 1-3 of 4 skip the __syncthreads() on line [[@LINE-2]] (blockIdx.x < M, M = 1) [warplint-data-race]{{$}}
  // CHECK: :[[@LINE-2]]:48: note: a note, not a warning: only a sampled value makes a block skip the __syncthreads() on line [[@LINE-3]]: M = 1 (no launch in this file passes 'M')
}

// The barrier in the else arm, skipped by block 0 whatever the launch gives: blockIdx.x
// == 0 holds in every grid. A warning.
__global__ void firstBlockSkips(float *Out) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x == 0) {
    Out[threadIdx.x] = 0.f;
  } else {
    __syncthreads();
  }
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
  // CHECK: :[[@LINE-1]]:48: warning: data race on shared 'S[32]': thread 32 of block 0 writes it (S[threadIdx.x], line [[@LINE-7]]) and thread 31 of block 0 reads it (S[(threadIdx.x + 1) % 64], line [[@LINE-1]]) with no barrier between (block 64x1x1); block 0 of 3 skips the __syncthreads() on line [[@LINE-3]] (blockIdx.x == 0) [warplint-data-race]
  // CHECK: :[[@LINE-8]]:3: note: the other access to 'S[32]'
  // CHECK: :[[@LINE-3]]:48: note: the __syncthreads() on line [[@LINE-5]] separates them only
}

// Two launches, N = 1 and N = 2: only the first makes block 1 skip the barrier. A warning
// for the launch's value, with the note that the other value does not race.
__global__ void skipOneLaunch(float *Out, int N) {
  __shared__ float S[64];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < N)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 64];
  // CHECK: :[[@LINE-1]]:48: warning: data race on shared 'S[32]': thread 32 of block 1 writes it (S[threadIdx.x], line [[@LINE-4]]) and thread 31 of block 1 reads it (S[(threadIdx.x + 1) % 64], line [[@LINE-1]]) with no barrier between (block 64x1x1, N = 1); block 1 of 2 skips the __syncthreads() on line [[@LINE-2]] (blockIdx.x < N, N = 1) [warplint-data-race]
  // CHECK: :[[@LINE-2]]:48: note: it races when N = 1 (a value a launch in this file passes); the other values its launches pass do not
}

// Global memory: block 3 of 8 skips the barrier and its threads read their neighbours'
// elements of the block's own slice unsynchronised.
__global__ void skipGlobal(float *A, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  A[I] = I;
  if (blockIdx.x != 3)
    __syncthreads();
  N = A[blockIdx.x * blockDim.x + (threadIdx.x + 1) % 64];
  // CHECK: :[[@LINE-1]]:7: warning: data race on global 'A[224]': thread 32 of block 3 writes it (A[I], line [[@LINE-4]]) and thread 31 of block 3 reads it (A[blockIdx.x * blockDim.x + (threadIdx.x + 1) % 64], line [[@LINE-1]]) with no barrier between (block 64x1x1); block 3 of 8 skips the __syncthreads() on line [[@LINE-2]] (blockIdx.x != 3) [warplint-data-race]
}

// No launch: block 1 of a sampled grid of 2 skips the barrier (block 0 takes it in every
// grid). A note: only the sampled grid makes a block skip it.
__global__ void skipNoLaunch(float *Out) {
  __shared__ float S[256];
  S[threadIdx.x] = threadIdx.x;
  if (blockIdx.x == 0)
    __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = S[(threadIdx.x + 1) % 256];
  // CHECK: :[[@LINE-1]]:48: remark: data race on shared 'S[32]': thread 32 of block 1 writes it (S[threadIdx.x], line [[@LINE-4]]) and thread 31 of block 1 reads it (S[(threadIdx.x + 1) % 256], line [[@LINE-1]]) with no barrier between (block 256x1x1 assumed); block 1 of a sampled grid of 2 skips the __syncthreads() on line [[@LINE-2]] (blockIdx.x == 0) [warplint-data-race]{{$}}
  // CHECK: :[[@LINE-2]]:48: note: a note, not a warning: only a sampled value makes a block skip the __syncthreads() on line [[@LINE-3]]: a grid of 2 blocks (no launch in this file gives the grid)
}

void launch(float *Out, int M) {
  skipUniform<<<2, 64>>>(Out, 1);
  everyBlockTakes<<<2, 64>>>(Out, 2);
  blockReturns<<<2, 64>>>(Out);
  exchangeInArm<<<2, 64>>>(Out, 1);
  skipSampled<<<4, 64>>>(Out, M);
  firstBlockSkips<<<3, 64>>>(Out);
  skipOneLaunch<<<2, 64>>>(Out, 1);
  skipOneLaunch<<<2, 64>>>(Out, 2);
  skipGlobal<<<8, 64>>>(Out, M);
}

// JSON: skipUniform warning certain {"barrier": "__syncthreads()", "block_count": 1, "blocks": "1", "condition": "blockIdx.x < N", "grid_blocks": 2, "line": 20, "sampled": false, "values": "N = 1"}
// JSON-NEXT: skipSampled note depends-on-value {"barrier": "__syncthreads()", "block_count": 3, "blocks": "1-3", "condition": "blockIdx.x < M", "grid_blocks": 4, "line": 64, "sampled": true, "values": "M = 1"}
// JSON-NEXT: firstBlockSkips warning certain {"barrier": "__syncthreads()", "block_count": 1, "blocks": "0", "condition": "blockIdx.x == 0", "grid_blocks": 3, "line": 78, "sampled": false, "values": null}
// JSON-NEXT: skipOneLaunch warning depends-on-value {"barrier": "__syncthreads()", "block_count": 1, "blocks": "1", "condition": "blockIdx.x < N", "grid_blocks": 2, "line": 92, "sampled": false, "values": "N = 1"}
// JSON-NEXT: skipGlobal warning certain {"barrier": "__syncthreads()", "block_count": 1, "blocks": "3", "condition": "blockIdx.x != 3", "grid_blocks": 8, "line": 104, "sampled": false, "values": null}
// The notes are records too (a sampled value, no launch).
// JSON-NEXT: skipNoLaunch note depends-on-value {"barrier": "__syncthreads()", "block_count": 1, "blocks": "1", "condition": "blockIdx.x == 0", "grid_blocks": null, "line": 115, "sampled": true, "values": null}
// JSON-NOT: {{.}}
