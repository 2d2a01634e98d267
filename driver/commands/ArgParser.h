//===- ArgParser.h - the one command-line parser of the subcommands -*- C++ -*-===//
//
// Each subcommand declares its options on an ArgParser and parses its arguments in one
// call. The spellings are the same everywhere:
//   --name=value, --name value        an option with a value (also -p=value, -p value)
//   -pVALUE                           the same for a one-letter option
//   --flag                            a flag (--flag=x is an error)
//   FILE                              a positional argument ('-' alone is one)
//   -- ARGS                           everything after it, untouched
//   --help, -h                        anywhere before `--`: parse() answers Help
// Handlers run in the order of the command line, so a later option can see what an
// earlier one set, and an option given twice runs its handler twice (a string option
// keeps the last value, a list option appends). Parsing stops at the first error; the
// message names the command: "unknown option '--x' (see 'warplint check --help')".
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warplint {
struct GpuArch;
}

namespace warplint::driver {

class ArgParser {
public:
  /// Takes an option's value; false with Error set when the value is bad.
  using ValueHandler = std::function<bool(llvm::StringRef Value, std::string &Error)>;

  enum class Result { Ok, Help, Error };

  /// Command: the subcommand's name, for the messages ("check").
  explicit ArgParser(std::string Command) : Command(std::move(Command)) {}

  /// An option with a value, handed to Handler. Without a value the error is
  /// "NAME needs MISSING" ("-o needs a file name").
  ArgParser &option(std::string Name, ValueHandler Handler, std::string Missing = "a value");
  /// An option whose value is stored in Into (the last one wins).
  ArgParser &option(std::string Name, std::string &Into, std::string Missing = "a value");
  /// A repeatable option whose values are appended to Into.
  ArgParser &list(std::string Name, std::vector<std::string> &Into);
  /// A flag: Into becomes true.
  ArgParser &flag(std::string Name, bool &Into);
  /// Where positional arguments go; without it they are an error.
  ArgParser &positional(std::vector<std::string> &Into);
  /// Options this parser does not know go to the positional arguments, in order, instead
  /// of being an error (`warplint report` hands them to `warplint check`).
  ArgParser &passUnknownOptions() {
    PassUnknown = true;
    return *this;
  }
  /// Where the arguments after `--` go (Seen: whether there was a `--`); without it `--`
  /// is an error.
  ArgParser &rest(std::vector<std::string> &Into, bool *Seen = nullptr);

  /// Parses Args (without the command's name).
  Result parse(llvm::ArrayRef<std::string> Args, std::string &Error) const;
  /// The same for main()'s Argv, Argv[0] being the command's name.
  Result parse(int Argc, char **Argv, std::string &Error) const;

private:
  struct Option {
    std::string Name;
    bool TakesValue;
    ValueHandler OnValue; ///< TakesValue
    bool *Flag;           ///< !TakesValue
    std::string Missing;
  };
  const Option *find(llvm::StringRef Name) const;

  std::string Command;
  std::vector<Option> Options;
  std::vector<std::string> *Positional = nullptr;
  bool PassUnknown = false;
  std::vector<std::string> *Rest = nullptr;
  bool *RestSeen = nullptr;
};

/// What a subcommand does with parse()'s answer R: for --help, Usage on stdout and 0; for
/// a bad argument, Fail(Error) (the command's own error line and exit status); nullopt for
/// Ok, and the command goes on:
///   if (std::optional<int> Rc = parsed(P.parse(Argc, Argv, Err), Usage, Err, fail))
///     return *Rc;
std::optional<int> parsed(ArgParser::Result R, llvm::StringRef Usage, const std::string &Error,
                          llvm::function_ref<int(const std::string &)> Fail);

/// --arch: an NVIDIA architecture core knows (sm_86, also 8.6, 86, compute_86, sm_90a),
/// stored as clang's --cuda-gpu-arch wants it (sm_XX); AMD and unknown names are errors
/// that name the command and list the known architectures.
ArgParser::ValueHandler nvidiaArchOption(std::string &Into, std::string Command);
/// --gpu NAME: a core/Products key, stored normalised ("h100").
ArgParser::ValueHandler gpuOption(std::string &Into);
/// --assume-block / --assume-grid (Grid) X[xYxZ]: a shape that can launch (model/
/// ModelOptions.h's parseShapeText), stored as "X[xYxZ]"; Name starts the error message.
ArgParser::ValueHandler shapeOption(std::string Name, bool Grid, std::string &Into);
/// --arch for commands that analyse CUDA or HIP: an NVIDIA architecture as above, or an
/// AMD one (gfx906, gfx90a:xnack+), kept as written (lowercase).
ArgParser::ValueHandler gpuArchOption(std::string &Into, std::string Command);

/// The one spelling of an NVIDIA --arch that warplint passes to clang and prints: the
/// row's name (sm_86 for 8.6, 86, SM_86, compute_86; sm_100 for the family variant
/// sm_100f, which clang does not know and which has the base's limits), or the lower-case
/// arch-specific name (sm_90a for sm_90A) when clang knows it. Empty with Error set for an
/// arch-specific name clang does not know (sm_86a).
std::string nvidiaArchSpelling(llvm::StringRef Given, const GpuArch &Arch, std::string &Error);

} // namespace warplint::driver
