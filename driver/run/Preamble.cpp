//===- Preamble.cpp - precompiled preambles kept across parses of a file ----===//
#include "driver/run/Preamble.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <fmt/format.h>

namespace warplint::driver {
namespace {

/// The store's key of an invocation: its main file (absolute) and its target CPU, so that
/// a file analysed for several architectures keeps one preamble for each.
std::string mainFile(const clang::CompilerInvocation &CI) {
  const auto &Inputs = CI.getFrontendOpts().Inputs;
  if (Inputs.size() != 1 || !Inputs[0].isFile())
    return "";
  llvm::SmallString<256> P(Inputs[0].getFile());
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P) + "\n" + CI.getTargetOpts().CPU;
}

} // namespace

PreambleStore::PreambleStore() = default;
PreambleStore::~PreambleStore() = default;

bool PreambleStore::use(clang::CompilerInvocation &CI,
                        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS) {
  std::string File = mainFile(CI);
  auto It = Files.find(File);
  if (File.empty() || It == Files.end() || !It->second.Preamble)
    return false;
  auto Buf = VFS->getBufferForFile(CI.getFrontendOpts().Inputs[0].getFile());
  if (!Buf)
    return false;
  clang::PreambleBounds Bounds =
      clang::ComputePreambleBounds(CI.getLangOpts(), (*Buf)->getMemBufferRef(), 0);
  const clang::PrecompiledPreamble &P = *It->second.Preamble;
  if (!P.CanReuse(CI, (*Buf)->getMemBufferRef(), Bounds, *VFS))
    return false;
  Main = std::move(*Buf);
  // The PCH is a file on disk, which the parse's file system reaches: AddImplicitPreamble
  // leaves it as it is (it overlays only a PCH held in memory).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Same = VFS;
  P.AddImplicitPreamble(CI, Same, Main.get());
  // The main file's text stays ours (the parse would free a remapped buffer it owns).
  CI.getPreprocessorOpts().RetainRemappedFileBuffers = true;
  Used = true;
  return true;
}

std::string PreambleStore::build(const clang::CompilerInvocation &CI,
                                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                                 std::shared_ptr<clang::PCHContainerOperations> PCH) {
  std::string File = mainFile(CI);
  if (File.empty())
    return "no preamble: not one input file";
  std::string Key = File;
  File = File.substr(0, File.find('\n'));
  auto Buf = VFS->getBufferForFile(CI.getFrontendOpts().Inputs[0].getFile());
  if (!Buf)
    return "no preamble: cannot read " + File;
  clang::PreambleBounds Bounds =
      clang::ComputePreambleBounds(CI.getLangOpts(), (*Buf)->getMemBufferRef(), 0);
  Entry &E = Files[Key];
  if (E.Preamble && E.Preamble->CanReuse(CI, (*Buf)->getMemBufferRef(), Bounds, *VFS))
    return "kept";
  std::string Directives = (*Buf)->getBuffer().substr(0, Bounds.Size).str();
  if (!E.Preamble && !E.FailedDirectives.empty() && E.FailedDirectives == Directives)
    return "no preamble: its headers had errors";
  clang::DiagnosticOptions DiagOpts;
  auto Diags = llvm::makeIntrusiveRefCnt<clang::DiagnosticsEngine>(
      llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), DiagOpts,
      new clang::IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  clang::PreambleCallbacks Callbacks;
  auto Start = std::chrono::steady_clock::now();
  llvm::ErrorOr<clang::PrecompiledPreamble> P = clang::PrecompiledPreamble::Build(
      CI, Buf->get(), Bounds, Diags, VFS, std::move(PCH), /*StoreInMemory=*/false,
      StorageDir, Callbacks);
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  E.Preamble.reset();
  if (!P || Diags->hasErrorOccurred()) {
    // Errors in the headers: the parse without a preamble reports them where they are.
    E.FailedDirectives = Directives;
    return P ? "no preamble: its headers had errors" : "no preamble: " + P.getError().message();
  }
  E.FailedDirectives.clear();
  E.Preamble = std::make_unique<clang::PrecompiledPreamble>(std::move(*P));
  return fmt::format("built ({:.1f} MB) in {} ms", double(E.Preamble->getSize()) / 1e6, Ms);
}

bool PreambleStore::has(const std::string &File) const { return bytes(File) > 0; }

size_t PreambleStore::bytes(const std::string &File) const {
  size_t N = 0;
  for (auto It = Files.lower_bound(File + "\n");
       It != Files.end() && llvm::StringRef(It->first).starts_with(File + "\n"); ++It)
    if (It->second.Preamble)
      N += It->second.Preamble->getSize();
  return N;
}

size_t PreambleStore::totalBytes() const {
  size_t N = 0;
  for (const auto &[F, E] : Files)
    if (E.Preamble)
      N += E.Preamble->getSize();
  return N;
}

void PreambleStore::drop(const std::string &File) {
  auto It = Files.lower_bound(File + "\n");
  while (It != Files.end() && llvm::StringRef(It->first).starts_with(File + "\n"))
    It = Files.erase(It);
}

} // namespace warplint::driver
