//===- RegisterSource.cpp - choosing and loading the register source of a TU ===//
#include "resources/RegisterSource.h"

#include "resources/NvccResources.h"

#include "warplint/core/Arch.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

namespace warplint {
using namespace clang;

const char *registerSourceChoiceName(RegisterSourceChoice C) {
  switch (C) {
  case RegisterSourceChoice::Auto:
    return "auto";
  case RegisterSourceChoice::PtxasLog:
    return "ptxas-log";
  case RegisterSourceChoice::Objects:
    return "objects";
  case RegisterSourceChoice::Nvcc:
    return "nvcc";
  case RegisterSourceChoice::None:
    return "none";
  case RegisterSourceChoice::Clang:
    return "clang";
  }
  return "auto";
}

std::optional<RegisterSourceChoice> parseRegisterSourceChoice(llvm::StringRef Text) {
  std::string T = Text.trim().lower();
  for (RegisterSourceChoice C :
       {RegisterSourceChoice::Auto, RegisterSourceChoice::PtxasLog, RegisterSourceChoice::Objects,
        RegisterSourceChoice::Nvcc, RegisterSourceChoice::None, RegisterSourceChoice::Clang})
    if (T == registerSourceChoiceName(C))
      return C;
  return std::nullopt;
}

std::string contentKeyName(llvm::StringRef Path) {
  // warplint's own headers (share/warplint/{include,fallback,cuda,hip}) by their place in
  // the installation: another copy of the same warplint reads the same files elsewhere,
  // and nvcc reads none of them.
  for (llvm::StringRef Marker : {"/share/warplint/", "\\share\\warplint\\"})
    if (size_t At = Path.rfind(Marker); At != llvm::StringRef::npos)
      return "<warplint>/" + Path.substr(At + Marker.size()).str();
  return Path.str();
}

namespace {

// Digest of every file the front end read for this TU, by name and contents: the
// preprocessed input without running a second preprocessor.
std::string contentKey(const SourceManager &SM) {
  std::vector<std::pair<std::string, std::string>> Files;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    FileEntryRef FE = It->first;
    std::optional<llvm::MemoryBufferRef> Buf = It->second->getBufferIfLoaded();
    if (!Buf)
      continue;
    // XXH3-128 per file (fast; the headers of a CUDA TU are megabytes), SHA-256 over all.
    llvm::XXH128_hash_t H = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Buf->getBuffer()));
    Files.emplace_back(contentKeyName(FE.getName()),
                       llvm::utohexstr(H.high64) + ":" + llvm::utohexstr(H.low64));
  }
  std::sort(Files.begin(), Files.end());
  llvm::SHA256 All;
  for (auto &[Name, Digest] : Files) {
    All.update(Name);
    All.update("\n");
    All.update(Digest);
    All.update("\n");
  }
  return llvm::toHex(All.final(), true);
}

// The build flags nvcc needs when none were given: the TU's -I and -D, and its -std.
std::vector<std::string> flagsFromTU(ASTContext &Ctx, const Preprocessor *PP) {
  std::vector<std::string> Args;
  const LangOptions &LO = Ctx.getLangOpts();
  if (LO.CPlusPlus20)
    Args.push_back("-std=c++20");
  else if (LO.CPlusPlus17)
    Args.push_back("-std=c++17");
  else if (LO.CPlusPlus14)
    Args.push_back("-std=c++14");
  if (!PP)
    return Args;
  // Relative directories are made absolute against the compile's working directory (the
  // file manager's, not the process's: the driver never changes the latter).
  FileManager &FM = Ctx.getSourceManager().getFileManager();
  for (const HeaderSearchOptions::Entry &E : PP->getHeaderSearchInfo().getHeaderSearchOpts().UserEntries)
    if (E.Group == frontend::Angled || E.Group == frontend::Quoted) {
      llvm::SmallString<256> Dir(E.Path);
      FM.makeAbsolutePath(Dir);
      Args.push_back("-I" + std::string(Dir));
    }
  for (const auto &[Macro, IsUndef] : PP->getPreprocessorOpts().Macros)
    if (!llvm::StringRef(Macro).starts_with("__"))
      Args.push_back((IsUndef ? "-U" : "-D") + Macro);
  return Args;
}

} // namespace

bool parsedWithCudaToolkit(const Preprocessor *PP) {
  if (!PP)
    return false;
  const std::vector<std::string> &Includes = PP->getPreprocessorOpts().Includes;
  return std::find(Includes.begin(), Includes.end(), "__clang_cuda_runtime_wrapper.h") !=
         Includes.end();
}

