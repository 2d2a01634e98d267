// warplint: force-included into HIP parses that use an installed ROCm's own headers.
//
// ROCm 5's hip/amd_detail/amd_hip_fp16.h (hrcp, h2rcp) calls __llvm_amdgcn_rcp_f16 and
// __llvm_amdgcn_rcp_2f16 and leaves their declarations to clang's HIP wrapper headers;
// clang 19's __clang_hip_libdevice_declares.h still declares them, clang 22's does not, so
// every file that includes hip/hip_fp16.h stops with "use of undeclared identifier
// '__llvm_amdgcn_rcp_f16'" (Debian 12 ships ROCm 5.2). Declared here for those headers
// only: the f16 reciprocal is the backend's llvm.amdgcn.rcp.f16 intrinsic, the two-lane
// one applies it to each half. Nothing is declared for ROCm 6 or newer, or older clang.
#ifndef WARPLINT_ROCM5_COMPAT_H
#define WARPLINT_ROCM5_COMPAT_H
#if defined(__HIP__) && defined(__clang_major__) && __clang_major__ >= 20 &&                  \
    __has_include(<hip/hip_version.h>)
#include <hip/hip_version.h>
#if defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR < 6
extern "C" __attribute__((device, const)) _Float16 __llvm_amdgcn_rcp_f16(_Float16)
    __asm("llvm.amdgcn.rcp.f16");
typedef _Float16 __warplint_f16x2 __attribute__((ext_vector_type(2)));
static inline __attribute__((device)) __warplint_f16x2
__llvm_amdgcn_rcp_2f16(__warplint_f16x2 X) {
  return __warplint_f16x2{__llvm_amdgcn_rcp_f16(X.x), __llvm_amdgcn_rcp_f16(X.y)};
}
#endif
#endif
#endif
