//===- SarifMergeFuzzer.cpp - libFuzzer target for sarif-merge's reader ---===//
#include "driver/formats/Formats.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Any text as a SARIF log, alone and after a valid one: a failure says why, a merged log
// is SARIF 2.1.0 that merges again to itself.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  static const std::string Valid =
      R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "warplint", "rules": [)"
      R"({"id": "a"}]}}, "results": [{"ruleId": "a", "message": {"text": "m"}}]}]})";
  for (const std::vector<std::string> &Logs :
       {std::vector<std::string>{Text}, std::vector<std::string>{Valid, Text}}) {
    std::string Error;
    std::optional<std::string> Merged = warplint::driver::mergeSarifLogs(Logs, Error);
    if (!Merged) {
      if (Error.empty())
        std::abort();
      continue;
    }
    llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(*Merged);
    if (!Parsed)
      std::abort();
    const llvm::json::Object *Log = Parsed->getAsObject();
    if (!Log || Log->getString("version") != std::optional<llvm::StringRef>("2.1.0"))
      std::abort();
    std::optional<std::string> Again = warplint::driver::mergeSarifLogs({*Merged}, Error);
    if (!Again || *Again != *Merged)
      std::abort(); // merging is idempotent
  }
  return 0;
}
