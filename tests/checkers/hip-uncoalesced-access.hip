// warplint-uncoalesced-access on HIP: the unit is the wavefront (64 lanes on gfx90a, 32 on
// gfx1030 in wave32) and global accesses count the vector L1 cache lines they touch (64
// bytes on GCN/CDNA up to gfx90a, 128 bytes on gfx942 and RDNA); every message names both.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %hip_gfx90a 2>&1 | %check_diags --check-prefix=W64 %s
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %hip_gfx1030 2>&1 | %check_diags --check-prefix=W32 %s

// One float per lane, 128 bytes apart: every lane its own cache line.
__global__ void strided(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // W64: :[[@LINE-1]]:12: warning: each wavefront's (64 lanes) load of 'in[i * 32]' touches 64 64-byte cache lines for 256 bytes (ideal 4): stride of 32 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // W32: :[[@LINE-2]]:12: warning: each wavefront's (32 lanes) load of 'in[i * 32]' touches 32 128-byte cache lines for 128 bytes (ideal 1): stride of 32 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
}

// Every other float: twice the lines the bytes need.
__global__ void everyOther(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
  // W64: :[[@LINE-1]]:12: warning: each wavefront's (64 lanes) load of 'in[2 * i]' touches 8 64-byte cache lines for 256 bytes (ideal 4): stride of 2 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // W32: :[[@LINE-2]]:12: warning: each wavefront's (32 lanes) load of 'in[2 * i]' touches 2 128-byte cache lines for 128 bytes (ideal 1): stride of 2 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
}

// Contiguous lanes: silent on both.
__global__ void copy(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

void run(float *out, const float *in) {
  strided<<<64, 256>>>(out, in);
  everyOther<<<64, 256>>>(out, in);
  copy<<<64, 256>>>(out, in);
}
