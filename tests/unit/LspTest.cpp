//===- LspTest.cpp - the language server's framing and conversions ----------===//
#include "driver/lsp/Convert.h"
#include "driver/lsp/Transport.h"
#include "driver/lsp/Worker.h"
#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace warplint::driver::lsp {
namespace {

/// A Transport reading Input (through a temporary FILE).
struct Reader {
  std::FILE *In;
  std::FILE *Out;
  Transport T;
  explicit Reader(const std::string &Input)
      : In(std::tmpfile()), Out(std::tmpfile()), T(In, Out) {
    std::fwrite(Input.data(), 1, Input.size(), In);
    std::rewind(In);
  }
  ~Reader() {
    std::fclose(In);
    std::fclose(Out);
  }
};

std::string frame(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

TEST(LspTransport, ReadsFramesAndRecoversFromJunk) {
  Reader R(frame("{\"a\":1}") + "garbage line\r\n\r\n" +
           "Content-Type: application/vscode-jsonrpc\r\n" + frame("{\"b\":2}") +
           "Content-Length: x\r\n\r\n" + frame("[]") + "Content-Length: 10\r\n\r\n{}");
  std::string Body, Problem;
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Message);
  EXPECT_EQ(Body, "{\"a\":1}");
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Malformed);
  EXPECT_NE(Problem.find("without Content-Length"), std::string::npos) << Problem;
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Message); // after a Content-Type header
  EXPECT_EQ(Body, "{\"b\":2}");
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Malformed);
  EXPECT_NE(Problem.find("'x', not a number"), std::string::npos) << Problem;
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Message);
  EXPECT_EQ(Body, "[]");
  ASSERT_EQ(R.T.read(Body, Problem), ReadStatus::Malformed); // 10 bytes announced, 2 sent
  EXPECT_NE(Problem.find("2 of 10 bytes"), std::string::npos) << Problem;
  EXPECT_EQ(R.T.read(Body, Problem), ReadStatus::Eof);
}

