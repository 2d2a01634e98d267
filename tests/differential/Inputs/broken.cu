// A file that does not parse, with launches the checks would quote figures for: clang's
// error is all a failed file reports (its launches are not in the json either). Real
// code had both (cuda-samples' cudaGraphPerfScaling.cu: an inline-asm '%globaltimer'
// clang refuses, and `empty<<<1, 1>>>` launches with 33.3% occupancy findings).
__global__ void empty() {}

__global__ void tiny(float *p) {
  if (threadIdx.x % 2 == 0)
    p[threadIdx.x] = 1;
}

void run(float *p) {
  empty<<<1, 1>>>();
  tiny<<<100, 64>>>(p);
}

#include "no_such_header.h" // a fatal error: the file fails (recoverable errors are
                            // "analysed with errors" instead)
