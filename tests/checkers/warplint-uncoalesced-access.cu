// warplint-uncoalesced-access: the 32-byte sectors each warp's global access touches.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s --config="{CheckOptions: {warplint-uncoalesced-access.MinSectorRatio: 4, warplint-uncoalesced-access.MisalignmentSeverity: none, warplint-uncoalesced-access.Severity: note}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=OPTS %s
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s --config="{CheckOptions: {warplint-uncoalesced-access.MinSectorRatio: 0.5, warplint-uncoalesced-access.Severity: loud}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BADOPT %s
// BADOPT-DAG: invalid MinSectorRatio '0.5': must be a number from 1 to 1024; using 2
// BADOPT-DAG: invalid configuration value 'loud' for option 'warplint-uncoalesced-access.Severity'

struct Particle {
  float x, y, z;
};

struct Particles {
  float *x, *y, *z;
};

__global__ void coalesced(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void stride32(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[i * 32]' touches 32 sectors for 128 bytes (ideal 4): stride of 32 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // OPTS: :[[@LINE-2]]:12: remark: each warp's load of 'in[i * 32]' touches 32 sectors
}

// Runs of 4 adjacent lanes, each run 32 bytes after the last: half of every sector.
__global__ void halfRuns(float *y) {
  unsigned t = threadIdx.x;
  y[(t / 4) * 8 + t % 4] = 0.0f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'y[(t / 4) * 8 + t % 4]' touches 8 sectors for 128 bytes (ideal 4): runs of adjacent lanes with gaps between the runs (block 256x1x1) [warplint-uncoalesced-access]
}

__global__ void stride2(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[2 * i]' touches 8 sectors for 128 bytes (ideal 4): stride of 2 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  // OPTS-NOT: :[[@LINE-2]]:12:
}

// A column-major walk: each lane reads its own row, n floats after the previous lane's.
__global__ void columnWalk(float *out, const float *a, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k];
  // The stride is the run-time n (1 for a vector, the width for a matrix): no launch here
  // fixes it, so the finding is a note that gives the figure for each sampled n.
  // CHECK: :[[@LINE-3]]:12: remark: each warp's load of 'a[row * n + k]' touches 32 sectors for 128 bytes (ideal 4): a stride between lanes that n decides (stride of 33 floats between lanes with n = 33) (block 256x1x1, n = 33) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-4]]:12: note: said as a note: the run-time value of n decides the figure and no launch in this file passes it as a constant (with n = 1: 4 sectors for 128 bytes (ideal 4), lanes 4 bytes apart; with n = 1000: 32 sectors for 128 bytes (ideal 4), lanes 4000 bytes apart; with n = 32: 32 sectors for 128 bytes (ideal 4), lanes 128 bytes apart; with n = 33: 32 sectors for 128 bytes (ideal 4), lanes 132 bytes apart)
  out[row] = sum;
}

// The row-major walk of the same matrix: lanes read consecutive floats.
__global__ void rowWalk(float *out, const float *a, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.f;
  for (int k = 0; k < n; ++k)
    sum += a[k * n + col];
  out[col] = sum;
}

// An array of structures: each lane reads one float of a 12-byte struct.
__global__ void arrayOfStructs(Particle *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i].x *= 2.f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's load and store of 'p[i].x' touches 12 sectors for 128 bytes (ideal 4): lanes 12 bytes apart, each reading 4 bytes of a 12-byte 'Particle' (an array of structures) (block 256x1x1) [warplint-uncoalesced-access]
}

// The structure of arrays: silent.
__global__ void structOfArrays(Particles p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.x[i] *= 2.f;
}

__global__ void vectorLoads(float4 *out, const float4 *in, const float *flat) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  float4 v = reinterpret_cast<const float4 *>(flat)[i];
  out[i + 1024] = in[2 * i];
  // CHECK: :[[@LINE-1]]:19: warning: each warp's load of 'in[2 * i]' touches 32 sectors for 512 bytes (ideal 16): stride of 2 float4s between lanes (block 256x1x1) [warplint-uncoalesced-access]
  out[i + 2048] = v;
}

// A thread-independent offset that moves every warp 4 bytes past a sector boundary.
__global__ void offByOne(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
  // CHECK: :[[@LINE-1]]:12: remark: each warp's load of 'in[i + 1]' touches 5 sectors for 128 bytes (ideal 4): the lanes start 4 bytes past a 32-byte sector boundary (block 256x1x1) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-4]]:51: note: assuming 'in' is 32-byte aligned (cudaMalloc returns 256-byte aligned memory); only its base alignment is not known here
  // OPTS-NOT: :[[@LINE-4]]:12:
}

// A store in each arm of a divergent branch: each arm's lanes are contiguous but for the
// other arm's lanes (the divergence is warplint-divergent-branch's finding): silent.
__global__ void evenOddStores(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 2 == 0)
    out[i] = 1.f;
  else
    out[i] = 2.f;
}

