//===- RecordText.h - the words every output gives a record's figures -*- C++ -*-===//
//
// The language server's hovers (driver/lsp/Convert.cpp), the HTML report
// (driver/report/HtmlReport.cpp) and `warplint occupancy` word the same record fields:
// sizes, thread and lane ranges, a race's threads. Each wording is written here once.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "model/Records.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warplint::driver {

/// A byte count: "48 KiB" for whole KiB, else "100 B".
std::string bytesText(uint64_t Bytes);

/// "0-15, 48-63": ranges of linear thread indices (or lanes), each as a record holds it.
std::string rangesText(const std::vector<std::array<unsigned, 2>> &Ranges);

/// How many indices the ranges hold (the threads that skip a barrier).
uint64_t rangesCount(const std::vector<std::array<unsigned, 2>> &Ranges);

/// The lanes of a 32-lane mask as ranges ({0, 15}, {48, 63}), lowest first: a sync
/// record's absent named lanes of one warp.
std::vector<std::array<unsigned, 2>> maskRanges(uint32_t Mask);

/// "thread 64", "thread (3, 1) of block 1": a race record's thread as the block's rank
/// needs (the check's message words it the same way).
std::string raceThreadText(const RaceThreadRecord &T, const RaceRecord &R);

} // namespace warplint::driver
