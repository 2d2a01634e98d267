// sync-note-findings.test: launches with a run-time x and y fixed at 16.

// Half of each row: every width splits a warp (a warning).
__global__ void halfRow(float *out, const float *in, int n) {
  float v = in[threadIdx.y * blockDim.x + threadIdx.x];
  if (threadIdx.x < 8) {
    out[threadIdx.x] = v;
    __syncwarp();
  }
}

// Row 0: half a warp in the assumed 16x16 block, whole warps when x is a warp (a note),
// after a strided load (an uncoalesced-access warning).
__global__ void rowZero(float *out, const float *in, int n) {
  float v = in[(threadIdx.y * blockDim.x + threadIdx.x) * 32];
  if (threadIdx.y == 0) {
    out[threadIdx.x] = v;
    __syncwarp();
  }
}

void launch(float *o, const float *i, int n, int warpSize) {
  dim3 thrds(warpSize, 16);
  rowZero<<<n, thrds>>>(o, i, n);
  halfRow<<<n, thrds>>>(o, i, n);
}
