//===- Isolated.cpp - each translation unit's analysis in a child process ---===//
#include "driver/run/Isolated.h"
#include "driver/run/Batch.h"
#include "driver/formats/BoundedJson.h"
#include "driver/cache/ResultCache.h"

#include "llvm/Support/JSON.h"
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

/// What a child sends: the result, with what resultToJson leaves out.
std::string payload(const RunResult &R) {
  llvm::json::Array NotCached;
  for (const std::string &F : R.RegistersNotCached)
    NotCached.push_back(F);
  llvm::json::Object O{{"result", resultToJson(R)},
                       {"from_cache", int64_t(R.FromCache)},
                       {"registers_not_cached", std::move(NotCached)}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  return Out;
}

std::optional<RunResult> fromPayload(const std::string &Text) {
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  std::optional<llvm::StringRef> Result = O ? O->getString("result") : std::nullopt;
  if (!Result)
    return std::nullopt;
  std::optional<RunResult> R = resultFromJson(*Result);
  if (!R)
    return std::nullopt;
  R->FromCache = size_t(O->getInteger("from_cache").value_or(0));
  if (const llvm::json::Array *A = O->getArray("registers_not_cached"))
    for (const llvm::json::Value &F : *A)
      if (std::optional<llvm::StringRef> S = F.getAsString())
        R->RegistersNotCached.push_back(S->str());
  return R;
}

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
      R = fromPayload(C.Data);
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
        ::close(P[0]);
        std::string Out = payload(Analyse(Next));
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
