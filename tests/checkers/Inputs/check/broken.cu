// Does not parse (for the check-cli test).
__global__ void broken(float *Out) { Out[threadIdx.x] = undeclaredThing; }
