//===- ReportSvg.cpp - charts, gauge and wave timeline as inline SVG ------===//
#include "driver/report/ReportSvg.h"

#include "warplint/core/Occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <cmath>

namespace warplint::driver {
namespace {

constexpr const char *Ink = "#1f2933";

struct StyleDef {
  const char *Class; ///< CSS class(es); the element's own class when Names
  bool Names;        ///< the element carries Class in both forms (curve, cliff, ...)
  bool Text;         ///< a <text> style: sans-serif
  const char *Props; ///< CSS declarations; the presentation attributes standalone
};

// clang-format off
/// In SvgStyle's order.
constexpr StyleDef Styles[] = {
    // Charts: title, axes, frame.
    {"tt", false, true, "fill:#1f2933;font-size:13px;font-weight:bold"},
    {"yt", false, true, "fill:#1f2933;font-size:10px;text-anchor:end"},
    {"xt", false, true, "fill:#1f2933;font-size:10px;text-anchor:middle"},
    {"xl", false, true, "fill:#1f2933;font-size:11px;text-anchor:middle"},
    {"gl", false, false, "stroke:#d9dee4"},
    {"tm", false, false, "stroke:#1f2933"},
    {"fr", false, false, "fill:none;stroke:#1f2933"},
    // Charts: the curve, the cliff and the current point.
    {"curve", true, false, "fill:none;stroke:#2563eb;stroke-width:2"},
    {"curve dc", true, false, "fill:none;stroke:#2563eb;stroke-width:1.5"},
    {"dt", false, false, "fill:#2563eb"},
    {"cliff", true, false, "stroke:#dc2626;stroke-dasharray:4 3"},
    {"ct", false, true, "fill:#dc2626;font-size:10px"},
    {"current", true, false, "fill:#16a34a;stroke:#ffffff;stroke-width:1.5"},
    {"cu", false, true, "fill:#16a34a;font-size:10px"},
    {"nd", false, true, "fill:#1f2933;font-size:12px"},
    // The gauge.
    {"gt", false, false, "fill:none;stroke:#d9dee4;stroke-width:16"},
    {"gauge-value", true, false, "fill:none;stroke-width:16"},
    {"gp", false, true, "fill:#1f2933;font-size:26px;font-weight:bold;text-anchor:middle"},
    {"gc", false, true, "fill:#1f2933;font-size:12px;text-anchor:middle"},
    // The wave timeline.
    {"ln", false, true, "fill:#1f2933;font-size:11px"},
    {"lo", false, true, "fill:#1f2933;font-size:9px"},
    {"wn", false, true, "fill:#1f2933;font-size:10px;text-anchor:middle"},
    {"lg", false, true, "fill:#1f2933;font-size:10px"},
    {"el", false, true, "fill:#1f2933;font-size:12px;text-anchor:middle"},
    {"slot busy", true, false, "fill:#2563eb;stroke:#ffffff;stroke-width:1"},
    {"slot idle", true, false, "fill:url(#idle-hatch);stroke:#ffffff;stroke-width:1"},
    {"kb", false, false, "fill:#2563eb"},
    {"ki", false, false, "fill:url(#idle-hatch)"},
};
// clang-format on
constexpr size_t NumStyles = sizeof(Styles) / sizeof(Styles[0]);
static_assert(NumStyles == size_t(SvgStyle::KeyIdle) + 1, "a StyleDef per SvgStyle");

const StyleDef &def(SvgStyle S) { return Styles[size_t(S)]; }

/// The element's own class attribute of a style that names it: `class="curve dc"`.
std::string cls(SvgStyle S) { return fmt::format("class=\"{}\"", def(S).Class); }

/// The CSS declarations of a style.
std::string declarations(const StyleDef &S) {
  return (S.Text ? std::string("font-family:sans-serif;") : std::string()) + S.Props;
}

/// "a:b;c:d" as ` a="b" c="d"`.
std::string attributes(std::string_view Props) {
  std::string Out;
  while (!Props.empty()) {
    size_t End = Props.find(';');
    std::string_view Decl = Props.substr(0, End);
    size_t Colon = Decl.find(':');
    Out += fmt::format(" {}=\"{}\"", Decl.substr(0, Colon), Decl.substr(Colon + 1));
    Props = End == std::string_view::npos ? std::string_view() : Props.substr(End + 1);
  }
  return Out;
}

using svg::num;

std::string label(double V) {
  if (V >= 1024 && std::fmod(V, 1024) == 0)
    return fmt::format("{}K", static_cast<long long>(V / 1024));
  return num(V);
}

/// Round tick spacing: 1, 2 or 5 times a power of ten (powers of two for byte sizes).
double tickStep(double Range, bool PowersOfTwo) {
  if (Range <= 0)
    return 1;
  if (PowersOfTwo) {
    double Step = 1;
    while (Range / Step > 8)
      Step *= 2;
    return Step;
  }
  return svg::decimalStep(Range, 6);
}

} // namespace

std::string svg::num(double V) {
  std::string S = fmt::format("{:.2f}", V);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S == "-0" ? "0" : S;
}

double svg::decimalStep(double Range, double Ticks) {
  if (Range <= 0)
    return 1;
  double Raw = Range / Ticks;
  double Mag = std::pow(10, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (Raw <= M * Mag)
      return M * Mag;
  return 10 * Mag;
}

std::string_view SvgSheet::paint(SvgStyle S) const {
  static const auto Forms = [] {
    std::array<std::pair<std::string, std::string>, NumStyles> F; // page, standalone
    for (size_t I = 0; I < NumStyles; ++I) {
      F[I].first = Styles[I].Names ? "" : fmt::format(" class=\"{}\"", Styles[I].Class);
      F[I].second = attributes(declarations(Styles[I]));
    }
    return F;
  }();
  return Page ? Forms[size_t(S)].first : Forms[size_t(S)].second;
}

std::string SvgSheet::part(std::string Part) {
  if (!Page)
    return Part;
  auto [It, New] = Ids.try_emplace(std::move(Part), Parts);
  if (New) {
    Defs.push_back(fmt::format("<g id=\"p{}\">{}</g>", It->second, It->first));
    ++Parts;
  }
  return fmt::format("<use href=\"#p{}\"/>\n", It->second);
}

std::string SvgSheet::named(std::string_view Id, std::string_view Content) {
  if (!Page)
    return fmt::format("<defs>{}</defs>\n", Content);
  // A key no drawn part starts with.
  if (Ids.try_emplace(fmt::format("\x01{}", Id), 0).second)
    Defs.push_back(std::string(Content));
  return "";
}

std::string SvgSheet::defs() const {
  if (Defs.empty())
    return "";
  std::string Out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"defs\" width=\"0\" "
                    "height=\"0\" aria-hidden=\"true\"><defs>\n";
  for (const std::string &D : Defs) {
    Out += D;
    Out += '\n';
  }
  Out += "</defs></svg>\n";
  return Out;
}

std::string svgCss() {
  std::string Out = "svg.defs { position: absolute; }\n";
  for (const StyleDef &S : Styles) {
    std::string Selector = std::string(".") + S.Class;
    std::replace(Selector.begin(), Selector.end(), ' ', '.');
    Out += fmt::format("{} {{ {} }}\n", Selector, declarations(S));
  }
  return Out;
}

double nextCliff(const OccupancyChart &Chart) {
  if (!Chart.HasCurrent)
    return -1;
  for (const ChartPoint &P : Chart.Points)
    if (P.X > Chart.CurrentX && P.Occupancy < Chart.CurrentOccupancy - 1e-9)
      return P.X;
  return -1;
}

std::string renderChartSvg(const OccupancyChart &Chart, SvgSheet &Sheet, int Width, int Height) {
  using S = SvgStyle;
  const double Left = 44, Right = 14, Top = 26, Bottom = 40;
  const double PlotW = Width - Left - Right, PlotH = Height - Top - Bottom;
  std::string Out =
      fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{}\" "
                  "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
                  Width, Height, Width, Height, htmlEscape(Chart.Title));
  Out += fmt::format("<title>{}</title>\n", htmlEscape(Chart.Title));
  // What charts of one kind and range share: background, title, grid, axes, frame.
  std::string Axes =
      fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", Width, Height);
  Axes += fmt::format("<text x=\"{}\" y=\"16\"{}>{}</text>\n", num(Left),
                      Sheet.paint(S::ChartTitle), htmlEscape(Chart.Title));
  if (Chart.Points.empty()) {
    Axes += fmt::format("<text x=\"{}\" y=\"{}\"{}>no data</text>\n", num(Left),
                        num(Top + PlotH / 2), Sheet.paint(S::NoData));
    return Out + Sheet.part(std::move(Axes)) + "</svg>\n";
  }
  double XMin = Chart.Points.front().X, XMax = Chart.Points.back().X;
  if (Chart.HasCurrent) {
    XMin = std::min(XMin, Chart.CurrentX);
    XMax = std::max(XMax, Chart.CurrentX);
  }
  if (XMax <= XMin)
    XMax = XMin + 1;
  auto Px = [&](double X) { return Left + (X - XMin) / (XMax - XMin) * PlotW; };
  const bool Waves = Chart.WavesMax > 0;
  const double YMax = Waves ? Chart.WavesMax : 1.0;
  auto Py = [&](double Occ) { return Top + (1 - Occ / YMax) * PlotH; };

  if (Waves) {
    // AMD: waves per SIMD, a grid line every 1, 2 or 4 waves.
    int Step = Chart.WavesMax <= 5 ? 1 : Chart.WavesMax <= 10 ? 2 : 4;
    for (int W = 0; W <= Chart.WavesMax; W += Step) {
      double Y = Py(W);
      Axes += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>\n", num(Left),
                          num(Y), num(Left + PlotW), num(Y), Sheet.paint(S::GridLine));
      Axes += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", num(Left - 4), num(Y + 3),
                          Sheet.paint(S::YTick), W);
    }
  } else {
    // Horizontal grid at 0, 25, 50, 75, 100 %.
    for (int Pct = 0; Pct <= 100; Pct += 25) {
      double Y = Py(Pct / 100.0);
      Axes += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>\n", num(Left),
                          num(Y), num(Left + PlotW), num(Y), Sheet.paint(S::GridLine));
      Axes += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}%</text>\n", num(Left - 4), num(Y + 3),
                          Sheet.paint(S::YTick), Pct);
    }
  }
  // X ticks.
  bool Bytes = Chart.XLabel.find("bytes") != std::string::npos;
  double Step = tickStep(XMax - XMin, Bytes);
  for (double X = std::ceil(XMin / Step) * Step; X <= XMax + 1e-9; X += Step) {
    Axes += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"{3}/>\n", num(Px(X)),
                        num(Top + PlotH), num(Top + PlotH + 4), Sheet.paint(S::TickMark));
    Axes += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", num(Px(X)), num(Top + PlotH + 15),
                        Sheet.paint(S::XTick), Bytes ? label(X) : num(X));
  }
  Axes += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", num(Left + PlotW / 2),
                      num(Height - 6), Sheet.paint(S::XLabel), htmlEscape(Chart.XLabel));
  Axes += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}/>\n", num(Left),
                      num(Top), num(PlotW), num(PlotH), Sheet.paint(S::Frame));
  Out += Sheet.part(std::move(Axes));

  // The curve: a step function (occupancy holds until the next sample that changes it),
  // or for discrete samples a thin polyline with a dot per sample.
  std::string Path;
  double Held = 0;
  for (size_t I = 0; I < Chart.Points.size(); ++I) {
    const ChartPoint &P = Chart.Points[I];
    if (I == 0)
      Path += fmt::format("M{},{}", num(Px(P.X)), num(Py(P.Occupancy)));
    else if (Chart.Discrete)
      Path += fmt::format(" L{},{}", num(Px(P.X)), num(Py(P.Occupancy)));
    else if (P.Occupancy != Held)
      Path += fmt::format(" H{} V{}", num(Px(P.X)), num(Py(P.Occupancy)));
    Held = P.Occupancy;
  }
  if (!Chart.Discrete)
    Path += fmt::format(" H{}", num(Px(XMax)));
  S CurveStyle = Chart.Discrete ? S::DiscreteCurve : S::Curve;
  std::string Curve =
      fmt::format("<path {} d=\"{}\"{}/>\n", cls(CurveStyle), Path, Sheet.paint(CurveStyle));
  if (Chart.Discrete)
    for (const ChartPoint &P : Chart.Points)
      Curve += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2\"{}/>\n", num(Px(P.X)),
                           num(Py(P.Occupancy)), Sheet.paint(S::Dot));
  Out += Sheet.part(std::move(Curve));

  double CliffX = nextCliff(Chart);
  if (CliffX >= 0) {
    Out += fmt::format("<line {0} data-x=\"{1}\" x1=\"{2}\" y1=\"{3}\" x2=\"{2}\" "
                       "y2=\"{4}\"{5}/>\n",
                       cls(S::CliffLine), num(CliffX), num(Px(CliffX)), num(Top), num(Top + PlotH),
                       Sheet.paint(S::CliffLine));
    bool LabelLeft = Px(CliffX) > Left + PlotW * 0.7;
    // Keep clear of the current point's label, which sits near the current point.
    double Ly = Chart.HasCurrent && Py(Chart.CurrentOccupancy) < Top + PlotH / 2 ? Top + PlotH - 5
                                                                                 : Top + 10;
    Out +=
        fmt::format("<text x=\"{}\" y=\"{}\"{}{}>cliff at {}</text>\n",
                    num(Px(CliffX) + (LabelLeft ? -3 : 3)), num(Ly), Sheet.paint(S::CliffText),
                    LabelLeft ? " text-anchor=\"end\"" : "", Bytes ? label(CliffX) : num(CliffX));
  }
  if (Chart.HasCurrent) {
    // The current point: waves per SIMD on AMD's waves chart, else the occupancy in %.
    double Cx = Px(Chart.CurrentX), Cy = Py(Chart.CurrentOccupancy);
    Out += fmt::format("<circle {} data-x=\"{}\" data-{}=\"{}\" cx=\"{}\" cy=\"{}\" "
                       "r=\"5\"{}/>\n",
                       cls(S::CurrentPoint), num(Chart.CurrentX),
                       Waves ? "waves-per-simd" : "occupancy", num(Chart.CurrentOccupancy),
                       num(Cx), num(Cy), Sheet.paint(S::CurrentPoint));
    bool LabelLeft = Cx > Left + PlotW * 0.6;
    double Ty = Cy > Top + 18 ? Cy - 8 : Cy + 16;
    Out += fmt::format("<text x=\"{}\" y=\"{}\"{}{}>{}: {}</text>\n",
                       num(Cx + (LabelLeft ? -7 : 7)), num(Ty), Sheet.paint(S::CurrentText),
                       LabelLeft ? " text-anchor=\"end\"" : "",
                       Bytes ? label(Chart.CurrentX) : num(Chart.CurrentX),
                       Waves ? num(Chart.CurrentOccupancy) + " waves/SIMD"
                             : num(std::round(Chart.CurrentOccupancy * 1000) / 10) + "%");
  }
  Out += "</svg>\n";
  return Out;
}

