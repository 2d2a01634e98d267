//===- TimelineSvg.cpp - measured block timelines per SM -------------------===//
#include "driver/report/TimelineSvg.h"

#include "warplint/core/Occupancy.h"
#include "warplint/core/Version.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace warplint::driver {
namespace {

// Bar colours: waves alternate between two blues; a row the model says cannot exist is red.
constexpr const char *WaveEven = "#2563eb";
constexpr const char *WaveOdd = "#93c5fd";
constexpr const char *OverModel = "#dc2626";
constexpr const char *TailFill = "#fde68a";
constexpr const char *ModelLine = "#16a34a";

using svg::num;

/// A duration in ns as "812 ns", "14.2 us", "3.51 ms".
std::string duration(uint64_t Ns) {
  if (Ns < 1000)
    return fmt::format("{} ns", Ns);
  if (Ns < 1000000)
    return fmt::format("{:.3g} us", Ns / 1e3);
  if (Ns < 1000000000)
    return fmt::format("{:.3g} ms", Ns / 1e6);
  return fmt::format("{:.3g} s", Ns / 1e9);
}

std::string pct(double F) { return fmt::format("{:.0f}%", 100 * F); }

std::string smList(const std::vector<unsigned> &Sms) {
  std::string S;
  for (size_t I = 0; I < Sms.size() && I < 8; ++I)
    S += (I ? ", " : "") + std::to_string(Sms[I]);
  if (Sms.size() > 8)
    S += fmt::format(", ... ({} in all)", Sms.size());
  return S;
}

/// The model's waves for the traced grid: "3 (2.004 waves of 264, the last 1 block)".
std::string modelWaves(const LaunchMeasure &M, const std::optional<TimelineModel> &Model) {
  if (!Model || Model->BlocksPerSm == 0)
    return "-";
  std::optional<WaveInfo> W = waves(int64_t(M.Blocks), int(Model->BlocksPerSm), int(M.SmCount));
  if (!W)
    return "-";
  return fmt::format("{} ({:.4g} waves of {}, the last {} block{})", W->WaveCount, W->Waves,
                     W->BlocksPerWave, W->LastWaveBlocks, W->LastWaveBlocks == 1 ? "" : "s");
}

} // namespace

ModelAgreement compareWithModel(const LaunchMeasure &M, const std::optional<TimelineModel> &Model) {
  if (!Model)
    return ModelAgreement::NoModel;
  if (M.MaxResident == Model->BlocksPerSm)
    return ModelAgreement::Agrees;
  if (M.MaxResident > Model->BlocksPerSm)
    return ModelAgreement::More;
  return uint64_t(M.Blocks) >= uint64_t(Model->BlocksPerSm) * M.SmCount ? ModelAgreement::FewerFull
                                                                        : ModelAgreement::Fewer;
}

std::string timelineSummary(const TracedLaunch &L, const LaunchMeasure &M,
                            const std::optional<TimelineModel> &Model) {
  unsigned Used = M.SmCount - static_cast<unsigned>(M.IdleSms.size());
  std::string S = fmt::format("{} launch {}: {} block{} on {} of {} SMs", L.Kernel, L.Launch,
                              M.Blocks, M.Blocks == 1 ? "" : "s", Used, M.SmCount);
  if (!M.IdleSms.empty())
    S += fmt::format(" (idle: SM {})", smList(M.IdleSms));
  S += fmt::format(" in {}; at most {} block{} resident per SM measured (SM {})",
                   duration(M.DurationNs), M.MaxResident, M.MaxResident == 1 ? "" : "s",
                   M.MaxResidentSm);
  switch (compareWithModel(M, Model)) {
  case ModelAgreement::NoModel:
    break;
  case ModelAgreement::Agrees:
    S += fmt::format(", model {}: agrees", Model->BlocksPerSm);
    break;
  case ModelAgreement::Fewer:
    S += fmt::format(", model {} (the grid of {} blocks never filled {} SMs x {})",
                     Model->BlocksPerSm, M.Blocks, M.SmCount, Model->BlocksPerSm);
    break;
  case ModelAgreement::FewerFull:
    S += fmt::format(", model {}: FEWER than the model with a full wave's worth of blocks",
                     Model->BlocksPerSm);
    break;
  case ModelAgreement::More:
    S += fmt::format(", model {}: MORE than the model allows", Model->BlocksPerSm);
    break;
  }
  if (M.PeakRows > M.MaxResident)
    S += fmt::format(" (a block started up to {} before the one it replaced had recorded its "
                     "end: the SM frees registers and warp slots warp by warp, and the end is "
                     "read after the block's last atomic)",
                     duration(M.MaxOverlapNs));
  S += fmt::format("; {} wave{} measured", M.Waves, M.Waves == 1 ? "" : "s");
  if (Model && Model->BlocksPerSm > 0)
    S += " (model " + modelWaves(M, Model) + ")";
  S += fmt::format(
      "; tail {} of the launch (from {}, when SM {} finished); SMs busy {} of the time",
      pct(M.TailFraction), duration(M.TailStartNs - M.StartNs), M.TailStartSm, pct(M.BusyFraction));
  return S;
}

