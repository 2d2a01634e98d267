// Reached from main.cu through app.h and nested.h.
__global__ void deep(float *in) {
  if (threadIdx.x % 3 == 0)
    in[threadIdx.x] = WIDTH;
  else
    in[threadIdx.x + blockDim.x] = -WIDTH;
}