namespace {

/// For the kernels that spill: what ptxas does without the caps of the source and the
/// flags (a second, cached nvcc run on the file's PTX; see runUncappedNvcc). Files whose
/// kernels do not spill cost nothing more. A failure of that run only leaves the figures
/// out (a note in the table).
void addUncappedFigures(const NvccRequest &R, LoadedRegisters &Out) {
  ResourceTable &Table = Out.Table;
  bool &NotCached = Out.NotCached;
  bool Spills = llvm::any_of(Table.Entries, [](const KernelFigures &K) {
    return K.SpillStoreBytes.value_or(0) + K.SpillLoadBytes.value_or(0) > 0;
  });
  if (!Spills)
    return;
  NvccResult U = runUncappedNvcc(R);
  if (!U.Repaired.empty()) {
    Out.Problems.push_back("registers from nvcc: " + U.Repaired);
    Out.CacheRepaired = true;
  }
  if (U.Error == NvccNotCached) { // a cache-only run (the language server's first answer)
    NotCached = true;
    return;
  }
  if (!U.Error.empty()) {
    Table.Notes.push_back("the uncapped ptxas run failed: " + U.Error);
    return;
  }
  ResourceTable Free;
  Free.addPtxasLog(U.Log, "nvcc", ResourceSource::Nvcc);
  for (KernelFigures &K : Table.Entries) {
    if (K.SpillStoreBytes.value_or(0) + K.SpillLoadBytes.value_or(0) == 0)
      continue;
    for (const KernelFigures &F : Free.Entries)
      if (F.Name == K.Name && F.Arch == K.Arch) {
        K.UncappedRegisters = F.Registers;
        K.UncappedSpillStoreBytes = F.SpillStoreBytes;
        K.UncappedSpillLoadBytes = F.SpillLoadBytes;
        break;
      }
  }
}

/// Whether nvcc would refuse Path as an input ("Don't know what to do with 'k.cuh'"): a
/// header by its extension.
bool isHeaderFile(llvm::StringRef Path) {
  std::string Ext = llvm::sys::path::extension(Path).lower();
  for (llvm::StringRef H : {".cuh", ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".inc", ".ipp",
                            ".tpp", ".tcc", ".cuhpp"})
    if (Ext == H)
      return true;
  return false;
}

/// A header is compiled through a one-line .cu that includes it (nvcc refuses a header,
/// and `-x cuda`, which a database interpolated for it may carry, is clang's spelling and
/// not nvcc's): the .cu is written under the cache directory at a path that depends only
/// on the header's (so the cache key is stable), or in a temporary directory without a
/// cache. The header's directory is added with -I, any -x dropped. Empty with Error set
/// when the .cu cannot be written; TempDir is set when it must be removed after the run.
std::string headerUnit(NvccRequest &R, std::string &TempDir, std::string &Error) {
  std::vector<std::string> Args;
  for (size_t I = 0; I < R.Args.size(); ++I) {
    llvm::StringRef A = R.Args[I];
    if (A == "-x" || A == "--x") {
      ++I;
      continue;
    }
    if (A.starts_with("-x") || A.starts_with("--x="))
      continue;
    Args.push_back(A.str());
  }
  Args.push_back("-I" + llvm::sys::path::parent_path(R.Source).str());
  R.Args = std::move(Args);
  llvm::SmallString<256> Dir;
  if (!R.CacheDir.empty()) {
    Dir = R.CacheDir;
    llvm::sys::path::append(
        Dir, "header-units",
        llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(R.Source)), true).substr(0, 32));
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      Dir.clear(); // an unusable cache is said by the nvcc run; compile from a temp dir
  }
  if (Dir.empty()) {
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("warplint-header", Dir)) {
      Error = "cannot create a temporary directory for the header's .cu: " + EC.message();
      return "";
    }
    TempDir = std::string(Dir);
  }
  llvm::SmallString<256> Unit(Dir);
  llvm::sys::path::append(Unit, llvm::sys::path::stem(R.Source) + ".cu");
  std::string Text = "#include \"" + R.Source + "\"\n";
  auto Old = llvm::MemoryBuffer::getFile(Unit);
  if (!Old || (*Old)->getBuffer() != Text) {
    // Written beside, then renamed: a parallel run never reads half a line.
    llvm::SmallString<256> Tmp;
    int FD = -1;
    std::error_code EC = llvm::sys::fs::createUniqueFile(Unit + ".%%%%%%.tmp", FD, Tmp);
    if (!EC) {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Text;
      OS.close();
      EC = OS.error();
    }
    if (!EC)
      EC = llvm::sys::fs::rename(Tmp, Unit);
    if (EC) {
      llvm::sys::fs::remove(Tmp);
      Error = "cannot write the header's .cu '" + std::string(Unit) + "': " + EC.message();
      return "";
    }
  }
  return std::string(Unit);
}

