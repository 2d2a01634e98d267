//===- TextJsonFormatTest.cpp - text (with source snippets) and JSON output ===//
#include "driver/formats/Formats.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace warplint::driver;
using warplint::KernelRecord;
using warplint::LaunchRecord;
using warplint::SourcePos;

namespace {

/// A source file on disk for the snippets; removed when the test ends.
struct TempSource {
  std::string Path;
  explicit TempSource(const std::string &Content) {
    llvm::SmallString<128> P;
    int Fd = -1;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("snippet", "cu", Fd, P));
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Content;
    Path = std::string(P);
  }
  ~TempSource() { llvm::sys::fs::remove(Path); }
};

std::string textOf(const RunResult &R, bool Colour = false) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeText(R, LocationOptions{}, Colour, OS);
  return S;
}

Finding finding(const std::string &File, unsigned Line, unsigned Column) {
  Finding F;
  F.Check = "warplint-divergent-branch";
  F.Level = Severity::Warning;
  F.Pos = {File, Line, Column};
  F.Message = "branch diverges";
  return F;
}

TEST(TextFormat, SourceLineAndCaretUnderTheColumn) {
  TempSource Src("__global__ void k(int *p) {\n  if (threadIdx.x % 2)\n    p[0] = 1;\n}\n");
  RunResult R;
  Finding F = finding(Src.Path, 2, 7);
  F.Notes.push_back({{Src.Path, 3, 5}, "written here"});
  R.Findings.push_back(F);
  EXPECT_EQ(textOf(R), Src.Path + ":2:7: warning: branch diverges [warplint-divergent-branch]\n"
                                  "    2 |   if (threadIdx.x % 2)\n"
                                  "      |       ^\n" +
                           Src.Path + ":3:5: note: written here\n"
                                      "    3 |     p[0] = 1;\n"
                                      "      |     ^\n");
}

TEST(TextFormat, TabsExpandLikeClangAndWideLineNumbersWidenTheGutter) {
  std::string Content(12344, '\n');
  Content += "\tint x =\tundeclared;\n";
  TempSource Src(Content);
  RunResult R;
  // Byte column 10 is 'u' after "\tint x =\t": display column 17 with tab stops of 8.
  R.Findings.push_back(finding(Src.Path, 12345, 10));
  std::string Out = textOf(R);
  EXPECT_NE(Out.find("\n 12345 |         int x = undeclared;\n"
                     "       |                 ^\n"),
            std::string::npos)
      << Out;
}

TEST(TextFormat, NoSnippetWhenTheFileOrLineIsMissing) {
  TempSource Src("one line\n");
  RunResult R;
  R.Findings.push_back(finding("/nonexistent/dir/k.cu", 3, 1));
  R.Findings.push_back(finding(Src.Path, 7, 1));
  R.Findings.push_back(finding(Src.Path, 0, 0));
  std::string Out = textOf(R);
  EXPECT_EQ(Out.find(" | "), std::string::npos) << Out;
  EXPECT_EQ(std::count(Out.begin(), Out.end(), '\n'), 3) << Out;
}

TEST(TextFormat, ColouredCaret) {
  TempSource Src("x\n");
  RunResult R;
  R.Findings.push_back(finding(Src.Path, 1, 1));
  EXPECT_NE(textOf(R, true).find("| \033[1;32m^\033[0m\n"), std::string::npos);
}

TEST(JsonFormat, TopLevelAndFindingFieldsAsSpecified) {
  RunResult R;
  Finding F = finding("/p/a.cu", 4, 7);
  F.Level = Severity::Error;
  F.Notes.push_back({{"/p/a.cu", 2, 3}, "tid is threadIdx.x"});
  R.Findings.push_back(F);
  LaunchRecord L;
  L.Pos = {"/p/a.cu", 9, 1};
  L.Api = "triple-chevron";
  L.Block = std::array<uint64_t, 3>{128, 1, 1};
  L.Arch = "sm_80";
  R.Launches.push_back(L);
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeJson(R, LocationOptions{"/p"}, OS);
  auto Parsed = llvm::json::parse(S);
  ASSERT_TRUE(bool(Parsed)) << S;
  const llvm::json::Object *Root = Parsed->getAsObject();
  ASSERT_NE(Root, nullptr);
  EXPECT_EQ(Root->getInteger("version"), 1);
  const llvm::json::Array *Findings = Root->getArray("findings");
  ASSERT_TRUE(Findings && Findings->size() == 1);
  const llvm::json::Object *F0 = (*Findings)[0].getAsObject();
  EXPECT_EQ(F0->getString("check"), "warplint-divergent-branch");
  EXPECT_EQ(F0->getString("severity"), "error");
  EXPECT_EQ(F0->getString("file"), "a.cu");
  EXPECT_EQ(F0->getInteger("line"), 4);
  EXPECT_EQ(F0->getInteger("column"), 7);
  EXPECT_EQ(F0->getString("message"), "branch diverges");
  const llvm::json::Object *N0 = (*F0->getArray("notes"))[0].getAsObject();
  EXPECT_EQ(N0->getString("message"), "tid is threadIdx.x");
  EXPECT_EQ(N0->getInteger("line"), 2);
  EXPECT_EQ(N0->getInteger("column"), 3);
  const llvm::json::Array *Launches = Root->getArray("launches");
  ASSERT_TRUE(Launches && Launches->size() == 1);
  const llvm::json::Object *L0 = (*Launches)[0].getAsObject();
  EXPECT_EQ(L0->getString("file"), "a.cu");
  EXPECT_EQ(L0->getInteger("line"), 9);
  EXPECT_EQ(L0->getString("api"), "triple-chevron");
  EXPECT_EQ(L0->getString("arch"), "sm_80");
  // Unknown values are null, never a guess.
  for (const char *Null : {"kernel", "grid", "dynamic_smem", "dynamic_smem_expr", "static_smem",
                           "blocks_per_sm", "occupancy"})
    EXPECT_EQ(L0->get(Null)->kind(), llvm::json::Value::Null) << Null;
  EXPECT_EQ((*L0->getArray("block"))[0].getAsInteger(), 128);
}

} // namespace
