#include "only_b.h"
__global__ void k0(float *p) { p[threadIdx.x] = 0; }
void run0(float *p) { k0<<<1, WIDTH_B>>>(p); }
