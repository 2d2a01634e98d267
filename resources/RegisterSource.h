//===- RegisterSource.h - choosing and loading the register source of a TU -*- C++ -*-===//
#pragma once

#include "resources/Resources.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace clang::tidy::warplint {

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
};

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

} // namespace clang::tidy::warplint
