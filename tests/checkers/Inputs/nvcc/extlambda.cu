// Compiles with nvcc 13 -std=c++17 -arch=sm_80 --extended-lambda -rdc=true (cuda-samples'
// newdelete.cu does the same: new and delete in device code, built with --extended-lambda).
#ifndef __CUDACC_EXTENDED_LAMBDA__
#error "build with --extended-lambda"
#endif

struct Box {
  int *data;
  __device__ explicit Box(int n) : data(new int[n]) {}
  __device__ ~Box() { delete[] data; }
};

__global__ void makeBoxes(Box **out, int n) {
  out[threadIdx.x] = new Box(n);
}

void run(Box **out, int n) { makeBoxes<<<1, 48>>>(out, n); }
