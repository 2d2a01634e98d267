#include "kernel.cuh"
void run(float *o) { k<<<1, 256>>>(o); }
