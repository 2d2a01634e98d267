//===- HipTranslate.h - HIP compile commands as device-side clang parses -*- C++ -*-===//
//
// HIP reaches warplint as hipcc, amdclang++ or `clang++ -x hip` commands (CMake's HIP
// language writes the last), or as a lone .hip file. This turns one such command into the
// clang command of a device-side parse for one AMD architecture, with the wavefront size
// that architecture and the command's -mwavefrontsize64 give.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace warplint::driver {

/// Whether Args (argv[0] first) compiles HIP: hipcc or amdclang++ (directly or through
/// ccache/sccache), `-x hip`, an AMD --offload-arch/--cuda-gpu-arch/--amdgpu-target, or
/// a .hip input.
bool isHipCommand(const std::vector<std::string> &Args);

/// What the translation found and made.
struct HipTranslation {
  std::vector<std::string> Args;     ///< the clang command (argv[0] "clang++")
  std::vector<std::string> GpuArchs; ///< the command's AMD targets, in order ("gfx90a:xnack+")
  std::string Arch;                  ///< the one parsed ("gfx90a", features dropped)
  unsigned WaveSize = 64;            ///< lanes per wavefront of the parse
  bool OwnHeader = false;            ///< parsed with warplint's own HIP header
};

/// Translates a HIP command for the device side of Arch (when empty: the command's first
/// target, else clang's default gfx906). Device libraries are not linked into a parse
/// (-nogpulib); ROCm's headers need __AMDGCN_WAVEFRONT_SIZE, which clang 22 no longer
/// predefines, so it is defined for the parse. When RocmFound is false and the command
/// names no --rocm-path, the parse uses warplint's own header from OwnHeaderDir
/// (-nogpuinc).
HipTranslation translateHipCommand(const std::vector<std::string> &Args, const std::string &Arch,
                                   bool RocmFound, const std::string &OwnHeaderDir);

/// Lanes per wavefront for an AMD architecture name: 64 on GCN/CDNA (gfx9 and older), on
/// RDNA (gfx10 and later) 32, or 64 with -mwavefrontsize64. 0 when Arch is not AMD.
unsigned amdWaveSize(const std::string &Arch, bool Wave64Flag);

/// The ROCm installation whose HIP headers a parse can use: $ROCM_PATH when set (and
/// only it: a ROCM_PATH without include/hip/hip_runtime.h means none), else /opt/rocm,
/// else /usr (Debian's packages). Empty when there is none.
std::string findRocm();

} // namespace warplint::driver
