//===- SarifFormat.cpp - SARIF 2.1.0 output for GitHub code scanning -----===//
#include "driver/formats/Formats.h"

#include "warplint/core/Version.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

namespace warplint::driver {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

constexpr const char *SrcRoot = "%SRCROOT%";

bool isAbsolute(std::string_view Path) { return !Path.empty() && Path[0] == '/'; }

std::string withTrailingSlash(std::string S) {
  if (S.empty() || S.back() != '/')
    S += '/';
  return S;
}

/// An artifactLocation: relative to %SRCROOT% when it can be, else an absolute file URI.
Object artifactLocation(const std::string &File, const LocationOptions &Opts) {
  std::string Rel = Opts.SourceRoot.empty() ? File : relativeToRoot(File, Opts.SourceRoot);
  if (!isAbsolute(Rel))
    return Object{{"uri", encodeUriPath(Rel)}, {"uriBaseId", SrcRoot}};
  return Object{{"uri", "file://" + encodeUriPath(Rel)}};
}

Object physicalLocation(const SourcePos &Pos, const LocationOptions &Opts) {
  Object Loc{{"artifactLocation", artifactLocation(Pos.File, Opts)}};
  if (Pos.Line > 0) {
    Object Region{{"startLine", static_cast<int64_t>(Pos.Line)}};
    if (Pos.Column > 0)
      Region["startColumn"] = static_cast<int64_t>(Pos.Column);
    Loc["region"] = std::move(Region);
  }
  return Loc;
}

/// A launch that cannot run is an error in SARIF whatever clang-tidy's level (it reports
/// warnings, which --warnings-as-errors promotes); other checks keep the finding's level.
const char *ruleLevel(const std::string &Id) {
  return Id == "warplint-launch-config-invalid" ? "error" : "warning";
}

Object rule(const std::string &Id) {
  Object R{{"id", Id}, {"name", Id}};
  if (const CheckDoc *Doc = findCheckDoc(Id)) {
    std::string Summary(Doc->Summary);
    R["shortDescription"] = Object{{"text", Summary}};
    R["fullDescription"] = Object{{"text", Summary}};
    std::string Url = checkDocUrl(Id);
    R["help"] = Object{{"text", Summary + " See " + Url},
                       {"markdown", withAbsoluteLinks(Doc->Markdown, Url)}};
    R["helpUri"] = Url;
  } else if (Id.rfind("clang-diagnostic-", 0) == 0) {
    R["shortDescription"] =
        Object{{"text", "a diagnostic of the clang compiler (" + Id.substr(17) + ")"}};
  } else {
    R["shortDescription"] = Object{{"text", "diagnostic " + Id}};
  }
  R["defaultConfiguration"] = Object{{"level", ruleLevel(Id)}};
  return R;
}

} // namespace

