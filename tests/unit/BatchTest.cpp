//===- BatchTest.cpp - file selection, shards, jobs, merge, summary -------===//
#include "driver/run/Batch.h"
#include "driver/cache/ResultCache.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace warplint::driver;
using warplint::KernelRecord;
using warplint::LaunchRecord;
using warplint::SourcePos;

namespace {

TEST(Shard, Parse) {
  std::string Err;
  auto S = parseShard("2/4", Err);
  ASSERT_TRUE(S.has_value());
  EXPECT_EQ(S->Index, 2u);
  EXPECT_EQ(S->Count, 4u);
  EXPECT_TRUE(parseShard("1/1", Err).has_value());
  for (const char *Bad : {"0/4", "5/4", "2", "2/", "/4", "a/b", "2/0", "-1/4", "1/4x", ""}) {
    Err.clear();
    EXPECT_FALSE(parseShard(Bad, Err).has_value()) << Bad;
    EXPECT_NE(Err.find("invalid --shard"), std::string::npos) << Bad;
  }
}

std::vector<std::string> tenFiles() {
  return {"src/j.cu", "src/a.cu", "src/b.cu", "vendor/x.cu", "src/c.cu", "src/d.cu",
          "src/e.cu", "gen/f.cu", "src/g.cu", "src/h.cu",    "src/a.cu"};
}

TEST(SelectFiles, SortedUniqueFiltered) {
  FileFilter F;
  auto All = selectFiles(tenFiles(), F);
  ASSERT_EQ(All.size(), 10u);
  EXPECT_TRUE(std::is_sorted(All.begin(), All.end()));
  F.Exclude = "^(vendor|gen)/";
  EXPECT_EQ(selectFiles(tenFiles(), F).size(), 8u);
  F.Include = "/[a-c]\\.cu$";
  EXPECT_EQ(selectFiles(tenFiles(), F),
            (std::vector<std::string>{"src/a.cu", "src/b.cu", "src/c.cu"}));
}

TEST(SelectFiles, ShardsPartitionTheFiles) {
  FileFilter F;
  F.Exclude = "vendor";
  std::set<std::string> Seen;
  size_t Total = 0;
  for (unsigned K = 1; K <= 3; ++K) {
    F.Shard = {K, 3};
    auto Part = selectFiles(tenFiles(), F);
    EXPECT_GE(Part.size(), 3u);
    EXPECT_LE(Part.size(), 3u);
    Total += Part.size();
    Seen.insert(Part.begin(), Part.end());
  }
  EXPECT_EQ(Total, 9u);
  EXPECT_EQ(Seen.size(), 9u);
  EXPECT_EQ(Seen.count("vendor/x.cu"), 0u);
}

TEST(SelectFiles, InvalidRegexIsReported) {
  FileFilter F;
  std::string Err;
  EXPECT_TRUE(validateFilter(F, Err));
  F.Exclude = "src/(";
  EXPECT_FALSE(validateFilter(F, Err));
  EXPECT_NE(Err.find("invalid --exclude regular expression 'src/('"), std::string::npos) << Err;
}

TEST(RunJobs, SameResultsWhateverTheJobs) {
  for (unsigned Jobs : {1u, 2u, 4u, 16u}) {
    std::vector<int> Out(50, -1);
    std::vector<size_t> DoneSeq;
    runJobs(
        Out.size(), Jobs,
        [&](size_t I) {
          // Uneven work so that completion order differs from index order.
          std::this_thread::sleep_for(std::chrono::microseconds((I * 7919) % 300));
          Out[I] = int(I * I);
        },
        [&](size_t, size_t Done) { DoneSeq.push_back(Done); });
    for (size_t I = 0; I < Out.size(); ++I)
      EXPECT_EQ(Out[I], int(I * I)) << "jobs " << Jobs;
    ASSERT_EQ(DoneSeq.size(), Out.size());
    for (size_t I = 0; I < DoneSeq.size(); ++I)
      EXPECT_EQ(DoneSeq[I], I + 1);
  }
}

TEST(RunJobs, RunsConcurrently) {
  std::atomic<int> Running{0}, Peak{0};
  runJobs(
      8, 4,
      [&](size_t) {
        int Now = ++Running;
        int P = Peak.load();
        while (Now > P && !Peak.compare_exchange_weak(P, Now))
          ;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        --Running;
      },
      [](size_t, size_t) {});
  EXPECT_GT(Peak.load(), 1);
  EXPECT_LE(Peak.load(), 4);
}

TEST(Progress, OnlyWhenEnabled) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  ProgressLine Off(OS, false, 3);
  Off.update(1, "a.cu");
  Off.finish();
  EXPECT_EQ(S, "");
  ProgressLine On(OS, true, 240);
  On.update(12, "src/foo.cu");
  EXPECT_EQ(S, "\r[12/240] src/foo.cu");
  On.update(13, "b.cu");
  EXPECT_EQ(S.substr(S.rfind('\r') + 1), "[13/240] b.cu");
  On.finish();
  EXPECT_EQ(S.back(), '\r');
}

