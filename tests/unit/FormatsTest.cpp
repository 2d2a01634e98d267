//===- FormatsTest.cpp - SARIF and GitHub output from hand-built RunResults ===//
#include "driver/formats/Formats.h"
#include "driver/commands/Commands.h"
#include "warplint/core/Version.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <regex>
#include <sstream>
#include <string>

using namespace warplint::driver;
using warplint::KernelRecord;
using warplint::LaunchRecord;
using warplint::SourcePos;

namespace {

RunResult sampleResult() {
  RunResult R;
  Finding Divergent;
  Divergent.Check = "warplint-divergent-branch";
  Divergent.Level = Severity::Warning;
  Divergent.Pos = {"/proj/src/reduce.cu", 12, 7};
  Divergent.Message = "branch diverges in 8 of 8 warps (lanes split 16/16)";
  Divergent.Notes.push_back({{"/proj/src/reduce.cu", 10, 15}, "tid is threadIdx.x"});
  Divergent.Notes.push_back({{"/proj/include/my util.cuh", 3, 1}, "called from here"});
  Divergent.Arch = "sm_86";
  R.Findings.push_back(Divergent);

  Finding Outside;
  Outside.Check = "warplint-launch-block-size";
  Outside.Level = Severity::Error;
  Outside.Pos = {"/elsewhere/k,1.cu", 40, 3};
  Outside.Message = "block of 2048 threads: over the limit of 1024, 100%: no launch";
  R.Findings.push_back(Outside);

  R.FilesAnalysed = {"/proj/src/reduce.cu", "/elsewhere/k,1.cu"};
  R.FilesFailed = {"/proj/src/broken.cu"};
  return R;
}

std::string sarifOf(const RunResult &R, const std::string &Root = "/proj") {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeSarif(R, LocationOptions{Root}, OS);
  return S;
}

const llvm::json::Object &obj(const llvm::json::Value *V) {
  static const llvm::json::Object Empty;
  EXPECT_TRUE(V && V->getAsObject());
  return V && V->getAsObject() ? *V->getAsObject() : Empty;
}

const llvm::json::Array &arr(const llvm::json::Value *V) {
  static const llvm::json::Array Empty;
  EXPECT_TRUE(V && V->getAsArray());
  return V && V->getAsArray() ? *V->getAsArray() : Empty;
}

std::string str(const llvm::json::Object &O, llvm::StringRef Key) {
  auto S = O.getString(Key);
  return S ? S->str() : "<missing " + Key.str() + ">";
}

TEST(RelativeToRoot, UnderRootOnly) {
  EXPECT_EQ(relativeToRoot("/proj/src/a.cu", "/proj"), "src/a.cu");
  EXPECT_EQ(relativeToRoot("/proj/src/a.cu", "/proj/"), "src/a.cu");
  EXPECT_EQ(relativeToRoot("/project/a.cu", "/proj"), "/project/a.cu");
  EXPECT_EQ(relativeToRoot("/proj", "/proj"), "/proj");
  EXPECT_EQ(relativeToRoot("src/a.cu", "/proj"), "src/a.cu");
  EXPECT_EQ(relativeToRoot("/a.cu", "/"), "a.cu");
  EXPECT_EQ(relativeToRoot("/proj/a.cu", ""), "/proj/a.cu");
}

TEST(CheckDocs, DocPagesAreCompiledIn) {
  const CheckDoc *Doc = findCheckDoc("warplint-divergent-branch");
  ASSERT_NE(Doc, nullptr);
  // The first paragraph of docs/checks/warplint-divergent-branch.md, joined on one line.
  EXPECT_EQ(Doc->Summary.substr(0, 45), "Finds branches whose condition splits the lan");
  EXPECT_EQ(Doc->Summary.find('\n'), std::string_view::npos);
  EXPECT_EQ(Doc->Markdown.substr(0, 27), "# warplint-divergent-branch");
  EXPECT_EQ(findCheckDoc("warplint-no-such-check"), nullptr);
  EXPECT_EQ(checkDocUrl("warplint-x"), docsBaseUrl() + "checks/warplint-x.md");
  // For a browser: the page's HTML the build wrote beside the docs (no base URL set), the
  // .md where there is none.
  if (!std::getenv("WARPLINT_DOCS_BASE_URL")) {
    EXPECT_EQ(checkDocHtmlUrl("warplint-divergent-branch"),
              docsBaseUrl() + "html/checks/warplint-divergent-branch.html");
  }
  EXPECT_EQ(checkDocHtmlUrl("warplint-x"), checkDocUrl("warplint-x"));
  for (const CheckDoc *D = checkDocsBegin(); D + 1 < checkDocsEnd(); ++D)
    EXPECT_LT(D->Id, (D + 1)->Id);
}

TEST(DocsUrl, EnvironmentThenConfiguredThenTheDocsBesideTheBinary) {
  EXPECT_EQ(docsBaseUrlFor("https://env.example/docs", "https://cfg.example/d/",
                           "/opt/w/share/doc/warplint"),
            "https://env.example/docs/");
  EXPECT_EQ(docsBaseUrlFor("", "https://cfg.example/d/", "/opt/w/share/doc/warplint"),
            "https://cfg.example/d/");
  EXPECT_EQ(docsBaseUrlFor("", "", "/opt/my w/share/doc/warplint"),
            "file:///opt/my%20w/share/doc/warplint/");
  // A base without a scheme gave relative helpUris without a word: ignored, and said.
  for (const char *Relative : {"docs/", "/srv/warplint/docs", "./d"}) {
    std::string Warning;
    EXPECT_EQ(docsBaseUrlFor(Relative, "", "/opt/w/share/doc/warplint", &Warning),
              "file:///opt/w/share/doc/warplint/")
        << Relative;
    EXPECT_EQ(Warning, "WARPLINT_DOCS_BASE_URL '" + std::string(Relative) +
                           "' is not an absolute URL (https://..., file:///...): ignored");
  }
  std::string None;
  docsBaseUrlFor("https://env.example/docs", "", "/d", &None);
  EXPECT_EQ(None, "");
  // This binary has no $WARPLINT_DOCS_BASE_URL from ctest; whatever the base, it is absolute.
  EXPECT_TRUE(hasUrlScheme(docsBaseUrl())) << docsBaseUrl();
  EXPECT_EQ(docsBaseUrl().back(), '/');
  EXPECT_EQ(docUrl("ci.md"), docsBaseUrl() + "ci.md");
}

TEST(DocsUrl, ResolvesReferencesAsRfc3986) {
  // RFC 3986 section 5.4.1, normal examples.
  const char *Base = "http://a/b/c/d;p?q";
  const std::pair<const char *, const char *> Cases[] = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {";x", "http://a/b/c/;x"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
      {"../../../g", "http://a/g"},
  };
  for (const auto &[Ref, Want] : Cases)
    EXPECT_EQ(resolveUrl(Base, Ref), Want) << "reference '" << Ref << "'";
  EXPECT_EQ(resolveUrl("file:///usr/share/doc/warplint/checks/x.md", "../registers.md#cache"),
            "file:///usr/share/doc/warplint/registers.md#cache");
  EXPECT_EQ(resolveUrl("file:///usr/share/doc/warplint/checks/x.md", "#options"),
            "file:///usr/share/doc/warplint/checks/x.md#options");
  EXPECT_FALSE(hasUrlScheme("../registers.md"));
  EXPECT_FALSE(hasUrlScheme("a/b:c"));
  EXPECT_TRUE(hasUrlScheme("mailto:x@example.invalid"));
}

TEST(DocsUrl, MarkdownLinksBecomeAbsoluteOutsideCode) {
  const std::string Page = "https://h.example/docs/checks/warplint-x.md";
  const std::string In = "# title\n"
                         "See [registers](../registers.md) and [a check](warplint-y.md#options),\n"
                         "![chart](img/c.svg \"a chart\"), [here](#limitations),\n"
                         "[abs](https://other.example/p) and <a href=\"../ci.md\">CI</a>.\n"
                         "[ref]: ../launch-facts.md\n"
                         "Code `[a](b.md)` and ``x`[c](d.md)`` stay; [angle](<my page.md>).\n"
                         "```cuda\n"
                         "auto f = [&](int i) { return i; };\n"
                         "```\n"
                         "~~~\n"
                         "[not](a link.md)\n"
                         "~~~\n"
                         "[after](../user-guide.md)";
  const std::string Want = "# title\n"
                           "See [registers](https://h.example/docs/registers.md) and [a check]"
                           "(https://h.example/docs/checks/warplint-y.md#options),\n"
                           "![chart](https://h.example/docs/checks/img/c.svg \"a chart\"), "
                           "[here](https://h.example/docs/checks/warplint-x.md#limitations),\n"
                           "[abs](https://other.example/p) and <a "
                           "href=\"https://h.example/docs/ci.md\">CI</a>.\n"
                           "[ref]: https://h.example/docs/launch-facts.md\n"
                           "Code `[a](b.md)` and ``x`[c](d.md)`` stay; "
                           "[angle](<https://h.example/docs/checks/my page.md>).\n"
                           "```cuda\n"
                           "auto f = [&](int i) { return i; };\n"
                           "```\n"
                           "~~~\n"
                           "[not](a link.md)\n"
                           "~~~\n"
                           "[after](https://h.example/docs/user-guide.md)";
  EXPECT_EQ(withAbsoluteLinks(In, Page), Want);
}

/// Every link destination of Markdown outside fenced code and code spans: inline links and
/// images, reference definitions, href/src attributes (a scanner of its own, not the one
/// under test).
std::vector<std::string> linkTargets(const std::string &Markdown) {
  std::vector<std::string> Out;
  static const std::regex Fence("^ {0,3}(```|~~~)");
  static const std::regex CodeSpan("(`+)[^`]*?\\1");
  static const std::regex Inline("\\]\\(\\s*<?([^)\\s>]*)");
  static const std::regex RefDef("^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)");
  static const std::regex Attr("(?:href|src)=\"([^\"]*)\"");
  std::istringstream Lines(Markdown);
  std::string Line;
  bool InFence = false;
  while (std::getline(Lines, Line)) {
    if (std::regex_search(Line, Fence)) {
      InFence = !InFence;
      continue;
    }
    if (InFence)
      continue;
    Line = std::regex_replace(Line, CodeSpan, "");
    for (const std::regex *Re : {&Inline, &RefDef, &Attr})
      for (std::sregex_iterator I(Line.begin(), Line.end(), *Re), E; I != E; ++I)
        Out.push_back((*I)[1]);
  }
  return Out;
}

std::string percentDecode(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I)
    if (S[I] == '%' && I + 2 < S.size()) {
      Out += static_cast<char>(std::stoi(S.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else {
      Out += S[I];
    }
  return Out;
}

TEST(Sarif, RuleHelpHasOnlyAbsoluteLinks) {
  auto Parsed = llvm::json::parse(sarifOf(sampleResult()));
  ASSERT_TRUE(bool(Parsed));
  const auto &Run = obj(&arr(obj(&*Parsed).get("runs"))[0]);
  const auto &Driver = obj(obj(Run.get("tool")).get("driver"));
  EXPECT_TRUE(hasUrlScheme(str(Driver, "informationUri")));
  size_t Pages = 0, Links = 0;
  for (const auto &RV : arr(Driver.get("rules"))) {
    const auto &Rule = obj(&RV);
    const auto *Help = Rule.getObject("help");
    if (!Help)
      continue;
    ++Pages;
    std::string Id = str(Rule, "id");
    EXPECT_TRUE(hasUrlScheme(str(Rule, "helpUri"))) << Id;
    std::string Md = str(*Help, "markdown");
    for (const std::string &Target : linkTargets(Md)) {
      ++Links;
      EXPECT_NE(Target.find("://"), std::string::npos) << Id << ": relative link " << Target;
      // With the docs beside the binary (the build tree mirrors docs/), the page exists.
      if (Target.rfind("file://", 0) == 0) {
        std::string Path = percentDecode(Target.substr(7, Target.find('#') - 7));
        EXPECT_TRUE(llvm::sys::fs::exists(Path)) << Id << ": " << Target;
      }
    }
    // The original page had relative links; the help is the page with them resolved.
    EXPECT_EQ(Md, withAbsoluteLinks(findCheckDoc(Id)->Markdown, str(Rule, "helpUri")));
  }
  EXPECT_EQ(Pages, size_t(checkDocsEnd() - checkDocsBegin()));
  EXPECT_GT(Links, 5u); // the pages link each other and ../registers.md
  // The scanner sees the relative links of the raw pages (so that it could fail).
  size_t Relative = 0;
  for (const CheckDoc *D = checkDocsBegin(); D != checkDocsEnd(); ++D)
    for (const std::string &Target : linkTargets(std::string(D->Markdown)))
      Relative += Target.find("://") == std::string::npos;
  EXPECT_GT(Relative, 5u);
}

TEST(Sarif, LogRunAndTool) {
  auto Parsed = llvm::json::parse(sarifOf(sampleResult()));
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const auto &Log = obj(&*Parsed);
  EXPECT_EQ(str(Log, "version"), "2.1.0");
  const auto &Runs = arr(Log.get("runs"));
  ASSERT_EQ(Runs.size(), 1u);
  const auto &Run = obj(&Runs[0]);
  const auto &Driver = obj(obj(Run.get("tool")).get("driver"));
  EXPECT_EQ(str(Driver, "name"), "warplint");
  EXPECT_EQ(str(Driver, "version"), warplint::versionString());
  const auto &Base = obj(obj(Run.get("originalUriBaseIds")).get("%SRCROOT%"));
  EXPECT_EQ(str(Base, "uri"), "file:///proj/");
  const auto &Inv = obj(&arr(Run.get("invocations"))[0]);
  EXPECT_EQ(Inv.getBoolean("executionSuccessful"), false);
  const auto &Note = obj(&arr(Inv.get("toolExecutionNotifications"))[0]);
  // Relative to the project root, as the results are (the absolute path before).
  EXPECT_EQ(str(obj(Note.get("message")), "text"), "could not analyse src/broken.cu");
}

TEST(Sarif, OneRulePerCheckWithHelp) {
  auto Parsed = llvm::json::parse(sarifOf(sampleResult()));
  ASSERT_TRUE(bool(Parsed));
  const auto &Run = obj(&arr(obj(&*Parsed).get("runs"))[0]);
  const auto &Rules = arr(obj(obj(Run.get("tool")).get("driver")).get("rules"));
  std::vector<std::string> Ids;
  for (const auto &R : Rules)
    Ids.push_back(str(obj(&R), "id"));
  // Sorted, unique, documented checks and checks that reported alike.
  EXPECT_TRUE(std::is_sorted(Ids.begin(), Ids.end()));
  EXPECT_EQ(std::adjacent_find(Ids.begin(), Ids.end()), Ids.end());
  auto Div = std::find(Ids.begin(), Ids.end(), "warplint-divergent-branch");
  ASSERT_NE(Div, Ids.end());
  ASSERT_NE(std::find(Ids.begin(), Ids.end(), "warplint-launch-block-size"), Ids.end());
  const auto &Rule = obj(&Rules[Div - Ids.begin()]);
  EXPECT_EQ(str(Rule, "helpUri"), checkDocUrl("warplint-divergent-branch"));
  EXPECT_EQ(str(obj(Rule.get("shortDescription")), "text"),
            std::string(findCheckDoc("warplint-divergent-branch")->Summary));
  EXPECT_EQ(str(obj(Rule.get("help")), "markdown").substr(0, 27), "# warplint-divergent-branch");
}

TEST(Sarif, ResultsLocationsAndNotes) {
  auto Parsed = llvm::json::parse(sarifOf(sampleResult()));
  ASSERT_TRUE(bool(Parsed));
  const auto &Run = obj(&arr(obj(&*Parsed).get("runs"))[0]);
  const auto &Rules = arr(obj(obj(Run.get("tool")).get("driver")).get("rules"));
  const auto &Results = arr(Run.get("results"));
  ASSERT_EQ(Results.size(), 2u);

  const auto &First = obj(&Results[0]);
  EXPECT_EQ(str(First, "ruleId"), "warplint-divergent-branch");
  EXPECT_EQ(str(obj(&Rules[*First.getInteger("ruleIndex")]), "id"), "warplint-divergent-branch");
  EXPECT_EQ(str(First, "level"), "warning");
  EXPECT_EQ(str(obj(First.get("message")), "text"),
            "branch diverges in 8 of 8 warps (lanes split 16/16)");
  const auto &Phys = obj(obj(&arr(First.get("locations"))[0]).get("physicalLocation"));
  EXPECT_EQ(str(obj(Phys.get("artifactLocation")), "uri"), "src/reduce.cu");
  EXPECT_EQ(str(obj(Phys.get("artifactLocation")), "uriBaseId"), "%SRCROOT%");
  EXPECT_EQ(obj(Phys.get("region")).getInteger("startLine"), 12);
  EXPECT_EQ(obj(Phys.get("region")).getInteger("startColumn"), 7);
  const auto &Related = arr(First.get("relatedLocations"));
  ASSERT_EQ(Related.size(), 2u);
  EXPECT_EQ(str(obj(obj(&Related[0]).get("message")), "text"), "tid is threadIdx.x");
  const auto &NoteLoc = obj(obj(obj(&Related[1]).get("physicalLocation")).get("artifactLocation"));
  EXPECT_EQ(str(NoteLoc, "uri"), "include/my%20util.cuh");
  EXPECT_EQ(str(obj(First.get("properties")), "arch"), "sm_86");

  const auto &Second = obj(&Results[1]);
  EXPECT_EQ(str(Second, "level"), "error");
  const auto &Abs = obj(
      obj(obj(&arr(Second.get("locations"))[0]).get("physicalLocation")).get("artifactLocation"));
  EXPECT_EQ(str(Abs, "uri"), "file:///elsewhere/k%2C1.cu");
  EXPECT_EQ(Abs.get("uriBaseId"), nullptr);
}

TEST(Sarif, NoRootKeepsRelativePathsRelative) {
  RunResult R;
  Finding F;
  F.Check = "warplint-divergent-branch";
  F.Pos = {"src/a.cu", 1, 1};
  F.Message = "m";
  R.Findings.push_back(F);
  auto Parsed = llvm::json::parse(sarifOf(R, ""));
  ASSERT_TRUE(bool(Parsed));
  const auto &Run = obj(&arr(obj(&*Parsed).get("runs"))[0]);
  EXPECT_EQ(Run.get("originalUriBaseIds"), nullptr);
  const auto &Loc = obj(
      obj(obj(&arr(obj(&arr(Run.get("results"))[0]).get("locations"))[0]).get("physicalLocation"))
          .get("artifactLocation"));
  EXPECT_EQ(str(Loc, "uri"), "src/a.cu");
  EXPECT_EQ(obj(&arr(Run.get("invocations"))[0]).getBoolean("executionSuccessful"), true);
}

TEST(Sarif, ByteIdenticalRunToRun) { EXPECT_EQ(sarifOf(sampleResult()), sarifOf(sampleResult())); }

// --- validation against the SARIF 2.1.0 JSON schema ---------------------------------

/// Runs tests/sarif/validate-sarif.py on `Files`; -1 when no python3 is found.
int validate(llvm::ArrayRef<std::string> Files, std::string &Stderr) {
  std::string Python;
  for (const char *Candidate : {"/usr/bin/python3", "python3"}) {
    auto Found = llvm::sys::findProgramByName(Candidate);
    if (Found) {
      Python = *Found;
      break;
    }
  }
  if (Python.empty())
    return -1;
  llvm::SmallString<128> ErrFile;
  llvm::sys::fs::createTemporaryFile("warplint-validate", "txt", ErrFile);
  std::vector<llvm::StringRef> Args = {Python, WARPLINT_SARIF_VALIDATOR, WARPLINT_SARIF_SCHEMA};
  for (const std::string &F : Files)
    Args.push_back(F);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                llvm::StringRef(ErrFile)};
  int Rc = llvm::sys::ExecuteAndWait(Python, Args, std::nullopt, Redirects);
  auto Buf = llvm::MemoryBuffer::getFile(ErrFile);
  Stderr = Buf ? (*Buf)->getBuffer().str() : "";
  llvm::sys::fs::remove(ErrFile);
  return Rc;
}

std::string writeTemp(const std::string &Content) {
  llvm::SmallString<128> Path;
  int Fd;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("warplint-test", "sarif", Fd, Path));
  llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
  OS << Content;
  return std::string(Path);
}

TEST(SarifSchema, OutputValidatesAgainstSarif210Schema) {
  RunResult Empty;
  RunResult Clean;
  Clean.FilesAnalysed = {"/proj/a.cu"};
  RunResult WithErrors = Clean;
  WithErrors.FilesWithErrors = {"/proj/a.cu"};
  std::vector<std::string> Files = {writeTemp(sarifOf(sampleResult())),
                                    writeTemp(sarifOf(Empty, "")),
                                    writeTemp(sarifOf(Clean, "/proj/")),
                                    writeTemp(sarifOf(WithErrors, "/proj/"))};
  std::string Err;
  int Rc = validate(Files, Err);
  for (const std::string &F : Files)
    llvm::sys::fs::remove(F);
  if (Rc == -1 || Rc == 77)
    GTEST_SKIP() << "cannot validate: " << Err;
  EXPECT_EQ(Rc, 0) << Err;
}

TEST(SarifSchema, ValidatorRejectsAnInvalidLevel) {
  // The same log with a level the schema does not allow: the validator must see it.
  std::string Bad = sarifOf(sampleResult());
  size_t At = Bad.find("\"level\": \"warning\"");
  ASSERT_NE(At, std::string::npos);
  Bad.replace(At, 18, "\"level\": \"warn\"");
  std::string File = writeTemp(Bad);
  std::string Err;
  int Rc = validate({File}, Err);
  llvm::sys::fs::remove(File);
  if (Rc == -1 || Rc == 77)
    GTEST_SKIP() << "cannot validate: " << Err;
  EXPECT_EQ(Rc, 1);
  EXPECT_NE(Err.find("'warn'"), std::string::npos) << Err;
}

// --- merging the SARIF of shards -----------------------------------------------------

TEST(SarifMerge, ShardsMergeIntoOneRun) {
  RunResult Full = sampleResult();
  // Shard 1: the first finding, plus a finding in a header both shards saw.
  Finding Header;
  Header.Check = "warplint-divergent-branch";
  Header.Pos = {"/proj/include/common.cuh", 7, 3};
  Header.Message = "in a header";
  RunResult S1, S2;
  S1.Findings = {Full.Findings[0], Header};
  S1.FilesAnalysed = {"/proj/src/reduce.cu"};
  S2.Findings = {Header, Full.Findings[1]};
  S2.FilesAnalysed = {"/elsewhere/k,1.cu"};
  S2.FilesFailed = {"/proj/src/broken.cu"};
  std::string Err;
  auto Merged = mergeSarifLogs({sarifOf(S2), sarifOf(S1)}, Err);
  ASSERT_TRUE(Merged.has_value()) << Err;
  auto Parsed = llvm::json::parse(*Merged);
  ASSERT_TRUE(bool(Parsed));
  const auto &Runs = arr(obj(&*Parsed).get("runs"));
  ASSERT_EQ(Runs.size(), 1u);
  const auto &Run = obj(&Runs[0]);
  const auto &Rules = arr(obj(obj(Run.get("tool")).get("driver")).get("rules"));
  const auto &Results = arr(Run.get("results"));
  ASSERT_EQ(Results.size(), 3u); // the header finding once
  std::vector<std::string> Uris;
  for (const auto &R : Results) {
    const auto &RO = obj(&R);
    EXPECT_EQ(str(obj(&Rules[*RO.getInteger("ruleIndex")]), "id"), str(RO, "ruleId"));
    Uris.push_back(str(
        obj(obj(obj(&arr(RO.get("locations"))[0]).get("physicalLocation")).get("artifactLocation")),
        "uri"));
  }
  EXPECT_EQ(Uris, (std::vector<std::string>{"file:///elsewhere/k%2C1.cu", "include/common.cuh",
                                            "src/reduce.cu"}));
  const auto &Inv = obj(&arr(Run.get("invocations"))[0]);
  EXPECT_EQ(Inv.getBoolean("executionSuccessful"), false);
  EXPECT_EQ(arr(Inv.get("toolExecutionNotifications")).size(), 1u);
  // Order of the inputs does not matter.
  auto Again = mergeSarifLogs({sarifOf(S1), sarifOf(S2)}, Err);
  ASSERT_TRUE(Again.has_value());
  EXPECT_EQ(*Again, *Merged);

  std::string File = writeTemp(*Merged);
  int Rc = validate({File}, Err);
  llvm::sys::fs::remove(File);
  if (Rc != -1 && Rc != 77)
    EXPECT_EQ(Rc, 0) << Err;
}

TEST(SarifMerge, RejectsWhatItCannotMerge) {
  std::string Err;
  EXPECT_FALSE(mergeSarifLogs({"{\"version\": \"2.1.0\", \"runs\": []}", "[1]"}, Err));
  EXPECT_EQ(Err, "input 2: not a SARIF 2.1.0 log");
  EXPECT_FALSE(mergeSarifLogs({"{nope"}, Err));
  EXPECT_EQ(Err.rfind("input 1: not JSON", 0), 0u) << Err;
  EXPECT_FALSE(mergeSarifLogs({sarifOf(sampleResult(), "/a"), sarifOf(sampleResult(), "/b")}, Err));
  EXPECT_NE(Err.find("different roots"), std::string::npos) << Err;
}

TEST(SarifMerge, ResultsDifferingOnlyInAStaleRuleIndexAreOne) {
  // Found by the SARIF merge fuzzer: the duplicates were dropped before the re-indexing
  // that made them equal, so the merged log had both and merging it again changed it.
  std::string Log = R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "w",
    "rules": [{"id": "a"}]}}, "results": [{"ruleId": "a", "ruleIndex": 0, "message":
    {"text": "m"}}, {"ruleId": "a", "ruleIndex": 5, "message": {"text": "m"}}]}]})";
  std::string Err;
  std::optional<std::string> Merged = mergeSarifLogs({Log}, Err);
  ASSERT_TRUE(Merged) << Err;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(*Merged);
  ASSERT_TRUE(bool(V));
  const llvm::json::Array *Results =
      (*V->getAsObject()->getArray("runs"))[0].getAsObject()->getArray("results");
  ASSERT_EQ(Results->size(), 1u);
  EXPECT_EQ((*Results)[0].getAsObject()->getInteger("ruleIndex"), std::optional<int64_t>(0));
  EXPECT_EQ(mergeSarifLogs({*Merged}, Err), Merged);
}