std::string renderBlockTimelineSvg(const TracedLaunch &L, const LaunchMeasure &M,
                                   const std::optional<TimelineModel> &Model, SvgSheet &Sheet,
                                   int Width) {
  using S = SvgStyle;
  const unsigned ModelRows = Model ? Model->BlocksPerSm : 0;
  const unsigned Rows = std::max({1u, M.PeakRows, ModelRows});
  const unsigned Lanes = std::max(1u, M.SmCount);
  // Lanes shrink with many SMs: the picture stays under about 1000 pixels of lanes; with
  // few SMs a row is up to 18 units high (the page scales the picture to its width).
  const double RowH = std::clamp(900.0 / (Lanes * Rows), 1.5, 18.0);
  const double LaneGap = RowH * Rows >= 8 ? 3 : 1;
  const double LaneH = RowH * Rows;
  const double Left = 74, Right = 28, Top = 26, Bottom = 58;
  const double PlotW = Width - Left - Right;
  const double LanesH = Lanes * (LaneH + LaneGap);
  const int Height = static_cast<int>(Top + LanesH + Bottom);
  const double Span = std::max<double>(1, double(M.DurationNs));
  auto X = [&](uint64_t Ns) { return Left + double(Ns - M.StartNs) / Span * PlotW; };
  const unsigned LabelEvery =
      LaneH + LaneGap >= 10 ? 1 : static_cast<unsigned>(std::ceil(10 / (LaneH + LaneGap)));

  std::string Out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"block-timeline\" width=\"{}\" "
      "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{} blocks of {} on {} "
      "SMs over time\">\n",
      Width, Height, Width, Height, M.Blocks, htmlEscape(L.Kernel), M.SmCount);
  Out +=
      Sheet.named("idle-hatch", "<pattern id=\"idle-hatch\" width=\"6\" height=\"6\" "
                                "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                                "<rect width=\"6\" height=\"6\" fill=\"#fef2f2\"/>"
                                "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#f87171\" "
                                "stroke-width=\"2\"/></pattern>");
  Out += fmt::format("<text x=\"4\" y=\"16\"{}>{} launch {}: blocks per SM over time</text>\n",
                     Sheet.paint(S::ChartTitle), htmlEscape(L.Kernel), L.Launch);
  // The tail of the last wave, behind the lanes.
  if (M.TailStartNs < M.StartNs + M.DurationNs)
    Out += fmt::format("<rect class=\"tail\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "fill=\"{}\" fill-opacity=\"0.6\"/>\n",
                       num(X(M.TailStartNs)), num(Top),
                       num(X(M.StartNs + M.DurationNs) - X(M.TailStartNs)), num(LanesH), TailFill);
  // Blocks per lane, in the trace's order.
  std::vector<std::vector<const TracedBlock *>> OnSm(Lanes);
  for (const TracedBlock &B : L.Blocks)
    if (B.Sm < Lanes)
      OnSm[B.Sm].push_back(&B);
  for (unsigned Sm = 0; Sm < Lanes; ++Sm) {
    double Y0 = Top + Sm * (LaneH + LaneGap);
    const SmLane &Lane = M.Lanes[Sm];
    Out += fmt::format(
        "<g class=\"lane\" data-sm=\"{}\" data-blocks=\"{}\" data-max-resident=\"{}\">\n", Sm,
        Lane.Blocks, Lane.MaxResident);
    if (Lane.Blocks == 0)
      Out += fmt::format("<rect class=\"idle-sm\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                         "fill=\"url(#idle-hatch)\"/>\n",
                         num(Left), num(Y0), num(PlotW), num(LaneH));
    if (Sm % LabelEvery == 0 || Lane.Blocks == 0)
      Out += fmt::format("<text x=\"4\" y=\"{}\"{}>SM {}{}</text>\n",
                         num(Y0 + std::min(LaneH, 10.0) - 1), Sheet.paint(S::LaneNote), Sm,
                         Lane.Blocks == 0 ? " idle" : "");
    for (const TracedBlock *B : OnSm[Sm]) {
      // Red: a block over the model on a lane whose steady residency is over it. A block in
      // a row past the lane's residency started while the block it replaced was finishing.
      const bool Over = ModelRows && B->Slot >= ModelRows && Lane.MaxResident > ModelRows;
      const bool Handover = !Over && B->Slot >= Lane.MaxResident;
      const char *Fill = Over ? OverModel : B->Wave % 2 ? WaveOdd : WaveEven;
      // The block named on hover (an SVG <title>): its index, SM, row, wave and times.
      std::string Title = fmt::format(
          "block ({},{},{}) on SM {}, row {}, wave {}: {} to {} ({}){}", B->Index[0], B->Index[1],
          B->Index[2], Sm, B->Slot, B->Wave, duration(B->StartNs - M.StartNs),
          duration(B->EndNs - M.StartNs), duration(B->EndNs - B->StartNs),
          Over       ? fmt::format(", above the model ({} per SM)", ModelRows)
          : Handover ? std::string(", started before the block it replaced had finished (its last "
                                   "warps still ran)")
                     : std::string());
      Out +=
          fmt::format("<rect class=\"blk\" data-block=\"{},{},{}\" data-slot=\"{}\" "
                      "data-wave=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                      "fill=\"{}\"><title>{}</title></rect>\n",
                      B->Index[0], B->Index[1], B->Index[2], B->Slot, B->Wave, num(X(B->StartNs)),
                      num(Y0 + B->Slot * RowH), num(std::max(0.75, X(B->EndNs) - X(B->StartNs))),
                      num(std::max(0.75, RowH - (RowH >= 4 ? 1 : 0))), Fill, htmlEscape(Title));
    }
    // The model's blocks per SM: a line under its last row, in every lane (also where the
    // measurement reaches it exactly: the line is then the lane's lower edge).
    if (ModelRows)
      Out += fmt::format("<line class=\"model\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
                         "stroke=\"{}\" stroke-dasharray=\"4 3\"/>\n",
                         num(Left), num(Y0 + ModelRows * RowH), num(Left + PlotW),
                         num(Y0 + ModelRows * RowH), ModelLine);
    Out += "</g>\n";
  }
  // Time axis.
  double Axis = Top + LanesH + 2;
  Out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>\n", num(Left), num(Axis),
                     num(Left + PlotW), num(Axis), Sheet.paint(S::TickMark));
  double Step = svg::decimalStep(Span, 8); // in ns, about 8 ticks
  for (double T = 0; T <= Span + 1e-9; T += Step) {
    double Tx = Left + T / Span * PlotW;
    Out +=
        fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>"
                    "<text x=\"{}\" y=\"{}\"{}>{}</text>\n",
                    num(Tx), num(Axis), num(Tx), num(Axis + 4), Sheet.paint(S::TickMark), num(Tx),
                    num(Axis + 15), Sheet.paint(S::XTick), duration(static_cast<uint64_t>(T)));
  }
  Out += fmt::format("<text x=\"{}\" y=\"{}\"{}>time since the first block started</text>\n",
                     num(Left + PlotW / 2), num(Axis + 29), Sheet.paint(S::XLabel));
  // Key.
  double Ky = Axis + 38;
  double Kx = Left;
  auto key = [&](const std::string &Swatch, const std::string &Text) {
    Out += fmt::format("<g class=\"key\">{}<text x=\"{}\" y=\"{}\"{}>{}</text></g>\n", Swatch,
                       num(Kx + 14), num(Ky + 9), Sheet.paint(S::Legend), Text);
    Kx += 14 + 6.2 * Text.size() + 16;
  };
  auto swatch = [&](const std::string &Fill) {
    return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>", num(Kx),
                       num(Ky), Fill);
  };
  key(swatch(WaveEven) +
          fmt::format("<rect x=\"{}\" y=\"{}\" width=\"5\" height=\"10\" fill=\"{}\"/>",
                      num(Kx + 5), num(Ky), WaveOdd),
      "a block (waves alternate)");
  if (Model)
    key(fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
                    "stroke-dasharray=\"4 3\"/>",
                    num(Kx), num(Ky + 5), num(Kx + 10), num(Ky + 5), ModelLine),
        fmt::format("model: {} per SM", Model->BlocksPerSm));
  if (ModelRows && M.MaxResident > ModelRows)
    key(swatch(OverModel), "above the model");
  if (M.PeakRows > M.MaxResident)
    key(swatch(WaveEven), "an extra row: a block started as the one it replaced finished");
  key(swatch(TailFill), "tail: SMs going idle");
  if (!M.IdleSms.empty())
    key(swatch("url(#idle-hatch)"), "SM ran no block");
  Out += "</svg>\n";
  return Out;
}

