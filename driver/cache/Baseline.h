//===- Baseline.h - findings a project already has, reported no more -*- C++ -*-===//
//
// `warplint check --write-baseline FILE` records the findings of a run; `--baseline FILE`
// then reports only findings beyond them. A finding is matched by its check, its file
// (relative to the source root), the kernel it belongs to (the launched kernel at a
// launch, the kernel whose body holds it otherwise) and its message with every number
// masked, so edits above a kernel (line numbers) or a figure that moves do not bring it
// back; an entry counts its occurrences, and one occurrence more is new.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include <string>
#include <vector>

namespace warplint::driver {

struct BaselineEntry {
  std::string Check, File, Kernel, Message; ///< Message with its numbers masked ('#')
  unsigned Count = 1;
};

/// What applying a baseline did.
struct BaselineResult {
  size_t Suppressed = 0;                 ///< findings the baseline holds, not reported
  std::vector<BaselineEntry> NoLonger;   ///< entries (their unmatched count) that no longer occur
};

/// The message with every run of digits (with decimal points) replaced by '#'.
std::string maskNumbers(std::string_view Message);

/// The baseline of a run's findings (clang's own diagnostics are not baselined: a file
/// that does not parse is never hidden), sorted.
std::vector<BaselineEntry> makeBaseline(const RunResult &Result, const std::string &SourceRoot);

/// The baseline as JSON: {"version": 1, "entries": [{check, file, kernel, message, count}]}.
std::string baselineJson(const std::vector<BaselineEntry> &Entries);

/// Reads a baseline file; false with Error set when it cannot be read or is not one.
bool readBaseline(const std::string &Path, std::vector<BaselineEntry> &Entries,
                  std::string &Error);

/// Removes from Result the findings the baseline holds (in order, up to each entry's
/// count).
BaselineResult applyBaseline(RunResult &Result, const std::vector<BaselineEntry> &Entries,
                             const std::string &SourceRoot);

} // namespace warplint::driver
