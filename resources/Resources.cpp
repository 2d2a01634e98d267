//===- Resources.cpp - per-kernel figures from ptxas logs and nvcc objects ===//
#include "resources/Resources.h"

#include "resources/AmdgpuObjects.h"

#include "warplint/core/AmdgpuAsm.h"

#include "warplint/core/PtxasLog.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <deque>
#include <map>

namespace warplint {

const char *resourceSourceName(ResourceSource S) {
  switch (S) {
  case ResourceSource::None:
    return "none";
  case ResourceSource::PtxasLog:
    return "ptxas-log";
  case ResourceSource::Objects:
    return "objects";
  case ResourceSource::Nvcc:
    return "nvcc";
  case ResourceSource::Clang:
    return "clang";
  }
  return "none";
}

std::optional<ResourceSource> parseResourceSource(llvm::StringRef Text, bool &IsAuto) {
  IsAuto = false;
  std::string T = Text.trim().lower();
  if (T == "auto") {
    IsAuto = true;
    return ResourceSource::None;
  }
  for (ResourceSource S : {ResourceSource::None, ResourceSource::PtxasLog,
                           ResourceSource::Objects, ResourceSource::Nvcc, ResourceSource::Clang})
    if (T == resourceSourceName(S))
      return S;
  return std::nullopt;
}

void ResourceTable::addAmdgpuAssembly(llvm::StringRef Text, llvm::StringRef Origin,
                                      ResourceSource Source) {
  std::string Err;
  std::vector<::warplint::AmdgpuKernel> Kernels =
      ::warplint::parseAmdgpuAssembly(std::string_view(Text.data(), Text.size()), Err);
  if (!Err.empty()) {
    Errors.push_back((Origin + ": " + Err).str());
    return;
  }
  addAmdgpuKernels(Kernels, Origin, Source);
}

size_t ResourceTable::addAmdgpuCodeObject(llvm::StringRef Image, llvm::StringRef Origin) {
  std::string Err;
  std::vector<::warplint::AmdgpuKernel> Kernels = readAmdgpuCodeObject(Image, Err);
  if (!Err.empty()) {
    Errors.push_back((Origin + ": " + Err).str());
    return 0;
  }
  addAmdgpuKernels(Kernels, Origin, ResourceSource::Objects);
  return Kernels.size();
}

size_t ResourceTable::addOffloadBundles(llvm::StringRef Data, llvm::StringRef Path) {
  std::string Err;
  std::deque<std::string> Storage; // decompressed bundles, while their entries are read
  std::vector<OffloadBundleEntry> Entries = readOffloadBundles(Data, Storage, Err);
  if (!Err.empty())
    Errors.push_back((Path + ": " + Err).str());
  size_t CodeObjects = 0, Bitcode = 0;
  for (const OffloadBundleEntry &E : Entries) {
    llvm::StringRef Id(E.Id);
    if (!Id.contains("amdgcn") || E.Contents.empty())
      continue; // the host entry (empty in a device-only bundle), other offload kinds
    llvm::StringRef Target = Id.substr(Id.find("gfx") == llvm::StringRef::npos ? 0 : Id.find("gfx"));
    std::string Origin = (Path + " (" + Target + " code object)").str();
    if (E.Contents.starts_with("BC\xC0\xDE")) {
      ++Bitcode;
      continue;
    }
    if (addAmdgpuCodeObject(E.Contents, Origin) > 0)
      ++CodeObjects;
  }
  if (Bitcode > 0 && CodeObjects == 0)
    Errors.push_back((Path + ": the offload bundle holds AMDGPU bitcode, not code objects "
                             "(-fgpu-rdc): registers are decided when the device code is "
                             "linked; pass the linked executable or a --cuda-device-only -c "
                             "object without -fgpu-rdc")
                         .str());
  else if (CodeObjects == 0 && Err.empty() && Bitcode == 0)
    Errors.push_back((Path + ": the offload bundle holds no AMDGPU code object").str());
  return CodeObjects;
}

void ResourceTable::addAmdgpuKernels(const std::vector<::warplint::AmdgpuKernel> &Kernels,
                                     llvm::StringRef Origin, ResourceSource Source) {
  for (const ::warplint::AmdgpuKernel &K : Kernels) {
    KernelFigures F;
    F.Name = K.Name;
    F.Arch = K.Target;
    F.Source = Source;
    F.Origin = Origin.str();
    F.Registers = ::warplint::amdgpuOccupancyVgprs(K);
    F.StaticSharedBytes = K.LdsBytes;
    F.Vgprs = K.Vgprs;
    F.Agprs = K.Agprs;
    F.Sgprs = K.Sgprs;
    F.WaveSize = K.WaveSize;
    F.PrivateSegmentBytes = K.PrivateBytes;
    F.VgprSpills = K.VgprSpills;
    F.SgprSpills = K.SgprSpills;
    F.BackendOccupancy = K.BackendOccupancy;
    F.MaxFlatWorkgroupSize = K.MaxFlatWorkgroupSize;
    Entries.push_back(std::move(F));
  }
}

void ResourceTable::addPtxasLog(llvm::StringRef Text, llvm::StringRef Origin,
                                ResourceSource Source) {
  std::string Err;
  std::optional<::warplint::PtxasLog> Log =
      ::warplint::parsePtxasLog(std::string_view(Text.data(), Text.size()), &Err);
  if (!Log) {
    Errors.push_back((Origin + ": " + Err).str());
    return;
  }
  for (const std::string &M : Log->Malformed)
    Notes.push_back((Origin + ": unreadable ptxas line, " + M).str());
  for (const std::string &E : Log->Errors)
    Errors.push_back((Origin + ": ptxas error: " + E).str());
  for (const ::warplint::PtxasArchBlock &B : Log->Blocks)
    for (const ::warplint::PtxasFunction &F : B.Functions) {
      if (!F.IsEntry || !F.Registers || F.Arch.empty())
        continue;
      KernelFigures K;
      K.Name = std::string(::warplint::stripNvStaticPrefix(F.Name));
      K.Arch = F.Arch;
      K.Source = Source;
      K.Origin = Origin.str();
      K.Registers = *F.Registers;
      K.StaticSharedBytes = F.SharedBytes;
      K.SpillStoreBytes = F.SpillStoreBytes;
      K.SpillLoadBytes = F.SpillLoadBytes;
      K.StackFrameBytes = F.StackFrameBytes;
      Entries.push_back(std::move(K));
    }
}

void ResourceTable::addPtxasLogFile(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    Errors.push_back(("cannot read ptxas log '" + Path + "': " + Buf.getError().message()).str());
    return;
  }
  size_t EntriesBefore = Entries.size(), ErrorsBefore = Errors.size();
  addPtxasLog((*Buf)->getBuffer(), Path, ResourceSource::PtxasLog);
  // A log the user names must give figures: ptxas lines without any kernel (device
  // functions only, a link step) mean the wrong log, not "no registers known".
  if (Entries.size() == EntriesBefore && Errors.size() == ErrorsBefore)
    Errors.push_back((Path + ": ptxas output but no kernel entry (no \"Compiling entry "
                             "function\" with a \"Used N registers\" line): the log of another "
                             "compile?")
                         .str());
}

