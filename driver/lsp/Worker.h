//===- Worker.h - one file's analysis in a child process of the server -*- C++ -*-===//
//
// The language server analyses each file in a child process, `warplint lsp --analyse
// FILE`, which runs the driver's analysis (driver/run/Analysis.h) and writes its results as
// JSON lines: a crash of clang or of a check ends that child, not the server, and a
// superseded analysis is cancelled by ending its child (with the nvcc it started).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Analysis.h"
#include "driver/run/Findings.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace warplint::driver::lsp {

/// The analysis options every file of the server gets (its command line).
struct ServerOptions {
  /// --compile-commands-dir: the database for every file; empty: found per file.
  std::string CompileCommandsDir;
  std::string Arch, Checks = "-*,warplint-*", CudaPath, RegistersFrom = "auto", CacheDir;
  bool MockCuda = false;
  bool NoCache = false;
  unsigned Jobs = 0;         ///< analyses at once; 0: 2, or 1 on one hardware thread
  unsigned DebounceMs = 300; ///< quiet time after an open or save before analysing
};

/// The worker's command line for File, with the compile database in DbDir (empty: File
/// is analysed alone, as `warplint check FILE` would); File empty: the preamble worker's
/// (`warplint lsp --preamble-worker`, runPreambleWorker), which is given files one by one.
std::vector<std::string> workerArgv(const std::string &Exe, const ServerOptions &Opts,
                                    const std::string &File, const std::string &DbDir);

/// One JSON line of a worker: a result, and whether another (with nvcc's registers)
/// follows.
struct WorkerLine {
  RunResult Result;
  bool Final = true;
};
std::string workerLine(const RunResult &R, bool Final, llvm::json::Object Extra = {});
std::optional<WorkerLine> parseWorkerLine(llvm::StringRef Line);

/// The preamble worker's answer to an analysis, lean: a header line (the JSON object
/// Extra with "final", "from_cache" and "result_lines", the number of lines after it),
/// then the result as resultToLines writes it (driver/cache/ResultCache.h), one record a
/// line; ends with a newline. Neither side builds, escapes or parses one JSON document of
/// the whole result, as workerLine's does (reduction_kernel.cu's 216 launches and 873
/// branches: a 775 KB document, escaped into a 1.5 MB line that the server parsed twice).
std::string workerAnswer(const RunResult &R, bool Final, llvm::json::Object Extra = {});
/// An answer's text (its header line and, after a newline, its lines; or a lone line) as
/// a WorkerLine: the result of a workerAnswer, or of a workerLine.
std::optional<WorkerLine> parseWorkerAnswer(llvm::StringRef Text);

/// Gathers a worker's output lines into answers: a line whose header says
/// "result_lines": N is handed back with its N lines (newline-joined) once they are all
/// read; any other line at once.
class AnswerJoiner {
public:
  std::optional<std::string> add(std::string Line);

private:
  std::string Pending;
  size_t Left = 0;
};

/// The worker itself: analyses A.Files (one file) and writes one line, or two when
/// nvcc's registers were not cached (the first without them, at once; the second after
/// nvcc ran). Returns the exit code (2 when the analysis could not start, said on stderr).
int runWorker(AnalysisOptions A, llvm::raw_ostream &OS);

/// The long-lived worker of the server's analyses of unsaved text: reads requests, one
/// JSON line each, from In and answers each with one line on OS, keeping each file's
/// precompiled preamble (driver/run/Preamble.h) between them, so that an edit's parse skips
/// the headers. Base: the server's options (no file, no database). Requests:
///   {"id": N, "file": PATH, "db": DIR, "text": TEXT}  analyse TEXT as PATH (from nvcc's
///       register cache only): answered by a workerAnswer whose header is {"id": N,
///       "final": true, "result_lines": ..., "preamble": true when one was used, "rss_kb":
///       the worker's resident memory, "preamble_bytes": the PCH bytes of every file},
///       followed by the result's lines; then, when PATH had no preamble it could reuse and no
///       request is waiting, its preamble is built and said {"warm": PATH, "note": ...}
///   {"id": N, "file": PATH, "db": DIR, "warm": true}  build PATH's preamble from disk:
///       answered {"id": N, "warm": PATH, "note": ..., "preamble_bytes": ..., "rss_kb": ...}
///   {"close": PATH}  forget PATH's preamble (no answer)
/// A request that cannot run is answered {"id": N, "error": MESSAGE}. Returns 0 at the end
/// of the input. The PCH files are made in preambleDir(its pid), which the server removes
/// when the worker ended without removing them (killed).
int runPreambleWorker(const AnalysisOptions &Base, int In, llvm::raw_ostream &OS);

/// The directory of the PCH files of the preamble worker with process id Pid.
std::string preambleDir(pid_t Pid);

/// A child process with its stdout and stderr read through pipes, in a process group of
/// its own (so that ending it ends what it started).
class ChildProcess {
public:
  /// Starts Argv (no shell); nothing with Error set when it cannot.
  static std::unique_ptr<ChildProcess> start(const std::vector<std::string> &Argv,
                                             std::string &Error, bool WithStdin = false);
  /// Writes Line and a newline to the process' stdin (started WithStdin); false when it
  /// cannot (the process ended).
  bool writeLine(const std::string &Line);
  ~ChildProcess();
  /// Reads stdout line by line (OnLine) and stderr (kept, its last 4 KiB) until both
  /// close, then waits: the wait status.
  int wait(const std::function<void(std::string)> &OnLine);
  /// Ends the process group (SIGKILL); safe from another thread while wait() runs.
  void kill();
  const std::string &stderrText() const { return Stderr; }
  pid_t pid() const { return Pid; }

private:
  pid_t Pid = -1;
  int OutFd = -1, ErrFd = -1, InFd = -1;
  std::string Stderr;
  std::mutex Lock; ///< Reaped against kill(): a reaped pid may be reused
  bool Reaped = false;
};

/// "crashed (signal 11, Segmentation fault)" or "exited with status 2".
std::string describeWaitStatus(int Status);

} // namespace warplint::driver::lsp