TEST(LspTransport, WritesOneFramePerMessage) {
  Reader R("");
  R.T.send(llvm::json::Object{{"jsonrpc", "2.0"}, {"id", 1}, {"result", nullptr}});
  std::rewind(R.Out);
  char Buf[256] = {};
  size_t N = std::fread(Buf, 1, sizeof Buf - 1, R.Out);
  EXPECT_EQ(std::string(Buf, N), frame("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":null}"));
}

TEST(LspConvert, FileUris) {
  std::string Error;
  EXPECT_EQ(uriToPath("file:///tmp/a%20b/k%2B.cu", Error).value_or("?"), "/tmp/a b/k+.cu");
  EXPECT_EQ(uriToPath("file://localhost/x.cu", Error).value_or("?"), "/x.cu");
  EXPECT_FALSE(uriToPath("https://example.com/x.cu", Error));
  EXPECT_NE(Error.find("not a file:// URI"), std::string::npos);
  EXPECT_FALSE(uriToPath("file://otherhost/x.cu", Error));
  EXPECT_EQ(pathToUri("/tmp/a b/k.cu"), "file:///tmp/a%20b/k.cu");
  EXPECT_EQ(uriToPath(pathToUri("/tmp/a b/ü.cu"), Error).value_or("?"), "/tmp/a b/ü.cu");
}

TEST(LspConvert, Utf16Columns) {
  SourceLines U16(false), U8(true);
  // "é" is 2 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
  llvm::StringRef Line = "é😀x";
  EXPECT_EQ(U16.toCharacter(Line, 1), 0u);
  EXPECT_EQ(U16.toCharacter(Line, 3), 1u);  // after é
  EXPECT_EQ(U16.toCharacter(Line, 7), 3u);  // after the emoji
  EXPECT_EQ(U8.toCharacter(Line, 7), 6u);
  EXPECT_EQ(U16.toColumn(Line, 3), 7u);
  EXPECT_EQ(U16.toColumn(Line, 1), 3u);
  EXPECT_EQ(U8.toColumn(Line, 6), 7u);
}

/// A directory tree under the system's temporary directory, removed afterwards.
struct TempTree {
  llvm::SmallString<128> Root;
  TempTree() { llvm::sys::fs::createUniqueDirectory("warplint-lsp-test", Root); }
  ~TempTree() { llvm::sys::fs::remove_directories(Root); }
  std::string write(llvm::StringRef Rel, llvm::StringRef Text) {
    llvm::SmallString<128> P(Root);
    llvm::sys::path::append(P, Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return std::string(P);
  }
};

TEST(LspConvert, CompileDatabaseAsClangdFindsIt) {
  TempTree T;
  std::string Deep = T.write("proj/src/sub/k.cu", "");
  EXPECT_EQ(findCompileCommandsDir(Deep), "");
  T.write("proj/build/compile_commands.json", "[]");
  EXPECT_EQ(findCompileCommandsDir(Deep), std::string(T.Root) + "/proj/build");
  // Nearer wins: the file's own directory's build/ before a parent's.
  T.write("proj/src/build/compile_commands.json", "[]");
  EXPECT_EQ(findCompileCommandsDir(Deep), std::string(T.Root) + "/proj/src/build");
  T.write("proj/src/sub/compile_commands.json", "[]");
  EXPECT_EQ(findCompileCommandsDir(Deep), std::string(T.Root) + "/proj/src/sub");
}

TEST(LspConvert, DiagnosticsWithNotesAndLinks) {
  TempTree T;
  std::string File = T.write("k.cu", "int a;\n  kernel<<<1, 40>>>(p);\n");
  RunResult R;
  Finding F;
  F.Check = "warplint-block-size-warp-multiple";
  F.Level = Severity::Warning;
  F.Pos = {File, 2, 3};
  F.Message = "block of 40 threads";
  F.Notes.push_back({{File, 1, 5}, "declared here"});
  R.Findings.push_back(F);
  Finding Elsewhere = F;
  Elsewhere.Pos.File = File + ".h";
  R.Findings.push_back(Elsewhere);
  Finding HeaderError = Elsewhere;
  HeaderError.Check = "clang-diagnostic-error";
  HeaderError.Level = Severity::Error;
  HeaderError.Message = "unknown type name 'x'";
  R.Findings.push_back(HeaderError);
  Finding Err;
  Err.Check = "clang-diagnostic-error";
  Err.Level = Severity::Error;
  Err.Pos = {File, 0, 0};
  Err.Message = "no compile command";
  R.Findings.push_back(Err);
  SourceLines Lines(false);
  llvm::json::Array D = diagnosticsFor(R, File, Lines);
  // The warning in another file is that file's; its error is this file's too.
  ASSERT_EQ(D.size(), 3u);
  const llvm::json::Object &W = *D[0].getAsObject();
  EXPECT_EQ(W.getString("code").value_or(""), F.Check);
  EXPECT_EQ(W.getInteger("severity").value_or(0), 2);
  const llvm::json::Object *Range = W.getObject("range");
  EXPECT_EQ(Range->getObject("start")->getInteger("line").value_or(-1), 1);
  EXPECT_EQ(Range->getObject("start")->getInteger("character").value_or(-1), 2);
  EXPECT_EQ(Range->getObject("end")->getInteger("character").value_or(-1), 8); // "kernel"
  llvm::StringRef Href = W.getObject("codeDescription")->getString("href").value_or("");
  EXPECT_TRUE(Href.ends_with("checks/warplint-block-size-warp-multiple.md")) << Href.str();
  const llvm::json::Array *Related = W.getArray("relatedInformation");
  ASSERT_TRUE(Related && Related->size() == 1);
  EXPECT_EQ((*Related)[0].getAsObject()->getString("message").value_or(""), "declared here");
  const llvm::json::Object &E = *D[2].getAsObject();
  EXPECT_EQ(E.getInteger("severity").value_or(0), 1);
  EXPECT_FALSE(E.getObject("codeDescription")); // clang's own errors have no page
  EXPECT_EQ(E.getObject("range")->getObject("start")->getInteger("line").value_or(-1), 0);
  const llvm::json::Object &H = *D[1].getAsObject();
  EXPECT_EQ(H.getString("message").value_or(""), File + ".h:2:3: unknown type name 'x'");
  EXPECT_EQ(H.getObject("range")->getObject("start")->getInteger("line").value_or(-1), 0);
}

TEST(LspConvert, HoverQuotesTheRecord) {
  LaunchRecord L;
  L.Pos = {"/p/k.cu", 7, 3};
  L.Kernel = "scale";
  L.Arch = "sm_86";
  L.Block = std::array<uint64_t, 3>{256, 1, 1};
  L.WarpsPerBlock = 8;
  L.Grid = std::array<uint64_t, 3>{64, 1, 1};
  L.DynamicSmemBytes = 0;
  L.StaticSmemBytes = 4096;
  L.Registers = 72;
  L.RegistersSource = "nvcc";
  L.Occupancy = 0.5;
  L.ActiveWarpsPerSm = 24;
  L.MaxWarpsPerSm = 48;
  L.BlocksPerSm = 3;
  L.LimiterMask = 1u << 1; // registers
  RunResult R;
  R.Launches.push_back(L);
  LaunchRecord Other = L;
  Other.Pos.Column = 30;
  Other.Kernel = "other";
  R.Launches.push_back(Other);
  EXPECT_FALSE(hoverAt(R, "/p/k.cu", 6, 3));
  std::optional<LaunchHover> H = hoverAt(R, "/p/k.cu", 7, 10);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Column, 3u); // the launch at or before the cursor
  EXPECT_NE(H->Markdown.find("`scale` on sm_86"), std::string::npos) << H->Markdown;
  EXPECT_NE(H->Markdown.find("block 256 = 256 threads (8 warps)"), std::string::npos);
  EXPECT_NE(H->Markdown.find("72 registers per thread (from nvcc)"), std::string::npos);
  EXPECT_NE(H->Markdown.find("static shared memory 4 KiB"), std::string::npos);
  EXPECT_NE(H->Markdown.find("**occupancy 50%** (24 of 48 warps per SM, 3 blocks per SM), "
                             "limited by registers"),
            std::string::npos)
      << H->Markdown;
  EXPECT_EQ(H->Markdown.find("other"), std::string::npos);
  H = hoverAt(R, "/p/k.cu", 7, 31);
  ASSERT_TRUE(H);
  EXPECT_NE(H->Markdown.find("`other`"), std::string::npos);
}

// A 48-thread block (the record as model/Records.cpp fills it): the hover names 96 threads,
// the smallest block that reaches the best occupancy, not the 768 up to which nothing is
// lost; one warp is "1 warp".
TEST(LspConvert, HoverNamesTheSmallestBestBlock) {
  LaunchRecord L;
  L.Pos = {"/p/k.cu", 7, 3};
  L.Kernel = "tiny";
  L.Arch = "sm_86";
  L.Block = std::array<uint64_t, 3>{48, 1, 1};
  L.WarpsPerBlock = 2;
  L.DynamicSmemBytes = 0;
  L.StaticSmemBytes = 0;
  L.Registers = 32;
  L.Occupancy = 32.0 / 48;
  L.ActiveWarpsPerSm = 32;
  L.MaxWarpsPerSm = 48;
  L.BlocksPerSm = 16;
  KernelResources K;
  K.RegistersPerThread = 32;
  L.NextSteps = nextSteps(*findArch("sm_86"), K, LaunchShape::threads(48));
  RunResult R;
  R.Launches.push_back(L);
  std::optional<LaunchHover> H = hoverAt(R, "/p/k.cu", 7, 3);
  ASSERT_TRUE(H);
  EXPECT_NE(H->Markdown.find("- block size 48 threads (limiter): at 96 threads 16 blocks per SM "
                             "(100%), the best; beyond 768 threads 1 block per SM"),
            std::string::npos)
      << H->Markdown;
  // The block size's line does not say that 768 threads "keep" 66.7% (they raise it).
  size_t Line = H->Markdown.find("- block size 48 threads");
  ASSERT_NE(Line, std::string::npos);
  EXPECT_EQ(H->Markdown.substr(Line, H->Markdown.find('\n', Line) - Line).find("keeps it"),
            std::string::npos)
      << H->Markdown;
  R.Launches[0].Block = std::array<uint64_t, 3>{32, 1, 1};
  R.Launches[0].WarpsPerBlock = 1;
  H = hoverAt(R, "/p/k.cu", 7, 3);
  ASSERT_TRUE(H);
  EXPECT_NE(H->Markdown.find("block 32 = 32 threads (1 warp)"), std::string::npos) << H->Markdown;
}

TEST(LspWorker, LinesRoundTrip) {
  RunResult R;
  R.FilesAnalysed.push_back("/p/k.cu");
  R.FilesWithErrors.push_back("/p/k.cu");
  Finding F;
  F.Check = "warplint-x";
  F.Pos = {"/p/k.cu", 3, 4};
  F.Message = "m";
  R.Findings.push_back(F);
  std::string Line = workerLine(R, false);
  EXPECT_EQ(Line.find('\n'), std::string::npos);
  std::optional<WorkerLine> W = parseWorkerLine(Line);
  ASSERT_TRUE(W);
  EXPECT_FALSE(W->Final);
  ASSERT_EQ(W->Result.Findings.size(), 1u);
  EXPECT_EQ(W->Result.Findings[0].Pos.Column, 4u);
  EXPECT_EQ(W->Result.FilesWithErrors, R.FilesWithErrors);
  EXPECT_FALSE(parseWorkerLine("warplint: not json"));
}

// The preamble worker's lean answer: a header line and the result's lines, gathered by
// AnswerJoiner from the lines as the server reads them, read back whole; a lone line (an
// error, a preamble note, a workerLine) passes through at once.
TEST(LspWorker, AnswerJoinedAndReadBack) {
  RunResult R;
  R.FilesAnalysed.push_back("/p/k.cu");
  R.RegistersNotCached.push_back("/p/k.cu");
  R.Messages.push_back({Severity::Note, "a \"quoted\" note\nover two lines"});
  for (unsigned I = 1; I <= 3; ++I) {
    Finding F;
    F.Check = "warplint-x";
    F.Pos = {"/p/k.cu", I, 4};
    F.Message = "m" + std::to_string(I);
    R.Findings.push_back(F);
  }
  LaunchRecord L;
  L.Kernel = "k";
  L.Pos = {"/p/k.cu", 9, 3};
  R.Launches.push_back(L);
  std::string Text = workerAnswer(R, true, llvm::json::Object{{"id", 7}, {"preamble", true}});
  ASSERT_EQ(Text.back(), '\n');
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).drop_back().split(Lines, '\n');
  AnswerJoiner J;
  EXPECT_EQ(J.add("{\"warm\":\"/p/k.cu\",\"note\":\"kept\"}"),
            std::optional<std::string>("{\"warm\":\"/p/k.cu\",\"note\":\"kept\"}"));
  std::optional<std::string> Whole;
  for (size_t I = 0; I < Lines.size(); ++I) {
    Whole = J.add(Lines[I].str());
    EXPECT_EQ(Whole.has_value(), I + 1 == Lines.size()) << "line " << I;
  }
  ASSERT_TRUE(Whole);
  EXPECT_EQ(*Whole + "\n", Text);
  std::optional<WorkerLine> W = parseWorkerAnswer(*Whole);
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->Final);
  ASSERT_EQ(W->Result.Findings.size(), 3u);
  EXPECT_EQ(W->Result.Findings[2].Message, "m3");
  ASSERT_EQ(W->Result.Launches.size(), 1u);
  EXPECT_EQ(W->Result.Launches[0].Pos.Line, 9u);
  ASSERT_EQ(W->Result.Messages.size(), 1u);
  EXPECT_EQ(W->Result.Messages[0].Text, R.Messages[0].Text);
  EXPECT_EQ(W->Result.RegistersNotCached, R.RegistersNotCached);
  // The same result as one workerLine reads back through parseWorkerAnswer too.
  std::optional<WorkerLine> Old = parseWorkerAnswer(workerLine(R, false));
  ASSERT_TRUE(Old);
  EXPECT_FALSE(Old->Final);
  EXPECT_EQ(Old->Result.Findings.size(), 3u);
  // An answer cut short (the worker killed between its lines) reads as nothing.
  EXPECT_FALSE(parseWorkerAnswer(llvm::StringRef(*Whole).rsplit('\n').first));
  // After a whole answer the joiner is ready for the next one.
  EXPECT_EQ(J.add("{\"id\":8,\"error\":\"x\"}"), std::optional<std::string>("{\"id\":8,\"error\":\"x\"}"));
}

