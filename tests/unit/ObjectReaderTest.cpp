//===- ObjectReaderTest.cpp - -rdc objects, linked binaries, archives vs ptxas's log -===//
#include "resources/Resources.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Object/ArchiveWriter.h"
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

// Builds with the real nvcc in a temp dir; every test compares the object reader with
// the ptxas report of the same build.
class NvccBinaries : public ::testing::Test {
protected:
  std::string Nvcc, Dir;
  void SetUp() override {
    llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("nvcc", {"/usr/local/cuda/bin"});
    if (!P)
      GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to run the object tests)";
    Nvcc = *P;
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warplint-binaries", D));
    Dir = std::string(D);
  }
  void TearDown() override {
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }
  std::string path(llvm::StringRef Name) const { return Dir + "/" + Name.str(); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }
  // nvcc <Args> with ptxas's report on stderr going to <Log>; returns the log's path.
  std::string nvcc(std::vector<std::string> Args, llvm::StringRef Log) {
    std::vector<llvm::StringRef> Argv = {Nvcc, "-Xptxas", "-v"};
    for (const std::string &A : Args)
      Argv.push_back(A);
    std::string LogPath = path(Log);
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                  llvm::StringRef(LogPath)};
    std::string Err;
    int Rc = llvm::sys::ExecuteAndWait(Nvcc, Argv, std::nullopt, Redirects, 300, 0, &Err);
    EXPECT_EQ(Rc, 0) << Err;
    return LogPath;
  }
  // Every entry of the log has the same registers and static shared memory in Objects.
  void expectAgreement(const ResourceTable &Objects, const ResourceTable &Log,
                       size_t ExpectedKernels) {
    ASSERT_TRUE(Objects.Errors.empty()) << Objects.Errors.front();
    ASSERT_TRUE(Log.Errors.empty()) << Log.Errors.front();
    ASSERT_EQ(Log.Entries.size(), ExpectedKernels);
    for (const KernelFigures &L : Log.Entries) {
      ResourceTable::Match M = Objects.match(L.Name);
      const KernelFigures *O = nullptr;
      for (const KernelFigures *K : M.PerArch)
        if (K->Arch == L.Arch)
          O = K;
      ASSERT_NE(O, nullptr) << L.Name << " " << L.Arch;
      EXPECT_FALSE(M.ByBaseName) << L.Name;
      EXPECT_EQ(O->Registers, L.Registers) << L.Name << " " << L.Arch;
      EXPECT_EQ(O->StaticSharedBytes, L.StaticSharedBytes) << L.Name << " " << L.Arch;
      EXPECT_EQ(O->Source, ResourceSource::Objects);
    }
  }
  // A static library of the given members, written with LLVM's archive writer.
  void archive(llvm::StringRef Name, std::vector<std::string> Members) {
    std::vector<llvm::NewArchiveMember> New;
    for (const std::string &M : Members) {
      llvm::Expected<llvm::NewArchiveMember> NM =
          llvm::NewArchiveMember::getFile(M, /*Deterministic=*/true);
      ASSERT_TRUE(bool(NM)) << llvm::toString(NM.takeError());
      NM->MemberName = llvm::sys::path::filename(M);
      New.push_back(std::move(*NM));
    }
    llvm::Error E = llvm::writeArchive(path(Name), New, llvm::SymtabWritingMode::NormalSymtab,
                                       llvm::object::Archive::K_GNU, /*Deterministic=*/true,
                                       /*Thin=*/false);
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  }
  static constexpr const char *MainCu = "void launchHidden(int *p);\n"
                                        "int main() { launchHidden(nullptr); }\n";
};

TEST_F(NvccBinaries, RdcObjectIsReadFromItsRelocatableFatbin) {
  // -rdc objects keep their device code in __nv_relfatbin, not .nv_fatbin.
  // Their sm_90 cubins are relocatable: .nv.shared.<name> has no reserved part yet.
  std::string Log = nvcc({"-gencode", "arch=compute_80,code=sm_80", "-gencode",
                          "arch=compute_90,code=sm_90", "-rdc=true", "-maxrregcount=40", "-c",
                          input("kernels.cu"), "-o", path("rdc.o")},
                         "rdc.log");
  ResourceTable FromLog, FromObj;
  FromLog.addPtxasLogFile(Log);
  FromObj.addObjectFile(path("rdc.o"));
  expectAgreement(FromObj, FromLog, 12);
  ResourceTable::Match M = FromObj.match("_Z5heavyPdPKd");
  ASSERT_EQ(M.PerArch.size(), 2u);
  EXPECT_EQ(M.PerArch[0]->Registers, 40);
  EXPECT_EQ(M.PerArch[1]->Registers, 40);
  ResourceTable::Match T = FromObj.match("_Z10tileKernelPfPKfi");
  ASSERT_EQ(T.PerArch.size(), 2u);
  EXPECT_EQ(T.PerArch[1]->Arch, "sm_90");
  EXPECT_EQ(T.PerArch[1]->StaticSharedBytes, 1024u);
}

