//===- ReportSvg.cpp - charts, gauge and wave timeline as inline SVG ------===//
#include "driver/report/ReportSvg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace warplint::driver {
namespace {

constexpr const char *Ink = "#1f2933";
constexpr const char *Grid = "#d9dee4";
constexpr const char *Curve = "#2563eb";
constexpr const char *Current = "#16a34a";
constexpr const char *Cliff = "#dc2626";
constexpr const char *Idle = "#f3f4f6";
constexpr const char *Font = "font-family=\"sans-serif\"";

std::string num(double V) {
  // Two decimals at most, no trailing zeros: stable, compact coordinates.
  std::string S = fmt::format("{:.2f}", V);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S == "-0" ? "0" : S;
}

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
  double Raw = Range / 6;
  double Mag = std::pow(10, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (Raw <= M * Mag)
      return M * Mag;
  return 10 * Mag;
}

} // namespace

std::string htmlEscape(std::string_view S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
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

std::string renderChartSvg(const OccupancyChart &Chart, int Width, int Height) {
  const double Left = 44, Right = 14, Top = 26, Bottom = 40;
  const double PlotW = Width - Left - Right, PlotH = Height - Top - Bottom;
  std::string Out =
      fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{}\" "
                  "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
                  Width, Height, Width, Height, htmlEscape(Chart.Title));
  Out += fmt::format("<title>{}</title>\n", htmlEscape(Chart.Title));
  Out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", Width, Height);
  Out += fmt::format("<text x=\"{}\" y=\"16\" {} font-size=\"13\" font-weight=\"bold\" "
                     "fill=\"{}\">{}</text>\n",
                     num(Left), Font, Ink, htmlEscape(Chart.Title));
  if (Chart.Points.empty()) {
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"12\" fill=\"{}\">no data"
                       "</text>\n</svg>\n",
                       num(Left), num(Top + PlotH / 2), Font, Ink);
    return Out;
  }
  double XMin = Chart.Points.front().X, XMax = Chart.Points.back().X;
  if (Chart.HasCurrent) {
    XMin = std::min(XMin, Chart.CurrentX);
    XMax = std::max(XMax, Chart.CurrentX);
  }
  if (XMax <= XMin)
    XMax = XMin + 1;
  auto Px = [&](double X) { return Left + (X - XMin) / (XMax - XMin) * PlotW; };
  auto Py = [&](double Occ) { return Top + (1 - Occ) * PlotH; };

  // Horizontal grid at 0, 25, 50, 75, 100 %.
  for (int Pct = 0; Pct <= 100; Pct += 25) {
    double Y = Py(Pct / 100.0);
    Out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"/>\n", num(Left),
                       num(Y), num(Left + PlotW), num(Y), Grid);
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\" "
                       "text-anchor=\"end\">{}%</text>\n",
                       num(Left - 4), num(Y + 3), Font, Ink, Pct);
  }
  // X ticks.
  bool Bytes = Chart.XLabel.find("bytes") != std::string::npos;
  double Step = tickStep(XMax - XMin, Bytes);
  for (double X = std::ceil(XMin / Step) * Step; X <= XMax + 1e-9; X += Step) {
    Out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>\n",
                       num(Px(X)), num(Top + PlotH), num(Top + PlotH + 4), Ink);
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\" "
                       "text-anchor=\"middle\">{}</text>\n",
                       num(Px(X)), num(Top + PlotH + 15), Font, Ink, Bytes ? label(X) : num(X));
  }
  Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"11\" fill=\"{}\" "
                     "text-anchor=\"middle\">{}</text>\n",
                     num(Left + PlotW / 2), num(Height - 6), Font, Ink, htmlEscape(Chart.XLabel));
  Out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                     "stroke=\"{}\"/>\n",
                     num(Left), num(Top), num(PlotW), num(PlotH), Ink);

  // The curve: a step function (occupancy holds until the next sample), or for discrete
  // samples a thin polyline with a dot per sample.
  std::string Path;
  for (size_t I = 0; I < Chart.Points.size(); ++I) {
    const ChartPoint &P = Chart.Points[I];
    if (I == 0) {
      Path += fmt::format("M{},{}", num(Px(P.X)), num(Py(P.Occupancy)));
    } else if (Chart.Discrete) {
      Path += fmt::format(" L{},{}", num(Px(P.X)), num(Py(P.Occupancy)));
    } else {
      Path += fmt::format(" H{} V{}", num(Px(P.X)), num(Py(P.Occupancy)));
    }
  }
  if (!Chart.Discrete)
    Path += fmt::format(" H{}", num(Px(XMax)));
  Out += fmt::format("<path class=\"curve\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
                     "stroke-width=\"{}\"/>\n",
                     Path, Curve, Chart.Discrete ? "1.5" : "2");
  if (Chart.Discrete)
    for (const ChartPoint &P : Chart.Points)
      Out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"{}\"/>\n", num(Px(P.X)),
                         num(Py(P.Occupancy)), Curve);

  double CliffX = nextCliff(Chart);
  if (CliffX >= 0) {
    Out += fmt::format("<line class=\"cliff\" data-x=\"{0}\" x1=\"{1}\" y1=\"{2}\" "
                       "x2=\"{1}\" y2=\"{3}\" stroke=\"{4}\" stroke-dasharray=\"4 3\"/>\n",
                       num(CliffX), num(Px(CliffX)), num(Top), num(Top + PlotH), Cliff);
    bool LabelLeft = Px(CliffX) > Left + PlotW * 0.7;
    // Keep clear of the current point's label, which sits near the current point.
    double Ly = Chart.HasCurrent && Py(Chart.CurrentOccupancy) < Top + PlotH / 2 ? Top + PlotH - 5
                                                                                 : Top + 10;
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\" "
                       "text-anchor=\"{}\">cliff at {}</text>\n",
                       num(Px(CliffX) + (LabelLeft ? -3 : 3)), num(Ly), Font, Cliff,
                       LabelLeft ? "end" : "start", Bytes ? label(CliffX) : num(CliffX));
  }
  if (Chart.HasCurrent) {
    double Cx = Px(Chart.CurrentX), Cy = Py(Chart.CurrentOccupancy);
    Out += fmt::format("<circle class=\"current\" data-x=\"{}\" data-occupancy=\"{}\" "
                       "cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\" stroke=\"#ffffff\" "
                       "stroke-width=\"1.5\"/>\n",
                       num(Chart.CurrentX), num(Chart.CurrentOccupancy), num(Cx), num(Cy), Current);
    bool LabelLeft = Cx > Left + PlotW * 0.6;
    double Ty = Cy > Top + 18 ? Cy - 8 : Cy + 16;
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\" "
                       "text-anchor=\"{}\">{}: {}%</text>\n",
                       num(Cx + (LabelLeft ? -7 : 7)), num(Ty), Font, Current,
                       LabelLeft ? "end" : "start",
                       Bytes ? label(Chart.CurrentX) : num(Chart.CurrentX),
                       num(std::round(Chart.CurrentOccupancy * 1000) / 10));
  }
  Out += "</svg>\n";
  return Out;
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
  Out += fmt::format("<text x=\"{}\" y=\"20\" {} font-size=\"14\" fill=\"{}\">{}</text>\n", Gap,
                     Font, Ink, htmlEscape(Title));
  for (size_t I = 0; I < Charts.size(); ++I) {
    std::string Chart = renderChartSvg(Charts[I], ChartW, ChartH);
    // Position the nested <svg> element.
    Chart.insert(4, fmt::format(" x=\"{}\" y=\"{}\"", Gap + int(I) * (ChartW + Gap), TitleH));
    Out += Chart;
  }
  Out += "</svg>\n";
  return Out;
}

