// Two headers deep from main.cu.
#include "kernels/deep.cu"
