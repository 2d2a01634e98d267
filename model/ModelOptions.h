//===- ModelOptions.h - the options of the whole run, read once, typed -*- C++ -*-===//
//
// The register source, its files and cache, the nvcc to run and the architecture belong
// to the run, not to one check: every check reads the one TuModel built with them. In
// .clang-tidy they are global keys with the `warplint.` prefix, set once:
//
//   CheckOptions:
//     warplint.RegisterSource: nvcc      # auto | ptxas-log | objects | nvcc | clang | none
//     warplint.PtxasLog: build/ptxas.log # ';'-separated
//     warplint.Objects: ''               # ';'-separated
//     warplint.CacheDir: ''              # default $XDG_CACHE_HOME/warplint
//     warplint.Nvcc: ''                  # default: PATH, $CUDA_PATH/bin, /usr/local/cuda/bin
//     warplint.NvccFlags: ''             # default: the TU's -I, -D and -std
//     warplint.HipClang: ''              # HIP: the clang for device assembly (clang++-22)
//     warplint.HipFlags: ''              # HIP: its device-side flags (default: the TU's)
//     warplint.Arch: ''                  # default: the TU's --cuda-gpu-arch
//     warplint.Gpu: ''                   # a product (h100): waves and clusters per GPU
//     warplint.VerifyAdvice: true        # what-if compile of register advice (nvcc)
//     warplint.AssumedBlock: ''          # X[xYxZ]: the block of kernels with no known launch
//     warplint.AssumedGrid: ''           # X[xYxZ]: the grid of kernels with no known launch
//
// The first round's per-check keys (warplint-occupancy.RegisterSource, ...) are still
// read when the global one is absent, with a note that they moved.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "model/ShapeText.h"
#include "resources/RegisterSource.h"

#include "clang-tidy/ClangTidyOptions.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct ModelOptions {
  RegisterOptions Registers;
  /// The architecture figures are computed for; empty: the TU's.
  std::string Arch;
  /// The GPU product grid-level figures are computed for (waves, active clusters): a
  /// core/Products key ("h100"); empty: none (those figures and warplint-partial-wave
  /// stay off). Also read from `warplint-partial-wave.Gpu` when `warplint.Gpu` is absent.
  std::string Gpu;
  /// Whether register advice is checked by the compiler (a what-if ptxas run per file,
  /// registers from nvcc; docs/registers.md). `--no-verify-advice` turns it off.
  bool VerifyAdvice = true;
  /// The block shape every check assumes for a kernel with no launch of a known block in
  /// the TU (warplint.AssumedBlock, `--assume-block`); unset: each check's own default
  /// (its AssumedBlockSize, 256 threads).
  std::optional<std::array<unsigned, 3>> AssumedBlock;
  /// The grid assumed for a kernel with no launch of a known grid (warplint.AssumedGrid,
  /// `--assume-grid`); unset: the grid is a run-time value.
  std::optional<std::array<uint64_t, 3>> AssumedGrid;
  /// Invalid values and moved keys, for a configuration diagnostic (said once).
  std::vector<std::string> Problems;
  /// Values that leave the run without a meaning the user asked for (an assumed shape
  /// that cannot launch): the driver fails the file with the first; clang-tidy says it as
  /// a configuration diagnostic (it is among Problems too) and uses the default.
  std::vector<std::string> Errors;

  /// Reads the `warplint.*` keys of a check-options map.
  static ModelOptions read(const clang::tidy::ClangTidyOptions::OptionMap &Options);
  /// Writes every `warplint.*` key (for --dump-config).
  void store(clang::tidy::ClangTidyOptions::OptionMap &Options) const;
};

/// The `warplint.`-prefixed key of a run-wide option: "warplint.RegisterSource".
std::string modelOptionKey(llvm::StringRef Name);

} // namespace warplint
