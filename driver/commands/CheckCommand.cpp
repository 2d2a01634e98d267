//===- CheckCommand.cpp - `warplint check`: run the checks, print findings -===//
#include "driver/run/Analysis.h"
#include "driver/cache/Baseline.h"
#include "driver/run/Batch.h"
#include "driver/run/FixApply.h"
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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

Runs warplint's checks (launch shapes, occupancy, warp divergence) on CUDA and HIP files:
the files named, or every file of the compile database given with -p.

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
                           CUDA header even when a toolkit is installed (HIP files:
                           its own HIP header even when ROCm is installed)
  --arch sm_XX|gfxNNN      analyse the device side for this architecture (sm_50 to
                           sm_121; also 8.6, 86, sm_90a; legacy sm_20 to sm_37 parse
                           with clang, but nvcc 12+ cannot count their registers), or,
                           for HIP, an AMD one (gfx900 to gfx1100, gfx90a:xnack+):
                           every file without -p is then parsed as HIP (.hip files
                           always are, for gfx906 by default; see docs/hip.md)
  --gpu NAME               a GPU product (h100, a100, rtx3080, ...; see warplint
                           occupancy --help): waves and thread block clusters per GPU in
                           the JSON launches and the report, and warplint-partial-wave;
                           also the arch when --arch is not given
  --assume-block X[xYxZ]   the block shape every check assumes for a kernel with no
                           launch of a known block in its file (default: 256; any
                           shape that can launch: 48, 16x16, 8x8x4; the .clang-tidy
                           option warplint.AssumedBlock)
  --assume-grid X[xYxZ]    the grid assumed for a kernel with no launch of a known grid
                           (warplint.AssumedGrid; default: a run-time value)
  --checks GLOBS           clang-tidy check globs (default '-*,warplint-*'; .clang-tidy
                           files apply too)
  --ptxas-log FILE         a ptxas -v report: registers and static shared memory of the
                           launched kernels (json launches, the report); repeatable
  --objects FILE           the same from a cubin or an object with a fatbin, or for HIP
                           an AMDGPU code object, an offload bundle or an object with
                           a .hip_fatbin; repeatable
  --registers-from SRC     auto|ptxas-log|objects|nvcc|clang|none: where every check
                           and output gets registers (default auto: --ptxas-log, then
                           --objects, else nvcc, cached, for a file parsed against a
                           real toolkit, clang's AMDGPU backend, cached, for a HIP
                           file, else none with one line saying why; see
                           docs/registers.md and docs/hip.md)
  --no-cache               analyse every file afresh (no result cache)
  --no-verify-advice       do not check register advice with the compiler (a what-if
                           ptxas run per file with registers from nvcc; see
                           docs/registers.md)
  --cache-dir DIR          cache of nvcc's register figures and of results (default
                           $XDG_CACHE_HOME/warplint or ~/.cache/warplint)
whole project:
  -j N                     analyse N files at once (default: hardware threads); the
                           output order does not depend on N
  --files REGEX            only files whose path matches
  --exclude REGEX          leave out files whose path matches
  --shard K/N              only the K-th of N shares of the (sorted, filtered) files
  --warnings-as-errors GLOBS   matching warnings become errors (clang-tidy's syntax)
  --allow-errors           a file clang reports errors in but recovers from (a construct
                           nvcc accepts and clang refuses) is analysed with errors: its
                           findings and launches are kept either way; with this option
                           it does not make the exit status 2, and clang's errors do not
                           count as findings
output:
  --format FORMATS   (default text; text is coloured on a terminal)
  -o FILE                  write the output to FILE (atomically) instead of stdout
  --source-root DIR        paths under DIR are written relative to it (default: the
                           current directory)
  --color auto|always|never   colour in text output (default auto: on a terminal)
fixes:
  --fix                    apply the fix-its of the findings to the files (as
                           clang-apply-replacements does: the same edit once, a fix that
                           overlaps another left out), and say how many; not to files
                           clang reported errors in
  --export-fixes FILE      write the fix-its in clang-tidy's --export-fixes YAML (for
                           clang-apply-replacements)
baseline:
  --write-baseline FILE    record this run's findings in FILE (JSON) and report none
  --baseline FILE          report only findings beyond those FILE records (matched by
                           check, file, kernel and message with numbers masked, not by
                           line; counted); says which entries no longer occur

