// warplint-divergent-branch on the edges of tiled code (issue 23, HeCBench's FDTD3d,
// metropolis and sptrsv, labelled at AFTER 16):
// - the lanes at a tile's edge filling its halo in shared memory (`if (ltidx < RADIUS)`,
//   a thread index against a constant, an arm of shared stores only): a note;
// - a flag cleared by bounds guards one after another (`bool valid = true; if (x >= nx)
//   valid = false; if (y >= ny) valid = false; ... if (valid) out[i] = v;`): a bounds
//   guard, silent;
// - a warp's tree through shared memory on the lane index (`if (lane < offset)`, offset
//   halving): a reduction tail, silent.
// The interleaved reduction (`tid % (2 * s) == 0`), whose arm is a shared store too, is
// no edge band and stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

#define RADIUS 4

__global__ void stencil(const float *in, float *out, int nx, int ny, int nz) {
  __shared__ float tile[8 + 2 * RADIUS][32 + 2 * RADIUS];
  const int ltidx = threadIdx.x;
  const int tx = ltidx + RADIUS, ty = threadIdx.y + RADIUS;
  const int gx = blockIdx.x * 32 + ltidx, gy = blockIdx.y * 8 + threadIdx.y;
  bool valid = true;
  if (gx >= nx)
    valid = false;
  if (gy >= ny)
    valid = false;
  for (int z = 0; z < nz; ++z) {
    int g = (z * ny + gy) * (nx + 2 * RADIUS) + gx + RADIUS;
    if (ltidx < RADIUS) {
      tile[ty][ltidx] = in[g - RADIUS];
      tile[ty][ltidx + 32 + RADIUS] = in[g + 32];
    }
    // CHECK: :[[@LINE-4]]:9: remark: branch on 'ltidx' diverges in 8 of 8 warps of kernel 'stencil' (block 32x8x1); predicted branch efficiency 0% [warplint-divergent-branch]
    // CHECK: :[[@LINE-5]]:9: note: a note, not a warning: the lanes at the tile's edge (a thread index against a constant) fill its halo in shared memory and do nothing else: a few loads at the edge of a stencil's tile, inherent to the tiling
    tile[ty][tx] = in[g];
    __syncthreads();
    float v = tile[ty][tx - 1] + tile[ty][tx + 1];
    if (valid)
      out[g] = v;
    __syncthreads();
  }
}

__global__ void laneTree(float *out, const float *in) {
  __shared__ float s[256];
  const int lane = threadIdx.x & 31;
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) {
    if (lane < offset)
      s[threadIdx.x] += s[threadIdx.x + offset];
    __syncwarp();
  }
  if (lane == 0)
    out[blockIdx.x * 8 + threadIdx.x / 32] = s[threadIdx.x];
}

__global__ void interleaved(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned k = 1; k < 256; k *= 2) {
    if (tid % (2 * k) == 0)
      s[tid] += s[tid + k];
    // CHECK: :[[@LINE-2]]:9: warning: branch on 'tid' diverges
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

void launch(const float *in, float *out, int nx, int ny, int nz) {
  stencil<<<dim3(4, 4), dim3(32, 8)>>>(in, out, nx, ny, nz);
  laneTree<<<4, 256>>>(out, in);
  interleaved<<<4, 256>>>(out, in);
}
