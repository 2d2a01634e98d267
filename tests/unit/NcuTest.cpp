//===- NcuTest.cpp - Nsight Compute CSV reader and the report's measured rows ===//
//
// The CSV files in tests/Inputs/ncu are written by hand to the layout of ncu's CSV export
// (header row, units row for --page raw, a row per launch; or a row per metric for the
// details page): they test the reader, not ncu.
//
//===----------------------------------------------------------------------------===//
#include "driver/measure/NcuCsv.h"
#include "driver/report/HtmlReport.h"

#include "model/Records.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace warplint::driver;
using warplint::KernelBranchEfficiency;
using warplint::KernelRecord;
using warplint::LaunchRecord;
using warplint::predictedKernelBranchEfficiency;

namespace {

std::string input(const char *Name) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(WARPLINT_NCU_INPUTS) + "/" + Name);
  EXPECT_TRUE(bool(Buf)) << Name;
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::vector<NcuLaunch> readFixture(const char *Name) {
  std::vector<NcuLaunch> L;
  std::string Error;
  EXPECT_TRUE(readNcuCsv(input(Name), L, Error)) << Error;
  return L;
}

TEST(NcuCsv, RawPageOneRowPerLaunchWithUnits) {
  std::vector<NcuLaunch> L = readFixture("report-kernels.raw.csv");
  ASSERT_EQ(L.size(), 5u);
  EXPECT_EQ(L[0].Id, 0u);
  EXPECT_EQ(L[0].KernelName, "stencil(float *, const float *)");
  ASSERT_TRUE(L[0].Block && L[0].Grid);
  EXPECT_EQ(*L[0].Block, (std::array<uint64_t, 3>{256, 1, 1}));
  EXPECT_EQ(*L[0].Grid, (std::array<uint64_t, 3>{1000, 1, 1}));
  EXPECT_EQ(L[0].Cc, "8.6");
  EXPECT_EQ(L[0].number("launch__registers_per_thread"), 80);
  // 40.96 Kbyte in base units; "12,000" with ncu's thousands separator.
  EXPECT_EQ(L[0].number("launch__shared_mem_per_block_dynamic"), 40960);
  EXPECT_EQ(L[0].Metrics.at("launch__shared_mem_per_block_dynamic").Unit, "Kbyte");
  EXPECT_EQ(L[0].number("smsp__sass_branch_targets.sum"), 12000);
  EXPECT_EQ(L[1].number("sm__warps_active.avg.pct_of_peak_sustained_active"), 8.21);
  EXPECT_EQ(*L[4].Block, (std::array<uint64_t, 3>{32, 8, 1}));
  // Descriptive columns are not metrics.
  EXPECT_EQ(L[0].Metrics.count("Process Name"), 0u);
  EXPECT_FALSE(L[0].number("no__such_metric"));
}

TEST(NcuCsv, DetailsPageOneRowPerMetric) {
  std::vector<NcuLaunch> L = readFixture("divergence.details.csv");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].KernelName, "mathKernel1(float *)");
  EXPECT_EQ(L[0].number("smsp__sass_average_branch_targets_threads_uniform.pct"), 80);
  EXPECT_EQ(L[0].number("smsp__sass_branch_targets_threads_divergent.sum"), 2);
  EXPECT_EQ(L[1].number("smsp__sass_branch_targets.sum"), 9);
  EXPECT_EQ(L[1].Metrics.size(), 3u);
}

