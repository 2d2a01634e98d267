//===- HtmlReport.h - the self-contained HTML occupancy report -*- C++ -*-===//
//
// `warplint report` turns a RunResult into a ReportPage (buildReport, with core's
// occupancy model and sweeps) and writes it as one HTML file with inline CSS and SVG:
// no scripts, no network.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"
#include "driver/formats/Formats.h"
#include "driver/report/ReportSvg.h"

#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

/// One launch record: a row of the index and of its kernel's card.
struct ReportLaunch {
  std::string Kernel; ///< "reduce", or "(kernel not resolved)"
  std::string Where;  ///< "src/reduce.cu:42:5"
  std::string Arch;   ///< "sm_86"
  std::string Api;    ///< "triple-chevron", ...
  std::string Block;  ///< "256 x 1 x 1", or "not known at compile time"
  std::string Grid;   ///< "1000 x 1 x 1 (1000 blocks)", or "not known at compile time"
  /// "40 KiB (40960 B)", "n * 4 (not known; taken as 0)", or empty when not given.
  std::string DynamicShared;
  std::string BlocksPerSm;         ///< "2 (16 of 48 warps)", when the occupancy is known
  std::optional<double> Occupancy; ///< 0..1, when the model could compute it
  std::string Limiter;             ///< "limited by registers (72 per thread)"
  std::string LaunchError;         ///< why the launch cannot run, if it cannot
  std::string Missing;             ///< what was unknown: no occupancy, or an upper bound
  size_t FindingCount = 0;         ///< findings at the launch or inside the kernel
  std::optional<WavePlan> Waves;   ///< when the grid and the SM count are known
  size_t Card = 0;                 ///< its card in ReportPage::Kernels
  size_t Shape = 0;                ///< its shape in that card's Shapes
};

/// The launches of one card that gave core the same shape and got the same answer: their
/// gauge and charts are drawn once.
struct ReportShape {
  std::string Summary; ///< "256 threads (8 warps), 40 KiB (40960 B) dynamic shared"
  std::optional<double> Occupancy;
  std::string Limiter, LaunchError, Missing;
  std::vector<OccupancyChart> Charts;
  std::vector<WavePlan> Waves;  ///< the distinct plans of its launches, by grid size
  std::vector<size_t> Launches; ///< into ReportPage::Cards
};

/// One figure measured by Nsight Compute beside warplint's.
struct MeasuredRow {
  std::string What;       ///< "registers per thread"
  std::string Ours, Ncu;  ///< as shown; "-" when there is none
  bool Disagrees = false; ///< both known and different: also a defect line
};

/// The launches Nsight Compute profiled of one source launch with one block, grid and
/// dynamic shared memory, in launch order (ncu's IDs), against warplint's figures.
struct MeasuredGroup {
  /// "3 launches (ncu IDs 0, 4, 8): block 256 x 1 x 1, grid 1000 x 1 x 1, cc 8.6"
  std::string Title;
  std::string Matched; ///< "kernels.cu:26:3 (by name and shape)"
  std::vector<MeasuredRow> Rows;
  std::vector<std::string> Defects; ///< every disagreement of a theoretical figure
  std::vector<std::string> Notes;
};

/// One card: a kernel on one architecture with the same resources, and its launches.
struct ReportKernel {
  std::string Kernel; ///< as ReportLaunch::Kernel
  std::string Arch;
  /// The kernel's resources in display order ("registers", "32 per thread (nvcc)").
  std::vector<std::pair<std::string, std::string>> Facts;
  std::vector<size_t> Launches; ///< into ReportPage::Cards, source order
  std::vector<ReportShape> Shapes;
  /// Findings at its launches or inside the kernel, each once, in the run's order.
  std::vector<Finding> Findings;
  /// Nsight Compute's measurements of its launches (`warplint report --ncu`).
  std::vector<MeasuredGroup> Measured;
  /// The kernel's reported memory accesses with their per-warp figures (the records the
  /// findings of warplint-uncoalesced-access and warplint-shared-bank-conflict quote).
  std::vector<AccessRecord> Accesses;
  /// The kernel's reported barriers and warp-synchronous calls with the threads involved
  /// (the records the findings of warplint-barrier-divergence and warplint-warp-sync-mask
  /// quote).
  std::vector<SyncRecord> Syncs;
  /// The kernel's reported data races (the records warplint-data-race's findings quote).
  std::vector<RaceRecord> Races;
  /// The kernel's thread-dependent branches (the model's branch records: figures per
  /// block shape and warplint-divergent-branch's verdict, silent ones too).
  std::vector<BranchRecord> Branches;
};

