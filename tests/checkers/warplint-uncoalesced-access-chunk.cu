// warplint-uncoalesced-access on the pieces of each lane's own contiguous chunk, one
// statement a piece (issue 23, twenty-second session: ccminer's merge kernels copy a
// 64-byte hash per thread as four uint4s). Each instruction touches twice the sectors a
// coalesced one would, but the pieces use each other's sectors: over all of them the
// warp's memory traffic is what the bytes need, and no access wider than the 16 bytes each
// piece already is exists to serve the chunk at once. A note that says so. Narrower pieces
// (eight uint64s of a 64-byte hash: 16-byte accesses would halve the requests), pieces a
// vector load serves (a 16-byte chunk read as four floats) and pieces that leave sectors
// half used stay warnings; the 16-byte chunk with a note naming the vector access that
// serves its pieces (issue 23: one finding that suggests the vector load). Narrow pieces
// that cover a chunk no aligned vector access tiles (a point's x, y, z: twenty-eighth
// session, labelled false by three blind labellers) are a note too.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

// A 64-byte hash per thread, copied as four 16-byte vectors: a note.
struct alignas(16) U4 {
  unsigned x, y, z, w;
};
__global__ void mergeHashes(U4 *dst, const U4 *src) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  U4 *d = &dst[t * 4];
  const U4 *s = &src[t * 4];
  d[0] = s[0];
  // CHECK: :[[@LINE-1]]:3: remark: each warp's {{load|store}} of 'd[0]' touches 32 sectors for 512 bytes (ideal 16): stride of 4 U4s between lanes (block 128x1x1); the same for 3 more {{loads|stores}} of 'dst' in 'mergeHashes'
  // CHECK: :[[@LINE-2]]:3: note: said as a note: together, the 4 places are pieces of each lane's own 64-byte chunk (lanes 64 bytes apart): they touch 64 sectors for their 2048 bytes per warp (ideal 64): the sectors one piece touches are those the others use
  // CHECK: :[[@LINE-3]]:10: remark: each warp's load of 's[0]' touches 32 sectors for 512 bytes (ideal 16): stride of 4 U4s between lanes (block 128x1x1); the same for 3 more loads of 'src' in 'mergeHashes'
  // CHECK: :[[@LINE-4]]:10: note: said as a note: together, the 4 places are pieces of each lane's own 64-byte chunk (lanes 64 bytes apart): they touch 64 sectors for their 2048 bytes per warp (ideal 64): the sectors one piece touches are those the others use
  d[1] = s[1];
  d[2] = s[2];
  d[3] = s[3];
}

// Eight uint64s of a 64-byte result per thread: 16-byte accesses would halve the
// requests, so a warning (as a 64-byte structure read a field at a time is).
__global__ void storeHash(unsigned long long *out, const unsigned long long *in) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long h[8];
  for (int k = 0; k < 8; ++k)
    h[k] = in[k] * t;
  unsigned long long *o = out + t * 8;
  o[0] = h[0];
  // CHECK: :[[@LINE-1]]:3: warning: each warp's store of 'o[0]' touches 32 sectors for 256 bytes (ideal 8): stride of 8 'unsigned long long's between lanes (block 128x1x1); the same for 7 more stores of 'out' in 'storeHash'
  o[1] = h[1];
  o[2] = h[2];
  o[3] = h[3];
  o[4] = h[4];
  o[5] = h[5];
  o[6] = h[6];
  o[7] = h[7];
}

// Four floats of a 16-byte pixel per thread: one float4 load serves them. A warning.
__global__ void pixels(const float *in, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[4 * t + 0] + in[4 * t + 1] + in[4 * t + 2] + in[4 * t + 3];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'in[4 * t + 0]' touches 16 sectors for 128 bytes (ideal 4): stride of 4 floats between lanes (block 128x1x1); the same for 3 more loads of 'in' in 'pixels'
  // CHECK: :[[@LINE-2]]:12: note: together, the 4 loads move each lane's 16 contiguous bytes: one 16-byte vector access of the chunk (float4, int4 or uint4, through a pointer cast to it) would do it in one instruction
}

