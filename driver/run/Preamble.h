//===- Preamble.h - precompiled preambles for a process that parses files again -*- C++ -*-===//
//
// A CUDA file's parse is mostly its headers: the CUDA runtime wrapper clang force-includes,
// cuda_runtime.h and what the file #includes before its first declaration. A process that
// parses the same files again and again (the language server's worker, driver/lsp/Worker.h)
// keeps that part compiled, as clangd does: one clang PrecompiledPreamble per file (and
// architecture, for a command with several), built
// from the invocation warplint parses it with, stored as a PCH in a temporary file for
// as long as the store lives, and used for a parse while PrecompiledPreamble::CanReuse
// says the preamble's text, the command and the headers it read are unchanged.
//
// The preamble's text is extendedPreambleBounds': clang's (the directives before the
// first declaration) reaching on past declarations that are complete in themselves to
// the last #include among them, so that `namespace cg = cooperative_groups;` between two
// #includes (as cuda-samples write) does not leave the headers after it to every parse.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>

namespace clang {
class CompilerInvocation;
class LangOptions;
struct PreambleBounds;
class PCHContainerOperations;
class PrecompiledPreamble;
} // namespace clang
namespace llvm::vfs {
class FileSystem;
} // namespace llvm::vfs

namespace warplint::driver {

/// The bounds of Text's preamble: clang's (Lexer::ComputePreamble: the directives before
/// the first declaration), extended past top-level declarations that are complete in
/// themselves (namespace aliases, using-directives and -declarations, typedefs and alias
/// declarations, forward declarations of classes) and the directives among them, to the
/// end of the line of the last #include among them (the end of the #endif line closing
/// the conditional an #include is in). Clang's bounds when anything else comes before
/// that #include (a function, a class definition, a variable, a brace), or when the
/// extension would close or switch a conditional opened before the first declaration.
clang::PreambleBounds extendedPreambleBounds(const clang::LangOptions &LangOpts,
                                             llvm::StringRef Text);

class PreambleStore {
public:
  PreambleStore();
  ~PreambleStore();
  PreambleStore(const PreambleStore &) = delete;
  PreambleStore &operator=(const PreambleStore &) = delete;

  /// Before a parse of the invocation's main file: when the file's preamble can be reused
  /// for the main file as VFS holds it now, CI is set to load it (the main file's text is
  /// kept here until the next call) and true is returned.
  bool use(clang::CompilerInvocation &CI, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS);

  /// Builds the main file's preamble from CI and VFS, replacing the one it had, to
  /// extendedPreambleBounds' end; to clang's when that one cannot be built or the part
  /// past clang's says anything (a warning there, or in a header it includes, would be
  /// lost from the parse). A preamble whose headers have errors is not kept (the parse
  /// without it says them); the same text is not tried again until it changes. Returns
  /// what happened, for the log: "built (12.3 MB) in 812 ms" (with ", to line N, past M
  /// declarations" when extended), "kept", or why none.
  std::string build(const clang::CompilerInvocation &CI,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                    std::shared_ptr<clang::PCHContainerOperations> PCH);

  /// Whether File has a preamble that was built (reusable or not).
  bool has(const std::string &File) const;
  /// The bytes of File's PCHs (0 when it has none).
  size_t bytes(const std::string &File) const;
  /// The PCH bytes of every file.
  size_t totalBytes() const;
  /// Forgets File's preambles (their PCH files are removed).
  void drop(const std::string &File);

  /// The directory the PCH files are made in (empty: the system's temporary directory).
  std::string StorageDir;
  /// What the last build() said, and whether a use() since Used was cleared succeeded.
  std::string Note;
  bool Used = false;

private:
  struct Entry {
    std::unique_ptr<clang::PrecompiledPreamble> Preamble;
    bool Extended = false;        ///< Preamble's bounds: extendedPreambleBounds' or clang's
    std::string FailedDirectives; ///< the directives whose build failed, not retried
    std::string FailedExtension;  ///< the extended text whose build failed, not retried
  };
  /// The bounds of Text for E: those E's preamble was built with (the same kind), so
  /// that CanReuse compares like with like.
  static clang::PreambleBounds boundsFor(const Entry &E, const clang::LangOptions &LangOpts,
                                         llvm::StringRef Text);
  std::map<std::string, Entry> Files;
  std::unique_ptr<llvm::MemoryBuffer> Main; ///< the main file of the last use()
};

} // namespace warplint::driver