A progress line ([12/240] src/foo.cu) is shown on stderr on a terminal, and a summary
(files analysed and failed, findings by check, time) always.

exit status: 0 no findings (notes alone are information), 1 findings, 2 could not
analyse (a file does not parse, or was analysed with errors without --allow-errors; bad
arguments, no compile database).
)";

/// formats/Formats.h's OutputFormats by name, in order.
std::vector<const char *> formatNames() {
  std::vector<const char *> Names;
  for (const OutputFormat &F : OutputFormats)
    Names.push_back(F.Name);
  return Names;
}

/// Usage with FORMATS spelled out (text|json|sarif|github).
std::string usage() {
  std::string Joined;
  for (const char *N : formatNames())
    Joined += (Joined.empty() ? "" : "|") + std::string(N);
  std::string U = Usage;
  U.replace(U.find("FORMATS"), 7, Joined);
  return U;
}

struct CheckConfig {
  AnalysisOptions Analysis;
  std::string Baseline;      ///< --baseline FILE
  std::string WriteBaseline; ///< --write-baseline FILE
  std::string Format = "text";
  std::string Output;
  std::string SourceRoot;
  std::string Color = "auto";
  bool AllowErrors = false;
  bool Fix = false;         ///< --fix
  std::string ExportFixes;  ///< --export-fixes FILE
};

/// The files named on the command line exist and are files: otherwise one line naming
/// the path, instead of clang's driver errors about it.
bool checkNamedFiles(const std::vector<std::string> &Files, std::string &Err) {
  for (const std::string &F : Files) {
    llvm::sys::fs::file_status St;
    if (std::error_code EC = llvm::sys::fs::status(F, St)) {
      Err = EC == std::errc::no_such_file_or_directory
                ? fmt::format("{}: no such file", F)
                : fmt::format("cannot read {}: {}", F, EC.message());
      return false;
    }
    if (llvm::sys::fs::is_directory(St)) {
      Err = fmt::format("{} is a directory, not a source file (name the files, or give -p "
                        "BUILD for a compile database)",
                        F);
      return false;
    }
    // A FIFO, socket or device would block the parse or never end: refused up front.
    if (St.type() != llvm::sys::fs::file_type::regular_file) {
      Err = fmt::format("{} is not a regular file (a FIFO, socket or device): warplint reads "
                        "source files only",
                        F);
      return false;
    }
  }
  return true;
}

