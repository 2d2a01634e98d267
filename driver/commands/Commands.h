//===- Commands.h - the warplint subcommands and their dispatch -*- C++ -*-===//
//
// Every subcommand lives in its own driver/commands/<Name>Command.cpp and is listed once in the
// table in Commands.cpp. A command gets the arguments after its own name and returns the
// process exit code (0 clean, 1 findings, 2 could not run).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace warplint::driver {

/// Argv[0] is the subcommand's name; Argv[1..Argc) are its arguments.
using CommandFn = int (*)(int Argc, char **Argv);

struct CommandInfo {
  const char *Name;
  const char *Summary;
  CommandFn Run;
};

/// The whole command line of `warplint`, dispatched to a subcommand.
int runMain(int Argc, char **Argv);

// One declaration per subcommand, defined in driver/commands/<Name>Command.cpp.
// (add yours here and a row in Commands.cpp's table)
int runSarifMergeCommand(int Argc, char **Argv);
int runCheckCommand(int Argc, char **Argv);
int runReportCommand(int Argc, char **Argv);
int runCompdbCommand(int Argc, char **Argv);
int runLspCommand(int Argc, char **Argv);
int runLaunchCommand(int Argc, char **Argv);

struct RunResult;
/// The analysis of `warplint check` with these arguments (no command name): fills Out,
/// prints the summary and errors on stderr, nothing on stdout; returns check's exit code.
int collectCheckResult(const std::vector<std::string> &CheckArgs, RunResult &Out);
int runOccupancyCommand(int Argc, char **Argv);
int runTimelineCommand(int Argc, char **Argv);

} // namespace warplint::driver
