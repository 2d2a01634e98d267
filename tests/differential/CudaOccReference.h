//===- CudaOccReference.h - NVIDIA's cuda_occupancy.h as a test oracle -*- C++ -*-===//
//
// Wraps the installed toolkit's header (never a copy: the build passes its absolute
// path as WARPLINT_CUDA_OCCUPANCY_H) so the differential tests can ask it the same
// questions as warplint's model, with device properties filled from our arch table.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "warplint/core/Occupancy.h"

#include <climits>
#include <cstring>

#ifdef WARPLINT_CUDA_OCCUPANCY_H
#include WARPLINT_CUDA_OCCUPANCY_H

namespace warplint::difftest {

/// The oracle's answer for one configuration.
struct ReferenceResult {
  bool Ok = false; ///< the header returned CUDA_OCC_SUCCESS
  cudaOccResult Result{};
};

inline cudaOccDeviceProp referenceDevice(const GpuArch &A, int SmCount = 68) {
  cudaOccDeviceProp P;
  P.computeMajor = A.Major;
  P.computeMinor = A.Minor;
  P.maxThreadsPerBlock = A.MaxThreadsPerBlock;
  P.maxThreadsPerMultiprocessor = A.MaxWarpsPerSm * A.WarpSize;
  P.regsPerBlock = A.RegistersPerBlock;
  P.regsPerMultiprocessor = A.RegistersPerSm;
  P.warpSize = A.WarpSize;
  P.sharedMemPerBlock = static_cast<size_t>(A.SharedPerBlockBytes);
  P.sharedMemPerMultiprocessor = static_cast<size_t>(A.SharedPerSmBytes);
  P.numSms = SmCount;
  P.sharedMemPerBlockOptin = static_cast<size_t>(A.SharedPerBlockOptinBytes);
  P.reservedSharedMemPerBlock = static_cast<size_t>(A.ReservedSharedPerBlockBytes);
  return P;
}

/// Function attributes as the runtime fills them: one block barrier; the opt-in
/// attribute selects FUNC_SHMEM_LIMIT_OPTIN with that maximum dynamic size.
inline cudaOccFuncAttributes referenceFunction(const KernelResources &K) {
  cudaOccFuncAttributes F;
  F.maxThreadsPerBlock = K.LaunchBoundsMaxThreads > 0 ? K.LaunchBoundsMaxThreads : INT_MAX;
  F.numRegs = K.RegistersPerThread;
  F.sharedSizeBytes = static_cast<size_t>(K.StaticSharedBytes);
  F.partitionedGCConfig = PARTITIONED_GC_OFF;
  F.shmemLimitConfig =
      K.OptinDynamicSharedBytes > 0 ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
  F.maxDynamicSharedSizeBytes = static_cast<size_t>(K.OptinDynamicSharedBytes);
  F.numBlockBarriers = K.Barriers;
  F.virtualResourceCount = K.VirtualResources;
  return F;
}

/// The carveout (cc 7.0 on), or on cc 3.x the shared/L1 split as the cache config that
/// selects it: the largest split is PREFER_SHARED, the smallest PREFER_L1, the middle one
/// PREFER_EQUAL.
inline cudaOccDeviceState referenceState(const KernelResources &K, const GpuArch *A = nullptr) {
  cudaOccDeviceState S;
  S.carveoutConfig = K.CarveoutPercent;
  if (A && A->NumSharedSplits > 0 && K.SharedSplitBytes != 0) {
    const uint64_t Low = uint64_t(A->SharedSplitsKiB[0]) * 1024;
    const uint64_t High = uint64_t(A->SharedSplitsKiB[A->NumSharedSplits - 1]) * 1024;
    S.cacheConfig = K.SharedSplitBytes == High  ? CACHE_PREFER_SHARED
                    : K.SharedSplitBytes == Low ? CACHE_PREFER_L1
                                                : CACHE_PREFER_EQUAL;
  }
  return S;
}

inline ReferenceResult referenceOccupancy(const GpuArch &A, const KernelResources &K, int Threads,
                                          uint64_t DynamicSharedBytes) {
  ReferenceResult R;
  cudaOccDeviceProp P = referenceDevice(A);
  cudaOccFuncAttributes F = referenceFunction(K);
  cudaOccDeviceState S = referenceState(K, &A);
  R.Ok = cudaOccMaxActiveBlocksPerMultiprocessor(&R.Result, &P, &F, &S, Threads,
                                                 static_cast<size_t>(DynamicSharedBytes)) ==
         CUDA_OCC_SUCCESS;
  return R;
}

} // namespace warplint::difftest
#endif // WARPLINT_CUDA_OCCUPANCY_H
