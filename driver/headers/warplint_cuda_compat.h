// warplint_cuda_compat.h: force-included (-include) by warplint into every parse that
// uses a real CUDA toolkit's headers, after clang's own CUDA runtime wrapper.
//
// clang-22's CUDA wrappers lag behind what nvcc accepts in two places that real code
// (cuda-samples, llm.c, ggml) leans on, and a file that does not parse gets no analysis:
//   - the cache-hinted global stores __stcs, __stcg and __stwb (clang declares only
//     __stwt), and the cache-hinted loads __ldca and __ldlu (clang declares __ldcg,
//     __ldcs and __ldcv; AMGX's sm_utils.inl calls all five), for the built-in scalar
//     and vector types;
//   - min and max called from host code: nvcc's math headers make them __host__
//     __device__, clang's wrapper keeps them device-only.
//   - the C and C++ headers that nvcc's cuda_runtime.h includes on its own (<time.h>,
//     <math.h>, <cmath>, <string.h>, ...): host code that calls clock() or isfinite()
//     without including them compiles with nvcc, and clang would only see the device
//     overloads.
// The declarations below exist only for the analysis: warplint never generates code from
// them, so the stores are plain assignments. They are left out of any compile that is not
// clang parsing CUDA (__clang__ and __CUDA__: nvcc defines neither for device code), and
// out of clang versions newer than the one they were written for.
// A file nvcc builds (warplint defines __NVCC__ for those: driver/compdb/NvccTranslate.h) sees
// __CUDACC__ as 1, as nvcc predefines it; clang's wrapper leaves it defined empty, so
// `#if __CUDACC__` would be an error. Redefined here, after the wrapper.
#ifndef WARPLINT_CUDA_COMPAT_H
#define WARPLINT_CUDA_COMPAT_H

// nvcc's --extended-lambda defines __CUDACC_EXTENDED_LAMBDA__. warplint passes it as
// __WARPLINT_CUDACC_EXTENDED_LAMBDA__ and defines it here, after clang's wrapper: under it
// the toolkit's cuda_runtime.h includes <functional>, and read from the wrapper, before the
// wrapper declares the device malloc and free, clang's <new> binds the host ones in its
// device operator new (an error wherever device code calls new).
#if defined(__WARPLINT_CUDACC_EXTENDED_LAMBDA__) && !defined(__CUDACC_EXTENDED_LAMBDA__)
#define __CUDACC_EXTENDED_LAMBDA__ 1
#endif
// What cuda_runtime.h reads under it, read here, after the wrapper: code built with
// --extended-lambda may use what <functional> brings (libstdc++'s includes <unordered_map>
// in C++17: BGHT's histogram example uses std::unordered_map with no include of its own,
// and nvcc compiles it).
#if defined(__WARPLINT_CUDACC_EXTENDED_LAMBDA__) && defined(__cplusplus)
#include <functional>
#include <utility>
#endif

#if defined(__clang__) && defined(__CUDA__) && defined(__NVCC__)
#undef __CUDACC__
#define __CUDACC__ 1
// The toolkit's own headers ask __NVCC__ which compiler they are in: CCCL's compiler
// detection (cuda/std/__cccl/compiler.h, whence _CCCL_CUDA_COMPILER(NVCC) or (CLANG) for
// libcu++, CUB and Thrust), <nv/target>. They must
// see clang, whose builtins and wrappers this parse has (with __NVCC__ CCCL redeclares
// clang's device __assert_fail as __host__ __device__ under NDEBUG, an error). So they are
// read here once, under their include guards, with __NVCC__ hidden; the user's code,
// read after, sees it. So is a host compiler's name a build defines for its own headers
// (RELION passes -D__INTEL_COMPILER to hide fftw3.h's __float128 from nvcc): CCCL would
// take the host compiler for Intel's, not clang, and find no CUDA compiler it knows.
#pragma push_macro("__NVCC__")
#undef __NVCC__
#pragma push_macro("__INTEL_COMPILER")
#undef __INTEL_COMPILER
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#if __has_include(<nv/target>)
#include <nv/target>
#endif
// Cooperative groups' info.h is not read here (it was until the thirtieth session): read
// early, it declared libcu++'s `namespace cuda` before the user's code, so CV-CUDA's
// `namespace cuda = nvcv::cuda;` was a redefinition nvcc never sees, and read with
// __NVCC__ hidden it left out the cluster group (`cg::this_cluster()`), which clang 22
// parses under __NVCC__ as nvcc does.
#pragma pop_macro("__INTEL_COMPILER")
#pragma pop_macro("__NVCC__")
#endif