Finding finding(std::string File, unsigned Line, std::string Check,
                Severity Level = Severity::Warning) {
  Finding F;
  F.Pos = {std::move(File), Line, 1};
  F.Check = std::move(Check);
  F.Level = Level;
  F.Message = "m";
  return F;
}

TEST(ExitCode, FailedFilesThenFindings) {
  RunResult R;
  R.Findings = {finding("a.cu", 1, "warplint-a", Severity::Error)};
  EXPECT_EQ(exitCodeFor(R, /*AnyFindingFails=*/false), 1);
  RunResult Warn;
  Warn.Findings = {finding("a.cu", 1, "warplint-a")};
  EXPECT_EQ(exitCodeFor(Warn, false), 0);
  EXPECT_EQ(exitCodeFor(Warn), 1);
  EXPECT_EQ(exitCodeFor(RunResult{}), 0);
  Warn.FilesFailed = {"b.cu"};
  EXPECT_EQ(exitCodeFor(Warn), 2);
}

TEST(ExitCode, FilesWithErrorsAreTwoUnlessAllowed) {
  RunResult R;
  R.FilesAnalysed = {"a.cu"};
  R.FilesWithErrors = {"a.cu"};
  R.Findings = {finding("a.cu", 3, "clang-diagnostic-error", Severity::Error)};
  EXPECT_EQ(exitCodeFor(R), 2);
  // Allowed: clang's errors do not count; the checks' findings do.
  EXPECT_EQ(exitCodeFor(R, true, /*AllowErrors=*/true), 0);
  R.Findings.push_back(finding("a.cu", 5, "warplint-a"));
  EXPECT_EQ(exitCodeFor(R, true, true), 1);
  EXPECT_EQ(exitCodeFor(R, false, true), 0);
  R.Findings.push_back(finding("a.cu", 7, "warplint-b", Severity::Error));
  EXPECT_EQ(exitCodeFor(R, false, true), 1);
  // A file that failed still makes it 2.
  R.FilesFailed = {"b.cu"};
  EXPECT_EQ(exitCodeFor(R, true, true), 2);
}

TEST(MergeResults, SortedAndDeduplicated) {
  RunResult A, B;
  A.Findings = {finding("z.cu", 5, "warplint-a"), finding("common.cuh", 3, "warplint-b")};
  A.FilesAnalysed = {"a.cu"};
  B.Findings = {finding("common.cuh", 3, "warplint-b"), finding("b.cu", 9, "warplint-a"),
                finding("b.cu", 2, "warplint-c")};
  B.FilesAnalysed = {"b.cu"};
  B.FilesFailed = {"c.cu"};
  RunResult M = mergeResults({A, B});
  ASSERT_EQ(M.Findings.size(), 4u);
  EXPECT_EQ(M.Findings[0].Pos.File, "b.cu");
  EXPECT_EQ(M.Findings[0].Pos.Line, 2u);
  EXPECT_EQ(M.Findings[1].Pos.Line, 9u);
  EXPECT_EQ(M.Findings[2].Pos.File, "common.cuh");
  EXPECT_EQ(M.Findings[3].Pos.File, "z.cu");
  EXPECT_EQ(M.FilesAnalysed, (std::vector<std::string>{"a.cu", "b.cu"}));
  EXPECT_EQ(M.FilesFailed, (std::vector<std::string>{"c.cu"}));
  EXPECT_TRUE(M.FilesWithErrors.empty());
  B.FilesWithErrors = {"b.cu"};
  EXPECT_EQ(mergeResults({A, B}).FilesWithErrors, (std::vector<std::string>{"b.cu"}));
  B.FilesWithErrors.clear();
  // Merging in the other order gives the same result.
  RunResult N = mergeResults({B, A});
  ASSERT_EQ(N.Findings.size(), M.Findings.size());
  for (size_t I = 0; I < M.Findings.size(); ++I)
    EXPECT_EQ(N.Findings[I].Pos.File + std::to_string(N.Findings[I].Pos.Line),
              M.Findings[I].Pos.File + std::to_string(M.Findings[I].Pos.Line));
}

