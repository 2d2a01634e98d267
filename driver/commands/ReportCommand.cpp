//===- ReportCommand.cpp - `warplint report`: the HTML occupancy report ---===//
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"
#include "driver/measure/NcuCsv.h"
#include "driver/report/HtmlReport.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    R"(usage: warplint report [check arguments] -o REPORT.html [--gpu NAME | --sms N]

Runs the analysis of `warplint check` (same files, -p, --arch, filters, -j, ...) and writes
one self-contained HTML file (inline CSS and SVG, no scripts, no network): an index of
every launch by occupancy, then a card per kernel with its launches in a table and, per
distinct shape, an occupancy gauge with the limiter, the three occupancy-calculator charts
(block size, registers, shared memory) with the launch and the next cliff marked, the
waves of the grid on the chosen GPU, and the findings.

report options:
  -o FILE        the HTML file to write (atomically); required
  --gpu NAME     the GPU for the waves, thread block clusters and warplint-partial-wave
                 and, when no --arch is given, the architecture:
                 )";

constexpr const char *UsageTail = R"(
  --sms N        SMs on the GPU (overrides the product's count; then the page's waves
                 only, no clusters and no warplint-partial-wave)
  --title TEXT   the page's title (default "warplint occupancy report")
  --ncu FILE     Nsight Compute's CSV export (`ncu --csv --page raw`, or the details
                 page of `ncu --csv --metrics ...`): each profiled launch is matched to
                 the source launch of its kernel (name, then block and grid) and shown on
                 its card: theoretical figures (warplint's and ncu's), achieved
                 occupancy, branch efficiency measured against predicted; every
                 disagreement of a theoretical figure is a defect line

exit status: 0 report written, no findings; 1 report written, findings; 2 no report
(bad arguments, or nothing could be analysed).
)";

int fail(const std::string &Msg) {
  llvm::errs() << "warplint report: " << Msg << "\n";
  return 2;
}

} // namespace

int runReportCommand(int Argc, char **Argv) {
  std::string Out, Title, NcuPath;
  ReportOptions Opts;
  bool SmsGiven = false;
  // Everything report does not know is check's, in order; `--` and what follows too.
  std::vector<std::string> CheckArgs, ClangArgs;
  bool DashDash = false;
  ArgParser P("report");
  P.option(
       "-o",
       [&](llvm::StringRef V, std::string &Error) {
         Out = V.str();
         Error = "-o needs a file name";
         return !Out.empty();
       },
       "a file name")
      .option("--title", Title)
      .option("--ncu", NcuPath, "a file name")
      .option("--gpu",
              [&](llvm::StringRef V, std::string &Error) {
                Opts.Product = findProduct(V);
                if (!Opts.Product) {
                  Error = fmt::format("unknown GPU '{}' (known: {})", V.str(), knownProductList());
                  return false;
                }
                if (!SmsGiven)
                  Opts.SmCount = Opts.Product->SmCount;
                return true;
              })
      .option("--sms",
              [&](llvm::StringRef V, std::string &Error) {
                unsigned long long N = 0;
                if (V.getAsInteger(10, N) || N == 0 || N > 100000) {
                  Error = fmt::format("--sms: '{}' is not a number of SMs (1 to 100000)", V.str());
                  return false;
                }
                Opts.SmCount = static_cast<unsigned>(N);
                SmsGiven = true;
                return true;
              })
      .passUnknownOptions()
      .positional(CheckArgs)
      .rest(ClangArgs, &DashDash);
  std::string Err;
  if (std::optional<int> Rc = parsed(P.parse(Argc, Argv, Err),
                                     std::string(Usage) + knownProductList() + UsageTail, Err,
                                     fail))
    return *Rc;
  bool ArchGiven = llvm::any_of(
      CheckArgs, [](llvm::StringRef A) { return A == "--arch" || A.starts_with("--arch="); });
  if (DashDash) {
    CheckArgs.push_back("--");
    CheckArgs.insert(CheckArgs.end(), ClangArgs.begin(), ClangArgs.end());
  }
  if (Out.empty())
    return fail("-o REPORT.html is required (see 'warplint report --help')");
  // Nsight Compute's file is read before the analysis: a bad file stops here.
  std::vector<NcuLaunch> Ncu;
  if (!NcuPath.empty()) {
    auto Buf = llvm::MemoryBuffer::getFile(NcuPath);
    if (!Buf)
      return fail(fmt::format("--ncu: cannot read '{}': {}", NcuPath, Buf.getError().message()));
    if (!readNcuCsv((*Buf)->getBuffer(), Ncu, Err))
      return fail(fmt::format("--ncu: {}: {}", NcuPath, Err));
  }
  // The product's architecture is the analysis target unless --arch says otherwise.
  if (Opts.Product && !ArchGiven) {
    auto Sep = std::find(CheckArgs.begin(), CheckArgs.end(), "--");
    CheckArgs.insert(Sep, {"--arch", Opts.Product->Arch});
  }
  // The GPU is the run's (warplint.Gpu): the model's waves and clusters, and
  // warplint-partial-wave, for the same product. --sms makes it another GPU than the
  // product: then the page's waves are the report's own, and the check does not run.
  if (Opts.Product && !SmsGiven) {
    auto Sep = std::find(CheckArgs.begin(), CheckArgs.end(), "--");
    CheckArgs.insert(Sep, {"--gpu", Opts.Product->Key});
  }

  RunResult Result;
  int CheckRc = collectCheckResult(CheckArgs, Result);
  // No file at all (a bad option, an empty database): check has said why. Files that all
  // failed still get their report, which names them and their errors (docs/ci.md: the
  // report is written first, then the status says 2).
  if (CheckRc == 2 && Result.FilesAnalysed.empty() && Result.FilesFailed.empty())
    return 2;
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    Opts.SourceRoot = std::string(Cwd);
  ReportPage Page = buildReport(Result, Opts);
  if (!Title.empty())
    Page.Title = Title;
  if (!NcuPath.empty()) {
    addNcuMeasurements(Page, Result, Ncu, NcuPath);
    llvm::errs() << fmt::format(
        "warplint report: ncu: {} profiled launch{}, {} matched, {} "
        "not matched to a source launch, {} disagreement{} with "
        "warplint's figures\n",
        Ncu.size(), Ncu.size() == 1 ? "" : "es", Ncu.size() - Page.MeasuredUnmatched.size(),
        Page.MeasuredUnmatched.size(), Page.MeasuredDefects, Page.MeasuredDefects == 1 ? "" : "s");
  }
  std::string Html;
  llvm::raw_string_ostream OS(Html);
  writeHtmlReport(Page, OS);
  if (!writeFileAtomically(Out, Html, Err))
    return fail(Err);
  llvm::errs() << fmt::format("warplint report: wrote {} ({} launch{}, {} finding{})\n", Out,
                              Page.Cards.size(), Page.Cards.size() == 1 ? "" : "es",
                              Result.Findings.size(), Result.Findings.size() == 1 ? "" : "s");
  return CheckRc;
}

} // namespace warplint::driver
