//===- PtxasLogTest.cpp - the ptxas report parser on real CUDA 13.0 logs ---===//
#include "warplint/core/PtxasLog.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace warplint;

namespace {

std::string readInput(const std::string &Name) {
  std::ifstream In(std::string(WARPLINT_PTXAS_INPUTS) + "/" + Name, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

PtxasLog parseInput(const std::string &Name) {
  std::string Text = readInput(Name);
  EXPECT_FALSE(Text.empty()) << Name;
  std::string Err;
  std::optional<PtxasLog> Log = parsePtxasLog(Text, &Err);
  EXPECT_TRUE(Log) << Err;
  return Log ? *Log : PtxasLog{};
}

const char *const Hidden = "_ZN43_GLOBAL__N__d0fd54b9_10_kernels_cu_73fc6ea76hiddenEPi";

// One row per (log, kernel, arch): the figures ptxas printed.
struct EntryRow {
  const char *Log, *Kernel, *Arch;
  int Registers, Barriers;
  uint64_t Smem, StackFrame, SpillStores, SpillLoads;
  std::optional<uint64_t> CumulativeStack;
  std::optional<uint64_t> Cmem0;
};

class PtxasEntries : public ::testing::TestWithParam<EntryRow> {};

TEST_P(PtxasEntries, FiguresEqualThePrintedOnes) {
  const EntryRow &R = GetParam();
  PtxasLog Log = parseInput(R.Log);
  const PtxasFunction *F = Log.findEntry(R.Kernel, R.Arch);
  ASSERT_NE(F, nullptr) << R.Kernel << " for " << R.Arch << " in " << R.Log;
  EXPECT_TRUE(F->IsEntry);
  EXPECT_EQ(F->Registers, R.Registers);
  EXPECT_EQ(F->Barriers, R.Barriers);
  EXPECT_EQ(F->SharedBytes, R.Smem);
  EXPECT_EQ(F->StackFrameBytes, R.StackFrame);
  EXPECT_EQ(F->SpillStoreBytes, R.SpillStores);
  EXPECT_EQ(F->SpillLoadBytes, R.SpillLoads);
  EXPECT_EQ(F->CumulativeStackBytes, R.CumulativeStack);
  std::optional<uint64_t> Cmem0;
  for (auto [Bank, Bytes] : F->ConstantBytes)
    if (Bank == 0)
      Cmem0 = Bytes;
  EXPECT_EQ(Cmem0, R.Cmem0);
}

INSTANTIATE_TEST_SUITE_P(
    RealLogs, PtxasEntries,
    ::testing::Values(
        // nvcc -arch=sm_80 -Xptxas -v
        EntryRow{"kernels-sm80.log", "_Z5heavyPdPKd", "sm_80", 56, 0, 0, 256, 0, 0, 256, 368},
        EntryRow{"kernels-sm80.log", "_Z10tileKernelPfPKfi", "sm_80", 15, 1, 1024, 0, 0, 0,
                 std::nullopt, 372},
        EntryRow{"kernels-sm80.log", "_Z6scaleTILi512EEvPff", "sm_80", 10, 1, 2048, 0, 0, 0,
                 std::nullopt, 364},
        EntryRow{"kernels-sm80.log", "_Z6scaleTILi128EEvPff", "sm_80", 10, 1, 512, 0, 0, 0,
                 std::nullopt, 364},
        EntryRow{"kernels-sm80.log", "_Z7boundedPf", "sm_80", 8, 0, 0, 0, 0, 0, std::nullopt,
                 360},
        EntryRow{"kernels-sm80.log", Hidden, "sm_80", 8, 0, 0, 0, 0, 0, std::nullopt, 360},
        // two -gencodes: sm_75 then sm_90 (no cmem[0] on sm_90)
        EntryRow{"kernels-sm75-sm90.log", "_Z5heavyPdPKd", "sm_75", 64, 0, 0, 256, 0, 0, 256,
                 368},
        EntryRow{"kernels-sm75-sm90.log", "_Z5heavyPdPKd", "sm_90", 48, 0, 0, 256, 0, 0, 256,
                 std::nullopt},
        EntryRow{"kernels-sm75-sm90.log", Hidden, "sm_90", 10, 0, 0, 0, 0, 0, std::nullopt,
                 std::nullopt},
        EntryRow{"kernels-sm75-sm90.log", "_Z6scaleTILi512EEvPff", "sm_90", 10, 1, 2048, 0, 0,
                 0, std::nullopt, std::nullopt},
        // -maxrregcount=32: spills
        EntryRow{"kernels-sm80-maxrreg32.log", "_Z5heavyPdPKd", "sm_80", 32, 0, 0, 384, 196,
                 188, 384, 368},
        // -rdc, sm_120, -maxrregcount=40, --warn-on-spills
        EntryRow{"kernels-sm120-rdc-maxrreg40.log", "_Z5heavyPdPKd", "sm_120", 40, 0, 0, 304,
                 60, 60, std::nullopt, std::nullopt},
        EntryRow{"kernels-sm120-rdc-maxrreg40.log", "_Z10tileKernelPfPKfi", "sm_120", 24, 1,
                 1024, 0, 0, 0, std::nullopt, std::nullopt}));

TEST(PtxasLog, BlocksFollowTheGencodeOrderWithModuleData) {
  PtxasLog Log = parseInput("kernels-sm75-sm90.log");
  ASSERT_EQ(Log.Blocks.size(), 2u);
  EXPECT_EQ(Log.Blocks[0].Arch, "sm_75");
  EXPECT_EQ(Log.Blocks[1].Arch, "sm_90");
  EXPECT_EQ(Log.Blocks[0].GlobalBytes, 12u);
  EXPECT_EQ(Log.Blocks[1].GlobalBytes, 12u);
  // __constant__ float[64] sits in cmem[3] on sm_75; sm_90 prints no banks.
  ASSERT_EQ(Log.Blocks[0].ConstantBytes.size(), 2u);
  EXPECT_EQ(Log.Blocks[0].ConstantBytes[0], (std::pair<int, uint64_t>{3, 256}));
  EXPECT_EQ(Log.Blocks[0].ConstantBytes[1], (std::pair<int, uint64_t>{4, 8}));
  EXPECT_TRUE(Log.Blocks[1].ConstantBytes.empty());
  EXPECT_EQ(Log.archs(), (std::vector<std::string>{"sm_75", "sm_90"}));
  EXPECT_EQ(Log.entryCount(), 12u);
  EXPECT_TRUE(Log.Malformed.empty());
  // The same kernel is not found for an arch the log does not hold.
  EXPECT_EQ(Log.findEntry("_Z5heavyPdPKd", "sm_80"), nullptr);
}

TEST(PtxasLog, NonInlinedDeviceFunctionHasPropertiesButNoUsedLine) {
  PtxasLog Log = parseInput("kernels-sm80.log");
  ASSERT_EQ(Log.Blocks.size(), 1u);
  const PtxasFunction *Helper = nullptr;
  for (const PtxasFunction &F : Log.Blocks[0].Functions)
    if (F.Name == "_Z6helperfi")
      Helper = &F;
  ASSERT_NE(Helper, nullptr);
  EXPECT_FALSE(Helper->IsEntry);
  EXPECT_FALSE(Helper->Registers);
  EXPECT_EQ(Helper->Arch, "sm_80");
  // Device functions are not entries: not found as kernels.
  EXPECT_EQ(Log.findEntry("_Z6helperfi", "sm_80"), nullptr);
  // The kernel after it still gets its own Used line.
  const PtxasFunction *Heavy = Log.findEntry("_Z5heavyPdPKd", "sm_80");
  ASSERT_NE(Heavy, nullptr);
  EXPECT_EQ(Heavy->Registers, 56);
  EXPECT_EQ(Log.Blocks[0].Functions.size(), 7u);
}

TEST(PtxasLog, SpillWarningsAreKeptAndOverridesSkipped) {
  PtxasLog Log = parseInput("kernels-sm120-rdc-maxrreg40.log");
  ASSERT_EQ(Log.Warnings.size(), 1u);
  EXPECT_NE(Log.Warnings[0].find("Registers are spilled"), std::string::npos);
  EXPECT_TRUE(Log.Errors.empty());
  EXPECT_TRUE(Log.Malformed.empty());
  EXPECT_EQ(Log.archs(), std::vector<std::string>{"sm_120"});
}

TEST(PtxasLog, NvStaticPrefixOfRdcIsStripped) {
  const char *Rdc = "__nv_static_32__d0fd54b9_10_kernels_cu_73fc6ea7__ZN43_GLOBAL__N__d0fd54b9_"
                    "10_kernels_cu_73fc6ea76hiddenEPi";
  EXPECT_EQ(stripNvStaticPrefix(Rdc), Hidden);
  PtxasLog Log = parseInput("kernels-sm120-rdc-maxrreg40.log");
  const PtxasFunction *F = Log.findEntry(Rdc, "sm_120");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Registers, 10);
  EXPECT_EQ(stripNvStaticPrefix("_Z5heavyPdPKd"), "_Z5heavyPdPKd");
  EXPECT_EQ(stripNvStaticPrefix("__nv_static_99__short"), "__nv_static_99__short");
  EXPECT_EQ(stripNvStaticPrefix("__nv_static_"), "__nv_static_");
}

TEST(PtxasLog, TextWithoutPtxasIsAnError) {
  std::string Err;
  EXPECT_FALSE(parsePtxasLog("", &Err));
  EXPECT_NE(Err.find("no ptxas output"), std::string::npos);
  EXPECT_FALSE(parsePtxasLog("kernels.cu(3): warning: unused variable\n", &Err));
}

TEST(PtxasLog, ForeignLinesCrlfAndOldFormat) {
  // Host compiler noise, CRLF line ends, and the pre-barrier "Used" format.
  std::string Text = "kernels.cu: In function 'void f()':\r\n"
                     "ptxas info    : Compiling entry function '_Z1kv' for 'sm_86'\r\n"
                     "ptxas info    : Function properties for _Z1kv\r\n"
                     "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\r\n"
                     "ptxas info    : Used 72 registers, 4096 bytes smem, 352 bytes cmem[0]\r\n";
  std::optional<PtxasLog> Log = parsePtxasLog(Text);
  ASSERT_TRUE(Log);
  const PtxasFunction *F = Log->findEntry("_Z1kv", "sm_86");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Registers, 72);
  EXPECT_FALSE(F->Barriers);
  EXPECT_EQ(F->SharedBytes, 4096u);
  EXPECT_EQ(F->SpillStoreBytes, 4u);
  EXPECT_TRUE(Log->Malformed.empty());
}

TEST(PtxasLog, MalformedLinesAreReportedNotGuessed) {
  std::string Text = "ptxas info    : Compiling entry function '_Z1kv' for 'sm_80'\n"
                     "ptxas info    : Used many registers, used 0 barriers\n"
                     "ptxas info    : Used 9 registers\n";
  std::optional<PtxasLog> Log = parsePtxasLog(Text);
  ASSERT_TRUE(Log);
  const PtxasFunction *F = Log->findEntry("_Z1kv", "sm_80");
  ASSERT_NE(F, nullptr);
  EXPECT_FALSE(F->Registers);
  ASSERT_EQ(Log->Malformed.size(), 2u); // the bad line, and a Used line with no entry
  EXPECT_NE(Log->Malformed[0].find("line 2"), std::string::npos);
  EXPECT_NE(Log->Malformed[1].find("line 3"), std::string::npos);
}

TEST(PtxasLog, SameArchTwiceWithoutGlobalsStaysOneBlockPerRun) {
  // Two translation units for sm_80, the second with globals: two blocks.
  std::string Text = "ptxas info    : Compiling entry function '_Z1av' for 'sm_80'\n"
                     "ptxas info    : Used 4 registers, used 0 barriers, 352 bytes cmem[0]\n"
                     "ptxas info    : 4 bytes gmem\n"
                     "ptxas info    : Compiling entry function '_Z1bv' for 'sm_80'\n"
                     "ptxas info    : Used 6 registers, used 0 barriers, 352 bytes cmem[0]\n";
  std::optional<PtxasLog> Log = parsePtxasLog(Text);
  ASSERT_TRUE(Log);
  ASSERT_EQ(Log->Blocks.size(), 2u);
  EXPECT_EQ(Log->Blocks[0].GlobalBytes, 0u);
  EXPECT_EQ(Log->Blocks[1].GlobalBytes, 4u);
  EXPECT_EQ(Log->findEntry("_Z1bv", "sm_80")->Registers, 6);
}

} // namespace

namespace {
// Found by the fuzzer: a malformed module line after an entry left the parser pointing
// at an entry of the previous block.
TEST(PtxasLog, MalformedModuleLineAfterEntry) {
  std::string Text = "ptxas info    : Compiling entry function '_Z1kv' for 'sm_80'\n"
                     "ptxas info    : 12 bytes gmem, x bytes cmem[3]\n"
                     "ptxas info    : Function properties for _Z1kv\n"
                     "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                     "ptxas info    : Used 9 registers\n";
  std::optional<PtxasLog> Log = parsePtxasLog(Text);
  ASSERT_TRUE(Log);
  EXPECT_EQ(Log->Malformed.size(), 2u);
  EXPECT_EQ(Log->findEntry("_Z1kv", "sm_80")->Registers, std::nullopt);
}
} // namespace