std::string renderGaugeSvg(double Occupancy, std::string_view Caption, int Width) {
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
  Out += fmt::format("<path d=\"M{},{} A{},{} 0 0 1 {},{}\" fill=\"none\" stroke=\"{}\" "
                     "stroke-width=\"16\"/>\n",
                     num(X0), num(Y0), num(R), num(R), num(X1), num(Y1), Grid);
  if (Occupancy > 0)
    Out += fmt::format("<path class=\"gauge-value\" data-occupancy=\"{}\" d=\"M{},{} A{},{} "
                       "0 0 1 {},{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"16\"/>\n",
                       num(Occupancy), num(X0), num(Y0), num(R), num(R), num(Xv), num(Yv), Colour);
  Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"26\" font-weight=\"bold\" "
                     "fill=\"{}\" text-anchor=\"middle\">{}%</text>\n",
                     num(Cx), num(Cy - 4), Font, Ink, num(std::round(Occupancy * 1000) / 10));
  Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"12\" fill=\"{}\" "
                     "text-anchor=\"middle\">{}</text>\n",
                     num(Cx), num(Cy + 22), Font, Ink, htmlEscape(Caption));
  Out += "</svg>\n";
  return Out;
}

uint64_t WavePlan::waves() const {
  uint64_t PerWave = blocksPerWave();
  return PerWave == 0 ? 0 : (GridBlocks + PerWave - 1) / PerWave;
}

