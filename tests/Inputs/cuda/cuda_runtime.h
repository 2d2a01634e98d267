// warplint's own minimal CUDA runtime header for hermetic checker tests.
// Parse with: -nocudainc -nocudalib -isystem tests/Inputs/cuda -include cuda_runtime.h
// It declares just enough of the CUDA runtime API for launches, shared memory and the
// function attributes to type-check; it is not the toolkit's header.
#pragma once

// nvcc's --extended-lambda, as warplint passes it (driver/compdb/NvccTranslate.cpp,
// nvccCompatArgs): defined here as warplint_cuda_compat.h does for a real toolkit.
#if defined(__WARPLINT_CUDACC_EXTENDED_LAMBDA__) && !defined(__CUDACC_EXTENDED_LAMBDA__)
#define __CUDACC_EXTENDED_LAMBDA__ 1
#endif

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict

#include <stddef.h>

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

#include <__clang_cuda_builtin_vars.h>

// The vector types with the toolkit's sizes and alignments (8 and 16 bytes).
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(16) double2 { double x, y; };

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorLaunchOutOfResources = 701 };
typedef enum cudaError cudaError_t;

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};

enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice, cudaMemcpyDefault };

enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4,
};
union cudaLaunchAttributeValue {
  int cooperative;
  struct { unsigned int x, y, z; } clusterDim;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
};

extern "C" {
__host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache cacheConfig);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                 dim3 blockDim, void **args,
                                                 size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                         void **args);
// Device-side launches (dynamic parallelism, -fgpu-rdc) lower to these.
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDim,
                                        dim3 blockDim, unsigned int sharedMem,
                                        cudaStream_t stream);
__host__ __device__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                         size_t sharedMem = 0,
                                                         cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                                  size_t sharedMem = 0,
                                                  cudaStream_t stream = 0);
}

template <class T>
static __host__ cudaError_t cudaFuncSetAttribute(T *entry, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static __host__ cudaError_t cudaFuncSetCacheConfig(T *func, cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
static __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __host__ cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                        void **args, size_t sharedMem = 0,
                                                        cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem,
                                     stream);
}
template <typename... ExpTypes, typename... ActTypes>
static __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                               void (*kernel)(ExpTypes...),
                                               ActTypes &&...args) {
  void *pArgs[sizeof...(ExpTypes) + 1] = {(void *)&args...};
  return cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
}

__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __shfl_sync(unsigned mask, int var, int srcLane, int width = 32);
__device__ int __shfl_down_sync(unsigned mask, int var, unsigned delta, int width = 32);
__device__ float __shfl_down_sync(unsigned mask, float var, unsigned delta, int width = 32);
__device__ int atomicAdd(int *address, int val);
__device__ float atomicAdd(float *address, float val);
__device__ int atomicMax(int *address, int val);
__device__ void __threadfence_block(void);
// The read-only and cache-hint loads (a load at the pointer argument).
__device__ float __ldg(const float *ptr);
__device__ int __ldg(const int *ptr);
__device__ float __ldcg(const float *ptr);
__device__ int __ldcg(const int *ptr);
__device__ float __ldcs(const float *ptr);
__device__ int __ldcs(const int *ptr);

// Barriers and warp-synchronous intrinsics (warplint-barrier-divergence and
// warplint-warp-sync-mask tests); __syncthreads() is clang's builtin.
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __barrier_sync(unsigned id);
__device__ int __all_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __uni_sync(unsigned mask, int pred);
__device__ float __shfl_sync(unsigned mask, float var, int srcLane, int width = 32);
__device__ int __shfl_up_sync(unsigned mask, int var, unsigned delta, int width = 32);
__device__ float __shfl_up_sync(unsigned mask, float var, unsigned delta, int width = 32);
__device__ int __shfl_xor_sync(unsigned mask, int var, int laneMask, int width = 32);
__device__ float __shfl_xor_sync(unsigned mask, float var, int laneMask, int width = 32);
// The maskless warp intrinsics (before CUDA 9; nvcc 13 declares them below sm_70 only).
__device__ int __shfl(int var, int srcLane, int width = 32);
__device__ int __shfl_xor(int var, int laneMask, int width = 32);
__device__ int __shfl_down(int var, unsigned delta, int width = 32);
__device__ unsigned __ballot(int pred);
__device__ int __any(int pred);
__device__ unsigned __match_any_sync(unsigned mask, int value);
__device__ unsigned __match_all_sync(unsigned mask, int value, int *pred);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ int __reduce_max_sync(unsigned mask, int value);