std::string renderChartSvg(const OccupancyChart &Chart, int Width, int Height) {
  SvgSheet Standalone;
  return renderChartSvg(Chart, Standalone, Width, Height);
}

std::string renderChartsDocument(const std::vector<OccupancyChart> &Charts,
                                 std::string_view Title) {
  const int ChartW = 360, ChartH = 230, Gap = 10, TitleH = 30;
  const int Width = std::max<int>(1, int(Charts.size())) * (ChartW + Gap) + Gap;
  const int Height = TitleH + ChartH + Gap;
  std::string Out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  Out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                     "height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
                     Width, Height);
  Out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", Width, Height);
  Out += fmt::format("<text x=\"{}\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\" "
                     "fill=\"{}\">{}</text>\n",
                     Gap, Ink, htmlEscape(Title));
  for (size_t I = 0; I < Charts.size(); ++I) {
    std::string Chart = renderChartSvg(Charts[I], ChartW, ChartH);
    // Position the nested <svg> element.
    Chart.insert(4, fmt::format(" x=\"{}\" y=\"{}\"", Gap + int(I) * (ChartW + Gap), TitleH));
    Out += Chart;
  }
  Out += "</svg>\n";
  return Out;
}

std::string renderGaugeSvg(double Occupancy, std::string_view Caption, SvgSheet &Sheet, int Width) {
  using S = SvgStyle;
  Occupancy = std::clamp(Occupancy, 0.0, 1.0);
  const double Cx = Width / 2.0, R = Width / 2.0 - 18, Cy = R + 14;
  const int Height = static_cast<int>(Cy + 40);
  const char *Colour = Occupancy < 0.25 ? "#dc2626" : Occupancy < 0.5 ? "#d97706" : "#16a34a";
  auto At = [&](double Frac) {
    double A = 3.14159265358979323846 * (1 - Frac);
    return std::make_pair(Cx + R * std::cos(A), Cy - R * std::sin(A));
  };
  auto [X0, Y0] = At(0);
  auto [X1, Y1] = At(1);
  auto [Xv, Yv] = At(Occupancy);
  std::string Out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gauge\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"occupancy {}%\">\n",
      Width, Height, Width, Height, num(std::round(Occupancy * 1000) / 10));
  Out += Sheet.part(fmt::format("<path d=\"M{},{} A{},{} 0 0 1 {},{}\"{}/>\n", num(X0), num(Y0),
                                num(R), num(R), num(X1), num(Y1), Sheet.paint(S::GaugeTrack)));
  if (Occupancy > 0)
    Out += fmt::format("<path {} data-occupancy=\"{}\" d=\"M{},{} A{},{} 0 0 1 {},{}\" "
                       "stroke=\"{}\"{}/>\n",
                       cls(S::GaugeValue), num(Occupancy), num(X0), num(Y0), num(R), num(R),
                       num(Xv), num(Yv), Colour, Sheet.paint(S::GaugeValue));
  Out += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}%</text>\n", num(Cx), num(Cy - 4),
                     Sheet.paint(S::GaugePercent), num(std::round(Occupancy * 1000) / 10));
  Out += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", num(Cx), num(Cy + 22),
                     Sheet.paint(S::GaugeCaption), htmlEscape(Caption));
  Out += "</svg>\n";
  return Out;
}

