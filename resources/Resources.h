//===- Resources.h - per-kernel register/shared figures from ptxas, objects, nvcc -*- C++ -*-===//
#pragma once

#include "warplint/core/AmdgpuAsm.h"
#include "warplint/core/Occupancy.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// Where a kernel's resource figures came from.
enum class ResourceSource { None, PtxasLog, Objects, Nvcc, Clang };
/// "none", "ptxas-log", "objects", "nvcc", "clang" (clang's AMDGPU backend, for HIP).
const char *resourceSourceName(ResourceSource S);
/// Parses a RegisterSource option value: "auto" gives nullopt in \p IsAuto's sense.
std::optional<ResourceSource> parseResourceSource(llvm::StringRef Text, bool &IsAuto);

/// The figures of one compiled kernel for one arch, as the compiler reported them.
struct KernelFigures {
  std::string Name;   ///< mangled name as the compiler printed it (__nv_static_ stripped)
  std::string Arch;   ///< "sm_80"
  ResourceSource Source = ResourceSource::None;
  std::string Origin; ///< the log, object or command it came from
  int Registers = 0;  ///< registers per thread
  std::optional<uint64_t> StaticSharedBytes; ///< static __shared__ per block, bytes
  std::optional<uint64_t> SpillStoreBytes, SpillLoadBytes; ///< per thread (logs only)
  std::optional<uint64_t> StackFrameBytes;                 ///< per thread (logs only)
  /// For a kernel that spills, what ptxas does with the caps of the source and flags
  /// removed (__maxnreg__, __launch_bounds__, -maxrregcount): a second ptxas run on the
  /// file's PTX, nvcc source only.
  std::optional<int> UncappedRegisters;
  std::optional<uint64_t> UncappedSpillStoreBytes, UncappedSpillLoadBytes;
  /// AMD (from the AMDGPU kernel metadata): architectural VGPRs per lane, accumulation
  /// VGPRs per lane, SGPRs per wave, lanes per wavefront, scratch bytes per lane, and the
  /// backend's own occupancy (waves per SIMD for the workgroup sizes it allowed for).
  /// Registers then holds the VGPRs that count for occupancy (amdgpuOccupancyVgprs).
  std::optional<int> Vgprs, Agprs, Sgprs;
  int WaveSize = 0;
  std::optional<uint64_t> PrivateSegmentBytes;
  /// AMD: VGPRs and SGPRs the backend spilled (.vgpr_spill_count, .sgpr_spill_count).
  std::optional<int> VgprSpills, SgprSpills;
  std::optional<int> BackendOccupancy;
  int MaxFlatWorkgroupSize = 0;
  bool isAmd() const { return Vgprs.has_value(); }
};

/// Every figure a source produced, with the messages of loading it.
class ResourceTable {
public:
  std::vector<KernelFigures> Entries;
  /// Things a user must know: unreadable files, compressed fatbins, malformed lines.
  std::vector<std::string> Errors;
  std::vector<std::string> Notes;

  /// Adds every entry function of a ptxas report (the text of a log).
  void addPtxasLog(llvm::StringRef Text, llvm::StringRef Origin, ResourceSource Source);
  /// Reads a ptxas log file; an unreadable or empty one is an error.
  void addPtxasLogFile(llvm::StringRef Path);
  /// Reads a cubin, a host object, executable or shared library with an embedded fatbin
  /// (.nv_fatbin, or __nv_relfatbin of -rdc objects), or a static archive of those; for
  /// HIP, an AMDGPU code object (.hsaco), a clang offload bundle, or a host object,
  /// executable or library with a .hip_fatbin section.
  void addObjectFile(llvm::StringRef Path);
  /// Adds every kernel of an AMDGPU device assembly file (`clang -x hip
  /// --cuda-device-only -S`): the code object metadata's counts.
  void addAmdgpuAssembly(llvm::StringRef Text, llvm::StringRef Origin, ResourceSource Source);
  /// Reads the cubin ELF image held in \p Image.
  void addCubin(llvm::StringRef Image, llvm::StringRef Origin);
  /// Adds every kernel of an AMDGPU code object (the ELF image in \p Image): its
  /// NT_AMDGPU_METADATA note's counts (resources/AmdgpuObjects.h). Returns the kernels.
  size_t addAmdgpuCodeObject(llvm::StringRef Image, llvm::StringRef Origin);
  /// Adds every AMDGPU code object of the clang offload bundles in \p Data (the output of
  /// `clang -x hip --cuda-device-only -c`, a host object's .hip_fatbin); host entries
  /// are skipped, device bitcode (-fgpu-rdc) is an error. Returns the code objects read.
  size_t addOffloadBundles(llvm::StringRef Data, llvm::StringRef Origin);

  struct Match {
    std::vector<const KernelFigures *> PerArch; ///< one per arch, in table order
    bool ByBaseName = false; ///< fell back to the demangled base name
    std::string Note;        ///< why nothing or a fallback matched
  };
  /// The figures of the kernel clang mangles as \p Mangled, for every arch in the table.
  /// Exact name first (the __nv_static_ prefix of -rdc removed), then the demangled
  /// signature with anonymous namespaces normalised (nvcc and clang name those
  /// differently), then the unique entry with the same base name per arch.
  Match match(llvm::StringRef Mangled) const;

  bool empty() const { return Entries.empty(); }

private:
  void addAmdgpuKernels(const std::vector<::warplint::AmdgpuKernel> &Kernels,
                        llvm::StringRef Origin, ResourceSource Source);
  /// One ELF image (cubin, host object, executable, shared library); returns 0 when it
  /// holds no device code (silently so for archive members).
  size_t addObjectImage(llvm::StringRef Data, llvm::StringRef Path, bool InArchive);
  /// One fatbin section (containers back to back); returns the images found.
  size_t addFatbin(llvm::StringRef Section, llvm::StringRef Path);
};

/// Turns one arch's figures into core's input, the kernel's declared facts beside them.
::warplint::KernelResources toKernelResources(const KernelFigures &F,
                                              std::optional<uint64_t> EstimatedStaticSmem,
                                              int LaunchBoundsMaxThreads,
                                              int LaunchBoundsMinBlocks);

/// The base name of a demangled or mangled function: "ns::f<int>(float*)" -> "f".
std::string kernelBaseName(llvm::StringRef MangledOrPlain);

/// Objects that are still being written. `warplint launch` starts the analysis beside the
/// compile that writes the object its registers come from; in that process a gate is set,
/// and every read of an object file (ResourceTable::addObjectFile, the result cache's
/// object digests) first waits on it, so that nothing reads a half-written object or the
/// previous build's. Wait returns when the compile has ended (it does not return when
/// the compile failed: the launcher then ends the analysis). No gate: no wait.
void setObjectReadGate(std::function<void()> Wait);
/// Waits on the gate when one is set (the first call waits; the others return at once).
void waitForObjectWriters();
/// Whether a gate is set (the objects may not exist yet).
bool objectReadGateSet();

} // namespace warplint
