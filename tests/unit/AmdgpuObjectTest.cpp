//===- AmdgpuObjectTest.cpp - AMDGPU code objects and offload bundles, good and bad -===//
//
// The images are built here byte by byte (an ELF64 with one SHT_NOTE section, the note's
// MessagePack written by LLVM's msgpack writer), so each defect is exactly the one named;
// tests/e2e/hip-objects-e2e.sh reads clang's real objects.
//
//===----------------------------------------------------------------------------===//
#include "resources/AmdgpuObjects.h"
#include "resources/Resources.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ::warplint;

namespace {

template <typename T> void put(std::string &S, T V) {
  for (size_t I = 0; I < sizeof(T); ++I)
    S.push_back(char((uint64_t(V) >> (8 * I)) & 0xff));
}

void pad4(std::string &S) {
  while (S.size() % 4)
    S.push_back('\0');
}

/// The MessagePack of a metadata note with one kernel; Drop leaves that key out.
std::string metadata(llvm::StringRef Drop = "") {
  llvm::msgpack::Document Doc;
  llvm::msgpack::MapDocNode Root = Doc.getRoot().getMap(/*Convert=*/true);
  Root["amdhsa.target"] = Doc.getNode("amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-");
  llvm::msgpack::ArrayDocNode Ks = Root["amdhsa.kernels"].getArray(/*Convert=*/true);
  llvm::msgpack::MapDocNode K = Doc.getMapNode();
  auto Set = [&](llvm::StringRef Key, llvm::msgpack::DocNode V) {
    if (Key != Drop)
      K[Key] = V;
  };
  Set(".name", Doc.getNode("_Z4gemmPfi"));
  Set(".symbol", Doc.getNode("_Z4gemmPfi.kd"));
  Set(".vgpr_count", Doc.getNode(uint64_t(40)));
  Set(".agpr_count", Doc.getNode(uint64_t(64)));
  Set(".sgpr_count", Doc.getNode(uint64_t(22)));
  Set(".group_segment_fixed_size", Doc.getNode(uint64_t(8192)));
  Set(".private_segment_fixed_size", Doc.getNode(uint64_t(16)));
  Set(".wavefront_size", Doc.getNode(uint64_t(64)));
  Set(".max_flat_workgroup_size", Doc.getNode(uint64_t(256)));
  Set(".vgpr_spill_count", Doc.getNode(uint64_t(3)));
  Ks.push_back(K);
  std::string Out;
  Doc.writeToBlob(Out);
  return Out;
}

/// An AMDGPU ELF64 relocatable object with one .note section holding one note.
std::string codeObject(llvm::StringRef Desc, uint32_t NoteType = llvm::ELF::NT_AMDGPU_METADATA,
                       llvm::StringRef NoteName = "AMDGPU") {
  std::string Note;
  put<uint32_t>(Note, NoteName.size() + 1);
  put<uint32_t>(Note, Desc.size());
  put<uint32_t>(Note, NoteType);
  Note += NoteName.str() + '\0';
  pad4(Note);
  Note += Desc.str();
  pad4(Note);
  const std::string StrTab = std::string("\0.note\0.shstrtab\0", 17);
  std::string E;
  E += "\x7f"
       "ELF";
  E.push_back(char(llvm::ELF::ELFCLASS64));
  E.push_back(char(llvm::ELF::ELFDATA2LSB));
  E.push_back(1);                                  // EI_VERSION
  E.push_back(char(llvm::ELF::ELFOSABI_AMDGPU_HSA)); // EI_OSABI
  E.push_back(3);                                  // ABI version: code object v5
  E.resize(16, '\0');
  put<uint16_t>(E, llvm::ELF::ET_REL);
  put<uint16_t>(E, llvm::ELF::EM_AMDGPU);
  put<uint32_t>(E, 1);
  put<uint64_t>(E, 0); // entry
  put<uint64_t>(E, 0); // phoff
  uint64_t NoteOff = 64, StrOff = NoteOff + Note.size(), ShOff = (StrOff + StrTab.size() + 7) / 8 * 8;
  put<uint64_t>(E, ShOff);
  put<uint32_t>(E, llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX908);
  put<uint16_t>(E, 64); // ehsize
  put<uint16_t>(E, 0);  // phentsize
  put<uint16_t>(E, 0);  // phnum
  put<uint16_t>(E, 64); // shentsize
  put<uint16_t>(E, 3);  // shnum
  put<uint16_t>(E, 2);  // shstrndx
  E += Note + StrTab;
  E.resize(ShOff, '\0');
  auto Section = [&](uint32_t Name, uint32_t Type, uint64_t Off, uint64_t Size, uint64_t Align) {
    put<uint32_t>(E, Name);
    put<uint32_t>(E, Type);
    put<uint64_t>(E, 0); // flags
    put<uint64_t>(E, 0); // addr
    put<uint64_t>(E, Off);
    put<uint64_t>(E, Size);
    put<uint32_t>(E, 0); // link
    put<uint32_t>(E, 0); // info
    put<uint64_t>(E, Align);
    put<uint64_t>(E, 0); // entsize
  };
  Section(0, llvm::ELF::SHT_NULL, 0, 0, 0);
  Section(1, llvm::ELF::SHT_NOTE, NoteOff, Note.size(), 4);
  Section(7, llvm::ELF::SHT_STRTAB, StrOff, StrTab.size(), 1);
  return E;
}

/// An offload bundle of (id, contents) entries, as clang-offload-bundler writes it.
std::string bundle(const std::vector<std::pair<std::string, std::string>> &Entries) {
  std::string H = "__CLANG_OFFLOAD_BUNDLE__";
  put<uint64_t>(H, Entries.size());
  size_t HeaderSize = H.size();
  for (const auto &[Id, C] : Entries)
    HeaderSize += 24 + Id.size();
  uint64_t Off = HeaderSize;
  std::string Body;
  for (const auto &[Id, C] : Entries) {
    put<uint64_t>(H, Off);
    put<uint64_t>(H, C.size());
    put<uint64_t>(H, Id.size());
    H += Id;
    Body += C;
    Off += C.size();
  }
  return H + Body;
}

TEST(AmdgpuCodeObject, ReadsTheMetadataNote) {
  std::string Err;
  std::vector<::warplint::AmdgpuKernel> Ks = readAmdgpuCodeObject(codeObject(metadata()), Err);
  ASSERT_TRUE(Err.empty()) << Err;
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_EQ(Ks[0].Name, "_Z4gemmPfi");
  EXPECT_EQ(Ks[0].Target, "gfx908");
  EXPECT_EQ(Ks[0].Vgprs, 40);
  EXPECT_EQ(Ks[0].Agprs, 64);
  EXPECT_EQ(Ks[0].Sgprs, 22);
  EXPECT_EQ(Ks[0].LdsBytes, 8192u);
  EXPECT_EQ(Ks[0].PrivateBytes, 16u);
  EXPECT_EQ(Ks[0].WaveSize, 64);
  EXPECT_EQ(Ks[0].MaxFlatWorkgroupSize, 256);
  EXPECT_EQ(Ks[0].VgprSpills, 3);
  EXPECT_FALSE(Ks[0].BackendOccupancy.has_value());
  // gfx908: separate VGPR and AGPR files, occupancy counts the larger.
  EXPECT_EQ(::warplint::amdgpuOccupancyVgprs(Ks[0]), 64);
}

TEST(AmdgpuCodeObject, NameFromTheSymbolWithoutName) {
  std::string Err;
  auto Ks = readAmdgpuCodeObject(codeObject(metadata(".name")), Err);
  ASSERT_TRUE(Err.empty()) << Err;
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_EQ(Ks[0].Name, "_Z4gemmPfi");
}

TEST(AmdgpuCodeObject, TruncatedImagesAreErrors) {
  std::string Good = codeObject(metadata());
  // Every prefix: a clear message, never a crash, never kernels from a partial image.
  for (size_t N : {size_t(0), size_t(4), size_t(40), size_t(64), size_t(100), Good.size() / 2,
                   Good.size() - 1}) {
    std::string Err;
    auto Ks = readAmdgpuCodeObject(llvm::StringRef(Good).take_front(N), Err);
    EXPECT_TRUE(Ks.empty()) << N;
    EXPECT_FALSE(Err.empty()) << N;
  }
  std::string Err;
  readAmdgpuCodeObject(llvm::StringRef(Good).take_front(40), Err);
  EXPECT_NE(Err.find("not an AMDGPU code object"), std::string::npos) << Err;
  Err.clear();
  readAmdgpuCodeObject(llvm::StringRef(Good).take_front(Good.size() - 1), Err);
  EXPECT_NE(Err.find("unreadable AMDGPU code object"), std::string::npos) << Err;
}

TEST(AmdgpuCodeObject, NoMetadataNote) {
  std::string Err;
  auto Ks = readAmdgpuCodeObject(codeObject("abcd", /*NoteType=*/1), Err);
  EXPECT_TRUE(Ks.empty());
  EXPECT_NE(Err.find("no NT_AMDGPU_METADATA note"), std::string::npos) << Err;
  Err.clear();
  readAmdgpuCodeObject(codeObject(metadata(), llvm::ELF::NT_AMDGPU_METADATA, "GNU"), Err);
  EXPECT_NE(Err.find("no NT_AMDGPU_METADATA note"), std::string::npos) << Err;
}

TEST(AmdgpuCodeObject, WrongMessagePack) {
  std::string Err;
  // 0xc1 is never used in MessagePack.
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\xc1\xc1\xc1\xc1"), Err).empty());
  EXPECT_NE(Err.find("not valid MessagePack"), std::string::npos) << Err;
  // A truncated map: 0x81 (one pair) with nothing after it.
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x81"), Err).empty());
  EXPECT_NE(Err.find("not valid MessagePack"), std::string::npos) << Err;
  // Valid MessagePack, wrong shape: an array root, a map without kernels, a kernel
  // without its counts, a string where the count should be.
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x91\x01"), Err).empty());
  EXPECT_NE(Err.find("not a map"), std::string::npos) << Err;
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x81\xa1x\x01"), Err).empty());
  EXPECT_NE(Err.find("no amdhsa.kernels"), std::string::npos) << Err;
  // Two maps as keys of one map (LLVM's Document compares such keys with an unreachable
  // branch: the fuzzer's crash), an array key, an extension, two objects.
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x82\x81\x01\x02\x03\x81\x04\x05\x06"), Err).empty());
  EXPECT_NE(Err.find("map or list as a map key"), std::string::npos) << Err;
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x81\x91\x01\x02"), Err).empty());
  EXPECT_NE(Err.find("map or list as a map key"), std::string::npos) << Err;
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject(std::string("\xd4\x01\x00", 3)), Err).empty());
  EXPECT_NE(Err.find("extension"), std::string::npos) << Err;
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject("\x80\x80"), Err).empty());
  EXPECT_NE(Err.find("more than one"), std::string::npos) << Err;
  Err.clear();
  EXPECT_TRUE(readAmdgpuCodeObject(codeObject(metadata(".vgpr_count")), Err).empty());
  EXPECT_NE(Err.find(".vgpr_count"), std::string::npos) << Err;
}

