// warplint-data-race under an assumed block, for a kernel written for a 2-D block (issue
// 23: a finding under an assumed block stays a warning only when it holds for the blocks
// the code may be launched with; CudaSift's matching kernels, launched with 16x16 blocks
// from code the build leaves out, `siftPoints1[128*ty + 16*i + tx]` with tx < 16). A
// kernel that reads threadIdx.y, x and y left open, is also held against a 16x16 block.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags --implicit-check-not=remark: %s

// Each row ty stages 8 runs of 16 floats: only the assumed 256x1x1 block's thread 32 meets
// thread 0's place, a 16x16 block writes each element once. A note.
__global__ void stageRows(float *out, const float *in) {
  __shared__ float stage[128 * 16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < 8; i++)
    stage[128 * ty + 16 * i + tx] = in[blockIdx.x * 256 + ty * 16 + tx] * i;
  // CHECK: :[[@LINE-1]]:5: remark: data race on shared 'stage[32]': thread 0 writes it (stage[128 * ty + 16 * i + tx], line [[@LINE-1]]) and thread 32 writes it
  // CHECK: :[[@LINE-2]]:5: note: a note, not a warning: no launch in this file gives the block shape, and with a block of 16x16x1 these two accesses do not collide
  // CHECK: :[[@LINE-3]]:5: note: let one thread write it
  __syncthreads();
  out[blockIdx.x * 256 + ty * 16 + tx] = stage[128 * tx + ty];
}
// CHECK: note: no launch of 'stageRows' with a known block shape in this translation unit; assumed a 1-D block of 256 threads

// The same indexing in a 1-D kernel: no rows, no narrower block to try. A warning.
__global__ void stageFlat(float *out, const float *in) {
  __shared__ float stage[128 * 16];
  const int tx = threadIdx.x;
  for (int i = 0; i < 8; i++)
    stage[16 * i + tx] = in[blockIdx.x * 256 + tx] * i;
  // CHECK: :[[@LINE-1]]:5: warning: data race on shared 'stage[32]': thread 0 writes it (stage[16 * i + tx], line [[@LINE-1]]) and thread 32 writes it
  // CHECK: :[[@LINE-2]]:5: note: let one thread write it
  __syncthreads();
  out[blockIdx.x * 256 + tx] = stage[tx];
}
// CHECK: note: no launch of 'stageFlat' with a known block shape in this translation unit; assumed a 1-D block of 256 threads

// A 2-D kernel whose race a 16x16 block has too: a warning.
__global__ void stageRowsRace(float *out, const float *in) {
  __shared__ float stage[16 * 16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  stage[ty] = in[blockIdx.x * 256 + ty * 16 + tx];
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 'stage[0]': thread 0 writes it (stage[ty], line [[@LINE-1]]) and thread 32 writes it
  // CHECK: :[[@LINE-2]]:3: note: let one thread write it
  __syncthreads();
  out[blockIdx.x * 256 + ty * 16 + tx] = stage[tx];
}
// CHECK: note: no launch of 'stageRowsRace' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
