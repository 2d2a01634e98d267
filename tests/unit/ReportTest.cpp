//===- ReportTest.cpp - SVG charts, wave plans and the HTML report writer -===//
#include "driver/report/HtmlReport.h"
#include "driver/report/ReportSvg.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include <regex>
#include <string>

using namespace warplint::driver;
using warplint::KernelRecord;
using warplint::LaunchRecord;
using warplint::SourcePos;

namespace {

size_t count(const std::string &Hay, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Hay.find(Needle); At != std::string::npos; At = Hay.find(Needle, At + 1))
    ++N;
  return N;
}

/// Registers chart of a 256-thread block on a 48-warp SM with 64K registers: a step
/// function with cliffs at 41, 49, 57, 65, 81, 97, 129, 169 registers.
OccupancyChart registersChart(double Current) {
  OccupancyChart C;
  C.Title = "Registers per thread";
  C.XLabel = "registers per thread";
  for (int R = 1; R <= 255; ++R) {
    int PerWarp = ((R * 32 + 255) / 256) * 256;
    int Blocks = std::min(6, (65536 / PerWarp) / 8);
    C.Points.push_back({double(R), Blocks * 8 / 48.0});
  }
  C.HasCurrent = true;
  C.CurrentX = Current;
  C.CurrentOccupancy = C.Points[int(Current) - 1].Occupancy;
  return C;
}

TEST(ReportSvg, NextCliffIsTheFirstDropAfterTheCurrentPoint) {
  EXPECT_EQ(nextCliff(registersChart(40)), 41);
  EXPECT_EQ(nextCliff(registersChart(41)), 49);
  EXPECT_EQ(nextCliff(registersChart(64)), 65);
  EXPECT_EQ(nextCliff(registersChart(255)), -1);
  OccupancyChart NoCurrent = registersChart(40);
  NoCurrent.HasCurrent = false;
  EXPECT_EQ(nextCliff(NoCurrent), -1);
}

TEST(ReportSvg, ChartMarksCurrentPointAndCliff) {
  std::string Svg = renderChartSvg(registersChart(64));
  EXPECT_EQ(Svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"", 0), 0u);
  EXPECT_EQ(count(Svg, "class=\"current\" data-x=\"64\" data-occupancy=\"0.67\""), 1u);
  EXPECT_EQ(count(Svg, "class=\"cliff\" data-x=\"65\""), 1u);
  EXPECT_EQ(count(Svg, "cliff at 65"), 1u);
  EXPECT_EQ(count(Svg, "class=\"curve\""), 1u);
  EXPECT_EQ(count(Svg, "64: 66.7%"), 1u);
  EXPECT_EQ(count(Svg, "<script"), 0u);
}

