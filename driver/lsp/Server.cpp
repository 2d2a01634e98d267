//===- Server.cpp - warplint's language server ------------------------------===//
#include "driver/lsp/Server.h"
#include "driver/formats/BoundedJson.h"

#include "driver/lsp/Convert.h"

#include "warplint/core/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "warplint/core/Arch.h"

#include <fmt/format.h>

namespace warplint::driver::lsp {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

// JSON-RPC and LSP error codes.
constexpr int ParseError = -32700, InvalidRequest = -32600, MethodNotFound = -32601,
              InvalidParams = -32602, ServerNotInitialized = -32002;
// window/showMessage and logMessage types.
constexpr int MsgError = 1, MsgWarning = 2, MsgInfo = 3, MsgLog = 4;

std::string baseName(const std::string &Path) {
  return std::string(llvm::sys::path::filename(Path));
}

/// The last N lines of a text, trimmed ("" for none).
// C, C++, CUDA and HIP sources and headers, by extension (what an editor's CUDA client
// may open beside them is not parsed: clang would answer "no input files").
bool isAnalysableFile(llvm::StringRef Path) {
  std::string Ext = llvm::sys::path::extension(Path).lower();
  for (llvm::StringRef E :
       {".cu", ".cuh", ".hip", ".c",   ".cc",  ".cpp", ".cxx", ".c++", ".cp",    ".h",
        ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp", ".tcc", ".cuhpp", ".inc"})
    if (Ext == E)
      return true;
  return false;
}

std::string lastLines(llvm::StringRef Text, size_t N) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.trim().split(Lines, '\n');
  std::string Out;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size(); ++I)
    Out += (Out.empty() ? "" : "\n") + Lines[I].rtrim().str();
  return Out;
}

} // namespace

Server::Server(Transport &T, ServerOptions O, std::string Exe)
    : T(T), Opts(std::move(O)), Exe(std::move(Exe)) {
  if (Opts.Jobs == 0)
    Opts.Jobs = llvm::hardware_concurrency().compute_thread_count() > 1 ? 2 : 1;
  Scheduler = std::thread([this] { schedulerLoop(); });
}

Server::~Server() {
  std::unique_lock<std::mutex> G(Lock);
  Stopping = true;
  for (auto &[Path, F] : Files)
    if (F.Running)
      F.Running->kill();
  if (Worker)
    Worker->kill();
  Wake.notify_all();
  // The analysis threads end once their (killed) children are reaped.
  Wake.wait_for(G, std::chrono::seconds(10), [this] { return Threads == 0; });
  G.unlock();
  Scheduler.join();
}

int Server::run() {
  std::string Body, Problem;
  for (;;) {
    switch (T.read(Body, Problem)) {
    case ReadStatus::Eof:
      log(MsgLog, "the input ended without an exit notification");
      return 1;
    case ReadStatus::Malformed:
      log(MsgError, "warplint lsp: " + Problem);
      continue;
    case ReadStatus::Message:
      break;
    }
    llvm::Expected<Value> V = parseBoundedJson(Body);
    if (!V) {
      std::string Why = llvm::toString(V.takeError());
      replyError(nullptr, ParseError, "malformed message (not JSON): " + Why);
      log(MsgError, "warplint lsp: a message that is not JSON was ignored: " + Why);
      continue;
    }
    const Object *O = V->getAsObject();
    std::optional<llvm::StringRef> Method = O ? O->getString("method") : std::nullopt;
    const Value *Id = O ? O->get("id") : nullptr;
    if (!O || (!Method && !(Id && (O->get("result") || O->get("error"))))) {
      replyError(Id ? *Id : Value(nullptr), InvalidRequest,
                 "not a JSON-RPC request or notification (no \"method\")");
      log(MsgError, "warplint lsp: a message without a method was ignored");
      continue;
    }
    // JSON-RPC: an id is a number or a string (an object was accepted, and answered with).
    if (Id && !Id->getAsInteger() && !Id->getAsString()) {
      replyError(nullptr, InvalidRequest, "the request's \"id\" is neither a number nor a string");
      log(MsgError, "warplint lsp: a message whose id is neither a number nor a string was "
                    "ignored");
      continue;
    }
    if (!Method)
      continue; // a response to a request of ours: we send none
    const Object *Params = O->getObject("params");
    if (*Method == "exit") {
      return ShutDown ? 0 : 1;
    }
    if (Id)
      onRequest(*Method, *Id, Params);
    else
      onNotification(*Method, Params);
  }
}