/// Runs nvcc (or reads its cache) for the main file of the TU.
void loadFromNvcc(const RegisterOptions &Opts, ASTContext &Ctx, const Preprocessor *PP,
                  llvm::StringRef TUArch, const std::string &Nvcc, LoadedRegisters &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main) {
    Out.Missing = "the main file is not on disk, nvcc cannot compile it";
    return;
  }
  NvccRequest R;
  R.Nvcc = Nvcc;
  llvm::SmallString<256> Abs(Main->getName());
  SM.getFileManager().makeAbsolutePath(Abs);
  R.Source = std::string(Abs);
  R.Arch = TUArch.str();
  if (!Opts.NvccFlags.empty()) {
    llvm::BumpPtrAllocator A;
    llvm::StringSaver Saver(A);
    llvm::SmallVector<const char *, 16> Toks;
    llvm::cl::TokenizeGNUCommandLine(Opts.NvccFlags, Saver, Toks);
    for (const char *T : Toks)
      R.Args.emplace_back(T);
  } else {
    R.Args = flagsFromTU(Ctx, PP);
  }
  R.CacheDir = Opts.CacheDir.empty() ? defaultCacheDir() : Opts.CacheDir;
  R.ContentKey = contentKey(SM);
  R.CacheOnly = Opts.NvccCacheOnly;
  std::string HeaderTemp;
  if (isHeaderFile(R.Source)) {
    std::string Err;
    std::string Unit = headerUnit(R, HeaderTemp, Err);
    if (Unit.empty()) {
      Out.Problems.push_back("registers from nvcc: " + Err);
      Out.Missing = "a header has no register figures of its own, and its .cu could not be "
                    "written";
      return;
    }
    R.Source = Unit;
  }
  struct RemoveAfter {
    std::string Dir;
    ~RemoveAfter() {
      if (!Dir.empty())
        llvm::sys::fs::remove_directories(Dir);
    }
  } Cleanup{HeaderTemp};
  NvccResult Res = runNvccForResources(R);
  if (!Res.Repaired.empty()) {
    Out.Problems.push_back("registers from nvcc: " + Res.Repaired);
    Out.CacheRepaired = true;
  }
  if (R.CacheOnly && Res.Error == NvccNotCached) {
    Out.Missing = NvccNotCached;
    Out.NotCached = true;
    return;
  }
  if (!Res.Warning.empty())
    Out.Problems.push_back("registers from nvcc: " + Res.Warning);
  if (!Res.Error.empty()) {
    Out.Problems.push_back("registers from nvcc: " + Res.Error);
    Out.Missing = "nvcc failed on this file";
    return;
  }
  // The same origin whether the report came from nvcc or from the cache: a run's output
  // does not depend on what the cache holds.
  Out.Table.addPtxasLog(Res.Log, "nvcc", ResourceSource::Nvcc);
  Out.Source = ResourceSource::Nvcc;
  Out.CompilerRelease = Res.Release;
  addUncappedFigures(R, Out);
  // The what-if run reads the kept PTX of the same file; a header's .cu in a temporary
  // directory is gone by then, and the advice is not verified there.
  if (HeaderTemp.empty())
    Out.NvccRun = R;
}

