//===- CompileDatabaseCheck.h - compile_commands.json entries clang would misread -*- C++ -*-===//
//
// clang's JSON compile database splits an entry's "command" string itself, and an
// unbalanced quote makes it take the rest of the line as one argument without a word:
// the file then "has no input files" or fails with a misleading error. These functions
// find such entries before the database is used, so that `warplint compdb` refuses them
// and `warplint check -p` reports those files as failed with the reason.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace warplint::driver {

/// An entry of compile_commands.json whose "command" clang cannot split.
struct CompileCommandProblem {
  size_t Index = 0;    ///< the entry's position in the array, 0-based (jq's .[N])
  std::string File;    ///< its "file", made absolute against its "directory"
  std::string Message; ///< "build/compile_commands.json[3] (src/a.cu): the \"command\" ..."
};

/// Why clang's JSON database would split Command into the wrong arguments (an
/// unterminated quote, a lone backslash at the end), as its splitter reads it; empty when
/// it splits cleanly.
std::string commandSplitError(llvm::StringRef Command);

/// The entries of the compile_commands.json text Text (Name: its path, for the messages)
/// that use "command" (not "arguments") and cannot be split. Text that is not JSON or not
/// an array of entries gives nothing: clang's own loader says what is wrong with it.
std::vector<CompileCommandProblem> checkCompileCommandsJson(llvm::StringRef Text,
                                                            llvm::StringRef Name);

/// The same for BuildDir/compile_commands.json; nothing when BuildDir is empty or the file
/// cannot be read.
std::vector<CompileCommandProblem> checkCompileDatabase(llvm::StringRef BuildDir);

/// The problem of the entry for File (an absolute path), or nullptr.
const CompileCommandProblem *
findCompileCommandProblem(const std::vector<CompileCommandProblem> &Problems, llvm::StringRef File);

/// File failed with the problem as its one finding (clang-diagnostic-error, as clang's
/// own errors are).
RunResult failedCompileCommand(const std::string &File, const CompileCommandProblem &Problem);

} // namespace warplint::driver
