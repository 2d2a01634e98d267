// A kernel with no launch in its file: the checks analyse it for the assumed block.
__global__ void oddLanes(float *a) {
  if (threadIdx.x % 2)
    a[threadIdx.x * 4] = 1.0f;
  else
    a[threadIdx.x * 4 + 1] = 2.0f;
}
