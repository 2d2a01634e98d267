//===- HtmlReport.cpp - one HTML file: inline CSS and SVG, no scripts -----===//
#include "driver/report/HtmlReport.h"
#include "driver/formats/RecordText.h"

#include "warplint/core/Version.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace warplint::driver {
namespace {

constexpr const char *Css = R"css(
:root { color-scheme: light; }
body { font-family: sans-serif; margin: 0; background: #f4f6f8; color: #1f2933; }
header { background: #1f2933; color: #ffffff; padding: 14px 24px; }
header h1 { font-size: 20px; margin: 0 0 4px 0; }
header p { margin: 0; font-size: 13px; color: #cbd2d9; }
main { padding: 16px 24px; }
.summary { font-size: 14px; margin-bottom: 12px; }
.card { background: #ffffff; border: 1px solid #d9dee4; border-radius: 8px;
        margin: 0 0 18px 0; padding: 14px 18px; }
.card h2 { font-size: 17px; margin: 0 0 2px 0; font-family: monospace; }
.card .where { font-size: 12px; color: #52606d; margin-bottom: 10px; }
table.facts { border-collapse: collapse; font-size: 13px; }
table.facts th { text-align: left; font-weight: normal; color: #52606d; padding: 2px 12px 2px 0; }
table.facts td { font-family: monospace; padding: 2px 0; }
.charts { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 10px; align-items: flex-start; }
.error { color: #b91c1c; font-weight: bold; }
.missing { color: #52606d; font-style: italic; font-size: 13px; }
.findings { margin: 10px 0 0 0; padding-left: 18px; font-size: 13px; }
.findings li { margin-bottom: 4px; }
.findings .check { color: #52606d; font-family: monospace; }
.findings .note { color: #52606d; }
h3 { font-size: 14px; margin: 14px 0 4px 0; }
.waves { font-size: 13px; margin: 0 0 4px 0; }
.wave-plans { display: flex; flex-wrap: wrap; gap: 4px 24px; }
.wave-plans > div { width: 560px; }
footer { font-size: 12px; color: #52606d; padding: 0 24px 18px 24px; }
table.index { border-collapse: collapse; font-size: 13px; margin-bottom: 16px; background: #ffffff; }
table.index th, table.index td { border: 1px solid #d9dee4; padding: 3px 8px; text-align: left; }
table.index td:nth-child(4) { text-align: right; font-family: monospace; }
table.impact { border-collapse: collapse; font-size: 13px; margin-bottom: 16px; background: #ffffff; }
table.impact th, table.impact td { border: 1px solid #d9dee4; padding: 3px 8px; text-align: left; }
table.impact td:nth-child(1) { text-align: right; font-family: monospace; }
table.launches { border-collapse: collapse; font-size: 12px; margin: 10px 0 4px 0; }
table.launches th { text-align: left; font-weight: normal; color: #52606d; }
table.launches th, table.launches td { border-bottom: 1px solid #e4e7eb; padding: 2px 10px 2px 0; }
table.launches td { font-family: monospace; white-space: nowrap; }
tr:target { background: #fef3c7; }
.shape { border-top: 1px solid #e4e7eb; margin-top: 12px; }
.shape h3 { font-weight: normal; }
.shape h3 b { font-family: monospace; }
h4 { font-size: 13px; margin: 10px 0 4px 0; }
.measured { border-top: 1px solid #e4e7eb; margin-top: 12px; }
table.ncu { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
table.ncu th, table.ncu td { border-bottom: 1px solid #e4e7eb; padding: 2px 10px 2px 0; text-align: left; }
table.ncu td { font-family: monospace; }
table.ncu tr.disagree td { color: #b91c1c; font-weight: bold; }
.defect { color: #b91c1c; font-weight: bold; font-size: 13px; margin: 4px 0; }
)css";

/// The card's memory accesses with the per-warp figures of their findings.
void writeAccesses(const std::vector<AccessRecord> &Accesses, llvm::raw_ostream &OS) {
  OS << "<h3>Memory accesses per warp</h3>\n<table class=\"launches accesses\">\n<tr><th>where</th>"
        "<th>access</th><th>memory</th><th>block</th><th>per warp</th><th>lanes apart</th>"
        "</tr>\n";
  for (const AccessRecord &A : Accesses) {
    std::string Figures;
    if (A.Sectors && A.IdealSectors)
      Figures = fmt::format("{} sectors for {} bytes (ideal {})", *A.Sectors,
                            A.BytesRequested.value_or(0), *A.IdealSectors);
    else if (A.Wavefronts && A.IdealWavefronts)
      Figures = fmt::format("{} wavefronts (ideal {}), {}-way", *A.Wavefronts,
                            *A.IdealWavefronts, A.ConflictWays.value_or(1));
    if (A.MisalignmentBytes)
      Figures += fmt::format(", {} bytes past a sector boundary", *A.MisalignmentBytes);
    std::string Block = fmt::format("{}x{}x{}{}", A.Block[0], A.Block[1], A.Block[2],
                                    A.BlockAssumed ? " (assumed)" : "");
    if (!A.Values.empty())
      Block += ", " + A.Values;
    OS << "<tr><td>" << htmlEscape(A.Pos.File) << ":" << A.Pos.Line << ":" << A.Pos.Column
       << "</td><td><code>" << htmlEscape(A.Access) << "</code></td><td>"
       << htmlEscape(A.Space + " " + A.Kind) << ", " << A.BytesPerLane << " B per lane</td><td>"
       << htmlEscape(Block) << "</td><td>" << htmlEscape(Figures) << "</td><td>"
       << (A.LaneStrideBytes ? fmt::format("{} B", *A.LaneStrideBytes) : std::string("-"))
       << "</td></tr>\n";
  }
  OS << "</table>\n";
}

/// The card's reported barriers and warp-synchronous calls: per call the block it was
/// evaluated for and the threads that skip it (a barrier) or the named lanes that do not
/// take part (a mask or tile), as the sync records hold them.
void writeSyncs(const std::vector<SyncRecord> &Syncs, llvm::raw_ostream &OS) {
  OS << "<h3>Barriers and warp-synchronous calls</h3>\n<table class=\"launches syncs\">\n<tr>"
        "<th>where</th><th>call</th><th>verdict</th><th>block</th><th>threads that skip it"
        "</th><th>named lanes absent</th><th>cause</th></tr>\n";
  for (const SyncRecord &S : Syncs) {
    std::string Block = fmt::format("{}x{}x{}{}", S.Block[0], S.Block[1], S.Block[2],
                                    S.BlockAssumed ? " (assumed)" : "");
    if (!S.Values.empty())
      Block += ", " + S.Values;
    std::string Skip = "-", Absent = "-";
    if (!S.Evaluated) {
      Skip = Absent = "depends on run-time values";
    } else {
      if (!S.SkippingThreads.empty())
        Skip = fmt::format("{} of {}: {}", rangesCount(S.SkippingThreads),
                           uint64_t(S.Block[0]) * S.Block[1] * S.Block[2],
                           rangesText(S.SkippingThreads));
      if (!S.AbsentLanes.empty()) {
        Absent.clear();
        for (const auto &W : S.AbsentLanes)
          Absent += fmt::format("{}warp {}: lanes {}", Absent.empty() ? "" : "; ", W[0],
                                rangesText(maskRanges(W[1])));
      }
    }
    std::string Cause = S.Cause.empty() ? std::string("-") : S.Cause;
    if (S.CauseLine)
      Cause = fmt::format("line {}: {}", S.CauseLine, Cause);
    OS << "<tr><td>" << htmlEscape(S.Pos.File) << ":" << S.Pos.Line << ":" << S.Pos.Column
       << "</td><td><code>" << htmlEscape(S.Call) << "</code>"
       << (S.Mask ? fmt::format(" mask {:#010x}", *S.Mask) : std::string()) << "</td><td>"
       << htmlEscape(S.Severity + " (" + S.Check + ")") << "</td><td>" << htmlEscape(Block)
       << "</td><td>" << htmlEscape(Skip) << "</td><td>" << htmlEscape(Absent) << "</td><td>"
       << htmlEscape(Cause) << "</td></tr>\n";
  }
  OS << "</table>\n";
}

/// The card's data races: per finding the word, the two accesses with their lines and
/// the two threads that collide, the block, how sure it is and the barrier that would
/// separate them, as the race records hold them.
void writeRaces(const std::vector<RaceRecord> &Races, llvm::raw_ostream &OS) {
  OS << "<h3>Data races</h3>\n<table class=\"launches races\">\n<tr>"
        "<th>where</th><th>word</th><th>verdict</th><th>first access</th>"
        "<th>second access</th><th>block</th><th>certainty</th><th>separated by</th></tr>\n";
  for (const RaceRecord &R : Races) {
    auto Access = [&](const ::warplint::RaceAccessRecord &A,
                      const ::warplint::RaceThreadRecord &T) {
      return fmt::format("{} {}s {} (line {})", raceThreadText(T, R), A.Kind, A.Access,
                         A.Pos.Line);
    };
    std::string Block = fmt::format("{}x{}x{}{}", R.Block[0], R.Block[1], R.Block[2],
                                    R.BlockAssumed ? " (assumed)" : "");
    std::string Certainty = R.Certainty;
    if (!R.Values.empty())
      Certainty += fmt::format(" ({}{})", R.Values, R.ValuesSampled ? " sampled" : "");
    std::string Barrier = R.Barrier.empty() ? std::string("no barrier (different blocks)")
                                            : R.Barrier;
    if (!R.ArchNote.empty())
      Barrier += "; " + R.ArchNote;
    if (R.Skip)
      Barrier += "; " + ::warplint::raceSkipText(*R.Skip);
    OS << "<tr><td>" << htmlEscape(R.Pos.File) << ":" << R.Pos.Line << ":" << R.Pos.Column
       << "</td><td><code>" << htmlEscape(R.Word) << "</code> (" << htmlEscape(R.Space)
       << ")</td><td>" << htmlEscape(R.Severity + " (" + R.Check + ")") << "</td><td>"
       << htmlEscape(Access(R.First, R.Thread1)) << "</td><td>"
       << htmlEscape(Access(R.Second, R.Thread2)) << "</td><td>" << htmlEscape(Block)
       << "</td><td>" << htmlEscape(Certainty) << "</td><td>" << htmlEscape(Barrier)
       << "</td></tr>\n";
  }
  OS << "</table>\n";
}

/// The card's thread-dependent branches: per block shape the warps that diverge and the
/// predicted branch efficiency, and the verdict (the idiom that keeps a branch silent).
void writeBranches(const std::vector<BranchRecord> &Branches, llvm::raw_ostream &OS) {
  OS << "<h3>Thread-dependent branches</h3>\n<table class=\"launches branches\">\n<tr>"
        "<th>where</th><th>condition</th><th>verdict</th><th>block</th>"
        "<th>diverging warps</th><th>predicted branch efficiency</th>"
        "<th>lanes taking it</th></tr>\n";
  auto Percent = [](double F) { return fmt::format("{}%", std::lround(100.0 * F)); };
  for (const BranchRecord &B : Branches) {
    std::string Verdict = B.Severity;
    if (B.Severity == "silent" && !B.Idiom.empty())
      Verdict += " (" + B.Idiom + ")";
    else if (B.Severity == "note" && !B.NoteReasons.empty())
      Verdict += " (" + B.NoteReasons.front() + ")";
    size_t Rows = std::max<size_t>(1, B.Shapes.size());
    for (size_t I = 0; I < Rows; ++I) {
      OS << "<tr>";
      if (I == 0)
        OS << "<td rowspan=\"" << Rows << "\">" << htmlEscape(B.Pos.File) << ":" << B.Pos.Line
           << ":" << B.Pos.Column << "</td><td rowspan=\"" << Rows << "\"><code>"
           << htmlEscape(B.Condition) << "</code></td><td rowspan=\"" << Rows << "\">"
           << htmlEscape(Verdict) << "</td>";
      if (B.Shapes.empty()) {
        OS << "<td>-</td><td>-</td><td>-</td><td>-</td></tr>\n";
        continue;
      }
      const BranchShapeRecord &S = B.Shapes[I];
      OS << "<td>" << S.Block[0] << "x" << S.Block[1] << "x" << S.Block[2]
         << (B.BlockAssumed ? " (assumed)" : "") << "</td>";
      if (!S.Evaluated) {
        OS << "<td>not evaluated</td><td>-</td><td>-</td></tr>\n";
        continue;
      }
      std::string Eff = Percent(S.WorstEfficiency);
      if (Percent(S.BestEfficiency) != Eff)
        Eff += " to " + Percent(S.BestEfficiency);
      if (S.OverTrips)
        Eff += " over the loop's trips";
      OS << "<td>" << (S.Varies ? "up to " : "") << S.DivergentWarps << " of " << S.Warps
         << "</td><td>" << htmlEscape(Eff) << "</td><td>";
      if (S.TrueLanesMin < 0)
        OS << "-";
      else if (S.TrueLanesMin == S.TrueLanesMax)
        OS << S.TrueLanesMin;
      else
        OS << S.TrueLanesMin << " to " << S.TrueLanesMax;
      OS << " of " << uint64_t(S.Block[0]) * S.Block[1] * S.Block[2] << "</td></tr>\n";
    }
  }
  OS << "</table>\n";
}

void writeFindings(const std::vector<Finding> &Findings, llvm::raw_ostream &OS) {
  OS << "<ul class=\"findings\">\n";
  for (const Finding &F : Findings) {
    OS << "<li class=\"finding " << severityName(F.Level) << "\"><span class=\"pos\">"
       << htmlEscape(F.Pos.File) << ":" << F.Pos.Line << ":" << F.Pos.Column
       << "</span>: " << severityName(F.Level) << ": " << htmlEscape(F.Message) << " ";
    if (const CheckDoc *Doc = findCheckDoc(F.Check))
      OS << "<a class=\"check\" href=\"" << htmlEscape(checkDocHtmlUrl(Doc->Id)) << "\">["
         << htmlEscape(F.Check) << "]</a>";
    else
      OS << "<span class=\"check\">[" << htmlEscape(F.Check) << "]</span>";
    for (const FindingNote &N : F.Notes) {
      OS << "<br><span class=\"note\">note: ";
      if (!N.Pos.File.empty())
        OS << htmlEscape(N.Pos.File) << ":" << N.Pos.Line << ":" << N.Pos.Column << ": ";
      OS << htmlEscape(N.Message) << "</span>";
    }
    OS << "</li>\n";
  }
  OS << "</ul>\n";
}

void writeWaves(const WavePlan &W, SvgSheet &Sheet, llvm::raw_ostream &OS) {
  uint64_t Waves = W.waves();
  OS << "<p class=\"waves\">";
  if (Waves == 0) {
    OS << "no block fits on an SM.</p>\n";
  } else {
    uint64_t Last = W.lastWaveBlocks();
    double Full = double(Last) / double(W.blocksPerWave());
    double Efficiency = double(W.GridBlocks) / double(Waves * W.blocksPerWave());
    double WaveCount = double(W.GridBlocks) / double(W.blocksPerWave());
    auto blocks = [](uint64_t N) { return fmt::format("{} block{}", N, N == 1 ? "" : "s"); };
    OS << fmt::format("grid of {}, {} SMs x {} = {} per wave: ", blocks(W.GridBlocks), W.SmCount,
                      blocks(W.BlocksPerSm), blocks(W.blocksPerWave()));
    if (Waves == 1 && Last < W.blocksPerWave())
      OS << fmt::format("<b>less than one wave</b>, {} of its {} slots filled ({}). ", Last,
                        W.blocksPerWave(), percentText(Full));
    else
      OS << fmt::format("<b>{:.2f} waves</b> ({} full, the last {} full with {}). ", WaveCount,
                        Waves - 1, percentText(Full), blocks(Last));
    OS << fmt::format("SM 0 runs {} of {} slots in the last wave, SM {} runs {}; "
                      "{} of the slot time is used over the whole grid "
                      "(equal block durations assumed).",
                      W.lastWaveBlocksOnSm(0), W.BlocksPerSm, W.SmCount - 1,
                      W.lastWaveBlocksOnSm(W.SmCount - 1), percentText(Efficiency));
    OS << "</p>\n";
  }
  OS << renderTimelineSvg(W, Sheet);
}

/// The launches of a card: a row each, its shape linked.
void writeLaunchTable(const ReportPage &Page, const ReportKernel &K, size_t Card,
                      llvm::raw_ostream &OS) {
  OS << "<table class=\"launches\">\n<tr><th>launched at</th><th>launch</th><th>block</th>"
        "<th>grid</th><th>dynamic shared</th><th>blocks per SM</th><th>occupancy</th>"
        "<th>limiter</th><th>shape</th></tr>\n";
  auto orDash = [](const std::string &S) { return S.empty() ? std::string("-") : htmlEscape(S); };
  for (size_t I : K.Launches) {
    const ReportLaunch &L = Page.Cards[I];
    OS << "<tr id=\"launch-" << I << "\"><td>" << htmlEscape(L.Where) << "</td><td>"
       << orDash(L.Api) << "</td><td>" << htmlEscape(L.Block) << "</td><td>" << htmlEscape(L.Grid)
       << "</td><td>" << orDash(L.DynamicShared) << "</td><td>" << orDash(L.BlocksPerSm)
       << "</td><td>" << (L.Occupancy ? percentText(*L.Occupancy) : std::string("-")) << "</td><td>"
       << htmlEscape(L.Occupancy ? L.Limiter : L.Missing) << "</td><td><a href=\"#shape-" << Card
       << "-" << L.Shape + 1 << "\">" << L.Shape + 1 << "</a></td></tr>\n";
  }
  OS << "</table>\n";
}

/// One shape of a card's launches: the gauge, the charts and the waves, drawn once.
void writeShape(const ReportShape &S, size_t Card, size_t Index, SvgSheet &Sheet,
                llvm::raw_ostream &OS) {
  OS << "<div class=\"shape\" id=\"shape-" << Card << "-" << Index + 1 << "\">\n<h3><b>shape "
     << Index + 1 << "</b>: " << htmlEscape(S.Summary) << " &middot; " << S.Launches.size()
     << " launch" << (S.Launches.size() == 1 ? "" : "es") << "</h3>\n";
  if (!S.LaunchError.empty())
    OS << "<p class=\"error\">launch fails: " << htmlEscape(S.LaunchError) << "</p>\n";
  if (!S.Missing.empty())
    OS << "<p class=\"missing\">" << htmlEscape(S.Missing) << "</p>\n";
  if (S.Occupancy || !S.Charts.empty()) {
    OS << "<div class=\"charts\">\n";
    if (S.Occupancy)
      OS << renderGaugeSvg(*S.Occupancy, S.Limiter, Sheet);
    // Narrower than standalone: the gauge and the three charts fit one row.
    for (const OccupancyChart &Chart : S.Charts)
      OS << renderChartSvg(Chart, Sheet, /*Width=*/300);
    OS << "</div>\n";
  }
  if (!S.Waves.empty()) {
    OS << "<h4>Waves on one SM</h4>\n<div class=\"wave-plans\">\n";
    for (const WavePlan &W : S.Waves) {
      OS << "<div>\n";
      writeWaves(W, Sheet, OS);
      OS << "</div>\n";
    }
    OS << "</div>\n";
  }
  OS << "</div>\n";
}

/// Nsight Compute's launches of a card (`--ncu`): per group ncu's figures beside ours and
/// a defect line for every disagreement.
void writeMeasured(const ReportKernel &K, llvm::raw_ostream &OS) {
  if (K.Measured.empty())
    return;
  OS << "<div class=\"measured\">\n<h3>Measured by Nsight Compute</h3>\n";
  for (const MeasuredGroup &G : K.Measured) {
    OS << "<h4>" << htmlEscape(G.Title) << "</h4>\n<p class=\"where\">matched to "
       << htmlEscape(G.Matched) << "</p>\n";
    for (const std::string &D : G.Defects)
      OS << "<p class=\"defect\">defect: " << htmlEscape(D) << "</p>\n";
    OS << "<table class=\"ncu\">\n<tr><th></th><th>warplint</th><th>Nsight Compute</th></tr>\n";
    for (const MeasuredRow &R : G.Rows)
      OS << "<tr" << (R.Disagrees ? " class=\"disagree\"" : "") << "><th>" << htmlEscape(R.What)
         << "</th><td>" << htmlEscape(R.Ours) << "</td><td>" << htmlEscape(R.Ncu) << "</td></tr>\n";
    OS << "</table>\n";
    for (const std::string &N : G.Notes)
      OS << "<p class=\"missing\">" << htmlEscape(N) << "</p>\n";
  }
  OS << "</div>\n";
}

void writeCard(const ReportPage &Page, size_t Card, SvgSheet &Sheet, llvm::raw_ostream &OS) {
  const ReportKernel &K = Page.Kernels[Card];
  OS << "<section class=\"card\" id=\"kernel-" << Card << "\">\n";
  OS << "<h2>" << htmlEscape(K.Kernel) << "</h2>\n<div class=\"where\">";
  if (!K.Arch.empty())
    OS << htmlEscape(K.Arch) << " &middot; ";
  OS << K.Launches.size() << " launch" << (K.Launches.size() == 1 ? "" : "es") << ", "
     << K.Shapes.size() << " shape" << (K.Shapes.size() == 1 ? "" : "s")
     << "</div>\n<table class=\"facts\">\n";
  for (const auto &[Key, Value] : K.Facts)
    OS << "<tr><th>" << htmlEscape(Key) << "</th><td>" << htmlEscape(Value) << "</td></tr>\n";
  OS << "</table>\n";
  writeLaunchTable(Page, K, Card, OS);
  for (size_t I = 0; I < K.Shapes.size(); ++I)
    writeShape(K.Shapes[I], Card, I, Sheet, OS);
  writeMeasured(K, OS);
  if (!K.Findings.empty()) {
    OS << "<h3>Findings</h3>\n";
    writeFindings(K.Findings, OS);
  }
  if (!K.Accesses.empty())
    writeAccesses(K.Accesses, OS);
  if (!K.Syncs.empty())
    writeSyncs(K.Syncs, OS);
  if (!K.Races.empty())
    writeRaces(K.Races, OS);
  if (!K.Branches.empty())
    writeBranches(K.Branches, OS);
  OS << "</section>\n";
}

/// A row per launch record, lowest occupancy first (where to look first), linking to the
/// launch's row on its kernel's card. tests/differential/check-one-answer.py reads these
/// rows: keep their cells in this order.
void writeIndex(const ReportPage &Page, llvm::raw_ostream &OS) {
  std::vector<size_t> Order(Page.Cards.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    double OA = Page.Cards[A].Occupancy.value_or(2), OB = Page.Cards[B].Occupancy.value_or(2);
    return OA < OB;
  });
  OS << "<table class=\"index\">\n<tr><th>kernel</th><th>launched at</th><th>arch</th>"
        "<th>occupancy</th><th>limiter</th><th>findings</th></tr>\n";
  for (size_t I : Order) {
    const ReportLaunch &C = Page.Cards[I];
    OS << "<tr><td><a href=\"#launch-" << I << "\">" << htmlEscape(C.Kernel) << "</a></td><td>"
       << htmlEscape(C.Where) << "</td><td>" << htmlEscape(C.Arch) << "</td><td>"
       << (C.Occupancy ? percentText(*C.Occupancy) : std::string("-")) << "</td><td>"
       << htmlEscape(C.Occupancy ? C.Limiter : C.Missing) << "</td><td>" << C.FindingCount
       << "</td></tr>\n";
  }
  OS << "</table>\n";
}

/// The findings by impact, largest first: rank, the figure in its unit, check, place and
/// message, at most MaxRows rows (the rest counted).
void writeFindingIndex(const ReportPage &Page, llvm::raw_ostream &OS) {
  constexpr size_t MaxRows = 50;
  OS << "<h2>Findings by impact</h2>\n<table class=\"impact\">\n<tr><th>rank"
        "</th><th>impact</th><th>check</th><th>where</th><th>finding</th></tr>\n";
  for (size_t I = 0; I < Page.ByImpact.size() && I < MaxRows; ++I) {
    const Finding &F = Page.ByImpact[I];
    OS << "<tr><td>" << (F.Impact ? std::to_string(F.Impact->Rank) : std::string("-"))
       << "</td><td>"
       << (F.Impact ? htmlEscape(fmt::format("{:.3g} {}", F.Impact->Value, F.Impact->Unit))
                    : std::string("-"))
       << "</td><td>" << htmlEscape(F.Check) << "</td><td>" << htmlEscape(F.Pos.File) << ":"
       << F.Pos.Line << ":" << F.Pos.Column << "</td><td>" << htmlEscape(F.Message)
       << "</td></tr>\n";
  }
  OS << "</table>\n";
  if (Page.ByImpact.size() > MaxRows)
    OS << "<p class=\"summary\">and " << Page.ByImpact.size() - MaxRows
       << " more findings of lower impact (on the cards below).</p>\n";
}

} // namespace

void writeHtmlReport(const ReportPage &Page, llvm::raw_ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"warplint " << warplint::versionString()
     << "\">\n<title>" << htmlEscape(Page.Title) << "</title>\n<style>" << Css << svgCss()
     << "</style>\n</head>\n<body>\n<header>\n<h1>" << htmlEscape(Page.Title) << "</h1>\n<p>";
  OS << "warplint " << warplint::versionString();
  if (!Page.Gpu.empty())
    OS << " &middot; GPU: " << htmlEscape(Page.Gpu);
  OS << "</p>\n</header>\n<main>\n";
  size_t NumFindings = Page.OtherFindings.size();
  for (const ReportKernel &K : Page.Kernels)
    NumFindings += K.Findings.size();
  if (Page.FindingCount)
    NumFindings = *Page.FindingCount;
  OS << "<p class=\"summary\">" << Page.FilesAnalysed.size() << " file"
     << (Page.FilesAnalysed.size() == 1 ? "" : "s") << " analysed, " << Page.FilesFailed.size()
     << " failed, " << Page.Cards.size() << " launch" << (Page.Cards.size() == 1 ? "" : "es")
     << " (" << Page.Kernels.size() << " kernel card" << (Page.Kernels.size() == 1 ? "" : "s")
     << "), " << NumFindings << " finding" << (NumFindings == 1 ? "" : "s") << ".</p>\n";
  if (!Page.FilesFailed.empty()) {
    OS << "<p class=\"error\">could not analyse:";
    for (const std::string &F : Page.FilesFailed)
      OS << " " << htmlEscape(F);
    OS << "</p>\n";
  }
  if (!Page.MeasuredFrom.empty()) {
    OS << "<p class=\"summary\">Nsight Compute: " << Page.MeasuredLaunches << " profiled launch"
       << (Page.MeasuredLaunches == 1 ? "" : "es") << " from " << htmlEscape(Page.MeasuredFrom)
       << ", " << Page.MeasuredUnmatched.size() << " not matched to a source launch, "
       << Page.MeasuredDefects << " disagreement" << (Page.MeasuredDefects == 1 ? "" : "s")
       << " with warplint's figures.</p>\n";
    for (const std::string &U : Page.MeasuredUnmatched)
      OS << "<p class=\"defect\">unmatched: " << htmlEscape(U) << "</p>\n";
  }
  if (!Page.ByImpact.empty())
    writeFindingIndex(Page, OS);
  if (Page.Cards.size() > 1)
    writeIndex(Page, OS);
  // The cards first, to know the definitions their pictures share.
  SvgSheet Sheet(/*Page=*/true);
  std::string Cards;
  llvm::raw_string_ostream CardsOS(Cards);
  for (size_t I = 0; I < Page.Kernels.size(); ++I)
    writeCard(Page, I, Sheet, CardsOS);
  OS << Sheet.defs() << Cards;
  if (!Page.OtherFindings.empty()) {
    OS << "<section class=\"card\" id=\"other-findings\">\n<h2>Other findings</h2>\n";
    writeFindings(Page.OtherFindings, OS);
    OS << "</section>\n";
  }
  OS << "</main>\n<footer>Theoretical occupancy from warplint's model of NVIDIA's "
        "occupancy calculator; achieved occupancy is measured on the GPU and can be "
        "lower.</footer>\n</body>\n</html>\n";
}

} // namespace warplint::driver
