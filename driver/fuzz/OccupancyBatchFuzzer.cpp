//===- OccupancyBatchFuzzer.cpp - libFuzzer target for occupancy --batch lines ===//
#include "driver/commands/OccupancyBatch.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Any line: the answer is one JSON object with the line number, and a bad line says why.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Line(reinterpret_cast<const char *>(Data), Size);
  bool Bad = false;
  std::string Answer = warplint::driver::evaluateOccupancyBatchLine(Line, 7, Bad);
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Answer);
  if (!Parsed)
    std::abort(); // the answer is always JSON
  const llvm::json::Object *O = Parsed->getAsObject();
  if (!O || O->getInteger("line") != std::optional<int64_t>(7))
    std::abort();
  if (Bad && !O->getString("error"))
    std::abort(); // a bad line always says why
  if (!Bad && !O->getInteger("blocks_per_sm"))
    std::abort(); // a good line has its occupancy (0 when the launch cannot run)
  return 0;
}
