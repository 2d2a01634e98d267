// Constructs nvcc accepts and clang refuses, next to launches clang parses: the launches
// are recorded and checked; the launch clang could not build is not.
__device__ unsigned long long now() {
  unsigned long long t;
  // nvcc hands the string to ptxas as it is; clang wants %%globaltimer.
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

__global__ void stamp(unsigned long long *out) { out[threadIdx.x] = now(); }

// A shared variable of a type clang does not know is not counted (clang takes it as int).
__global__ void tiled(float *p) {
  __shared__ float tile[32];
  __shared__ UnknownType extra;
  tile[threadIdx.x] = p[threadIdx.x];
  extra = 0;
  p[threadIdx.x] = tile[31 - threadIdx.x];
}

void run(unsigned long long *out, float *p, int planes) {
  // A variable-length array with an initialiser: clang refuses it in C++.
  int offsets[planes] = {0};
  stamp<<<planes, 40>>>(out);
  stamp<<<1, 64>>>(undeclaredBuffer);
  tiled<<<1, 32>>>(p);
}
