// nvcc compiles a .cu twice, for the host without __CUDA_ARCH__ and for the device with
// it; a header that makes its functions __device__ only where __CUDA_ARCH__ is defined
// (InfiniTAM's ORUtils: _CPU_AND_GPU_CODE_) gives each pass the functions it needs. clang
// reads the file once, with __CUDA_ARCH__, so the host code names device-only functions:
// a constructor, an operator, a call operator, a member's default constructor.
#include <cuda_runtime.h>
#ifdef __CUDA_ARCH__
#define CPU_AND_GPU __device__
#else
#define CPU_AND_GPU
#endif

struct Vec2 {
  int x, y;
  CPU_AND_GPU Vec2() : x(0), y(0) {}
  CPU_AND_GPU Vec2(int a, int b) : x(a), y(b) {}
  CPU_AND_GPU Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }
  CPU_AND_GPU int operator()(int k) const { return x * k + y; }
};

struct Image {
  Vec2 dims;
  int *data;
  Image(int *d) : data(d) {}
};

int hostArea(int *d, int w, int h) {
  Image im(d);
  Vec2 a(w, h), b(1, 1);
  Vec2 c = a + b;
  return c(2) + im.dims.x;
}

__global__ void fill(int *out, int w) {
  Vec2 v(w, 2);
  out[threadIdx.x] = (v + Vec2(1, 1))(3);
}

void launchFill(int *out, int w) { fill<<<1, 48>>>(out, w + hostArea(out, w, 2)); }