/// The device-side flags of a HIP TU when the driver gave none (the plugin): its -std, -I
/// and -D, the target, the wavefront size, and warplint's own HIP header when the TU was
/// parsed with it.
std::vector<std::string> hipFlagsFromTU(ASTContext &Ctx, const Preprocessor *PP,
                                        llvm::StringRef TUArch) {
  std::vector<std::string> Args = {"-x", "hip", "--cuda-device-only",
                                   "--offload-arch=" + TUArch.str()};
  std::vector<std::string> TU = flagsFromTU(Ctx, PP);
  Args.insert(Args.end(), TU.begin(), TU.end());
  for (const TargetInfo *TI : {&Ctx.getTargetInfo(), Ctx.getAuxTargetInfo()})
    if (TI && TI->getTriple().isAMDGCN()) {
      unsigned W = TI->getGridValue().GV_Warp_Size;
      if (W == 64 && TUArch.starts_with("gfx1"))
        Args.push_back("-mwavefrontsize64");
      Args.push_back("-D__AMDGCN_WAVEFRONT_SIZE=" + std::to_string(W));
    }
  if (PP && llvm::is_contained(PP->getPreprocessorOpts().Includes, "hip/hip_runtime.h")) {
    // warplint's own header (-nogpuinc): its directory is the system one that holds it.
    for (const HeaderSearchOptions::Entry &E :
         PP->getHeaderSearchInfo().getHeaderSearchOpts().UserEntries)
      if (E.Group == frontend::System &&
          llvm::sys::fs::exists(E.Path + "/hip/hip_runtime.h") &&
          llvm::StringRef(E.Path).contains("warplint")) {
        for (const std::string &A : {std::string("-nogpuinc"), std::string("-isystem"), E.Path,
                                     std::string("-include"), std::string("hip/hip_runtime.h")})
          Args.push_back(A);
        break;
      }
  }
  return Args;
}

/// Runs clang for the AMDGPU device assembly of the main file (or reads its cache).
void loadFromClang(const RegisterOptions &Opts, ASTContext &Ctx, const Preprocessor *PP,
                   llvm::StringRef TUArch, LoadedRegisters &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main) {
    Out.Missing = "the main file is not on disk, clang cannot compile it";
    return;
  }
  ClangDeviceRequest R;
  R.Clang = Opts.HipClang.empty() ? findHipClang() : Opts.HipClang;
  if (R.Clang.empty()) {
    Out.Missing = "no clang found for the AMDGPU device code (clang++-22)";
    return;
  }
  llvm::SmallString<256> Abs(Main->getName());
  SM.getFileManager().makeAbsolutePath(Abs);
  R.Source = std::string(Abs);
  std::vector<std::string> Flags;
  if (!Opts.HipFlags.empty()) {
    llvm::BumpPtrAllocator A;
    llvm::StringSaver Saver(A);
    llvm::SmallVector<const char *, 16> Toks;
    llvm::cl::TokenizeGNUCommandLine(Opts.HipFlags, Saver, Toks);
    for (const char *T : Toks)
      Flags.emplace_back(T);
  } else {
    Flags = hipFlagsFromTU(Ctx, PP, TUArch);
  }
  // A parse's flags made a compile's: nothing written but the assembly, device libraries
  // linked where the kernels need them (ROCm's headers read threadIdx through them; a
  // kernel that calls them unlinked gets inflated counts), an optimised build.
  bool OwnHeader = llvm::is_contained(Flags, "-nogpuinc"), HasOpt = false,
       HasDeviceLibs = false, HasCodeObject = false;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef F = Flags[I];
    if (F == "-fsyntax-only" || F == "-c" || F == "-MD" || F == "-MMD" ||
        (F == "-nogpulib" && !OwnHeader))
      continue;
    if (F == "-o" || F == "-MF" || F == "-MT" || F == "-MQ") {
      ++I;
      continue;
    }
    if (F.starts_with("-o") && F.size() > 2)
      continue;
    HasOpt |= F.starts_with("-O");
    HasDeviceLibs |= F.starts_with("--rocm-device-lib-path") || F.starts_with("--rocm-path") ||
                     F == "-nogpulib";
    HasCodeObject |= F.starts_with("-mcode-object-version");
    R.Args.push_back(F.str());
  }
  if (!HasOpt)
    R.Args.push_back("-O3"); // hipcc's default, and what a release build uses
  if (!HasDeviceLibs) {
    std::string Libs = findRocmDeviceLibs();
    if (Libs.empty()) {
      R.Args.push_back("-nogpulib");
      Out.Problems.push_back(
          "registers from clang: ROCm's device libraries (rocm-device-libs) were not found; "
          "kernels that call them (threadIdx through ROCm's headers) get counts too high");
    } else {
      R.Args.push_back("--rocm-device-lib-path=" + Libs);
      // Debian's ROCm 5.2 libraries have no ABI-version-6 variant (clang 22's default).
      if (!HasCodeObject)
        R.Args.push_back("-mcode-object-version=5");
      // ROCm 5's headers call __atomic_work_item_fence (__syncthreads) from hip.bc, which
      // clang 22 no longer links: without it every kernel with a barrier keeps an
      // external call and gets inflated counts.
      if (llvm::sys::fs::exists(Libs + "/hip.bc"))
        for (const std::string &A : {std::string("-Xclang"), std::string("-mlink-builtin-bitcode"),
                                     std::string("-Xclang"), Libs + "/hip.bc"})
          R.Args.push_back(A);
    }
  }
  R.CacheDir = Opts.CacheDir.empty() ? defaultCacheDir() : Opts.CacheDir;
  R.ContentKey = contentKey(SM);
  ClangDeviceResult Res = runClangForAmdgpuResources(R);
  if (!Res.Repaired.empty()) {
    Out.Problems.push_back("registers from clang: " + Res.Repaired);
    Out.CacheRepaired = true;
  }
  if (!Res.Warning.empty())
    Out.Problems.push_back("registers from clang: " + Res.Warning);
  if (!Res.Error.empty()) {
    Out.Problems.push_back("registers from clang: " + Res.Error);
    Out.Missing = "clang failed on this file's device code";
    return;
  }
  Out.Table.addAmdgpuAssembly(Res.Assembly, "clang", ResourceSource::Clang);
  Out.Source = ResourceSource::Clang;
  Out.CompilerRelease = Res.Release;
  // The what-if follows this run with the same clang: it keys its cache with the version
  // asked here rather than asking again.
  R.Version = Res.Version;
  Out.ClangRun = R;
}

} // namespace

