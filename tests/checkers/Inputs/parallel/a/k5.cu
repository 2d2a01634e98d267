#include "only_a.h"
__global__ void k5(float *p) { p[threadIdx.x] = 0; }
void run5(float *p) { k5<<<1, WIDTH_A>>>(p); }
