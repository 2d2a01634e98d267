//===- AmdgpuAsm.h - kernel resources from AMDGPU device assembly -*- C++ -*-===//
//
// clang's AMDGPU backend writes, in the device assembly of a HIP file (`clang -x hip
// --cuda-device-only -S`), each kernel's resource figures twice: in the code object
// metadata (a YAML document between .amdgpu_metadata and .end_amdgpu_metadata, the same
// map the code object's note holds) and in comments after each function, among them the
// backend's own occupancy (`; Occupancy: 8`, waves per SIMD). This reads both.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warplint {

/// One kernel of an AMDGPU assembly file.
struct AmdgpuKernel {
  std::string Name;   ///< .name: the mangled kernel name
  std::string Target; ///< the file's target: "gfx90a" of "amdgcn-amd-amdhsa--gfx90a:xnack-"
  /// .vgpr_count (architectural VGPRs per lane), .agpr_count (accumulation VGPRs per lane,
  /// CDNA; 0 elsewhere), .sgpr_count (SGPRs per wave, VCC/FLAT_SCRATCH/XNACK included).
  int Vgprs = 0, Agprs = 0, Sgprs = 0;
  /// .group_segment_fixed_size: static LDS per workgroup, bytes.
  uint64_t LdsBytes = 0;
  /// .private_segment_fixed_size: scratch per lane, bytes (spills, stack).
  uint64_t PrivateBytes = 0;
  /// .wavefront_size: lanes per wavefront the kernel was compiled for.
  int WaveSize = 64;
  /// .max_flat_workgroup_size: the largest workgroup the compiler allowed for.
  int MaxFlatWorkgroupSize = 0;
  /// VGPR spills (.vgpr_spill_count) and SGPR spills (.sgpr_spill_count), when present.
  int VgprSpills = 0, SgprSpills = 0;
  /// The backend's occupancy comment (`; Occupancy: N`): waves per SIMD; none if absent.
  std::optional<int> BackendOccupancy;
};

/// The kernels of an AMDGPU assembly file, in metadata order. Error is set (and nothing
/// returned) when the text holds no AMDGPU metadata or a kernel entry lacks its counts.
std::vector<AmdgpuKernel> parseAmdgpuAssembly(std::string_view Text, std::string &Error);

/// VGPRs that count for occupancy: on gfx90a/gfx942 (one unified file) the architectural
/// VGPRs rounded up to 4 plus the AGPRs; elsewhere the larger of the two (gfx908 has two
/// separate files; no AGPRs before it). LLVM AMDGPU getTotalNumVGPRs.
int amdgpuOccupancyVgprs(const AmdgpuKernel &K);

} // namespace warplint
