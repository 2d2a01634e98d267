//===- ResourcesTest.cpp - register sources: logs, objects, name matching --===//
#include "resources/Resources.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ::warplint;

namespace {

std::string input(llvm::StringRef Name) {
  return (llvm::Twine(WARPLINT_PTXAS_INPUTS) + "/" + Name).str();
}

TEST(Resources, LogEntriesPerArchAndExactMatch) {
  ResourceTable T;
  T.addPtxasLogFile(input("kernels-sm75-sm90.log"));
  ASSERT_TRUE(T.Errors.empty());
  EXPECT_EQ(T.Entries.size(), 12u);
  ResourceTable::Match M = T.match("_Z5heavyPdPKd");
  ASSERT_EQ(M.PerArch.size(), 2u);
  EXPECT_EQ(M.PerArch[0]->Arch, "sm_75");
  EXPECT_EQ(M.PerArch[0]->Registers, 64);
  EXPECT_EQ(M.PerArch[1]->Arch, "sm_90");
  EXPECT_EQ(M.PerArch[1]->Registers, 48);
  EXPECT_EQ(M.PerArch[1]->Source, ResourceSource::PtxasLog);
  EXPECT_FALSE(M.ByBaseName);
  // Template instantiations are told apart by their mangled names.
  ResourceTable::Match S = T.match("_Z6scaleTILi512EEvPff");
  ASSERT_EQ(S.PerArch.size(), 2u);
  EXPECT_EQ(S.PerArch[0]->StaticSharedBytes, 2048u);
}

TEST(Resources, AnonymousNamespaceOfClangMatchesNvcc) {
  ResourceTable T;
  T.addPtxasLogFile(input("kernels-sm80.log"));
  // clang mangles the anonymous namespace as _GLOBAL__N_1, nvcc with a file hash.
  ResourceTable::Match M = T.match("_ZN12_GLOBAL__N_16hiddenEPi");
  ASSERT_EQ(M.PerArch.size(), 1u);
  EXPECT_EQ(M.PerArch[0]->Registers, 8);
  EXPECT_FALSE(M.ByBaseName);
}

TEST(Resources, InternalFunctionTemplateArgumentsOfNvccMatchClang) {
  // ggml's getrows.cu: a static kernel template with a static function as an argument.
  // nvcc wraps the function in an _INTERNAL_<hash> namespace and leaves out the type of
  // the non-type parameter; clang writes that type (Tn...) and no namespace. The same
  // signature once demangled, without the namespace: each instantiation finds its own
  // entry, where the base name alone is ambiguous.
  const std::string Q2 = "_Z13k_get_rows_kqI6__halfXadL_ZN47_INTERNAL_0d313e89_10_getrows_cu_"
                         "290307f1_2603715dequantize_q2_KIS0_EEvPKvlPT_iEEEvS4_PKiS6_ll5uint3"
                         "mmmmmmmmm";
  const std::string Q3 = "_Z13k_get_rows_kqI6__halfXadL_ZN47_INTERNAL_0d313e89_10_getrows_cu_"
                         "290307f1_2603715dequantize_q3_KIS0_EEvPKvlPT_iEEEvS4_PKiS6_ll5uint3"
                         "mmmmmmmmm";
  std::string Log;
  for (auto [Name, Regs] : {std::pair{Q2, 40}, std::pair{Q3, 38}})
    Log += "ptxas info    : Compiling entry function '" + Name + "' for 'sm_86'\n" +
           "ptxas info    : Function properties for " + Name + "\n" +
           "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n" +
           "ptxas info    : Used " + std::to_string(Regs) +
           " registers, used 0 barriers, 480 bytes cmem[0]\n";
  ResourceTable T;
  T.addPtxasLog(Log, "nvcc", ResourceSource::Nvcc);
  ASSERT_TRUE(T.Errors.empty());
  ASSERT_EQ(T.Entries.size(), 2u);
  ResourceTable::Match M2 = T.match("_ZL13k_get_rows_kqI6__halfTnPFvPKvlPT_iEXadL_ZL15dequantize_"
                                    "q2_KIS0_EvS2_lS4_iEEEvS2_PKiS4_ll5uint3mmmmmmmmm");
  ASSERT_EQ(M2.PerArch.size(), 1u) << M2.Note;
  EXPECT_EQ(M2.PerArch[0]->Registers, 40);
  EXPECT_FALSE(M2.ByBaseName);
  ResourceTable::Match M3 = T.match("_ZL13k_get_rows_kqI6__halfTnPFvPKvlPT_iEXadL_ZL15dequantize_"
                                    "q3_KIS0_EvS2_lS4_iEEEvS2_PKiS4_ll5uint3mmmmmmmmm");
  ASSERT_EQ(M3.PerArch.size(), 1u) << M3.Note;
  EXPECT_EQ(M3.PerArch[0]->Registers, 38);
  // Another instantiation is still not taken for one of these.
  ResourceTable::Match M4 = T.match("_ZL13k_get_rows_kqI6__halfTnPFvPKvlPT_iEXadL_ZL15dequantize_"
                                    "q4_KIS0_EvS2_lS4_iEEEvS2_PKiS4_ll5uint3mmmmmmmmm");
  EXPECT_TRUE(M4.PerArch.empty());
}

TEST(Resources, BaseNameFallbackAndUnmatchedNote) {
  ResourceTable T;
  T.addPtxasLogFile(input("kernels-sm80.log"));
  // Same base name, other parameter types: the only 'heavy' is taken, with a note.
  ResourceTable::Match M = T.match("_Z5heavyPfPKf");
  ASSERT_EQ(M.PerArch.size(), 1u);
  EXPECT_TRUE(M.ByBaseName);
  EXPECT_NE(M.Note.find("base name"), std::string::npos);
  // Two instantiations of scaleT: a third one cannot be told apart.
  ResourceTable::Match A = T.match("_Z6scaleTILi64EEvPff");
  EXPECT_TRUE(A.PerArch.empty());
  EXPECT_NE(A.Note.find("several named 'scaleT'"), std::string::npos);
  ResourceTable::Match N = T.match("_Z7missingv");
  EXPECT_TRUE(N.PerArch.empty());
  EXPECT_NE(N.Note.find("no entry for '_Z7missingv'"), std::string::npos);
}

TEST(Resources, BaseNames) {
  EXPECT_EQ(kernelBaseName("_Z5heavyPdPKd"), "heavy");
  EXPECT_EQ(kernelBaseName("_Z6scaleTILi512EEvPff"), "scaleT");
  EXPECT_EQ(kernelBaseName("_ZN12_GLOBAL__N_16hiddenEPi"), "hidden");
  EXPECT_EQ(kernelBaseName("_ZN2ns5inner4stepIfEEvPT_"), "step");
  EXPECT_EQ(kernelBaseName("plain_c_kernel"), "plain_c_kernel");
}

TEST(Resources, BadFilesAreErrors) {
  ResourceTable T;
  T.addPtxasLogFile(input("does-not-exist.log"));
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("cannot read ptxas log"), std::string::npos);
  T.addPtxasLogFile(input("README.md"));
  ASSERT_EQ(T.Errors.size(), 2u);
  EXPECT_NE(T.Errors[1].find("no ptxas output"), std::string::npos);
  T.addObjectFile(input("kernels-sm80.log"));
  ASSERT_EQ(T.Errors.size(), 3u);
  EXPECT_NE(T.Errors[2].find("not a 64-bit ELF"), std::string::npos);
  EXPECT_TRUE(T.Entries.empty());
}

