//===- NvccResources.h - run nvcc (ptxas report) or clang (AMDGPU assembly), cached -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace warplint {

/// One nvcc run that yields a ptxas resource report for one arch.
struct NvccRequest {
  std::string Nvcc;              ///< path of nvcc
  std::string Source;            ///< the .cu file
  std::string Arch;              ///< "sm_86"
  std::vector<std::string> Args; ///< the build's flags (-I, -D, -std, -maxrregcount, ...)
  std::string CacheDir;          ///< where reports are cached; empty: no cache
  /// Digest of every input file's contents as the front end saw them (see the .cpp).
  std::string ContentKey;
  /// Only read the cache: a report not cached yet is an error, NvccNotCached, and nvcc
  /// does not run (the language server's first, fast answer; docs/editors.md).
  bool CacheOnly = false;
};

/// The Error of a cache-only request whose report is not cached yet.
inline constexpr const char *NvccNotCached = "nvcc's report for this file is not cached yet";

struct NvccResult {
  std::string Log;       ///< ptxas's report (nvcc's stderr)
  bool FromCache = false;
  std::string CacheFile; ///< the cache entry read or written
  std::string Error;     ///< set when nvcc could not be run or failed
  /// Set when the cache could not be used (the report then comes from nvcc uncached).
  std::string Warning;
  /// Set when the cache entry was damaged (its contents no longer match their digest): it
  /// was removed and nvcc ran again. Said once: the next run reads the new entry.
  std::string Repaired;
  /// nvcc's release as its --version says it ("13.0"), when nvcc could be asked.
  std::string Release;
};

/// What reading a cache entry found.
enum class CacheRead { Missing, Hit, Damaged };

/// Reads a cache entry written by this module (its contents behind a header line with
/// their SHA-256 and size). A damaged entry (cut short, edited, not an entry) is removed
/// and Problem says which and why; Contents is set only on a hit.
CacheRead readCacheEntry(const std::string &Path, std::string &Contents, std::string &Problem);

/// The argument vector that is run: nvcc <Args> -arch=<Arch> -Xptxas -v -cubin
/// -o /dev/null <Source> (device code for one arch only, nothing written).
std::vector<std::string> nvccArgv(const NvccRequest &R);

/// The cache key: SHA-256 over nvcc's --version text, the argument vector and the
/// content key, in hex.
std::string nvccCacheKey(const NvccRequest &R, const std::string &NvccVersion);

/// Runs nvcc (argument vector, no shell) unless the cache holds the report; writes the
/// cache atomically (temp file in the same directory, then rename). A cache directory
/// that cannot be created or written is a Warning, and nvcc runs uncached.
NvccResult runNvccForResources(const NvccRequest &R);

/// What ptxas does without the register caps: nvcc <Args without -maxrregcount> -ptx for
/// R.Arch, the PTX's .maxnreg, .maxntid and .minnctapersm directives removed
/// (uncapPtx), then nvcc -cubin -Xptxas -v on that PTX. Cached like runNvccForResources
/// under a key of its own; Log holds the second run's ptxas report.
NvccResult runUncappedNvcc(const NvccRequest &R);

/// \p Ptx without the directives that cap a kernel's registers (.maxnreg, .maxntid,
/// .minnctapersm, each with its operands); everything else byte for byte.
std::string uncapPtx(llvm::StringRef Ptx);

/// The file's PTX for R.Arch with the register caps removed: nvcc <Args without
/// -maxrregcount> -ptx, then uncapPtx. Kept in the cache (its own entry) so that the
/// uncapped run and the what-if run of the register advice share one nvcc -ptx; Log
/// holds the PTX.
NvccResult keptPtx(const NvccRequest &R);

/// One kernel's bound in the what-if ptxas run of the register advice: .maxntid
/// Threads, 1, 1 and .minnctapersm MinBlocks (what __launch_bounds__(Threads, MinBlocks)
/// gives ptxas), or .maxnreg MaxRegisters when set (what -maxrregcount or __maxnreg__
/// gives it, for one kernel).
struct PtxBound {
  std::string Kernel; ///< the mangled entry name
  unsigned Threads = 0, MinBlocks = 0;
  unsigned MaxRegisters = 0;
  /// The settings as text, for the cache key: "_Z1kPf:256,3" or "_Z1kPf:maxnreg 40".
  std::string key() const;
};

/// \p Ptx (uncapped) with each bound's directives placed on its entry (after the
/// parameter list); a kernel not found in the PTX is added to \p Missing.
std::string boundPtx(llvm::StringRef Ptx, const std::vector<PtxBound> &Bounds,
                     std::vector<std::string> &Missing);

