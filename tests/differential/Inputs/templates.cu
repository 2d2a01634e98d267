// One place, two launches: the launch in a template runs a kernel per instantiation, with
// figures of its own (sm_86, 256 threads: 24 KiB of float keep 4 blocks/SM, 66.7%; 48 KiB
// of double 2 blocks/SM, 33.3%, an occupancy finding). The finding is held against the
// launch of its kernel, not against every launch at its place.
template <typename T> __global__ void stage(T *p) {
  __shared__ T s[6144];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[255 - threadIdx.x];
}

template <typename T> void run(T *p) { stage<<<100, 256>>>(p); }

void both(float *f, double *d) {
  run(f);
  run(d);
}
