//===- Worker.cpp - the server's child process: spawn, read, cancel; the worker ===//
#include "driver/lsp/Worker.h"
#include "driver/BoundedJson.h"

#include "driver/ResultCache.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/JSON.h"

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
  std::vector<std::string> A = {Exe, "lsp", "--analyse", File};
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

std::string workerLine(const RunResult &R, bool Final) {
  // The files analysed with errors travel inside the result (resultToJson).
  llvm::json::Object O{{"final", Final},
                       {"result", resultToJson(R)},
                       {"from_cache", static_cast<int64_t>(R.FromCache)}};
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
  std::string Error;
  RunResult R = analyse(A, Error);
  if (!Error.empty()) {
    llvm::errs() << "warplint lsp: " << Error << "\n";
    return 2;
  }
  if (Unlisted)
    noteUnlisted(R, A);
  bool More = A.NvccCacheOnly && !R.RegistersNotCached.empty();
  OS << workerLine(R, !More) << "\n";
  OS.flush();
  if (!More)
    return 0;
  A.NvccCacheOnly = false;
  R = analyse(A, Error);
  if (!Error.empty()) {
    llvm::errs() << "warplint lsp: " << Error << "\n";
    return 2;
  }
  if (Unlisted)
    noteUnlisted(R, A);
  OS << workerLine(R, true) << "\n";
  OS.flush();
  return 0;
}

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string> &Argv,
                                                  std::string &Error) {
  int Out[2], Err[2];
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
  if (Rc != 0) {
    Error = "cannot run " + Argv[0] + ": " + std::strerror(Rc);
    close(Out[0]);
    close(Err[0]);
    return nullptr;
  }
  auto C = std::unique_ptr<ChildProcess>(new ChildProcess());
  C->Pid = Pid;
  C->OutFd = Out[0];
  C->ErrFd = Err[0];
  return C;
}

ChildProcess::~ChildProcess() {
  if (OutFd >= 0)
    close(OutFd);
  if (ErrFd >= 0)
    close(ErrFd);
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
