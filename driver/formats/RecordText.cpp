//===- RecordText.cpp - the words every output gives a record's figures ---===//
#include "driver/formats/RecordText.h"

#include <fmt/format.h>

namespace warplint::driver {

std::string bytesText(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return fmt::format("{} KiB", B / 1024);
  return fmt::format("{} B", B);
}

std::string rangesText(const std::vector<std::array<unsigned, 2>> &Ranges) {
  std::string Out;
  for (const auto &R : Ranges)
    Out += (Out.empty() ? "" : ", ") +
           (R[0] == R[1] ? std::to_string(R[0]) : fmt::format("{}-{}", R[0], R[1]));
  return Out;
}

uint64_t rangesCount(const std::vector<std::array<unsigned, 2>> &Ranges) {
  uint64_t N = 0;
  for (const auto &R : Ranges)
    N += R[1] - R[0] + 1;
  return N;
}

std::vector<std::array<unsigned, 2>> maskRanges(uint32_t Mask) {
  std::vector<std::array<unsigned, 2>> Lanes;
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1) {
      if (!Lanes.empty() && Lanes.back()[1] + 1 == L)
        Lanes.back()[1] = L;
      else
        Lanes.push_back({L, L});
    }
  return Lanes;
}

std::string raceThreadText(const RaceThreadRecord &T, const RaceRecord &R) {
  std::string Out = R.Block[1] == 1 && R.Block[2] == 1
                        ? fmt::format("thread {}", T.Thread[0])
                    : R.Block[2] == 1 ? fmt::format("thread ({}, {})", T.Thread[0], T.Thread[1])
                                      : fmt::format("thread ({}, {}, {})", T.Thread[0],
                                                    T.Thread[1], T.Thread[2]);
  if (R.CrossBlock || R.Skip) // different blocks, or a block that skips a barrier
    Out += fmt::format(" of block {}", T.Block);
  return Out;
}

} // namespace warplint::driver
