//===- OccupancyBatch.h - one line of `warplint occupancy --batch` -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace warplint::driver {

/// Answers one JSON-lines input line of `warplint occupancy --batch` with one JSON
/// object (no newline): the input fields plus the occupancy, or an "error". Sets Bad
/// when the line itself is bad input (not when the launch cannot run).
std::string evaluateOccupancyBatchLine(llvm::StringRef Line, long long LineNo, bool &Bad);

} // namespace warplint::driver
