#include "only_a.h"
__global__ void k4(float *p) { p[threadIdx.x] = 0; }
void run4(float *p) { k4<<<1, WIDTH_A>>>(p); }
