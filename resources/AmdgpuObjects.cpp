//===- AmdgpuObjects.cpp - kernel resources from AMDGPU code objects -------===//
#include "resources/AmdgpuObjects.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cctype>

namespace warplint {
namespace {

using ELFT = llvm::object::ELF64LE;
constexpr llvm::StringLiteral BundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr llvm::StringLiteral CompressedMagic = "CCOB";

/// "gfx90a" of a target id ("amdgcn-amd-amdhsa--gfx90a:xnack-"); empty if none.
std::string gfxOf(llvm::StringRef Id) {
  size_t At = Id.find("gfx");
  if (At == llvm::StringRef::npos)
    return "";
  size_t End = At;
  while (End < Id.size() && std::isalnum(static_cast<unsigned char>(Id[End])))
    ++End;
  return Id.slice(At, End).str();
}

/// The number a metadata entry holds, if it is one.
std::optional<uint64_t> numberOf(const llvm::msgpack::DocNode &N) {
  if (N.getKind() == llvm::msgpack::Type::UInt)
    return N.getUInt();
  if (N.getKind() == llvm::msgpack::Type::Int && N.getInt() >= 0)
    return uint64_t(N.getInt());
  return std::nullopt;
}

/// Whether \p Blob is one MessagePack object that LLVM's Document can hold: its reader
/// compares map keys with an operator that is unreachable for map and array keys (a
/// release build runs into the next function: a fuzzed note crashed there), and has no
/// node for extension types. Walks the objects with the streaming reader first.
bool documentSafe(llvm::StringRef Blob, std::string &Error) {
  llvm::msgpack::Reader R(Blob);
  struct Frame {
    uint64_t Left;
    bool IsMap;
  };
  std::vector<Frame> Stack;
  bool Root = false;
  for (;;) {
    llvm::msgpack::Object Obj;
    llvm::Expected<bool> Got = R.read(Obj);
    if (!Got) {
      llvm::consumeError(Got.takeError());
      Error = "the AMDGPU metadata note is not valid MessagePack";
      return false;
    }
    if (!*Got)
      break;
    if (Stack.empty() && Root) {
      Error = "the AMDGPU metadata note holds more than one MessagePack object";
      return false;
    }
    Root = true;
    bool IsKey = !Stack.empty() && Stack.back().IsMap && Stack.back().Left % 2 == 0;
    if (!Stack.empty())
      --Stack.back().Left;
    bool Container = Obj.Kind == llvm::msgpack::Type::Map ||
                     Obj.Kind == llvm::msgpack::Type::Array;
    if ((IsKey && Container) || Obj.Kind == llvm::msgpack::Type::Extension) {
      Error = IsKey && Container ? "the AMDGPU metadata note has a map or list as a map key"
                                 : "the AMDGPU metadata note holds a MessagePack extension";
      return false;
    }
    if (Container && Obj.Length > 0) {
      if (Stack.size() >= 64) {
        Error = "the AMDGPU metadata note is nested too deeply";
        return false;
      }
      Stack.push_back({Obj.Kind == llvm::msgpack::Type::Map ? 2 * uint64_t(Obj.Length)
                                                             : uint64_t(Obj.Length),
                       Obj.Kind == llvm::msgpack::Type::Map});
    }
    while (!Stack.empty() && Stack.back().Left == 0)
      Stack.pop_back();
  }
  if (!Stack.empty() || !Root) {
    Error = "the AMDGPU metadata note is not valid MessagePack (cut off)";
    return false;
  }
  return true;
}

/// The kernels of a metadata note's MessagePack document.
std::vector<::warplint::AmdgpuKernel> kernelsOfNote(llvm::StringRef Blob, std::string Target,
                                                    std::string &Error) {
  if (!documentSafe(Blob, Error))
    return {};
  llvm::msgpack::Document Doc;
  if (!Doc.readFromBlob(Blob, /*Multi=*/false)) {
    Error = "the AMDGPU metadata note is not valid MessagePack";
    return {};
  }
  llvm::msgpack::DocNode &Root = Doc.getRoot();
  if (!Root.isMap()) {
    Error = "the AMDGPU metadata note is not a map (amdhsa.kernels expected)";
    return {};
  }
  llvm::msgpack::MapDocNode RootMap = Root.getMap();
  auto T = RootMap.find("amdhsa.target");
  if (T != RootMap.end() && T->second.isString() && !gfxOf(T->second.getString()).empty())
    Target = gfxOf(T->second.getString());
  auto Ks = RootMap.find("amdhsa.kernels");
  if (Ks == RootMap.end() || !Ks->second.isArray()) {
    Error = "the AMDGPU metadata note has no amdhsa.kernels list";
    return {};
  }
  std::vector<::warplint::AmdgpuKernel> Out;
  for (llvm::msgpack::DocNode &E : Ks->second.getArray()) {
    if (!E.isMap()) {
      Error = "an entry of amdhsa.kernels is not a map";
      return {};
    }
    llvm::msgpack::MapDocNode M = E.getMap();
    auto Num = [&](llvm::StringRef Key) -> std::optional<uint64_t> {
      auto It = M.find(Key);
      return It == M.end() ? std::nullopt : numberOf(It->second);
    };
    auto Str = [&](llvm::StringRef Key) -> std::optional<std::string> {
      auto It = M.find(Key);
      if (It == M.end() || !It->second.isString())
        return std::nullopt;
      return It->second.getString().str();
    };
    std::optional<std::string> Name = Str(".name");
    if (!Name) // .symbol names the kernel descriptor, "<name>.kd"
      if ((Name = Str(".symbol")) && llvm::StringRef(*Name).ends_with(".kd"))
        Name->resize(Name->size() - 3);
    std::optional<uint64_t> V = Num(".vgpr_count"), S = Num(".sgpr_count");
    if (!Name || Name->empty() || !V || !S) {
      Error = "an AMDGPU kernel entry without .name (or .symbol), .vgpr_count or .sgpr_count";
      return {};
    }
    ::warplint::AmdgpuKernel K;
    K.Name = *Name;
    K.Target = Target;
    K.Vgprs = int(*V);
    K.Sgprs = int(*S);
    K.Agprs = int(Num(".agpr_count").value_or(0));
    K.LdsBytes = Num(".group_segment_fixed_size").value_or(0);
    K.PrivateBytes = Num(".private_segment_fixed_size").value_or(0);
    K.WaveSize = int(Num(".wavefront_size").value_or(64));
    K.MaxFlatWorkgroupSize = int(Num(".max_flat_workgroup_size").value_or(0));
    K.VgprSpills = int(Num(".vgpr_spill_count").value_or(0));
    K.SgprSpills = int(Num(".sgpr_spill_count").value_or(0));
    Out.push_back(std::move(K));
  }
  return Out; // a partition of an LTO link may hold no kernel: said by the caller
}

} // namespace

bool isAmdgpuCodeObject(llvm::StringRef Data) {
  return Data.size() >= sizeof(ELFT::Ehdr) && Data.starts_with("\x7f"
                                                                "ELF") &&
         Data[llvm::ELF::EI_CLASS] == llvm::ELF::ELFCLASS64 &&
         Data[llvm::ELF::EI_DATA] == llvm::ELF::ELFDATA2LSB &&
         llvm::support::endian::read16le(Data.data() + 18) == llvm::ELF::EM_AMDGPU;
}

bool isOffloadBundle(llvm::StringRef Data) {
  return Data.starts_with(BundleMagic) || Data.starts_with(CompressedMagic);
}

std::vector<::warplint::AmdgpuKernel> readAmdgpuCodeObject(llvm::StringRef Image,
                                                           std::string &Error) {
  if (!isAmdgpuCodeObject(Image)) {
    Error = "not an AMDGPU code object (a 64-bit little-endian ELF image for EM_AMDGPU)";
    return {};
  }
  llvm::Expected<llvm::object::ELFFile<ELFT>> File = llvm::object::ELFFile<ELFT>::create(Image);
  if (!File) {
    Error = "unreadable AMDGPU code object: " + llvm::toString(File.takeError());
    return {};
  }
  // The processor of the header, for a note without amdhsa.target.
  std::string Target;
  if (auto Obj = llvm::object::ELFObjectFile<ELFT>::create(
          llvm::MemoryBufferRef(Image, "code object"))) {
    if (std::optional<llvm::StringRef> Cpu = Obj->tryGetCPUName())
      Target = gfxOf(*Cpu);
  } else {
    llvm::consumeError(Obj.takeError());
  }
  // The note is in a SHT_NOTE section (.note) and, in a linked code object, in a PT_NOTE
  // segment covering the same bytes: sections first, segments only when no section has
  // one (a stripped image may lack the section table). A code object linked from several
  // LTO partitions (clang's new offload driver) has one note per partition: all count.
  std::vector<llvm::StringRef> Blobs;
  std::string NoteError;
  auto Scan = [&](auto Range) {
    llvm::Error Err = llvm::Error::success();
    for (const auto &N : Range(Err))
      if (N.getType() == llvm::ELF::NT_AMDGPU_METADATA && N.getName() == "AMDGPU")
        Blobs.push_back(N.getDescAsStringRef(4));
    if (Err)
      NoteError = llvm::toString(std::move(Err));
  };
  if (auto Sections = File->sections()) {
    for (const ELFT::Shdr &S : *Sections)
      if (S.sh_type == llvm::ELF::SHT_NOTE)
        Scan([&](llvm::Error &E) { return File->notes(S, E); });
  } else {
    NoteError = llvm::toString(Sections.takeError());
  }
  if (Blobs.empty()) {
    if (auto Segments = File->program_headers()) {
      for (const ELFT::Phdr &P : *Segments)
        if (P.p_type == llvm::ELF::PT_NOTE)
          Scan([&](llvm::Error &E) { return File->notes(P, E); });
    } else {
      llvm::consumeError(Segments.takeError());
    }
  }
  if (!NoteError.empty()) {
    Error = "unreadable AMDGPU code object (truncated or damaged): " + NoteError;
    return {};
  }
  if (Blobs.empty()) {
    Error = "the AMDGPU code object has no NT_AMDGPU_METADATA note (code object v3 or "
            "newer expected)";
    return {};
  }
  std::vector<::warplint::AmdgpuKernel> Kernels;
  for (llvm::StringRef Blob : Blobs) {
    std::vector<::warplint::AmdgpuKernel> Some = kernelsOfNote(Blob, Target, Error);
    if (!Error.empty())
      return {};
    for (::warplint::AmdgpuKernel &K : Some)
      if (llvm::none_of(Kernels, [&](const ::warplint::AmdgpuKernel &Seen) {
            return Seen.Name == K.Name;
          }))
        Kernels.push_back(std::move(K));
  }
  if (Kernels.empty()) {
    Error = "the code object's amdhsa.kernels lists no kernel";
    return {};
  }
  if (Kernels.front().Target.empty()) {
    Error = "the AMDGPU code object names no target (no amdhsa.target in its note, no "
            "processor in its ELF header)";
    return {};
  }
  return Kernels;
}

std::vector<OffloadBundleEntry> readOffloadBundles(llvm::StringRef Data,
                                                   std::deque<std::string> &Storage,
                                                   std::string &Error) {
  using llvm::support::endian::read16le;
  using llvm::support::endian::read32le;
  using llvm::support::endian::read64le;
  std::vector<OffloadBundleEntry> Out;
  size_t Pos = 0;
  while (Pos < Data.size()) {
    llvm::StringRef B = Data.drop_front(Pos);
    if (B.starts_with(CompressedMagic)) {
      // "CCOB", version, method (llvm::compression::Format), sizes, a hash, the data.
      if (B.size() < 8) {
        Error = "truncated compressed offload bundle header";
        return Out;
      }
      uint16_t Version = read16le(B.data() + 4), Method = read16le(B.data() + 6);
      size_t HeaderSize = Version == 1 ? 20 : Version == 2 ? 24 : Version == 3 ? 32 : 0;
      if (HeaderSize == 0 || B.size() < HeaderSize) {
        Error = HeaderSize == 0 ? "compressed offload bundle of unknown version " +
                                      std::to_string(Version)
                                : std::string("truncated compressed offload bundle header");
        return Out;
      }
      uint64_t Total = Version == 1 ? B.size()
                       : Version == 2 ? read32le(B.data() + 8)
                                      : read64le(B.data() + 8);
      uint64_t Uncompressed = Version == 1   ? read32le(B.data() + 8)
                              : Version == 2 ? read32le(B.data() + 12)
                                             : read64le(B.data() + 16);
      if (Total < HeaderSize || Total > B.size()) {
        Error = "truncated compressed offload bundle";
        return Out;
      }
      if (Method > 1) {
        Error = "compressed offload bundle with an unknown compression method";
        return Out;
      }
      auto Format = Method == 0 ? llvm::compression::Format::Zlib : llvm::compression::Format::Zstd;
      if (const char *Why = llvm::compression::getReasonIfUnsupported(Format)) {
        Error = std::string("cannot decompress the offload bundle: ") + Why;
        return Out;
      }
      if (Uncompressed > (uint64_t(1) << 32)) {
        Error = "compressed offload bundle claims an implausible size";
        return Out;
      }
      llvm::SmallVector<uint8_t, 0> Plain;
      if (llvm::Error E = llvm::compression::decompress(
              Format, llvm::arrayRefFromStringRef(B.slice(HeaderSize, Total)), Plain,
              size_t(Uncompressed))) {
        Error = "cannot decompress the offload bundle: " + llvm::toString(std::move(E));
        return Out;
      }
      Storage.emplace_back(llvm::toStringRef(Plain).str());
      std::string Inner;
      std::vector<OffloadBundleEntry> Entries = readOffloadBundles(Storage.back(), Storage, Inner);
      Out.insert(Out.end(), Entries.begin(), Entries.end());
      if (!Inner.empty()) {
        Error = Inner;
        return Out;
      }
      Pos += Total;
    } else if (B.starts_with(BundleMagic)) {
      size_t Off = BundleMagic.size();
      if (B.size() < Off + 8) {
        Error = "truncated offload bundle header";
        return Out;
      }
      uint64_t Count = read64le(B.data() + Off);
      Off += 8;
      uint64_t End = Off;
      for (uint64_t I = 0; I < Count; ++I) {
        if (B.size() - Off < 24) {
          Error = "truncated offload bundle: entry " + std::to_string(I + 1) + " of " +
                  std::to_string(Count) + " is cut off";
          return Out;
        }
        uint64_t EOff = read64le(B.data() + Off), ESize = read64le(B.data() + Off + 8),
                 IdLen = read64le(B.data() + Off + 16);
        Off += 24;
        if (IdLen > B.size() - Off || EOff > B.size() || ESize > B.size() - EOff) {
          Error = "malformed offload bundle: entry " + std::to_string(I + 1) +
                  " lies outside the bundle (a truncated file?)";
          return Out;
        }
        OffloadBundleEntry E;
        E.Id = B.substr(Off, IdLen).str();
        E.Contents = B.substr(EOff, ESize);
        Off += IdLen;
        End = std::max<uint64_t>({End, Off, EOff + ESize});
        Out.push_back(std::move(E));
      }
      Pos += End;
    } else if (B.front() == '\0') {
      ++Pos; // alignment between the bundles of a linked executable
    } else {
      if (Out.empty())
        Error = "not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ header)";
      return Out;
    }
  }
  return Out;
}

} // namespace warplint
