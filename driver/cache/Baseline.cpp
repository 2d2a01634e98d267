//===- Baseline.cpp - findings a project already has, reported no more ----===//
#include "driver/cache/Baseline.h"

#include "driver/formats/BoundedJson.h"
#include "driver/formats/Formats.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace warplint::driver {
namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>;

/// The kernel a finding belongs to: the one launched at its place, else the one whose
/// body holds it; empty for neither.
std::string kernelOf(const Finding &F, const RunResult &R) {
  for (const LaunchRecord &L : R.Launches)
    if (L.Pos.File == F.Pos.File && L.Pos.Line == F.Pos.Line && L.Kernel)
      return *L.Kernel;
  for (const KernelRecord &K : R.Kernels)
    if (K.File == F.Pos.File && F.Pos.Line >= K.BeginLine && F.Pos.Line <= K.EndLine)
      return K.Name;
  return "";
}

bool baselined(const Finding &F) {
  return !llvm::StringRef(F.Check).starts_with("clang-diagnostic-");
}

Key keyOf(const Finding &F, const RunResult &R, const std::string &Root) {
  return {F.Check, relativeToRoot(F.Pos.File, Root), kernelOf(F, R), maskNumbers(F.Message)};
}

} // namespace

std::string maskNumbers(std::string_view Message) {
  std::string Out;
  for (size_t I = 0; I < Message.size();) {
    if (std::isdigit(static_cast<unsigned char>(Message[I]))) {
      while (I < Message.size() &&
             (std::isdigit(static_cast<unsigned char>(Message[I])) ||
              (Message[I] == '.' && I + 1 < Message.size() &&
               std::isdigit(static_cast<unsigned char>(Message[I + 1])))))
        ++I;
      Out += '#';
      continue;
    }
    Out += Message[I++];
  }
  return Out;
}

std::vector<BaselineEntry> makeBaseline(const RunResult &Result, const std::string &SourceRoot) {
  std::map<Key, unsigned> Counts;
  for (const Finding &F : Result.Findings)
    if (baselined(F))
      ++Counts[keyOf(F, Result, SourceRoot)];
  std::vector<BaselineEntry> Out;
  for (const auto &[K, N] : Counts)
    Out.push_back({std::get<0>(K), std::get<1>(K), std::get<2>(K), std::get<3>(K), N});
  return Out;
}

std::string baselineJson(const std::vector<BaselineEntry> &Entries) {
  llvm::json::Array A;
  for (const BaselineEntry &E : Entries)
    A.push_back(llvm::json::Object{{"check", E.Check},
                                   {"file", E.File},
                                   {"kernel", E.Kernel},
                                   {"message", E.Message},
                                   {"count", int64_t(E.Count)}});
  llvm::json::Object Root{{"version", 1}, {"entries", std::move(A)}};
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))).str() + "\n";
}

bool readBaseline(const std::string &Path, std::vector<BaselineEntry> &Entries,
                  std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Error = "cannot read the baseline " + Path + ": " + Buffer.getError().message();
    return false;
  }
  llvm::Expected<llvm::json::Value> V = parseBoundedJson((*Buffer)->getBuffer());
  if (!V) {
    Error = Path + ": not JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const llvm::json::Object *Root = V->getAsObject();
  const llvm::json::Array *A = Root ? Root->getArray("entries") : nullptr;
  if (!A || Root->getInteger("version") != std::optional<int64_t>(1)) {
    Error = Path + ": not a warplint baseline (version 1 with \"entries\")";
    return false;
  }
  for (size_t I = 0; I < A->size(); ++I) {
    const llvm::json::Object *O = (*A)[I].getAsObject();
    std::optional<llvm::StringRef> Check = O ? O->getString("check") : std::nullopt,
                                   File = O ? O->getString("file") : std::nullopt,
                                   Kernel = O ? O->getString("kernel") : std::nullopt,
                                   Message = O ? O->getString("message") : std::nullopt;
    std::optional<int64_t> Count = O ? O->getInteger("count") : std::nullopt;
    if (!Check || !File || !Kernel || !Message || !Count || *Count < 1) {
      Error = llvm::formatv("{0}: entry {1} needs check, file, kernel, message and a count "
                            "of at least 1",
                            Path, I)
                  .str();
      return false;
    }
    Entries.push_back({Check->str(), File->str(), Kernel->str(), Message->str(),
                       unsigned(*Count)});
  }
  return true;
}

BaselineResult applyBaseline(RunResult &Result, const std::vector<BaselineEntry> &Entries,
                             const std::string &SourceRoot) {
  std::map<Key, unsigned> Left;
  for (const BaselineEntry &E : Entries)
    Left[{E.Check, E.File, E.Kernel, E.Message}] += E.Count;
  BaselineResult Out;
  std::vector<Finding> Kept;
  for (Finding &F : Result.Findings) {
    auto It = baselined(F) ? Left.find(keyOf(F, Result, SourceRoot)) : Left.end();
    if (It != Left.end() && It->second > 0) {
      --It->second;
      ++Out.Suppressed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  Result.Findings = std::move(Kept);
  for (const auto &[K, N] : Left)
    if (N > 0)
      Out.NoLonger.push_back({std::get<0>(K), std::get<1>(K), std::get<2>(K), std::get<3>(K), N});
  return Out;
}

} // namespace warplint::driver
