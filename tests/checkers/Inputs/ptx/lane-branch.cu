#include "lane.h"
__global__ void k(float *p) {
  float v = p[threadIdx.x];
  if (lane() % 2 == 0)
    v = v * v + p[threadIdx.x + 64];
  p[threadIdx.x] = v;
}
void go(float *p) { k<<<1, 64>>>(p); }
