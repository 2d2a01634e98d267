// A kernel whose branch splits every warp (check-cli); its arms compute from memory.
__global__ void oddEven(float *Out) {
  unsigned Tid = threadIdx.x;
  if (Tid % 2 == 0)
    Out[Tid] *= 2.0f;
  else
    Out[Tid] += 1.0f;
}
void launch(float *Out) { oddEven<<<8, 128>>>(Out); }
