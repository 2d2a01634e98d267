// warplint-data-race: a pointer loaded from an array of pointers points to another object
// than the array (issue 23, magma's batched kernels: `ipiv = ipiv_array[batchid]`, then
// `ipiv[i] = ...`): a read of the table and a write through the pointer it holds do not race.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// Every thread reads the table's slot; each writes its own element of the pivot vector.
// Silent.
__global__ void writePivots(int **ipiv_array, const int *src, int n) {
  int *ipiv = ipiv_array[blockIdx.x];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    ipiv[i] = src[i] + 1;
}

// Through the same loaded pointer, every thread writes element 0: a race on the pointee.
__global__ void sameElement(int **ipiv_array) {
  int *ipiv = ipiv_array[blockIdx.x];
  ipiv[0] = threadIdx.x;
  // CHECK: :[[@LINE-1]]:3: warning: data race on global {{.*}}ipiv_array[blockIdx.x]
  // CHECK: note:
  // CHECK: note:
}

// The table itself written by one thread and read by the others with no barrier: a race
// on the table.
__global__ void tableRace(int **ipiv_array, int *other) {
  if (threadIdx.x == 0)
    ipiv_array[blockIdx.x] = other;
  int *ipiv = ipiv_array[blockIdx.x];
  // CHECK: :[[@LINE-1]]:15: warning: data race on global 'ipiv_array
  // CHECK: note:
  // CHECK: note:
  ipiv[threadIdx.x] = 1;
}

void launchAll(int **t, const int *src, int *o, int n) {
  writePivots<<<4, 128>>>(t, src, n);
  sameElement<<<4, 128>>>(t);
  tableRace<<<4, 128>>>(t, o);
}
