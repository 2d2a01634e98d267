//===- ShapeText.h - a block or grid shape written X[xYxZ] -*- C++ -*-===//
//
// Header-only (LLVM's StringRef and the standard library), so that the driver's option
// parser and the model read a shape the same way without linking each other.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "warplint/core/Arch.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace warplint {

/// A block (Grid false) or grid shape written `X[xYxZ]` ("256", "16x16", "8x8x4"): every
/// dimension at least 1; a block at most 1024 threads, 1024 in x and y and 64 in z; a grid
/// at most 2^31-1 blocks in x and 65535 in y and z. nullopt with Error set ("'0x4': a
/// dimension is 0") otherwise.
inline std::optional<std::array<uint64_t, 3>> parseShapeText(llvm::StringRef Text, bool Grid,
                                                      std::string &Error) {
  llvm::StringRef T = Text.trim();
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  T.split(Parts, 'x', -1, /*KeepEmpty=*/true);
  if (T.empty() || Parts.size() > 3) {
    Error = "'" + T.str() + "' is not a shape: write X, XxY or XxYxZ (256, 16x16, 8x8x4)";
    return std::nullopt;
  }
  std::array<uint64_t, 3> Out = {1, 1, 1};
  for (size_t D = 0; D < Parts.size(); ++D) {
    uint64_t V;
    if (Parts[D].trim().getAsInteger(10, V)) {
      Error = "'" + T.str() + "' is not a shape: write X, XxY or XxYxZ (256, 16x16, 8x8x4)";
      return std::nullopt;
    }
    if (V == 0) {
      Error = "'" + T.str() + "': a dimension is 0 (every dimension is at least 1)";
      return std::nullopt;
    }
    Out[D] = V;
  }
  const char *Axis[] = {"x", "y", "z"};
  // The limits of every architecture from compute capability 3.0 on (core's).
  const ::warplint::LaunchLimits &Lim = ::warplint::PortableLaunchLimits;
  const std::array<uint64_t, 3> &Limit = Grid ? Lim.MaxGrid : Lim.MaxBlock;
  for (unsigned D = 0; D < 3; ++D)
    if (Grid ? Lim.gridDimOver(D, Out[D]) : Lim.blockDimOver(D, Out[D])) {
      Error = "'" + T.str() + "': " + (Grid ? "a grid" : "a block") + " has at most " +
              std::to_string(Limit[D]) + (Grid ? " blocks" : " threads") + " in " +
              Axis[D];
      return std::nullopt;
    }
  if (!Grid && Lim.threadsOver(Out[0] * Out[1] * Out[2])) {
    Error = "'" + T.str() + "': " + std::to_string(Out[0] * Out[1] * Out[2]) +
            " threads, a block has at most " + std::to_string(Lim.MaxThreadsPerBlock);
    return std::nullopt;
  }
  return Out;
}

/// "256", "16x16", "8x8x4": a shape as parseShapeText reads it (trailing 1s left out).
inline std::string shapeOptionText(const std::array<uint64_t, 3> &Shape) {
  std::string S = std::to_string(Shape[0]);
  if (Shape[1] != 1 || Shape[2] != 1)
    S += "x" + std::to_string(Shape[1]);
  if (Shape[2] != 1)
    S += "x" + std::to_string(Shape[2]);
  return S;
}

} // namespace warplint