TEST(Resources, PtxasLogWithoutKernelEntryIsAnError) {
  llvm::SmallString<128> Path;
  int Fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("device-only", "log", Fd, Path));
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << "ptxas info    : 0 bytes gmem\n"
          "ptxas info    : Function properties for _Z5twicef\n"
          "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  }
  ResourceTable T;
  T.addPtxasLogFile(Path);
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("ptxas output but no kernel entry"), std::string::npos) << T.Errors[0];
  // The same text from nvcc run by warplint (a TU without kernels) is no error.
  ResourceTable FromNvcc;
  FromNvcc.addPtxasLog("ptxas info    : 0 bytes gmem\n", "nvcc", ResourceSource::Nvcc);
  EXPECT_TRUE(FromNvcc.Errors.empty());
  llvm::sys::fs::remove(Path);
}

// Real nvcc outputs: the object reader must agree with ptxas's own log of the same build.
class NvccObjects : public ::testing::Test {
protected:
  std::string Nvcc, Dir;
  void SetUp() override {
    llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("nvcc", {"/usr/local/cuda/bin"});
    if (!P)
      GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to run the object tests)";
    Nvcc = *P;
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-objects", D));
    Dir = std::string(D);
  }
  void TearDown() override {
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }
  // Runs nvcc with -Xptxas -v, the log going to <Out>.log; returns the log path.
  std::string compile(std::vector<std::string> Args, llvm::StringRef Out) {
    std::string Log = Dir + "/" + Out.str() + ".log";
    std::vector<llvm::StringRef> Argv = {Nvcc};
    for (const std::string &A : Args)
      Argv.push_back(A);
    std::string OutPath = Dir + "/" + Out.str(), Src = input("kernels.cu");
    for (llvm::StringRef A : {llvm::StringRef("-Xptxas"), llvm::StringRef("-v"),
                              llvm::StringRef(Src), llvm::StringRef("-o"),
                              llvm::StringRef(OutPath)})
      Argv.push_back(A);
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                  llvm::StringRef(Log)};
    std::string Err;
    int Rc = llvm::sys::ExecuteAndWait(Nvcc, Argv, std::nullopt, Redirects, 300, 0, &Err);
    EXPECT_EQ(Rc, 0) << Err;
    return Log;
  }
  void expectAgreement(const ResourceTable &Objects, const ResourceTable &Log,
                       size_t ExpectedKernels) {
    ASSERT_TRUE(Objects.Errors.empty()) << Objects.Errors.front();
    ASSERT_TRUE(Log.Errors.empty()) << Log.Errors.front();
    ASSERT_EQ(Log.Entries.size(), ExpectedKernels);
    for (const KernelFigures &L : Log.Entries) {
      const KernelFigures *O = nullptr;
      for (const KernelFigures &K : Objects.Entries)
        if (K.Name == L.Name && K.Arch == L.Arch)
          O = &K;
      ASSERT_NE(O, nullptr) << L.Name << " " << L.Arch;
      EXPECT_EQ(O->Registers, L.Registers) << L.Name << " " << L.Arch;
      EXPECT_EQ(O->StaticSharedBytes, L.StaticSharedBytes) << L.Name << " " << L.Arch;
      EXPECT_EQ(O->Source, ResourceSource::Objects);
    }
  }
};

