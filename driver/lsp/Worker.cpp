//===- Worker.cpp - the server's child process: spawn, read, cancel; the worker ===//
#include "driver/lsp/Worker.h"
#include "driver/formats/BoundedJson.h"

#include "driver/run/Preamble.h"
#include "driver/cache/ResultCache.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace warplint::driver::lsp {

std::vector<std::string> workerArgv(const std::string &Exe, const ServerOptions &Opts,
                                    const std::string &File, const std::string &DbDir) {
  std::vector<std::string> A = {Exe, "lsp"};
  if (File.empty())
    A.push_back("--preamble-worker");
  else
    A.insert(A.end(), {"--analyse", File});
  if (!DbDir.empty())
    A.insert(A.end(), {"--compile-commands-dir", DbDir});
  auto Add = [&](const char *Name, const std::string &V) {
    if (!V.empty())
      A.insert(A.end(), {Name, V});
  };
  Add("--arch", Opts.Arch);
  if (Opts.Checks != "-*,warplint-*")
    Add("--checks", Opts.Checks);
  Add("--cuda-path", Opts.CudaPath);
  if (Opts.RegistersFrom != "auto")
    Add("--registers-from", Opts.RegistersFrom);
  Add("--cache-dir", Opts.CacheDir);
  if (Opts.MockCuda)
    A.push_back("--mock-cuda");
  if (Opts.NoCache)
    A.push_back("--no-cache");
  return A;
}

std::string workerLine(const RunResult &R, bool Final, llvm::json::Object Extra) {
  // The files analysed with errors travel inside the result (resultToJson).
  llvm::json::Object O = std::move(Extra);
  O["final"] = Final;
  O["result"] = resultToJson(R);
  O["from_cache"] = static_cast<int64_t>(R.FromCache);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  OS.flush();
  return Out;
}

std::optional<WorkerLine> parseWorkerLine(llvm::StringRef Line) {
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(Line);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return std::nullopt;
  std::optional<llvm::StringRef> Text = O->getString("result");
  if (!Text)
    return std::nullopt;
  std::optional<RunResult> R = resultFromJson(std::string_view(Text->data(), Text->size()));
  if (!R)
    return std::nullopt;
  WorkerLine W{std::move(*R), O->getBoolean("final").value_or(true)};
  W.Result.FromCache = static_cast<size_t>(O->getInteger("from_cache").value_or(0));
  return W;
}

std::string workerAnswer(const RunResult &R, bool Final, llvm::json::Object Extra) {
  std::string Lines = resultToLines(R);
  llvm::json::Object O = std::move(Extra);
  O["final"] = Final;
  O["from_cache"] = static_cast<int64_t>(R.FromCache);
  O["result_lines"] = static_cast<int64_t>(llvm::count(Lines, '\n'));
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O)) << '\n' << Lines;
  OS.flush();
  return Out;
}

std::optional<WorkerLine> parseWorkerAnswer(llvm::StringRef Text) {
  auto [Header, Lines] = Text.split('\n');
  if (Lines.empty())
    return parseWorkerLine(Header);
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(Header);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || !O->getInteger("result_lines"))
    return std::nullopt;
  // resultFromLines reads lines that each end with a newline (the last one too).
  std::string Body = Lines.str();
  Body += '\n';
  std::optional<RunResult> R = resultFromLines(Body);
  if (!R)
    return std::nullopt;
  WorkerLine W{std::move(*R), O->getBoolean("final").value_or(true)};
  W.Result.FromCache = static_cast<size_t>(O->getInteger("from_cache").value_or(0));
  return W;
}

std::optional<std::string> AnswerJoiner::add(std::string Line) {
  if (Left) {
    Pending += '\n';
    Pending += Line;
    if (--Left)
      return std::nullopt;
    return std::move(Pending);
  }
  // Only a header is looked into (an answer's lines follow it): a short object line.
  if (!llvm::StringRef(Line).starts_with("{") || Line.size() > 4096)
    return Line;
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(Line);
  if (!V) {
    llvm::consumeError(V.takeError());
    return Line;
  }
  const llvm::json::Object *O = V->getAsObject();
  std::optional<int64_t> N = O ? O->getInteger("result_lines") : std::nullopt;
  if (!N || *N <= 0)
    return Line;
  Left = size_t(*N);
  Pending = std::move(Line);
  return std::nullopt;
}

