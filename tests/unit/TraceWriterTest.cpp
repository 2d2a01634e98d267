//===- TraceWriterTest.cpp - warplint/trace.cuh's JSON-lines writer, host only -===//
#include <warplint/trace.cuh>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using warplint::trace::BlockRecord;
using warplint::trace::WriteResult;

namespace {

/// What writeJsonLines writes for these records, through a temporary FILE.
std::string written(const char *Kernel, const std::vector<BlockRecord> &Records, unsigned Launch,
                    WriteResult &R) {
  std::FILE *F = std::tmpfile();
  EXPECT_NE(F, nullptr);
  R = warplint::trace::writeJsonLines(F, Kernel, Records.data(), Records.size(), Launch);
  std::string Text;
  std::rewind(F);
  for (int C; (C = std::fgetc(F)) != EOF;)
    Text += static_cast<char>(C);
  std::fclose(F);
  return Text;
}

BlockRecord record(unsigned X, unsigned Y, unsigned Sm, unsigned long long Start,
                   unsigned long long End, unsigned Threads, unsigned Finished) {
  BlockRecord B = {};
  B.StartNs = Start;
  B.EndNs = End;
  B.StartClock = Start * 2;
  B.EndClock = End * 2;
  B.Block[0] = X;
  B.Block[1] = Y;
  B.Sm = Sm;
  B.Threads = Threads;
  B.Finished = Finished;
  return B;
}

TEST(TraceWriter, OneLinePerCompleteBlockInTheIssuesFormat) {
  std::vector<BlockRecord> Records = {record(0, 0, 7, 1000, 2500, 256, 256),
                                      record(1, 0, 3, 1010, 2600, 256, 256)};
  WriteResult R;
  std::string Text = written("scale", Records, 0, R);
  EXPECT_EQ(R.Written, 2u);
  EXPECT_EQ(R.NotStarted, 0u);
  EXPECT_EQ(R.Incomplete, 0u);
  EXPECT_EQ(Text, "{\"kernel\": \"scale\", \"launch\": 0, \"block\": [0, 0, 0], \"sm\": 7, "
                  "\"start_ns\": 1000, \"end_ns\": 2500, \"start_clock\": 2000, \"end_clock\": "
                  "5000}\n"
                  "{\"kernel\": \"scale\", \"launch\": 0, \"block\": [1, 0, 0], \"sm\": 3, "
                  "\"start_ns\": 1010, \"end_ns\": 2600, \"start_clock\": 2020, \"end_clock\": "
                  "5200}\n");
}

TEST(TraceWriter, BlocksThatDidNotRunOrFinishAreCountedNotWritten) {
  // A buffer sized for 4 blocks: one never started (a smaller grid), one has a thread
  // that never reached the end of the guard's scope (255 of 256 finished).
  std::vector<BlockRecord> Records = {record(0, 0, 1, 10, 20, 64, 64), BlockRecord{},
                                      record(2, 0, 1, 10, 30, 256, 255),
                                      record(3, 0, 2, 12, 40, 64, 64)};
  WriteResult R;
  std::string Text = written("k", Records, 5, R);
  EXPECT_EQ(R.Written, 2u);
  EXPECT_EQ(R.NotStarted, 1u);
  EXPECT_EQ(R.Incomplete, 1u);
  EXPECT_NE(Text.find("\"launch\": 5, \"block\": [0, 0, 0]"), std::string::npos);
  EXPECT_NE(Text.find("\"block\": [3, 0, 0], \"sm\": 2"), std::string::npos);
  EXPECT_EQ(Text.find("\"block\": [2, 0, 0]"), std::string::npos);
}

TEST(TraceWriter, KernelNameIsJsonEscaped) {
  std::vector<BlockRecord> Records = {record(0, 1, 0, 1, 2, 32, 32)};
  WriteResult R;
  std::string Text = written("k<\"a\\b\">\n", Records, 0, R);
  EXPECT_EQ(Text.substr(0, 32), "{\"kernel\": \"k<\\\"a\\\\b\\\">\\u000a\", ");
}

TEST(TraceWriter, RecordsForIsOnePerBlockOfTheGrid) {
  EXPECT_EQ(warplint::trace::recordsFor(4), 4u);
  EXPECT_EQ(warplint::trace::recordsFor(4, 3, 2), 24u);
  EXPECT_EQ(warplint::trace::recordsFor(65536, 65535), 65536ull * 65535ull);
  EXPECT_EQ(sizeof(BlockRecord), 56u); // the same layout on host and device
}

} // namespace