TEST_F(NvccObjects, HostObjectWithTwoCubinsAgreesWithTheLog) {
  std::string Log = compile({"-gencode", "arch=compute_75,code=sm_75", "-gencode",
                             "arch=compute_90,code=sm_90", "-maxrregcount=40", "-c"},
                            "two.o");
  ResourceTable FromLog, FromObj;
  FromLog.addPtxasLogFile(Log);
  FromObj.addObjectFile(Dir + "/two.o");
  expectAgreement(FromObj, FromLog, 12);
  // -maxrregcount=40 pins heavy at 40 on both arches.
  ResourceTable::Match M = FromObj.match("_Z5heavyPdPKd");
  ASSERT_EQ(M.PerArch.size(), 2u);
  EXPECT_EQ(M.PerArch[0]->Registers, 40);
  EXPECT_EQ(M.PerArch[1]->Registers, 40);
}

TEST_F(NvccObjects, CubinAgreesWithTheLog) {
  std::string Log = compile({"-arch=sm_80", "-cubin"}, "k.cubin");
  ResourceTable FromLog, FromObj;
  FromLog.addPtxasLogFile(Log);
  FromObj.addObjectFile(Dir + "/k.cubin");
  expectAgreement(FromObj, FromLog, 6);
}

TEST_F(NvccObjects, CompressedFatbinIsReadOrSaysWhy) {
  std::string Log = compile({"-arch=sm_86", "-Xfatbin", "-compress-all", "-c"}, "z.o");
  ResourceTable FromLog, FromObj;
  FromLog.addPtxasLogFile(Log);
  FromObj.addObjectFile(Dir + "/z.o");
  if (llvm::compression::zstd::isAvailable()) {
    expectAgreement(FromObj, FromLog, 6);
    return;
  }
  {
    // Only acceptable failure: this LLVM cannot decompress, and it says so.
    ASSERT_FALSE(FromObj.Errors.empty());
    EXPECT_NE(FromObj.Errors[0].find("compressed"), std::string::npos) << FromObj.Errors[0];
    EXPECT_TRUE(FromObj.Entries.empty());
  }
}

TEST_F(NvccObjects, BlackwellCubinsAgreeWithTheLog) {
  // sm_100 and sm_120 cubins count the reserved shared memory in .nv.shared.<kernel>.
  std::string Log = compile({"-gencode", "arch=compute_100,code=sm_100", "-gencode",
                             "arch=compute_120,code=sm_120", "-c"},
                            "bw.o");
  ResourceTable FromLog, FromObj;
  FromLog.addPtxasLogFile(Log);
  FromObj.addObjectFile(Dir + "/bw.o");
  expectAgreement(FromObj, FromLog, 12);
}

} // namespace

#include "resources/NvccResources.h"

