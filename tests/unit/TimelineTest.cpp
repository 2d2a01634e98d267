//===- TimelineTest.cpp - block traces read, measured and drawn ------------===//
#include "driver/measure/BlockTrace.h"
#include "driver/report/TimelineSvg.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

using namespace warplint::driver;

namespace {

size_t count(const std::string &Hay, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Hay.find(Needle); At != std::string::npos; At = Hay.find(Needle, At + 1))
    ++N;
  return N;
}

std::string line(const char *Kernel, unsigned Launch, unsigned X, unsigned Sm, uint64_t Start,
                 uint64_t End) {
  return fmt::format("{{\"kernel\": \"{}\", \"launch\": {}, \"block\": [{}, 0, 0], \"sm\": {}, "
                     "\"start_ns\": {}, \"end_ns\": {}, \"start_clock\": {}, \"end_clock\": {}}}\n",
                     Kernel, Launch, X, Sm, Start, End, Start * 2, End * 2);
}

/// SM 0: blocks 0 and 1 at once, block 2 when block 0 ends; SM 1 runs nothing; SM 2 one
/// short block. Times from 1000 ns.
std::string threeSms() {
  return line("k", 0, 0, 0, 1000, 1100) + line("k", 0, 1, 0, 1010, 1110) +
         line("k", 0, 2, 0, 1100, 1200) + line("k", 0, 3, 2, 1000, 1050);
}

TracedLaunch readOne(const std::string &Text) {
  std::vector<TracedLaunch> L;
  std::string Error;
  EXPECT_TRUE(readBlockTrace(Text, L, Error)) << Error;
  EXPECT_EQ(L.size(), 1u);
  return L.empty() ? TracedLaunch{} : L[0];
}

// As measured on an H200 (tests/Inputs/gpu/h200, regLimited<3>): 3 blocks of 1 ms resident
// per SM, and each next block starting up to 15 us before the one it replaces has ended,
// since the SM frees a finishing block's registers warp by warp. The residency is 3, not
// 4: the fourth block overlaps only around the handover. The rows drawn are 4.
TEST(BlockTrace, AHandoverOverlapIsNotResidency) {
  std::string T = line("k", 0, 0, 0, 0, 1000000) + line("k", 0, 1, 0, 10, 1005000) +
                  line("k", 0, 2, 0, 20, 1010000) + line("k", 0, 3, 0, 990000, 1990000) +
                  line("k", 0, 4, 0, 1005000, 2005000) + line("k", 0, 5, 0, 1010000, 2010000);
  TracedLaunch L = readOne(T);
  LaunchMeasure M = measureLaunch(L, 1);
  EXPECT_EQ(M.MaxResident, 3u);
  EXPECT_EQ(M.Lanes[0].Rows, 4u);
  EXPECT_EQ(M.PeakRows, 4u);
  EXPECT_EQ(M.MaxOverlapNs, 10000u); // block 3 from 990 us, block 0 ends at 1000 us
  std::optional<TimelineModel> Model = TimelineModel{3, "test"};
  EXPECT_EQ(compareWithModel(M, Model), ModelAgreement::Agrees);
  std::string S = timelineSummary(L, M, Model);
  EXPECT_NE(S.find("model 3: agrees (a block started up to 10 us before"), std::string::npos) << S;
  // A fourth block that runs beside three for most of its time is residency.
  std::string Four = T + line("k", 0, 6, 0, 30, 900000);
  TracedLaunch L4 = readOne(Four);
  EXPECT_EQ(measureLaunch(L4, 1).MaxResident, 4u);
}

TEST(BlockTrace, TwoBlocksAtOnceOnSmZeroAnIdleSmAndATail) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, /*SmCount=*/0);
  EXPECT_EQ(M.Blocks, 4u);
  EXPECT_EQ(M.SmCount, 3u); // highest %smid + 1
  EXPECT_EQ(M.StartNs, 1000u);
  EXPECT_EQ(M.DurationNs, 200u);
  EXPECT_EQ(M.MaxResident, 2u);
  EXPECT_EQ(M.MaxResidentSm, 0u);
  EXPECT_EQ(M.Lanes[0].MaxResident, 2u);
  EXPECT_EQ(M.Lanes[2].MaxResident, 1u);
  EXPECT_EQ(M.ResidentSlots, 3u);
  ASSERT_EQ(M.IdleSms.size(), 1u);
  EXPECT_EQ(M.IdleSms[0], 1u);
  EXPECT_EQ(M.Waves, 2u); // block 2 is the second block of SM 0's first row
  // SM 2 is done at 1050: from there to 1200 the SMs go idle one after another.
  EXPECT_EQ(M.TailStartNs, 1050u);
  EXPECT_EQ(M.TailStartSm, 2u);
  EXPECT_DOUBLE_EQ(M.TailFraction, 150.0 / 200.0);
  // Busy: SM 0 200 ns, SM 2 50 ns, SM 1 none, of 3 x 200.
  EXPECT_DOUBLE_EQ(M.BusyFraction, 250.0 / 600.0);
  // Rows: block 2 reuses block 0's row (it starts when block 0 ends).
  EXPECT_EQ(L.Blocks[0].Slot, 0u);
  EXPECT_EQ(L.Blocks[1].Slot, 1u);
  EXPECT_EQ(L.Blocks[2].Slot, 0u);
  EXPECT_EQ(L.Blocks[2].Wave, 1u);
  EXPECT_EQ(L.Blocks[3].Slot, 0u);
}

