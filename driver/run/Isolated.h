//===- Isolated.h - each translation unit's analysis in a child process -*- C++ -*-===//
//
// clang can overflow its stack on a hostile file (3000 nested parentheses) and a check can
// crash; either would take the whole run down with it, and every other file's results.
// runIsolated forks one child per file from the single-threaded parent, at most Jobs at a
// time; the child analyses and sends its RunResult back through a pipe, one record a line
// (resultToLines), so that a crash costs that file alone: it is counted as failed with
// the signal named.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace warplint::driver {

/// Runs Analyse(I) for every I in [0, Count), each in a child process, at most Jobs at
/// once (0: the default), and stores each child's result with Store(I, Result) as it
/// comes in (never concurrently); OnDone(I, Done) follows each, for progress. A child
/// that dies or sends no result gives Crashed(I, Why), with Why naming the signal.
void runIsolated(size_t Count, unsigned Jobs, llvm::function_ref<RunResult(size_t)> Analyse,
                 llvm::function_ref<void(size_t, RunResult)> Store,
                 llvm::function_ref<RunResult(size_t, const std::string &)> Crashed,
                 llvm::function_ref<void(size_t Index, size_t Done)> OnDone);

/// True in a child of runIsolated: the process exits as soon as its result is sent, so
/// what it builds need not be freed (the analysis leaks the parsed TU, as clang's own
/// -disable-free does, rather than spend ~3% of a large file's time tearing it down).
bool inIsolatedChild();

/// The result of a file whose analysis crashed: failed, with one error naming the cause.
RunResult crashedFile(const std::string &File, const std::string &Why);

} // namespace warplint::driver
