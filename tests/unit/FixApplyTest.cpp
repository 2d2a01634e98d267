// warplint check --fix's application of fix-its (driver/FixApply): the same edit carried
// by several findings is applied once, a fix that overlaps another fix's edit is left out
// whole, each file is rewritten once; and the impact functions of model/Records.
#include "driver/run/FixApply.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace warplint::driver {
namespace {

std::string tempFile(const std::string &Text) {
  llvm::SmallString<128> Path;
  int Fd;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("fixapply", "cu", Fd, Path));
  llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
  OS << Text;
  return std::string(Path);
}

Finding withFix(const std::string &File, unsigned Offset, unsigned Length, std::string Text) {
  Finding F;
  F.Check = "warplint-shared-bank-conflict";
  F.Pos = {File, 1, 1};
  FixEdit E;
  E.File = File;
  E.Offset = Offset;
  E.Length = Length;
  E.Text = std::move(Text);
  F.Fixes.push_back(E);
  return F;
}

TEST(FixApply, SameEditOnceOverlapLeftOut) {
  // "float t[32][32]; float u[8][8];"
  std::string File = tempFile("float t[32][32]; float u[8][8];\n");
  RunResult R;
  R.Findings.push_back(withFix(File, 12, 2, "33"));    // t's row: [32] -> [33]
  R.Findings.push_back(withFix(File, 12, 2, "33"));    // the same fix, another finding
  R.Findings.push_back(withFix(File, 11, 4, "[34]"));  // overlaps the first: left out
  R.Findings.push_back(withFix(File, 28, 1, "9"));     // u's row: [8] -> [9]
  R.Findings.push_back(Finding());                     // no fix
  FixSummary S = applyFixes(R);
  EXPECT_EQ(S.Applied, 2u);
  EXPECT_EQ(S.Files, 1u);
  EXPECT_EQ(S.Conflicts, 1u);
  EXPECT_TRUE(S.Errors.empty());
  auto Buf = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Buf));
  EXPECT_EQ((*Buf)->getBuffer().str(), "float t[32][33]; float u[8][9];\n");
  EXPECT_EQ(fixSummaryText(S),
            "applied 2 fixes in 1 file; 1 fix left out: it overlaps another fix's edit");
  llvm::sys::fs::remove(File);
}

TEST(FixApply, ExportYaml) {
  RunResult R;
  R.Findings.push_back(withFix("/src/k.cu", 12, 2, "33"));
  std::string Y = exportFixesYaml(R);
  EXPECT_NE(Y.find("DiagnosticName:  warplint-shared-bank-conflict"), std::string::npos) << Y;
  EXPECT_NE(Y.find("ReplacementText: '33'"), std::string::npos) << Y;
  EXPECT_NE(Y.find("Offset:          12"), std::string::npos) << Y;
}

TEST(Impact, Ranks) {
  AccessRecord A;
  A.Sectors = 32;
  A.IdealSectors = 4;
  std::optional<Impact> I = accessImpact(A);
  ASSERT_TRUE(I);
  EXPECT_EQ(I->Value, 28);
  EXPECT_EQ(I->Rank, 88u); // 1 - 4/32
  AccessRecord B;
  B.Wavefronts = 2;
  B.IdealWavefronts = 1;
  EXPECT_EQ(accessImpact(B)->Rank, 50u);
  EXPECT_EQ(divergenceImpact(0.5).Rank, 25u);
  EXPECT_EQ(spillImpact(0, 0, 40).Rank, 0u);
  EXPECT_EQ(spillImpact(160, 160, 40).Rank, 50u); // 40 words over 40 + 40
  LaunchRecord L;
  L.Block = std::array<uint64_t, 3>{100, 1, 1};
  L.WaveSize = 32;
  EXPECT_EQ(blockLanesImpact(L)->Rank, 22u); // 28 of 128 lanes
  L.LaunchError = "too many threads";
  EXPECT_EQ(launchErrorImpact(L)->Rank, 100u);
  EXPECT_EQ(shareRank(1.7), 100u);
  EXPECT_EQ(shareRank(-1), 0u);
}

} // namespace
} // namespace warplint::driver