void Server::onRequest(llvm::StringRef Method, const Value &Id, const Object *Params) {
  if (Method == "initialize") {
    if (Initialized) {
      replyError(Id, InvalidRequest, "initialize was already received");
      return;
    }
    reply(Id, initialize(Params));
    Initialized = true;
    return;
  }
  if (!Initialized) {
    replyError(Id, ServerNotInitialized, "the server is not initialized yet");
    return;
  }
  if (ShutDown) {
    replyError(Id, InvalidRequest, "the server is shut down: only exit is accepted");
    return;
  }
  if (Method == "shutdown") {
    ShutDown = true;
    std::lock_guard<std::mutex> G(Lock);
    for (auto &[Path, F] : Files) {
      F.Pending = false;
      if (F.Running)
        F.Running->kill();
    }
    if (Worker)
      Worker->kill();
    reply(Id, nullptr);
    return;
  }
  if (Method == "textDocument/hover") {
    std::string Error;
    std::optional<Value> H = hover(Params, Error);
    if (!Error.empty())
      replyError(Id, InvalidParams, Error);
    else
      reply(Id, H ? std::move(*H) : Value(nullptr));
    return;
  }
  if (Method == "textDocument/codeAction") {
    std::string Error;
    std::optional<Value> A = codeActions(Params, Error);
    if (!Error.empty())
      replyError(Id, InvalidParams, Error);
    else
      reply(Id, A ? std::move(*A) : Value(Array()));
    return;
  }
  replyError(Id, MethodNotFound, "warplint lsp does not answer '" + Method.str() + "'");
}

void Server::onNotification(llvm::StringRef Method, const Object *Params) {
  if (!Initialized || ShutDown)
    return; // dropped, as LSP asks
  if (Method == "initialized")
    return;
  if (Method == "textDocument/didOpen" || Method == "textDocument/didSave") {
    if (std::optional<std::string> Path = documentPath(Params)) {
      // Only what clang parses as C, C++, CUDA or HIP: another file (notes.txt, a Python
      // script an editor opened with the same client) got clang's "no input files" as a
      // warning popup. Said once per file in the log.
      if (!isAnalysableFile(*Path)) {
        if (NotAnalysedSaid.insert(*Path).second)
          log(MsgLog, "warplint lsp: " + baseName(*Path) +
                          " is not a C, C++, CUDA or HIP file: not analysed");
        return;
      }
      const Object *Doc = Params->getObject("textDocument");
      if (std::optional<llvm::StringRef> Text = Doc->getString("text")) {
        std::lock_guard<std::mutex> G(Lock);
        Files[*Path].Text = Text->str();
      }
      request(*Path, Doc->getString("uri")->str(), /*Edit=*/false);
    }
    return;
  }
  if (Method == "textDocument/didChange") {
    // The whole text in each change (textDocumentSync.change is Full): the last one is
    // the document now; its diagnostics come from the preamble worker, as unsaved text.
    std::optional<std::string> Path = documentPath(Params);
    if (!Path || !isAnalysableFile(*Path))
      return;
    const Array *Changes = Params->getArray("contentChanges");
    const Object *Last = Changes && !Changes->empty() ? Changes->back().getAsObject() : nullptr;
    std::optional<llvm::StringRef> Text = Last ? Last->getString("text") : std::nullopt;
    if (!Text || Last->get("range")) {
      if (NotAnalysedSaid.insert("change\n" + *Path).second)
        log(MsgWarning, "warplint lsp: a didChange of " + baseName(*Path) +
                            " without the whole text (warplint asks for full text sync): "
                            "analysed on save only (said once per file)");
      return;
    }
    {
      std::lock_guard<std::mutex> G(Lock);
      auto It = Files.find(*Path);
      if (It == Files.end() || !It->second.Open)
        return; // not opened: nothing to publish to
      It->second.Text = Text->str();
    }
    request(*Path, Params->getObject("textDocument")->getString("uri")->str(), /*Edit=*/true);
    return;
  }
  if (Method == "textDocument/didClose") {
    if (std::optional<std::string> Path = documentPath(Params))
      close(*Path);
    return;
  }
  if (Method.starts_with("$/"))
    return; // optional notifications ($/cancelRequest, $/setTrace): nothing to do
  if (IgnoredMethods.insert(Method.str()).second)
    log(MsgLog, "warplint lsp ignores the notification '" + Method.str() + "'");
}

