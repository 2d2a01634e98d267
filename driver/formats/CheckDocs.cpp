//===- CheckDocs.cpp - the check doc pages compiled in from docs/checks/ --===//
#include "driver/formats/Formats.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace warplint::driver {
namespace {

struct RawDoc {
  const char *Id;
  const char *Markdown;
};

const RawDoc RawDocs[] = {
#include "CheckDocs.inc"
    {nullptr, nullptr},
};

/// The first paragraph after the `# title` line, its lines joined by single spaces.
std::string firstParagraph(std::string_view Md) {
  std::string Out;
  bool SeenTitle = false;
  while (!Md.empty()) {
    size_t Eol = Md.find('\n');
    std::string_view Line = Md.substr(0, Eol);
    Md = Eol == std::string_view::npos ? std::string_view() : Md.substr(Eol + 1);
    while (!Line.empty() && (Line.back() == '\r' || Line.back() == ' '))
      Line.remove_suffix(1);
    if (!SeenTitle) {
      if (Line.substr(0, 2) == "# ")
        SeenTitle = true;
      continue;
    }
    if (Line.empty()) {
      if (!Out.empty())
        break;
      continue;
    }
    if (!Out.empty())
      Out += ' ';
    Out += Line;
  }
  return Out;
}

struct DocTable {
  std::vector<std::string> Summaries;
  std::vector<CheckDoc> Docs;
  DocTable() {
    for (const RawDoc *R = RawDocs; R->Id; ++R)
      Summaries.push_back(firstParagraph(R->Markdown));
    size_t I = 0;
    for (const RawDoc *R = RawDocs; R->Id; ++R, ++I)
      Docs.push_back({R->Id, Summaries[I], R->Markdown});
    std::sort(Docs.begin(), Docs.end(),
              [](const CheckDoc &A, const CheckDoc &B) { return A.Id < B.Id; });
  }
};

const DocTable &table() {
  static const DocTable T;
  return T;
}

} // namespace

const CheckDoc *findCheckDoc(std::string_view Id) {
  for (const CheckDoc &D : table().Docs)
    if (D.Id == Id)
      return &D;
  return nullptr;
}

const CheckDoc *checkDocsBegin() { return table().Docs.data(); }
const CheckDoc *checkDocsEnd() { return table().Docs.data() + table().Docs.size(); }

std::string docsBaseUrlFor(std::string_view Env, std::string_view Configured,
                           std::string_view DocsDir, std::string *Warning) {
  // A base without a scheme ("docs/", "/srv/docs") made every helpUri relative (SARIF
  // wants them absolute), without a word: it is said, and the next base is used.
  if (!Env.empty() && !hasUrlScheme(Env)) {
    if (Warning)
      *Warning = "WARPLINT_DOCS_BASE_URL '" + std::string(Env) +
                 "' is not an absolute URL (https://..., file:///...): ignored";
    Env = {};
  }
  std::string Base = !Env.empty()          ? std::string(Env)
                     : !Configured.empty() ? std::string(Configured)
                                           : "file://" + encodeUriPath(DocsDir);
  if (Base.empty() || Base.back() != '/')
    Base += '/';
  return Base;
}

/// share/doc/warplint beside bin/; where the binary cannot be found, the installation's.
static std::string localDocsDir() {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable("warplint", &Anchor);
  llvm::SmallString<256> Dir(WARPLINT_INSTALL_PREFIX);
  if (llvm::sys::path::is_absolute(Exe))
    Dir = llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "share", "doc", "warplint");
  return std::string(Dir);
}

std::string docsBaseUrl() {
  static const std::string Base = [] {
    std::string Dir = localDocsDir();
    const char *Env = std::getenv("WARPLINT_DOCS_BASE_URL");
    std::string Warning;
    std::string Base = docsBaseUrlFor(Env ? Env : "", WARPLINT_DOCS_BASE_URL, Dir, &Warning);
    if (!Warning.empty()) // once per process: the base is computed once
      llvm::errs() << "warplint: warning: " << Warning << "; the docs links start at " << Base
                   << "\n";
    return Base;
  }();
  return Base;
}

std::string docUrl(std::string_view Page) { return resolveUrl(docsBaseUrl(), Page); }

std::string checkDocUrl(std::string_view Id) { return docUrl("checks/" + std::string(Id) + ".md"); }