#include <cstdlib>
#include <unistd.h>

namespace {

TEST(NvccResources, ArgvIsOneArchNoOutputNoShell) {
  NvccRequest R;
  R.Nvcc = "/opt/cuda/bin/nvcc";
  R.Source = "/src/k.cu";
  R.Arch = "sm_80";
  R.Args = {"-I/inc", "-maxrregcount=32"};
  std::vector<std::string> A = nvccArgv(R);
  std::vector<std::string> Want = {"/opt/cuda/bin/nvcc", "-I/inc", "-maxrregcount=32",
                                   "-Xptxas", "-v", "-cubin", "-o", "/dev/null",
                                   "-arch=sm_80", "/src/k.cu"};
  EXPECT_EQ(A, Want);
}

TEST(NvccResources, CacheKeyCoversVersionFlagsArchAndContents) {
  NvccRequest R;
  R.Nvcc = "nvcc";
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.ContentKey = "abc";
  std::string K = nvccCacheKey(R, "V13.0.88");
  EXPECT_EQ(K.size(), 64u);
  EXPECT_EQ(K, nvccCacheKey(R, "V13.0.88"));
  EXPECT_NE(K, nvccCacheKey(R, "V12.9.41"));
  NvccRequest F = R;
  F.Args = {"-maxrregcount=32"};
  EXPECT_NE(K, nvccCacheKey(F, "V13.0.88"));
  NvccRequest A = R;
  A.Arch = "sm_90";
  EXPECT_NE(K, nvccCacheKey(A, "V13.0.88"));
  NvccRequest C = R;
  C.ContentKey = "abd";
  EXPECT_NE(K, nvccCacheKey(C, "V13.0.88"));
}

TEST(NvccResources, DefaultCacheDirFollowsXdg) {
  const char *Old = std::getenv("XDG_CACHE_HOME");
  std::string Saved = Old ? Old : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(defaultCacheDir(), "/tmp/xdg-test/warplint");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_NE(defaultCacheDir().find("/.cache/warplint"), std::string::npos);
  if (Old)
    setenv("XDG_CACHE_HOME", Saved.c_str(), 1);
}

TEST(NvccResources, AFailingNvccIsAnErrorAndNothingIsCached) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-fail", Dir));
  NvccRequest R;
  R.Nvcc = "/bin/false";
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.CacheDir = std::string(Dir) + "/cache";
  NvccResult Out = runNvccForResources(R);
  EXPECT_NE(Out.Error.find("exited with 1"), std::string::npos) << Out.Error;
  EXPECT_TRUE(Out.Log.empty());
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(R.CacheDir, EC);
  EXPECT_TRUE(EC || It == llvm::sys::fs::directory_iterator()) << "cache written on failure";
  R.Nvcc = std::string(Dir) + "/no-such-nvcc";
  Out = runNvccForResources(R);
  EXPECT_NE(Out.Error.find("cannot run"), std::string::npos) << Out.Error;
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccResources, UncapPtxRemovesOnlyTheRegisterCaps) {
  // The directive block nvcc 13.0 writes for __launch_bounds__(1024, 2) and __maxnreg__.
  std::string Ptx = ".visible .entry _Z7boundedPf(\n"
                    "\t.param .u64 _Z7boundedPf_param_0\n"
                    ")\n"
                    ".maxntid 1024, 1, 1\n"
                    ".minnctapersm 2\n"
                    "{\n"
                    "\t.reg .f32 %f<4>;\n"
                    "}\n"
                    ".visible .entry _Z6cappedPf(\n"
                    ")\n"
                    ".maxnreg 32\n"
                    "{\n"
                    "\tmov.u32 %r1, %ntid.x;\n"
                    "}\n";
  std::string U = uncapPtx(Ptx);
  EXPECT_EQ(U.find(".maxntid"), std::string::npos) << U;
  EXPECT_EQ(U.find(".minnctapersm"), std::string::npos) << U;
  EXPECT_EQ(U.find(".maxnreg"), std::string::npos) << U;
  // Everything else is kept, %ntid included.
  EXPECT_NE(U.find("mov.u32 %r1, %ntid.x;"), std::string::npos) << U;
  EXPECT_NE(U.find(".reg .f32 %f<4>;"), std::string::npos) << U;
  EXPECT_EQ(U.size(), Ptx.size() - std::string(".maxntid 1024, 1, 1").size() -
                          std::string(".minnctapersm 2").size() -
                          std::string(".maxnreg 32").size());
  EXPECT_EQ(uncapPtx("no caps here"), "no caps here");
}