TEST(LspWorker, ChildProcessLinesStatusAndKill) {
  std::string Error;
  auto C = ChildProcess::start({"/bin/sh", "-c", "echo one; echo two; echo oops >&2; exit 3"},
                               Error);
  ASSERT_TRUE(C) << Error;
  std::vector<std::string> Lines;
  int Status = C->wait([&](std::string L) { Lines.push_back(L); });
  EXPECT_EQ(Lines, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(C->stderrText(), "oops\n");
  EXPECT_EQ(describeWaitStatus(Status), "exited with status 3");
  // A child and what it started end together.
  C = ChildProcess::start({"/bin/sh", "-c", "sleep 30 & sleep 30"}, Error);
  ASSERT_TRUE(C) << Error;
  C->kill();
  Status = C->wait([](std::string) {});
  EXPECT_NE(describeWaitStatus(Status).find("signal 9"), std::string::npos);
  EXPECT_FALSE(ChildProcess::start({"/no/such/program"}, Error));
  EXPECT_NE(Error.find("/no/such/program"), std::string::npos);
}

TEST(LspWorker, ChildProcessStdinLinesAndUnsavedLines) {
  // The preamble worker's pipe: lines written to the child's stdin come back in order.
  std::string Error;
  auto C = ChildProcess::start({"/bin/sh", "-c", "while read L; do echo \"got $L\"; done"},
                               Error, /*WithStdin=*/true);
  ASSERT_TRUE(C) << Error;
  EXPECT_TRUE(C->writeLine("first"));
  EXPECT_TRUE(C->writeLine("second"));
  std::vector<std::string> Lines;
  std::thread Reader([&] { C->wait([&](std::string L) { Lines.push_back(L); }); });
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < Deadline && Lines.size() < 2)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  C->kill();
  Reader.join();
  EXPECT_EQ(Lines, (std::vector<std::string>{"got first", "got second"}));
  // An editor's unsaved text replaces the file's lines on disk for the ranges.
  SourceLines S(true);
  S.setText("/no/such/file.cu", "int a;\n  k<<<1, 33>>>(p);\n");
  EXPECT_EQ(S.line("/no/such/file.cu", 2), "  k<<<1, 33>>>(p);");
  EXPECT_EQ(S.range("/no/such/file.cu", 2, 3).getObject("end")->getInteger("character"), 3);
}

} // namespace
} // namespace warplint::driver::lsp