/// Parses `warplint check`'s arguments (Args without the command name): Ok, Help, or
/// Error with Err set.
ArgParser::Result parseCheckArgs(const std::vector<std::string> &Args, CheckConfig &C,
                                 std::string &Err) {
  C.Analysis.Progress = llvm::sys::Process::StandardErrIsDisplayed();
  AnalysisOptions &A = C.Analysis;
  // An option whose value must be one of Allowed ("--format: 'xml' is not text, json,
  // sarif or github").
  auto oneOf = [](const char *Name, std::string &Into, std::vector<const char *> Allowed) {
    return [=, &Into](llvm::StringRef V, std::string &Error) {
      if (llvm::is_contained(Allowed, V)) {
        Into = V.str();
        return true;
      }
      std::string List;
      for (size_t I = 0; I < Allowed.size(); ++I)
        List += (I == 0 ? "" : I + 1 == Allowed.size() ? " or " : ", ") + std::string(Allowed[I]);
      Error = fmt::format("{}: '{}' is not {}", Name, V.str(), List);
      return false;
    };
  };
  bool NoCache = false;
  bool NoVerifyAdvice = false;
  ArgParser P("check");
  P.option("-p", A.BuildDir)
      .flag("--mock-cuda", A.MockCuda)
      .option("--cuda-path", A.CudaPath)
      .option("--arch", gpuArchOption(A.Arch, "warplint check"))
      .option("--gpu", gpuOption(A.Gpu))
      .option("--assume-block", shapeOption("--assume-block", false, A.AssumeBlock))
      .option("--assume-grid", shapeOption("--assume-grid", true, A.AssumeGrid))
      .option("--checks", A.Checks)
      .option("-j",
              [&A](llvm::StringRef V, std::string &Error) {
                unsigned long long N;
                if (V.getAsInteger(10, N) || N == 0 || N > 1024) {
                  Error = fmt::format("-j: '{}' is not a number of jobs (1 to 1024)", V.str());
                  return false;
                }
                A.Jobs = static_cast<unsigned>(N);
                return true;
              })
      .option("--files", A.Filter.Include)
      .option("--exclude", A.Filter.Exclude)
      .option("--shard",
              [&A](llvm::StringRef V, std::string &Error) {
                std::optional<ShardSpec> S = parseShard(V.str(), Error);
                if (S)
                  A.Filter.Shard = *S;
                return S.has_value();
              })
      .option("--warnings-as-errors", A.WarningsAsErrors)
      .flag("--allow-errors", C.AllowErrors)
      .list("--ptxas-log", A.PtxasLogs)
      .list("--objects", A.Objects)
      .option("--registers-from", oneOf("--registers-from", A.RegistersFrom,
                                        {"auto", "ptxas-log", "objects", "nvcc", "clang", "none"}))
      .option("--cache-dir", A.CacheDir)
      .flag("--no-cache", NoCache)
      .flag("--no-verify-advice", NoVerifyAdvice)
      .option("--format", oneOf("--format", C.Format, formatNames()))
      .option("-o", C.Output, "a file name")
      .option("--source-root", C.SourceRoot)
      .option("--color", oneOf("--color", C.Color, {"auto", "always", "never"}))
      .flag("--fix", C.Fix)
      .option("--export-fixes", C.ExportFixes, "a file name")
      .option("--baseline", C.Baseline, "a file name")
      .option("--write-baseline", C.WriteBaseline, "a file name")
      .positional(A.Files)
      .rest(A.ExtraArgs, &A.HasDashDash);
  if (ArgParser::Result R = P.parse(Args, Err); R != ArgParser::Result::Ok)
    return R;
  A.ResultCache = !NoCache;
  A.VerifyAdvice = !NoVerifyAdvice;
  // The pair on one file would write the baseline, then read it back as the one to apply
  // and call the entries it had just written stale.
  if (!C.Baseline.empty() && !C.WriteBaseline.empty()) {
    llvm::SmallString<256> Read(C.Baseline), Write(C.WriteBaseline);
    llvm::sys::fs::make_absolute(Read);
    llvm::sys::fs::make_absolute(Write);
    llvm::sys::path::remove_dots(Read, true);
    llvm::sys::path::remove_dots(Write, true);
    if (Read == Write || llvm::sys::fs::equivalent(Read, Write)) {
      Err = fmt::format("--baseline and --write-baseline name the same file '{}': write the "
                        "baseline in one run, apply it in the next",
                        C.Baseline);
      return ArgParser::Result::Error;
    }
  }
  // --gpu without --arch analyses the GPU's architecture.
  if (!A.Gpu.empty() && A.Arch.empty())
    A.Arch = findProduct(A.Gpu)->Arch;
  if (!validateFilter(C.Analysis.Filter, Err) || !checkNamedFiles(A.Files, Err))
    return ArgParser::Result::Error;
  if (C.Analysis.BuildDir.empty() && C.Analysis.Files.empty()) {
    Err = "no input: name the files, or give -p BUILD (see 'warplint check --help')";
    return ArgParser::Result::Error;
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
  return ArgParser::Result::Ok;
}

/// Writes and applies the baseline options: the findings a baseline holds are not
/// reported; false (with a message) when a baseline cannot be read or written.
bool baselineStep(const CheckConfig &C, RunResult &Result) {
  std::string Err;
  std::vector<BaselineEntry> Entries;
  if (!C.WriteBaseline.empty()) {
    Entries = makeBaseline(Result, C.SourceRoot);
    if (!writeFileAtomically(C.WriteBaseline, baselineJson(Entries), Err)) {
      llvm::errs() << "warplint check: " << Err << "\n";
      return false;
    }
    size_t Findings = 0;
    for (const BaselineEntry &E : Entries)
      Findings += E.Count;
    llvm::errs() << fmt::format("warplint: baseline of {} finding{} ({} entr{}) written to {}\n",
                                Findings, Findings == 1 ? "" : "s", Entries.size(),
                                Entries.size() == 1 ? "y" : "ies", C.WriteBaseline);
  }
  if (!C.Baseline.empty() && !readBaseline(C.Baseline, Entries, Err)) {
    llvm::errs() << "warplint check: " << Err << "\n";
    return false;
  }
  if (C.Baseline.empty() && C.WriteBaseline.empty())
    return true;
  BaselineResult B = applyBaseline(Result, Entries, C.SourceRoot);
  // Entries of files this run did not analyse (another shard, a filter) are not stale.
  std::vector<BaselineEntry> Stale;
  for (const BaselineEntry &E : B.NoLonger)
    if (llvm::any_of(Result.FilesAnalysed, [&](const std::string &F) {
          return relativeToRoot(F, C.SourceRoot) == E.File;
        }))
      Stale.push_back(E);
  llvm::errs() << fmt::format("warplint: baseline: {} finding{} already known, not reported",
                              B.Suppressed, B.Suppressed == 1 ? "" : "s");
  if (!Stale.empty())
    llvm::errs() << fmt::format("; {} entr{} no longer occur{} (--write-baseline shrinks it)",
                                Stale.size(), Stale.size() == 1 ? "y" : "ies",
                                Stale.size() == 1 ? "s" : "");
  llvm::errs() << "\n";
  for (size_t I = 0; I < Stale.size() && I < 10; ++I)
    llvm::errs() << fmt::format("  gone: {} [{}] in '{}': {}\n", Stale[I].File, Stale[I].Check,
                                Stale[I].Kernel, Stale[I].Message);
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
  if (!baselineStep(C, Result))
    return 2;
  return exitCodeFor(Result, /*AnyFindingFails=*/true, C.AllowErrors);
}

} // namespace

