//===- MeasuredReadersFuzzer.cpp - libFuzzer target for the measured-data readers ===//
#include "driver/measure/BlockTrace.h"
#include "driver/measure/NcuCsv.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Any text as a block trace and as an ncu CSV: a failure says why; a trace that reads
// measures within its bounds (every block in a row its SM has, fractions in 0..1).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  using namespace warplint::driver;
  std::vector<TracedLaunch> Launches;
  std::string Error;
  if (!readBlockTrace(Text, Launches, Error)) {
    if (Error.empty())
      std::abort();
  } else {
    for (TracedLaunch &L : Launches) {
      LaunchMeasure M = measureLaunch(L, 0);
      if (L.Blocks.empty() || M.Blocks != L.Blocks.size() || M.MaxResident == 0)
        std::abort();
      for (const TracedBlock &B : L.Blocks)
        if (B.Sm >= M.SmCount || B.Slot >= M.Lanes[B.Sm].Rows || B.Wave >= M.Waves)
          std::abort();
      if (M.TailFraction < 0 || M.TailFraction > 1 || M.BusyFraction < 0 ||
          M.BusyFraction > 1 + 1e-9)
        std::abort();
    }
  }
  std::vector<NcuLaunch> Ncu;
  Error.clear();
  if (!readNcuCsv(Text, Ncu, Error)) {
    if (Error.empty())
      std::abort();
  } else {
    for (const NcuLaunch &N : Ncu)
      (void)ncuKernelKey(N.KernelName);
  }
  return 0;
}