TEST(SarifMerge, CommandWritesTheMergedLog) {
  std::string A = writeTemp(sarifOf(sampleResult()));
  llvm::SmallString<128> Out;
  llvm::sys::fs::createTemporaryFile("warplint-merged", "sarif", Out);
  std::string OutS(Out);
  const char *Argv[] = {"sarif-merge", "-o", OutS.c_str(), A.c_str(), A.c_str()};
  EXPECT_EQ(runSarifMergeCommand(5, const_cast<char **>(Argv)), 0);
  auto Buf = llvm::MemoryBuffer::getFile(OutS);
  ASSERT_TRUE(bool(Buf));
  std::string Err;
  EXPECT_EQ((*Buf)->getBuffer().str(), *mergeSarifLogs({sarifOf(sampleResult())}, Err));
  const char *Missing[] = {"sarif-merge", "/nonexistent/x.sarif"};
  EXPECT_EQ(runSarifMergeCommand(2, const_cast<char **>(Missing)), 2);
  const char *None[] = {"sarif-merge"};
  EXPECT_EQ(runSarifMergeCommand(1, const_cast<char **>(None)), 2);
  llvm::sys::fs::remove(A);
  llvm::sys::fs::remove(OutS);
}

// --- GitHub workflow commands ----------------------------------------------------------

