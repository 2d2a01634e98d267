//===- SarifMergeCommand.cpp - `warplint sarif-merge`: one log from shards -===//
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    "usage: warplint sarif-merge [-o OUT.sarif] FILE.sarif...\n"
    "\n"
    "Merges the SARIF logs of the shards of one project (warplint check --shard K/N\n"
    "--format sarif) into one log with one run: rules united, results sorted by location\n"
    "and deduplicated, the run successful only if every shard's was.\n"
    "\n"
    "  -o FILE   write the merged log to FILE (written atomically) instead of stdout\n";

} // namespace

int runSarifMergeCommand(int Argc, char **Argv) {
  std::string Out;
  std::vector<std::string> Inputs;
  std::string Error;
  ArgParser P("sarif-merge");
  P.option("-o", Out, "a file name").positional(Inputs);
  switch (P.parse(Argc, Argv, Error)) {
  case ArgParser::Result::Help:
    llvm::outs() << Usage;
    return 0;
  case ArgParser::Result::Error:
    llvm::errs() << "warplint sarif-merge: " << Error << "\n";
    return 2;
  case ArgParser::Result::Ok:
    break;
  }
  if (Inputs.empty()) {
    llvm::errs() << "warplint sarif-merge: no input files\n" << Usage;
    return 2;
  }
  std::vector<std::string> Logs;
  for (const std::string &Path : Inputs) {
    auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
    if (!Buf) {
      llvm::errs() << "warplint sarif-merge: cannot read " << Path << ": "
                   << Buf.getError().message() << "\n";
      return 2;
    }
    Logs.push_back((*Buf)->getBuffer().str());
  }
  std::optional<std::string> Merged = mergeSarifLogs(Logs, Error);
  if (!Merged) {
    // Name the file instead of its position.
    std::string Msg = Error;
    if (Msg.rfind("input ", 0) == 0) {
      size_t Colon = Msg.find(':');
      unsigned N = std::stoul(Msg.substr(6, Colon - 6));
      Msg = Inputs[N - 1] + Msg.substr(Colon);
    }
    llvm::errs() << "warplint sarif-merge: " << Msg << "\n";
    return 2;
  }
  if (Out.empty()) {
    llvm::outs() << *Merged;
    return 0;
  }
  if (!writeFileAtomically(Out, *Merged, Error)) {
    llvm::errs() << "warplint sarif-merge: " << Error << "\n";
    return 2;
  }
  return 0;
}

} // namespace warplint::driver
