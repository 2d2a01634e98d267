// warplint lsp e2e input: does not parse.
#include <cuda_runtime.h>

__global__ void broken(float *Data) {
  Data[threadIdx.x] = undeclaredName;
}
#include "no_such_header.h"
