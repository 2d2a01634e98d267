// What nvcc refuses in its device pass stays an error: a call with the wrong arguments in
// a host function, a kernel calling a host function, and a device constructor whose
// member's default constructor is a host one.
__device__ int add(int x, int y) { return x + y; }
int host_only(int x) { return x * 2; }

int wrong_arity(int x) {
#ifdef __CUDA_ARCH__
  return add(x);
#else
  return x;
#endif
}

__global__ void calls_host(int *p) { p[threadIdx.x] = host_only(p[threadIdx.x]); }

struct HostMade {
  int v;
  HostMade() : v(1) {}
};
struct Holder {
  HostMade m;
  __device__ Holder() {}
};
__global__ void holds(int *p) { Holder h; p[threadIdx.x] = h.m.v; }

void run(int *p) {
  calls_host<<<1, 48>>>(p);
  holds<<<1, 64>>>(p);
}
