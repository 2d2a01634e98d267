// warplint-data-race: writers that store a word loaded from one address of memory the
// kernel never writes store one value: a benign race, like a store of one constant
// (issue 23, HeCBench resnet-kernels: bias[in_channel] = bnBias[in_channel] by the 4 rows
// of a 128x4 block). A source the kernel writes, a load at another address per writer, or
// a store through a pointer that may alias the source keeps it a race.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.ReportBenign: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BENIGN %s

// Every row stores bias[x] = in[x]: one value per word. Silent (benign with ReportBenign).
__global__ void rowsFill(const float *in, const float *w, float *out) {
  __shared__ float bias[128];
  __shared__ float tile[4][128];
  bias[threadIdx.x] = in[threadIdx.x];
  // BENIGN: :[[@LINE-1]]:3: warning: data race on shared 'bias[0]': thread (0, 0) writes it (bias[threadIdx.x], line [[@LINE-1]]) and thread (0, 1) writes it (bias[threadIdx.x], line [[@LINE-1]]) with no barrier between; both write the same value (block 128x4x1) [warplint-data-race]
  tile[threadIdx.y][threadIdx.x] = w[threadIdx.y * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 512 + threadIdx.y * 128 + threadIdx.x] =
      tile[threadIdx.y][threadIdx.x] + bias[threadIdx.x];
}
void launchRowsFill(const float *i, const float *w, float *o) {
  rowsFill<<<8, dim3(128, 4)>>>(i, w, o);
}

// The same from a block-dependent address (another copy per block of shared memory). Silent.
__global__ void rowsFillBlock(const float *in, float *out) {
  __shared__ float bias[128];
  bias[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 512 + threadIdx.y * 128 + threadIdx.x] = bias[threadIdx.x];
}
void launchRowsFillBlock(const float *i, float *o) { rowsFillBlock<<<8, dim3(128, 4)>>>(i, o); }

// Each row loads its own word (threadIdx.y in the load's address): different values to
// one word. Reported.
__global__ void rowsOwnWord(const float *in, float *out) {
  __shared__ float bias[128];
  bias[threadIdx.x] = in[threadIdx.y * 128 + threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'bias[0]': thread (0, 0) writes it (bias[threadIdx.x], line [[@LINE-1]]) and thread (0, 1) writes it (bias[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x4x1) [warplint-data-race]
  __syncthreads();
  out[threadIdx.y * 128 + threadIdx.x] = bias[threadIdx.x];
}
void launchRowsOwnWord(const float *i, float *o) { rowsOwnWord<<<1, dim3(128, 4)>>>(i, o); }

// The source is written in the kernel (after a barrier here, but the rule asks for memory
// the kernel never writes: another block's store may land between two rows' loads).
// Reported.
__global__ void rowsWrittenSource(float *in, float *out) {
  __shared__ float bias[128];
  bias[threadIdx.x] = in[threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'bias[0]': thread (0, 0) writes it (bias[threadIdx.x], line [[@LINE-1]]) and thread (0, 1) writes it (bias[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x4x1) [warplint-data-race]
  __syncthreads();
  out[threadIdx.y * 128 + threadIdx.x] = bias[threadIdx.x];
  if (threadIdx.y == 0)
    in[threadIdx.x] = 0.0f;
}
void launchRowsWrittenSource(float *i, float *o) { rowsWrittenSource<<<1, dim3(128, 4)>>>(i, o); }

// A shared source filled before a barrier: the rows read one word of it. Silent.
__global__ void rowsFromShared(const float *in, float *out) {
  __shared__ float src[128];
  __shared__ float bias[128];
  if (threadIdx.y == 0)
    src[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  // The source is written (above): not a key; the rows' stores race with different values
  // as far as the model knows. Reported.
  bias[threadIdx.x] = src[threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'bias[0]': thread (0, 0) writes it (bias[threadIdx.x], line [[@LINE-1]]) and thread (0, 1) writes it (bias[threadIdx.x], line [[@LINE-1]]) with no barrier between (block 128x4x1) [warplint-data-race]
  __syncthreads();
  out[threadIdx.y * 128 + threadIdx.x] = bias[threadIdx.x];
}
void launchRowsFromShared(const float *i, float *o) { rowsFromShared<<<1, dim3(128, 4)>>>(i, o); }