namespace {

/// Whether the database in Dir lists File itself (not a command inferred for it).
bool listedIn(const std::string &Dir, const std::string &File) {
  std::string Why;
  std::unique_ptr<clang::tooling::CompilationDatabase> Db =
      clang::tooling::CompilationDatabase::loadFromDirectory(Dir, Why);
  if (!Db)
    return true; // the analysis says why it cannot load it
  std::vector<clang::tooling::CompileCommand> C = Db->getCompileCommands(File);
  return !C.empty() && C.front().Heuristic.empty();
}

/// Says that a file outside the database was analysed all the same (unless the
/// analysis said how already: in an includer's unit, or parsed alone and failed).
void noteUnlisted(RunResult &R, const AnalysisOptions &A) {
  bool Said = llvm::any_of(R.Messages, [](const RunMessage &M) {
    return llvm::StringRef(M.Text).contains("is not in ");
  });
  if (!Said)
    R.Messages.push_back({Severity::Note, A.Files.front() + " is not in " + A.BuildDir +
                                              "/compile_commands.json: analysed with the "
                                              "command of a similar file in it"});
}

} // namespace

int runWorker(AnalysisOptions A, llvm::raw_ostream &OS) {
  bool Unlisted = !A.BuildDir.empty() && A.Files.size() == 1 && !listedIn(A.BuildDir, A.Files[0]);
  A.CollectLaunches = true;
  A.Progress = false;
  A.Jobs = 1;
  // First nvcc's figures from the cache only: a file whose figures are cached (the
  // usual case after a first save) is answered in one line, as fast as `warplint check`
  // with a warm cache; one that is not gets a line at once and a second after nvcc.
  A.NvccCacheOnly = A.RegistersFrom == "auto" || A.RegistersFrom == "nvcc";
  // One analysis written as one line, final unless nvcc's figures are still to come;
  // false when the analysis could not run.
  bool More = false;
  auto Answer = [&] {
    std::string Error;
    RunResult R = analyse(A, Error);
    if (!Error.empty()) {
      llvm::errs() << "warplint lsp: " << Error << "\n";
      return false;
    }
    if (Unlisted)
      noteUnlisted(R, A);
    More = A.NvccCacheOnly && !R.RegistersNotCached.empty();
    OS << workerLine(R, !More) << "\n";
    OS.flush();
    return true;
  };
  if (!Answer())
    return 2;
  if (!More)
    return 0;
  A.NvccCacheOnly = false;
  return Answer() ? 0 : 2;
}

namespace {

/// The process' resident memory in KiB (/proc/self/statm), 0 when unknown.
int64_t residentKiB() {
  auto Buf = llvm::MemoryBuffer::getFileAsStream("/proc/self/statm");
  if (!Buf)
    return 0;
  llvm::SmallVector<llvm::StringRef, 3> F;
  (*Buf)->getBuffer().split(F, ' ');
  unsigned long long Pages = 0;
  if (F.size() < 2 || F[1].trim().getAsInteger(10, Pages))
    return 0;
  return static_cast<int64_t>(Pages * (sysconf(_SC_PAGESIZE) / 1024));
}

/// Whether a byte is waiting on Fd.
bool inputWaiting(int Fd) {
  pollfd P{Fd, POLLIN, 0};
  return poll(&P, 1, 0) > 0 && (P.revents & POLLIN);
}

} // namespace

std::string preambleDir(pid_t Pid) {
  llvm::SmallString<256> Dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  llvm::sys::path::append(Dir, "warplint-preambles-" + std::to_string(Pid));
  return std::string(Dir);
}