TEST_F(NvccBinaries, LinkedExecutablesAgreeWithTheLog) {
  // Whole-program and -rdc executables (the latter holds the linked cubin in .nv_fatbin
  // and the relocatable one in __nv_relfatbin).
  write("main.cu", MainCu);
  for (bool Rdc : {false, true}) {
    std::string Exe = Rdc ? "app-rdc" : "app";
    std::vector<std::string> Args = {"-gencode", "arch=compute_75,code=sm_75", "-gencode",
                                     "arch=compute_90,code=sm_90"};
    if (Rdc)
      Args.push_back("-rdc=true");
    for (const std::string &A : {input("kernels.cu"), path("main.cu"), std::string("-o"),
                                 path(Exe)})
      Args.push_back(A);
    std::string Log = nvcc(Args, Exe + ".log");
    ResourceTable FromLog, FromObj;
    FromLog.addPtxasLogFile(Log);
    FromObj.addObjectFile(path(Exe));
    SCOPED_TRACE(Exe);
    expectAgreement(FromObj, FromLog, 12);
  }
}

TEST_F(NvccBinaries, StaticArchiveMembersWithDeviceCodeAreRead) {
  std::string Log = nvcc({"-gencode", "arch=compute_80,code=sm_80", "-gencode",
                          "arch=compute_120,code=sm_120", "-c", input("kernels.cu"), "-o",
                          path("kernels.o")},
                         "kernels.log");
  // A host-only member beside it (nvcc compiles plain C++ with no fatbin).
  write("host.cpp", "int hostOnly(int x) { return x + 1; }\n");
  nvcc({"-c", path("host.cpp"), "-o", path("host.o")}, "host.log");
  archive("libmixed.a", {path("host.o"), path("kernels.o")});
  ResourceTable FromLog, FromLib;
  FromLog.addPtxasLogFile(Log);
  FromLib.addObjectFile(path("libmixed.a"));
  expectAgreement(FromLib, FromLog, 12);
  ResourceTable::Match M = FromLib.match("_Z5heavyPdPKd");
  ASSERT_EQ(M.PerArch.size(), 2u);
  EXPECT_NE(M.PerArch[0]->Origin.find("libmixed.a(kernels.o)"), std::string::npos)
      << M.PerArch[0]->Origin;
}

TEST_F(NvccBinaries, ArchiveWithoutDeviceCodeIsAnError) {
  write("host.cpp", "int hostOnly(int x) { return x + 1; }\n");
  nvcc({"-c", path("host.cpp"), "-o", path("host.o")}, "host.log");
  archive("libhost.a", {path("host.o")});
  ResourceTable T;
  T.addObjectFile(path("libhost.a"));
  EXPECT_TRUE(T.Entries.empty());
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("holds no device code in any of its 1 members"),
            std::string::npos)
      << T.Errors[0];
  // A plain host object says the same, naming both section kinds.
  ResourceTable H;
  H.addObjectFile(path("host.o"));
  ASSERT_EQ(H.Errors.size(), 1u);
  EXPECT_NE(H.Errors[0].find("no .nv_fatbin, __nv_relfatbin or .hip_fatbin"), std::string::npos)
      << H.Errors[0];
}

TEST(ObjectReader, DamagedArchivesAreErrorsNotCrashes) {
  llvm::SmallString<128> P;
  int FD = -1;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("warplint-bad", "a", FD, P));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    // An archive header announcing a member far larger than the file.
    OS << "!<arch>\nkernels.o/      0           0     0     644     99999999  `\n\x7f"
          "ELF";
  }
  ResourceTable T;
  T.addObjectFile(P);
  llvm::sys::fs::remove(P);
  EXPECT_TRUE(T.Entries.empty());
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("archive"), std::string::npos) << T.Errors[0];
}

} // namespace
