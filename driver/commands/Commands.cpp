//===- Commands.cpp - subcommand table and `warplint` dispatch ------------===//
#include "driver/commands/Commands.h"

#include "warplint/core/Version.h"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace warplint::driver {
namespace {

const CommandInfo Commands[] = {
    // {"name", "one-line summary", &runNameCommand},
    {"check", "run the checks on CUDA files or a compile database", &runCheckCommand},
    {"report", "write the HTML occupancy report", &runReportCommand},
    {"compdb", "write a compile database clang-tidy accepts (nvcc commands translated)",
     &runCompdbCommand},
    {"launch", "compiler launcher: compile, then check the same file (CMake, Ninja, Make)",
     &runLaunchCommand},
    {"lsp", "language server for editors: diagnostics on open and save, launch hovers",
     &runLspCommand},
    {"sarif-merge", "merge the SARIF logs of shards into one", &runSarifMergeCommand},
    {"occupancy", "occupancy calculator: blocks/SM, limiters, next steps, --batch",
     &runOccupancyCommand},
    {"timeline", "draw and measure per-SM block traces (warplint/trace.cuh) against the model",
     &runTimelineCommand},
    {nullptr, nullptr, nullptr},
};

void printUsage(std::FILE *Out) {
  std::fprintf(Out, "usage: warplint <command> [options]\n\ncommands:\n");
  for (const CommandInfo &C : Commands)
    if (C.Name)
      std::fprintf(Out, "  %-14s %s\n", C.Name, C.Summary);
  std::fprintf(Out, "  %-14s %s\n", "--version", "print the version");
  std::fprintf(Out, "  %-14s %s\n", "--help", "print this help");
  std::fprintf(Out, "\n'warplint <command> --help' describes a command's options.\n");
}

} // namespace

int runMain(int Argc, char **Argv) {
  if (Argc < 2) {
    printUsage(stderr);
    return 2;
  }
  const char *Cmd = Argv[1];
  if (!std::strcmp(Cmd, "--version") || !std::strcmp(Cmd, "version")) {
    std::printf("warplint %s (commit %s)\n", warplint::versionString(), warplint::commitString());
    return 0;
  }
  if (!std::strcmp(Cmd, "--help") || !std::strcmp(Cmd, "-h") ||
      !std::strcmp(Cmd, "help")) {
    printUsage(stdout);
    return 0;
  }
  for (const CommandInfo &C : Commands)
    if (C.Name && !std::strcmp(Cmd, C.Name))
      return C.Run(Argc - 1, Argv + 1);
  std::fprintf(stderr, "warplint: unknown command '%s' (see 'warplint --help')\n",
               Cmd);
  return 2;
}

} // namespace warplint::driver
