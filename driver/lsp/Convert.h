//===- Convert.h - warplint's results in the Language Server Protocol's terms -*- C++ -*-===//
//
// Pure functions between the driver's RunResult (driver/Findings.h, model/Records.h) and
// LSP's JSON: file URIs, positions (UTF-8 or UTF-16 columns), diagnostics with related
// information and links to the check pages, the hover text of a kernel launch, and where
// a file's compile database is (as clangd looks for it).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/Findings.h"

#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint::driver::lsp {

/// The absolute path of a file:// URI (percent-decoded), or nothing with Error set.
std::optional<std::string> uriToPath(llvm::StringRef Uri, std::string &Error);
/// The file:// URI of an absolute path (percent-encoded as RFC 3986 wants).
std::string pathToUri(llvm::StringRef Path);

/// The directory holding the compile_commands.json that applies to File: File's
/// directory and each parent in turn, each itself and its build/ subdirectory (clangd's
/// order); empty when there is none.
std::string findCompileCommandsDir(llvm::StringRef File);

/// Lines of files read from disk, for LSP columns (UTF-16 code units unless the client
/// took UTF-8) and for the extent of the token a diagnostic points at.
class SourceLines {
public:
  explicit SourceLines(bool Utf8) : Utf8(Utf8) {}
  /// The text of 1-based Line of File (without its newline), empty when unknown.
  llvm::StringRef line(const std::string &File, unsigned Line);
  /// File's lines from Text (an editor's unsaved text) instead of the disk.
  void setText(const std::string &File, llvm::StringRef Text);
  /// The LSP range of the token at 1-based Line and byte Column (0-based line and
  /// character, start and end).
  llvm::json::Object range(const std::string &File, unsigned Line, unsigned Column);
  /// LSP's character of a 1-based byte column, and back (1-based byte column).
  unsigned toCharacter(llvm::StringRef LineText, unsigned Column) const;
  unsigned toColumn(llvm::StringRef LineText, unsigned Character) const;

private:
  bool Utf8;
  std::map<std::string, std::vector<std::string>> Files;
};

/// LSP's DiagnosticSeverity of a finding's level: error 1, warning 2, note 3.
int diagnosticSeverity(Severity S);

/// The diagnostics of Path in Result: each finding there (and any without a place, at
/// the file's start) with its check as `code`, the check's page as `codeDescription`,
/// its notes as relatedInformation.
llvm::json::Array diagnosticsFor(const RunResult &Result, const std::string &Path,
                                 SourceLines &Lines);

/// The code actions of Path's findings on 1-based lines FirstLine to LastLine that carry a
/// fix-it: a "quickfix" each, with its diagnostic and the fix as a WorkspaceEdit.
llvm::json::Array codeActionsFor(const RunResult &Result, const std::string &Path,
                                 unsigned FirstLine, unsigned LastLine, SourceLines &Lines);

/// The hover of the kernel launch at 1-based Line and byte Column of Path: Markdown with
/// the figures of each launch record there (every arch and instantiation), as the
/// records hold them; nothing when no launch is on that line.
struct LaunchHover {
  std::string Markdown;
  unsigned Line = 0, Column = 0; ///< the launch's place
};
std::optional<LaunchHover> hoverAt(const RunResult &Result, const std::string &Path,
                                   unsigned Line, unsigned Column);

/// The Markdown of one launch record's figures.
std::string launchMarkdown(const LaunchRecord &L);

} // namespace warplint::driver::lsp
