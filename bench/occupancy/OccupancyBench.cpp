//===- OccupancyBench.cpp - configurations per second of the occupancy model ===//
//
// BM_ComputeOccupancy: core's computeOccupancy over the differential grid.
// BM_BatchLine: one `warplint occupancy --batch` line end to end in process (JSON parse,
// model, JSON print), the figure that bounds the CLI's throughput.
// BM_NextSteps / BM_MaxPotentialBlockSize: the what-if analyses per configuration.
//
//===----------------------------------------------------------------------------===//
#include "driver/commands/OccupancyBatch.h"
#include "tests/differential/OccupancyGrid.h"
#include "warplint/core/Occupancy.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

using namespace warplint;

namespace {

const std::vector<difftest::GridConfig> &grid() {
  static const std::vector<difftest::GridConfig> G = [] {
    std::vector<difftest::GridConfig> V;
    difftest::forEachGridConfig([&](const difftest::GridConfig &C) { V.push_back(C); }, 13);
    return V;
  }();
  return G;
}

const std::vector<std::string> &lines() {
  static const std::vector<std::string> L = [] {
    std::vector<std::string> V;
    for (const difftest::GridConfig &C : grid())
      V.push_back("{\"arch\":\"" + std::string(C.Arch->Name) +
                  "\",\"threads\":" + std::to_string(C.Threads) +
                  ",\"registers\":" + std::to_string(C.Res.RegistersPerThread) +
                  ",\"static_smem\":" + std::to_string(C.Res.StaticSharedBytes) +
                  ",\"dynamic_smem\":" + std::to_string(C.DynamicSharedBytes) + "}");
    return V;
  }();
  return L;
}

void BM_ComputeOccupancy(benchmark::State &State) {
  const auto &G = grid();
  size_t I = 0;
  long long Blocks = 0;
  for (auto _ : State) {
    const difftest::GridConfig &C = G[I];
    OccupancyResult R =
        computeOccupancy(*C.Arch, C.Res, LaunchShape::threads(C.Threads, C.DynamicSharedBytes));
    Blocks += R.BlocksPerSm;
    benchmark::DoNotOptimize(Blocks);
    if (++I == G.size())
      I = 0;
  }
  State.SetItemsProcessed(State.iterations());
  State.counters["configs/s"] =
      benchmark::Counter(double(State.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ComputeOccupancy);

void BM_BatchLine(benchmark::State &State) {
  const auto &L = lines();
  size_t I = 0;
  bool Bad = false;
  for (auto _ : State) {
    std::string Out = driver::evaluateOccupancyBatchLine(L[I], long(I) + 1, Bad);
    benchmark::DoNotOptimize(Out);
    if (++I == L.size())
      I = 0;
  }
  if (Bad)
    State.SkipWithError("a generated line was rejected");
  State.SetItemsProcessed(State.iterations());
  State.counters["configs/s"] =
      benchmark::Counter(double(State.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BatchLine);

void BM_NextSteps(benchmark::State &State) {
  const auto &G = grid();
  size_t I = 0;
  for (auto _ : State) {
    const difftest::GridConfig &C = G[I];
    auto S = nextSteps(*C.Arch, C.Res, LaunchShape::threads(C.Threads, C.DynamicSharedBytes));
    benchmark::DoNotOptimize(S);
    I = (I + 97) % G.size();
  }
  State.SetItemsProcessed(State.iterations());
}
BENCHMARK(BM_NextSteps);

void BM_MaxPotentialBlockSize(benchmark::State &State) {
  const auto &G = grid();
  size_t I = 0;
  for (auto _ : State) {
    const difftest::GridConfig &C = G[I];
    auto B = maxPotentialBlockSize(*C.Arch, C.Res, C.DynamicSharedBytes, 80);
    benchmark::DoNotOptimize(B);
    I = (I + 97) % G.size();
  }
  State.SetItemsProcessed(State.iterations());
}
BENCHMARK(BM_MaxPotentialBlockSize);

} // namespace

BENCHMARK_MAIN();