/// The what-if of the register advice: one ptxas run (nvcc -cubin -Xptxas -v on the
/// kept PTX) with every bound placed at once. Cached like the register run, under the
/// request's key, the tag and the bounds' settings; Log holds ptxas's report.
NvccResult runBoundedPtxas(const NvccRequest &R, const std::vector<PtxBound> &Bounds);

/// \p Args without -maxrregcount (every spelling: -maxrregcount N, -maxrregcount=N,
/// --maxrregcount, -Xptxas/-Xptxas=--maxrregcount... forms are left to ptxas).
std::vector<std::string> withoutRegisterCap(const std::vector<std::string> &Args);
/// One clang run that yields the AMDGPU device assembly of a HIP file for one arch.
struct ClangDeviceRequest {
  std::string Clang;             ///< path of clang++
  std::string Source;            ///< the .hip file
  std::vector<std::string> Args; ///< the device-side compile flags (no -S, -o, input)
  std::string CacheDir;          ///< where the kernel metadata is cached; empty: no cache
  std::string ContentKey;        ///< digest of every input file, as for nvcc
  /// clang's `--version` text when it was asked already (the register run's, which the
  /// what-if follows): then no run asks it again. Empty: the run asks clang.
  std::string Version;
};

struct ClangDeviceResult {
  /// The assembly's kernel metadata, target and occupancy comments (the rest of the
  /// assembly is left out; parseAmdgpuAssembly reads what is kept).
  std::string Assembly;
  bool FromCache = false;
  std::string Error;   ///< set when clang could not be run or failed
  std::string Warning; ///< set when the cache could not be used
  std::string Repaired; ///< set when a damaged cache entry was removed (as for nvcc)
  std::string Release;  ///< clang's release ("22.1"), when clang could be asked
  std::string Version;  ///< clang's whole `--version` text, when it could be asked
};

/// The argument vector that is run: clang++ <Args> -S -o - <Source>.
std::vector<std::string> clangDeviceArgv(const ClangDeviceRequest &R);

/// Runs clang for the device assembly (argument vector, no shell, the assembly read from
/// its standard output) unless the cache holds its metadata; the cache key is SHA-256
/// over clang's --version, the argument vector and the content key; entries are written
/// atomically.
ClangDeviceResult runClangForAmdgpuResources(const ClangDeviceRequest &R);

/// clang's release as its --version says it ("22.1"), empty when it cannot be read.
std::string clangRelease(llvm::StringRef VersionText);

/// One kernel's bound in the what-if compile of the register advice on AMD: what
/// __launch_bounds__(Threads, WavesPerEu) gives the backend under HIP's headers
/// ("amdgpu-flat-work-group-size"="1,Threads", "amdgpu-waves-per-eu"="WavesPerEu"), or a
/// VGPR cap ("amdgpu-num-vgpr"=MaxVgprs, amdgpu_num_vgpr) when MaxVgprs is set.
struct AmdgpuBound {
  std::string Kernel; ///< the mangled kernel name
  unsigned Threads = 0, WavesPerEu = 0;
  unsigned MaxVgprs = 0;
  /// The settings as text, for the cache key: "_Z1kPf:256,2" or "_Z1kPf:num-vgpr 128".
  std::string key() const;
};

/// \p Ir (the device LLVM IR of a HIP file) with each bound's attributes set on its
/// kernel: the kernel gets an attribute group of its own, a copy of its group with the
/// bound's attributes replaced or added; everything else byte for byte. A kernel not
/// defined in the IR is added to \p Missing.
std::string boundAmdgpuIr(llvm::StringRef Ir, const std::vector<AmdgpuBound> &Bounds,
                          std::vector<std::string> &Missing);

/// The what-if of the register advice on AMD: the file's device IR (clang <Args>
/// -emit-llvm -S, kept in the cache as an entry of its own), the bounds set on it
/// (boundAmdgpuIr), then one backend run over it (clang -x ir, no optimisation of the IR
/// again: the backend alone, as in the register run). Cached like the register run under
/// a key of its own and the bounds' settings; Assembly holds the reduced assembly.
ClangDeviceResult runBoundedClang(const ClangDeviceRequest &R,
                                  const std::vector<AmdgpuBound> &Bounds);

/// clang++-22 on PATH, else /usr/lib/llvm-22/bin/clang++, else clang++; empty if none.
std::string findHipClang();

/// The ROCm device libraries (ockl.bc and friends): $ROCM_PATH/amdgcn/bitcode,
/// /opt/rocm/amdgcn/bitcode, Debian's /usr/lib/<multiarch>/amdgcn/bitcode; empty if none.
std::string findRocmDeviceLibs();

/// $XDG_CACHE_HOME/warplint, else ~/.cache/warplint.
std::string defaultCacheDir();

/// nvcc on PATH, else /usr/local/cuda/bin/nvcc, else $CUDA_PATH/bin/nvcc; empty if none.
std::string findNvcc();

} // namespace warplint
