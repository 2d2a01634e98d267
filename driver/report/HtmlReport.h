//===- HtmlReport.h - the self-contained HTML occupancy report -*- C++ -*-===//
//
// `warplint report` turns a RunResult into a ReportPage (buildReport, with core's
// occupancy model and sweeps) and writes it as one HTML file with inline CSS and SVG:
// no scripts, no network.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/Findings.h"
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

/// One card: a kernel at one launch site.
struct ReportCard {
  std::string Kernel; ///< "reduce", or "(unresolved kernel)"
  std::string Where;  ///< "src/reduce.cu:42:5"
  std::string Arch;   ///< "sm_86"
  /// Launch shape and resources, in display order ("block", "256 x 1 x 1").
  std::vector<std::pair<std::string, std::string>> Facts;
  std::optional<double> Occupancy; ///< 0..1, when the model could compute it
  std::string Limiter;             ///< "limited by registers (72 per thread)"
  std::string LaunchError;         ///< why the launch cannot run, if it cannot
  std::string Missing;             ///< what was unknown when no occupancy was computed
  std::vector<OccupancyChart> Charts;
  std::vector<Finding> Findings; ///< findings inside the kernel or at the launch
  std::optional<WavePlan> Waves; ///< when the grid and the SM count are known
};

/// The whole page.
struct ReportPage {
  std::string Title = "warplint occupancy report";
  std::string Gpu; ///< "GeForce RTX 3080 (sm_86, 68 SMs)", or empty
  std::vector<ReportCard> Cards;
  std::vector<Finding> OtherFindings; ///< findings that belong to no card
  /// Findings of the run (a finding in a kernel launched twice shows on two cards);
  /// nothing: count the cards' and the other findings.
  std::optional<size_t> FindingCount;
  std::vector<std::string> FilesAnalysed;
  std::vector<std::string> FilesFailed;
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

/// One card per launch record with core's occupancy, the three sweeps and the waves;
/// findings at a launch site or inside the launched kernel go on its card, the others
/// under "Other findings".
ReportPage buildReport(const RunResult &Result, const ReportOptions &Opts);

/// The three calculator charts (block size, registers, shared memory) of one kernel
/// configuration, from core's sweeps; the current point is marked on each chart whose
/// current value is known (RegistersKnown false: no point on the registers chart).
/// Without a block (ThreadsPerBlock 0) only the block-size chart.
std::vector<OccupancyChart> occupancyCharts(const ::warplint::GpuArch &Arch,
                                            const ::warplint::KernelResources &Res,
                                            const ::warplint::LaunchShape &Shape,
                                            bool RegistersKnown = true);

/// Writes `Page` as one self-contained HTML document.
void writeHtmlReport(const ReportPage &Page, llvm::raw_ostream &OS);

} // namespace warplint::driver
