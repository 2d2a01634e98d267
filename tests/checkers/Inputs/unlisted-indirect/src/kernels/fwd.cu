// Reached from main.cu through app.h (an angled include found on -I); not in the
// database, and it does not parse alone (WIDTH).
__global__ void forward(float *in) {
  if (threadIdx.x % 2 == 0)
    in[threadIdx.x] = WIDTH;
  else
    in[threadIdx.x + blockDim.x] = -WIDTH;
}
