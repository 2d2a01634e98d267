// A transpose through a shared tile: the column read is a 32-way bank conflict that one
// element of padding per row removes (warplint-shared-bank-conflict's fix-it), and a
// strided global load (no fix-it).
__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void strided(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x * 32];
}

void launch(float *a, const float *b) {
  transpose<<<1, dim3(32, 32)>>>(a, b);
  strided<<<64, 128>>>(a, b);
}