TEST(Github, EscapesDataAndProperties) {
  EXPECT_EQ(escapeGithubData("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad");
  EXPECT_EQ(escapeGithubProperty("100% a:b,c\r\nd"), "100%25 a%3Ab%2Cc%0D%0Ad");
}

TEST(Github, OneCommandPerFinding) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeGithub(sampleResult(), LocationOptions{"/proj"}, OS);
  EXPECT_EQ(S, "::warning file=src/reduce.cu,line=12,col=7,title=warplint-divergent-branch::"
               "branch diverges in 8 of 8 warps (lanes split 16/16) "
               "[warplint-divergent-branch]%0Anote: src/reduce.cu:10:15: tid is threadIdx.x"
               "%0Anote: include/my util.cuh:3:1: called from here\n"
               "::error file=/elsewhere/k%2C1.cu,line=40,col=3,title=warplint-launch-block-size::"
               "block of 2048 threads: over the limit of 1024, 100%25: no launch "
               "[warplint-launch-block-size]\n"
               "::error file=src/broken.cu,title=warplint::could not analyse "
               "src/broken.cu\n");
}

TEST(Github, FileAnalysedWithErrorsIsAWarning) {
  RunResult R;
  R.FilesAnalysed = {"/proj/src/asm.cu"};
  R.FilesWithErrors = {"/proj/src/asm.cu"};
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeGithub(R, LocationOptions{"/proj"}, OS);
  EXPECT_EQ(S, "::warning file=src/asm.cu,title=warplint::analysed with errors "
               "src/asm.cu: clang reported errors and recovered; the findings cover "
               "the code it could build\n");
}

