//===- Convert.h - warplint's results in the Language Server Protocol's terms -*- C++ -*-===//
//
// Pure functions between the driver's RunResult (driver/run/Findings.h, model/Records.h) and
// LSP's JSON: file URIs, positions (UTF-8 or UTF-16 columns), diagnostics with related
// information and links to the check pages, the hover text of a kernel launch, and where
// a file's compile database is (as clangd looks for it).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

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

/// The hover at 1-based Line and byte Column of Path: Markdown with the figures of each
/// record that starts there, as the records hold them: a kernel launch (every arch and
/// instantiation), a thread-dependent branch (its lanes per block shape and its verdict),
/// a reported barrier or warp-synchronous call (the threads that skip it, the named lanes
/// absent), a reported data race (on either access's line: the two threads, accesses and
/// the barrier that would separate them). Of several places on the line, the last that starts at or before the cursor
/// (else the first); nothing when no record is on that line.
struct LaunchHover {
  std::string Markdown;
  unsigned Line = 0, Column = 0; ///< the record's place
};
std::optional<LaunchHover> hoverAt(const RunResult &Result, const std::string &Path,
                                   unsigned Line, unsigned Column);

/// The Markdown of one launch record's figures.
std::string launchMarkdown(const LaunchRecord &L);
/// The Markdown of one branch record: per block shape the warps that diverge, the
/// predicted branch efficiency and the lanes taking it; the verdict (the idiom that keeps
/// it silent, why it is a note) and the finding that stands for it with its impact.
std::string branchMarkdown(const BranchRecord &B);
/// The Markdown of one sync record: the call, its verdict, the block it was evaluated
/// for, the threads that skip it or the named lanes absent, and the cause.
std::string syncMarkdown(const SyncRecord &S);
/// The Markdown of one race record: the word, the two accesses with the threads that
/// make them, the block, how sure it is, the barrier that would separate them and the
/// finding's impact (the hover of both accesses' lines).
std::string raceMarkdown(const RaceRecord &R);

} // namespace warplint::driver::lsp