// The details page as newer ncu versions write it: the rule columns after the metric's,
// rows of a rule with no metric, a launch's block and grid in parentheses, numbers with
// thousands separators, and ncu's own lines before the header.
TEST(NcuCsv, DetailsPageWithRuleColumns) {
  std::string Csv =
      "==PROF== Connected to process 4242\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
      "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
      "\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\","
      "\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n"
      "\"0\",\"4242\",\"app\",\"h\",\"k(float *)\",\"1\",\"7\",\"(256, 1, 1)\","
      "\"(1024, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
      "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"61.27\",\"\",\"\","
      "\"\",\"\",\"\"\n"
      "\"0\",\"4242\",\"app\",\"h\",\"k(float *)\",\"1\",\"7\",\"(256, 1, 1)\","
      "\"(1024, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\","
      "\"smsp__sass_branch_targets.sum\",\"\",\"1,048,576\",\"\",\"\",\"\",\"\",\"\"\n"
      "\"0\",\"4242\",\"app\",\"h\",\"k(float *)\",\"1\",\"7\",\"(256, 1, 1)\","
      "\"(1024, 1, 1)\",\"0\",\"9.0\",\"Occupancy\",\"\",\"\",\"\",\"AchievedOccupancy\","
      "\"OPT\",\"The difference between calculated theoretical and measured achieved "
      "occupancy ...\",\"local\",\"38.73\"\n";
  std::vector<NcuLaunch> L;
  std::string Error;
  ASSERT_TRUE(readNcuCsv(Csv, L, Error)) << Error;
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Cc, "9.0");
  ASSERT_TRUE(L[0].Block && L[0].Grid);
  EXPECT_EQ(*L[0].Grid, (std::array<uint64_t, 3>{1024, 1, 1}));
  EXPECT_EQ(L[0].number("sm__warps_active.avg.pct_of_peak_sustained_active"), 61.27);
  EXPECT_EQ(L[0].number("smsp__sass_branch_targets.sum"), 1048576);
  // The rule's row is not a metric (it had been stored under an empty name).
  EXPECT_EQ(L[0].Metrics.size(), 2u);
  EXPECT_EQ(L[0].Metrics.count(""), 0u);
}

TEST(NcuCsv, BadFilesAreErrors) {
  struct Case {
    std::string Text, Error;
  } Cases[] = {
      {"", "no Nsight Compute CSV header"},
      {"==PROF== nothing profiled\n", "no Nsight Compute CSV header"},
      {"\"ID\",\"Kernel Name\",\"a__b\"\n", "no profiled launch"},
      {"\"ID\",\"Block Size\"\n\"0\",\"(1, 1, 1)\"\n",
       "line 1: ncu's header has no \"Kernel Name\""},
      // Found by MeasuredReadersFuzzer: a line that starts like the header, no ID column
      // (the reader indexed the row with -1).
      {"\"ID\"x\"Kernel Name\"\n\"0\",\"k()\"\n", "line 1: ncu's header has no \"ID\" column"},
      {"\"ID\",\"Kernel Name\",\"a__b\"\n\"0\",\"k()\"\n",
       "line 2: 2 fields, the header (line 1) has 3"},
      {"\"ID\",\"Kernel Name\",\"a__b\"\n\"x\",\"k()\",\"1\"\n", "line 2: ID 'x' is not a number"},
      {"\"ID\",\"Kernel Name\",\"a__b\"\n\"0\",\"k()\",\"1\"\n\"0\",\"k()\",\"2\"\n",
       "line 3: launch ID 0 appears twice"},
      {"\"ID\",\"Kernel Name\",\"a__b\"\n\"0\",\"k(),1\n", "line 2: an unclosed quote"},
      // Figures no counter reaches (issue 27): they became -9223372036854775808 in the
      // report, and "ncu and warplint disagree" lines followed; a negative count passed.
      {"\"ID\",\"Kernel Name\",\"launch__shared_mem_per_block_dynamic\"\n\"\",\"\",\"Kbyte\"\n"
       "\"0\",\"k()\",\"1e308\"\n",
       "line 3: launch ID 0, column \"launch__shared_mem_per_block_dynamic\": '1e308 Kbyte' is "
       "out of range (beyond 2^53)"},
      {"\"ID\",\"Kernel Name\",\"launch__occupancy_limit_registers\"\n\"\",\"\",\"block\"\n"
       "\"0\",\"k()\",\"99999999999999999999\"\n",
       "line 3: launch ID 0, column \"launch__occupancy_limit_registers\": "
       "'99999999999999999999 block' is out of range (beyond 2^53)"},
      {"\"ID\",\"Kernel Name\",\"launch__registers_per_thread\"\n\"\",\"\",\"register/thread\"\n"
       "\"0\",\"k()\",\"-5\"\n",
       "line 3: launch ID 0, column \"launch__registers_per_thread\": '-5 register/thread' is "
       "out of range (a negative count)"},
      {"\"ID\",\"Kernel Name\",\"Block Size\",\"a__b\"\n"
       "\"0\",\"k()\",\"(99999999999999999999, 1, 1)\",\"1\"\n",
       "line 2: launch ID 0, column \"Block Size\": '(99999999999999999999, 1, 1)' is not three "
       "whole numbers in range"},
      // The details page: the metric's name is the column.
      {"\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
       "\"0\",\"k()\",\"launch__registers_per_thread\",\"register/thread\",\"-5\"\n",
       "line 2: launch ID 0, column \"launch__registers_per_thread\": '-5 register/thread'"},
  };
  for (const Case &C : Cases) {
    std::vector<NcuLaunch> L;
    std::string Error;
    EXPECT_FALSE(readNcuCsv(C.Text, L, Error)) << C.Text;
    EXPECT_EQ(Error.substr(0, C.Error.size()), C.Error) << C.Text;
  }
}

