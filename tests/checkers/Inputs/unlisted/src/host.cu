// The translation unit of the database: it includes the kernel file.
#include "backprop.h"
#include "kernel.cu"

void run(float *in) { layerForward<<<1, 40>>>(in); }