TEST(NvccResources, WithoutRegisterCapDropsEverySpelling) {
  std::vector<std::string> In = {"-I/inc", "-maxrregcount", "32", "-O3", "--maxrregcount=40",
                                 "-maxrregcount=48", "--maxrregcount", "64", "-DX=1"};
  std::vector<std::string> Want = {"-I/inc", "-O3", "-DX=1"};
  EXPECT_EQ(withoutRegisterCap(In), Want);
}

TEST(NvccResources, UncappedRunOfAFailingNvccIsAnError) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-uncapped", Dir));
  // An "nvcc" that answers --version and fails every compile: the -ptx step fails after
  // the temp files were made.
  std::string Fake = std::string(Dir) + "/nvcc";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Fake, EC);
    ASSERT_FALSE(EC);
    OS << "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Cuda compilation tools, V0'; exit 0; }\n"
          "echo 'fatal: no' >&2; exit 3\n";
  }
  llvm::sys::fs::setPermissions(Fake, llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  NvccRequest R;
  R.Nvcc = Fake;
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.CacheDir = std::string(Dir) + "/cache";
  NvccResult Out = runUncappedNvcc(R);
  EXPECT_NE(Out.Error.find("exited with 3"), std::string::npos) << Out.Error;
  EXPECT_NE(Out.Error.find("fatal: no"), std::string::npos) << Out.Error;
  // No temp file is left behind: the cache holds nvcc's version and the refusal (an
  // exit status nvcc chose is cached as its message), nothing else.
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(R.CacheDir, EC), End; !EC && It != End;
       It.increment(EC))
    EXPECT_TRUE(llvm::StringRef(It->path()).contains("nvcc-version-") ||
                llvm::StringRef(It->path()).ends_with(".nvcc-error.txt"))
        << It->path();
  EXPECT_TRUE(runUncappedNvcc(R).FromCache);
  llvm::sys::fs::remove_directories(Dir);
}

// A script standing in for nvcc: answers --version, counts its compiles in Dir/runs, and
// ends the compile as Body says.
std::string fakeNvcc(llvm::StringRef Dir, llvm::StringRef Body) {
  std::string Path = (Dir + "/nvcc").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "#!/bin/sh\n"
       << "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 99.9'; exit 0; fi\n"
       << "echo run >> '" << Dir << "/runs'\n"
       << Body << "\n";
  }
  llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  return Path;
}

int countRuns(llvm::StringRef Dir) {
  auto B = llvm::MemoryBuffer::getFile(Dir + "/runs");
  return B ? int((*B)->getBuffer().count('\n')) : 0;
}

// nvcc refusing the file (its own exit status) is cached: the second run starts no nvcc
// and says the same words. A compile killed by a signal is not: it may not repeat.
TEST(NvccResources, ARefusedCompileIsCachedACrashIsNot) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-refused", Dir));
  NvccRequest R;
  R.Nvcc = fakeNvcc(Dir, "echo 'k.cu(3): error: lambda needs --extended-lambda' >&2; exit 1");
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.CacheDir = std::string(Dir) + "/cache";
  NvccResult Cold = runNvccForResources(R);
  EXPECT_NE(Cold.Error.find("exited with 1: k.cu(3): error: lambda needs --extended-lambda"),
            std::string::npos)
      << Cold.Error;
  EXPECT_FALSE(Cold.FromCache);
  NvccResult Warm = runNvccForResources(R);
  EXPECT_EQ(Warm.Error, Cold.Error);
  EXPECT_TRUE(Warm.FromCache);
  EXPECT_EQ(countRuns(Dir), 1);
  // Another arch is another key: nvcc runs for it.
  R.Arch = "sm_90";
  runNvccForResources(R);
  EXPECT_EQ(countRuns(Dir), 2);

  llvm::SmallString<128> Dir2;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-killed", Dir2));
  R.Nvcc = fakeNvcc(Dir2, "kill -9 $$");
  R.CacheDir = std::string(Dir2) + "/cache";
  EXPECT_FALSE(runNvccForResources(R).Error.empty());
  NvccResult Again = runNvccForResources(R);
  EXPECT_FALSE(Again.Error.empty());
  EXPECT_FALSE(Again.FromCache);
  EXPECT_EQ(countRuns(Dir2), 2);
  llvm::sys::fs::remove_directories(Dir);
  llvm::sys::fs::remove_directories(Dir2);
}