namespace {

using ELFT = llvm::object::ELF64LE;
constexpr uint16_t EmCuda = 190;
constexpr uint32_t FatbinMagic = 0xBA55ED50;
constexpr uint16_t FatbinKindElf = 2;
// Entry flags of the fatbin container (measured on CUDA 13.0 output).
constexpr uint64_t FatbinFlagZstd = 0x8000;   // -Xfatbin -compress-all / --compress-mode
constexpr uint64_t FatbinFlagLegacy = 0x2000; // the older LZ-style compression

// The SM number of a cubin: e_flags bits 8-15 from ELF ABI version 8 on, bits 0-7 before.
unsigned cubinSm(const ELFT::Ehdr &H) {
  if (H.e_ident[llvm::ELF::EI_ABIVERSION] >= 8)
    return (H.e_flags >> 8) & 0xff;
  return H.e_flags & 0xff;
}

} // namespace

void ResourceTable::addCubin(llvm::StringRef Image, llvm::StringRef Origin) {
  llvm::Expected<llvm::object::ELFFile<ELFT>> File = llvm::object::ELFFile<ELFT>::create(Image);
  if (File && !Image.starts_with("\x7f"
                                 "ELF"))
    File = llvm::createStringError("no ELF magic");
  if (!File) {
    Errors.push_back(
        (Origin + ": not a readable cubin: " + llvm::toString(File.takeError())).str());
    return;
  }
  const ELFT::Ehdr &H = File->getHeader();
  if (H.e_machine != EmCuda) {
    Errors.push_back((Origin + ": ELF image is not a CUDA cubin").str());
    return;
  }
  std::string Arch = "sm_" + std::to_string(cubinSm(H));
  auto Sections = File->sections();
  if (!Sections) {
    Errors.push_back((Origin + ": " + llvm::toString(Sections.takeError())).str());
    return;
  }
  // Registers: EIATTR_REGCOUNT records of .nv.info (symbol index, count); older cubins
  // also keep the count in bits 24-31 of sh_info of .text.<name> (zero from sm_90 on).
  // Static shared: size of .nv.shared.<name>, which from sm_90 on includes the 1 KB the
  // system reserves per block (measured with CUDA 13.0; .nv.reservedSmem.cap when present).
  std::map<std::string, uint64_t> Shared;
  std::vector<std::pair<std::string, int>> Texts;
  std::map<uint32_t, int> RegCountBySymbol;
  std::map<std::string, uint32_t> SymbolIndex;
  std::optional<uint64_t> ReservedCap;
  for (const ELFT::Shdr &S : *Sections) {
    if (S.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto Syms = File->symbols(&S);
    auto Strs = File->getStringTableForSymtab(S);
    if (!Syms || !Strs) {
      if (!Syms)
        llvm::consumeError(Syms.takeError());
      if (!Strs)
        llvm::consumeError(Strs.takeError());
      continue;
    }
    uint32_t I = 0;
    for (const ELFT::Sym &Sym : *Syms) {
      llvm::Expected<llvm::StringRef> N = Sym.getName(*Strs);
      if (!N) {
        llvm::consumeError(N.takeError());
      } else if (Sym.getType() == llvm::ELF::STT_FUNC) {
        SymbolIndex.emplace(N->str(), I);
      } else if (*N == ".nv.reservedSmem.cap") {
        ReservedCap = Sym.st_value;
      }
      ++I;
    }
  }
  for (const ELFT::Shdr &S : *Sections) {
    llvm::Expected<llvm::StringRef> Name = File->getSectionName(S);
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (*Name == ".nv.info") {
      llvm::Expected<llvm::ArrayRef<uint8_t>> C = File->getSectionContents(S);
      if (!C) {
        llvm::consumeError(C.takeError());
        continue;
      }
      constexpr uint8_t EifmtSval = 0x04, EiattrRegcount = 0x2f;
      for (size_t O = 0; O + 4 <= C->size();) {
        uint8_t Fmt = (*C)[O], Attr = (*C)[O + 1];
        uint16_t Size = llvm::support::endian::read16le(C->data() + O + 2);
        size_t Next = O + 4 + (Fmt == EifmtSval ? Size : 0);
        if (Next > C->size())
          break;
        if (Fmt == EifmtSval && Attr == EiattrRegcount && Size == 8)
          RegCountBySymbol[llvm::support::endian::read32le(C->data() + O + 4)] =
              static_cast<int>(llvm::support::endian::read32le(C->data() + O + 8));
        O = Next;
      }
    } else if (Name->consume_front(".text.")) {
      Texts.emplace_back(Name->str(), static_cast<int>(S.sh_info >> 24));
    } else if (Name->consume_front(".nv.shared.") && !Name->starts_with("reserved.")) {
      Shared[Name->str()] = S.sh_size;
    }
  }
  unsigned Sm = cubinSm(H);
  // Relocatable cubins (-rdc) leave the reserved part to nvlink (.nv.reservedSmem.offset0
  // is undefined there): their .nv.shared.<name> is the kernel's own figure.
  uint64_t Reserved = ReservedCap ? *ReservedCap
                      : (Sm >= 90 && H.e_type != llvm::ELF::ET_REL ? 1024 : 0);
  for (auto &[Name, Regs] : Texts) {
    KernelFigures K;
    K.Name = std::string(::warplint::stripNvStaticPrefix(Name));
    K.Arch = Arch;
    K.Source = ResourceSource::Objects;
    K.Origin = Origin.str();
    K.Registers = Regs;
    auto Idx = SymbolIndex.find(Name);
    if (Idx != SymbolIndex.end()) {
      auto R = RegCountBySymbol.find(Idx->second);
      if (R != RegCountBySymbol.end())
        K.Registers = R->second;
    }
    auto It = Shared.find(Name);
    uint64_t Bytes = It == Shared.end() ? 0 : It->second;
    K.StaticSharedBytes = Bytes >= Reserved ? Bytes - Reserved : Bytes;
    Entries.push_back(std::move(K));
  }
}

namespace {

// What one ELF image outside a cubin gave: whether it held device code at all.
enum class ObjectKind { NotElf, NoDeviceCode, DeviceCode };

// Calls Take(Name, Contents) for each section of File that Want(Name, Section) accepts
// (a name that cannot be read is skipped, contents that cannot be read are said in
// Errors); the section table's own error when it cannot be read.
template <typename WantFn, typename TakeFn>
llvm::Error eachSection(const llvm::object::ELFFile<ELFT> &File, llvm::StringRef Path,
                        std::vector<std::string> &Errors, WantFn Want, TakeFn Take) {
  auto Sections = File.sections();
  if (!Sections)
    return Sections.takeError();
  for (const ELFT::Shdr &S : *Sections) {
    llvm::Expected<llvm::StringRef> Name = File.getSectionName(S);
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (!Want(*Name, S))
      continue;
    llvm::Expected<llvm::ArrayRef<uint8_t>> Contents = File.getSectionContents(S);
    if (!Contents) {
      Errors.push_back((Path + ": " + llvm::toString(Contents.takeError())).str());
      continue;
    }
    Take(*Name, llvm::toStringRef(*Contents));
  }
  return llvm::Error::success();
}

// The fatbin sections of a host object, executable or shared library: .nv_fatbin
// (whole-program objects, linked binaries) first, then __nv_relfatbin (-rdc objects),
// so that the linked cubin is the one matched when a binary has both.
std::vector<llvm::StringRef> fatbinSections(const llvm::object::ELFFile<ELFT> &File,
                                            llvm::StringRef Path,
                                            std::vector<std::string> &Errors) {
  std::vector<llvm::StringRef> Out, Rel;
  llvm::Error E = eachSection(
      File, Path, Errors,
      [](llvm::StringRef Name, const ELFT::Shdr &) {
        return Name == ".nv_fatbin" || Name == "__nv_relfatbin";
      },
      [&](llvm::StringRef Name, llvm::StringRef Contents) {
        (Name == ".nv_fatbin" ? Out : Rel).push_back(Contents);
      });
  if (E) {
    Errors.push_back((Path + ": " + llvm::toString(std::move(E))).str());
    return Out;
  }
  Out.insert(Out.end(), Rel.begin(), Rel.end());
  return Out;
}

// The .hip_fatbin sections of a host object, executable or shared library (clang's
// offload bundles, one per linked TU); NewDriver is set when it has .llvm.offloading.
std::vector<llvm::StringRef> hipFatbinSections(const llvm::object::ELFFile<ELFT> &File,
                                               llvm::StringRef Path,
                                               std::vector<std::string> &Errors,
                                               bool &NewDriver,
                                               std::vector<llvm::StringRef> &Rdc) {
  std::vector<llvm::StringRef> Out;
  // -fgpu-rdc: one section per target, __CLANG_OFFLOAD_BUNDLE__hip-amdgcn-...-gfxNNN.
  auto RdcSection = [](llvm::StringRef Name) {
    return Name.starts_with("__CLANG_OFFLOAD_BUNDLE__") && Name.contains("amdgcn");
  };
  llvm::Error E = eachSection(
      File, Path, Errors,
      [&](llvm::StringRef Name, const ELFT::Shdr &S) {
        NewDriver |= Name == ".llvm.offloading";
        return (Name == ".hip_fatbin" || RdcSection(Name)) && S.sh_type != llvm::ELF::SHT_NOBITS;
      },
      [&](llvm::StringRef Name, llvm::StringRef Contents) {
        (RdcSection(Name) ? Rdc : Out).push_back(Contents);
      });
  llvm::consumeError(std::move(E)); // said by fatbinSections
  return Out;
}

} // namespace

namespace {
std::function<void()> &objectReadGate() {
  static std::function<void()> Gate;
  return Gate;
}
} // namespace

void setObjectReadGate(std::function<void()> Wait) { objectReadGate() = std::move(Wait); }

bool objectReadGateSet() { return static_cast<bool>(objectReadGate()); }

void waitForObjectWriters() {
  // The analysis reads objects from one thread (the launcher analyses one file): once
  // passed, the gate is dropped.
  if (std::function<void()> Wait = std::move(objectReadGate())) {
    objectReadGate() = nullptr;
    Wait();
  }
}

void ResourceTable::addObjectFile(llvm::StringRef Path) {
  waitForObjectWriters();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf) {
    Errors.push_back(("cannot read object '" + Path + "': " + Buf.getError().message()).str());
    return;
  }
  llvm::StringRef Data = (*Buf)->getBuffer();
  if (Data.starts_with("!<thin>\n")) {
    Errors.push_back(("'" + Path + "' is a thin archive (its members live elsewhere): pass "
                      "the objects themselves")
                         .str());
    return;
  }
  if (!Data.starts_with("!<arch>\n")) {
    addObjectImage(Data, Path, /*InArchive=*/false);
    return;
  }
  // A static library of nvcc objects (e.g. CMake's add_library(x STATIC a.cu)): every
  // member with device code counts; host-only members are skipped.
  llvm::Expected<std::unique_ptr<llvm::object::Archive>> Ar =
      llvm::object::Archive::create((*Buf)->getMemBufferRef());
  if (!Ar) {
    Errors.push_back(
        ("'" + Path + "' is not a readable archive: " + llvm::toString(Ar.takeError())).str());
    return;
  }
  size_t Members = 0, WithDeviceCode = 0;
  llvm::Error Err = llvm::Error::success();
  for (const llvm::object::Archive::Child &C : (*Ar)->children(Err)) {
    llvm::Expected<llvm::StringRef> Name = C.getName();
    llvm::Expected<llvm::StringRef> Contents = C.getBuffer();
    if (!Name || !Contents) {
      if (!Name)
        llvm::consumeError(Name.takeError());
      if (!Contents)
        Errors.push_back(("'" + Path + "': unreadable member: " +
                          llvm::toString(Contents.takeError()))
                             .str());
      continue;
    }
    ++Members;
    std::string Origin = (Path + "(" + *Name + ")").str();
    if (addObjectImage(*Contents, Origin, /*InArchive=*/true) > 0)
      ++WithDeviceCode;
  }
  if (Err)
    Errors.push_back(
        ("'" + Path + "' is a damaged archive: " + llvm::toString(std::move(Err))).str());
  else if (WithDeviceCode == 0)
    Errors.push_back(("'" + Path + "' holds no device code in any of its " +
                      llvm::Twine(Members) + " members (no .nv_fatbin, __nv_relfatbin or .hip_fatbin)")
                         .str());
}