uint64_t WavePlan::lastWaveBlocks() const {
  uint64_t W = waves();
  return W == 0 ? 0 : GridBlocks - (W - 1) * blocksPerWave();
}

unsigned WavePlan::lastWaveBlocksOnSm(unsigned Sm) const {
  if (SmCount == 0 || Sm >= SmCount)
    return 0;
  uint64_t Last = lastWaveBlocks();
  // Breadth-first: one block per SM in turn until the tail is placed.
  uint64_t Base = Last / SmCount, Extra = Last % SmCount;
  return static_cast<unsigned>(Base + (Sm < Extra ? 1 : 0));
}

std::string renderTimelineSvg(const WavePlan &Plan, int Width) {
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
  Out += "<defs><pattern id=\"idle-hatch\" width=\"6\" height=\"6\" "
         "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"6\" height=\"6\" fill=\"#fef2f2\"/>"
         "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#f87171\" stroke-width=\"2\"/>"
         "</pattern></defs>\n";
  if (Waves == 0 || Slots == 0) {
    Out += fmt::format("<text x=\"4\" y=\"20\" {} font-size=\"12\" fill=\"{}\">no block "
                       "fits on an SM: nothing to schedule</text>\n</svg>\n",
                       Font, Ink);
    return Out;
  }
  const unsigned LastSm = Plan.SmCount - 1;
  for (int Lane = 0; Lane < 2; ++Lane) {
    unsigned Sm = Lane == 0 ? 0 : LastSm;
    double Y0 = Top + Lane * (LaneH + LaneGap);
    Out += fmt::format("<text x=\"4\" y=\"{}\" {} font-size=\"11\" fill=\"{}\">SM {}</text>\n",
                       num(Y0 + LaneH / 2 + 4), Font, Ink, Sm);
    Out += fmt::format("<text x=\"4\" y=\"{}\" {} font-size=\"9\" fill=\"{}\">{}</text>\n",
                       num(Y0 + LaneH / 2 + 15), Font, Ink, Lane == 0 ? "busiest" : "least busy");
    for (size_t C = 0, Col = 0; C < Shown.size(); ++C, ++Col) {
      if (Gap && C == 3) {
        Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"12\" fill=\"{}\" "
                           "text-anchor=\"middle\">…</text>\n",
                           num(Left + (Col + 0.5) * ColW), num(Y0 + LaneH / 2 + 4), Font, Ink);
        ++Col;
      }
      uint64_t W = Shown[C];
      unsigned Busy = W + 1 == Waves ? Plan.lastWaveBlocksOnSm(Sm) : Slots;
      for (unsigned S = 0; S < Slots; ++S) {
        bool On = S < Busy;
        Out += fmt::format("<rect class=\"{}\" data-wave=\"{}\" data-sm=\"{}\" x=\"{}\" "
                           "y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                           "stroke=\"#ffffff\" stroke-width=\"1\"/>\n",
                           On ? "slot busy" : "slot idle", W, Sm, num(Left + Col * ColW),
                           num(Y0 + S * SlotH), num(ColW), num(SlotH),
                           On ? Curve : "url(#idle-hatch)");
      }
    }
  }
  // Wave numbers under the lanes.
  double Ly = Top + 2 * LaneH + LaneGap + 14;
  for (size_t C = 0, Col = 0; C < Shown.size(); ++C, ++Col) {
    if (Gap && C == 3)
      ++Col;
    Out += fmt::format("<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\" "
                       "text-anchor=\"middle\">{}</text>\n",
                       num(Left + (Col + 0.5) * ColW), num(Ly), Font, Ink, Shown[C] + 1);
  }
  Out += fmt::format("<text x=\"4\" y=\"{}\" {} font-size=\"10\" fill=\"{}\">wave</text>\n",
                     num(Ly), Font, Ink);
  Out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
                     "<text x=\"{}\" y=\"{}\" {} font-size=\"10\" fill=\"{}\">block running"
                     "</text>\n",
                     num(Left), num(Ly + 8), Curve, num(Left + 14), num(Ly + 17), Font, Ink);
  Out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" "
                     "fill=\"url(#idle-hatch)\"/><text x=\"{}\" y=\"{}\" {} font-size=\"10\" "
                     "fill=\"{}\">slot idle in the tail</text>\n",
                     num(Left + 110), num(Ly + 8), num(Left + 124), num(Ly + 17), Font, Ink);
  Out += "</svg>\n";
  return Out;
}

} // namespace warplint::driver
