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

/// Percent-encodes everything but RFC 3986 unreserved characters and '/'.
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

Object rule(const std::string &Id) {
  Object R{{"id", Id}, {"name", Id}};
  if (const CheckDoc *Doc = findCheckDoc(Id)) {
    std::string Summary(Doc->Summary);
    R["shortDescription"] = Object{{"text", Summary}};
    R["fullDescription"] = Object{{"text", Summary}};
    R["help"] = Object{{"text", Summary + " See " + checkDocUrl(Id)},
                       {"markdown", std::string(Doc->Markdown)}};
    R["helpUri"] = checkDocUrl(Id);
  } else if (Id.rfind("clang-diagnostic-", 0) == 0) {
    R["shortDescription"] =
        Object{{"text", "a diagnostic of the clang compiler (" + Id.substr(17) + ")"}};
  } else {
    R["shortDescription"] = Object{{"text", "diagnostic " + Id}};
  }
  R["defaultConfiguration"] = Object{{"level", "warning"}};
  return R;
}

} // namespace

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
             {"level", severityName(F.Level)},
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
    if (!F.Arch.empty())
      R["properties"] = Object{{"arch", F.Arch}};
    Results.push_back(std::move(R));
  }

  Object Driver{{"name", "warplint"},
                {"version", warplint::versionString()},
                {"semanticVersion", warplint::versionString()},
                {"informationUri", projectUrl()},
                {"rules", std::move(Rules)}};

  Object Invocation{{"executionSuccessful", Result.FilesFailed.empty()}};
  if (!Result.FilesFailed.empty()) {
    Array Notes;
    for (const std::string &File : Result.FilesFailed)
      Notes.push_back(
          Object{{"level", "error"},
                 {"message", Object{{"text", "could not analyse " + File}}},
                 {"locations",
                  Array{Object{{"physicalLocation",
                                Object{{"artifactLocation", artifactLocation(File, Opts)}}}}}}});
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

namespace warplint::driver {
namespace {

std::string resultKey(const llvm::json::Value &R) {
  // Location, rule, message: a stable sort key and the identity used to drop duplicates.
  const Object *O = R.getAsObject();
  std::string Uri, Rule, Message;
  int64_t Line = 0, Col = 0;
  if (O) {
    if (auto S = O->getString("ruleId"))
      Rule = S->str();
    if (const Object *M = O->getObject("message"))
      if (auto T = M->getString("text"))
        Message = T->str();
    if (const Array *Locs = O->getArray("locations"))
      if (!Locs->empty())
        if (const Object *L = (*Locs)[0].getAsObject())
          if (const Object *P = L->getObject("physicalLocation")) {
            if (const Object *A = P->getObject("artifactLocation"))
              if (auto U = A->getString("uri"))
                Uri = U->str();
            if (const Object *Reg = P->getObject("region")) {
              Line = Reg->getInteger("startLine").value_or(0);
              Col = Reg->getInteger("startColumn").value_or(0);
            }
          }
  }
  std::string Full;
  llvm::raw_string_ostream(Full) << R;
  return llvm::formatv("{0}\x1f{1,10}\x1f{2,10}\x1f{3}\x1f{4}\x1f{5}", Uri, Line, Col, Rule,
                       Message, Full)
      .str();
}

struct MergedRun {
  Object Driver;
  std::map<std::string, Value> Rules;
  std::vector<std::pair<std::string, Value>> Results;
  bool Successful = true;
  std::map<std::string, Value> Notifications; ///< by their text: sorted, no duplicates
  Object BaseIds;
};

} // namespace

std::optional<std::string> mergeSarifLogs(const std::vector<std::string> &Logs,
                                          std::string &Error) {
  std::map<std::string, MergedRun> Runs;
  std::string Schema;
  for (size_t I = 0; I < Logs.size(); ++I) {
    auto Parsed = llvm::json::parse(Logs[I]);
    if (!Parsed) {
      Error = llvm::formatv("input {0}: not JSON: {1}", I + 1, llvm::toString(Parsed.takeError()));
      return std::nullopt;
    }
    const Object *Log = Parsed->getAsObject();
    if (!Log || Log->getString("version") != std::optional<llvm::StringRef>("2.1.0") ||
        !Log->getArray("runs")) {
      Error = llvm::formatv("input {0}: not a SARIF 2.1.0 log", I + 1);
      return std::nullopt;
    }
    if (Schema.empty())
      if (auto S = Log->getString("$schema"))
        Schema = S->str();
    for (const Value &RunV : *Log->getArray("runs")) {
      const Object *Run = RunV.getAsObject();
      const Object *Tool = Run ? Run->getObject("tool") : nullptr;
      const Object *Drv = Tool ? Tool->getObject("driver") : nullptr;
      auto Name = Drv ? Drv->getString("name") : std::nullopt;
      if (!Name) {
        Error = llvm::formatv("input {0}: a run without tool.driver.name", I + 1);
        return std::nullopt;
      }
      MergedRun &M = Runs[Name->str()];
      if (M.Driver.empty())
        M.Driver = *Drv;
      if (const Array *Rules = Drv->getArray("rules"))
        for (const Value &R : *Rules)
          if (const Object *RO = R.getAsObject())
            if (auto Id = RO->getString("id"))
              M.Rules.emplace(Id->str(), R);
      if (const Array *Results = Run->getArray("results"))
        for (const Value &R : *Results)
          M.Results.emplace_back(resultKey(R), R);
      if (const Array *Invs = Run->getArray("invocations"))
        for (const Value &Inv : *Invs)
          if (const Object *IO = Inv.getAsObject()) {
            if (IO->getBoolean("executionSuccessful") == std::optional<bool>(false))
              M.Successful = false;
            if (const Array *N = IO->getArray("toolExecutionNotifications"))
              for (const Value &V : *N) {
                std::string Key;
                llvm::raw_string_ostream(Key) << V;
                M.Notifications.emplace(std::move(Key), V);
              }
          }
      if (const Object *Bases = Run->getObject("originalUriBaseIds"))
        for (const auto &[Key, V] : *Bases) {
          if (const Value *Old = M.BaseIds.get(Key)) {
            if (*Old != V) {
              Error = llvm::formatv("input {0}: {1} is {2} here but {3} in an earlier "
                                    "input: the shards ran from different roots",
                                    I + 1, Key.str(), V, *Old);
              return std::nullopt;
            }
          } else {
            M.BaseIds[Key] = V;
          }
        }
    }
  }

  Array OutRuns;
  for (auto &[Name, M] : Runs) {
    std::map<std::string, int64_t> Index;
    Array Rules;
    for (auto &[Id, R] : M.Rules) {
      Index[Id] = static_cast<int64_t>(Rules.size());
      Rules.push_back(R);
    }
    std::stable_sort(M.Results.begin(), M.Results.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    Array Results;
    for (size_t I = 0; I < M.Results.size(); ++I) {
      if (I > 0 && M.Results[I].first == M.Results[I - 1].first)
        continue;
      Value R = M.Results[I].second;
      if (Object *RO = R.getAsObject())
        if (auto Id = RO->getString("ruleId")) {
          auto It = Index.find(Id->str());
          if (It != Index.end())
            (*RO)["ruleIndex"] = It->second;
          else
            RO->erase("ruleIndex");
        }
      Results.push_back(std::move(R));
    }
    if (!Rules.empty())
      M.Driver["rules"] = std::move(Rules);
    Object Invocation{{"executionSuccessful", M.Successful}};
    if (!M.Notifications.empty()) {
      Array Notes;
      for (auto &[Key, V] : M.Notifications)
        Notes.push_back(std::move(V));
      Invocation["toolExecutionNotifications"] = std::move(Notes);
    }
    Object Run{{"tool", Object{{"driver", std::move(M.Driver)}}},
               {"invocations", Array{std::move(Invocation)}},
               {"results", std::move(Results)}};
    if (!M.BaseIds.empty())
      Run["originalUriBaseIds"] = std::move(M.BaseIds);
    OutRuns.push_back(std::move(Run));
  }
  Object Log{{"version", "2.1.0"}, {"runs", std::move(OutRuns)}};
  if (!Schema.empty())
    Log["$schema"] = Schema;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::formatv("{0:2}", Value(std::move(Log))) << "\n";
  return Out;
}

} // namespace warplint::driver