Value Server::initialize(const Object *Params) {
  // UTF-8 columns when the client offers them (LSP 3.17), else UTF-16 as the protocol
  // defaults to.
  if (Params)
    if (const Object *Caps = Params->getObject("capabilities"))
      if (const Object *General = Caps->getObject("general"))
        if (const Array *Encodings = General->getArray("positionEncodings"))
          for (const Value &E : *Encodings)
            if (E.getAsString() == llvm::StringRef("utf-8"))
              Utf8 = true;
  return Object{
      {"capabilities",
       Object{{"positionEncoding", Utf8 ? "utf-8" : "utf-16"},
              {"textDocumentSync",
               Object{{"openClose", true}, {"change", 1}, {"save", Object{{"includeText", false}}}}},
              {"hoverProvider", true},
              {"codeActionProvider", Object{{"codeActionKinds", Array{"quickfix"}}}}}},
      {"serverInfo", Object{{"name", "warplint"}, {"version", versionString()}}}};
}

std::optional<std::string> Server::documentPath(const Object *Params) {
  const Object *Doc = Params ? Params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  if (!Uri) {
    log(MsgError, "warplint lsp: a document notification without textDocument.uri was ignored");
    return std::nullopt;
  }
  std::string Error;
  std::optional<std::string> Path = uriToPath(*Uri, Error);
  if (!Path && NotAnalysedSaid.insert(Uri->str()).second)
    log(MsgWarning, "warplint lsp: " + Error + ": not analysed (said once per document)");
  return Path;
}

Server::FileState *Server::analysedFile(llvm::StringRef Uri, std::string &Path,
                                        std::string &Error) {
  std::optional<std::string> P = uriToPath(Uri, Error);
  if (!P)
    return nullptr;
  Path = std::move(*P);
  auto It = Files.find(Path);
  return It == Files.end() || !It->second.Last ? nullptr : &It->second;
}

std::optional<Value> Server::hover(const Object *Params, std::string &Error) {
  const Object *Doc = Params ? Params->getObject("textDocument") : nullptr;
  const Object *Pos = Params ? Params->getObject("position") : nullptr;
  std::optional<llvm::StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  std::optional<int64_t> Line = Pos ? Pos->getInteger("line") : std::nullopt;
  std::optional<int64_t> Char = Pos ? Pos->getInteger("character") : std::nullopt;
  if (!Uri || !Line || !Char || *Line < 0 || *Char < 0) {
    Error = "hover needs textDocument.uri and position.line/character";
    return std::nullopt;
  }
  std::lock_guard<std::mutex> G(Lock);
  std::string Path;
  FileState *F = analysedFile(*Uri, Path, Error);
  if (!F)
    return std::nullopt;
  SourceLines Lines = linesOf(*F);
  unsigned L = static_cast<unsigned>(*Line) + 1;
  unsigned Column = Lines.toColumn(Lines.line(Path, L), static_cast<unsigned>(*Char));
  std::optional<LaunchHover> H = hoverAt(*F->Last, Path, L, Column);
  if (!H)
    return std::nullopt;
  return Value(Object{{"contents", Object{{"kind", "markdown"}, {"value", H->Markdown}}},
                      {"range", Lines.range(Path, H->Line, H->Column)}});
}

std::optional<Value> Server::codeActions(const Object *Params, std::string &Error) {
  const Object *Doc = Params ? Params->getObject("textDocument") : nullptr;
  const Object *Range = Params ? Params->getObject("range") : nullptr;
  const Object *Start = Range ? Range->getObject("start") : nullptr;
  const Object *End = Range ? Range->getObject("end") : nullptr;
  std::optional<llvm::StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  std::optional<int64_t> First = Start ? Start->getInteger("line") : std::nullopt;
  std::optional<int64_t> Last = End ? End->getInteger("line") : std::nullopt;
  if (!Uri || !First || !Last || *First < 0 || *Last < *First) {
    Error = "codeAction needs textDocument.uri and range.start/end.line";
    return std::nullopt;
  }
  std::lock_guard<std::mutex> G(Lock);
  std::string Path;
  FileState *F = analysedFile(*Uri, Path, Error);
  if (!F)
    return std::nullopt;
  SourceLines Lines = linesOf(*F);
  return Value(codeActionsFor(*F->Last, Path, unsigned(*First) + 1, unsigned(*Last) + 1, Lines));
}

