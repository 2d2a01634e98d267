// warplint-data-race: a launch's block shape read from the elements of a local array of
// constants, as from a local scalar (issue 23, HeCBench medianfilter: `dim3 lws(sz[0],
// sz[1])` with `sz[0] = 16; sz[1] = 4;` before the launch). An element written on one path
// only, or the array handed to a function, leaves the shape unknown (assumed).
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// At 16x4 every thread has a word of its own; at the assumed 256x1 threadIdx.x % 16 would
// repeat. The launch's elements are assigned constants: silent.
__global__ void tile(float *out) {
  __shared__ float s[64];
  s[threadIdx.y * 16 + threadIdx.x % 16] = 1.0f * threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[63 - threadIdx.y * 16 - threadIdx.x];
}
void launchAssigned(float *o) {
  size_t local[2];
  const int bx = 16, by = 4;
  local[0] = bx;
  local[1] = by;
  dim3 lws(local[0], local[1]);
  tile<<<1, lws>>>(o);
}

// An initialised array, never written: silent.
__global__ void tileInit(float *out) {
  __shared__ float s[64];
  s[threadIdx.y * 16 + threadIdx.x % 16] = 1.0f * threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[63 - threadIdx.y * 16 - threadIdx.x];
}
void launchInit(float *o) {
  unsigned dims[3] = {16, 4};
  tileInit<<<1, dim3(dims[0], dims[1], dims[2] + 1)>>>(o);
}

// The elements read at the launch are the right ones: the block is 4x16 (d[1], d[0]), and
// rows y and y + 4 meet at one word (threadIdx.y % 4): thread (0, 0) and thread (0, 8)
// of another warp. Reported with the launch's shape.
__global__ void tileSwapped(float *out) {
  __shared__ float s[64];
  s[(threadIdx.y % 4) * 16 + threadIdx.x % 16] = 1.0f * threadIdx.x;
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 's[0]': thread (0, 0) writes it (s[(threadIdx.y % 4) * 16 + threadIdx.x % 16], line [[@LINE-1]]) and thread (0, 8) writes it (s[(threadIdx.y % 4) * 16 + threadIdx.x % 16], line [[@LINE-1]]) with no barrier between (block 4x16x1) [warplint-data-race]
  __syncthreads();
  out[threadIdx.y * 4 + threadIdx.x] = s[0];
}
void launchSwapped(float *o) {
  int d[2];
  d[1] = 4;
  d[0] = 16;
  tileSwapped<<<1, dim3(d[1], d[0])>>>(o);
}

// x written on one path only: not known there, the shape is assumed (64 wide, y = 4 from
// the initialiser).
__global__ void tileMaybe(float *out) {
  __shared__ float s[64];
  s[threadIdx.y * 16 + threadIdx.x % 16] = 1.0f * threadIdx.x;
  // CHECK: :[[@LINE-1]]:3: warning: data race on shared 's[0]': thread (0, 0) writes it (s[threadIdx.y * 16 + threadIdx.x % 16], line [[@LINE-1]]) and thread (32, 0) writes it (s[threadIdx.y * 16 + threadIdx.x % 16], line [[@LINE-1]]) with no barrier between (block 64x4x1 assumed) [warplint-data-race]
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[63 - threadIdx.y * 16 - threadIdx.x];
  // CHECK: :[[@LINE-1]]:3: warning: data race on global 'out[16]': thread (16, 0) writes it (out[threadIdx.y * 16 + threadIdx.x], line [[@LINE-1]]) and thread (0, 1) writes it (out[threadIdx.y * 16 + threadIdx.x], line [[@LINE-1]]) with no barrier between (block 64x4x1 assumed) [warplint-data-race]
}
void launchMaybe(float *o, bool wide) {
  size_t local[2] = {16, 4};
  if (wide)
    local[0] = 32;
  tileMaybe<<<1, dim3(local[0], local[1])>>>(o);
}
