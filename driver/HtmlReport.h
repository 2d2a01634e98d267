//===- HtmlReport.h - the self-contained HTML occupancy report -*- C++ -*-===//
//
// `warplint report` turns a RunResult into a ReportPage (buildReport, with core's
// occupancy model and sweeps) and writes it as one HTML file with inline CSS and SVG:
// no scripts, no network.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/Findings.h"
#include "driver/Formats.h"
#include "driver/ReportSvg.h"

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
  std::string Kernel;   ///< "reduce", or "(unresolved kernel)"
  std::string Where;    ///< "src/reduce.cu:42:5"
  std::string Arch;     ///< "sm_86"
  /// Launch shape and resources, in display order ("block", "256 x 1 x 1").
  std::vector<std::pair<std::string, std::string>> Facts;
  std::optional<double> Occupancy; ///< 0..1, when the model could compute it
  std::string Limiter;             ///< "limited by registers (72 per thread)"
  std::string LaunchError;         ///< why the launch cannot run, if it cannot
  std::string Missing;             ///< what was unknown when no occupancy was computed
  std::vector<OccupancyChart> Charts;
  std::vector<Finding> Findings;   ///< findings inside the kernel or at the launch
  std::optional<WavePlan> Waves;   ///< when the grid and the SM count are known
};

/// The whole page.
struct ReportPage {
  std::string Title = "warplint occupancy report";
  std::string Gpu;                 ///< "GeForce RTX 3080 (sm_86, 68 SMs)", or empty
  std::vector<ReportCard> Cards;
  std::vector<Finding> OtherFindings; ///< findings that belong to no card
  std::vector<std::string> FilesAnalysed;
  std::vector<std::string> FilesFailed;
};

/// Writes `Page` as one self-contained HTML document.
void writeHtmlReport(const ReportPage &Page, llvm::raw_ostream &OS);

} // namespace warplint::driver
