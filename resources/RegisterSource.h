//===- RegisterSource.h - choosing and loading the register source of a TU -*- C++ -*-===//
#pragma once

#include "resources/NvccResources.h"
#include "resources/Resources.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace warplint {
using namespace clang;

/// The register source a user asked for; Auto picks one per translation unit.
enum class RegisterSourceChoice { Auto, PtxasLog, Objects, Nvcc, None, Clang };

/// "auto", "ptxas-log", "objects", "nvcc", "none", "clang".
const char *registerSourceChoiceName(RegisterSourceChoice C);
/// The choice named by Text (case-insensitive), or nullopt.
std::optional<RegisterSourceChoice> parseRegisterSourceChoice(llvm::StringRef Text);

/// Where register counts come from, for the whole run (docs/registers.md).
struct RegisterOptions {
  RegisterSourceChoice Source = RegisterSourceChoice::Auto;
  std::vector<std::string> PtxasLogs; ///< ptxas -v reports, as the user named them
  std::vector<std::string> Objects;   ///< cubins, nvcc objects, executables, archives
  std::string CacheDir;               ///< nvcc's report cache; empty: defaultCacheDir()
  std::string Nvcc;                   ///< the nvcc to run; empty: findNvcc()
  std::string NvccFlags; ///< flags for it, shell-quoted; empty: the TU's -I/-D/-std
  /// Take nvcc's figures from the cache only: with none cached, the registers are
  /// missing (Missing is NvccNotCached) and nvcc does not run.
  bool NvccCacheOnly = false;
  /// HIP: the clang that compiles the device assembly (empty: findHipClang()) and its
  /// device-side flags, shell-quoted (empty: the TU's -I/-D/-std, target and header).
  std::string HipClang;
  std::string HipFlags;
};

/// The register table of one translation unit.
struct LoadedRegisters {
  ResourceTable Table;
  ResourceSource Source = ResourceSource::None; ///< what it was loaded from
  /// Why no register counts are available when Source is None: "nvcc not found", ...
  std::string Missing;
  /// What a user must hear of: unreadable files, nvcc failures, an unwritable cache.
  std::vector<std::string> Problems;
  /// With RegisterOptions::NvccCacheOnly: a report nvcc would give was not cached (the
  /// registers, or the uncapped figures of a spilling kernel), so the figures are not
  /// those of a full run.
  bool NotCached = false;
  /// A damaged cache entry (nvcc's or clang's report) was removed and the compiler ran
  /// again (said in Problems). A result that says so is not kept in the result cache,
  /// so that it is said once.
  bool CacheRepaired = false;
  /// The nvcc run the figures came from (Source Nvcc): the what-if run of the register
  /// advice compiles the same file with the same flags (verifyRegisterAdvice).
  std::optional<NvccRequest> NvccRun;
  /// The clang run the figures came from (Source Clang): the AMD what-if compiles the
  /// same file with the same flags (verifyAmdgpuAdvice).
  std::optional<ClangDeviceRequest> ClangRun;
  /// nvcc's release ("13.0"), or clang's ("22.1"), when it ran or its cache answered.
  std::string CompilerRelease;
};

/// The compiler's answer for one kernel of a what-if run (verifyRegisterAdvice).
struct VerifiedFigures {
  std::string Kernel; ///< the mangled name
  int Registers = 0;
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  /// AMD: SGPRs per wave, scratch bytes per lane, VGPR and SGPR spills (the metadata's).
  int Sgprs = 0;
  uint64_t ScratchBytes = 0;
  int VgprSpills = 0, SgprSpills = 0;
};

/// The what-if run of the register advice for the bounds given (one ptxas run over the
/// kept PTX, cached): the figures per kernel, or Error. Needs Loaded.NvccRun.
struct VerifyResult {
  std::vector<VerifiedFigures> Kernels;
  std::string Error;
  bool NotCached = false; ///< a cache-only run (the language server) found no entry
  std::string Repaired;   ///< a damaged cache entry was removed (said once)
};
VerifyResult verifyRegisterAdvice(const LoadedRegisters &Loaded,
                                  const std::vector<PtxBound> &Bounds);

/// The AMD what-if of the register advice: one backend run over the file's kept device
/// IR with every bound set (runBoundedClang, cached). Needs Loaded.ClangRun; Registers is
/// the VGPR count that counts for occupancy (amdgpuOccupancyVgprs).
VerifyResult verifyAmdgpuAdvice(const LoadedRegisters &Loaded,
                                const std::vector<AmdgpuBound> &Bounds);

/// Loads the register source for a TU parsed for the device side of TUArch (nvcc runs
/// here, or its cache answers). Auto: the ptxas logs, else the objects, else nvcc when
/// the TU was parsed against a real CUDA toolkit for one sm_XX arch and an nvcc is
/// found, else, for a HIP TU (a gfx arch), clang's AMDGPU backend (the device assembly's
/// kernel metadata), else none (with the reason in Missing).
LoadedRegisters loadRegisters(const RegisterOptions &Opts, ASTContext &Ctx,
                              const Preprocessor *PP, llvm::StringRef TUArch);

/// Whether the TU was parsed against a real CUDA toolkit (clang's CUDA wrapper headers
/// included), not warplint's own minimal header (-nocudainc).
bool parsedWithCudaToolkit(const Preprocessor *PP);

/// "nvcc", "the ptxas log 'build.log'", "objects 'k.o'": where one kernel's figures came
/// from, with no machine-specific path of warplint's own (cache entries are not named).
std::string describeOrigin(const KernelFigures &F);

/// The name a file read by the parse has in the register caches' content key: its path,
/// except warplint's own headers (under share/warplint), named by their place in the
/// installation so that another copy of warplint shares the cache.
std::string contentKeyName(llvm::StringRef Path);

} // namespace warplint
