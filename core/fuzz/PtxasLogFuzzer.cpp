//===- PtxasLogFuzzer.cpp - libFuzzer target for the ptxas report parser ---===//
#include "warplint/core/PtxasLog.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

// Any text: the parser must not crash, and what it returns must be self-consistent.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  std::string Err;
  std::optional<warplint::PtxasLog> Log = warplint::parsePtxasLog(Text, &Err);
  if (!Log) {
    if (Err.empty())
      std::abort(); // a failure always says why
    return 0;
  }
  size_t Entries = 0;
  for (const warplint::PtxasArchBlock &B : Log->Blocks)
    for (const warplint::PtxasFunction &F : B.Functions) {
      if (!F.IsEntry)
        continue;
      ++Entries;
      // Every entry can be found again by its name and arch.
      if (!Log->findEntry(F.Name, F.Arch))
        std::abort();
      if (F.Registers && *F.Registers < 0)
        std::abort();
    }
  if (Entries != Log->entryCount())
    std::abort();
  (void)warplint::stripNvStaticPrefix(Text.substr(0, 200));
  return 0;
}
