//===- Server.h - warplint's language server: documents, analyses, diagnostics -*- C++ -*-===//
//
// `warplint lsp`: the Language Server Protocol on stdio. A file is analysed when it is
// opened and when it is saved (after a quiet time, so a burst of saves is one analysis),
// in a child process (driver/lsp/Worker.h) so that one analysis' crash leaves the server
// running; a newer request for the same file ends the analysis in progress, and at most
// ServerOptions::Jobs files are analysed at once. An edit (didChange, after the same quiet
// time) is analysed as the editor's unsaved text by one long-lived worker process that
// keeps each open file's precompiled preamble (runPreambleWorker), started on first need
// and again after it ends (a crash: said, and the file keeps its diagnostics). Each result
// is published as the file's diagnostics (driver/lsp/Convert.h) and kept for hovers on
// its kernel launches.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"
#include "driver/lsp/Convert.h"
#include "driver/lsp/Transport.h"
#include "driver/lsp/Worker.h"

#include "llvm/Support/JSON.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace warplint::driver::lsp {

class Server {
public:
  /// Exe: the warplint binary the workers run.
  Server(Transport &T, ServerOptions Opts, std::string Exe);
  ~Server();
  /// Reads and answers messages until `exit` or the end of the input; the exit code
  /// (0 after shutdown, 1 otherwise, as LSP asks).
  int run();

private:
  using Clock = std::chrono::steady_clock;
  struct FileState {
    std::string Uri, Path;
    bool Open = false;
    bool Pending = false;          ///< an analysis is asked for
    Clock::time_point Due;         ///< not before this (the quiet time)
    unsigned Generation = 0;       ///< bumped by each request; a run of an older one is stale
    std::shared_ptr<ChildProcess> Running;
    std::optional<RunResult> Last; ///< the newest published result
    bool Failing = false;          ///< the last result could not analyse the file (said once)
    std::set<std::string> Said;    ///< run messages already logged for this file
    std::optional<std::string> Text; ///< the editor's text (didOpen, didChange)
    bool Edit = false;     ///< the pending analysis is of Text (didChange), in the worker
    bool Warmed = false;   ///< its preamble was asked of the worker
    bool LastOfText = false; ///< Last is of Text, not of the file on disk
  };
  /// The request the preamble worker is answering (Id 0: none).
  struct WorkerRequest {
    int64_t Id = 0;
    std::string Path;
    unsigned Generation = 0;
    bool Warm = false;
    Clock::time_point Sent;
  };

  void handle(const std::string &Body);
  void onRequest(llvm::StringRef Method, const llvm::json::Value &Id,
                 const llvm::json::Object *Params);
  void onNotification(llvm::StringRef Method, const llvm::json::Object *Params);
  llvm::json::Value initialize(const llvm::json::Object *Params);
  std::optional<llvm::json::Value> hover(const llvm::json::Object *Params, std::string &Error);
  /// textDocument/codeAction: the quick fixes of the findings in the range.
  std::optional<llvm::json::Value> codeActions(const llvm::json::Object *Params,
                                               std::string &Error);

  void reply(const llvm::json::Value &Id, llvm::json::Value Result);
  void replyError(const llvm::json::Value &Id, int Code, const std::string &Message);
  void notify(llvm::StringRef Method, llvm::json::Value Params);
  void log(int Type, const std::string &Message);  ///< window/logMessage
  void show(int Type, const std::string &Message); ///< window/showMessage (and logged)

  /// The document of a notification's textDocument.uri, or nothing (logged).
  std::optional<std::string> documentPath(const llvm::json::Object *Params);
  /// Edit: an analysis of the editor's text (didChange), else of the file on disk.
  void request(const std::string &Path, const std::string &Uri, bool Edit);
  void close(const std::string &Path);

  void schedulerLoop();
  void start(FileState &F);
  void analysis(std::string Path, unsigned Generation, std::shared_ptr<ChildProcess> Child);
  void publish(FileState &F, RunResult R, bool Final, bool OfText = false);
  /// The line texts diagnostics of F's last result are placed in (its unsaved text).
  SourceLines linesOf(const FileState &F);
  /// The file of a request's Uri (its path in Path) when it has a result; null when it
  /// has none yet, or when Uri is not a file URI (Error set). The caller holds Lock.
  FileState *analysedFile(llvm::StringRef Uri, std::string &Path, std::string &Error);
  /// The preamble worker: started when none runs; null when it cannot start (shown).
  std::shared_ptr<ChildProcess> preambleWorker();
  /// The next line for the preamble worker (an edit due, else a preamble to build), with
  /// InFlight set; empty when there is none or the worker is busy.
  std::string nextWorkerRequest(Clock::time_point Now, Clock::time_point &Next);
  void workerReader(std::shared_ptr<ChildProcess> W);
  /// One answer of the preamble worker (AnswerJoiner's: a header line and its result's
  /// lines, or a lone line).
  void workerLine(std::shared_ptr<ChildProcess> W, const std::string &Line);
  std::string databaseFor(const std::string &Path);

  Transport &T;
  ServerOptions Opts;
  std::string Exe;
  bool Initialized = false, ShutDown = false, Utf8 = false;
  std::set<std::string> IgnoredMethods;

  std::mutex Lock; ///< everything below
  std::condition_variable Wake;
  std::map<std::string, FileState> Files;
  std::set<std::string> DatabasesSaid;
  bool NoDatabaseShown = false;          ///< the no-database popup was shown (once)
  std::set<std::string> NotAnalysedSaid; ///< files not C/C++/CUDA/HIP, said once each
  std::set<std::string> StderrSaid;
  std::shared_ptr<ChildProcess> Worker; ///< the preamble worker (null: none running)
  WorkerRequest InFlight;
  int64_t NextWorkerId = 1;
  std::vector<std::string> WarmQueue; ///< files whose preamble the worker is to build
  unsigned Running = 0;  ///< analyses in progress
  unsigned Threads = 0;  ///< analysis threads alive
  bool Stopping = false;
  std::thread Scheduler;
};

} // namespace warplint::driver::lsp