TEST(ReportSvg, ChartsDocumentIsStandaloneSvg) {
  std::string Doc =
      renderChartsDocument({registersChart(64), registersChart(40)}, "sm_86 & 256 threads");
  EXPECT_EQ(Doc.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=", 0), 0u);
  EXPECT_EQ(count(Doc, "<svg x=\"10\" y=\"30\" xmlns="), 1u);
  EXPECT_EQ(count(Doc, "<svg x=\"380\" y=\"30\" xmlns="), 1u);
  EXPECT_NE(Doc.find("sm_86 &amp; 256 threads"), std::string::npos);
  EXPECT_EQ(count(Doc, "<svg"), 3u);
  EXPECT_EQ(count(Doc, "</svg>"), 3u);
}

TEST(ReportSvg, OneStyleStandaloneAndOnAPage) {
  SvgSheet Standalone, Page(/*Page=*/true);
  EXPECT_EQ(Standalone.paint(SvgStyle::CliffText),
            " font-family=\"sans-serif\" fill=\"#dc2626\" font-size=\"10px\"");
  EXPECT_EQ(Page.paint(SvgStyle::CliffText), " class=\"ct\"");
  EXPECT_NE(svgCss().find(".ct { font-family:sans-serif;fill:#dc2626;font-size:10px }"),
            std::string::npos);
  // A style that names its element: the element carries its class, the page adds nothing.
  EXPECT_EQ(Page.paint(SvgStyle::CurrentPoint), "");
  EXPECT_NE(svgCss().find(".current { fill:#16a34a;"), std::string::npos);
  EXPECT_NE(svgCss().find(".curve.dc { "), std::string::npos);
}

TEST(ReportSvg, PartsAreDefinedOnceOnAPage) {
  SvgSheet Standalone, Page(/*Page=*/true);
  EXPECT_EQ(Standalone.part("<rect/>"), "<rect/>");
  EXPECT_EQ(Page.part("<rect/>"), "<use href=\"#p0\"/>\n");
  EXPECT_EQ(Page.named("hatch", "<pattern id=\"hatch\"/>"), "");
  EXPECT_EQ(Page.part("<circle/>"), "<use href=\"#p1\"/>\n");
  EXPECT_EQ(Page.part("<rect/>"), "<use href=\"#p0\"/>\n");
  EXPECT_EQ(Page.named("hatch", "<pattern id=\"hatch\"/>"), "");
  EXPECT_EQ(Standalone.named("hatch", "<pattern id=\"hatch\"/>"),
            "<defs><pattern id=\"hatch\"/></defs>\n");
  EXPECT_EQ(Page.defs(), "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"defs\" width=\"0\" "
                         "height=\"0\" aria-hidden=\"true\"><defs>\n<g id=\"p0\"><rect/></g>\n"
                         "<pattern id=\"hatch\"/>\n<g id=\"p1\"><circle/></g>\n</defs></svg>\n");
  EXPECT_EQ(Standalone.defs(), "");
  EXPECT_EQ(SvgSheet(/*Page=*/true).defs(), "");
}

TEST(ReportSvg, StepCurveTurnsOnlyWhereOccupancyChanges) {
  OccupancyChart C = registersChart(64);
  size_t Changes = 0;
  for (size_t I = 1; I < C.Points.size(); ++I)
    Changes += C.Points[I].Occupancy != C.Points[I - 1].Occupancy;
  ASSERT_EQ(Changes, 5u); // 6 blocks down to 1 over 255 registers
  std::string Svg = renderChartSvg(C);
  size_t D = Svg.find("class=\"curve\" d=\"");
  ASSERT_NE(D, std::string::npos);
  std::string Path = Svg.substr(D + 17, Svg.find('"', D + 17) - D - 17);
  EXPECT_EQ(count(Path, " V"), Changes);
  EXPECT_EQ(count(Path, " H"), Changes + 1); // and on to the right edge
}

TEST(ReportSvg, EmptyChartSaysSo) {
  OccupancyChart C;
  C.Title = "Shared memory per block";
  std::string Svg = renderChartSvg(C);
  EXPECT_NE(Svg.find("no data"), std::string::npos);
  EXPECT_EQ(count(Svg, "class=\"curve\""), 0u);
}

TEST(ReportSvg, GaugeShowsPercentAndCaption) {
  std::string Svg = renderGaugeSvg(1.0 / 3, "limited by blocks <16 per SM>");
  EXPECT_NE(Svg.find(">33.3%<"), std::string::npos);
  EXPECT_NE(Svg.find("limited by blocks &lt;16 per SM&gt;"), std::string::npos);
  EXPECT_EQ(count(Svg, "class=\"gauge-value\""), 1u);
  EXPECT_EQ(count(renderGaugeSvg(0, "no launch"), "class=\"gauge-value\""), 0u);
}

TEST(WavePlan, WavesAndTail) {
  // RTX 3080: 68 SMs; 6 blocks per SM -> 408 blocks per wave.
  WavePlan W{1000, 6, 68};
  EXPECT_EQ(W.blocksPerWave(), 408u);
  EXPECT_EQ(W.waves(), 3u);
  EXPECT_EQ(W.lastWaveBlocks(), 184u);
  EXPECT_EQ(W.lastWaveBlocksOnSm(0), 3u); // 184 = 2 x 68 + 48
  EXPECT_EQ(W.lastWaveBlocksOnSm(47), 3u);
  EXPECT_EQ(W.lastWaveBlocksOnSm(48), 2u);
  EXPECT_EQ(W.lastWaveBlocksOnSm(67), 2u);
  EXPECT_EQ(W.lastWaveBlocksOnSm(68), 0u);
  // Exactly full waves, one block, nothing fits.
  EXPECT_EQ((WavePlan{816, 6, 68}.waves()), 2u);
  EXPECT_EQ((WavePlan{816, 6, 68}.lastWaveBlocksOnSm(67)), 6u);
  EXPECT_EQ((WavePlan{1, 6, 68}.lastWaveBlocksOnSm(0)), 1u);
  EXPECT_EQ((WavePlan{1, 6, 68}.lastWaveBlocksOnSm(1)), 0u);
  EXPECT_EQ((WavePlan{100, 0, 68}.waves()), 0u);
}

TEST(ReportSvg, TimelineHatchesTheIdleTail) {
  std::string Svg = renderTimelineSvg(WavePlan{1000, 6, 68});
  // Two lanes (SM 0, SM 67) x 3 waves x 6 slots.
  EXPECT_EQ(count(Svg, "class=\"slot "), 36u);
  // Last wave: SM 0 idles 3 slots, SM 67 idles 4.
  EXPECT_EQ(count(Svg, "class=\"slot idle\" data-wave=\"2\" data-sm=\"0\""), 3u);
  EXPECT_EQ(count(Svg, "class=\"slot idle\" data-wave=\"2\" data-sm=\"67\""), 4u);
  EXPECT_EQ(count(Svg, "class=\"slot idle\" data-wave=\"1\""), 0u);
  // A long grid shows the first three and the last three waves around a gap.
  std::string Long = renderTimelineSvg(WavePlan{100000, 2, 68});
  EXPECT_EQ(count(Long, "class=\"slot "), 2u * 6 * 2);
  EXPECT_NE(Long.find("data-wave=\"735\""), std::string::npos); // ceil(100000/136) = 736
  EXPECT_NE(Long.find("…"), std::string::npos);
}

/// One kernel card with one launch of one shape: a gauge, the registers chart, the waves
/// and a finding.
ReportPage samplePage() {
  ReportPage Page;
  Page.Gpu = "GeForce RTX 3080 (sm_86, 68 SMs)";
  ReportLaunch L;
  L.Kernel = "reduce<float>";
  L.Where = "src/reduce.cu:42:5";
  L.Arch = "sm_86";
  L.Block = "256 x 1 x 1";
  L.Grid = "1000 x 1 x 1 (1000 blocks)";
  L.Occupancy = 2.0 / 3;
  L.Limiter = "limited by registers";
  L.Waves = WavePlan{1000, 4, 68};
  L.FindingCount = 1;
  ReportShape S;
  S.Summary = "256 x 1 x 1 block (256 threads, 8 warps)";
  S.Occupancy = L.Occupancy;
  S.Limiter = L.Limiter;
  S.Charts.push_back(registersChart(64));
  S.Waves.push_back(*L.Waves);
  S.Launches = {0};
  ReportKernel K;
  K.Kernel = L.Kernel;
  K.Arch = L.Arch;
  K.Facts = {{"registers", "64 per thread"}};
  K.Launches = {0};
  K.Shapes.push_back(S);
  Finding F;
  F.Check = "warplint-divergent-branch";
  F.Pos = {"src/reduce.cu", 12, 7};
  F.Message = "branch diverges in 8 of 8 warps";
  F.Notes.push_back({{"src/reduce.cu", 10, 3}, "x < y & z"});
  K.Findings.push_back(F);
  Page.Cards.push_back(L);
  Page.Kernels.push_back(K);
  Page.FilesAnalysed = {"src/reduce.cu"};
  return Page;
}

/// Adds a launch of `Page`'s first card, of its first shape, with another occupancy.
void addLaunch(ReportPage &Page, const std::string &Kernel, std::optional<double> Occupancy,
               const std::string &Missing = "") {
  ReportLaunch L = Page.Cards[0];
  L.Kernel = Kernel;
  L.Occupancy = Occupancy;
  L.Missing = Missing;
  Page.Kernels[0].Launches.push_back(Page.Cards.size());
  Page.Kernels[0].Shapes[0].Launches.push_back(Page.Cards.size());
  Page.Cards.push_back(L);
}

std::string html(const ReportPage &Page) {
  std::string Html;
  llvm::raw_string_ostream OS(Html);
  writeHtmlReport(Page, OS);
  return Html;
}

TEST(HtmlReport, SelfContainedCardPerKernel) {
  std::string Html = html(samplePage());
  EXPECT_EQ(Html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(Html, "<section class=\"card\""), 1u);
  EXPECT_EQ(count(Html, "<section class=\"card\" id=\"kernel-0\">"), 1u);
  EXPECT_EQ(count(Html, "<tr id=\"launch-0\"><td>src/reduce.cu:42:5</td>"), 1u);
  // The gauge, one chart, the timeline, and the page's shared definitions.
  EXPECT_EQ(count(Html, "<svg "), 4u);
  EXPECT_EQ(count(Html, "class=\"gauge\""), 1u);
  EXPECT_EQ(count(Html, "class=\"chart\""), 1u);
  EXPECT_EQ(count(Html, "class=\"timeline\""), 1u);
  EXPECT_EQ(count(Html, "class=\"defs\""), 1u);
  EXPECT_EQ(count(Html, "class=\"finding warning\""), 1u);
  EXPECT_NE(Html.find("note: src/reduce.cu:10:3: x &lt; y &amp; z"), std::string::npos);
  EXPECT_NE(Html.find("href=\"" + checkDocHtmlUrl("warplint-divergent-branch") + "\""),
            std::string::npos);
  EXPECT_NE(Html.find("<b>3.68 waves</b>"), std::string::npos);
  // Nothing is loaded from elsewhere: no scripts, stylesheets, images or fonts.
  EXPECT_EQ(count(Html, "<script"), 0u);
  EXPECT_EQ(count(Html, "<link"), 0u);
  EXPECT_EQ(count(Html, "<img"), 0u);
  EXPECT_EQ(count(Html, "url(http"), 0u);
  EXPECT_EQ(count(Html, "src="), 0u);
}

TEST(HtmlReport, IndexOfLaunchesLowestOccupancyFirst) {
  ReportPage Page = samplePage(); // reduce<float>: 66.7%
  addLaunch(Page, "lowKernel", 0.25);
  addLaunch(Page, "unknownShape", std::nullopt,
            "block shape not known at compile time: no occupancy");
  std::string Html = html(Page);
  size_t Index = Html.find("<table class=\"index\">");
  ASSERT_NE(Index, std::string::npos);
  size_t First = Html.find("<a href=\"#launch-1\">lowKernel</a>", Index);
  size_t Second = Html.find("<a href=\"#launch-0\">reduce&lt;float&gt;</a>", Index);
  size_t Third = Html.find("<a href=\"#launch-2\">unknownShape</a>", Index);
  EXPECT_LT(First, Second);
  EXPECT_LT(Second, Third);
  EXPECT_NE(Third, std::string::npos);
  EXPECT_NE(Html.find("<td>25%</td>", Index), std::string::npos);
  EXPECT_NE(Html.find("<td>-</td><td>block shape not known", Index), std::string::npos);
  // Each index row links to its launch's row on its kernel's card.
  for (const char *Row : {"<tr id=\"launch-0\">", "<tr id=\"launch-1\">", "<tr id=\"launch-2\">"})
    EXPECT_EQ(count(Html, Row), 1u) << Row;
  // The form tests/differential/check-one-answer.py reads.
  std::regex IndexRow("<tr><td><a href=\"#launch-\\d+\">(.*?)</a></td><td>(.*?)</td><td>(.*?)"
                      "</td><td>(.*?)</td><td>(.*?)</td>");
  EXPECT_EQ(std::distance(std::sregex_iterator(Html.begin(), Html.end(), IndexRow),
                          std::sregex_iterator()),
            3);
  // One card: no index.
  EXPECT_EQ(html(samplePage()).find("class=\"index\""), std::string::npos);
}

TEST(HtmlReport, ByteIdentical) { EXPECT_EQ(html(samplePage()), html(samplePage())); }

TEST(HtmlReport, PicturesShareTheirAxesAndStyles) {
  // Two cards whose shapes draw the same registers chart and the same waves.
  ReportPage Page = samplePage();
  Page.Kernels.push_back(Page.Kernels[0]);
  Page.Kernels[1].Kernel = "other";
  Page.Kernels[1].Launches = {1};
  Page.Kernels[1].Shapes[0].Launches = {1};
  Page.Cards.push_back(Page.Cards[0]);
  Page.Cards[1].Card = 1;
  std::string Html = html(Page);
  EXPECT_EQ(count(Html, "class=\"chart\""), 2u);
  EXPECT_EQ(count(Html, "class=\"timeline\""), 2u);
  // Axes, curve, gauge track and timeline: defined once, used twice.
  EXPECT_EQ(count(Html, "<g id=\"p"), 4u);
  EXPECT_EQ(count(Html, "<use href=\"#p"), 8u);
  for (int Part = 0; Part < 4; ++Part)
    EXPECT_EQ(count(Html, "<use href=\"#p" + std::to_string(Part) + "\"/>"), 2u) << Part;
  EXPECT_EQ(count(Html, "<pattern id=\"idle-hatch\""), 1u);
  EXPECT_EQ(count(Html, "<text x=\"44\" y=\"16\" class=\"tt\">Registers per thread</text>"), 1u);
  // Styles are classes: no presentation attributes on the page.
  EXPECT_EQ(count(Html, "font-family=\""), 0u);
  EXPECT_EQ(count(Html, "font-size=\""), 0u);
  EXPECT_NE(Html.find(".slot.idle { fill:url(#idle-hatch);"), std::string::npos);
  // The marks of each launch stay on each chart.
  EXPECT_EQ(count(Html, "<circle class=\"current\" data-x=\"64\""), 2u);
  EXPECT_EQ(count(Html, "<line class=\"cliff\" data-x=\"65\""), 2u);
}

/// The figures of a record from its shape and resources, as the model sets them.
void evaluate(LaunchRecord &L) {
  const warplint::GpuArch *A = warplint::findArch(L.Arch);
  ASSERT_TRUE(A);
  warplint::KernelResources Res;
  Res.RegistersPerThread = int(L.Registers.value_or(0));
  Res.StaticSharedBytes = L.StaticSmemBytes.value_or(0);
  std::optional<warplint::LaunchShape> Shape;
  if (L.Block && L.DynamicSmemBytes)
    Shape = warplint::LaunchShape::block(
        {int64_t((*L.Block)[0]), int64_t((*L.Block)[1]), int64_t((*L.Block)[2])},
        *L.DynamicSmemBytes);
  L.NextSteps.clear();
  L.Limiters.clear();
  warplint::setFigures(L, *A, Res, Shape,
                       warplint::evaluateLaunch(*A, Res, Shape, L.Registers.has_value()),
                       L.Registers.has_value());
}

RunResult rtx3080Launches() {
  RunResult R;
  LaunchRecord L;
  L.Pos = {"/proj/src/k.cu", 30, 3};
  L.Kernel = "stencil";
  L.Api = "triple-chevron";
  L.Block = {{256, 1, 1}};
  L.Grid = {{1000, 1, 1}};
  L.DynamicSmemBytes = 40 * 1024;
  L.StaticSmemBytes = 0;
  L.Registers = 32;
  L.Arch = "sm_86";
  evaluate(L);
  R.Launches.push_back(L);
  LaunchRecord Unknown;
  Unknown.Pos = {"/proj/src/k.cu", 44, 3};
  Unknown.Kernel = "scale";
  Unknown.DynamicSmemExpr = "n * sizeof(float)";
  R.Launches.push_back(Unknown);
  Finding AtLaunch;
  AtLaunch.Check = "warplint-launch-x";
  AtLaunch.Pos = {"/proj/src/k.cu", 30, 3};
  AtLaunch.Message = "at the launch";
  R.Findings.push_back(AtLaunch);
  Finding Elsewhere = AtLaunch;
  Elsewhere.Pos = {"/proj/src/k.cu", 12, 9};
  Elsewhere.Message = "in a kernel body";
  R.Findings.push_back(Elsewhere);
  R.FilesAnalysed = {"/proj/src/k.cu"};
  return R;
}

/// The shape drawn for a launch of a built page.
const ReportShape &shapeOf(const ReportPage &Page, size_t Launch) {
  const ReportLaunch &C = Page.Cards[Launch];
  return Page.Kernels[C.Card].Shapes[C.Shape];
}

// GPU-FACTS: RTX 3080, 256-thread blocks, 40 KiB dynamic shared memory: 2 blocks/SM, 33.3%.
TEST(ReportBuilder, CardsFromCoreModel) {
  ReportOptions Opts;
  Opts.Product = warplint::findProduct("rtx3080");
  Opts.SmCount = Opts.Product->SmCount;
  Opts.SourceRoot = "/proj";
  ReportPage Page = buildReport(rtx3080Launches(), Opts);
  EXPECT_EQ(Page.Gpu, "GeForce RTX 3080 (sm_86, 68 SMs)");
  ASSERT_EQ(Page.Cards.size(), 2u);
  ASSERT_EQ(Page.Kernels.size(), 2u);
  const ReportLaunch &C = Page.Cards[0];
  EXPECT_EQ(C.Where, "src/k.cu:30:3");
  EXPECT_EQ(C.Block, "256 x 1 x 1");
  EXPECT_EQ(C.Grid, "1000 x 1 x 1 (1000 blocks)");
  EXPECT_EQ(C.DynamicShared, "40 KiB (40960 B)");
  EXPECT_EQ(C.BlocksPerSm, "2 (16 of 48 warps)");
  ASSERT_TRUE(C.Occupancy.has_value());
  EXPECT_NEAR(*C.Occupancy, 1.0 / 3, 1e-9);
  EXPECT_EQ(C.Limiter, "limited by shared memory");
  const ReportKernel &K = Page.Kernels[C.Card];
  EXPECT_EQ(K.Kernel, "stencil");
  EXPECT_EQ(K.Arch, "sm_86");
  ASSERT_EQ(K.Shapes.size(), 1u);
  const ReportShape &S = K.Shapes[0];
  EXPECT_EQ(S.Summary, "256 x 1 x 1 block (256 threads, 8 warps), 40 KiB (40960 B) dynamic shared");
  ASSERT_TRUE(S.Occupancy.has_value());
  EXPECT_NEAR(*S.Occupancy, 1.0 / 3, 1e-9);
  ASSERT_EQ(S.Charts.size(), 3u);
  EXPECT_TRUE(S.Charts[2].HasCurrent);
  EXPECT_EQ(S.Charts[2].CurrentX, 40960);
  // Up to the 48 KiB limit without opt-in two blocks still fit: no cliff to the right.
  EXPECT_EQ(nextCliff(S.Charts[2]), -1);
  EXPECT_EQ(S.Charts[2].Points.back().X, 48 * 1024);
  // The block-size sweep has a point per warp multiple up to 1024.
  EXPECT_EQ(S.Charts[0].Points.size(), 32u);
  EXPECT_EQ(S.Charts[0].Points.front().X, 32);
  ASSERT_TRUE(C.Waves.has_value());
  EXPECT_EQ(C.Waves->BlocksPerSm, 2u);
  EXPECT_EQ(C.Waves->waves(), 8u); // 1000 / 136 = 7.35
  ASSERT_EQ(S.Waves.size(), 1u);
  EXPECT_EQ(S.Waves[0].GridBlocks, 1000u);
  EXPECT_EQ(C.FindingCount, 1u);
  ASSERT_EQ(K.Findings.size(), 1u);
  EXPECT_EQ(K.Findings[0].Pos.File, "src/k.cu");
  ASSERT_EQ(Page.OtherFindings.size(), 1u);
  EXPECT_EQ(Page.OtherFindings[0].Message, "in a kernel body");

  // No arch, no block: said so, no gauge, no waves.
  const ReportLaunch &U = Page.Cards[1];
  EXPECT_EQ(U.Arch, "sm_86"); // from the product
  EXPECT_EQ(U.Block, "not known at compile time");
  EXPECT_EQ(U.DynamicShared, "n * sizeof(float) (not known; taken as 0)");
  EXPECT_FALSE(U.Occupancy.has_value());
  EXPECT_FALSE(U.Waves.has_value());
  EXPECT_EQ(U.Missing, "block shape not known at compile time: no occupancy");
  const ReportShape &US = shapeOf(Page, 1);
  EXPECT_EQ(US.Missing, U.Missing);
  ASSERT_EQ(US.Charts.size(), 1u); // the block-size sweep needs no block
  EXPECT_FALSE(US.Charts[0].Points.empty());
  EXPECT_FALSE(US.Charts[0].HasCurrent);
}

// 10 KiB: 6 blocks (warps limit, 100%); shared memory falls to 5 blocks past 100 KiB / 6.
TEST(ReportBuilder, SharedMemoryCliffOfTheWorkedExample) {
  RunResult R = rtx3080Launches();
  R.Launches[0].DynamicSmemBytes = 10 * 1024;
  evaluate(R.Launches[0]);
  ReportPage Page = buildReport(R, ReportOptions{});
  const ReportLaunch &C = Page.Cards[0];
  ASSERT_TRUE(C.Occupancy.has_value());
  EXPECT_NEAR(*C.Occupancy, 1.0, 1e-9);
  EXPECT_EQ(C.Limiter, "limited by warp slots");
  double Cliff = nextCliff(shapeOf(Page, 0).Charts[2]);
  // 6 x (data + 1 KiB reserved, rounded to 128 B) must fit 100 KiB.
  EXPECT_GT(Cliff, 15 * 1024);
  EXPECT_LE(Cliff, 100 * 1024 / 6);
}

TEST(ReportBuilder, FindingsInsideTheLaunchedKernelGoOnItsCard) {
  RunResult R = rtx3080Launches();
  KernelRecord Stencil, Scale;
  Stencil.Name = "stencil";
  Stencil.File = "/proj/src/k.cu";
  Stencil.BeginLine = 10;
  Stencil.EndLine = 14;
  Scale.Name = "scale";
  Scale.File = "/proj/src/k.cu";
  Scale.BeginLine = 16;
  Scale.EndLine = 20;
  R.Kernels = {Stencil, Scale};
  ReportPage Page = buildReport(R, ReportOptions{});
  // Line 12 is inside stencil (10..14): on stencil's card, after the launch finding.
  const ReportKernel &K = Page.Kernels[Page.Cards[0].Card];
  ASSERT_EQ(K.Findings.size(), 2u);
  EXPECT_EQ(K.Findings[1].Message, "in a kernel body");
  EXPECT_EQ(Page.Cards[0].FindingCount, 2u);
  EXPECT_TRUE(Page.Kernels[Page.Cards[1].Card].Findings.empty());
  EXPECT_EQ(Page.Cards[1].FindingCount, 0u);
  EXPECT_TRUE(Page.OtherFindings.empty());
  R.Kernels[0].EndLine = 11; // now line 12 is outside every kernel
  EXPECT_EQ(buildReport(R, ReportOptions{}).OtherFindings.size(), 1u);
}

/// `Copies` more launches of stencil (record 0): grids 1000 and 80 in turn; every third
/// with 16 KiB instead of 40 KiB of dynamic shared memory.
RunResult repeatedLaunches(int Copies) {
  RunResult R = rtx3080Launches();
  for (int I = 0; I < Copies; ++I) {
    LaunchRecord L = R.Launches[0];
    L.Pos.Line = 100 + I;
    L.Grid = {{I % 2 ? 80u : 1000u, 1, 1}};
    if (I % 3 == 2) {
      L.DynamicSmemBytes = 16 * 1024;
      evaluate(L);
    }
    R.Launches.push_back(L);
    Finding AtLaunch = R.Findings[0];
    AtLaunch.Pos = L.Pos;
    R.Findings.push_back(AtLaunch);
  }
  KernelRecord Stencil;
  Stencil.Name = "stencil";
  Stencil.File = "/proj/src/k.cu";
  Stencil.BeginLine = 10;
  Stencil.EndLine = 14;
  R.Kernels = {Stencil};
  return R;
}

TEST(ReportBuilder, OneCardPerKernelOneDrawingPerShape) {
  ReportOptions Opts;
  Opts.Product = warplint::findProduct("rtx3080");
  Opts.SmCount = Opts.Product->SmCount;
  ReportPage Page = buildReport(repeatedLaunches(6), Opts);
  ASSERT_EQ(Page.Cards.size(), 8u); // a row per launch record
  ASSERT_EQ(Page.Kernels.size(), 2u);
  const ReportKernel &Stencil = Page.Kernels[0];
  EXPECT_EQ(Stencil.Kernel, "stencil");
  EXPECT_EQ(Stencil.Launches, (std::vector<size_t>{0, 2, 3, 4, 5, 6, 7}));
  // 40 KiB: the first launch and copies 0, 1, 3, 4; 16 KiB: copies 2 and 5.
  ASSERT_EQ(Stencil.Shapes.size(), 2u);
  EXPECT_EQ(Stencil.Shapes[0].Launches, (std::vector<size_t>{0, 2, 3, 5, 6}));
  EXPECT_EQ(Stencil.Shapes[1].Launches, (std::vector<size_t>{4, 7}));
  EXPECT_EQ(Page.Cards[4].Shape, 1u);
  EXPECT_EQ(Page.Cards[4].DynamicShared, "16 KiB (16384 B)");
  // 16 KiB: 5 blocks of 8 warps (40 of 48), limited by shared memory.
  EXPECT_EQ(Page.Cards[4].BlocksPerSm, "5 (40 of 48 warps)");
  EXPECT_EQ(Stencil.Shapes[1].Charts.size(), 3u);
  EXPECT_EQ(Stencil.Shapes[1].Charts[2].CurrentX, 16384);
  // Waves once per grid size of a shape, smallest first.
  ASSERT_EQ(Stencil.Shapes[0].Waves.size(), 2u);
  EXPECT_EQ(Stencil.Shapes[0].Waves[0].GridBlocks, 80u);
  EXPECT_EQ(Stencil.Shapes[0].Waves[1].GridBlocks, 1000u);
  // Each launch's finding once on the card, the kernel body's finding once; each launch
  // counts its own and the body's.
  EXPECT_EQ(Stencil.Findings.size(), 8u);
  EXPECT_EQ(Page.Cards[3].FindingCount, 2u);
  EXPECT_TRUE(Page.OtherFindings.empty());

  std::string Html = html(Page);
  EXPECT_EQ(count(Html, "<section class=\"card\""), 2u);
  EXPECT_EQ(count(Html, "<tr id=\"launch-"), 8u);
  EXPECT_EQ(count(Html, "<tr><td><a href=\"#launch-"), 8u);
  EXPECT_EQ(count(Html, "class=\"chart\""), 3u + 3u + 1u);
  EXPECT_EQ(count(Html, "class=\"gauge\""), 2u);
  EXPECT_EQ(count(Html, "class=\"timeline\""), 4u);
  EXPECT_EQ(count(Html, "<a href=\"#shape-0-2\">2</a>"), 2u);
  EXPECT_EQ(count(Html, "class=\"finding "), 8u);
}

// The report of many launches of few shapes stays small: the first report drew every
// launch's charts, about 21 KB per launch.
TEST(ReportBuilder, ManyLaunchesOfFewShapesStaySmall) {
  ReportOptions Opts;
  Opts.Product = warplint::findProduct("rtx3080");
  Opts.SmCount = Opts.Product->SmCount;
  RunResult R = repeatedLaunches(300);
  std::string Html = html(buildReport(R, Opts));
  EXPECT_EQ(count(Html, "<tr id=\"launch-"), R.Launches.size());
  EXPECT_LT(Html.size() / R.Launches.size(), 1500u) << Html.size() << " bytes";
}

TEST(ReportBuilder, UnknownRegistersGiveAnUpperBoundWithoutAPoint) {
  RunResult R = rtx3080Launches();
  R.Launches[0].Registers.reset();
  ReportPage Page = buildReport(R, ReportOptions{});
  const ReportLaunch &C = Page.Cards[0];
  EXPECT_FALSE(shapeOf(Page, 0).Charts[1].HasCurrent);
  EXPECT_NE(C.Missing.find("upper bound"), std::string::npos);
  EXPECT_EQ(shapeOf(Page, 0).Missing, C.Missing);
  EXPECT_EQ(Page.Kernels[C.Card].Facts[1].second, "not counted");
  EXPECT_FALSE(C.Waves.has_value()); // no SM count
  EXPECT_EQ(Page.Cards[1].Missing, "no target architecture: pass --arch or --gpu");
}

/// Renders a built page in headless Chromium (tests/report/check-report.py): the DOM the
/// browser built holds the cards, the launch rows and the charts, the screenshot shows them. With
/// WARPLINT_KEEP_REPORT_DIR set, the HTML and the screenshot are kept there.
TEST(HtmlReport, RendersInChromium) {
  auto Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    GTEST_SKIP() << "python3 is not installed";
  ReportOptions Opts;
  Opts.Product = warplint::findProduct("rtx3080");
  Opts.SmCount = Opts.Product->SmCount;
  Opts.SourceRoot = "/proj";
  ReportPage Page = buildReport(repeatedLaunches(3), Opts);

  llvm::SmallString<128> Dir;
  if (const char *Keep = std::getenv("WARPLINT_KEEP_REPORT_DIR"))
    Dir = Keep;
  else
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-report", Dir));
  llvm::SmallString<128> Html(Dir), Png(Dir), Log(Dir);
  llvm::sys::path::append(Html, "sample-report.html");
  llvm::sys::path::append(Png, "sample-report.png");
  llvm::sys::path::append(Log, "check-report.log");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Html, EC);
    ASSERT_FALSE(EC);
    writeHtmlReport(Page, OS);
  }
  std::string Shot = "--screenshot=" + std::string(Png);
  // stencil: 40 KiB and 16 KiB shapes, 3 charts each; scale: the block-size chart only,
  // without a point.
  llvm::StringRef Args[] = {*Python, WARPLINT_REPORT_CHECKER,
                            Html,    "--cards",
                            "2",     "--launches",
                            "5",     "--charts",
                            "7",     "--currents",
                            "6",     Shot};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Log),
                                                llvm::StringRef(Log)};
  int Rc = llvm::sys::ExecuteAndWait(*Python, Args, std::nullopt, Redirects);
  auto Out = llvm::MemoryBuffer::getFile(Log);
  std::string Text = Out ? (*Out)->getBuffer().str() : "";
  if (Rc == 77)
    GTEST_SKIP() << "chromium is not installed";
  EXPECT_EQ(Rc, 0) << Text;
  EXPECT_NE(Text.find("DOM: 2 cards, 5 launch rows, 7 charts, 6 current points"), std::string::npos)
      << Text;
  if (!std::getenv("WARPLINT_KEEP_REPORT_DIR"))
    llvm::sys::fs::remove_directories(Dir);
}

} // namespace