size_t ResourceTable::addObjectImage(llvm::StringRef Data, llvm::StringRef Path,
                                     bool InArchive) {
  // HIP: an offload bundle (`--cuda-device-only -c`) or a bare code object (.hsaco).
  if (isOffloadBundle(Data))
    return std::max<size_t>(addOffloadBundles(Data, Path), 1);
  if (isAmdgpuCodeObject(Data))
    return addAmdgpuCodeObject(Data, Path) + 1;
  llvm::Expected<llvm::object::ELFFile<ELFT>> File = llvm::object::ELFFile<ELFT>::create(Data);
  bool Elf64 = Data.starts_with("\x7f"
                                "ELF") &&
               Data.size() > llvm::ELF::EI_CLASS &&
               Data[llvm::ELF::EI_CLASS] == llvm::ELF::ELFCLASS64;
  if (!File || !Elf64) {
    if (!File)
      llvm::consumeError(File.takeError());
    if (!InArchive)
      Errors.push_back(("'" + Path + "' is not a 64-bit ELF object or cubin").str());
    return 0;
  }
  if (File->getHeader().e_machine == EmCuda) {
    size_t Before = Entries.size();
    addCubin(Data, Path);
    return Entries.size() - Before + 1;
  }
  // A host object, executable or shared library: the device code sits in fatbin
  // containers.
  std::vector<llvm::StringRef> Fatbins = fatbinSections(*File, Path, Errors);
  // HIP: clang's offload bundles in .hip_fatbin (hipcc -c, clang++ -x hip -c).
  bool NewDriver = false;
  std::vector<llvm::StringRef> Rdc;
  std::vector<llvm::StringRef> HipFatbins =
      hipFatbinSections(*File, Path, Errors, NewDriver, Rdc);
  if (Fatbins.empty() && HipFatbins.empty() && !Rdc.empty()) {
    // A code object is read; the usual content is the device bitcode of -fgpu-rdc.
    size_t Found = 0;
    for (llvm::StringRef Image : Rdc)
      if (isAmdgpuCodeObject(Image))
        Found += addAmdgpuCodeObject(Image, Path);
    if (Found == 0)
      Errors.push_back(("'" + Path + "' holds AMDGPU device code only as bitcode (-fgpu-rdc): "
                        "registers are decided when the device code is linked; pass the "
                        "linked executable or library, or a --cuda-device-only -c object "
                        "without -fgpu-rdc")
                           .str());
    return std::max<size_t>(Found, 1);
  }
  if (Fatbins.empty() && HipFatbins.empty()) {
    if (NewDriver && !InArchive)
      Errors.push_back(("'" + Path + "' holds device code only as .llvm.offloading (clang's "
                        "new offload driver, bitcode until the link): pass the linked "
                        "executable or a --cuda-device-only -c object")
                           .str());
    else if (!InArchive)
      Errors.push_back(("'" + Path + "' holds no device code (no .nv_fatbin, "
                        "__nv_relfatbin or .hip_fatbin section)")
                           .str());
    return 0;
  }
  size_t Found = 0;
  for (llvm::StringRef FB : HipFatbins)
    Found += std::max<size_t>(addOffloadBundles(FB, Path), 1);
  for (llvm::StringRef FB : Fatbins)
    Found += addFatbin(FB, Path);
  return Found;
}