std::string renderGaugeSvg(double Occupancy, std::string_view Caption, int Width) {
  SvgSheet Standalone;
  return renderGaugeSvg(Occupancy, Caption, Standalone, Width);
}

// The waves are core's (warplint/core/Occupancy.h waves()): the picture counts nothing.
uint64_t WavePlan::waves() const {
  std::optional<::warplint::WaveInfo> W =
      ::warplint::waves(int64_t(GridBlocks), int(BlocksPerSm), int(SmCount));
  return W ? uint64_t(W->WaveCount) : 0;
}

uint64_t WavePlan::lastWaveBlocks() const {
  std::optional<::warplint::WaveInfo> W =
      ::warplint::waves(int64_t(GridBlocks), int(BlocksPerSm), int(SmCount));
  return W ? uint64_t(W->LastWaveBlocks) : 0;
}

unsigned WavePlan::lastWaveBlocksOnSm(unsigned Sm) const {
  if (SmCount == 0 || Sm >= SmCount)
    return 0;
  uint64_t Last = lastWaveBlocks();
  // Breadth-first: one block per SM in turn until the tail is placed.
  uint64_t Base = Last / SmCount, Extra = Last % SmCount;
  return static_cast<unsigned>(Base + (Sm < Extra ? 1 : 0));
}