int collectCheckResult(const std::vector<std::string> &CheckArgs, RunResult &Out) {
  CheckConfig C;
  std::string Err;
  if (parseCheckArgs(CheckArgs, C, Err) != ArgParser::Result::Ok) {
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
  CheckConfig C;
  std::string Err;
  switch (parseCheckArgs(Args, C, Err)) {
  case ArgParser::Result::Help:
    llvm::outs() << usage();
    return 0;
  case ArgParser::Result::Error:
    llvm::errs() << "warplint check: " << Err << "\n";
    return 2;
  case ArgParser::Result::Ok:
    break;
  }
  // The records are always collected, whatever the format: one result-cache entry then
  // serves a text run and a JSON run of the same files (the key said which before, and
  // `--format json` after `--format text` analysed everything again).
  C.Analysis.CollectLaunches = true;
  RunResult Result;
  auto Start = std::chrono::steady_clock::now();
  int Rc = runAnalysis(C, Result);
  if (Rc == 2 && Result.FilesAnalysed.empty() && Result.FilesFailed.empty())
    return 2;

  LocationOptions Loc{C.SourceRoot};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  bool Colour = C.Color == "always" || (C.Color == "auto" && C.Output.empty() &&
                                        llvm::sys::Process::StandardOutIsDisplayed());
  for (const OutputFormat &F : OutputFormats)
    if (C.Format == F.Name)
      F.Write(Result, Loc, Colour, OS);
  if (C.Output.empty()) {
    llvm::outs() << Text;
    llvm::outs().flush();
  } else if (!writeFileAtomically(C.Output, Text, Err)) {
    llvm::errs() << "warplint check: " << Err << "\n";
    return 2;
  }
  printSummary(Result, std::chrono::steady_clock::now() - Start, llvm::errs());
  if (C.Fix || !C.ExportFixes.empty()) {
    // Fix-its of a file clang reported errors in rest on the AST it recovered: not applied.
    RunResult Fixable = Result;
    llvm::erase_if(Fixable.Findings, [&](const Finding &F) {
      return llvm::is_contained(Result.FilesWithErrors, F.Pos.File);
    });
    if (!C.ExportFixes.empty() &&
        !writeFileAtomically(C.ExportFixes, exportFixesYaml(Fixable), Err)) {
      llvm::errs() << "warplint check: " << Err << "\n";
      return 2;
    }
    if (C.Fix) {
      FixSummary S = applyFixes(Fixable);
      for (const std::string &E : S.Errors)
        llvm::errs() << "warplint check: " << E << "\n";
      llvm::errs() << "warplint: " << fixSummaryText(S) << "\n";
      if (!S.Errors.empty())
        return 2;
    }
  }
  return Rc;
}

} // namespace warplint::driver
