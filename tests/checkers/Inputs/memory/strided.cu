__global__ void strided(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
  out[i] += in[i * 16]; // NOLINT(warplint-uncoalesced-access)
}

__global__ void conflict(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void run(float *a, float *b) {
  strided<<<64, 256>>>(a, b);
  conflict<<<1, dim3(32, 8)>>>(a);
}