TEST(BlockTrace, GivenSmCountMakesTheUnseenSmsIdle) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, 5);
  EXPECT_EQ(M.SmCount, 5u);
  EXPECT_EQ(M.IdleSms, (std::vector<unsigned>{1, 3, 4}));
  EXPECT_DOUBLE_EQ(M.BusyFraction, 250.0 / 1000.0);
}

TEST(BlockTrace, BlocksOneAfterAnotherAreNotResidentTogether) {
  TracedLaunch L =
      readOne(line("k", 0, 0, 0, 0, 10) + line("k", 0, 1, 0, 10, 20) + line("k", 0, 2, 0, 20, 30));
  LaunchMeasure M = measureLaunch(L, 1);
  EXPECT_EQ(M.MaxResident, 1u);
  EXPECT_EQ(M.Waves, 3u);
  EXPECT_DOUBLE_EQ(M.TailFraction, 0); // one SM: it is busy to the end
}

TEST(BlockTrace, LaunchesAreSplitByKernelAndLaunchField) {
  std::vector<TracedLaunch> L;
  std::string Error;
  std::string Text = line("a", 0, 0, 0, 0, 10) + "\n" + line("b", 0, 0, 1, 0, 10) +
                     line("a", 1, 0, 0, 20, 30) + line("a", 0, 1, 1, 0, 10);
  ASSERT_TRUE(readBlockTrace(Text, L, Error)) << Error;
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].Kernel, "a");
  EXPECT_EQ(L[0].Blocks.size(), 2u);
  EXPECT_EQ(L[1].Kernel, "b");
  EXPECT_EQ(L[2].Launch, 1u);
  // Without a "launch" field: launch 0; without clocks: none.
  L.clear();
  ASSERT_TRUE(readBlockTrace(
      "{\"kernel\": \"c\", \"block\": [4], \"sm\": 2, \"start_ns\": 5, \"end_ns\": 9}", L, Error));
  EXPECT_EQ(L[0].Launch, 0u);
  EXPECT_EQ(L[0].Blocks[0].Index[0], 4u);
  EXPECT_FALSE(L[0].Blocks[0].StartClock.has_value());
}

TEST(BlockTrace, BadLinesAreErrorsThatNameTheLine) {
  struct Case {
    std::string Text, Error;
  } Cases[] = {
      {"", "no block records"},
      {"{\"kernel\": \"k\"", "line 1: not JSON"},
      {"[1, 2]", "line 1: not a JSON object"},
      {line("k", 0, 0, 0, 0, 1) + "{\"block\": [0], \"sm\": 0, \"start_ns\": 0, \"end_ns\": 1}",
       "line 2: no \"kernel\" name"},
      {"{\"kernel\": \"k\", \"block\": [0], \"start_ns\": 0, \"end_ns\": 1}", "line 1: no \"sm\""},
      {"{\"kernel\": \"k\", \"block\": [0], \"sm\": -1, \"start_ns\": 0, \"end_ns\": 1}",
       "line 1: \"sm\" is not a whole number >= 0"},
      {"{\"kernel\": \"k\", \"block\": [0], \"sm\": 0, \"start_ns\": 5, \"end_ns\": 1}",
       "line 1: \"end_ns\" is before \"start_ns\""},
      {"{\"kernel\": \"k\", \"block\": [], \"sm\": 0, \"start_ns\": 5, \"end_ns\": 6}",
       "line 1: \"block\" is not an array of 1 to 3 indices"},
      {line("k", 0, 3, 0, 0, 1) + line("k", 0, 3, 1, 0, 1),
       "line 2: block [3, 0, 0] of k launch 0 appears twice"},
  };
  for (const Case &C : Cases) {
    std::vector<TracedLaunch> L;
    std::string Error;
    EXPECT_FALSE(readBlockTrace(C.Text, L, Error)) << C.Text;
    EXPECT_EQ(Error.substr(0, C.Error.size()), C.Error) << C.Text;
  }
}