TEST(NcuCsv, KernelKeysMatchSourceNames) {
  EXPECT_EQ(ncuKernelKey("stencil(float *, const float *)"), "stencil");
  EXPECT_EQ(ncuKernelKey("void transposeTile<32>(float *, const float *)"), "transposeTile<32>");
  // A bool template argument: ncu prints 1, clang true (tests/Inputs/gpu/h200/ncu-occupancy.csv).
  EXPECT_EQ(ncuKernelKey("void regLimited<2, 1>(float *, float, Slots)"),
            sourceKernelKey("regLimited<2, true>"));
  EXPECT_EQ(sourceKernelKey("k<false, trueish>"), "k<0,trueish>");
  EXPECT_EQ(ncuKernelKey("void ns::reduce<256u, float>(float *, float *)"),
            "ns::reduce<256,float>");
  EXPECT_EQ(sourceKernelKey("ns::reduce<256U, float>"), "ns::reduce<256,float>");
  EXPECT_EQ(ncuKernelKey("(anonymous namespace)::k(int)"),
            sourceKernelKey("(anonymous namespace)::k"));
  EXPECT_EQ(ncuKernelKey("_Z7stencilPfPKf"), "_Z7stencilPfPKf");
  EXPECT_EQ(ncuKernelKey("scale"), "scale");
  EXPECT_EQ(sourceKernelKey("vec2u"), "vec2u"); // an identifier's u stays
  EXPECT_EQ(withoutTemplateArgs("ns::reduce<256,float>"), "ns::reduce");
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
  warplint::setFigures(L, *A, Res, Shape,
                       warplint::evaluateLaunch(*A, Res, Shape, L.Registers.has_value()),
                       L.Registers.has_value());
}

LaunchRecord launch(const char *Kernel, unsigned Line, std::array<uint64_t, 3> Block,
                    std::optional<std::array<uint64_t, 3>> Grid, uint64_t Dynamic,
                    std::optional<unsigned> Registers) {
  LaunchRecord L;
  L.Pos = {"/proj/kernels.cu", Line, 3};
  L.Kernel = Kernel;
  L.Api = "triple-chevron";
  L.Block = Block;
  L.Grid = Grid;
  L.DynamicSmemBytes = Dynamic;
  L.StaticSmemBytes = 0;
  L.Registers = Registers;
  if (Registers)
    L.RegistersSource = "ptxas log 'kernels.ptxas.log'";
  L.Arch = "sm_86";
  evaluate(L);
  return L;
}

/// tests/Inputs/report/kernels.cu as the model records it with its ptxas log (scale's
/// registers not in the log), and the divergence finding in oddEven.
warplint::driver::RunResult reportKernels() {
  RunResult R;
  R.Launches.push_back(launch("stencil", 26, {256, 1, 1}, {{1000, 1, 1}}, 40 * 1024, 72));
  R.Launches.push_back(launch("oddEven", 27, {128, 1, 1}, {{64, 1, 1}}, 0, 128));
  R.Launches.push_back(launch("scale", 28, {256, 1, 1}, std::nullopt, 0, std::nullopt));
  KernelRecord K;
  K.Name = "oddEven";
  K.File = "/proj/kernels.cu";
  K.BeginLine = 11;
  K.EndLine = 17;
  R.Kernels.push_back(K);
  Finding F;
  F.Check = "warplint-divergent-branch";
  F.Pos = {"/proj/kernels.cu", 13, 7};
  F.Message = "branch on 'Tid' diverges in 4 of 4 warps of kernel 'oddEven' (block 128x1x1); "
              "predicted branch efficiency 0%";
  R.Findings.push_back(F);
  warplint::BranchRecord B; // the model's record of that branch
  B.Pos = F.Pos;
  B.Kernel = "oddEven";
  B.Kind = "if";
  B.Severity = "warning";
  warplint::BranchShapeRecord S;
  S.Block = {128, 1, 1};
  S.Evaluated = true;
  S.DivergentWarps = S.Warps = 4;
  S.WorstEfficiency = S.BestEfficiency = 0;
  B.Shapes = {S};
  B.Worst = 0;
  R.Branches.push_back(B);
  R.FilesAnalysed = {"/proj/kernels.cu"};
  return R;
}

