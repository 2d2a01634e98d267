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

inline cudaOccDeviceState referenceState(const KernelResources &K) {
  cudaOccDeviceState S;
  S.carveoutConfig = K.CarveoutPercent;
  return S;
}

inline ReferenceResult referenceOccupancy(const GpuArch &A, const KernelResources &K, int Threads,
                                          uint64_t DynamicSharedBytes) {
  ReferenceResult R;
  cudaOccDeviceProp P = referenceDevice(A);
  cudaOccFuncAttributes F = referenceFunction(K);
  cudaOccDeviceState S = referenceState(K);
  R.Ok = cudaOccMaxActiveBlocksPerMultiprocessor(&R.Result, &P, &F, &S, Threads,
                                                 static_cast<size_t>(DynamicSharedBytes)) ==
         CUDA_OCC_SUCCESS;
  return R;
}

} // namespace warplint::difftest
#endif // WARPLINT_CUDA_OCCUPANCY_H
