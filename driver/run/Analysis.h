//===- Analysis.h - run warplint's checks and launch facts over files -*- C++ -*-===//
//
// The analysis behind `warplint check` and `warplint report`: for each translation unit,
// clang-tidy's engine with the warplint module (findings through clang's diagnostics, so
// NOLINT and --warnings-as-errors behave as in clang-tidy) and one pass of model/Facts
// (the launch records), gathered into a RunResult in a stable order.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Batch.h"
#include "driver/run/Findings.h"

#include <map>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace warplint::driver {

class PreambleStore;

/// What to analyse and how.
struct AnalysisOptions {
  /// Directory holding compile_commands.json (-p); empty: no database.
  std::string BuildDir;
  /// A compile database in memory, used as -p's would be (`warplint launch`: the one
  /// command it ran); not owned. BuildDir stays empty.
  const clang::tooling::CompilationDatabase *Database = nullptr;
  /// Files named on the command line; empty with a database: every file in it.
  std::vector<std::string> Files;
  /// Compiler arguments after `--`: the whole command line without a database, appended
  /// to each database command with one.
  std::vector<std::string> ExtraArgs;
  bool HasDashDash = false;
  /// --cuda-path: the toolkit whose headers files without a database are parsed against;
  /// --mock-cuda: warplint's own minimal CUDA header instead (see defaultCudaArgs).
  std::string CudaPath;
  bool MockCuda = false;
  /// --arch: the device architecture analysed ("sm_86"); empty: the command's own.
  std::string Arch;
  /// --gpu: a product key ("h100") for the grid-level figures (waves, active clusters) and
  /// warplint-partial-wave (warplint.Gpu); empty: none.
  std::string Gpu;
  /// --assume-block, --assume-grid: the shapes every check assumes for a kernel with no
  /// launch of a known block (grid) in its TU (warplint.AssumedBlock and
  /// warplint.AssumedGrid), as "X[xYxZ]"; empty: the checks' defaults.
  std::string AssumeBlock, AssumeGrid;
  /// clang-tidy check globs (--checks), on top of .clang-tidy files.
  std::string Checks = "-*,warplint-*";
  /// --warnings-as-errors globs.
  std::string WarningsAsErrors;
  FileFilter Filter;
  unsigned Jobs = 0; ///< 0: defaultJobs()
  /// ptxas reports (--ptxas-log) and objects/cubins (--objects) that give the launched
  /// kernels' registers and static shared memory per arch.
  std::vector<std::string> PtxasLogs;
  std::vector<std::string> Objects;
  /// --registers-from: auto, ptxas-log, objects, nvcc or none (the occupancy checks'
  /// RegisterSource; docs/registers.md), and --cache-dir for the nvcc source.
  std::string RegistersFrom = "auto";
  std::string CacheDir;
  /// Reuse a file's result while its command, options and every file it read are
  /// unchanged (driver/cache/ResultCache.h); --no-cache turns it off.
  bool ResultCache = true;
  /// nvcc's register figures from its cache only (`warplint lsp`'s first answer): a file
  /// whose figures are not cached yet is analysed without them, its result not cached,
  /// and RunResult::RegistersNotCached set.
  bool NvccCacheOnly = false;
  /// Check register advice with the compiler (--no-verify-advice: off; docs/registers.md).
  bool VerifyAdvice = true;
  /// Also collect the launch records (a second parse of each file); the text, SARIF and
  /// GitHub formats do not need them.
  bool CollectLaunches = true;
  bool Progress = false;
  /// Texts that replace files on disk (absolute paths): an editor's unsaved buffer. A
  /// file with unsaved text is not looked up in, nor stored into, the result cache.
  std::map<std::string, std::string> Unsaved;
  /// Each file in a child process (a crash costs that file alone); false: in this
  /// process, so that what it keeps (Preambles) outlives the parse.
  bool Isolate = true;
  /// Precompiled preambles to parse with where they can be reused (not owned); a parse
  /// with one is not stored in the result cache (its list of files read is partial).
  PreambleStore *Preambles = nullptr;
  /// With Preambles: only (re)build each file's preamble (PreambleStore::Note says
  /// how it went), and analyse nothing.
  bool PreambleOnly = false;
};

/// Runs the analysis. Files that cannot be analysed (not in the database, do not parse)
/// go to FilesFailed with clang's errors among the findings; Error is set (and nothing
/// analysed) only when the run cannot start at all (no database at -p, no files).
RunResult analyse(const AnalysisOptions &Opts, std::string &Error);

/// clang's resource directory (its builtin headers, the CUDA wrappers): the
/// WARPLINT_CLANG_RESOURCE_DIR environment variable, else the one of the clang warplint
/// was built against.
std::string clangResourceDir();

/// The clang command the analysis runs for a database command: nvcc commands
/// translated (driver/compdb/NvccTranslate.h), the device side of Arch when it is not empty,
/// ExtraArgs added, CUDA-version warnings off, and, for a parse against a real CUDA
/// toolkit, cudaCompatHeader() force-included.
std::vector<std::string> clangCommand(const std::vector<std::string> &Command,
                                      const std::string &Arch,
                                      const std::vector<std::string> &ExtraArgs);

/// share/warplint/include/warplint_cuda_compat.h beside the binary (bin/..), as the build
/// tree and an installation lay it out; empty when it is missing.
std::string cudaCompatHeader();

/// share/warplint/fallback beside the binary: headers clang may lack that nvcc's host
/// compiler has (omp.h), passed with -idirafter; empty when it is missing.
std::string fallbackHeaderDir();

/// The clang arguments used for a file without a compile database: a device-side CUDA
/// parse for `Arch` (sm_86 when empty) against the toolkit at CudaPath (when empty:
/// $CUDA_PATH, else /usr/local/cuda), or, with no toolkit there or with MockCuda, against
/// warplint's own minimal header in share/warplint/cuda beside the binary (said once on
/// stderr).
std::vector<std::string> defaultCudaArgs(const std::string &Arch, const std::string &CudaPath = "",
                                         bool MockCuda = false);

/// share/warplint/include/warplint_rocm5_compat.h beside the binary: force-included into
/// HIP parses against an installed ROCm's headers (it declares, for ROCm 5's hip_fp16.h
/// only, the two reciprocal functions clang 22's HIP wrapper no longer declares); empty
/// when absent.
std::string rocmCompatHeader();

/// share/warplint/hip beside the binary: warplint's own minimal HIP header
/// (hip/hip_runtime.h) for HIP parses without ROCm; empty when it is missing.
std::string ownHipHeaders();

/// Says once on stderr that HIP is parsed with warplint's own header in Dir.
void sayOwnHipHeader(const std::string &Dir);

/// Whether Arch names an AMD architecture ("gfx90a", "gfx1030:xnack-").
bool isAmdArch(const std::string &Arch);

/// The clang arguments used for a HIP file (a .hip file, or any file with an AMD --arch)
/// without a compile database: the device side of Arch (clang's default gfx906 when it is
/// not an AMD one) against ROCm's headers when findRocm() finds them, else, or with
/// OwnHeader (--mock-cuda), against warplint's own HIP header (said once on stderr).
std::vector<std::string> defaultHipArgs(const std::string &Arch, bool OwnHeader = false);

} // namespace warplint::driver