LoadedRegisters loadRegisters(const RegisterOptions &Opts, ASTContext &Ctx,
                              const Preprocessor *PP, llvm::StringRef TUArch) {
  LoadedRegisters Out;
  RegisterSourceChoice S = Opts.Source;
  std::string Nvcc = Opts.Nvcc;
  if (S == RegisterSourceChoice::Auto) {
    if (!Opts.PtxasLogs.empty()) {
      S = RegisterSourceChoice::PtxasLog;
    } else if (!Opts.Objects.empty()) {
      S = RegisterSourceChoice::Objects;
    } else if (::warplint::isAmdArchName(TUArch)) {
      // HIP: the AMDGPU backend's own counts, no GPU needed.
      S = RegisterSourceChoice::Clang;
    } else if (!Nvcc.empty() || parsedWithCudaToolkit(PP)) {
      // A parse against a real toolkit: the file compiles with nvcc too. With warplint's
      // own minimal header it may not, and nvcc is not tried.
      if (Nvcc.empty())
        Nvcc = findNvcc();
      if (Nvcc.empty()) {
        Out.Missing = "nvcc not found (PATH, $CUDA_PATH/bin, /usr/local/cuda/bin)";
        return Out;
      }
      S = RegisterSourceChoice::Nvcc;
    } else {
      Out.Missing = "parsed without a CUDA toolkit, so nvcc is not run (give a ptxas log "
                    "or objects)";
      return Out;
    }
  }
  switch (S) {
  case RegisterSourceChoice::Auto:
  case RegisterSourceChoice::None:
    Out.Missing = "the register source is none";
    return Out;
  case RegisterSourceChoice::PtxasLog:
    if (Opts.PtxasLogs.empty())
      Out.Problems.push_back("RegisterSource=ptxas-log needs the PtxasLog option (the stderr "
                             "of nvcc -Xptxas -v)");
    for (const std::string &L : Opts.PtxasLogs)
      Out.Table.addPtxasLogFile(L);
    Out.Source = ResourceSource::PtxasLog;
    break;
  case RegisterSourceChoice::Objects:
    if (Opts.Objects.empty())
      Out.Problems.push_back("RegisterSource=objects needs the Objects option (cubins or nvcc "
                             "objects)");
    for (const std::string &O : Opts.Objects)
      Out.Table.addObjectFile(O);
    Out.Source = ResourceSource::Objects;
    break;
  case RegisterSourceChoice::Clang:
    if (!::warplint::isAmdArchName(TUArch)) {
      Out.Problems.push_back("RegisterSource=clang needs the device side of one AMD arch "
                             "(a HIP file: -x hip --offload-arch=gfxNNN)");
      Out.Missing = "not a device-side HIP parse for one gfx arch";
      break;
    }
    loadFromClang(Opts, Ctx, PP, TUArch, Out);
    break;
  case RegisterSourceChoice::Nvcc:
    if (Nvcc.empty())
      Nvcc = findNvcc();
    if (Nvcc.empty()) {
      Out.Problems.push_back("RegisterSource=nvcc: nvcc not found (set the Nvcc option)");
      Out.Missing = "nvcc not found";
      break;
    }
    if (TUArch.empty() || !TUArch.starts_with("sm_")) {
      Out.Problems.push_back("RegisterSource=nvcc needs the device side of one NVIDIA arch "
                             "(--cuda-device-only --cuda-gpu-arch=sm_XX)");
      Out.Missing = "not a device-side parse for one sm_XX arch";
      break;
    }
    // Fermi and Kepler: CUDA 12 and newer cannot compile for them (no nvcc run that
    // can only fail; a ptxas log or objects of an old toolkit still give registers).
    if (const ::warplint::GpuArch *A = ::warplint::findArch(TUArch.str()); A && A->Legacy) {
      Out.Missing = "nvcc cannot compile for " + TUArch.str() +
                    " (a legacy arch CUDA 12 and newer dropped; give a ptxas log or objects "
                    "of an older toolkit)";
      if (Opts.Source == RegisterSourceChoice::Nvcc)
        Out.Problems.push_back("RegisterSource=nvcc: " + Out.Missing);
      break;
    }
    loadFromNvcc(Opts, Ctx, PP, TUArch, Nvcc, Out);
    break;
  }
  for (const std::string &E : Out.Table.Errors)
    Out.Problems.push_back(E);
  if (Out.Source == ResourceSource::None && Out.Missing.empty())
    Out.Missing = "no register source could be loaded";
  return Out;
}

