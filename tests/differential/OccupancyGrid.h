//===- OccupancyGrid.h - the configuration grid of the differential tests -*- C++ -*-===//
#pragma once

#include "warplint/core/Occupancy.h"

#include <cstdint>

namespace warplint::difftest {

/// One configuration of the grid.
struct GridConfig {
  const GpuArch *Arch;
  KernelResources Res;
  int Threads;
  uint64_t DynamicSharedBytes;
};

/// Calls F on every configuration: every NVIDIA architecture x block sizes (partial
/// warps, the largest block, over the limit) x registers (around every allocation
/// step that matters) x static and dynamic shared memory (0, granularity edges, the
/// 48 KiB default, past the opt-in maximum) x opt-in off / at the architecture maximum.
/// Coarse (Stride > 1) keeps every Stride-th configuration.
///
/// cc 2.x is left out: cuda_occupancy.h (CUDA 13.0) answers CUDA_OCC_ERROR_UNKNOWN_DEVICE
/// for it (docs/occupancy.md cites the calculator's published figures instead). On cc 3.0
/// registers over 63 are left out: the header allows 255 on every cc 3.x, the hardware
/// (and NVIDIA's calculator) 63, and warplint refuses them.
template <typename Fn> void forEachGridConfig(Fn F, int Stride = 1) {
  static const int Threads[] = {1,   31,  32,  33,  64,  96,  128, 160,  192,  224, 256,
                                288, 320, 384, 416, 512, 640, 768, 1000, 1024, 1025};
  static const int Registers[] = {0,  1,  16, 24, 31, 32,  33,  40,  48,  56,  63,
                                  64, 65, 72, 80, 96, 128, 129, 168, 200, 232, 255};
  static const uint64_t Static[] = {0, 1, 4096, 12345, 24576, 49152};
  static const uint64_t Dynamic[] = {0,     127,   1024,  5000,  10240,  16384,  32768,
                                     40960, 49152, 65536, 99000, 101376, 164864, 232448};
  long long Index = 0;
  for (const GpuArch &A : allArchs()) {
    if (!A.isNvidia() || A.Major < 3)
      continue;
    for (int Optin = 0; Optin < 2; ++Optin)
      for (uint64_t St : Static)
        for (int Regs : Registers)
          for (int T : Threads)
            for (uint64_t Dyn : Dynamic) {
              if (Regs > A.MaxRegistersPerThread && A.Legacy)
                continue;
              if (Index++ % Stride)
                continue;
              GridConfig C{&A, KernelResources{}, T, Dyn};
              C.Res.RegistersPerThread = Regs;
              C.Res.StaticSharedBytes = St;
              // The runtime's opt-in may go up to the maximum minus static memory.
              if (Optin && uint64_t(A.SharedPerBlockOptinBytes) > St)
                C.Res.OptinDynamicSharedBytes = A.SharedPerBlockOptinBytes - St;
              else if (Optin)
                continue;
              F(C);
            }
  }
}

} // namespace warplint::difftest
