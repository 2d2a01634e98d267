//===- ResourceOptions.cpp - register-source options of the occupancy checks ===//
#include "resources/ResourceOptions.h"

#include "resources/NvccResources.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>

namespace clang::tidy::warplint {

void ResourceOptions::read(const ClangTidyCheck::OptionsView &Options) {
  Source = Options.get("RegisterSource", "auto").str();
  PtxasLog = Options.get("PtxasLog", "").str();
  Objects = Options.get("Objects", "").str();
  CacheDir = Options.get("CacheDir", "").str();
  Nvcc = Options.get("Nvcc", "").str();
  NvccFlags = Options.get("NvccFlags", "").str();
}

void ResourceOptions::store(const ClangTidyCheck::OptionsView &Options,
                            ClangTidyOptions::OptionMap &Opts) const {
  Options.store(Opts, "RegisterSource", Source);
  Options.store(Opts, "PtxasLog", PtxasLog);
  Options.store(Opts, "Objects", Objects);
  Options.store(Opts, "CacheDir", CacheDir);
  Options.store(Opts, "Nvcc", Nvcc);
  Options.store(Opts, "NvccFlags", NvccFlags);
}

namespace {

std::vector<std::string> splitList(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  S.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

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
    Files.emplace_back(FE.getName().str(),
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

std::vector<std::string> ResourceProvider::load(ASTContext &Ctx, const Preprocessor *PP,
                                                llvm::StringRef TUArch) {
  std::vector<std::string> Messages;
  Table = ResourceTable();
  Loaded = ResourceSource::None;
  bool IsAuto = false;
  std::optional<ResourceSource> Want = parseResourceSource(Opts.Source, IsAuto);
  if (!Want) {
    Messages.push_back("invalid RegisterSource '" + Opts.Source +
                       "': use auto, ptxas-log, objects, nvcc or none; using auto");
    IsAuto = true;
  }
  std::vector<std::string> Logs = splitList(Opts.PtxasLog), Objs = splitList(Opts.Objects);
  ResourceSource S = ResourceSource::None;
  if (!IsAuto)
    S = *Want;
  else if (!Logs.empty())
    S = ResourceSource::PtxasLog;
  else if (!Objs.empty())
    S = ResourceSource::Objects;
  else if (!Opts.Nvcc.empty())
    S = ResourceSource::Nvcc; // the driver sets Nvcc where the build compiles with nvcc

  switch (S) {
  case ResourceSource::None:
    break;
  case ResourceSource::PtxasLog:
    if (Logs.empty())
      Messages.push_back("RegisterSource=ptxas-log needs the PtxasLog option (the stderr of "
                         "nvcc -Xptxas -v)");
    for (const std::string &L : Logs)
      Table.addPtxasLogFile(L);
    break;
  case ResourceSource::Objects:
    if (Objs.empty())
      Messages.push_back("RegisterSource=objects needs the Objects option (cubins or nvcc "
                         "objects)");
    for (const std::string &O : Objs)
      Table.addObjectFile(O);
    break;
  case ResourceSource::Nvcc: {
    NvccRequest R;
    R.Nvcc = Opts.Nvcc.empty() ? findNvcc() : Opts.Nvcc;
    if (R.Nvcc.empty()) {
      Messages.push_back("RegisterSource=nvcc: nvcc not found (set the Nvcc option)");
      break;
    }
    if (TUArch.empty() || !TUArch.starts_with("sm_")) {
      Messages.push_back("RegisterSource=nvcc needs the device side of one NVIDIA arch "
                         "(--cuda-device-only --cuda-gpu-arch=sm_XX)");
      break;
    }
    const SourceManager &SM = Ctx.getSourceManager();
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (!Main)
      break;
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
    NvccResult Res = runNvccForResources(R);
    if (!Res.Error.empty()) {
      Messages.push_back("RegisterSource=nvcc: " + Res.Error);
      break;
    }
    Table.addPtxasLog(Res.Log,
                      Res.FromCache ? "nvcc (cached " + Res.CacheFile + ")" : "nvcc",
                      ResourceSource::Nvcc);
    break;
  }
  }
  Loaded = S;
  for (const std::string &E : Table.Errors)
    Messages.push_back(E);
  return Messages;
}

std::vector<ArchEvaluation> ResourceProvider::evaluate(const KernelInfo *K,
                                                       llvm::StringRef Mangled,
                                                       llvm::StringRef FallbackArch,
                                                       std::string *MatchNote) const {
  std::vector<ArchEvaluation> Out;
  std::optional<uint64_t> Smem = K ? K->StaticSmemBytes : std::nullopt;
  int LbThreads = K && K->LaunchBoundsMaxThreads ? int(*K->LaunchBoundsMaxThreads) : 0;
  int LbBlocks = K && K->LaunchBoundsMinBlocks ? int(*K->LaunchBoundsMinBlocks) : 0;
  uint64_t Optin = K && K->HasOptin && K->Optin.Bytes ? *K->Optin.Bytes : 0;
  if (!Table.empty() && !Mangled.empty()) {
    ResourceTable::Match M = Table.match(Mangled);
    if (MatchNote)
      *MatchNote = M.Note;
    for (const KernelFigures *F : M.PerArch) {
      const ::warplint::GpuArch *A = ::warplint::findArch(F->Arch);
      if (!A)
        continue;
      ArchEvaluation E;
      E.Arch = A;
      E.Figures = F;
      E.ByBaseName = M.ByBaseName;
      E.Resources = toKernelResources(*F, Smem, LbThreads, LbBlocks);
      E.Resources.OptinDynamicSharedBytes = Optin;
      Out.push_back(E);
    }
    if (!Out.empty())
      return Out;
  }
  const ::warplint::GpuArch *A = ::warplint::findArch(FallbackArch);
  if (!A)
    return Out;
  ArchEvaluation E;
  E.Arch = A;
  E.Resources.RegistersPerThread = 0;
  E.Resources.StaticSharedBytes = Smem.value_or(0);
  E.Resources.LaunchBoundsMaxThreads = LbThreads;
  E.Resources.LaunchBoundsMinBlocks = LbBlocks;
  E.Resources.OptinDynamicSharedBytes = Optin;
  Out.push_back(E);
  return Out;
}

std::string describeSource(const ArchEvaluation &E) {
  if (!E.Figures)
    return "registers unknown (no register source has this kernel)";
  std::string S = std::string(E.Figures->Arch) + " figures from " +
                  resourceSourceName(E.Figures->Source) + " '" + E.Figures->Origin + "'";
  if (E.ByBaseName)
    S += ", matched by base name";
  return S;
}

std::string percent(double Fraction) {
  char Buf[32];
  double P = Fraction * 100.0;
  if (P == static_cast<int>(P))
    std::snprintf(Buf, sizeof Buf, "%d%%", static_cast<int>(P));
  else
    std::snprintf(Buf, sizeof Buf, "%.1f%%", P);
  return Buf;
}

} // namespace clang::tidy::warplint
