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
// The preamble is built with clang's -fpch-instantiate-templates: the templates its headers
// leave pending at its end are instantiated into the PCH once, not again at the end of
// every parse (reduction_kernel.cu: a fifth of an edit's CPU). That moves two things out of
// a parse, and each is guarded:
// - the diagnostics of those instantiations: a build whose instantiations at the end say
//   anything (a warning or an error) is made again without them;
// - the deferred CUDA diagnostics clang records in a function until it knows device code
//   reaches it (`reference to __host__ function` in a __host__ __device__ one): a PCH keeps
//   none of them, whether recorded in the headers' own functions or in those instantiations.
//   The build lists the functions that had some (UnsaidDeferred); a parse with the
//   preamble asks clang's own walk from the code emitted for the device whether it reaches
//   one of them (reachesUnsaidDeferred), and when it does the parse is done again without
//   the preamble, which says them.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace clang {
class CompilerInvocation;
class FunctionDecl;
class Sema;
class SourceManager;
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

/// The functions of a preamble whose deferred CUDA diagnostics its PCH does not keep, by
/// name and the place of their first declaration (presumed file, line and column; every
/// specialization of a template shares its template's): a key that another parse of the
/// same headers gives the same function, and that may take in more functions (never fewer).
class UnsaidDeferred {
public:
  void add(const clang::FunctionDecl &FD, const clang::SourceManager &SM);
  bool has(const clang::FunctionDecl &FD, const clang::SourceManager &SM) const;
  bool empty() const { return Keys.empty(); }
  size_t size() const { return Keys.size(); }

private:
  static std::string place(const clang::FunctionDecl &FD, const clang::SourceManager &SM);
  std::set<std::string, std::less<>> Names; ///< their names, looked up before a key is made
  std::set<std::string> Keys;  ///< name, then "@" and the place
};

/// After a parse with a preamble (before its Sema ends): whether the code clang emits for
/// the device reaches one of Unsaid's functions, by clang's own walk of the deferred
/// diagnostics (Sema::emitDeferredDiags), which it ran at the end of the parse when the
/// parse deferred anything of its own, and which is run here, saying nothing, when it did
/// not. True: the parse without the preamble would have said that function's diagnostics.
bool reachesUnsaidDeferred(clang::Sema &S, const UnsaidDeferred &Unsaid);

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
  /// Set after a parse with the preamble whose device code reaches a function of unsaid()
  /// (reachesUnsaidDeferred): that parse is done again without it.
  bool Reached = false;
  /// The deferred diagnostics the preamble of the last successful use() does not keep.
  const UnsaidDeferred &unsaid() const { return UsedUnsaid; }

private:
  struct Entry {
    std::unique_ptr<clang::PrecompiledPreamble> Preamble;
    bool Extended = false;        ///< Preamble's bounds: extendedPreambleBounds' or clang's
    std::string FailedDirectives; ///< the directives whose build failed, not retried
    std::string FailedExtension;  ///< the extended text whose build failed, not retried
    UnsaidDeferred Unsaid;        ///< the deferred diagnostics the PCH does not keep
    bool Instantiated = false;    ///< built with -fpch-instantiate-templates
  };
  /// The build note's words on E's templates and deferred diagnostics.
  static std::string instantiated(const Entry &E);
  /// The bounds of Text for E: those E's preamble was built with (the same kind), so
  /// that CanReuse compares like with like.
  static clang::PreambleBounds boundsFor(const Entry &E, const clang::LangOptions &LangOpts,
                                         llvm::StringRef Text);
  std::map<std::string, Entry> Files;
  std::unique_ptr<llvm::MemoryBuffer> Main; ///< the main file of the last use()
  UnsaidDeferred UsedUnsaid;                ///< that preamble's Unsaid
};

} // namespace warplint::driver
