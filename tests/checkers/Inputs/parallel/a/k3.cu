#include "only_a.h"
__global__ void k3(float *p) { p[threadIdx.x] = 0; }
void run3(float *p) { k3<<<1, WIDTH_A>>>(p); }
