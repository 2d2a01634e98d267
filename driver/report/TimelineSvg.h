//===- TimelineSvg.h - measured block timelines per SM as SVG and HTML -*- C++ -*-===//
//
// `warplint timeline`'s pictures: one lane per SM, time across, each traced block a bar in
// the row the trace measure gave it (rows stacked by how many blocks ran at once), bars
// coloured by wave, rows above the model's blocks per SM in red, the tail of the last wave
// shaded and idle SMs hatched. The numbers come from driver/measure/BlockTrace; these
// functions only draw and word them.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/measure/BlockTrace.h"
#include "driver/report/ReportSvg.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

/// The model's answer for the traced launch.
struct TimelineModel {
  unsigned BlocksPerSm = 0;
  /// Where it came from: "sm_86, 256 threads, 32 registers: limited by registers".
  std::string Source;
};

/// How the measured maximum of resident blocks per SM compares with the model.
enum class ModelAgreement {
  NoModel,
  Agrees,    ///< equal
  Fewer,     ///< fewer measured, but the grid never filled every SM's slots: expected
  FewerFull, ///< fewer measured although the grid had a full wave of the model's
  More       ///< more measured than the model allows: the model is wrong for this launch
};
ModelAgreement compareWithModel(const LaunchMeasure &M, const std::optional<TimelineModel> &Model);

/// One line: blocks, SMs used and idle, measured max resident per SM against the model,
/// waves, the tail and how busy the SMs were.
std::string timelineSummary(const TracedLaunch &L, const LaunchMeasure &M,
                            const std::optional<TimelineModel> &Model);

/// The picture of one launch.
std::string renderBlockTimelineSvg(const TracedLaunch &L, const LaunchMeasure &M,
                                   const std::optional<TimelineModel> &Model, SvgSheet &Sheet,
                                   int Width = 960);

/// One launch to draw on a page.
struct TimelineEntry {
  const TracedLaunch *Launch = nullptr;
  const LaunchMeasure *Measure = nullptr;
  std::optional<TimelineModel> Model;
};

/// A standalone SVG document of the launches one under the other.
std::string renderTimelineDocument(const std::vector<TimelineEntry> &Entries);

/// One self-contained HTML page: per launch the summary, a table of measured against
/// model figures, and the picture.
void writeTimelineHtml(const std::vector<TimelineEntry> &Entries, llvm::StringRef Title,
                       llvm::raw_ostream &OS);

} // namespace warplint::driver