TEST(OffloadBundle, EntriesAndDefects) {
  std::string Obj = codeObject(metadata());
  std::string B = bundle({{"host-x86_64-unknown-linux-gnu-", ""},
                          {"hipv4-amdgcn-amd-amdhsa--gfx908", Obj}});
  ASSERT_TRUE(isOffloadBundle(B));
  std::deque<std::string> Storage;
  std::string Err;
  auto Es = readOffloadBundles(B, Storage, Err);
  ASSERT_TRUE(Err.empty()) << Err;
  ASSERT_EQ(Es.size(), 2u);
  EXPECT_EQ(Es[1].Id, "hipv4-amdgcn-amd-amdhsa--gfx908");
  EXPECT_EQ(Es[1].Contents, Obj);

  // Through the table: the host entry skipped, the code object's kernel named by target.
  ResourceTable T;
  EXPECT_EQ(T.addOffloadBundles(B, "k.o"), 1u);
  ASSERT_TRUE(T.Errors.empty()) << T.Errors.front();
  ASSERT_EQ(T.Entries.size(), 1u);
  EXPECT_EQ(T.Entries[0].Arch, "gfx908");
  EXPECT_EQ(T.Entries[0].Origin, "k.o (gfx908 code object)");
  EXPECT_EQ(T.Entries[0].Registers, 64); // max(VGPRs, AGPRs) on gfx908
  EXPECT_EQ(T.Entries[0].Source, ResourceSource::Objects);

  // Truncated anywhere: an error, no crash.
  for (size_t N = 1; N < B.size(); N += 7) {
    std::deque<std::string> S;
    std::string E;
    readOffloadBundles(llvm::StringRef(B).take_front(N), S, E);
    ResourceTable TT;
    TT.addOffloadBundles(llvm::StringRef(B).take_front(N), "cut.o");
    EXPECT_FALSE(TT.Errors.empty()) << N;
  }
  // An entry pointing past the end.
  std::string Bad = B;
  Bad[24 + 8 + 24 + 30 + 4] = '\x01'; // the second entry's offset, raised by 4 GiB
  Err.clear();
  readOffloadBundles(Bad, Storage, Err);
  EXPECT_NE(Err.find("lies outside the bundle"), std::string::npos) << Err;

  // Bitcode (-fgpu-rdc) is said as such.
  ResourceTable R;
  R.addOffloadBundles(bundle({{"hipv4-amdgcn-amd-amdhsa--gfx90a", "BC\xC0\xDE-bitcode"}}), "rdc.o");
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_NE(R.Errors[0].find("-fgpu-rdc"), std::string::npos) << R.Errors[0];
}

