//===- CheckCommand.cpp - `warplint check`: run the checks, print findings -===//
#include "driver/Analysis.h"
#include "driver/Batch.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    R"(usage: warplint check [options] [FILE...] [-- CLANG ARGS]

Runs warplint's checks (launch shapes, occupancy, warp divergence) on CUDA files: the
files named, or every file of the compile database given with -p.

input:
  -p BUILD                 directory with compile_commands.json
  -- ARGS                  clang arguments: the whole command without -p (default:
                           -x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -std=c++17
                           against the toolkit's headers, with its include/cccl),
                           appended to each database command with -p
  --cuda-path DIR          the CUDA toolkit of files without -p or -- (default:
                           $CUDA_PATH, then /usr/local/cuda; with none, warplint's own
                           minimal CUDA header, said once on stderr)
  --mock-cuda              parse files without -p or -- against warplint's own minimal
                           CUDA header even when a toolkit is installed
  --arch sm_XX             analyse the device side for this architecture
  --checks GLOBS           clang-tidy check globs (default '-*,warplint-*'; .clang-tidy
                           files apply too)
  --ptxas-log FILE         a ptxas -v report: registers and static shared memory of the
                           launched kernels (json launches, the report); repeatable
  --objects FILE           the same from a cubin or an object with a fatbin; repeatable
  --registers-from SRC     auto|ptxas-log|objects|nvcc|none: where every check and
                           output gets registers (default auto: --ptxas-log, then
                           --objects, else nvcc, cached, for a file parsed against a
                           real toolkit, else none with one line saying why; see
                           docs/registers.md)
  --cache-dir DIR          cache of --registers-from nvcc (default
                           $XDG_CACHE_HOME/warplint or ~/.cache/warplint)
whole project:
  -j N                     analyse N files at once (default: hardware threads); the
                           output order does not depend on N
  --files REGEX            only files whose path matches
  --exclude REGEX          leave out files whose path matches
  --shard K/N              only the K-th of N shares of the (sorted, filtered) files
  --warnings-as-errors GLOBS   matching warnings become errors (clang-tidy's syntax)
output:
  --format text|json|sarif|github   (default text; text is coloured on a terminal)
  -o FILE                  write the output to FILE (atomically) instead of stdout
  --source-root DIR        paths under DIR are written relative to it (default: the
                           current directory)
  --color auto|always|never   colour in text output (default auto: on a terminal)

A progress line ([12/240] src/foo.cu) is shown on stderr on a terminal, and a summary
(files analysed and failed, findings by check, time) always.

exit status: 0 no findings, 1 findings, 2 could not analyse (a file does not parse,
bad arguments, no compile database).
)";

struct CheckConfig {
  AnalysisOptions Analysis;
  std::string Format = "text";
  std::string Output;
  std::string SourceRoot;
  std::string Color = "auto";
};

/// Parses `warplint check`'s arguments (Args without the command name).
bool parseCheckArgs(const std::vector<std::string> &Args, CheckConfig &C, std::string &Err) {
  C.Analysis.Progress = llvm::sys::Process::StandardErrIsDisplayed();
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      C.Analysis.HasDashDash = true;
      C.Analysis.ExtraArgs.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    // "--name=value", "--name value", and for -p/-j/-o also "-pvalue".
    auto value = [&](llvm::StringRef Name, std::string &Into) {
      if (Arg.starts_with(Name.str() + "=")) {
        Into = Arg.substr(Name.size() + 1).str();
        return true;
      }
      if (Name.size() == 2 && Arg.size() > 2 && Arg.starts_with(Name)) {
        Into = Arg.substr(2).str();
        return true;
      }
      if (Arg != Name)
        return false;
      if (I + 1 >= Args.size()) {
        Err = Name.str() + " needs a value";
        Into.clear();
        return true;
      }
      Into = Args[++I];
      return true;
    };
    std::string V;
    if (value("-p", V)) {
      C.Analysis.BuildDir = V;
    } else if (Arg == "--mock-cuda") {
      C.Analysis.MockCuda = true;
    } else if (value("--cuda-path", V)) {
      C.Analysis.CudaPath = V;
    } else if (value("--arch", V)) {
      C.Analysis.Arch = V;
    } else if (value("--checks", V)) {
      C.Analysis.Checks = V;
    } else if (value("-j", V)) {
      unsigned long long N;
      if (Err.empty() && (llvm::StringRef(V).getAsInteger(10, N) || N == 0 || N > 1024))
        Err = fmt::format("-j: '{}' is not a number of jobs (1 to 1024)", V);
      else if (Err.empty())
        C.Analysis.Jobs = static_cast<unsigned>(N);
    } else if (value("--files", V)) {
      C.Analysis.Filter.Include = V;
    } else if (value("--exclude", V)) {
      C.Analysis.Filter.Exclude = V;
    } else if (value("--shard", V)) {
      if (Err.empty()) {
        auto S = parseShard(V, Err);
        if (S)
          C.Analysis.Filter.Shard = *S;
      }
    } else if (value("--warnings-as-errors", V)) {
      C.Analysis.WarningsAsErrors = V;
    } else if (value("--ptxas-log", V)) {
      C.Analysis.PtxasLogs.push_back(V);
    } else if (value("--objects", V)) {
      C.Analysis.Objects.push_back(V);
    } else if (value("--registers-from", V)) {
      if (Err.empty() && V != "auto" && V != "ptxas-log" && V != "objects" && V != "nvcc" &&
          V != "none")
        Err = fmt::format("--registers-from: '{}' is not auto, ptxas-log, objects, nvcc or none",
                          V);
      C.Analysis.RegistersFrom = V;
    } else if (value("--cache-dir", V)) {
      C.Analysis.CacheDir = V;
    } else if (value("--format", V)) {
      if (Err.empty() && V != "text" && V != "json" && V != "sarif" && V != "github")
        Err = fmt::format("--format: '{}' is not text, json, sarif or github", V);
      C.Format = V;
    } else if (value("-o", V)) {
      C.Output = V;
    } else if (value("--source-root", V)) {
      C.SourceRoot = V;
    } else if (value("--color", V)) {
      if (Err.empty() && V != "auto" && V != "always" && V != "never")
        Err = fmt::format("--color: '{}' is not auto, always or never", V);
      C.Color = V;
    } else if (Arg.starts_with("-") && Arg.size() > 1) {
      Err = fmt::format("unknown option '{}' (see 'warplint check --help')", Arg.str());
    } else {
      C.Analysis.Files.push_back(Arg.str());
    }
    if (!Err.empty())
      return false;
  }
  if (!validateFilter(C.Analysis.Filter, Err))
    return false;
  if (C.Analysis.BuildDir.empty() && C.Analysis.Files.empty()) {
    Err = "no input: name the files, or give -p BUILD (see 'warplint check --help')";
    return false;
  }
  if (C.SourceRoot.empty()) {
    llvm::SmallString<256> Cwd;
    if (!llvm::sys::fs::current_path(Cwd))
      C.SourceRoot = std::string(Cwd);
  } else {
    llvm::SmallString<256> Root(C.SourceRoot);
    llvm::sys::fs::make_absolute(Root);
    C.SourceRoot = std::string(Root);
  }
  return true;
}

