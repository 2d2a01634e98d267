//===- FixApply.h - apply the findings' fix-its to the files, export them -*- C++ -*-===//
//
// `warplint check --fix` and `--export-fixes`: the fix-its the checks attached to their
// diagnostics (Finding::Fixes), applied as clang-apply-replacements applies clang-tidy's
// exported fixes (clang's tooling Replacements per file: the same edit from several
// findings once, a fix that overlaps a different edit left out whole), or written in
// clang-tidy's --export-fixes YAML for clang-apply-replacements.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include <string>
#include <vector>

namespace warplint::driver {

struct FixSummary {
  unsigned Applied = 0;  ///< fixes (one per finding) whose edits were written
  unsigned Files = 0;    ///< files rewritten
  unsigned Conflicts = 0; ///< fixes left out: an edit overlaps another fix's
  std::vector<std::string> Errors; ///< files that could not be read or written
};

/// Applies every finding's fix-it to the files on disk; each file is written once
/// (atomically).
FixSummary applyFixes(const RunResult &R);

/// "applied 2 fixes in 1 file" (and the fixes left out, when any).
std::string fixSummaryText(const FixSummary &S);

/// The findings with fix-its in clang-tidy's --export-fixes YAML (one document:
/// MainSourceFile empty, every diagnostic with its replacements).
std::string exportFixesYaml(const RunResult &R);

} // namespace warplint::driver