// An unknown offset: aligned for some values, not for others; never guessed.
__global__ void unknownOffset(float *out, const float *in, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + offset];
}

// Broadcasts: every lane of a warp reads one address.
__global__ void broadcasts(float *out, const float *in, const float *table) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[0] + table[blockIdx.x] + table[threadIdx.x / 32];
}

// One value per row of a 16x16 block (a halo column): a broadcast per row, silent.
__global__ void rowBroadcast(float *out, const float *in) {
  out[threadIdx.y * 16 + threadIdx.x] = in[(blockIdx.y * 16 + threadIdx.y) * 1000];
}

// An index loaded from memory: not evaluated, never guessed.
__global__ void gather(float *out, const float *in, const int *index) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[index[i]];
}

// Index expressions through locals, pointers and an unrolled loop.
__global__ void throughLocals(float *out, const float *in) {
  int lane = threadIdx.x;
  int j = lane * 16;
  const float *row = in + blockIdx.x * 4096;
  float v = row[j];
  // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'row[j]' touches 32 sectors for 128 bytes (ideal 4): stride of 16 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
#pragma unroll
  for (int k = 0; k < 4; ++k)
    v += in[lane * 4 + k];
  // CHECK: :[[@LINE-1]]:10: warning: each warp's load of 'in[lane * 4 + k]' touches 16 sectors for 128 bytes (ideal 4): stride of 4 floats between lanes (block 256x1x1) [warplint-uncoalesced-access]
  out[blockIdx.x * blockDim.x + lane] = v;
}

// A grid-stride loop: coalesced in every iteration.
__global__ void gridStride(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = 2.f * in[i];
}

// The naive transpose with 16x16 blocks: reads along rows, writes along columns.
__global__ void transposeNaive(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  odata[x * height + y] = idata[y * width + x];
  // CHECK: :[[@LINE-1]]:3: remark: each warp's store of 'odata[x * height + y]' touches 16 sectors for 128 bytes (ideal 4): a stride between lanes that height decides (stride of 1000 floats between lanes with height = 1000) (block 16x16x1, height = 1000) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-2]]:3: note: said as a note: the run-time value of height decides the figure
}

// Two launches: the access is coalesced with one block shape, strided with the other.
__global__ void dependsOnShape(float *a) {
  a[threadIdx.x * 1024 + threadIdx.y] += 1.f;
  // CHECK: :[[@LINE-1]]:3: warning: each warp's load and store of 'a[threadIdx.x * 1024 + threadIdx.y]' touches 32 sectors for 128 bytes (ideal 4): stride of 1024 floats between lanes (block 32x1x1) [warplint-uncoalesced-access]
  // The note lands on the second launch of launchAll, below.
  // CHECK: :[[@LINE+31]]:3: note: with the block 1x32x1 of this launch the access touches 4 sectors for 128 bytes
}

// No launch in this TU: the check says the shape it assumed.
__global__ void noLaunch(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x * 8];
  // CHECK: :[[@LINE-1]]:22: warning: each warp's load of 'in[threadIdx.x * 8]' touches 32 sectors for 128 bytes (ideal 4): stride of 8 floats between lanes (block 256x1x1 assumed) [warplint-uncoalesced-access]
  // CHECK: :[[@LINE-3]]:17: note: no launch of 'noLaunch' with a known block shape in this translation unit; assumed a 1-D block of 256 threads
}

void launchAll(float *a, float *b, float4 *c, float4 *d, Particle *p, Particles q, int *idx,
               int n) {
  coalesced<<<64, 256>>>(a, b);
  stride32<<<64, 256>>>(a, b);
  stride2<<<64, 256>>>(a, b);
  halfRuns<<<64, 256>>>(a);
  columnWalk<<<64, 256>>>(a, b, n);
  rowWalk<<<64, 256>>>(a, b, n);
  arrayOfStructs<<<64, 256>>>(p);
  structOfArrays<<<64, 256>>>(q);
  vectorLoads<<<64, 256>>>(c, d, a);
  offByOne<<<64, 256>>>(a, b);
  unknownOffset<<<64, 256>>>(a, b, n);
  evenOddStores<<<64, 256>>>(a);
  broadcasts<<<64, 256>>>(a, b, a);
  gather<<<64, 256>>>(a, b, idx);
  rowBroadcast<<<dim3(4, 4), dim3(16, 16)>>>(a, b);
  throughLocals<<<64, 256>>>(a, b);
  gridStride<<<64, 256>>>(a, b, n);
  transposeNaive<<<dim3(64, 64), dim3(16, 16)>>>(a, b, n, n);
  dependsOnShape<<<64, 32>>>(a);
  dependsOnShape<<<64, dim3(1, 32)>>>(a);
}