/// The whole page.
struct ReportPage {
  std::string Title = "warplint occupancy report";
  std::string Gpu; ///< "GeForce RTX 3080 (sm_86, 68 SMs)", or empty
  /// One per launch record, source order.
  /// FIXME: name it Launches once driver/commands/ReportCommand.cpp (which counts these
  /// as the launches) can be changed with it; the cards are Kernels.
  std::vector<ReportLaunch> Cards;
  std::vector<ReportKernel> Kernels;
  std::vector<Finding> OtherFindings; ///< findings that belong to no card
  /// Every finding of the run, the largest impact first (rank, then the figure; findings
  /// without an impact last, in the run's order): the report's finding index, where a
  /// user with hundreds of findings sees which to read first.
  std::vector<Finding> ByImpact;
  /// Findings of the run (a finding in a kernel analysed for two archs shows on two
  /// cards); nothing: count the cards' and the other findings.
  std::optional<size_t> FindingCount;
  std::vector<std::string> FilesAnalysed;
  std::vector<std::string> FilesFailed;
  /// `--ncu FILE`: the file, the profiled launches no source launch matched, and the
  /// disagreements found (defect lines on the cards).
  std::string MeasuredFrom;
  std::vector<std::string> MeasuredUnmatched;
  size_t MeasuredLaunches = 0, MeasuredDefects = 0;
};

/// The GPU the report's grid-level figures (waves) are for.
struct ReportOptions {
  /// The product chosen with --gpu, or nullptr.
  const ::warplint::GpuProduct *Product = nullptr;
  /// SMs (from --sms, or the product's); 0: unknown, no wave timeline.
  unsigned SmCount = 0;
  /// Architecture used when a launch record has none ("sm_86"); empty: none.
  std::string DefaultArch;
  /// Paths under this directory are shown relative to it.
  std::string SourceRoot;
};

/// A row per launch record; a card per kernel (and arch and resources) with its launches,
/// and per distinct shape of them core's occupancy, the three sweeps and the waves;
/// findings at a launch site or inside the launched kernel go on its card, the others
/// under "Other findings".
ReportPage buildReport(const RunResult &Result, const ReportOptions &Opts);

/// Where a chart marks the launch: its active warps per SM and occupancy, as its record
/// (or the occupancy command's one computation) gives them; the charts compute none.
struct LaunchPoint {
  int ActiveWarpsPerSm = 0;
  double Occupancy = 0;
};

/// The three calculator charts (block size, registers, shared memory) of one kernel
/// configuration, from core's sweeps; Now (when given) is marked on each chart whose
/// current value is known (RegistersKnown false: no point on the registers chart).
/// Without a block (ThreadsPerBlock 0) only the block-size chart.
std::vector<OccupancyChart> occupancyCharts(const ::warplint::GpuArch &Arch,
                                            const ::warplint::KernelResources &Res,
                                            const ::warplint::LaunchShape &Shape,
                                            std::optional<LaunchPoint> Now,
                                            bool RegistersKnown = true);

struct NcuLaunch;
/// Puts Nsight Compute's launches (driver/measure/NcuCsv) on the cards of the source
/// launches they match, by kernel name (mangled, or demangled without parameters) and
/// shape, with warplint's figures beside ncu's and a defect line for each disagreement.
/// `Result` is the run the page was built from (its launches are Page.Cards, in order).
void addNcuMeasurements(ReportPage &Page, const RunResult &Result,
                        const std::vector<NcuLaunch> &Ncu, const std::string &From);

// A kernel's predicted branch efficiency beside ncu's is the model's figure:
// predictedKernelBranchEfficiency in model/Records.h.

/// Writes `Page` as one self-contained HTML document.
void writeHtmlReport(const ReportPage &Page, llvm::raw_ostream &OS);

} // namespace warplint::driver