// The what-if of a file built as relocatable device code is assembled with -rdc=true, and
// a bound ptxas refuses says ptxas's own error line, not the tail of its report (on
// cuda-samples' interval.cu the refusal came first and 40 lines of the other kernels'
// figures after it: the note quoted only those).
TEST(NvccResources, BoundedRunOfRdcSaysPtxasError) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-bounded", Dir));
  NvccRequest R;
  R.Nvcc = fakeNvcc(
      Dir, "echo \"$*\" >> '" + std::string(Dir) + "/args'\n"
           "out=; prev=; ptx=0\n"
           "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; [ \"$a\" = -ptx ] && ptx=1; prev=$a; done\n"
           "if [ $ptx = 1 ]; then printf '.visible .entry _Z1kPf(\\n)\\n{\\n}\\n' > \"$out\"; exit 0; fi\n"
           "echo \"ptxas error   : Entry function '_Z1kPf' with max regcount of 48 calls function "
           "'_Z1fv' with regcount of 70\" >&2\n"
           "i=0; while [ $i -lt 40 ]; do echo 'ptxas info    : Compile time = 1.0 ms' >&2; "
           "i=$((i+1)); done\n"
           "exit 255");
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.Args = {"-rdc=true"};
  R.CacheDir = std::string(Dir) + "/cache";
  PtxBound B;
  B.Kernel = "_Z1kPf";
  B.Threads = 64;
  B.MinBlocks = 20;
  NvccResult Out = runBoundedPtxas(R, {B});
  EXPECT_NE(Out.Error.find("exited with 255: ptxas error   : Entry function '_Z1kPf' with max "
                           "regcount of 48 calls function '_Z1fv' with regcount of 70"),
            std::string::npos)
      << Out.Error;
  auto Args = llvm::MemoryBuffer::getFile(Dir + "/args");
  ASSERT_TRUE(Args);
  llvm::SmallVector<llvm::StringRef, 4> Runs;
  (*Args)->getBuffer().trim().split(Runs, '\n');
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_TRUE(Runs[0].contains("-ptx"));
  EXPECT_TRUE(Runs[1].starts_with("-rdc=true -cubin")) << Runs[1].str();
  llvm::sys::fs::remove_directories(Dir);
}

// A damaged cache entry (cut to 50 bytes, as a full disk or a killed copy leaves it) is a
// miss: removed, nvcc runs again, Repaired says so once; the entry written anew is a hit.
// Before, the 50 bytes were read as a report with no kernels and nvcc never ran again.
TEST(NvccResources, ADamagedEntryIsAMissSaidOnce) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-nvcc-damaged", Dir));
  NvccRequest R;
  R.Nvcc = fakeNvcc(Dir, "cat >&2 <<'LOG'\n"
                         "ptxas info    : 0 bytes gmem\n"
                         "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
                         "ptxas info    : Function properties for _Z1kPf\n"
                         "    0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
                         "ptxas info    : Used 255 registers, used 0 barriers, 360 bytes cmem[0]\n"
                         "LOG");
  R.Source = "k.cu";
  R.Arch = "sm_80";
  R.CacheDir = std::string(Dir) + "/cache";
  NvccResult Cold = runNvccForResources(R);
  ASSERT_TRUE(Cold.Error.empty()) << Cold.Error;
  EXPECT_NE(Cold.Log.find("Used 255 registers"), std::string::npos);
  EXPECT_TRUE(Cold.Repaired.empty());
  ASSERT_FALSE(Cold.CacheFile.empty());
  ASSERT_TRUE(llvm::sys::fs::exists(Cold.CacheFile));
  EXPECT_EQ(countRuns(Dir), 1);

  ASSERT_EQ(::truncate(Cold.CacheFile.c_str(), 50), 0);
  NvccResult Again = runNvccForResources(R);
  EXPECT_FALSE(Again.FromCache);
  EXPECT_EQ(Again.Log, Cold.Log);
  EXPECT_NE(Again.Repaired.find("was damaged"), std::string::npos) << Again.Repaired;
  EXPECT_NE(Again.Repaired.find(Cold.CacheFile), std::string::npos) << Again.Repaired;
  EXPECT_EQ(countRuns(Dir), 2);

  NvccResult Warm = runNvccForResources(R);
  EXPECT_TRUE(Warm.FromCache);
  EXPECT_TRUE(Warm.Repaired.empty()) << Warm.Repaired;
  EXPECT_EQ(Warm.Log, Cold.Log);
  EXPECT_EQ(countRuns(Dir), 2);

  // One byte changed inside the report (same size) is found too.
  {
    auto B = llvm::MemoryBuffer::getFile(Cold.CacheFile);
    ASSERT_TRUE(bool(B));
    std::string Text = (*B)->getBuffer().str();
    size_t At = Text.find("255");
    ASSERT_NE(At, std::string::npos);
    Text[At] = '1';
    std::error_code EC;
    llvm::raw_fd_ostream OS(Cold.CacheFile, EC);
    OS << Text;
  }
  NvccResult Edited = runNvccForResources(R);
  EXPECT_FALSE(Edited.FromCache);
  EXPECT_FALSE(Edited.Repaired.empty());
  EXPECT_EQ(Edited.Log, Cold.Log);
  EXPECT_EQ(countRuns(Dir), 3);

  // A cache-only request finds the damage too, and says the report is not cached.
  ASSERT_EQ(::truncate(Cold.CacheFile.c_str(), 50), 0);
  R.CacheOnly = true;
  NvccResult Only = runNvccForResources(R);
  EXPECT_EQ(Only.Error, NvccNotCached);
  EXPECT_FALSE(Only.Repaired.empty());
  EXPECT_FALSE(llvm::sys::fs::exists(Cold.CacheFile));
  EXPECT_EQ(countRuns(Dir), 3);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace

