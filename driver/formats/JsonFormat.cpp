//===- JsonFormat.cpp - one JSON object: findings, launches, files --------===//
#include "driver/formats/Formats.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint::driver {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

void position(Object &O, const SourcePos &P, const LocationOptions &Opts) {
  O["file"] = Opts.SourceRoot.empty() ? P.File : relativeToRoot(P.File, Opts.SourceRoot);
  O["line"] = static_cast<int64_t>(P.Line);
  O["column"] = static_cast<int64_t>(P.Column);
}

Value dims(const std::optional<std::array<uint64_t, 3>> &D) {
  if (!D)
    return nullptr;
  return Array{static_cast<int64_t>((*D)[0]), static_cast<int64_t>((*D)[1]),
               static_cast<int64_t>((*D)[2])};
}

template <typename T> Value opt(const std::optional<T> &V) {
  if (!V)
    return nullptr;
  if constexpr (std::is_integral_v<T>)
    return static_cast<int64_t>(*V);
  else
    return *V;
}

} // namespace

void writeJson(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS) {
  Array Findings;
  for (const Finding &F : Result.Findings) {
    Object O{{"check", F.Check}, {"severity", severityName(F.Level)}, {"message", F.Message}};
    position(O, F.Pos, Opts);
    Array Notes;
    for (const FindingNote &N : F.Notes) {
      Object NO{{"message", N.Message}};
      position(NO, N.Pos, Opts);
      Notes.push_back(std::move(NO));
    }
    O["notes"] = std::move(Notes);
    if (!F.Arch.empty())
      O["arch"] = F.Arch;
    Findings.push_back(std::move(O));
  }
  Array Launches;
  for (const LaunchRecord &L : Result.Launches) {
    Object O{{"kernel", opt(L.Kernel)},
             {"mangled_kernel", opt(L.MangledKernel)},
             {"api", L.Api},
             {"block", dims(L.Block)},
             {"grid", dims(L.Grid)},
             {"dynamic_smem", opt(L.DynamicSmemBytes)},
             {"dynamic_smem_expr", opt(L.DynamicSmemExpr)},
             {"static_smem", opt(L.StaticSmemBytes)},
             {"registers", opt(L.Registers)},
             {"blocks_per_sm", opt(L.BlocksPerSm)},
             {"occupancy", opt(L.Occupancy)},
             {"limiters", Array(L.Limiters)},
             {"launch_error", opt(L.LaunchError)},
             {"arch", L.Arch}};
    position(O, L.Pos, Opts);
    Launches.push_back(std::move(O));
  }
  Array Analysed, Failed;
  for (const std::string &F : Result.FilesAnalysed)
    Analysed.push_back(Opts.SourceRoot.empty() ? F : relativeToRoot(F, Opts.SourceRoot));
  for (const std::string &F : Result.FilesFailed)
    Failed.push_back(Opts.SourceRoot.empty() ? F : relativeToRoot(F, Opts.SourceRoot));
  Object Root{{"version", 1},
              {"findings", std::move(Findings)},
              {"launches", std::move(Launches)},
              {"files_analysed", std::move(Analysed)},
              {"files_failed", std::move(Failed)}};
  OS << llvm::formatv("{0:2}", Value(std::move(Root))) << "\n";
}

} // namespace warplint::driver