// Two floats 16 bytes apart in each lane's 32 bytes: each sector half used. A warning,
// with no vector advice (the pieces leave a gap).
__global__ void halfUsed(const float *in, float *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = in + 8 * t;
  float a = p[0];
  // CHECK: :[[@LINE-1]]:13: warning: each warp's load of 'p[0]' touches 32 sectors for 128 bytes (ideal 4): stride of 8 floats between lanes (block 128x1x1); the same for 1 more load of 'in' in 'halfUsed'
  // CHECK-NOT: :[[@LINE-2]]:13: note: together
  float b = p[4];
  out[t] = a + b;
}

// A point's x, y and z read one after another by the same thread from an xyz array
// (deepmd-kit, specfem3d): together the loads use every byte of the sectors they touch,
// and no aligned vector access tiles a 12- or 24-byte chunk. A note.
__global__ void points(const float *xyz, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = xyz[3 * i + 0];
  // CHECK: :[[@LINE-1]]:13: remark: each warp's load of 'xyz[3 * i + 0]' touches 12 sectors for 128 bytes (ideal 4): stride of 3 floats between lanes (block 128x1x1); the same for 2 more loads of 'xyz' in 'points'
  // CHECK: :[[@LINE-2]]:13: note: said as a note: together, the 3 places are pieces of each lane's own 12-byte chunk (lanes 12 bytes apart): they touch 12 sectors for their 384 bytes per warp (ideal 12): every byte of the chunk is read or written by the same thread, so the pieces use each other's sectors and the memory traffic over all of them is what the bytes need; no aligned 8- or 16-byte access tiles a 12-byte chunk, so only another layout (one array per component) would coalesce each instruction
  float y = xyz[3 * i + 1];
  float z = xyz[3 * i + 2];
  out[i] = x * x + y * y + z * z;
}
__global__ void pointsD(const double *xyz, double *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = xyz[i * 3] + xyz[i * 3 + 1] + xyz[i * 3 + 2];
  // CHECK: :[[@LINE-1]]:12: remark: each warp's load of 'xyz[i * 3]' touches 24 sectors for 256 bytes (ideal 8): stride of 3 doubles between lanes (block 128x1x1); the same for 2 more loads of 'xyz' in 'pointsD'
  // CHECK: :[[@LINE-2]]:12: note: said as a note: together, the 3 places are pieces of each lane's own 24-byte chunk
}

// A complex double's halves: one aligned 16-byte access serves them, so a warning that
// names it.
__global__ void complexes(const double *z, double *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double re = z[2 * i];
  // CHECK: :[[@LINE-1]]:15: warning: each warp's load of 'z[2 * i]' touches 16 sectors for 256 bytes (ideal 8): stride of 2 doubles between lanes (block 128x1x1); the same for 1 more load of 'z' in 'complexes'
  // CHECK: :[[@LINE-2]]:15: note: together, the 2 loads move each lane's 16 contiguous bytes: one 16-byte vector access
  double im = z[2 * i + 1];
  out[i] = re * re + im * im;
}

// Two of a point's three floats: a third of every sector unread, and lanes 12 bytes apart
// put odd lanes' pairs off an 8-byte boundary, so no float2 advice either. A warning.
__global__ void twoOfThree(const float *xyz, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = xyz[3 * i] + xyz[3 * i + 1];
  // CHECK: :[[@LINE-1]]:12: warning: each warp's load of 'xyz[3 * i]' touches 12 sectors for 128 bytes (ideal 4): stride of 3 floats between lanes (block 128x1x1); the same for 1 more load of 'xyz' in 'twoOfThree'
  // CHECK-NOT: :[[@LINE-2]]:12: note: together
}

void launchAll(U4 *d, const U4 *s, unsigned long long *o, const unsigned long long *i,
               const float *f, float *g) {
  mergeHashes<<<64, 128>>>(d, s);
  storeHash<<<64, 128>>>(o, i);
  pixels<<<64, 128>>>(f, g);
  halfUsed<<<64, 128>>>(f, g);
  points<<<64, 128>>>(f, g);
  pointsD<<<64, 128>>>(reinterpret_cast<const double *>(f), reinterpret_cast<double *>(g));
  complexes<<<64, 128>>>(reinterpret_cast<const double *>(f), reinterpret_cast<double *>(g));
  twoOfThree<<<64, 128>>>(f, g);
}
