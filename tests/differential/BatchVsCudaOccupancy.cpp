//===- BatchVsCudaOccupancy.cpp - `warplint occupancy --batch` vs cuda_occupancy.h ===//
//
// Writes the differential grid as JSON lines, runs `warplint occupancy --batch` on it
// (an argument vector, stdin and stdout redirected to files; no shell), and checks
// every output line, in order, against NVIDIA's header from the installed toolkit.
// usage: warplint-batch-vs-cuda-occupancy WARPLINT WORKDIR [STRIDE]
// Exit status 0 when every line agrees, 1 on a mismatch, 77 (skip) without the header.
//
//===----------------------------------------------------------------------------===//
#include "tests/differential/CudaOccReference.h"
#include "tests/differential/OccupancyGrid.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#ifdef WARPLINT_CUDA_OCCUPANCY_H
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

using namespace warplint;

/// The integer after "Key": in a flat JSON object line, if any.
std::optional<long long> intField(const std::string &Line, const std::string &Key) {
  std::string Needle = "\"" + Key + "\":";
  size_t P = Line.find(Needle);
  if (P == std::string::npos)
    return std::nullopt;
  const char *Start = Line.c_str() + P + Needle.size();
  char *End = nullptr;
  long long V = std::strtoll(Start, &End, 10);
  if (End == Start)
    return std::nullopt;
  return V;
}

std::optional<std::string> stringField(const std::string &Line, const std::string &Key) {
  std::string Needle = "\"" + Key + "\":\"";
  size_t P = Line.find(Needle);
  if (P == std::string::npos)
    return std::nullopt;
  size_t Start = P + Needle.size();
  size_t End = Line.find('"', Start);
  return Line.substr(Start, End - Start);
}

int runBatch(const char *Warplint, const std::string &In, const std::string &Out) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, In.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  char *Argv[] = {const_cast<char *>(Warplint), const_cast<char *>("occupancy"),
                  const_cast<char *>("--batch"), nullptr};
  pid_t Pid = 0;
  int Err = posix_spawn(&Pid, Warplint, &Actions, nullptr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Err) {
    std::fprintf(stderr, "cannot start %s: %s\n", Warplint, std::strerror(Err));
    return -1;
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: %s WARPLINT WORKDIR [STRIDE]\n", Argv[0]);
    return 2;
  }
  const int Stride = Argc > 3 ? std::atoi(Argv[3]) : 1;
  const std::string In = std::string(Argv[2]) + "/occupancy-batch-grid.jsonl";
  const std::string Out = std::string(Argv[2]) + "/occupancy-batch-answers.jsonl";

  std::vector<difftest::GridConfig> Grid;
  // cc 3.x lines cycle through the shared/L1 splits (the batch's "carveout":"16K").
  difftest::forEachGridConfig(
      [&](difftest::GridConfig C) {
        if (C.Arch->NumSharedSplits > 0)
          C.Res.SharedSplitBytes =
              uint64_t(C.Arch->SharedSplitsKiB[Grid.size() % C.Arch->NumSharedSplits]) * 1024;
        Grid.push_back(C);
      },
      Stride);
  {
    std::ofstream F(In);
    for (const difftest::GridConfig &C : Grid) {
      F << "{\"arch\":\"" << C.Arch->Name << "\",\"threads\":" << C.Threads
        << ",\"registers\":" << C.Res.RegistersPerThread
        << ",\"static_smem\":" << C.Res.StaticSharedBytes
        << ",\"dynamic_smem\":" << C.DynamicSharedBytes;
      if (C.Res.OptinDynamicSharedBytes)
        F << ",\"optin_smem\":" << C.Res.OptinDynamicSharedBytes;
      if (C.Res.SharedSplitBytes)
        F << ",\"carveout\":\"" << C.Res.SharedSplitBytes / 1024 << "K\"";
      F << "}\n";
    }
  }
  int Rc = runBatch(Argv[1], In, Out);
  if (Rc != 0) {
    std::fprintf(stderr, "warplint occupancy --batch exited with %d\n", Rc);
    return 1;
  }

  std::ifstream F(Out);
  std::string Line;
  size_t I = 0;
  long long Mismatches = 0, Launchable = 0;
  auto mismatch = [&](const std::string &Why) {
    if (++Mismatches <= 20)
      std::fprintf(stderr, "line %zu: %s\n  %s\n", I + 1, Why.c_str(), Line.c_str());
  };
  for (; std::getline(F, Line); ++I) {
    if (I >= Grid.size()) {
      mismatch("more output lines than input lines");
      break;
    }
    const difftest::GridConfig &C = Grid[I];
    // The echoed input says the order is kept.
    if (stringField(Line, "arch") != std::string(C.Arch->Name) ||
        intField(Line, "threads") != C.Threads ||
        intField(Line, "registers") != C.Res.RegistersPerThread ||
        intField(Line, "dynamic_smem") != (long long)C.DynamicSharedBytes ||
        intField(Line, "static_smem") != (long long)C.Res.StaticSharedBytes) {
      mismatch("output line does not echo input line " + std::to_string(I + 1));
      continue;
    }
    difftest::ReferenceResult Ref =
        difftest::referenceOccupancy(*C.Arch, C.Res, C.Threads, C.DynamicSharedBytes);
    const int Blocks = Ref.Result.activeBlocksPerMultiprocessor;
    const int WarpsPerBlock = (C.Threads + 31) / 32;
    const bool HasError = Line.find("\"error\":") != std::string::npos;
    Launchable += Blocks > 0;
    if (!Ref.Ok)
      mismatch("cuda_occupancy.h refused the configuration");
    else if (intField(Line, "blocks_per_sm") != Blocks)
      mismatch("blocks_per_sm differs from cuda_occupancy.h: " + std::to_string(Blocks));
    else if (intField(Line, "active_warps") != (long long)Blocks * WarpsPerBlock)
      mismatch("active_warps differs");
    else if (intField(Line, "max_warps") != C.Arch->MaxWarpsPerSm)
      mismatch("max_warps differs");
    else if (HasError != (Blocks == 0))
      mismatch(HasError ? "error on a launch the header runs"
                        : "no error on a launch "
                          "the header cannot run");
  }
  if (I != Grid.size())
    mismatch("expected " + std::to_string(Grid.size()) + " output lines, got " + std::to_string(I));
  std::printf("warplint occupancy --batch vs cuda_occupancy.h: %zu configurations "
              "(%lld launchable) over all NVIDIA archs, %lld mismatches\n",
              Grid.size(), Launchable, Mismatches);
  return Mismatches == 0 && Grid.size() >= 10000 ? 0 : 1;
}

#else
int main() {
  std::printf("cuda_occupancy.h not found: skipped\n");
  return 77;
}
#endif
