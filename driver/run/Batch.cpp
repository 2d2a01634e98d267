//===- Batch.cpp - file selection, shards, parallel jobs, progress, summary -===//
#include "driver/run/Batch.h"
#include "driver/formats/Formats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace warplint::driver {

std::optional<ShardSpec> parseShard(std::string_view Text, std::string &Error) {
  size_t Slash = Text.find('/');
  auto Number = [](std::string_view S, unsigned &Out) {
    if (S.empty() || S.size() > 6)
      return false;
    Out = 0;
    for (char C : S) {
      if (C < '0' || C > '9')
        return false;
      Out = Out * 10 + unsigned(C - '0');
    }
    return true;
  };
  ShardSpec S;
  if (Slash == std::string_view::npos || !Number(Text.substr(0, Slash), S.Index) ||
      !Number(Text.substr(Slash + 1), S.Count) || S.Count == 0 || S.Index == 0 ||
      S.Index > S.Count) {
    Error = fmt::format("invalid --shard '{}': expected K/N with 1 <= K <= N, e.g. 2/4", Text);
    return std::nullopt;
  }
  return S;
}

bool validateFilter(const FileFilter &Filter, std::string &Error) {
  for (auto [Name, Pattern] :
       {std::pair{"--files", &Filter.Include}, std::pair{"--exclude", &Filter.Exclude}}) {
    if (Pattern->empty())
      continue;
    std::string Why;
    if (!llvm::Regex(*Pattern).isValid(Why)) {
      Error = fmt::format("invalid {} regular expression '{}': {}", Name, *Pattern, Why);
      return false;
    }
  }
  return true;
}

std::vector<std::string> selectFiles(std::vector<std::string> Files, const FileFilter &Filter) {
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  llvm::Regex Include(Filter.Include), Exclude(Filter.Exclude);
  std::vector<std::string> Kept;
  for (std::string &F : Files) {
    if (!Filter.Include.empty() && !Include.match(F))
      continue;
    if (!Filter.Exclude.empty() && Exclude.match(F))
      continue;
    Kept.push_back(std::move(F));
  }
  if (Filter.Shard.Count <= 1)
    return Kept;
  std::vector<std::string> Shard;
  for (size_t I = 0; I < Kept.size(); ++I)
    if (I % Filter.Shard.Count == Filter.Shard.Index - 1)
      Shard.push_back(std::move(Kept[I]));
  return Shard;
}

unsigned defaultJobs() {
  unsigned N = llvm::hardware_concurrency().compute_thread_count();
  return N == 0 ? 1 : N;
}

void runJobs(size_t Count, unsigned Jobs, llvm::function_ref<void(size_t)> Analyse,
             llvm::function_ref<void(size_t, size_t)> OnDone) {
  if (Jobs == 0)
    Jobs = defaultJobs();
  if (Jobs <= 1 || Count <= 1) {
    for (size_t I = 0; I < Count; ++I) {
      Analyse(I);
      OnDone(I, I + 1);
    }
    return;
  }
  std::mutex DoneMutex;
  size_t Done = 0;
  llvm::DefaultThreadPool Pool(
      llvm::hardware_concurrency(static_cast<unsigned>(std::min<size_t>(Jobs, Count))));
  for (size_t I = 0; I < Count; ++I)
    Pool.async([&, I] {
      Analyse(I);
      std::lock_guard<std::mutex> Lock(DoneMutex);
      OnDone(I, ++Done);
    });
  Pool.wait();
}

ProgressLine::ProgressLine(llvm::raw_ostream &OS, bool Enabled, size_t Total)
    : OS(OS), Enabled(Enabled), Total(Total) {}

void ProgressLine::update(size_t Done, std::string_view File) {
  if (!Enabled)
    return;
  std::string Line = fmt::format("[{}/{}] {}", Done, Total, File);
  if (Line.size() > 100)
    Line = Line.substr(0, 40) + "..." + Line.substr(Line.size() - 57);
  OS << '\r' << Line;
  if (Line.size() < LastWidth)
    OS.indent(LastWidth - Line.size()) << '\r' << Line;
  LastWidth = Line.size();
  OS.flush();
}

void ProgressLine::finish() {
  if (!Enabled || LastWidth == 0)
    return;
  OS << '\r';
  OS.indent(LastWidth) << '\r';
  OS.flush();
  LastWidth = 0;
}