size_t ResourceTable::addFatbin(llvm::StringRef FB, llvm::StringRef Path) {
  using llvm::support::endian::read16le;
  using llvm::support::endian::read32le;
  using llvm::support::endian::read64le;
  size_t ElfImages = 0, ErrorsBefore = Errors.size();
  // The section may hold several containers back to back (one per linked TU).
  size_t Pos = 0;
  while (Pos + 16 <= FB.size()) {
    const char *Hdr = FB.data() + Pos;
    if (read32le(Hdr) != FatbinMagic) {
      if (ElfImages == 0)
        Errors.push_back((Path + ": the fatbin section does not start with a fatbin header").str());
      break;
    }
    uint16_t HeaderSize = read16le(Hdr + 6);
    uint64_t Size = read64le(Hdr + 8);
    size_t End = Pos + HeaderSize + Size;
    if (HeaderSize < 16 || End > FB.size() || End < Pos) {
      Errors.push_back((Path + ": truncated fatbin container").str());
      break;
    }
    size_t Off = Pos + HeaderSize;
    while (Off + 64 <= End) {
      const char *E = FB.data() + Off;
      uint16_t Kind = read16le(E);
      uint32_t EntryHeader = read32le(E + 4);
      uint64_t Payload = read64le(E + 8);
      uint32_t CompressedSize = read32le(E + 16);
      uint32_t Sm = read32le(E + 28);
      uint64_t Flags = read64le(E + 40);
      uint64_t Uncompressed = read64le(E + 56);
      if (EntryHeader < 64 || Off + EntryHeader + Payload > End) {
        Errors.push_back((Path + ": malformed fatbin entry").str());
        break;
      }
      llvm::StringRef Image = FB.substr(Off + EntryHeader, Payload);
      std::string Origin = (Path + " (sm_" + llvm::Twine(Sm) + " cubin)").str();
      if (Kind == FatbinKindElf) {
        ++ElfImages;
        if (Flags & FatbinFlagZstd) {
          llvm::SmallVector<uint8_t, 0> Out;
          if (!llvm::compression::zstd::isAvailable()) {
            Errors.push_back(Origin + ": the cubin is zstd-compressed and this LLVM has no "
                                      "zstd; pass cubins or a ptxas log instead");
          } else if (llvm::Error Err = llvm::compression::zstd::decompress(
                         llvm::arrayRefFromStringRef(
                             CompressedSize && CompressedSize <= Payload
                                 ? Image.take_front(CompressedSize)
                                 : Image),
                         Out, Uncompressed)) {
            Errors.push_back(Origin + ": cannot decompress the cubin: " +
                             llvm::toString(std::move(Err)));
          } else {
            addCubin(llvm::toStringRef(Out), Origin);
          }
        } else if (Flags & FatbinFlagLegacy) {
          Errors.push_back(Origin + ": the cubin is compressed in the older fatbin format, "
                                    "which warplint cannot read; build with "
                                    "-Xfatbin -compress=false, or pass a ptxas log");
        } else {
          addCubin(Image, Origin);
        }
      }
      Off += EntryHeader + Payload;
    }
    Pos = End;
    // Containers are 8-byte aligned inside the section.
    while (Pos < FB.size() && FB[Pos] == '\0')
      ++Pos;
  }
  if (ElfImages == 0 && Errors.size() == ErrorsBefore)
    Notes.push_back(("'" + Path + "' embeds PTX only (no cubin): registers are decided when "
                     "the driver JIT-compiles it")
                        .str());
  // A PTX-only fatbin still is device code: it is reported by the note above.
  return ElfImages + (ElfImages == 0 ? 1 : 0);
}