#include "resources/RegisterSource.h"

// The register caches' content key names warplint's own headers by their place in the
// installation, so two copies of warplint (a build tree and an install) share entries;
// every other file keeps its path.
TEST(Resources, ContentKeyNamesOfWarplintHeadersIgnoreTheInstallPrefix) {
  using ::warplint::contentKeyName;
  EXPECT_EQ(contentKeyName("/opt/a/share/warplint/include/warplint_cuda_compat.h"),
            "<warplint>/include/warplint_cuda_compat.h");
  EXPECT_EQ(contentKeyName("/home/u/build/share/warplint/include/warplint_cuda_compat.h"),
            contentKeyName("/usr/share/warplint/include/warplint_cuda_compat.h"));
  EXPECT_EQ(contentKeyName("/x/share/warplint/fallback/omp.h"), "<warplint>/fallback/omp.h");
  EXPECT_EQ(contentKeyName("/src/proj/kernels.cuh"), "/src/proj/kernels.cuh");
  EXPECT_EQ(contentKeyName("/src/share/warplintish/a.h"), "/src/share/warplintish/a.h");
  EXPECT_NE(contentKeyName("/a/share/warplint/include/x.h"),
            contentKeyName("/a/share/warplint/fallback/x.h"));
}

// The what-if of register advice: each bound's directives after its entry's parameter
// list, a name that only starts like another entry's not taken for it, a kernel missing
// from the PTX reported.
TEST(NvccResources, BoundPtxPlacesDirectivesPerEntry) {
  const std::string Ptx = ".visible .entry _Z1kPf(\n\t.param .u64 _Z1kPf_param_0\n)\n{\n\tret;\n}\n"
                          ".visible .entry _Z1kPfi(\n\t.param .u64 p0,\n\t.param .u32 p1\n)\n{\n\tret;\n}\n";
  PtxBound A;
  A.Kernel = "_Z1kPfi";
  A.Threads = 256;
  A.MinBlocks = 4;
  PtxBound B;
  B.Kernel = "_Z1kPf";
  B.MaxRegisters = 64;
  PtxBound Gone;
  Gone.Kernel = "_Z4gonev";
  std::vector<std::string> Missing;
  std::string Out = boundPtx(Ptx, {A, B, Gone}, Missing);
  EXPECT_EQ(Out, ".visible .entry _Z1kPf(\n\t.param .u64 _Z1kPf_param_0\n)\n.maxnreg 64\n{\n\tret;\n}\n"
                 ".visible .entry _Z1kPfi(\n\t.param .u64 p0,\n\t.param .u32 p1\n)\n"
                 ".maxntid 256, 1, 1\n.minnctapersm 4\n{\n\tret;\n}\n");
  EXPECT_EQ(Missing, std::vector<std::string>{"_Z4gonev"});
  EXPECT_EQ(A.key(), "_Z1kPfi:256,4");
  EXPECT_EQ(B.key(), "_Z1kPf:maxnreg 64");
}