TEST(OffloadBundle, Compressed) {
  if (!llvm::compression::zstd::isAvailable())
    GTEST_SKIP() << "LLVM built without zstd";
  std::string Plain = bundle({{"hipv4-amdgcn-amd-amdhsa--gfx908", codeObject(metadata())}});
  llvm::SmallVector<uint8_t, 0> Z;
  llvm::compression::zstd::compress(llvm::arrayRefFromStringRef(Plain), Z);
  std::string C = "CCOB";
  put<uint16_t>(C, 3);
  put<uint16_t>(C, 1); // zstd
  put<uint64_t>(C, 32 + Z.size());
  put<uint64_t>(C, Plain.size());
  put<uint64_t>(C, 0); // hash, not checked
  C += llvm::toStringRef(Z).str();
  ResourceTable T;
  EXPECT_EQ(T.addOffloadBundles(C, "z.o"), 1u);
  ASSERT_TRUE(T.Errors.empty()) << T.Errors.front();
  ASSERT_EQ(T.Entries.size(), 1u);
  EXPECT_EQ(T.Entries[0].Vgprs, 40);
  // Damaged compressed data: an error.
  C[40] = char(C[40] ^ 0xff);
  ResourceTable D;
  D.addOffloadBundles(C, "z.o");
  EXPECT_FALSE(D.Errors.empty());
}

TEST(AmdgpuCodeObject, ThroughAddObjectFile) {
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("warplint-amd", "o", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << codeObject("\xc1");
  }
  ResourceTable T;
  T.addObjectFile(Path);
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("not valid MessagePack"), std::string::npos) << T.Errors[0];
  EXPECT_NE(T.Errors[0].find(std::string(Path)), std::string::npos) << T.Errors[0];
  llvm::sys::fs::remove(Path);
}

} // namespace