void Server::reply(const Value &Id, Value Result) {
  T.send(Object{{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Server::replyError(const Value &Id, int Code, const std::string &Message) {
  T.send(Object{{"jsonrpc", "2.0"},
                {"id", Id},
                {"error", Object{{"code", Code}, {"message", Message}}}});
}

void Server::notify(llvm::StringRef Method, Value Params) {
  T.send(Object{{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Server::log(int Type, const std::string &Message) {
  notify("window/logMessage", Object{{"type", Type}, {"message", Message}});
}

void Server::show(int Type, const std::string &Message) {
  notify("window/showMessage", Object{{"type", Type}, {"message", Message}});
  log(Type, Message);
}

void Server::request(const std::string &Path, const std::string &Uri, bool Edit) {
  std::lock_guard<std::mutex> G(Lock);
  FileState &F = Files[Path];
  F.Path = Path;
  F.Uri = Uri;
  F.Open = true;
  F.Pending = true;
  F.Edit = Edit;
  F.Due = Clock::now() + std::chrono::milliseconds(Opts.DebounceMs);
  ++F.Generation;
  // The analysis in progress is of an older state of the file: end it.
  if (F.Running) {
    F.Running->kill();
    log(MsgLog, "warplint lsp: the analysis of " + baseName(Path) +
                    " in progress was ended: the file is analysed again");
  }
  Wake.notify_all();
}

void Server::close(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Files.find(Path);
  if (It == Files.end())
    return;
  FileState &F = It->second;
  ++F.Generation;
  F.Pending = false;
  F.Open = false;
  F.Last.reset();
  F.Text.reset();
  F.Warmed = false;
  llvm::erase(WarmQueue, Path);
  if (F.Running)
    F.Running->kill();
  // Its preamble is dropped (a small line: the pipe takes it without waiting).
  if (Worker)
    Worker->writeLine(llvm::formatv("{0}", Value(Object{{"close", Path}})).str());
  notify("textDocument/publishDiagnostics", Object{{"uri", F.Uri}, {"diagnostics", Array()}});
}

void Server::schedulerLoop() {
  std::unique_lock<std::mutex> G(Lock);
  while (!Stopping) {
    Clock::time_point Now = Clock::now(), Next = Clock::time_point::max();
    for (auto &[Path, F] : Files) {
      if (!F.Pending || F.Running || F.Edit)
        continue; // a running analysis is ended by request(); its thread wakes us
      if (F.Due > Now) {
        Next = std::min(Next, F.Due);
        continue;
      }
      if (Running < Opts.Jobs)
        start(F);
    }
    // The preamble worker's next request: written without the lock (a long text waits
    // until the worker reads it), then everything is looked at again.
    if (std::string Line = ShutDown ? "" : nextWorkerRequest(Now, Next); !Line.empty()) {
      if (std::shared_ptr<ChildProcess> W = preambleWorker()) {
        G.unlock();
        W->writeLine(Line); // a worker that ended: its reader says so and clears InFlight
        G.lock();
        continue;
      }
      InFlight = WorkerRequest();
    }
    if (Next == Clock::time_point::max())
      Wake.wait(G);
    else
      Wake.wait_until(G, Next);
  }
}

std::string Server::databaseFor(const std::string &Path) {
  std::string Db = !Opts.CompileCommandsDir.empty() ? Opts.CompileCommandsDir
                                                    : findCompileCommandsDir(Path);
  std::string Key = Db.empty() ? "none:" + Path : Db;
  if (DatabasesSaid.insert(Key).second) {
    std::string NoDb = "no compile_commands.json in the directory of " + Path +
                       " or its parents (nor in their build/): it is analysed alone, as "
                       "`warplint check FILE` does (CUDA, device side of " +
                       (Opts.Arch.empty() ? std::string(::warplint::DefaultCudaArch) : Opts.Arch) + ")";
    if (!Db.empty())
      log(MsgInfo, "warplint lsp: " + baseName(Path) + ": compile database " + Db +
                       "/compile_commands.json");
    else if (!NoDatabaseShown) {
      // A popup once per server (it appeared for every file opened); each further file
      // without a database is said in the log.
      NoDatabaseShown = true;
      show(MsgInfo, "warplint lsp: " + NoDb +
                        "; give --compile-commands-dir for a build elsewhere (said once: "
                        "other files without a database are named in the log)");
    } else
      log(MsgInfo, "warplint lsp: " + NoDb);
  }
  return Db;
}

void Server::start(FileState &F) {
  F.Pending = false;
  std::string Error;
  std::shared_ptr<ChildProcess> Child =
      ChildProcess::start(workerArgv(Exe, Opts, F.Path, databaseFor(F.Path)), Error);
  if (!Child) {
    show(MsgError, "warplint lsp: cannot start the analysis of " + F.Path + ": " + Error);
    return;
  }
  F.Running = Child;
  ++Running;
  ++Threads;
  std::thread([this, Path = F.Path, Gen = F.Generation, Child] { analysis(Path, Gen, Child); })
      .detach();
}

void Server::analysis(std::string Path, unsigned Generation, std::shared_ptr<ChildProcess> Child) {
  bool GotFinal = false;
  int Status = Child->wait([&](std::string Line) {
    std::optional<WorkerLine> W = parseWorkerLine(Line);
    std::lock_guard<std::mutex> G(Lock);
    FileState &F = Files[Path];
    if (F.Generation != Generation || !F.Open || ShutDown)
      return; // superseded: a newer analysis is asked for
    if (!W) {
      log(MsgError, "warplint lsp: the analysis of " + baseName(Path) +
                        " wrote a line that is not a result: " + Line.substr(0, 200));
      return;
    }
    GotFinal |= W->Final;
    publish(F, std::move(W->Result), W->Final);
  });
  std::lock_guard<std::mutex> G(Lock);
  FileState &F = Files[Path];
  bool Current = F.Generation == Generation && F.Open && !ShutDown && !Stopping;
  if (F.Running == Child)
    F.Running.reset();
  --Running;
  --Threads;
  std::string Err = lastLines(Child->stderrText(), 6);
  if (Current && !GotFinal) {
    // The child crashed or could not start its analysis: the server goes on, the file's
    // last diagnostics stay.
    show(MsgError, fmt::format("warplint lsp: the analysis of {} {}{}; the server goes on and "
                               "keeps the file's last diagnostics",
                               Path, describeWaitStatus(Status),
                               Err.empty() ? "" : ": " + Err));
  } else if (Current && !Err.empty()) {
    // What the analysis said on stderr (a missing toolkit, a bad database entry), once.
    for (llvm::StringRef L : llvm::split(Err, '\n'))
      if (StderrSaid.insert(L.str()).second)
        log(MsgInfo, L.str());
  }
  Wake.notify_all();
}

std::string Server::nextWorkerRequest(Clock::time_point Now, Clock::time_point &Next) {
  if (InFlight.Id)
    return ""; // one request at a time: its answer wakes the scheduler
  for (auto &[Path, F] : Files) {
    if (!F.Pending || !F.Edit || F.Running || !F.Text)
      continue;
    if (F.Due > Now) {
      Next = std::min(Next, F.Due);
      continue;
    }
    // The text on disk again (an undo to the saved text): analysed as a save is, with the
    // result cache and nvcc's figures.
    auto Disk = llvm::MemoryBuffer::getFile(Path);
    if (Disk && (*Disk)->getBuffer() == *F.Text) {
      F.Edit = false;
      Next = Now;
      continue;
    }
    F.Pending = false;
    InFlight = {NextWorkerId++, Path, F.Generation, false, Now};
    return llvm::formatv("{0}", Value(Object{{"id", InFlight.Id},
                                             {"file", Path},
                                             {"db", databaseFor(Path)},
                                             {"text", *F.Text}}))
        .str();
  }
  while (!WarmQueue.empty()) {
    std::string Path = WarmQueue.front();
    WarmQueue.erase(WarmQueue.begin());
    auto It = Files.find(Path);
    if (It == Files.end() || !It->second.Open)
      continue;
    InFlight = {NextWorkerId++, Path, It->second.Generation, true, Now};
    return llvm::formatv("{0}", Value(Object{{"id", InFlight.Id},
                                             {"file", Path},
                                             {"db", databaseFor(Path)},
                                             {"warm", true}}))
        .str();
  }
  return "";
}

std::shared_ptr<ChildProcess> Server::preambleWorker() {
  if (Worker)
    return Worker;
  std::string Error;
  std::shared_ptr<ChildProcess> W =
      ChildProcess::start(workerArgv(Exe, Opts, "", ""), Error, /*WithStdin=*/true);
  if (!W) {
    show(MsgError, "warplint lsp: cannot start the preamble worker: " + Error +
                       "; edits are analysed when they are saved");
    return nullptr;
  }
  Worker = W;
  log(MsgLog, fmt::format("warplint lsp: the preamble worker started (pid {})", W->pid()));
  ++Threads;
  std::thread([this, W] { workerReader(W); }).detach();
  return W;
}

void Server::workerReader(std::shared_ptr<ChildProcess> W) {
  AnswerJoiner Answers;
  int Status = W->wait([&](std::string Line) {
    if (std::optional<std::string> Answer = Answers.add(std::move(Line)))
      workerLine(W, *Answer);
  });
  // The PCH files of a worker that was killed (one that ended removed them).
  llvm::sys::fs::remove_directories(preambleDir(W->pid()));
  std::lock_guard<std::mutex> G(Lock);
  if (Worker == W) {
    Worker.reset();
    if (!Stopping && !ShutDown) {
      std::string Err = lastLines(W->stderrText(), 6);
      std::string How = describeWaitStatus(Status) + (Err.empty() ? "" : ": " + Err);
      auto It = InFlight.Id ? Files.find(InFlight.Path) : Files.end();
      if (It != Files.end() && !InFlight.Warm && It->second.Open &&
          It->second.Generation == InFlight.Generation)
        show(MsgError, fmt::format("warplint lsp: the analysis of the unsaved text of {} {}; "
                                   "a new worker starts for the next edit, and the file keeps "
                                   "its last diagnostics",
                                   InFlight.Path, How));
      else
        log(MsgWarning, fmt::format("warplint lsp: the preamble worker (pid {}) {}{}; a new "
                                    "one starts for the next edit",
                                    W->pid(), How,
                                    InFlight.Warm ? " while it built the preamble of " +
                                                        InFlight.Path
                                                  : ""));
      // Its preambles ended with it: built again in the new one, but not the one it was
      // busy with (it may end it again); that file's next edit builds it.
      for (auto &[Path, F] : Files)
        if (F.Open && F.Warmed && Path != InFlight.Path && !llvm::is_contained(WarmQueue, Path))
          WarmQueue.push_back(Path);
    }
    InFlight = WorkerRequest();
  }
  --Threads;
  Wake.notify_all();
}

void Server::workerLine(std::shared_ptr<ChildProcess> W, const std::string &Line) {
  // The header: the answer's first line (its result's lines follow it).
  llvm::Expected<Value> V = parseBoundedJson(llvm::StringRef(Line).split('\n').first);
  if (!V)
    llvm::consumeError(V.takeError());
  const Object *O = V ? V->getAsObject() : nullptr;
  std::lock_guard<std::mutex> G(Lock);
  if (Worker != W)
    return;
  if (!O) {
    log(MsgError, "warplint lsp: the preamble worker wrote a line that is not an answer: " +
                      Line.substr(0, 200));
    return;
  }
  int64_t Id = O->getInteger("id").value_or(0);
  bool Answer = Id && Id == InFlight.Id;
  WorkerRequest Req = Answer ? InFlight : WorkerRequest();
  if (Answer)
    InFlight = WorkerRequest();
  Wake.notify_all();
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - Req.Sent).count();
  std::string Memory = fmt::format(
      "the worker {:.0f} MB resident, its preambles {:.1f} MB on disk",
      double(O->getInteger("rss_kb").value_or(0)) / 1024,
      double(O->getInteger("preamble_bytes").value_or(0)) / 1e6);
  if (std::optional<llvm::StringRef> Warm = O->getString("warm")) {
    log(MsgLog, fmt::format("warplint lsp: {}: preamble {}; {}", baseName(Warm->str()),
                            O->getString("note").value_or("?").str(), Memory));
    return;
  }
  if (std::optional<llvm::StringRef> Error = O->getString("error")) {
    if (Answer)
      show(MsgError, "warplint lsp: cannot analyse the unsaved text of " + Req.Path + ": " +
                         Error->str());
    return;
  }
  if (!Answer)
    return;
  std::optional<WorkerLine> L = parseWorkerAnswer(Line);
  auto It = Files.find(Req.Path);
  if (!L || It == Files.end() || !It->second.Open || It->second.Generation != Req.Generation ||
      ShutDown)
    return; // superseded: a newer edit or save is analysed
  log(MsgLog, fmt::format("warplint lsp: {}: unsaved text analysed in {} ms {} a preamble; {}",
                          baseName(Req.Path), Ms,
                          O->getBoolean("preamble").value_or(false) ? "with" : "without",
                          Memory));
  publish(It->second, std::move(L->Result), /*Final=*/true, /*OfText=*/true);
}

SourceLines Server::linesOf(const FileState &F) {
  SourceLines Lines(Utf8);
  if (F.LastOfText && F.Text)
    Lines.setText(F.Path, *F.Text);
  return Lines;
}

void Server::publish(FileState &F, RunResult R, bool Final, bool OfText) {
  // The messages first: a client that reads the diagnostics has read why they are
  // partial (registers to follow) or what failed.
  std::set<std::string> Now;
  for (const RunMessage &M : R.Messages) {
    Now.insert(M.Text);
    if (!F.Said.count(M.Text))
      log(M.Level == Severity::Error ? MsgError : M.Level == Severity::Warning ? MsgWarning : MsgInfo,
          "warplint: " + baseName(F.Path) + ": " + M.Text);
  }
  if (!Final) // a worker's first line when nvcc's figures were not cached
    log(MsgInfo, "warplint: " + baseName(F.Path) +
                     ": nvcc's figures are not cached yet: these diagnostics go without them "
                     "(registers not counted, or a spilling kernel's figures without its "
                     "caps); nvcc runs now and the figures follow");
  F.Said = std::move(Now);
  bool Failed = !R.FilesFailed.empty();
  if (Failed && !F.Failing) {
    std::string Why;
    for (const Finding &Fd : R.Findings)
      if (Fd.Level == Severity::Error) {
        Why = Fd.Message;
        break;
      }
    show(MsgWarning, "warplint could not analyse " + baseName(F.Path) +
                         (Why.empty() ? std::string() : ": " + Why) +
                         " (clang's errors are among its diagnostics)");
  }
  F.Failing = Failed;
  // A file with no kernel and no launch as its command compiles it (host-only C++, a
  // command that does not compile it as CUDA or HIP) gets no diagnostics, which looks
  // the same as a setup that does not work: said once per file, in the log.
  if (Final && !Failed && R.Kernels.empty() && R.Launches.empty() && R.Findings.empty() &&
      NotAnalysedSaid.insert("nothing\n" + F.Path).second)
    log(MsgInfo, "warplint lsp: " + baseName(F.Path) +
                     ": no kernel and no kernel launch in it as its command compiles it "
                     "(warplint checks CUDA and HIP kernels and their launches): nothing to "
                     "report (said once per file)");
  if (OfText && !R.RegistersNotCached.empty() &&
      NotAnalysedSaid.insert("unsaved\n" + F.Path).second)
    log(MsgInfo, "warplint: " + baseName(F.Path) +
                     ": unsaved text is analysed without nvcc's register figures unless nvcc "
                     "compiled this very text before (nvcc compiles the file on disk): they "
                     "come with the next save (said once per file)");
  // Its preamble, for the edits to come: built by the worker once the file is analysed.
  if (!OfText && !F.Warmed && F.Open) {
    F.Warmed = true;
    WarmQueue.push_back(F.Path);
    Wake.notify_all();
  }
  F.LastOfText = OfText;
  SourceLines Lines = linesOf(F);
  notify("textDocument/publishDiagnostics",
         Object{{"uri", F.Uri}, {"diagnostics", diagnosticsFor(R, F.Path, Lines)}});
  F.Last = std::move(R);
}

} // namespace warplint::driver::lsp
