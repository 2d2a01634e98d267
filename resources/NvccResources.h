//===- NvccResources.h - run nvcc for a ptxas report, with an on-disk cache -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang::tidy::warplint {

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
};

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

/// \p Args without -maxrregcount (every spelling: -maxrregcount N, -maxrregcount=N,
/// --maxrregcount, -Xptxas/-Xptxas=--maxrregcount... forms are left to ptxas).
std::vector<std::string> withoutRegisterCap(const std::vector<std::string> &Args);

/// $XDG_CACHE_HOME/warplint, else ~/.cache/warplint.
std::string defaultCacheDir();

/// nvcc on PATH, else /usr/local/cuda/bin/nvcc, else $CUDA_PATH/bin/nvcc; empty if none.
std::string findNvcc();

} // namespace clang::tidy::warplint