const ReportKernel &card(const ReportPage &P, const std::string &Kernel) {
  for (const ReportKernel &K : P.Kernels)
    if (K.Kernel == Kernel)
      return K;
  static ReportKernel None;
  ADD_FAILURE() << "no card for " << Kernel;
  return None;
}

const MeasuredRow *rowOf(const MeasuredGroup &G, const std::string &What) {
  for (const MeasuredRow &R : G.Rows)
    if (R.What == What)
      return &R;
  return nullptr;
}

TEST(NcuReport, LaunchesMatchedByNameAndShapeWithEveryDisagreementALine) {
  RunResult Result = reportKernels();
  ReportPage Page = buildReport(Result, ReportOptions{});
  addNcuMeasurements(Page, Result, readFixture("report-kernels.raw.csv"), "ncu.csv");
  EXPECT_EQ(Page.MeasuredLaunches, 5u);
  ASSERT_EQ(Page.MeasuredUnmatched.size(), 1u);
  EXPECT_NE(Page.MeasuredUnmatched[0].find("ID 4 of 'void transposeTile<32>"), std::string::npos);

  // stencil: launches 0 and 3 (same shape) in one group, in launch order; ncu's 80
  // registers against the log's 72 is the one disagreement (blocks per SM agree: 2).
  const ReportKernel &Stencil = card(Page, "stencil");
  ASSERT_EQ(Stencil.Measured.size(), 1u);
  const MeasuredGroup &S = Stencil.Measured[0];
  EXPECT_EQ(S.Title, "2 launches (ncu IDs 0, 3): block 256 x 1 x 1, grid 1000 x 1 x 1, cc 8.6");
  EXPECT_EQ(S.Matched, "/proj/kernels.cu:26:3 (by name, block and grid)");
  ASSERT_EQ(S.Defects.size(), 1u) << S.Defects[0];
  EXPECT_EQ(S.Defects[0], "ncu and warplint disagree on registers per thread: warplint 72 "
                          "(ptxas log 'kernels.ptxas.log'), ncu 80");
  EXPECT_EQ(rowOf(S, "blocks per SM")->Ours, "2");
  EXPECT_EQ(rowOf(S, "blocks per SM")->Ncu, "2");
  EXPECT_EQ(rowOf(S, "blocks per SM allowed by shared memory")->Ncu, "2");
  EXPECT_EQ(rowOf(S, "theoretical occupancy")->Ours, "33.3%");
  EXPECT_EQ(rowOf(S, "theoretical occupancy")->Ncu, "33.3%");
  EXPECT_EQ(rowOf(S, "achieved occupancy")->Ncu, "31.1% mean (30.9% to 31.3%, 2 launches)");

  // oddEven: agrees; branch efficiency 0% predicted (its one branch record) against 80%
  // measured.
  const MeasuredGroup &O = card(Page, "oddEven").Measured.at(0);
  EXPECT_TRUE(O.Defects.empty()) << O.Defects[0];
  EXPECT_EQ(rowOf(O, "branch efficiency (uniform branch targets)")->Ours,
            "0% over 1 thread-dependent branch (weighted by the warps reaching each)");
  EXPECT_EQ(rowOf(O, "branch efficiency (uniform branch targets)")->Ncu, "80%");
  EXPECT_EQ(rowOf(O, "divergent branch targets")->Ncu, "256 of 1280");

  // scale: grid not known in the source, matched by block; registers not counted (no
  // disagreement on them). ncu's shared-memory limit is 16, the SM's block slots; ours, 100,
  // is above them: real ncu reports every limit at most the block slots (barriers 32 on
  // sm_90, tests/Inputs/gpu/h200), so ours is capped the same way and the two agree.
  const MeasuredGroup &Sc = card(Page, "scale").Measured.at(0);
  EXPECT_EQ(Sc.Matched, "/proj/kernels.cu:28:3 (by name, block (grid not known in the source))");
  EXPECT_TRUE(Sc.Defects.empty()) << Sc.Defects[0];
  EXPECT_EQ(rowOf(Sc, "blocks per SM allowed by shared memory")->Ours,
            "100 (at most 16 blocks per SM)");
  EXPECT_EQ(rowOf(Sc, "registers per thread")->Ours, "not counted");
  EXPECT_FALSE(rowOf(Sc, "registers per thread")->Disagrees);
  EXPECT_EQ(rowOf(Sc, "blocks per SM allowed by registers")->Ours, "no limit");
  EXPECT_EQ(Page.MeasuredDefects, 1u);

  // The page shows every defect line and the unmatched launch.
  std::string Html;
  llvm::raw_string_ostream OS(Html);
  writeHtmlReport(Page, OS);
  size_t Defects = 0;
  for (size_t At = Html.find("<p class=\"defect\">"); At != std::string::npos;
       At = Html.find("<p class=\"defect\">", At + 1))
    ++Defects;
  EXPECT_EQ(Defects, 2u); // one disagreement, one unmatched launch
  EXPECT_NE(Html.find("<tr class=\"disagree\"><th>registers per thread</th>"), std::string::npos);
}

