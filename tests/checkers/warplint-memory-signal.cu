// The memory checks on code nobody labelled (issue 23): one finding per cause, real values
// before sampled ones, assumed block shapes and a few lanes' edge work said as notes, the
// fields of a vector type read as one load.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access,warplint-shared-bank-conflict' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s
// The JSON keeps a record of each place of a grouped finding, tied to the finding's place:
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/m.cu
// RUN: cd %t && %not %warplint check m.cu --mock-cuda --registers-from none --no-cache --checks='-*,warplint-uncoalesced-access' --format json -o m.json
// RUN: grep -c '"places": 4' %t/m.json | %FileCheck --check-prefix=PLACES4 %s
// PLACES4: 4
// RUN: grep -c '"finding_line": 23' %t/m.json | %FileCheck --check-prefix=PLACES4 %s
// RUN: %FileCheck --check-prefix=NOTEREC %s < %t/m.json
// NOTEREC: "note_reason": "only 2 of the 32 lanes of the warp take part
// NOTEREC: "severity": "note"

struct Pair {
  float a, b;
};

// Unrolled code: one cause at four places is one warning, the other places as notes.
__global__ void unrolled(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  s += in[i * 32 + 0];
  // CHECK: :[[@LINE-1]]:8: warning: each warp's load of 'in[i * 32 + 0]' touches 32 sectors for 128 bytes (ideal 4): stride of 32 floats between lanes (block 256x1x1); the same for 3 more loads of 'in' in 'unrolled' [warplint-uncoalesced-access]
  s += in[i * 32 + 1];
  // CHECK: :[[@LINE-1]]:8: note: the same load here: 'in[i * 32 + 1]'
  s += in[i * 32 + 2];
  // CHECK: :[[@LINE-1]]:8: note: the same load here: 'in[i * 32 + 2]'
  s += in[i * 32 + 3];
  // CHECK: :[[@LINE-1]]:8: note: the same load here: 'in[i * 32 + 3]'
  out[i] = s;
}

// Another object, or another figure, is another finding.
__global__ void twoCauses(float *out, const float *in, const float *in2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32] + in2[i * 32] + in[i * 2];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i * 32]' touches 32 sectors for 128 bytes (ideal 4): stride of 32 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:25: warning: each warp's load of 'in2[i * 32]' touches 32 sectors
  // CHECK: :[[@LINE-3]]:39: warning: each warp's load of 'in[i * 2]' touches 8 sectors for 128 bytes (ideal 4): stride of 2 floats
}

// The four fields of a float4: one 16-byte load per lane, contiguous: silent.
__global__ void vectorFields(float *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].x + in[i].y + in[i].z + in[i].w;
}

// One field of a float4 alone is a 4-byte load every 16 bytes.
__global__ void oneVectorField(float *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].x;
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i].x' touches 16 sectors for 128 bytes (ideal 4): lanes 16 bytes apart, each reading 4 bytes of a 16-byte 'float4'
}

// Two fields of an 8-byte struct read in two loads: one finding that suggests the vector
// load.
__global__ void pairFields(float *out, const Pair *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].a * in[i].b;
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i].a' touches 8 sectors for 128 bytes (ideal 4): lanes 8 bytes apart, each reading 4 bytes of a 8-byte 'Pair' (an array of structures) (block 256x1x1); the same for 1 more load of 'in' in 'pairFields' [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:12: note: 2 fields of each 'Pair' are accessed in separate loads: one access of the whole 8-byte element
  // CHECK: :[[@LINE-3]]:22: note: the same load here: 'in[i].b'
}

// A stride that a parameter decides, with no launch that passes it: the figure holds for
// some values only (a bank conflict for W = 32, none for W = 1 or the odd W = 33), so it
// is a note that names the values, not a warning about one of them.
__global__ void paramStride(float *out, int W) {
  __shared__ float s[32 * 33 + 1];
  s[threadIdx.x * W] = 1.0f;
  // CHECK: :[[@LINE-1]]:3: remark: each warp's store of 's[threadIdx.x * W]' needs 8 shared-memory wavefronts (ideal 1): a 8-way bank conflict (block 256x1x1 assumed, W = 1000) [warplint-shared-bank-conflict]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: the run-time value of W decides the figure and no launch in this file passes it as a constant (with W = 1: 1 wavefronts (ideal 1), lanes 4 bytes apart; with W = 1000: 8 wavefronts (ideal 1), lanes 4000 bytes apart; with W = 32: 32 wavefronts (ideal 1), lanes 128 bytes apart; with W = 33: 1 wavefronts (ideal 1), lanes 132 bytes apart)
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same, launched with constants: the launches' values are the figures.
__global__ void launchedStride(float *out, const float *in, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * W];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i * W]' touches 32 sectors for 128 bytes (ideal 4): stride of 32 floats between lanes (block 256x1x1, W = 32) [warplint-uncoalesced-access]
}
__global__ void launchedUnit(float *out, const float *in, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * W];
}

// Bad for the assumed 256-thread block, fine for a block of one warp: a note.
__global__ void blockDecides(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x * (blockDim.x / 32)];
  // CHECK: :[[@LINE-1]]:22: remark: each warp's load of 'in[threadIdx.x * (blockDim.x / 32)]' touches 32 sectors for 128 bytes (ideal 4): stride of 8 floats between lanes (block 256x1x1 assumed)
  // CHECK: note: no launch of 'blockDecides' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
  // CHECK: :[[@LINE-3]]:22: note: said as a note: no launch in this file gives the block shape, and with a block of 32x1x1 the access touches 4 sectors for 128 bytes (ideal 4)
}

// Bad for every block at least a warp wide: still a warning under the assumed block.
__global__ void anyBlock(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 16];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i * 16]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1 assumed) [warplint-uncoalesced-access]
  // CHECK: note: no launch of 'anyBlock' with a known block shape
}

// A halo column loaded by the first lane of each row of a 16x16 block: two lanes of a
// warp, beside the full-warp load of the tile: a note.
__global__ void halo(float *out, const float *in) {
  __shared__ float tile[16][16];
  __shared__ float edge[16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 1024 + x];
  if (threadIdx.x == 0)
    edge[threadIdx.y] = in[y * 1024 + x + 16];
  // CHECK: :[[@LINE-1]]:25: remark: each warp's load of 'in[y * 1024 + x + 16]' touches 2 sectors for 8 bytes (ideal 1)
  // CHECK: :[[@LINE-2]]:25: note: said as a note: only 2 of the 32 lanes of the warp take part (an edge or halo access beside the kernel's full-warp ones)
  __syncthreads();
  out[y * 1024 + x] = tile[threadIdx.y][threadIdx.x] + edge[threadIdx.y];
}

void host(float *o, const float *i, const float *j, const float4 *v, const Pair *p) {
  unrolled<<<100, 256>>>(o, i);
  twoCauses<<<100, 256>>>(o, i, j);
  vectorFields<<<100, 256>>>(o, v);
  oneVectorField<<<100, 256>>>(o, v);
  pairFields<<<100, 256>>>(o, p);
  launchedStride<<<100, 256>>>(o, i, 32);
  launchedUnit<<<100, 256>>>(o, i, 1);
  halo<<<dim3(64, 64), dim3(16, 16)>>>(o, i);
}
