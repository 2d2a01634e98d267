// warplint's own minimal HIP runtime header, for HIP files when ROCm is not installed and
// for the hermetic checker tests.
// Parse with: -x hip --cuda-device-only --offload-arch=gfxNNN -nogpuinc -nogpulib
//             -isystem tests/Inputs/hip -include hip/hip_runtime.h
// It declares just enough of the HIP runtime API for launches, LDS and the kernel
// attributes to type-check; it is not ROCm's header. The built-in variables read the
// work-item registers through clang's AMDGPU builtins, so a kernel compiled against this
// header without ROCm's device libraries gets the register counts it would get with them.
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
// As ROCm spells it: the first argument bounds the flat work-group size, the second
// asks for a minimum of waves per execution unit (SIMD).
#define __warplint_lb1(MaxThreads) __attribute__((amdgpu_flat_work_group_size(1, MaxThreads)))
#define __warplint_lb2(MaxThreads, MinWaves)                                                \
  __attribute__((amdgpu_flat_work_group_size(1, MaxThreads), amdgpu_waves_per_eu(MinWaves)))
#define __warplint_lb_pick(_1, _2, Impl, ...) Impl
#define __launch_bounds__(...)                                                              \
  __warplint_lb_pick(__VA_ARGS__, __warplint_lb2, __warplint_lb1, )(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];

#include <stddef.h>
#include <stdint.h>

#ifdef __AMDGCN_WAVEFRONT_SIZE
static constexpr int warpSize = __AMDGCN_WAVEFRONT_SIZE;
#else
#define warpSize (__builtin_amdgcn_wavefrontsize())
#endif

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

// threadIdx.x and friends: properties read through AMDGPU builtins.
#define __WARPLINT_HIP_BUILTIN(Type, X, Y, Z)                                               \
  struct Type {                                                                             \
    static __device__ __forceinline__ unsigned int __get_x() { return X; }                  \
    static __device__ __forceinline__ unsigned int __get_y() { return Y; }                  \
    static __device__ __forceinline__ unsigned int __get_z() { return Z; }                  \
    __declspec(property(get = __get_x)) unsigned int x;                                     \
    __declspec(property(get = __get_y)) unsigned int y;                                     \
    __declspec(property(get = __get_z)) unsigned int z;                                     \
  }
__WARPLINT_HIP_BUILTIN(__warplint_hip_threadIdx_t, __builtin_amdgcn_workitem_id_x(),
                       __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z());
__WARPLINT_HIP_BUILTIN(__warplint_hip_blockIdx_t, __builtin_amdgcn_workgroup_id_x(),
                       __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z());
__WARPLINT_HIP_BUILTIN(__warplint_hip_blockDim_t, __builtin_amdgcn_workgroup_size_x(),
                       __builtin_amdgcn_workgroup_size_y(), __builtin_amdgcn_workgroup_size_z());
__WARPLINT_HIP_BUILTIN(__warplint_hip_gridDim_t,
                       __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
                       __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
                       __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z());
#undef __WARPLINT_HIP_BUILTIN
extern const __device__ __attribute__((weak)) __warplint_hip_threadIdx_t threadIdx;
extern const __device__ __attribute__((weak)) __warplint_hip_blockIdx_t blockIdx;
extern const __device__ __attribute__((weak)) __warplint_hip_blockDim_t blockDim;
extern const __device__ __attribute__((weak)) __warplint_hip_gridDim_t gridDim;

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;

enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorOutOfMemory = 2 };

enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum hipMemcpyKind { hipMemcpyHostToHost, hipMemcpyHostToDevice, hipMemcpyDeviceToHost,
                     hipMemcpyDeviceToDevice, hipMemcpyDefault };

struct hipLaunchAttribute {
  int id;
  int val;
};
struct hipLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  hipStream_t stream;
  hipLaunchAttribute *attrs;
  unsigned int numAttrs;
};

extern "C" {
__host__ hipError_t hipMalloc(void **ptr, size_t size);
__host__ hipError_t hipFree(void *ptr);
__host__ hipError_t hipMemcpy(void *dst, const void *src, size_t count, hipMemcpyKind kind);
__host__ hipError_t hipDeviceSynchronize(void);
__host__ hipError_t hipGetLastError(void);
__host__ hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value);
__host__ hipError_t hipLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, hipStream_t stream);
__host__ hipError_t hipLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                               void **args, unsigned int sharedMem,
                                               hipStream_t stream);
__host__ hipError_t hipLaunchKernelExC(const hipLaunchConfig_t *config, const void *func,
                                       void **args);
__host__ hipError_t hipExtLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem, hipStream_t stream,
                                       hipEvent_t startEvent, hipEvent_t stopEvent, int flags);
// The triple-chevron launch lowers to these.
__host__ __device__ hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                          size_t sharedMem = 0,
                                                          hipStream_t stream = 0);
__host__ __device__ hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0, hipStream_t stream = 0);
}

template <class T>
static __host__ hipError_t hipFuncSetAttribute(T *entry, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static __host__ hipError_t hipLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, hipStream_t stream = 0) {
  return hipLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __host__ hipError_t hipLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                      void **args, unsigned int sharedMem = 0,
                                                      hipStream_t stream = 0) {
  return hipLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem,
                                    stream);
}
template <typename... ExpTypes, typename... ActTypes>
static __host__ hipError_t hipLaunchKernelEx(const hipLaunchConfig_t *config,
                                             void (*kernel)(ExpTypes...), ActTypes &&...args) {
  void *pArgs[sizeof...(ExpTypes) + 1] = {(void *)&args...};
  return hipLaunchKernelExC(config, (const void *)kernel, pArgs);
}
// ROCm's template form (HIP_TEMPLATE_KERNEL_LAUNCH; newer ROCm always): a function call.
template <typename... Args, typename F = void (*)(Args...)>
static __host__ void hipLaunchKernelGGL(F kernel, const dim3 &numBlocks, const dim3 &dimBlocks,
                                        uint32_t sharedMemBytes, hipStream_t stream,
                                        Args... args) {
  void *pArgs[sizeof...(Args) + 1] = {(void *)&args...};
  hipLaunchKernel((const void *)kernel, numBlocks, dimBlocks, pArgs, sharedMemBytes, stream);
}
template <typename... Args, typename F = void (*)(Args...)>
static __host__ void hipExtLaunchKernelGGL(F kernel, const dim3 &numBlocks,
                                           const dim3 &dimBlocks, uint32_t sharedMemBytes,
                                           hipStream_t stream, hipEvent_t startEvent,
                                           hipEvent_t stopEvent, uint32_t flags, Args... args) {
  void *pArgs[sizeof...(Args) + 1] = {(void *)&args...};
  hipExtLaunchKernel((const void *)kernel, numBlocks, dimBlocks, pArgs, sharedMemBytes, stream,
                     startEvent, stopEvent, (int)flags);
}

static __device__ __forceinline__ void __syncthreads() { __builtin_amdgcn_s_barrier(); }
__device__ int __shfl(int var, int srcLane, int width = warpSize);
__device__ int __shfl_down(int var, unsigned int delta, int width = warpSize);
__device__ float __shfl_down(float var, unsigned int delta, int width = warpSize);
__device__ int __shfl_xor(int var, int laneMask, int width = warpSize);
__device__ unsigned long long __ballot(int predicate);
__device__ int atomicAdd(int *address, int val);
__device__ float atomicAdd(float *address, float val);