TEST(Summary, CountsByCheck) {
  RunResult R;
  R.Findings = {finding("a.cu", 1, "warplint-b"), finding("a.cu", 2, "warplint-a"),
                finding("a.cu", 3, "warplint-b")};
  R.FilesAnalysed = {"a.cu", "b.cu"};
  R.FilesFailed = {"c.cu"};
  std::string S;
  llvm::raw_string_ostream OS(S);
  printSummary(R, std::chrono::milliseconds(12345), OS);
  EXPECT_EQ(S, "warplint: 2 files analysed, 1 failed, 3 findings (warplint-a: 1, "
               "warplint-b: 2) in 12.3 s\n");
  S.clear();
  printSummary(RunResult{{}, {}, {"a.cu"}, {}}, std::chrono::seconds(0), OS);
  EXPECT_EQ(S, "warplint: 1 file analysed, 0 failed, 0 findings in 0.0 s\n");
  S.clear();
  R.FilesWithErrors = {"b.cu"};
  printSummary(R, std::chrono::milliseconds(12345), OS);
  EXPECT_EQ(S, "warplint: 2 files analysed (1 with errors), 1 failed, 3 findings "
               "(warplint-a: 1, warplint-b: 2) in 12.3 s\n");
}

} // namespace

namespace {

// What a checking child sends its parent (resultToLines) reads back as the same result:
// every kind of record, the run's messages and file lists, and the two fields the cache's
// JSON leaves out (FromCache, RegistersNotCached); a damaged stream is refused.
TEST(ResultLines, RoundTrip) {
  RunResult R;
  Finding F;
  F.Check = "warplint-x";
  F.Pos = {"/p/k.cu", 3, 4};
  // Everything the child's own JSON writer escapes, and UTF-8 it passes through.
  F.Message = "two\nlines, a \"quote\", a back\\slash, \x01, \x7f, \xc3\xa9 and a tab\t";
  F.Notes.push_back({{"/p/k.cu", 2, 1}, "note"});
  R.Findings.push_back(F);
  LaunchRecord L;
  L.Pos = {"/p/k.cu", 9, 3};
  L.Kernel = "k";
  L.Block = std::array<uint64_t, 3>{128, 1, 1};
  L.Occupancy = 1.0 / 3; // a double that must read back to the same bits
  R.Launches.push_back(L);
  KernelRecord K;
  K.Name = "k";
  K.File = "/p/k.cu";
  R.Kernels.push_back(K);
  warplint::BranchRecord B;
  B.Pos = {"/p/k.cu", 5, 7};
  B.Kernel = "k";
  B.Kind = "if";
  R.Branches.push_back(B);
  R.Branches.push_back(B);
  R.Branches.back().Pos.Line = 6;
  R.Messages.push_back({Severity::Note, "a run message"});
  R.FilesAnalysed = {"/p/k.cu"};
  R.FilesWithErrors = {"/p/k.cu"};
  R.FilesFailed = {"/p/bad.cu"};
  R.RegistersNotCached = {"/p/k.cu"};
  R.FromCache = 1;
  std::string Lines = resultToLines(R);
  std::optional<RunResult> Back = resultFromLines(Lines);
  ASSERT_TRUE(Back);
  EXPECT_EQ(resultToJson(*Back), resultToJson(R));
  EXPECT_EQ(Back->FromCache, 1u);
  EXPECT_EQ(Back->RegistersNotCached, R.RegistersNotCached);
  ASSERT_EQ(Back->Findings.size(), 1u);
  EXPECT_EQ(Back->Findings[0].Message, F.Message);
  ASSERT_EQ(Back->Branches.size(), 2u);
  EXPECT_EQ(Back->Branches[1].Pos.Line, 6u);
  // An empty result is the last line alone, and reads back as one.
  EXPECT_EQ(resultToLines(RunResult()), "e true\n");
  ASSERT_TRUE(resultFromLines("e true\n"));
  EXPECT_TRUE(resultFromLines("e true\n")->Findings.empty());
  // A stream cut inside a record or between two (the child stopped writing), something
  // after the end, an unknown tag, a record of the wrong shape: refused.
  EXPECT_FALSE(resultFromLines(Lines.substr(0, Lines.size() / 2)));
  EXPECT_FALSE(resultFromLines(Lines.substr(0, Lines.find('\n') + 1)));
  EXPECT_FALSE(resultFromLines(""));
  EXPECT_FALSE(resultFromLines(Lines + "A \"/p/x.cu\"\n"));
  EXPECT_FALSE(resultFromLines("x {}\n"));
  EXPECT_FALSE(resultFromLines("l []\n"));
  EXPECT_FALSE(resultFromLines("A 3\n"));
}

} // namespace
