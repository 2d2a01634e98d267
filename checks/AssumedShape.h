//===- AssumedShape.h - the block a check assumes for a kernel without a known launch -*- C++ -*-===//
#pragma once

#include "model/ModelOptions.h"
#include "checks/AnalysisNames.h"

#include "warplint/core/Arch.h"
#include "warplint/core/LaneEval.h"

#include "clang-tidy/ClangTidyCheck.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang::tidy::warplint {

/// The block a check assumes for a kernel with no launch of a known block in the TU: its
/// own AssumedBlockSize when set (the first round's per-check key, kept as an alias, a
/// 1-D block of a multiple of 32 threads), else the run's warplint.AssumedBlock
/// (`--assume-block`), else 256 threads. \p Local is the per-check option (nullopt:
/// unset; read typed, see readAssumedBlockSize); \p Diag the check's configurationDiag,
/// told of an AssumedBlockSize out of range (then the run's shape, or 256, is used).
template <typename DiagFn>
::warplint::divergence::BlockShape readAssumedBlock(std::optional<unsigned> Local,
                                                    const ModelOptions &M, DiagFn &&Diag) {
  ::warplint::divergence::BlockShape Run{256, 1, 1};
  if (M.AssumedBlock)
    Run = {(*M.AssumedBlock)[0], (*M.AssumedBlock)[1], (*M.AssumedBlock)[2]};
  if (!Local)
    return Run;
  const unsigned N = *Local;
  if (N == 0 || N % 32 != 0 || ::warplint::PortableLaunchLimits.threadsOver(N)) {
    Diag("invalid AssumedBlockSize %0: must be a multiple of 32 from 32 to 1024; using %1")
        << std::to_string(N) << (M.AssumedBlock ? "warplint.AssumedBlock " + Run.str() : "256");
    return Run;
  }
  return {N, 1, 1};
}

/// A check's AssumedBlockSize option, typed: nullopt when unset (empty or "none"), and for
/// a value that is not an integer (clang-tidy says "expected an integer").
inline std::optional<unsigned> readAssumedBlockSize(const ClangTidyCheck::OptionsView &Options) {
  return Options.get<unsigned>("AssumedBlockSize", std::nullopt);
}

/// AssumedBlockSize as storeOptions writes it back: empty when unset.
inline std::string assumedBlockSizeText(std::optional<unsigned> N) {
  return N ? std::to_string(*N) : std::string();
}

/// How a note names an assumed block: "a 1-D block of 256 threads", "a block of 16x16x1
/// threads".
inline std::string assumedBlockText(const ::warplint::divergence::BlockShape &B) {
  if (B.Y == 1 && B.Z == 1)
    return "a 1-D block of " + std::to_string(B.X) + " threads";
  return "a block of " + B.str() + " threads";
}

} // namespace clang::tidy::warplint