std::string renderTimelineSvg(const WavePlan &Plan, SvgSheet &Sheet, int Width) {
  using S = SvgStyle;
  const uint64_t Waves = Plan.waves();
  const unsigned Slots = Plan.BlocksPerSm;
  // Long grids: the first waves, a gap, the last waves.
  std::vector<uint64_t> Shown;
  bool Gap = Waves > 12;
  for (uint64_t W = 0; W < Waves; ++W)
    if (!Gap || W < 3 || W + 3 >= Waves)
      Shown.push_back(W);
  const double Left = 92, Right = 10, Top = 22, LaneGap = 26;
  const double SlotH = Slots == 0 ? 10 : std::max(3.0, std::min(14.0, 110.0 / Slots));
  const double LaneH = std::max(30.0, SlotH * std::max(1u, Slots));
  const double Cols = Shown.size() + (Gap ? 1 : 0);
  const double ColW = Cols == 0 ? 0 : (Width - Left - Right) / Cols;
  const int Height = static_cast<int>(Top + 2 * LaneH + LaneGap + 44);
  std::string Out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"{}\" "
      "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"blocks per SM over "
      "{} waves\">\n",
      Width, Height, Width, Height, Waves);
  Out +=
      Sheet.named("idle-hatch", "<pattern id=\"idle-hatch\" width=\"6\" height=\"6\" "
                                "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                                "<rect width=\"6\" height=\"6\" fill=\"#fef2f2\"/>"
                                "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#f87171\" "
                                "stroke-width=\"2\"/></pattern>");
  // The picture depends on the plan only: grids of the same waves share it on a page.
  std::string Body;
  if (Waves == 0 || Slots == 0) {
    Body += fmt::format("<text x=\"4\" y=\"20\"{}>no block fits on an SM: nothing to "
                        "schedule</text>\n",
                        Sheet.paint(S::NoData));
    return Out + Sheet.part(std::move(Body)) + "</svg>\n";
  }
  const unsigned LastSm = Plan.SmCount - 1;
  for (int Lane = 0; Lane < 2; ++Lane) {
    unsigned Sm = Lane == 0 ? 0 : LastSm;
    double Y0 = Top + Lane * (LaneH + LaneGap);
    Body += fmt::format("<text x=\"4\" y=\"{}\"{}>SM {}</text>\n", num(Y0 + LaneH / 2 + 4),
                        Sheet.paint(S::LaneName), Sm);
    Body += fmt::format("<text x=\"4\" y=\"{}\"{}>{}</text>\n", num(Y0 + LaneH / 2 + 15),
                        Sheet.paint(S::LaneNote), Lane == 0 ? "busiest" : "least busy");
    for (size_t C = 0, Col = 0; C < Shown.size(); ++C, ++Col) {
      if (Gap && C == 3) {
        Body += fmt::format("<text x=\"{}\" y=\"{}\"{}>…</text>\n", num(Left + (Col + 0.5) * ColW),
                            num(Y0 + LaneH / 2 + 4), Sheet.paint(S::Ellipsis));
        ++Col;
      }
      uint64_t W = Shown[C];
      unsigned Busy = W + 1 == Waves ? Plan.lastWaveBlocksOnSm(Sm) : Slots;
      for (unsigned Slot = 0; Slot < Slots; ++Slot) {
        S Style = Slot < Busy ? S::SlotBusy : S::SlotIdle;
        Body += fmt::format("<rect {} data-wave=\"{}\" data-sm=\"{}\" x=\"{}\" y=\"{}\" "
                            "width=\"{}\" height=\"{}\"{}/>\n",
                            cls(Style), W, Sm, num(Left + Col * ColW), num(Y0 + Slot * SlotH),
                            num(ColW), num(SlotH), Sheet.paint(Style));
      }
    }
  }
  // Wave numbers under the lanes.
  double Ly = Top + 2 * LaneH + LaneGap + 14;
  for (size_t C = 0, Col = 0; C < Shown.size(); ++C, ++Col) {
    if (Gap && C == 3)
      ++Col;
    Body += fmt::format("<text x=\"{}\" y=\"{}\"{}>{}</text>\n", num(Left + (Col + 0.5) * ColW),
                        num(Ly), Sheet.paint(S::WaveNumber), Shown[C] + 1);
  }
  Body += fmt::format("<text x=\"4\" y=\"{}\"{}>wave</text>\n", num(Ly), Sheet.paint(S::Legend));
  Body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\"{}/>"
                      "<text x=\"{}\" y=\"{}\"{}>block running</text>\n",
                      num(Left), num(Ly + 8), Sheet.paint(S::KeyBusy), num(Left + 14), num(Ly + 17),
                      Sheet.paint(S::Legend));
  Body += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\"{}/>"
                      "<text x=\"{}\" y=\"{}\"{}>slot idle in the tail</text>\n",
                      num(Left + 110), num(Ly + 8), Sheet.paint(S::KeyIdle), num(Left + 124),
                      num(Ly + 17), Sheet.paint(S::Legend));
  return Out + Sheet.part(std::move(Body)) + "</svg>\n";
}

std::string renderTimelineSvg(const WavePlan &Plan, int Width) {
  SvgSheet Standalone;
  return renderTimelineSvg(Plan, Standalone, Width);
}

} // namespace warplint::driver