#if defined(__clang__) && defined(__CUDA__) && __clang_major__ <= 22

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __cplusplus
#include <cmath>
#include <cstdlib>
#include <new>
#endif

#define WARPLINT_COMPAT_STORE(T)                                                           \
  static __device__ __inline__ void __stcs(T *__p, T __v) { *__p = __v; }                  \
  static __device__ __inline__ void __stcg(T *__p, T __v) { *__p = __v; }                  \
  static __device__ __inline__ void __stwb(T *__p, T __v) { *__p = __v; }                  \
  static __device__ __inline__ T __ldca(const T *__p) { return *__p; }                     \
  static __device__ __inline__ T __ldlu(const T *__p) { return *__p; }

WARPLINT_COMPAT_STORE(char)
WARPLINT_COMPAT_STORE(signed char)
WARPLINT_COMPAT_STORE(short)
WARPLINT_COMPAT_STORE(int)
WARPLINT_COMPAT_STORE(long)
WARPLINT_COMPAT_STORE(long long)
WARPLINT_COMPAT_STORE(unsigned char)
WARPLINT_COMPAT_STORE(unsigned short)
WARPLINT_COMPAT_STORE(unsigned int)
WARPLINT_COMPAT_STORE(unsigned long)
WARPLINT_COMPAT_STORE(unsigned long long)
WARPLINT_COMPAT_STORE(float)
WARPLINT_COMPAT_STORE(double)
WARPLINT_COMPAT_STORE(char2)
WARPLINT_COMPAT_STORE(char4)
WARPLINT_COMPAT_STORE(short2)
WARPLINT_COMPAT_STORE(short4)
WARPLINT_COMPAT_STORE(int2)
WARPLINT_COMPAT_STORE(int4)
WARPLINT_COMPAT_STORE(longlong2)
WARPLINT_COMPAT_STORE(uchar2)
WARPLINT_COMPAT_STORE(uchar4)
WARPLINT_COMPAT_STORE(ushort2)
WARPLINT_COMPAT_STORE(ushort4)
WARPLINT_COMPAT_STORE(uint2)
WARPLINT_COMPAT_STORE(uint4)
WARPLINT_COMPAT_STORE(ulonglong2)
WARPLINT_COMPAT_STORE(float2)
WARPLINT_COMPAT_STORE(float4)
WARPLINT_COMPAT_STORE(double2)
#undef WARPLINT_COMPAT_STORE

// Host min/max with the argument pairs nvcc's headers accept; mixed signedness widens to
// the unsigned type, as nvcc's do.
#define WARPLINT_COMPAT_MINMAX(R, A, B)                                                    \
  static __host__ __inline__ R min(A __a, B __b) {                                         \
    return static_cast<R>(__a) < static_cast<R>(__b) ? static_cast<R>(__a)                 \
                                                     : static_cast<R>(__b);                \
  }                                                                                        \
  static __host__ __inline__ R max(A __a, B __b) {                                         \
    return static_cast<R>(__a) > static_cast<R>(__b) ? static_cast<R>(__a)                 \
                                                     : static_cast<R>(__b);                \
  }

WARPLINT_COMPAT_MINMAX(int, int, int)
WARPLINT_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
WARPLINT_COMPAT_MINMAX(unsigned int, int, unsigned int)
WARPLINT_COMPAT_MINMAX(unsigned int, unsigned int, int)
WARPLINT_COMPAT_MINMAX(long, long, long)
WARPLINT_COMPAT_MINMAX(unsigned long, unsigned long, unsigned long)
WARPLINT_COMPAT_MINMAX(unsigned long, long, unsigned long)
WARPLINT_COMPAT_MINMAX(unsigned long, unsigned long, long)
WARPLINT_COMPAT_MINMAX(long long, long long, long long)
WARPLINT_COMPAT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
WARPLINT_COMPAT_MINMAX(unsigned long long, long long, unsigned long long)
WARPLINT_COMPAT_MINMAX(unsigned long long, unsigned long long, long long)
WARPLINT_COMPAT_MINMAX(float, float, float)
WARPLINT_COMPAT_MINMAX(double, double, double)
WARPLINT_COMPAT_MINMAX(double, float, double)
WARPLINT_COMPAT_MINMAX(double, double, float)
#undef WARPLINT_COMPAT_MINMAX

#endif
#endif // WARPLINT_CUDA_COMPAT_H