namespace {

// The demangled signature, with "(anonymous namespace)" for nvcc's
// _GLOBAL__N__<file-hash> namespaces, and without the _INTERNAL_<hash>_<n>_<file>_<hash>_<n>
// namespace nvcc puts around a function of internal linkage (a static function given as
// a template argument: ggml's k_get_rows_kq<__half, &dequantize_q2_K<__half>>), which
// clang leaves out.
std::string normalisedSignature(llvm::StringRef Mangled) {
  std::string Out = llvm::demangle(Mangled.str());
  static const char *const Anonymous = "_GLOBAL__N__[A-Za-z0-9_]+";
  static const char *const Internal = "_INTERNAL_[0-9a-f]+_[0-9]+_[A-Za-z0-9_]+::";
  llvm::Regex A(Anonymous), I(Internal);
  while (A.match(Out))
    Out = A.sub("(anonymous namespace)", Out);
  while (I.match(Out))
    Out = I.sub("", Out);
  return Out;
}

} // namespace

std::string kernelBaseName(llvm::StringRef MangledOrPlain) {
  std::string D = llvm::demangle(MangledOrPlain.str());
  llvm::StringRef S(D);
  // Cut the parameter list: the first '(' at template depth 0 that does not open
  // "(anonymous namespace)".
  int Depth = 0;
  size_t Cut = S.size();
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<')
      ++Depth;
    else if (C == '>')
      --Depth;
    else if (C == '(' && Depth == 0 && !S.substr(I).starts_with("(anonymous namespace)")) {
      Cut = I;
      break;
    }
  }
  S = S.take_front(Cut);
  // Drop template arguments at the end, then qualifiers.
  if (S.ends_with(">")) {
    int D2 = 0;
    for (size_t I = S.size(); I-- > 0;) {
      if (S[I] == '>')
        ++D2;
      else if (S[I] == '<' && --D2 == 0) {
        S = S.take_front(I);
        break;
      }
    }
  }
  size_t Colon = S.rfind("::");
  if (Colon != llvm::StringRef::npos)
    S = S.drop_front(Colon + 2);
  // The return type of a function template ("void f") precedes the name.
  size_t Space = S.rfind(' ');
  if (Space != llvm::StringRef::npos)
    S = S.drop_front(Space + 1);
  return S.str();
}

