// Does not parse (for the check-cli and report-cli tests): clang stops at the missing
// header, so nothing of the file is analysed (errors clang recovers from are
// check-errors-recovered.test's).
#include "no_such_header.h"
__global__ void broken(float *Out) { Out[threadIdx.x] = undeclaredThing; }