std::string checkDocHtmlUrl(std::string_view Id) {
  std::string Md = checkDocUrl(Id);
  std::string Base = docsBaseUrl();
  // Only the local docs: a configured base (a web server, GitHub's blob view) shows the
  // .md it was given as a page already.
  const char *Env = std::getenv("WARPLINT_DOCS_BASE_URL");
  if ((Env && *Env) || *WARPLINT_DOCS_BASE_URL || Base.rfind("file://", 0) != 0)
    return Md;
  std::string Page = "html/checks/" + std::string(Id) + ".html";
  llvm::SmallString<256> File(localDocsDir());
  llvm::sys::path::append(File, "html", "checks", std::string(Id) + ".html");
  return llvm::sys::fs::exists(File) ? docUrl(Page) : Md;
}

bool hasUrlScheme(std::string_view Ref) {
  if (Ref.empty() || !std::isalpha(static_cast<unsigned char>(Ref[0])))
    return false;
  for (char C : Ref.substr(1)) {
    if (C == ':')
      return true;
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '+' && C != '-' && C != '.')
      return false;
  }
  return false;
}

namespace {

/// Path with its "." and ".." segments removed (RFC 3986 section 5.2.4).
std::string removeDotSegments(std::string_view Path) {
  bool Absolute = !Path.empty() && Path[0] == '/';
  std::vector<std::string_view> Segments;
  bool TrailingSlash = false;
  size_t Start = Absolute ? 1 : 0;
  for (;;) {
    size_t End = Path.find('/', Start);
    std::string_view Seg = Path.substr(Start, End == std::string_view::npos ? End : End - Start);
    bool Last = End == std::string_view::npos;
    if (Seg == "." || Seg == "..") {
      if (Seg == ".." && !Segments.empty())
        Segments.pop_back();
      TrailingSlash = Last;
    } else {
      Segments.push_back(Seg);
      TrailingSlash = false;
    }
    if (Last)
      break;
    Start = End + 1;
  }
  std::string Out = Absolute ? "/" : "";
  for (size_t I = 0; I < Segments.size(); ++I)
    Out += std::string(Segments[I]) + (I + 1 < Segments.size() ? "/" : "");
  if (TrailingSlash && !Segments.empty())
    Out += '/';
  return Out;
}

} // namespace

std::string resolveUrl(std::string_view Base, std::string_view Ref) {
  if (hasUrlScheme(Ref))
    return std::string(Ref);
  // Base: scheme ":" ["//" authority] path ["?" query] ["#" fragment].
  size_t Colon = Base.find(':');
  std::string_view Scheme = Base.substr(0, Colon + 1); // with the ':'
  std::string_view Rest = Base.substr(Colon + 1);
  std::string_view Authority;
  if (Rest.substr(0, 2) == "//") {
    size_t End = Rest.find_first_of("/?#", 2);
    Authority = Rest.substr(0, End);
    Rest = End == std::string_view::npos ? std::string_view() : Rest.substr(End);
  }
  std::string_view BasePath = Rest.substr(0, Rest.find_first_of("?#"));
  std::string_view BaseNoFragment = Base.substr(0, Base.find('#'));
  if (Ref.empty())
    return std::string(BaseNoFragment);
  if (Ref[0] == '#')
    return std::string(BaseNoFragment) + std::string(Ref);
  if (Ref.substr(0, 2) == "//")
    return std::string(Scheme) + std::string(Ref);
  std::string Prefix = std::string(Scheme) + std::string(Authority);
  if (Ref[0] == '?')
    return Prefix + std::string(BasePath) + std::string(Ref);
  size_t SuffixAt = Ref.find_first_of("?#");
  std::string_view RefPath = Ref.substr(0, SuffixAt);
  std::string_view Suffix = SuffixAt == std::string_view::npos ? "" : Ref.substr(SuffixAt);
  std::string Merged;
  if (!RefPath.empty() && RefPath[0] == '/') {
    Merged = RefPath;
  } else {
    size_t Slash = BasePath.rfind('/');
    Merged = std::string(Slash == std::string_view::npos ? (Authority.empty() ? "" : "/")
                                                         : BasePath.substr(0, Slash + 1)) +
             std::string(RefPath);
  }
  return Prefix + removeDotSegments(Merged) + std::string(Suffix);
}