int runPreambleWorker(const AnalysisOptions &Base, int In, llvm::raw_ostream &OS) {
  // A directory of its own, which the server removes after a worker that was killed;
  // removed here after the preambles (declared before them).
  std::string Dir = preambleDir(getpid());
  if (llvm::sys::fs::create_directories(Dir))
    Dir.clear();
  struct RemoveDir {
    std::string Dir;
    ~RemoveDir() {
      if (!Dir.empty())
        llvm::sys::fs::remove_directories(Dir);
    }
  } Remove{Dir};
  PreambleStore Store;
  Store.StorageDir = Dir;
  std::string Pending; // read, not yet a whole line
  bool Eof = false;
  auto Say = [&](llvm::json::Object O) {
    OS << llvm::json::Value(std::move(O)) << "\n";
    OS.flush();
  };
  auto Options = [&](const std::string &File, const std::string &Db) {
    AnalysisOptions A = Base;
    A.Files = {File};
    A.BuildDir = Db;
    A.CollectLaunches = true;
    A.Progress = false;
    A.Jobs = 1;
    A.Isolate = false; // the preambles live in this process
    A.Preambles = &Store;
    // Unsaved text is not what nvcc compiles: registers from the cache only.
    A.NvccCacheOnly = A.RegistersFrom == "auto" || A.RegistersFrom == "nvcc";
    return A;
  };
  auto Warm = [&](AnalysisOptions A) {
    A.PreambleOnly = true;
    A.ResultCache = false;
    Store.Note.clear();
    std::string Error;
    analyse(A, Error);
    return Error.empty() ? Store.Note : Error;
  };
  for (;;) {
    size_t Nl;
    while ((Nl = Pending.find('\n')) == std::string::npos && !Eof) {
      char Buf[65536];
      ssize_t N = read(In, Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        Eof = true;
      else
        Pending.append(Buf, size_t(N));
    }
    if (Nl == std::string::npos)
      return 0;
    std::string Line = Pending.substr(0, Nl);
    Pending.erase(0, Nl + 1);
    llvm::Expected<llvm::json::Value> V = parseBoundedJson(Line);
    const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
    if (!V)
      llvm::consumeError(V.takeError());
    if (!O) {
      llvm::errs() << "warplint lsp: the preamble worker got a request that is not a JSON "
                      "object\n";
      continue;
    }
    if (std::optional<llvm::StringRef> Close = O->getString("close")) {
      Store.drop(Close->str());
      continue;
    }
    int64_t Id = O->getInteger("id").value_or(0);
    std::string File = O->getString("file").value_or("").str();
    std::string Db = O->getString("db").value_or("").str();
    if (File.empty()) {
      Say(llvm::json::Object{{"id", Id}, {"error", "a request without a file"}});
      continue;
    }
    AnalysisOptions A = Options(File, Db);
    if (O->getBoolean("warm").value_or(false)) {
      std::string Note = Warm(A);
      Say(llvm::json::Object{{"id", Id}, {"warm", File}, {"note", Note},
           {"preamble_bytes", static_cast<int64_t>(Store.totalBytes())},
           {"rss_kb", residentKiB()}});
      continue;
    }
    if (std::optional<llvm::StringRef> Text = O->getString("text"))
      A.Unsaved[File] = Text->str();
    bool Unlisted = !Db.empty() && !listedIn(Db, File);
    std::string Error;
    RunResult R = analyse(A, Error);
    if (!Error.empty()) {
      Say(llvm::json::Object{{"id", Id}, {"error", Error}});
      continue;
    }
    if (Unlisted)
      noteUnlisted(R, A);
    bool Used = Store.Used;
    OS << workerAnswer(R, true,
                       llvm::json::Object{{"id", Id},
                                          {"preamble", Used},
                                          {"preamble_bytes", static_cast<int64_t>(Store.totalBytes())},
                                          {"rss_kb", residentKiB()}});
    OS.flush();
    // No preamble could be reused (the first edit, or new directives): built now, unless
    // another request waits (its parse comes first; the preamble after it).
    if (!Used && !inputWaiting(In) && Pending.find('\n') == std::string::npos)
      Say(llvm::json::Object{{"warm", File}, {"note", Warm(A)},
           {"preamble_bytes", static_cast<int64_t>(Store.totalBytes())},
           {"rss_kb", residentKiB()}});
  }
}

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string> &Argv,
                                                  std::string &Error, bool WithStdin) {
  int Out[2], Err[2], In[2] = {-1, -1};
  if (WithStdin && pipe2(In, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  if (pipe2(Out, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    return nullptr;
  }
  if (pipe2(Err, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    close(Out[0]);
    close(Out[1]);
    return nullptr;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  if (WithStdin)
    posix_spawn_file_actions_adddup2(&Actions, In[0], 0);
  else
    posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, Out[1], 1);
  posix_spawn_file_actions_adddup2(&Actions, Err[1], 2);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&Attr, 0);
  sigset_t Empty;
  sigemptyset(&Empty);
  posix_spawnattr_setsigmask(&Attr, &Empty);
  std::vector<char *> Args;
  for (const std::string &S : Argv)
    Args.push_back(const_cast<char *>(S.c_str()));
  Args.push_back(nullptr);
  pid_t Pid;
  int Rc = posix_spawn(&Pid, Args[0], &Actions, &Attr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  close(Out[1]);
  close(Err[1]);
  if (In[0] >= 0)
    close(In[0]);
  if (Rc != 0) {
    Error = "cannot run " + Argv[0] + ": " + std::strerror(Rc);
    close(Out[0]);
    close(Err[0]);
    if (In[1] >= 0)
      close(In[1]);
    return nullptr;
  }
  auto C = std::unique_ptr<ChildProcess>(new ChildProcess());
  C->Pid = Pid;
  C->OutFd = Out[0];
  C->ErrFd = Err[0];
  C->InFd = In[1];
  return C;
}

ChildProcess::~ChildProcess() {
  if (OutFd >= 0)
    close(OutFd);
  if (ErrFd >= 0)
    close(ErrFd);
  if (InFd >= 0)
    close(InFd);
}

bool ChildProcess::writeLine(const std::string &Line) {
  if (InFd < 0)
    return false;
  std::string Data = Line + "\n";
  size_t Done = 0;
  while (Done < Data.size()) {
    // SIGPIPE is ignored by the server: a process that ended gives EPIPE.
    ssize_t N = write(InFd, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

int ChildProcess::wait(const std::function<void(std::string)> &OnLine) {
  std::string Line;
  char Buf[65536];
  bool OutOpen = true, ErrOpen = true;
  while (OutOpen || ErrOpen) {
    pollfd Fds[2] = {{OutOpen ? OutFd : -1, POLLIN, 0}, {ErrOpen ? ErrFd : -1, POLLIN, 0}};
    if (poll(Fds, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (OutOpen && (Fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t N = read(OutFd, Buf, sizeof Buf);
      if (N <= 0) {
        OutOpen = false;
      } else {
        Line.append(Buf, N);
        size_t Nl;
        while ((Nl = Line.find('\n')) != std::string::npos) {
          OnLine(Line.substr(0, Nl));
          Line.erase(0, Nl + 1);
        }
      }
    }
    if (ErrOpen && (Fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t N = read(ErrFd, Buf, sizeof Buf);
      if (N <= 0) {
        ErrOpen = false;
      } else {
        Stderr.append(Buf, N);
        if (Stderr.size() > 8192)
          Stderr.erase(0, Stderr.size() - 4096);
      }
    }
  }
  int Status = 0;
  std::lock_guard<std::mutex> G(Lock);
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  Reaped = true;
  return Status;
}

void ChildProcess::kill() {
  // Not while wait() reaps (it holds the lock only around waitpid, after the pipes
  // closed), nor after.
  std::unique_lock<std::mutex> G(Lock, std::try_to_lock);
  if (!G.owns_lock() || Reaped || Pid <= 0)
    return;
  ::kill(-Pid, SIGKILL);
}

std::string describeWaitStatus(int Status) {
  if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    return "crashed (signal " + std::to_string(Sig) + ", " + strsignal(Sig) + ")";
  }
  if (WIFEXITED(Status))
    return "exited with status " + std::to_string(WEXITSTATUS(Status));
  return "ended (wait status " + std::to_string(Status) + ")";
}

} // namespace warplint::driver::lsp