TEST(Github, NotesAreNotices) {
  RunResult R;
  Finding F;
  F.Check = "warplint-x";
  F.Level = Severity::Note;
  F.Pos = {"a.cu", 0, 0};
  F.Message = "m";
  R.Findings.push_back(F);
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeGithub(R, LocationOptions{}, OS);
  EXPECT_EQ(S, "::notice file=a.cu,title=warplint-x::m [warplint-x]\n");
}

} // namespace

// The correctness checks' impact (model/Records.h, docs/impact.md): the rank says how sure
// the finding is, the value how much of the block it involves.
TEST(CorrectnessImpact, RankIsCertaintyValueIsThreadsInvolved) {
  using namespace warplint;
  SyncRecord B;
  B.Check = "warplint-barrier-divergence";
  B.Block = {64, 1, 1};
  B.Severity = "error";
  B.Evaluated = true;
  B.SkippingThreads = {{16, 63}};
  std::optional<Impact> I = syncImpact(B);
  ASSERT_TRUE(I);
  EXPECT_DOUBLE_EQ(I->Value, 0.75); // 48 of 64 threads skip it
  EXPECT_EQ(I->Rank, 100u);         // certain for a launch's block
  B.Severity = "warning";           // evaluated for an assumed block every alternative splits
  EXPECT_EQ(syncImpact(B)->Rank, 95u);
  B.Evaluated = false; // run-time values decide who skips it: no threads known
  EXPECT_DOUBLE_EQ(syncImpact(B)->Value, 0.0);
  EXPECT_EQ(syncImpact(B)->Rank, 90u);
  B.Severity = "note";
  EXPECT_EQ(syncImpact(B)->Rank, 25u);

  SyncRecord M;
  M.Check = "warplint-warp-sync-mask";
  M.Block = {48, 1, 1};
  M.Severity = "error";
  M.Evaluated = true;
  M.AbsentLanes = {{1, 0xffff0000u}}; // warp 1 has lanes 0-15 only
  ASSERT_TRUE(syncImpact(M));
  EXPECT_DOUBLE_EQ(syncImpact(M)->Value, 16.0 / 48.0);
  EXPECT_NE(syncImpact(M)->Unit.find("undefined behaviour"), std::string::npos);
  M.Check = "warplint-divergent-branch"; // not a sync check: no sync impact
  EXPECT_FALSE(syncImpact(M));

  RaceRecord R;
  R.MorePairs = 3;
  EXPECT_DOUBLE_EQ(raceImpact(R).Value, 4.0); // the pairs of accesses that race
  EXPECT_EQ(raceImpact(R).Rank, 100u);
  R.Certainty = "depends-on-value";
  EXPECT_EQ(raceImpact(R).Rank, 90u);
  R.Certainty = "assumed-shape";
  EXPECT_EQ(raceImpact(R).Rank, 95u);
  R.Severity = "note"; // on sm_60 a warp-synchronous race, or an assumed block decides
  EXPECT_EQ(raceImpact(R).Rank, 25u);
  R.Benign = true; // every thread writes the same value
  EXPECT_EQ(raceImpact(R).Rank, 10u);
}
