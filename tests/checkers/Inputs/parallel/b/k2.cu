#include "only_b.h"
__global__ void k2(float *p) { p[threadIdx.x] = 0; }
void run2(float *p) { k2<<<1, WIDTH_B>>>(p); }
