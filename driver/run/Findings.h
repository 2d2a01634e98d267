//===- Findings.h - what one warplint run found, format-independent -*- C++ -*-===//
//
// The driver gathers clang-tidy's diagnostics and the model records (model/Records.h:
// launches with their figures, kernels) of every analysed translation unit into these
// plain structs; every output format (text, json, sarif, github, the HTML report) is
// written from them and from nothing else.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "model/Records.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint::driver {

/// A note attached to a finding (clang's "note:" diagnostics).
struct FindingNote {
  SourcePos Pos;
  std::string Message;
};

enum class Severity { Note, Warning, Error };

/// One edit of a fix-it (a clang FixItHint as clang-tidy exports it): the bytes
/// [Offset, Offset + Length) of File replaced by Text; Begin and End are the same range as
/// lines and columns (1-based, bytes) of the file as it was analysed.
struct FixEdit {
  std::string File;
  unsigned Offset = 0, Length = 0;
  std::string Text;
  SourcePos Begin, End;
};

/// One diagnostic of a warplint-* check.
struct Finding {
  std::string Check;  ///< e.g. "warplint-block-size-warp-multiple"
  Severity Level = Severity::Warning;
  SourcePos Pos;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::string Arch;   ///< the target arch the finding was computed for ("sm_86"), or empty
  /// The fix-it of the diagnostic, if it has one (edits to apply together).
  std::vector<FixEdit> Fixes;
  /// What the finding stands to gain (the model's ImpactRecord at its place), if known.
  std::optional<::warplint::Impact> Impact;
};

/// A message about the run rather than a place in the code: a register source that could
/// not be loaded, an option that is not valid, why registers are not counted. Said once
/// per run (identical messages merged), on stderr and in SARIF's tool notifications; it
/// is not a finding and does not change the exit status.
struct RunMessage {
  Severity Level = Severity::Warning;
  std::string Text;
};

/// Everything one run of `warplint check` produced.
struct RunResult {
  std::vector<Finding> Findings;     ///< sorted by file, line, column, check
  std::vector<LaunchRecord> Launches;///< sorted by file, line, column
  std::vector<std::string> FilesAnalysed;
  std::vector<std::string> FilesFailed;
  std::vector<KernelRecord> Kernels; ///< sorted by file, line (when launches are collected)
  /// The memory accesses the checks reported, with their per-warp figures (one per
  /// finding of warplint-uncoalesced-access and warplint-shared-bank-conflict), sorted
  /// by file, line, column.
  std::vector<AccessRecord> Accesses;
  /// The barriers and warp-synchronous calls the sync checks reported, with the threads
  /// involved (one per finding), sorted by file, line, column.
  std::vector<SyncRecord> Syncs;
  /// The data races warplint-data-race reported, with the accesses and threads involved
  /// (one per finding, at its place: the second access), sorted by file, line, column.
  std::vector<RaceRecord> Races;
  /// Every thread-dependent branch of the analysed kernels with its figures per block
  /// shape and warplint-divergent-branch's verdict (silent ones too), sorted by file,
  /// line, column; empty when that check did not run.
  std::vector<BranchRecord> Branches;
  std::vector<RunMessage> Messages;  ///< in first-seen order, each once
  /// Files whose result came from the result cache (said in the summary only).
  size_t FromCache = 0;
  /// Of FilesAnalysed, those clang reported errors in and recovered from: the checks and
  /// the launch records cover the code it could build (the errors are among Findings).
  std::vector<std::string> FilesWithErrors;
  /// With AnalysisOptions::NvccCacheOnly: files analysed without some of nvcc's figures
  /// (the registers, or a spilling kernel's uncapped figures) because they were not
  /// cached yet (a run without the option gives them).
  std::vector<std::string> RegistersNotCached;
};

/// Calls F(A.List, B.List) for every record list of two RunResults, the one place that
/// names them all: merging per-file results (driver/run/Batch.cpp, Analysis.cpp) and keeping
/// one file's records go through it, so a new kind of record is added here, in
/// RunResult and in its two writers (driver/cache/ResultCache.cpp, JsonFormat.cpp), not
/// in every loop (until house24c three loops named four to six of the six lists each).
template <typename Fn> void forEachRecordList(RunResult &A, RunResult &B, Fn &&F) {
  F(A.Launches, B.Launches);
  F(A.Kernels, B.Kernels);
  F(A.Accesses, B.Accesses);
  F(A.Syncs, B.Syncs);
  F(A.Races, B.Races);
  F(A.Branches, B.Branches);
}

/// The file a record is at (a kernel record's definition, every other record's place).
inline const std::string &recordFile(const KernelRecord &K) { return K.File; }
template <typename Record> const std::string &recordFile(const Record &R) { return R.Pos.File; }

/// Moves the records of From that Keep(file) accepts onto the end of Out's lists.
template <typename KeepFn> void appendRecords(RunResult &Out, RunResult &From, KeepFn &&Keep) {
  forEachRecordList(Out, From, [&](auto &Into, auto &Records) {
    for (auto &R : Records)
      if (Keep(recordFile(R)))
        Into.push_back(std::move(R));
  });
}

/// Moves every record of From onto the end of Out's lists.
inline void appendRecords(RunResult &Out, RunResult &From) {
  appendRecords(Out, From, [](const std::string &) { return true; });
}

/// The result of a file that could not be analysed: failed, with one clang-style error at
/// the file (no line) saying why. Every such cause (no command, a missing directory, an
/// impossible architecture, a FIFO, a crashed analysis, a bad database command) is
/// reported through this.
inline RunResult failedFile(const std::string &File, std::string Message) {
  RunResult R;
  R.FilesFailed.push_back(File);
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.Level = Severity::Error;
  F.Pos = {File, 0, 0};
  F.Message = std::move(Message);
  R.Findings.push_back(std::move(F));
  return R;
}

} // namespace warplint::driver
