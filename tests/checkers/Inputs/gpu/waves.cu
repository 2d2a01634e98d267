// Input of check-gpu.test: a launch of one third of an H100's wave, and a cluster launch.
__global__ void kernel(float *p) { p[threadIdx.x] = 0; }
__global__ void __cluster_dims__(2, 1, 1) paired(float *p) { p[threadIdx.x] = 0; }

void run(float *p) {
  kernel<<<132, 640>>>(p);
  paired<<<396, 640>>>(p);
}