// A static __global__ compiled with -rdc is named `__nv_static_<N>__<hash>_<mangled>` in
// the PTX; the bound names it as the register table does (the prefix stripped) and finds
// it all the same (cuda-samples' jacobi.cu, MonteCarlo_kernel.cu: before, "no entry in
// the PTX"); a name that only ends like the kernel's is not taken for it.
TEST(NvccResources, BoundPtxFindsNvStaticEntries) {
  const std::string Ptx =
      ".entry __nv_static_30__5de216ff_9_jacobi_cu_3dc991e0__Z1kPf(\n\t.param .u64 p0\n)\n{\n}\n"
      ".entry _Z2xx_Z1kPf(\n\t.param .u64 p0\n)\n{\n}\n";
  PtxBound A;
  A.Kernel = "_Z1kPf";
  A.Threads = 128;
  A.MinBlocks = 8;
  std::vector<std::string> Missing;
  std::string Out = boundPtx(Ptx, {A}, Missing);
  EXPECT_TRUE(Missing.empty());
  EXPECT_EQ(Out, ".entry __nv_static_30__5de216ff_9_jacobi_cu_3dc991e0__Z1kPf(\n\t.param .u64 p0\n)\n"
                 ".maxntid 128, 1, 1\n.minnctapersm 8\n{\n}\n"
                 ".entry _Z2xx_Z1kPf(\n\t.param .u64 p0\n)\n{\n}\n");
}

// The AMD what-if: each bound's kernel gets an attribute group of its own (a copy of its
// group with the bound's attributes replaced or added); other kernels, a group two kernels
// share, and the rest of the module stay byte for byte.
TEST(NvccResources, BoundAmdgpuIrGivesEachKernelItsGroup) {
  std::string Ir = "define protected amdgpu_kernel void @_Z1aPf(ptr %0) local_unnamed_addr #0 {\n"
                   "  ret void\n}\n"
                   "define protected amdgpu_kernel void @_Z1bPf(ptr %0) local_unnamed_addr #0 {\n"
                   "  ret void\n}\n"
                   "attributes #0 = { nounwind \"amdgpu-flat-work-group-size\"=\"1,1024\" "
                   "\"target-cpu\"=\"gfx906\" }\n";
  AmdgpuBound A;
  A.Kernel = "_Z1aPf";
  A.Threads = 256;
  A.WavesPerEu = 5;
  AmdgpuBound Gone;
  Gone.Kernel = "_Z4gonev";
  std::vector<std::string> Missing;
  std::string Out = boundAmdgpuIr(Ir, {A, Gone}, Missing);
  EXPECT_EQ(Out, "define protected amdgpu_kernel void @_Z1aPf(ptr %0) local_unnamed_addr #1 {\n"
                 "  ret void\n}\n"
                 "define protected amdgpu_kernel void @_Z1bPf(ptr %0) local_unnamed_addr #0 {\n"
                 "  ret void\n}\n"
                 "attributes #0 = { nounwind \"amdgpu-flat-work-group-size\"=\"1,1024\" "
                 "\"target-cpu\"=\"gfx906\" }\n"
                 "attributes #1 = { nounwind \"amdgpu-flat-work-group-size\"=\"1,256\" "
                 "\"target-cpu\"=\"gfx906\" \"amdgpu-waves-per-eu\"=\"5\" }\n");
  EXPECT_EQ(Missing, std::vector<std::string>{"_Z4gonev"});
  EXPECT_EQ(A.key(), "_Z1aPf:256,5");
  // A group reference followed by debug metadata.
  std::string Dbg = "define amdgpu_kernel void @_Z1aPf(ptr %0) #0 !dbg !7 {\n}\n"
                    "attributes #0 = { \"target-cpu\"=\"gfx906\" }\n";
  EXPECT_EQ(boundAmdgpuIr(Dbg, {A}, Missing),
            "define amdgpu_kernel void @_Z1aPf(ptr %0) #1 !dbg !7 {\n}\n"
            "attributes #0 = { \"target-cpu\"=\"gfx906\" }\n"
            "attributes #1 = { \"target-cpu\"=\"gfx906\" \"amdgpu-flat-work-group-size\"=\"1,256\" "
            "\"amdgpu-waves-per-eu\"=\"5\" }\n");
  AmdgpuBound Cap;
  Cap.Kernel = "_Z1bPf";
  Cap.MaxVgprs = 128;
  Missing.clear();
  Out = boundAmdgpuIr(Ir, {Cap}, Missing);
  EXPECT_NE(Out.find("@_Z1bPf(ptr %0) local_unnamed_addr #1 {"), std::string::npos);
  EXPECT_NE(Out.find("\"target-cpu\"=\"gfx906\" \"amdgpu-num-vgpr\"=\"128\" }"),
            std::string::npos);
  EXPECT_TRUE(Missing.empty());
  EXPECT_EQ(clangRelease("Debian clang version 22.1.8 (1~deb12u1)\nTarget: x86_64"), "22.1");
}
