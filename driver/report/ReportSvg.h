//===- ReportSvg.h - inline SVG pictures of the occupancy report -*- C++ -*-===//
//
// Plain drawing: the numbers come from core's occupancy model; these functions only turn
// them into SVG elements. Standalone (an SvgSheet of its own, `warplint occupancy --svg`):
// presentation attributes, every part inline, nothing else needed. On the HTML report's
// page: CSS classes, and the parts drawn alike more than once (axes, curves, gauge
// tracks, wave timelines) written once in the page's <defs> and <use>d.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/report/HtmlEscape.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace warplint::driver {

/// The looks of the pictures' elements: one CSS class on a page, presentation attributes
/// standalone (ReportSvg.cpp's table holds both).
enum class SvgStyle {
  ChartTitle,
  YTick,
  XTick,
  XLabel,
  GridLine,
  TickMark,
  Frame,
  Curve,
  DiscreteCurve,
  Dot,
  CliffLine,
  CliffText,
  CurrentPoint,
  CurrentText,
  NoData,
  GaugeTrack,
  GaugeValue,
  GaugePercent,
  GaugeCaption,
  LaneName,
  LaneNote,
  WaveNumber,
  Legend,
  Ellipsis,
  SlotBusy,
  SlotIdle,
  KeyBusy,
  KeyIdle
};

/// How pictures are written: standalone (each element needs nothing else) or for one
/// HTML page, whose pictures share the page's stylesheet (svgCss()) and definitions
/// (defs()). Ids of shared parts are given in order of first use: deterministic.
class SvgSheet {
public:
  explicit SvgSheet(bool Page = false) : Page(Page) {}
  bool page() const { return Page; }
  /// ` class="..."` on a page, else the presentation attributes (and the class of the
  /// styles that name an element: curve, cliff, current, gauge-value, slot).
  std::string_view paint(SvgStyle S) const;
  /// `Part` itself standalone; on a page a <use> of it, defined on its first use.
  std::string part(std::string Part);
  /// A definition with a fixed id (`Content` is the element with that id): standalone
  /// a <defs> with it, to put in each picture; on a page defined once, returns "".
  std::string named(std::string_view Id, std::string_view Content);
  /// The page's definitions: one hidden <svg> with a <defs>; empty when nothing is shared.
  std::string defs() const;

private:
  bool Page;
  std::unordered_map<std::string, size_t> Ids; ///< a part's id; a named definition's key
  size_t Parts = 0;
  std::vector<std::string> Defs; ///< in order of first use
};

/// The CSS of the SvgStyles, for a page whose pictures use an SvgSheet(true).
std::string svgCss();

/// One sample of an occupancy sweep: X in the chart's unit, occupancy 0..1.
struct ChartPoint {
  double X = 0;
  double Occupancy = 0;
};

/// One of NVIDIA's three calculator charts (occupancy against one resource).
struct OccupancyChart {
  std::string Title;              ///< "Block size"
  std::string XLabel;             ///< "threads per block"
  std::vector<ChartPoint> Points; ///< ascending X
  /// Samples are discrete (block sizes) rather than a step function over every X.
  bool Discrete = false;
  bool HasCurrent = false;
  double CurrentX = 0;
  double CurrentOccupancy = 0;
  /// AMD's calculator: the Y axis in waves per SIMD, 0..WavesMax (the arch's waves per
  /// SIMD), instead of occupancy 0..1; the points' and the current point's Occupancy
  /// then hold waves per SIMD. 0: occupancy.
  int WavesMax = 0;
};

/// The first X after the current point where occupancy falls below the current one
/// (the cliff the kernel would fall off), or a negative value when there is none.
double nextCliff(const OccupancyChart &Chart);

/// An <svg> element of Width x Height pixels: the step curve, the current point and the
/// next cliff marked.
std::string renderChartSvg(const OccupancyChart &Chart, SvgSheet &Sheet, int Width = 360,
                           int Height = 230);
/// The same, standalone.
std::string renderChartSvg(const OccupancyChart &Chart, int Width = 360, int Height = 230);

/// A standalone SVG document: a title line over the charts side by side (what
/// `warplint occupancy --svg FILE` writes).
std::string renderChartsDocument(const std::vector<OccupancyChart> &Charts, std::string_view Title);

/// A half-circle gauge of the occupancy (0..1) with its limiter written under it.
std::string renderGaugeSvg(double Occupancy, std::string_view Caption, SvgSheet &Sheet,
                           int Width = 220);
/// The same, standalone.
std::string renderGaugeSvg(double Occupancy, std::string_view Caption, int Width = 220);

/// The blocks of a grid on the SMs of one GPU, wave by wave, equal block durations and
/// breadth-first dispatch assumed.
struct WavePlan {
  uint64_t GridBlocks = 0;
  unsigned BlocksPerSm = 0;
  unsigned SmCount = 0;
  uint64_t blocksPerWave() const { return uint64_t(BlocksPerSm) * SmCount; }
  /// Waves the grid needs (the last may be partial); 0 when nothing can run.
  uint64_t waves() const;
  /// Blocks in the last wave.
  uint64_t lastWaveBlocks() const;
  /// Blocks SM `Sm` (0-based) runs in the last wave.
  unsigned lastWaveBlocksOnSm(unsigned Sm) const;
};

/// The slots of SM 0 (busiest) and of the last SM (least busy in the tail) over the waves,
/// the idle tail of the last wave hatched.
std::string renderTimelineSvg(const WavePlan &Plan, SvgSheet &Sheet, int Width = 560);
/// The same, standalone.
std::string renderTimelineSvg(const WavePlan &Plan, int Width = 560);

/// What every SVG of the report and the timeline writes its numbers with.
namespace svg {
/// A coordinate or a figure: two decimals at most, no trailing zeros ("12.5", "0"), so
/// the pictures are stable and compact.
std::string num(double V);
/// A round tick spacing for an axis spanning Range with about Ticks ticks: 1, 2 or 5 times
/// a power of ten (1 for an empty range).
double decimalStep(double Range, double Ticks);
} // namespace svg

} // namespace warplint::driver
