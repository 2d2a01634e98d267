// A missing header stops clang: the rest of the file is never seen, the file fails.
#include "not_there.h"
__global__ void k(float *p) { p[threadIdx.x] = 0; }
void run(float *p) { k<<<1, 40>>>(p); }
