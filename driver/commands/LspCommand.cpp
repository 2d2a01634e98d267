//===- LspCommand.cpp - `warplint lsp`: the language server on stdio -------===//
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/lsp/Convert.h"
#include "driver/lsp/Server.h"
#include "driver/lsp/Transport.h"
#include "driver/lsp/Worker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <csignal>
#include <cstdio>

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    R"(usage: warplint lsp [options]

A Language Server Protocol server on stdin/stdout for editors: a CUDA file is analysed
when it is opened, when it is saved and as it is edited (the unsaved text, with the file's
precompiled preamble), and warplint's findings are published as its diagnostics (notes as related information, each check's page linked); a hover on a kernel
launch shows its occupancy figures and limiter. See docs/editors.md.

The compile database of a file is found as clangd finds it: compile_commands.json in the
file's directory or a parent, or in their build/ subdirectory. A file it does not list
gets the command of a similar file; a file with no database is analysed alone, as
`warplint check FILE` does.

options:
  --compile-commands-dir DIR   the directory of compile_commands.json for every file
                               (instead of looking above each file)
  --arch sm_XX             analyse the device side for this architecture
  --checks GLOBS           clang-tidy check globs (default '-*,warplint-*'; .clang-tidy
                           files apply too)
  --cuda-path DIR          the CUDA toolkit of files without a database
  --mock-cuda              files without a database: warplint's own minimal CUDA header
  --registers-from SRC     auto|ptxas-log|objects|nvcc|none, as for check (default auto:
                           nvcc's figures from the cache shared with `warplint check`;
                           when they are not cached yet, the diagnostics come at once
                           without them and again once nvcc has run)
  --cache-dir DIR          the register and result cache (default as for check)
  --no-cache               analyse every file afresh (no result cache)
  -j N                     files analysed at once (default 2; 1 on one hardware thread)
  --debounce MS            quiet time after an open, an edit or a save before the
                           analysis starts (default 300); a save during an analysis ends
                           it and starts another
  --analyse FILE           do not serve: analyse FILE as the server's worker process
                           does, with the compile database the server finds for it, and
                           print its results as JSON lines (for debugging)
  --preamble-worker        do not serve: be the server's worker for unsaved text (reads
                           one JSON request a line on stdin, keeps each file's
                           precompiled preamble; driver/lsp/Worker.h)

exit status: 0 after shutdown and exit, 1 on exit without shutdown or when the input
ends, 2 for bad arguments.
)";

} // namespace

int runLspCommand(int Argc, char **Argv) {
  lsp::ServerOptions O;
  std::string Analyse, Jobs, Debounce;
  bool PreambleWorker = false;
  ArgParser P("lsp");
  auto Count = [](const char *Name, unsigned Max, unsigned &Into) {
    return [=, &Into](llvm::StringRef V, std::string &Error) {
      unsigned long long N;
      if (V.getAsInteger(10, N) || N > Max) {
        Error = fmt::format("{}: '{}' is not a number from 0 to {}", Name, V.str(), Max);
        return false;
      }
      Into = static_cast<unsigned>(N);
      return true;
    };
  };
  auto OneOf = [](std::string &Into) {
    return [&Into](llvm::StringRef V, std::string &Error) {
      if (!llvm::is_contained({"auto", "ptxas-log", "objects", "nvcc", "none"}, V)) {
        Error = "--registers-from: '" + V.str() + "' is not auto, ptxas-log, objects, nvcc or none";
        return false;
      }
      Into = V.str();
      return true;
    };
  };
  P.option("--compile-commands-dir", O.CompileCommandsDir, "a directory")
      .option("--arch", nvidiaArchOption(O.Arch, "warplint lsp"))
      .option("--checks", O.Checks)
      .option("--cuda-path", O.CudaPath)
      .flag("--mock-cuda", O.MockCuda)
      .option("--registers-from", OneOf(O.RegistersFrom))
      .option("--cache-dir", O.CacheDir)
      .flag("--no-cache", O.NoCache)
      .option("-j", Count("-j", 64, O.Jobs))
      .option("--debounce", Count("--debounce", 60000, O.DebounceMs))
      .option("--analyse", Analyse, "a file")
      .flag("--preamble-worker", PreambleWorker);
  std::string Err;
  switch (P.parse(Argc, Argv, Err)) {
  case ArgParser::Result::Help:
    llvm::outs() << Usage;
    return 0;
  case ArgParser::Result::Error:
    llvm::errs() << "warplint lsp: " << Err << "\n";
    return 2;
  case ArgParser::Result::Ok:
    break;
  }
  if (!O.CompileCommandsDir.empty()) {
    llvm::SmallString<256> Dir(O.CompileCommandsDir), Db;
    llvm::sys::fs::make_absolute(Dir);
    Db = Dir;
    llvm::sys::path::append(Db, "compile_commands.json");
    if (!llvm::sys::fs::exists(Db)) {
      llvm::errs() << "warplint lsp: --compile-commands-dir " << O.CompileCommandsDir
                   << ": no compile_commands.json there\n";
      return 2;
    }
    O.CompileCommandsDir = std::string(Dir);
  }

  auto Options = [&O] {
    AnalysisOptions A;
    A.Arch = O.Arch;
    A.Checks = O.Checks;
    A.CudaPath = O.CudaPath;
    A.MockCuda = O.MockCuda;
    A.RegistersFrom = O.RegistersFrom;
    A.CacheDir = O.CacheDir;
    A.ResultCache = !O.NoCache;
    return A;
  };
  if (PreambleWorker)
    return lsp::runPreambleWorker(Options(), /*In=*/0, llvm::outs());
  if (!Analyse.empty()) {
    AnalysisOptions A = Options();
    // The database the server would give this file: --compile-commands-dir, else the
    // compile_commands.json found from the file's directory up (findCompileCommandsDir).
    llvm::SmallString<256> File(Analyse);
    llvm::sys::fs::make_absolute(File);
    A.BuildDir = !O.CompileCommandsDir.empty() ? O.CompileCommandsDir
                                               : lsp::findCompileCommandsDir(File);
    A.Files = {Analyse};
    return lsp::runWorker(std::move(A), llvm::outs());
  }

  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv[0], &Anchor);
  // A client that goes away must not kill the server mid-write: the next read ends it.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::Transport T(stdin, stdout);
  lsp::Server S(T, std::move(O), Exe);
  return S.run();
}

} // namespace warplint::driver
