//===- SarifMerge.cpp - one SARIF log from the logs of shards -------------===//
#include "driver/formats/BoundedJson.h"
#include "driver/formats/Formats.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

namespace warplint::driver {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

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
  std::vector<Value> Results;
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
    auto Parsed = parseBoundedJson(Logs[I]);
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
          M.Results.push_back(R);
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
    // Each result's ruleIndex points into the merged rules; the identity of a result is
    // taken after that, so that two shards' copies of one finding are one result.
    std::vector<std::pair<std::string, Value>> Keyed;
    for (Value &R : M.Results) {
      if (Object *RO = R.getAsObject())
        if (auto Id = RO->getString("ruleId")) {
          auto It = Index.find(Id->str());
          if (It != Index.end())
            (*RO)["ruleIndex"] = It->second;
          else
            RO->erase("ruleIndex");
        }
      Keyed.emplace_back(resultKey(R), std::move(R));
    }
    std::stable_sort(Keyed.begin(), Keyed.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    Array Results;
    for (size_t I = 0; I < Keyed.size(); ++I)
      if (I == 0 || Keyed[I].first != Keyed[I - 1].first)
        Results.push_back(std::move(Keyed[I].second));
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
