//===- HostFacts.h - what the host establishes about a kernel argument -*- C++ -*-===//
//
// A launch argument read from a host variable that keeps its value, where the host has
// established a fact about that variable before the launch: an enclosing `if (n % 32 ==
// 0)`, an early exit on `n % 32 != 0`, an assertion whose failing side does not return
// (`assert`, ggml's `GGML_ASSERT`). The fact restricts the values of the kernel parameter
// the argument is bound to: the analyses that sample a run-time parameter (1, 32, 33,
// 1000) sample only values the fact admits.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace warplint {

/// The values a kernel parameter can take at every launch of the TU, as the host
/// establishes them: a multiple of Multiple, at least Min, or exactly Equal.
struct ParamFact {
  int64_t Multiple = 1;
  std::optional<int64_t> Min;
  std::optional<int64_t> Equal;
  bool restricts() const { return Multiple > 1 || Min || Equal; }
};

/// Per kernel parameter (its position), the fact every launch establishes.
using HostFacts = std::map<int, ParamFact>;

/// Samples (ascending, distinct) restricted to what F admits: the same sizes scaled by
/// the multiple (1, 32, 33, 1000 of a multiple of 32: 32, 1024, 1056, 32000, so a
/// multiple of the warp and one that is not a multiple of 32 warps remain), those below
/// the minimum replaced by the smallest admitted value, or the one value F fixes.
inline std::vector<int64_t> restrictSamples(std::vector<int64_t> Samples, const ParamFact &F) {
  if (F.Equal)
    return {*F.Equal};
  for (int64_t &S : Samples)
    S *= F.Multiple;
  if (F.Min && *F.Min > 0) {
    int64_t Least = (*F.Min + F.Multiple - 1) / F.Multiple * F.Multiple;
    for (int64_t &S : Samples)
      S = std::max(S, Least);
  }
  std::sort(Samples.begin(), Samples.end());
  Samples.erase(std::unique(Samples.begin(), Samples.end()), Samples.end());
  return Samples;
}

} // namespace warplint
