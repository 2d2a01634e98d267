// A device function and no kernel.
__device__ float twice(float X) { return X * 2; }
