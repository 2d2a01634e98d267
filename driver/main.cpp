//===- main.cpp - the warplint command line: subcommand dispatch ----------===//
#include "warplint/core/Version.h"

#include <cstdio>
#include <cstring>

namespace {

void printUsage(std::FILE *Out) {
  std::fprintf(Out,
               "usage: warplint <command> [options]\n"
               "\n"
               "commands:\n"
               "  --version        print the version\n");
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    printUsage(stderr);
    return 2;
  }
  const char *Cmd = Argv[1];
  if (!std::strcmp(Cmd, "--version") || !std::strcmp(Cmd, "version")) {
    std::printf("warplint %s\n", warplint::versionString());
    return 0;
  }
  if (!std::strcmp(Cmd, "--help") || !std::strcmp(Cmd, "-h") || !std::strcmp(Cmd, "help")) {
    printUsage(stdout);
    return 0;
  }
  std::fprintf(stderr, "warplint: unknown command '%s' (see 'warplint --help')\n", Cmd);
  return 2;
}