TEST(NcuReport, ModelDisagreementOnNcusOwnInputsIsItsOwnDefect) {
  RunResult Result = reportKernels();
  ReportPage Page = buildReport(Result, ReportOptions{});
  std::vector<NcuLaunch> Ncu = readFixture("report-kernels.raw.csv");
  // oddEven: ncu says 5 blocks by registers (it is 4 for 128 registers x 128 threads).
  Ncu[1].Metrics["launch__occupancy_limit_registers"].Number = 5;
  addNcuMeasurements(Page, Result, Ncu, "ncu.csv");
  const MeasuredGroup &O = card(Page, "oddEven").Measured.at(0);
  // The limit, the blocks per SM it gives, and the model on ncu's own inputs (the same
  // registers, so the disagreement is the model's, not the inputs').
  ASSERT_EQ(O.Defects.size(), 3u);
  EXPECT_EQ(O.Defects[0], "ncu and warplint disagree on blocks per SM allowed by registers: "
                          "warplint 4, ncu 5");
  EXPECT_EQ(O.Defects[1], "ncu and warplint disagree on blocks per SM: warplint 4, ncu 5");
  EXPECT_EQ(O.Defects[2], "warplint's occupancy model disagrees with ncu on ncu's own inputs: "
                          "warplint 4 blocks/SM, 33.3%, ncu 5 blocks/SM, 33.3%");
  // A different arch than the analysis: said first.
  Ncu[1].Metrics["launch__occupancy_limit_registers"].Number = 4;
  Ncu[1].Cc = "9.0";
  ReportPage Other = buildReport(Result, ReportOptions{});
  addNcuMeasurements(Other, Result, Ncu, "ncu.csv");
  const MeasuredGroup &H = card(Other, "oddEven").Measured.at(0);
  ASSERT_FALSE(H.Defects.empty());
  EXPECT_EQ(H.Defects[0].substr(0, 45), "analysed for sm_86, profiled on cc 9.0 (sm_90");
}

TEST(NcuReport, SharedMemoryLimitAtNcusCarveoutIsNotCappedAtTheBlockSlots) {
  // convolutionSeparable's convolutionRowsKernel on an H200 (tests/Inputs/gpu/h200): 2560
  // bytes static + the 1 KiB the driver reserves = 3584 allocated (a multiple of 128); at
  // the 132 KiB carveout ncu chose that is 37 blocks, above the 32 block slots, and ncu
  // says 37 (its barrier, block, register and warp limits say 32).
  RunResult Result;
  LaunchRecord L;
  L.Pos = {"/proj/convolutionSeparable.cu", 60, 3};
  L.Kernel = "convolutionRowsKernel";
  L.Api = "triple-chevron";
  L.Block = {16, 4, 1};
  L.Grid = {{24, 768, 1}};
  L.DynamicSmemBytes = 0;
  L.StaticSmemBytes = 2560;
  L.Registers = 32;
  L.RegistersSource = "ptxas log 'convolutionSeparable.ptxas.log'";
  L.Arch = "sm_90";
  evaluate(L);
  Result.Launches.push_back(L);
  Result.FilesAnalysed = {"/proj/convolutionSeparable.cu"};
  NcuLaunch N;
  N.Id = 0;
  N.KernelName = "convolutionRowsKernel(float *, float *, int, int, int)";
  N.Block = {16, 4, 1};
  N.Grid = {{24, 768, 1}};
  N.Cc = "9.0";
  auto Set = [&](const char *Metric, double V) { N.Metrics[Metric].Number = V; };
  Set("launch__registers_per_thread", 32);
  Set("launch__shared_mem_per_block_static", 2560);
  Set("launch__shared_mem_per_block_dynamic", 0);
  Set("launch__shared_mem_per_block_allocated", 3584);
  Set("launch__shared_mem_config_size", 135168);
  Set("launch__occupancy_limit_blocks", 32);
  Set("launch__occupancy_limit_registers", 32);
  Set("launch__occupancy_limit_shared_mem", 37);
  Set("launch__occupancy_limit_warps", 32);
  Set("sm__maximum_warps_per_active_cycle_pct", 100);
  ReportPage Page = buildReport(Result, ReportOptions{});
  addNcuMeasurements(Page, Result, {N}, "ncu.csv");
  const MeasuredGroup &G = card(Page, "convolutionRowsKernel").Measured.at(0);
  EXPECT_TRUE(G.Defects.empty()) << G.Defects[0];
  const MeasuredRow *Smem = rowOf(G, "blocks per SM allowed by shared memory");
  ASSERT_TRUE(Smem);
  EXPECT_EQ(Smem->Ours, "37 (at ncu's 132 KiB carveout)");
  EXPECT_EQ(Smem->Ncu, "37");
  EXPECT_FALSE(Smem->Disagrees);
  EXPECT_EQ(rowOf(G, "blocks per SM")->Ours, "32");
  // Where ncu's figure is within the block slots, ours is capped the same way.
  N.Metrics["launch__occupancy_limit_shared_mem"].Number = 32;
  ReportPage Capped = buildReport(Result, ReportOptions{});
  addNcuMeasurements(Capped, Result, {N}, "ncu.csv");
  const MeasuredGroup &C = card(Capped, "convolutionRowsKernel").Measured.at(0);
  EXPECT_TRUE(C.Defects.empty()) << C.Defects[0];
  EXPECT_EQ(rowOf(C, "blocks per SM allowed by shared memory")->Ours,
            "37 (at ncu's 132 KiB carveout)");
  EXPECT_FALSE(rowOf(C, "blocks per SM allowed by shared memory")->Disagrees);
}