std::string renderTimelineDocument(const std::vector<TimelineEntry> &Entries) {
  std::string Out;
  int Width = 960, Y = 0;
  std::vector<std::pair<std::string, int>> Parts;
  for (const TimelineEntry &E : Entries) {
    SvgSheet Standalone;
    std::string Svg = renderBlockTimelineSvg(*E.Launch, *E.Measure, E.Model, Standalone, Width);
    // The height attribute of the part just written.
    size_t H = Svg.find("height=\"");
    int Height = std::atoi(Svg.c_str() + H + 8);
    Parts.push_back({fmt::format("<g transform=\"translate(0 {})\">\n{}</g>\n", Y, Svg), Height});
    Y += Height + 10;
  }
  Out = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
                    "xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 "
                    "0 {} {}\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
                    Width, Y, Width, Y);
  for (auto &[Part, H] : Parts)
    Out += Part;
  return Out + "</svg>\n";
}

void writeTimelineHtml(const std::vector<TimelineEntry> &Entries, llvm::StringRef Title,
                       llvm::raw_ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"warplint " << warplint::versionString()
     << "\">\n<title>" << htmlEscape(Title) << "</title>\n<style>\n"
     << "body { font-family: sans-serif; margin: 0; background: #f4f6f8; color: #1f2933; }\n"
     << "header { background: #1f2933; color: #ffffff; padding: 14px 24px; }\n"
     << "header h1 { font-size: 20px; margin: 0; }\n"
     << "main { padding: 16px 24px; }\n"
     << ".launch { background: #ffffff; border: 1px solid #d9dee4; border-radius: 8px; "
        "margin: 0 0 18px 0; padding: 14px 18px; }\n"
     << ".launch h2 { font-size: 17px; margin: 0 0 6px 0; font-family: monospace; }\n"
     << ".summary { font-size: 13px; }\n"
     << ".disagree { color: #b91c1c; font-weight: bold; }\n"
     << "table.measured { border-collapse: collapse; font-size: 13px; margin: 6px 0 10px 0; }\n"
     << "table.measured th, table.measured td { border: 1px solid #d9dee4; padding: 3px 8px; "
        "text-align: left; }\n"
     << "table.measured td { font-family: monospace; }\n"
     << "svg.block-timeline { width: 100%; height: auto; }\n"
     << svgCss() << "</style>\n</head>\n<body>\n<header><h1>" << htmlEscape(Title)
     << "</h1></header>\n<main>\n";
  SvgSheet Sheet(/*Page=*/true);
  std::string Body;
  for (size_t I = 0; I < Entries.size(); ++I) {
    const TimelineEntry &E = Entries[I];
    const LaunchMeasure &M = *E.Measure;
    ModelAgreement A = compareWithModel(M, E.Model);
    Body += fmt::format("<section class=\"launch\" id=\"launch-{}\">\n<h2>{} launch {}</h2>\n", I,
                        htmlEscape(E.Launch->Kernel), E.Launch->Launch);
    Body += fmt::format("<p class=\"summary\">{}</p>\n",
                        htmlEscape(timelineSummary(*E.Launch, M, E.Model)));
    std::string ModelCell =
        E.Model ? fmt::format("{} ({})", E.Model->BlocksPerSm, htmlEscape(E.Model->Source))
                : std::string("- (give --arch and the launch, or --check)");
    bool Bad = A == ModelAgreement::More || A == ModelAgreement::FewerFull;
    Body += "<table class=\"measured\">\n<tr><th></th><th>measured</th><th>model</th></tr>\n";
    Body += fmt::format(
        "<tr{}><th>resident blocks per SM (max)</th><td>{} (SM {})</td><td>{}</td></tr>\n",
        Bad ? " class=\"disagree\"" : "", M.MaxResident, M.MaxResidentSm, ModelCell);
    Body += fmt::format("<tr><th>waves</th><td>{}</td><td>{}</td></tr>\n", M.Waves,
                        htmlEscape(modelWaves(M, E.Model)));
    Body += fmt::format("<tr><th>tail of the last wave</th><td>{} of {}</td><td></td></tr>\n",
                        pct(M.TailFraction), duration(M.DurationNs));
    Body += fmt::format("<tr><th>SMs idle</th><td>{} of {}{}</td><td></td></tr>\n",
                        M.IdleSms.size(), M.SmCount,
                        M.IdleSms.empty() ? std::string() : " (SM " + smList(M.IdleSms) + ")");
    Body += fmt::format("<tr><th>SM time busy</th><td>{}</td><td></td></tr>\n</table>\n",
                        pct(M.BusyFraction));
    Body += renderBlockTimelineSvg(*E.Launch, M, E.Model, Sheet);
    Body += "</section>\n";
  }
  OS << Sheet.defs() << Body << "</main>\n</body>\n</html>\n";
}

} // namespace warplint::driver
