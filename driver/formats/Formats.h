//===- Formats.h - output formats of `warplint check`, one free function each -*- C++ -*-===//
//
// Every format is written from a RunResult (driver/run/Findings.h) and nothing else, so every
// format carries the same findings. Each writer lives in driver/formats/<Name>Format.cpp.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

/// Where findings' paths are made relative for formats that want relative locations.
struct LocationOptions {
  /// Absolute directory (the project root); paths under it are written relative to it.
  /// Empty: paths are written as they are in the RunResult.
  std::string SourceRoot;
};

/// The name of a severity as clang, the JSON and SARIF formats write it: "error",
/// "warning", "note" (GitHub's workflow command for a note is "notice").
inline const char *severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
}

/// `path` relative to `Root` when it lies under it ('/'-separated, no "./"), else `path`.
std::string relativeToRoot(std::string_view Path, std::string_view Root);

/// clang's style: `file:line:col: warning: message [check]`, notes under it; ANSI colours
/// as clang uses them when Colour (a terminal).
void writeText(const RunResult &Result, const LocationOptions &Opts, bool Colour,
               llvm::raw_ostream &OS);

/// One JSON object: {"version": 1, "findings": [...], "launches": [...],
/// "files_analysed": [...], "files_with_errors": [...], "files_failed": [...]}.
void writeJson(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS);

/// SARIF 2.1.0 (the format GitHub code scanning ingests): one run, one rule per check
/// that appears in the result or has a doc page, results with physical locations
/// (relative to %SRCROOT% when under LocationOptions::SourceRoot), notes as related
/// locations.
void writeSarif(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS);

/// Merges SARIF 2.1.0 logs (the shards of one project) into one log with one run per
/// tool: rules united by id, results concatenated, sorted by location and deduplicated,
/// invocations combined (successful only if all were). Nothing on error, with Error set.
std::optional<std::string> mergeSarifLogs(const std::vector<std::string> &Logs, std::string &Error);

/// GitHub Actions workflow commands, one `::warning file=...,line=...,col=...,title=...::`
/// line per finding (`::error` for errors, `::notice` for notes), notes appended to the
/// message, escaped as the Actions runner expects.
void writeGithub(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS);

/// One output format of `warplint check --format NAME`. Write gets Colour (a terminal
/// wants colours) whether or not the format has any.
struct OutputFormat {
  const char *Name;
  void (*Write)(const RunResult &, const LocationOptions &, bool Colour, llvm::raw_ostream &);
};

/// Every format, the first the default: the one list `--format` accepts, its `--help`
/// names and `warplint check` writes from. A new format is its writer (declared above,
/// defined in driver/formats/<Name>Format.cpp, which driver/CMakeLists.txt compiles
/// without a list) and a row here.
inline constexpr OutputFormat OutputFormats[] = {
    {"text", writeText},
    {"json", [](const RunResult &R, const LocationOptions &L, bool,
                llvm::raw_ostream &OS) { writeJson(R, L, OS); }},
    {"sarif", [](const RunResult &R, const LocationOptions &L, bool,
                 llvm::raw_ostream &OS) { writeSarif(R, L, OS); }},
    {"github", [](const RunResult &R, const LocationOptions &L, bool,
                  llvm::raw_ostream &OS) { writeGithub(R, L, OS); }},
};

/// Escapes the message part of a workflow command: % \r \n.
std::string escapeGithubData(std::string_view S);
/// Escapes a property value of a workflow command: % \r \n : ,.
std::string escapeGithubProperty(std::string_view S);

/// Writes an output file (-o, --svg). A regular file or a missing path is written through
/// a temporary file beside it and a rename, so a reader never sees half a file (an existing
/// file keeps its mode; a read-only one is refused; the temporary file is removed on
/// SIGINT/SIGTERM). A symbolic link is followed and its target replaced, the link stays.
/// Anything else (a FIFO, a device such as /dev/null, /dev/stdout) is opened and written,
/// never replaced. False with Error set when it cannot.
bool writeFileAtomically(const std::string &Path, std::string_view Text, std::string &Error);

/// A check's documentation as compiled in from docs/checks/<id>.md.
struct CheckDoc {
  std::string_view Id;       ///< "warplint-divergent-branch"
  std::string_view Summary;  ///< the page's first paragraph, on one line
  std::string_view Markdown; ///< the whole page
};

/// The doc page of check `Id`, or nullptr when it has none.
const CheckDoc *findCheckDoc(std::string_view Id);
/// Every check with a doc page, sorted by id.
const CheckDoc *checkDocsBegin();
const CheckDoc *checkDocsEnd();
/// The base URL of warplint's docs (the repository's docs/ directory), ending in '/':
/// $WARPLINT_DOCS_BASE_URL, else the URL configured at build time (CMake
/// WARPLINT_DOCS_BASE_URL), else the docs beside the binary,
/// file://<bin>/../share/doc/warplint/ (the build tree mirrors docs/ there and
/// `cmake --install` installs it there). Computed once.
std::string docsBaseUrl();
/// docsBaseUrl()'s rule for the given environment value and configured value (empty:
/// unset) and the absolute directory of the docs beside the binary. An environment value
/// without a URL scheme (relative, or a bare path) is ignored and *Warning says so.
std::string docsBaseUrlFor(std::string_view Env, std::string_view Configured,
                           std::string_view DocsDir, std::string *Warning = nullptr);
/// The absolute URL of Page, a path under docs/ ("ci.md", "checks/README.md").
std::string docUrl(std::string_view Page);
/// The URL of check `Id`'s doc page: docUrl("checks/<id>.md").
std::string checkDocUrl(std::string_view Id);
/// The same page for a browser (the HTML report): with the docs beside the binary (no
/// base URL set), the page's HTML that the build writes and installs,
/// share/doc/warplint/html/checks/<id>.html, when it is there; else checkDocUrl(Id).
std::string checkDocHtmlUrl(std::string_view Id);
/// Markdown with every relative link target resolved against PageUrl, the page's own
/// absolute URL: inline links and images `[t](x)`, reference definitions `[r]: x` and
/// HTML `href="x"`/`src="x"`, outside code spans and fenced code. The result reads the
/// same wherever it is shown (GitHub's rule panel has no page to be relative to).
std::string withAbsoluteLinks(std::string_view Markdown, std::string_view PageUrl);
/// Ref resolved against the absolute URL Base as RFC 3986 section 5.2 does it (dot
/// segments removed); a Ref with a scheme comes back as it is.
std::string resolveUrl(std::string_view Base, std::string_view Ref);
/// True when Ref starts with a URI scheme (`https:`, `file:`, `mailto:`): an absolute URL.
bool hasUrlScheme(std::string_view Ref);
/// Percent-encodes everything but RFC 3986 unreserved characters and '/'.
std::string encodeUriPath(std::string_view Path);

} // namespace warplint::driver