ResourceTable::Match ResourceTable::match(llvm::StringRef Mangled) const {
  Match M;
  std::vector<std::string> Archs;
  for (const KernelFigures &K : Entries)
    if (llvm::find(Archs, K.Arch) == Archs.end())
      Archs.push_back(K.Arch);
  std::string Sig = normalisedSignature(Mangled);
  std::string Base = kernelBaseName(Mangled);
  std::vector<std::string> Ambiguous;
  for (const std::string &Arch : Archs) {
    const KernelFigures *Exact = nullptr, *BySig = nullptr;
    std::vector<const KernelFigures *> ByBase;
    for (const KernelFigures &K : Entries) {
      if (K.Arch != Arch)
        continue;
      if (K.Name == Mangled) {
        Exact = &K;
        break;
      }
      if (!BySig && normalisedSignature(K.Name) == Sig)
        BySig = &K;
      else if (kernelBaseName(K.Name) == Base)
        ByBase.push_back(&K);
    }
    if (Exact || BySig) {
      M.PerArch.push_back(Exact ? Exact : BySig);
      continue;
    }
    if (ByBase.size() == 1) {
      M.PerArch.push_back(ByBase.front());
      M.ByBaseName = true;
      M.Note = "matched '" + Base + "' by its base name to '" + ByBase.front()->Name +
               "' (the mangled names differ)";
    } else if (ByBase.size() > 1) {
      Ambiguous.push_back(Arch);
    }
  }
  if (M.PerArch.empty()) {
    if (!Ambiguous.empty())
      M.Note = "no entry named '" + Mangled.str() + "' and several named '" + Base +
               "' in the register source: cannot tell which is this kernel";
    else if (Entries.empty())
      M.Note = "the register source holds no kernels";
    else
      M.Note = "the register source has no entry for '" + Mangled.str() + "'";
  }
  return M;
}

::warplint::KernelResources toKernelResources(const KernelFigures &F,
                                              std::optional<uint64_t> EstimatedStaticSmem,
                                              int LaunchBoundsMaxThreads,
                                              int LaunchBoundsMinBlocks) {
  ::warplint::KernelResources R;
  R.RegistersPerThread = F.Registers;
  // ptxas's own figure wins over the estimate from the declarations.
  R.StaticSharedBytes = F.StaticSharedBytes ? *F.StaticSharedBytes
                                            : EstimatedStaticSmem.value_or(0);
  R.LaunchBoundsMaxThreads = LaunchBoundsMaxThreads;
  R.LaunchBoundsMinBlocks = LaunchBoundsMinBlocks;
  if (F.isAmd()) {
    // core's AMD model reads VGPRs (the occupancy count) and SGPRs per wave.
    R.Vgprs = F.Registers;
    R.Sgprs = F.Sgprs.value_or(0);
  }
  return R;
}

} // namespace warplint
