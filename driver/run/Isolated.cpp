//===- Isolated.cpp - each translation unit's analysis in a child process ---===//
#include "driver/run/Isolated.h"
#include "driver/run/Batch.h"
#include "driver/cache/ResultCache.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <map>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace warplint::driver {

namespace {

bool InChild = false;

/// Writes all of Data to Fd.
void writeAll(int Fd, const std::string &Data) {
  size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t N = ::write(Fd, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Done += size_t(N);
  }
}

std::string signalText(int Sig) {
  const char *Name = ::strsignal(Sig);
  return "signal " + std::to_string(Sig) + (Name ? std::string(", ") + Name : "");
}

} // namespace

bool inIsolatedChild() { return InChild; }

RunResult crashedFile(const std::string &File, const std::string &Why) {
  return failedFile(File, "the analysis of this file " + Why + "; the other files were analysed");
}

void runIsolated(size_t Count, unsigned Jobs, llvm::function_ref<RunResult(size_t)> Analyse,
                 llvm::function_ref<void(size_t, RunResult)> Store,
                 llvm::function_ref<RunResult(size_t, const std::string &)> Crashed,
                 llvm::function_ref<void(size_t Index, size_t Done)> OnDone) {
  if (Jobs == 0)
    Jobs = defaultJobs();
  struct Child {
    pid_t Pid;
    int Fd;
    size_t Index;
    std::string Data;
  };
  std::vector<Child> Running;
  size_t Next = 0, Done = 0;
  llvm::errs().flush();
  llvm::outs().flush();
  auto Finish = [&](Child &C) {
    int Status = 0;
    while (::waitpid(C.Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    ::close(C.Fd);
    std::optional<RunResult> R;
    if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
      R = resultFromLines(C.Data);
    if (R)
      Store(C.Index, std::move(*R));
    else if (WIFSIGNALED(Status))
      Store(C.Index, Crashed(C.Index, "crashed (" + signalText(WTERMSIG(Status)) + ")"));
    else
      Store(C.Index, Crashed(C.Index, "ended without a result (exit status " +
                                          std::to_string(WIFEXITED(Status) ? WEXITSTATUS(Status)
                                                                           : -1) +
                                          ")"));
    OnDone(C.Index, ++Done);
  };
  while (Next < Count || !Running.empty()) {
    while (Next < Count && Running.size() < Jobs) {
      int P[2];
      if (::pipe(P) != 0) {
        // No pipe: this file in this process, as before isolation.
        Store(Next, Analyse(Next));
        OnDone(Next, ++Done);
        ++Next;
        continue;
      }
      pid_t Pid = ::fork();
      if (Pid == 0) {
        InChild = true;
        ::close(P[0]);
        std::string Out = resultToLines(Analyse(Next));
        writeAll(P[1], Out);
        ::close(P[1]);
        llvm::errs().flush();
        ::_exit(0);
      }
      ::close(P[1]);
      if (Pid < 0) {
        ::close(P[0]);
        Store(Next, Analyse(Next));
        OnDone(Next, ++Done);
        ++Next;
        continue;
      }
      Running.push_back({Pid, P[0], Next, {}});
      ++Next;
    }
    if (Running.empty())
      continue;
    std::vector<pollfd> Fds;
    for (const Child &C : Running)
      Fds.push_back({C.Fd, POLLIN, 0});
    if (::poll(Fds.data(), Fds.size(), -1) < 0) {
      if (errno == EINTR)
        continue;
      for (pollfd &F : Fds) // poll itself failed: read each child to its end in turn
        F.revents = POLLIN;
    }
    for (size_t K = Running.size(); K-- > 0;) {
      if (!(Fds[K].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char Buf[65536];
      ssize_t N = ::read(Running[K].Fd, Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N > 0) {
        Running[K].Data.append(Buf, size_t(N));
        continue;
      }
      Finish(Running[K]); // end of the pipe: the child is done
      Running.erase(Running.begin() + K);
    }
  }
}

} // namespace warplint::driver
