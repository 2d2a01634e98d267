#include "only_b.h"
__global__ void k5(float *p) { p[threadIdx.x] = 0; }
void run5(float *p) { k5<<<1, WIDTH_B>>>(p); }