namespace {
// A cluster launch: the card quotes the record's active clusters and waves of clusters,
// and draws no per-SM timeline (blocks of a cluster are not placed one by one).
TEST(ReportBuilder, ClusterLaunchQuotesTheRecord) {
  RunResult R;
  LaunchRecord L;
  L.Pos = {"/proj/k.cu", 5, 3};
  L.Kernel = "paired";
  L.Api = "triple-chevron";
  L.Block = {{640, 1, 1}};
  L.Grid = {{132, 1, 1}};
  L.DynamicSmemBytes = 0;
  L.Arch = "sm_90";
  evaluate(L);
  L.Cluster = {{2, 1, 1}};
  L.Gpu = "h100";
  L.GpuSms = 132;
  L.MaxActiveClusters = 198;
  L.Waves = warplint::wavesOf(132, 396);
  R.Launches.push_back(L);
  ReportOptions Opts;
  Opts.Product = warplint::findProduct("h100");
  Opts.SmCount = 132;
  ReportPage Page = buildReport(R, Opts);
  ASSERT_EQ(Page.Cards.size(), 1u);
  EXPECT_EQ(Page.Cards[0].BlocksPerSm,
            "3 (60 of 64 warps); clusters of 2: 198 at once on the h100 "
            "(cudaOccupancyMaxActiveClusters, GPC layout assumed); 1 wave of clusters, the "
            "last 33% full");
  EXPECT_FALSE(Page.Cards[0].Waves);
}
} // namespace