namespace {

bool findingLess(const Finding &A, const Finding &B) {
  return std::tie(A.Pos.File, A.Pos.Line, A.Pos.Column, A.Check, A.Message, A.Arch) <
         std::tie(B.Pos.File, B.Pos.Line, B.Pos.Column, B.Check, B.Message, B.Arch);
}

bool findingSame(const Finding &A, const Finding &B) {
  return !findingLess(A, B) && !findingLess(B, A);
}

bool launchLess(const LaunchRecord &A, const LaunchRecord &B) {
  return std::tie(A.Pos.File, A.Pos.Line, A.Pos.Column, A.Arch, A.Kernel) <
         std::tie(B.Pos.File, B.Pos.Line, B.Pos.Column, B.Arch, B.Kernel);
}

bool launchSame(const LaunchRecord &A, const LaunchRecord &B) {
  return !launchLess(A, B) && !launchLess(B, A);
}

} // namespace

RunResult mergeResults(std::vector<RunResult> PerFile) {
  RunResult Out;
  for (RunResult &R : PerFile) {
    for (Finding &F : R.Findings)
      Out.Findings.push_back(std::move(F));
    appendRecords(Out, R);
    for (std::string &F : R.FilesAnalysed)
      Out.FilesAnalysed.push_back(std::move(F));
    for (std::string &F : R.FilesWithErrors)
      Out.FilesWithErrors.push_back(std::move(F));
    for (std::string &F : R.FilesFailed)
      Out.FilesFailed.push_back(std::move(F));
    for (std::string &F : R.RegistersNotCached)
      if (!llvm::is_contained(Out.RegistersNotCached, F))
        Out.RegistersNotCached.push_back(std::move(F));
    Out.FromCache += R.FromCache;
    for (RunMessage &M : R.Messages)
      if (std::none_of(Out.Messages.begin(), Out.Messages.end(), [&](const RunMessage &Seen) {
            return Seen.Text == M.Text;
          }))
        Out.Messages.push_back(std::move(M));
  }
  std::stable_sort(Out.Findings.begin(), Out.Findings.end(), findingLess);
  Out.Findings.erase(std::unique(Out.Findings.begin(), Out.Findings.end(), findingSame),
                     Out.Findings.end());
  auto KernelKey = [](const KernelRecord &K) {
    return std::tie(K.File, K.BeginLine, K.EndLine, K.Name);
  };
  std::sort(
      Out.Kernels.begin(), Out.Kernels.end(),
      [&](const KernelRecord &A, const KernelRecord &B) { return KernelKey(A) < KernelKey(B); });
  Out.Kernels.erase(std::unique(Out.Kernels.begin(), Out.Kernels.end(),
                                [&](const KernelRecord &A, const KernelRecord &B) {
                                  return KernelKey(A) == KernelKey(B);
                                }),
                    Out.Kernels.end());
  auto AccessKey = [](const AccessRecord &A) {
    return std::tie(A.Pos.File, A.Pos.Line, A.Pos.Column, A.Check);
  };
  std::stable_sort(Out.Accesses.begin(), Out.Accesses.end(),
                   [&](const AccessRecord &A, const AccessRecord &B) {
                     return AccessKey(A) < AccessKey(B);
                   });
  Out.Accesses.erase(std::unique(Out.Accesses.begin(), Out.Accesses.end(),
                                 [&](const AccessRecord &A, const AccessRecord &B) {
                                   return AccessKey(A) == AccessKey(B);
                                 }),
                     Out.Accesses.end());
  // A sync call of a header analysed in several files is one record per kernel and place,
  // as its findings are (each names its kernel).
  auto SyncKey = [](const SyncRecord &S) {
    return std::tie(S.Pos.File, S.Pos.Line, S.Pos.Column, S.Check, S.Kernel);
  };
  std::stable_sort(Out.Syncs.begin(), Out.Syncs.end(),
                   [&](const SyncRecord &A, const SyncRecord &B) { return SyncKey(A) < SyncKey(B); });
  Out.Syncs.erase(std::unique(Out.Syncs.begin(), Out.Syncs.end(),
                              [&](const SyncRecord &A, const SyncRecord &B) {
                                return SyncKey(A) == SyncKey(B);
                              }),
                  Out.Syncs.end());
  // A race in a header analysed in several files: one record per kernel, place, word and
  // other access (one place can race on two words, a same-warp pair and a pair of
  // different warps; or on one word with two other accesses, llm.c's fused_residual_forward).
  auto RaceKey = [](const RaceRecord &X) {
    return std::tie(X.Pos.File, X.Pos.Line, X.Pos.Column, X.Kernel, X.Space, X.Word,
                    X.First.Pos.Line, X.First.Pos.Column);
  };
  std::stable_sort(Out.Races.begin(), Out.Races.end(),
                   [&](const RaceRecord &A, const RaceRecord &B) { return RaceKey(A) < RaceKey(B); });
  Out.Races.erase(std::unique(Out.Races.begin(), Out.Races.end(),
                              [&](const RaceRecord &A, const RaceRecord &B) {
                                return RaceKey(A) == RaceKey(B);
                              }),
                  Out.Races.end());
  // A branch of a header analysed in several files is one record per kernel, place, kind
  // and condition: `a && b && c` has two short-circuit operands at one place, `a` and
  // `a && b` (ggml's mmvq.cu:624 lost the one its finding stood for). Records of one place
  // from different files interleave after the sort, so the first of each key is kept,
  // wherever it stands among the place's records.
  std::stable_sort(Out.Branches.begin(), Out.Branches.end(),
                   [&](const BranchRecord &A, const BranchRecord &B) {
                     return std::tie(A.Pos.File, A.Pos.Line, A.Pos.Column) <
                            std::tie(B.Pos.File, B.Pos.Line, B.Pos.Column);
                   });
  {
    std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string, std::string>>
        Seen;
    Out.Branches.erase(std::remove_if(Out.Branches.begin(), Out.Branches.end(),
                                      [&](const BranchRecord &B) {
                                        return !Seen
                                                    .insert({B.Pos.File, B.Pos.Line, B.Pos.Column,
                                                             B.Kernel, B.Kind, B.Condition})
                                                    .second;
                                      }),
                       Out.Branches.end());
  }
  std::stable_sort(Out.Launches.begin(), Out.Launches.end(), launchLess);
  Out.Launches.erase(std::unique(Out.Launches.begin(), Out.Launches.end(), launchSame),
                     Out.Launches.end());
  return Out;
}