/// Runs the analysis of a parsed configuration; 2 with a message when it cannot start.
int runAnalysis(const CheckConfig &C, RunResult &Result) {
  std::string Err;
  Result = analyse(C.Analysis, Err);
  if (!Err.empty()) {
    llvm::errs() << "warplint check: " << Err << "\n";
    return 2;
  }
  return exitCodeFor(Result);
}

} // namespace

int collectCheckResult(const std::vector<std::string> &CheckArgs, RunResult &Out) {
  CheckConfig C;
  std::string Err;
  if (!parseCheckArgs(CheckArgs, C, Err)) {
    llvm::errs() << "warplint: " << Err << "\n";
    return 2;
  }
  auto Start = std::chrono::steady_clock::now();
  int Rc = runAnalysis(C, Out);
  if (Rc != 2 || !Out.FilesAnalysed.empty() || !Out.FilesFailed.empty())
    printSummary(Out, std::chrono::steady_clock::now() - Start, llvm::errs());
  return Rc;
}

int runCheckCommand(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  for (const std::string &A : Args) {
    if (A == "--")
      break;
    if (A == "--help" || A == "-h") {
      llvm::outs() << Usage;
      return 0;
    }
  }
  CheckConfig C;
  std::string Err;
  if (!parseCheckArgs(Args, C, Err)) {
    llvm::errs() << "warplint check: " << Err << "\n";
    return 2;
  }
  C.Analysis.CollectLaunches = C.Format == "json";
  RunResult Result;
  auto Start = std::chrono::steady_clock::now();
  int Rc = runAnalysis(C, Result);
  if (Rc == 2 && Result.FilesAnalysed.empty() && Result.FilesFailed.empty())
    return 2;

  LocationOptions Loc{C.SourceRoot};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (C.Format == "json") {
    writeJson(Result, Loc, OS);
  } else if (C.Format == "sarif") {
    writeSarif(Result, Loc, OS);
  } else if (C.Format == "github") {
    writeGithub(Result, Loc, OS);
  } else {
    bool Colour = C.Color == "always" || (C.Color == "auto" && C.Output.empty() &&
                                          llvm::sys::Process::StandardOutIsDisplayed());
    writeText(Result, Loc, Colour, OS);
  }
  if (C.Output.empty()) {
    llvm::outs() << Text;
    llvm::outs().flush();
  } else if (!writeFileAtomically(C.Output, Text, Err)) {
    llvm::errs() << "warplint check: " << Err << "\n";
    return 2;
  }
  printSummary(Result, std::chrono::steady_clock::now() - Start, llvm::errs());
  return Rc;
}

} // namespace warplint::driver
