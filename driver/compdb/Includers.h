//===- Includers.h - the database file that #includes a file it does not list -*- C++ -*-===//
//
// A kernel file that another translation unit #includes (Rodinia's backprop_cuda_kernel.cu,
// included by backprop_cuda.cu) has no entry of its own in compile_commands.json, and
// often does not parse alone: it leans on what its includer included before it. It is
// analysed as part of that translation unit, found here.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace warplint::driver {

/// The database file whose translation unit reaches a file the database does not list,
/// and the headers in between: empty Via for a direct #include, else the chain of
/// headers, outermost first (A.cu includes b.h, which includes kernel.cu: Via = {b.h}).
struct Includer {
  std::string Source;
  std::vector<std::string> Via;
};

/// For each of Files (absolute paths) the first file of Db (in sorted order) whose source
/// has an #include that resolves to it: a quoted include in the including file's
/// directory, then, quoted or angled, in the -I, -iquote, -isystem and -idirafter
/// directories of the database file's command (nvcc commands read through their clang
/// translation), in that order. A direct include in any database file is preferred; a
/// file only included indirectly (through the project's headers: the search does not
/// descend into headers found in -isystem and -idirafter directories, such as the
/// toolkit's) gets the includer whose chain is shortest, then first in sorted order.
/// Files no database file reaches are left out of the map.
std::map<std::string, Includer> findIncluders(const std::vector<std::string> &Files,
                                              const clang::tooling::CompilationDatabase &Db);

/// The names a source's #include directives spell, with whether they are quoted, in
/// order ("kernel.cu" in `#include "kernel.cu"`, "cuda/barrier" in `# include <cuda/barrier>`).
struct SpelledInclude {
  std::string Name;
  bool Quoted = false;
};
std::vector<SpelledInclude> spelledIncludes(const std::string &Source);

/// The file `#include "Name"` in a file of directory FromDir resolves to under a clang
/// command's arguments Args, run in Directory: FromDir, then the -iquote, -I, -isystem
/// and -idirafter directories, in that order. Empty when none of them has it (clang would
/// go on to its own and the toolkit's directories).
std::string resolveQuotedInclude(const std::string &Name, const std::string &FromDir,
                                 const std::vector<std::string> &Args,
                                 const std::string &Directory);

} // namespace warplint::driver
