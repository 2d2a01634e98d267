// Findings for the launcher test: an odd/even branch and a block that is not a warp multiple.
__global__ void oddEven(float *Out) {
  unsigned Tid = threadIdx.x;
  if (Tid % 2 == 0)
    Out[Tid] = 1.0f;
  else
    Out[Tid] = 2.0f;
}

void launchOddEven(float *Out) { oddEven<<<64, 100>>>(Out); }