TEST(NcuReport, FiguresNoGpuHasAreNotGivenToTheModel) {
  RunResult Result = reportKernels();
  ReportPage Page = buildReport(Result, ReportOptions{});
  std::vector<NcuLaunch> Ncu = readFixture("report-kernels.raw.csv");
  Ncu[1].Metrics["launch__registers_per_thread"].Number = 1e12;
  addNcuMeasurements(Page, Result, Ncu, "ncu.csv");
  const MeasuredGroup &O = card(Page, "oddEven").Measured.at(0);
  EXPECT_EQ(O.Notes.back(), "ncu's registers, shared memory or block are out of range: "
                            "warplint's model was not run on them");
  EXPECT_EQ(rowOf(O, "registers per thread")->Ncu, "1000000000000");
  EXPECT_TRUE(rowOf(O, "registers per thread")->Disagrees);
}

// The kernel's predicted branch efficiency comes from its branch records, weighted by the
// warps that reach each branch, at the profiled block's shape.
TEST(NcuReport, PredictedBranchEfficiencyIsWeightedOverTheRecords) {
  auto Shape = [](unsigned X, uint64_t D, uint64_t W, double E) {
    warplint::BranchShapeRecord S;
    S.Block = {X, 1, 1};
    S.Evaluated = true;
    S.DivergentWarps = D;
    S.Warps = W;
    S.WorstEfficiency = S.BestEfficiency = E;
    return S;
  };
  warplint::BranchRecord A; // 8 of 8 warps diverge at 256 threads, 4 of 4 at 128
  A.Shapes = {Shape(256, 8, 8, 0.0), Shape(128, 4, 4, 0.0)};
  A.Worst = 0;
  warplint::BranchRecord B; // reached by 24 warp executions, 25% of them split
  B.Shapes = {Shape(256, 6, 24, 0.75), Shape(128, 3, 12, 0.75)};
  B.Worst = 0;
  warplint::BranchRecord C; // a bounds guard: silent, not evaluated
  C.Severity = "silent";
  C.Idiom = "bounds-guard";
  KernelBranchEfficiency K =
      predictedKernelBranchEfficiency({A, B, C}, std::array<uint64_t, 3>{128, 1, 1});
  EXPECT_EQ(K.Branches, 2u);
  EXPECT_EQ(K.Unevaluated, 1u);
  EXPECT_EQ(K.Warps, 16u);
  EXPECT_DOUBLE_EQ(K.Efficiency, (4 * 0.0 + 12 * 0.75) / 16);
  KernelBranchEfficiency None = predictedKernelBranchEfficiency({C}, std::nullopt);
  EXPECT_EQ(None.Branches, 0u);
  EXPECT_DOUBLE_EQ(None.Efficiency, 1.0);
}

} // namespace
