//===- OccupancyBatch.h - `warplint occupancy --batch`: JSON lines in, out -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <iosfwd>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

/// Answers one JSON-lines input line of `warplint occupancy --batch` with one JSON
/// object (no newline): the input fields plus the occupancy, or an "error". Sets Bad
/// when the line itself is bad input (not when the launch cannot run).
std::string evaluateOccupancyBatchLine(llvm::StringRef Line, long long LineNo, bool &Bad);

/// The --batch loop: one answer per non-blank line of In, in order; returns the exit
/// status (2 when a line was bad, else 0).
int runOccupancyBatch(std::istream &In, llvm::raw_ostream &Out);

} // namespace warplint::driver
