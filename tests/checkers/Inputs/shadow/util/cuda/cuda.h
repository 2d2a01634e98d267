// A project header named cuda.h on the include path (as Rodinia's util/cuda/cuda.h): it
// is not the toolkit's and does not define CUDA_VERSION.
#ifndef PROJECT_CUDA_H
#define PROJECT_CUDA_H
#define PROJECT_BLOCK 48
#endif
