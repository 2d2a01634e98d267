//===- Batch.h - many translation units: selection, shards, jobs, summary -*- C++ -*-===//
//
// What `warplint check` and `warplint report` do around the analysis of one translation
// unit when a compile database has many: pick the files (--files, --exclude, --shard),
// run them on N threads with the results kept in input order, show progress on a
// terminal, and print the summary. (--warnings-as-errors goes to clang-tidy's engine, so
// that .clang-tidy's WarningsAsErrors works the same way.)
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

/// --shard K/N: this run takes the files whose index in the sorted list is K-1 modulo N.
struct ShardSpec {
  unsigned Index = 1; ///< K, 1-based
  unsigned Count = 1; ///< N
};

/// Parses "K/N" with 1 <= K <= N; on failure returns nothing and sets Error.
std::optional<ShardSpec> parseShard(std::string_view Text, std::string &Error);

/// How to pick files out of a compile database.
struct FileFilter {
  std::string Include; ///< --files REGEX (empty: every file); matched anywhere in the path
  std::string Exclude; ///< --exclude REGEX (empty: none)
  ShardSpec Shard;
};

/// Checks the filter's regular expressions; false with a message when one is invalid.
bool validateFilter(const FileFilter &Filter, std::string &Error);

/// The files of `Files` the filter keeps, sorted and without duplicates; the shard split
/// is over the sorted list after --files/--exclude, so every shard of the same database
/// sees the same list and the shards partition it.
std::vector<std::string> selectFiles(std::vector<std::string> Files, const FileFilter &Filter);

/// Jobs when -j is not given: the machine's hardware threads.
unsigned defaultJobs();

/// Runs Analyse(i) for every i in [0, Count) on up to Jobs threads (Jobs 0: default).
/// OnDone(i, Done) is called once per file as it finishes, never concurrently (for
/// progress). The caller stores each result at index i, which keeps the output order
/// independent of the number of jobs and of timing.
void runJobs(size_t Count, unsigned Jobs, llvm::function_ref<void(size_t)> Analyse,
             llvm::function_ref<void(size_t Index, size_t Done)> OnDone);

/// The `[12/240] src/foo.cu` line on a terminal: rewritten in place, erased by finish().
class ProgressLine {
public:
  /// Enabled is normally llvm::sys::Process::StandardErrIsDisplayed().
  ProgressLine(llvm::raw_ostream &OS, bool Enabled, size_t Total);
  void update(size_t Done, std::string_view File);
  void finish();

private:
  llvm::raw_ostream &OS;
  bool Enabled;
  size_t Total;
  size_t LastWidth = 0;
};

/// Merges per-file results (in file order) into one RunResult, findings and launches
/// sorted by file, line, column, then check, duplicates (a header seen from two files)
/// dropped.
RunResult mergeResults(std::vector<RunResult> PerFile);

/// "warplint: 240 files analysed (1 with errors), 2 failed, 17 findings (warplint-a: 12,
/// warplint-b: 5) in 12.3 s": always printed on stderr at the end of a run; "(N with
/// errors)" only when clang recovered from errors in some.
void printSummary(const RunResult &Result, std::chrono::duration<double> Elapsed,
                  llvm::raw_ostream &OS);

/// Process exit code of a run: 2 when a file failed or was analysed with errors, 1 when a
/// finding is an error or, with AnyFindingFails, when there is any finding, else 0. With
/// AllowErrors (--allow-errors), files analysed with errors do not make it 2 and clang's
/// errors in them are not findings that count: the status is the checks'.
int exitCodeFor(const RunResult &Result, bool AnyFindingFails = true, bool AllowErrors = false);

} // namespace warplint::driver