namespace {

/// The end of a link destination that starts at Pos (after "(" and any spaces): a
/// "<...>" destination, or up to white space or the unbalanced ')'.
size_t destinationEnd(std::string_view Line, size_t Pos) {
  if (Pos < Line.size() && Line[Pos] == '<') {
    size_t Close = Line.find('>', Pos);
    return Close == std::string_view::npos ? Pos : Close + 1;
  }
  int Depth = 0;
  size_t I = Pos;
  for (; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == '\\' && I + 1 < Line.size()) {
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t')
      break;
    if (C == '(')
      ++Depth;
    if (C == ')' && Depth-- == 0)
      break;
  }
  return I;
}

/// The destination Line[Begin, End) resolved against PageUrl ("<...>" kept around it).
std::string resolvedDestination(std::string_view Line, size_t Begin, size_t End,
                                std::string_view PageUrl) {
  std::string_view Dest = Line.substr(Begin, End - Begin);
  bool Angle = Dest.size() >= 2 && Dest.front() == '<' && Dest.back() == '>';
  if (Angle)
    Dest = Dest.substr(1, Dest.size() - 2);
  std::string Url = resolveUrl(PageUrl, Dest);
  return Angle ? "<" + Url + ">" : Url;
}

/// One line outside fenced code, its links resolved.
std::string resolveLine(std::string_view Line, std::string_view PageUrl) {
  // A reference definition: up to 3 spaces, "[label]:", the destination.
  size_t Indent = Line.find_first_not_of(' ');
  if (Indent != std::string_view::npos && Indent <= 3 && Line[Indent] == '[') {
    size_t Close = Line.find("]:", Indent);
    if (Close != std::string_view::npos &&
        Line.substr(Indent, Close - Indent).find(']') == std::string_view::npos) {
      size_t Begin = Line.find_first_not_of(" \t", Close + 2);
      if (Begin != std::string_view::npos) {
        size_t End = destinationEnd(Line, Begin);
        return std::string(Line.substr(0, Begin)) + resolvedDestination(Line, Begin, End, PageUrl) +
               std::string(Line.substr(End));
      }
    }
  }
  std::string Out;
  size_t I = 0;
  while (I < Line.size()) {
    // A code span: a run of backticks up to the next run of the same length.
    if (Line[I] == '`') {
      size_t Run = Line.find_first_not_of('`', I);
      Run = (Run == std::string_view::npos ? Line.size() : Run) - I;
      std::string Ticks(Run, '`');
      size_t Close = Line.find(Ticks, I + Run);
      while (Close != std::string_view::npos && Close + Run < Line.size() &&
             Line[Close + Run] == '`')
        Close = Line.find(Ticks, Line.find_first_not_of('`', Close));
      size_t End = Close == std::string_view::npos ? I + Run : Close + Run;
      Out += Line.substr(I, End - I);
      I = End;
      continue;
    }
    size_t Begin = std::string_view::npos;
    if (Line.substr(I, 2) == "](") {
      Out += "](";
      Begin = Line.find_first_not_of(" \t", I + 2);
      if (Begin == std::string_view::npos)
        Begin = Line.size();
      Out += Line.substr(I + 2, Begin - (I + 2));
    } else {
      for (std::string_view Attr : {"href=\"", "src=\""})
        if (Line.substr(I, Attr.size()) == Attr) {
          Out += Attr;
          Begin = I + Attr.size();
        }
    }
    if (Begin == std::string_view::npos) {
      Out += Line[I++];
      continue;
    }
    size_t End = Line[Begin - 1] == '"' ? Line.find('"', Begin) : destinationEnd(Line, Begin);
    if (End == std::string_view::npos)
      End = Line.size();
    if (End > Begin)
      Out += resolvedDestination(Line, Begin, End, PageUrl);
    I = End;
  }
  return Out;
}

} // namespace

std::string withAbsoluteLinks(std::string_view Markdown, std::string_view PageUrl) {
  std::string Out;
  std::string Fence; // the opening fence while inside fenced code
  while (!Markdown.empty()) {
    size_t Eol = Markdown.find('\n');
    std::string_view Line = Markdown.substr(0, Eol);
    Markdown = Eol == std::string_view::npos ? std::string_view() : Markdown.substr(Eol + 1);
    std::string_view Trimmed = Line.substr(std::min(Line.find_first_not_of(' '), Line.size()));
    bool FenceLine = Line.size() - Trimmed.size() <= 3 &&
                     (Trimmed.substr(0, 3) == "```" || Trimmed.substr(0, 3) == "~~~");
    if (!Fence.empty()) {
      if (FenceLine && Trimmed.substr(0, Fence.size()) == Fence &&
          Trimmed.find_first_not_of(Fence[0]) >= Fence.size() &&
          Trimmed.find_first_not_of(std::string(1, Fence[0]) + " \t\r") == std::string_view::npos)
        Fence.clear();
      Out += Line;
    } else if (FenceLine) {
      Fence = std::string(Trimmed.substr(0, Trimmed.find_first_not_of(Trimmed[0])));
      Out += Line;
    } else {
      Out += resolveLine(Line, PageUrl);
    }
    if (Eol != std::string_view::npos)
      Out += '\n';
  }
  return Out;
}

} // namespace warplint::driver
