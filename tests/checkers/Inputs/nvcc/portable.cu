// A file that picks CUDA or HIP by the compiler, as portable code does: nvcc defines
// __NVCC__, and without it the file asks for the HIP headers.
#ifdef __NVCC__
#include <cuda_runtime.h>
#define HOST_DEVICE __host__ __device__
#else
#include <hip/hip_runtime.h>
#define HOST_DEVICE
#endif

#if __CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__ < 1102
#error "nvcc 11.2 or newer"
#endif

// The functor is callable on the device only under nvcc.
struct Scale {
  float F;
  HOST_DEVICE float operator()(float X) const { return X * F; }
};

__global__ void scale(float *Out, const float *In, Scale S) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = S(In[I]);
}

void run(float *Out, const float *In) { scale<<<64, 48>>>(Out, In, Scale{2.0f}); }
