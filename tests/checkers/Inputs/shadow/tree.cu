// The project's own #include "cuda.h" finds util/cuda/cuda.h (-I util/cuda); clang's
// CUDA wrapper must still get the toolkit's cuda.h, as nvcc, which never includes cuda.h
// on its own, compiles this file.
#include "cuda.h"

#ifndef PROJECT_CUDA_H
#error "the project's cuda.h was not included"
#endif

__global__ void findK(int *keys) { keys[threadIdx.x] = 0; }

void run(int *keys) { findK<<<8, PROJECT_BLOCK>>>(keys); }