// A race record goes on its kernel's card (paths relative to the source root), and the
// card's "Data races" table shows the word, both accesses with the threads that make them,
// the block, the certainty with the values and the barrier, as the record holds them.
TEST(ReportBuilder, RaceRecordsOnTheirKernelsCard) {
  RunResult R = rtx3080Launches();
  warplint::RaceRecord X;
  X.Pos = {"/proj/src/k.cu", 12, 22};
  X.Kernel = "stencil";
  X.Space = "shared";
  X.Object = "s";
  X.Word = "s[32]";
  X.First = {{"/proj/src/k.cu", 11, 3}, "s[threadIdx.x]", "write"};
  X.Second = {{"/proj/src/k.cu", 12, 22}, "s[threadIdx.x + 1]", "read"};
  X.Thread1.Thread = {32, 0, 0};
  X.Thread2.Thread = {31, 0, 0};
  X.Block = {256, 1, 1};
  X.Barrier = "__syncthreads()";
  X.Certainty = "depends-on-value";
  X.Values = "n = 1";
  R.Races.push_back(X);
  warplint::RaceRecord Other = X;
  Other.Kernel = "scale";
  R.Races.push_back(Other);
  ReportOptions Opts;
  Opts.SourceRoot = "/proj";
  ReportPage Page = buildReport(R, Opts);
  const ReportKernel &K = Page.Kernels[Page.Cards[0].Card];
  ASSERT_EQ(K.Races.size(), 1u);
  EXPECT_EQ(K.Races[0].Pos.File, "src/k.cu");
  EXPECT_EQ(K.Races[0].First.Pos.File, "src/k.cu");
  EXPECT_EQ(Page.Kernels[Page.Cards[1].Card].Races.size(), 1u);
  std::string Out = html(Page);
  EXPECT_NE(Out.find("<h3>Data races</h3>"), std::string::npos);
  EXPECT_NE(Out.find("<td>src/k.cu:12:22</td><td><code>s[32]</code> (shared)</td><td>warning "
                     "(warplint-data-race)</td><td>thread 32 writes s[threadIdx.x] (line 11)"
                     "</td><td>thread 31 reads s[threadIdx.x + 1] (line 12)</td><td>256x1x1"
                     "</td><td>depends-on-value (n = 1)</td><td>__syncthreads()</td>"),
            std::string::npos)
      << Out;
}