TEST(Timeline, MeasuredMaximumAgainstTheModel) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, 0);
  EXPECT_EQ(compareWithModel(M, std::nullopt), ModelAgreement::NoModel);
  EXPECT_EQ(compareWithModel(M, TimelineModel{2, ""}), ModelAgreement::Agrees);
  EXPECT_EQ(compareWithModel(M, TimelineModel{1, ""}), ModelAgreement::More);
  // 4 blocks never fill 3 SMs x 3: fewer is expected.
  EXPECT_EQ(compareWithModel(M, TimelineModel{3, ""}), ModelAgreement::Fewer);
  // 6 blocks one after another on one SM, the model says 2 fit: fewer with a full wave.
  std::string Serial;
  for (unsigned I = 0; I < 6; ++I)
    Serial += line("s", 0, I, 0, I * 10, I * 10 + 10);
  TracedLaunch S = readOne(Serial);
  EXPECT_EQ(compareWithModel(measureLaunch(S, 1), TimelineModel{2, ""}), ModelAgreement::FewerFull);
}

TEST(Timeline, SummaryLineSaysWhatWasMeasured) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, 0);
  std::string S = timelineSummary(L, M, TimelineModel{2, "sm_86"});
  EXPECT_EQ(S, "k launch 0: 4 blocks on 2 of 3 SMs (idle: SM 1) in 200 ns; at most 2 blocks "
               "resident per SM measured (SM 0), model 2: agrees; 2 waves measured (model 1 "
               "(0.6667 waves of 6, the last 4 blocks)); tail 75% of the launch (from 50 ns, when SM 2 finished); SMs busy 42% "
               "of the time");
  EXPECT_NE(timelineSummary(L, M, TimelineModel{1, ""}).find("MORE than the model allows"),
            std::string::npos);
}

TEST(Timeline, DrawingHasALanePerSmABarPerBlockAndMarksWhatDisagrees) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, 4);
  SvgSheet Standalone;
  std::string Svg = renderBlockTimelineSvg(L, M, TimelineModel{1, "test"}, Standalone);
  EXPECT_EQ(count(Svg, "<g class=\"lane\""), 4u);
  EXPECT_EQ(count(Svg, "<rect class=\"blk\""), 4u);
  EXPECT_EQ(count(Svg, "<rect class=\"idle-sm\""), 2u); // SMs 1 and 3
  EXPECT_EQ(count(Svg, "<rect class=\"tail\""), 1u);
  // Block 1 is in row 1, above the model's one block per SM: red, and keyed.
  EXPECT_NE(Svg.find("data-block=\"1,0,0\" data-slot=\"1\" data-wave=\"0\""), std::string::npos);
  EXPECT_EQ(count(Svg, "fill=\"#dc2626\""), 2u); // the bar and its key
  EXPECT_NE(Svg.find("above the model"), std::string::npos);
  // Each bar names its block on hover.
  EXPECT_EQ(count(Svg, "<title>block ("), 4u);
  EXPECT_NE(Svg.find("<title>block (1,0,0) on SM 0, row 1, wave 0: "), std::string::npos);
  EXPECT_NE(Svg.find(", above the model (1 per SM)</title>"), std::string::npos);
  // The model's line in every lane.
  EXPECT_EQ(count(Svg, "<line class=\"model\""), 4u);
  // With the model at 2 nothing is red, and the line is still in every lane (the
  // measurement equals the model: it was drawn only in the legend).
  SvgSheet Other;
  std::string Agreeing = renderBlockTimelineSvg(L, M, TimelineModel{2, "test"}, Other);
  EXPECT_EQ(count(Agreeing, "fill=\"#dc2626\""), 0u);
  EXPECT_EQ(count(Agreeing, "<line class=\"model\""), 4u);
  EXPECT_EQ(count(Agreeing, "above the model"), 0u);
  // The tail starts where SM 2 finished: 50 of 200 ns across the plot.
  EXPECT_NE(Svg.find("<rect class=\"tail\" x=\""), std::string::npos);
}

TEST(Timeline, HtmlPageHasTheSummaryTableAndPicture) {
  TracedLaunch L = readOne(threeSms());
  LaunchMeasure M = measureLaunch(L, 0);
  std::string Html;
  llvm::raw_string_ostream OS(Html);
  writeTimelineHtml({TimelineEntry{&L, &M, TimelineModel{1, "sm_86 test"}}}, "t", OS);
  EXPECT_NE(Html.find("<tr class=\"disagree\"><th>resident blocks per SM (max)</th><td>2 (SM 0)"
                      "</td><td>1 (sm_86 test)</td></tr>"),
            std::string::npos);
  EXPECT_EQ(count(Html, "<svg xmlns"), 2u); // the shared definitions and the picture
  EXPECT_EQ(Html.find("<script"), std::string::npos);
}

} // namespace