std::string encodeUriPath(std::string_view Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Out;
  for (unsigned char C : Path) {
    bool Keep = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') ||
                C == '-' || C == '.' || C == '_' || C == '~' || C == '/';
    if (Keep) {
      Out += static_cast<char>(C);
    } else {
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

std::string relativeToRoot(std::string_view Path, std::string_view Root) {
  while (Root.size() > 1 && Root.back() == '/')
    Root.remove_suffix(1);
  if (Root.empty() || !isAbsolute(Path))
    return std::string(Path);
  if (Root == "/")
    return std::string(Path.substr(1));
  if (Path.size() > Root.size() && Path.substr(0, Root.size()) == Root && Path[Root.size()] == '/')
    return std::string(Path.substr(Root.size() + 1));
  return std::string(Path);
}

void writeSarif(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS) {
  // Rules: every documented check, plus any other check that reported something.
  std::set<std::string> RuleIds;
  for (const CheckDoc *D = checkDocsBegin(); D != checkDocsEnd(); ++D)
    RuleIds.insert(std::string(D->Id));
  for (const Finding &F : Result.Findings)
    RuleIds.insert(F.Check);
  std::map<std::string, int64_t> RuleIndex;
  Array Rules;
  for (const std::string &Id : RuleIds) {
    RuleIndex[Id] = static_cast<int64_t>(Rules.size());
    Rules.push_back(rule(Id));
  }

  Array Results;
  for (const Finding &F : Result.Findings) {
    Object R{{"ruleId", F.Check},
             {"ruleIndex", RuleIndex[F.Check]},
             {"level", std::string(ruleLevel(F.Check)) == "error" ? "error" : severityName(F.Level)},
             {"message", Object{{"text", F.Message}}},
             {"locations", Array{Object{{"physicalLocation", physicalLocation(F.Pos, Opts)}}}}};
    if (!F.Notes.empty()) {
      Array Related;
      int64_t Id = 0;
      for (const FindingNote &N : F.Notes) {
        Object L{{"id", Id++}, {"message", Object{{"text", N.Message}}}};
        if (!N.Pos.File.empty())
          L["physicalLocation"] = physicalLocation(N.Pos, Opts);
        Related.push_back(std::move(L));
      }
      R["relatedLocations"] = std::move(Related);
    }
    Object Properties;
    if (!F.Arch.empty())
      Properties["arch"] = F.Arch;
    // SARIF's rank (0-100, higher first) is the impact's; the figure itself and its unit
    // are properties.
    if (F.Impact) {
      R["rank"] = double(F.Impact->Rank);
      Properties["impact"] = F.Impact->Value;
      Properties["impactUnit"] = F.Impact->Unit;
    }
    if (!Properties.empty())
      R["properties"] = std::move(Properties);
    // The fix-it as SARIF's fix: one artifactChange per file, its replacements by line
    // and column (1-based; SARIF's columns are characters, ours bytes: the same in ASCII).
    if (!F.Fixes.empty()) {
      std::map<std::string, Array> ByFile;
      for (const FixEdit &E : F.Fixes)
        ByFile[E.File].push_back(Object{
            {"deletedRegion", Object{{"startLine", int64_t(E.Begin.Line)},
                                     {"startColumn", int64_t(E.Begin.Column)},
                                     {"endLine", int64_t(E.End.Line)},
                                     {"endColumn", int64_t(E.End.Column)}}},
            {"insertedContent", Object{{"text", E.Text}}}});
      Array Changes;
      for (auto &[File, Replacements] : ByFile)
        Changes.push_back(Object{{"artifactLocation", artifactLocation(File, Opts)},
                                 {"replacements", std::move(Replacements)}});
      R["fixes"] = Array{Object{{"description", Object{{"text", "apply the fix-it"}}},
                                {"artifactChanges", std::move(Changes)}}};
    }
    Results.push_back(std::move(R));
  }

  Object Driver{{"name", "warplint"},
                {"version", warplint::versionString()},
                {"semanticVersion", warplint::versionString()},
                {"informationUri", docUrl("user-guide.md")},
                {"rules", std::move(Rules)}};

  // Successful: every file analysed completely (none failed, none with errors).
  Object Invocation{
      {"executionSuccessful", Result.FilesFailed.empty() && Result.FilesWithErrors.empty()}};
  if (!Result.FilesFailed.empty() || !Result.FilesWithErrors.empty() ||
      !Result.Messages.empty()) {
    Array Notes;
    // Messages about the run (a register source that could not be loaded, ...) have no
    // location: they are the tool's notifications, not results.
    for (const RunMessage &M : Result.Messages)
      Notes.push_back(Object{{"level", severityName(M.Level)}, {"message", Object{{"text", M.Text}}}});
    // The file as the results name it (relative to the project root), not the machine's
    // absolute path.
    auto Shown = [&](const std::string &File) {
      return Opts.SourceRoot.empty() ? File : relativeToRoot(File, Opts.SourceRoot);
    };
    auto FileNote = [&](const char *Level, const std::string &Text, const std::string &File) {
      Notes.push_back(
          Object{{"level", Level},
                 {"message", Object{{"text", Text}}},
                 {"locations",
                  Array{Object{{"physicalLocation",
                                Object{{"artifactLocation", artifactLocation(File, Opts)}}}}}}});
    };
    // A file analysed with errors: its results are there, from the code clang could
    // build; its clang errors are results too.
    for (const std::string &File : Result.FilesWithErrors)
      FileNote("warning",
               "analysed with errors " + Shown(File) +
                   ": clang reported errors and recovered; the results cover the code it "
                   "could build",
               File);
    for (const std::string &File : Result.FilesFailed)
      FileNote("error", "could not analyse " + Shown(File), File);
    Invocation["toolExecutionNotifications"] = std::move(Notes);
  }

  Object Run{{"tool", Object{{"driver", std::move(Driver)}}},
             {"invocations", Array{std::move(Invocation)}},
             {"results", std::move(Results)}};
  if (!Opts.SourceRoot.empty())
    Run["originalUriBaseIds"] = Object{
        {SrcRoot, Object{{"uri", "file://" + encodeUriPath(withTrailingSlash(Opts.SourceRoot))}}}};

  Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
             {"version", "2.1.0"},
             {"runs", Array{std::move(Run)}}};
  OS << llvm::formatv("{0:2}", Value(std::move(Log))) << "\n";
}

} // namespace warplint::driver