VerifyResult verifyRegisterAdvice(const LoadedRegisters &Loaded,
                                  const std::vector<PtxBound> &Bounds) {
  VerifyResult Out;
  if (!Loaded.NvccRun || Bounds.empty()) {
    Out.Error = "no nvcc run to verify against";
    return Out;
  }
  NvccResult Res = runBoundedPtxas(*Loaded.NvccRun, Bounds);
  Out.Repaired = Res.Repaired;
  if (Res.Error == NvccNotCached) {
    Out.NotCached = true;
    return Out;
  }
  if (!Res.Error.empty()) {
    Out.Error = Res.Error;
    return Out;
  }
  ResourceTable T;
  T.addPtxasLog(Res.Log, "nvcc", ResourceSource::Nvcc);
  for (const PtxBound &B : Bounds)
    for (const KernelFigures &F : T.Entries)
      if (F.Name == B.Kernel) {
        Out.Kernels.push_back({B.Kernel, F.Registers, F.SpillStoreBytes.value_or(0),
                               F.SpillLoadBytes.value_or(0)});
        break;
      }
  return Out;
}

VerifyResult verifyAmdgpuAdvice(const LoadedRegisters &Loaded,
                                const std::vector<AmdgpuBound> &Bounds) {
  VerifyResult Out;
  if (!Loaded.ClangRun || Bounds.empty()) {
    Out.Error = "no clang run to verify against";
    return Out;
  }
  ClangDeviceResult Res = runBoundedClang(*Loaded.ClangRun, Bounds);
  Out.Repaired = Res.Repaired;
  if (!Res.Error.empty()) {
    Out.Error = Res.Error;
    return Out;
  }
  ResourceTable T;
  T.addAmdgpuAssembly(Res.Assembly, "clang", ResourceSource::Clang);
  for (const AmdgpuBound &B : Bounds)
    for (const KernelFigures &F : T.Entries)
      if (F.Name == B.Kernel) {
        VerifiedFigures V;
        V.Kernel = B.Kernel;
        V.Registers = F.Registers;
        V.Sgprs = F.Sgprs.value_or(0);
        V.ScratchBytes = F.PrivateSegmentBytes.value_or(0);
        V.VgprSpills = F.VgprSpills.value_or(0);
        V.SgprSpills = F.SgprSpills.value_or(0);
        Out.Kernels.push_back(std::move(V));
        break;
      }
  return Out;
}

std::string describeOrigin(const KernelFigures &F) {
  switch (F.Source) {
  case ResourceSource::Nvcc:
    return "nvcc";
  case ResourceSource::Clang:
    return "clang";
  case ResourceSource::PtxasLog:
    return "the ptxas log '" + F.Origin + "'";
  case ResourceSource::Objects:
    return "'" + F.Origin + "'";
  case ResourceSource::None:
    break;
  }
  return "no source";
}

} // namespace warplint