void printSummary(const RunResult &Result, std::chrono::duration<double> Elapsed,
                  llvm::raw_ostream &OS) {
  for (const RunMessage &M : Result.Messages)
    OS << "warplint: "
       << severityName(M.Level)
       << ": " << M.Text << "\n";
  std::map<std::string, size_t> ByCheck;
  for (const Finding &F : Result.Findings)
    ++ByCheck[F.Check];
  size_t Files = Result.FilesAnalysed.size();
  OS << fmt::format("warplint: {} file{} analysed", Files, Files == 1 ? "" : "s");
  if (!Result.FilesWithErrors.empty())
    OS << fmt::format(" ({} with errors)", Result.FilesWithErrors.size());
  OS << fmt::format(", {} failed, {} finding{}", Result.FilesFailed.size(),
                    Result.Findings.size(), Result.Findings.size() == 1 ? "" : "s");
  if (!ByCheck.empty()) {
    OS << " (";
    bool First = true;
    for (const auto &[Check, N] : ByCheck) {
      OS << (First ? "" : ", ") << Check << ": " << N;
      First = false;
    }
    OS << ")";
  }
  OS << fmt::format(" in {:.1f} s", Elapsed.count());
  if (Result.FromCache)
    OS << fmt::format(" ({} from the result cache)", Result.FromCache);
  OS << "\n";
}

int exitCodeFor(const RunResult &Result, bool AnyFindingFails, bool AllowErrors) {
  if (!Result.FilesFailed.empty() || (!Result.FilesWithErrors.empty() && !AllowErrors))
    return 2;
  for (const Finding &F : Result.Findings) {
    // With AllowErrors, clang's own errors (said in the files analysed with errors) do
    // not decide the status: the checks' findings do.
    if (AllowErrors && F.Level == Severity::Error &&
        llvm::StringRef(F.Check).starts_with("clang-diagnostic-"))
      continue;
    // Notes are information (a figure under an assumption, a check set to note): they
    // go to every output but do not fail the run.
    if ((AnyFindingFails && F.Level != Severity::Note) || F.Level == Severity::Error)
      return 1;
  }
  return 0;
}

} // namespace warplint::driver
