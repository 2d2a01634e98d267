//===- CompdbCommand.cpp - `warplint compdb`: a compile database clang accepts ===//
#include "driver/run/Analysis.h"
#include "driver/compdb/CompdbExport.h"
#include "driver/compdb/NvccTranslate.h"
#include "driver/compdb/SourceRewrite.h"
#include "driver/compdb/CompileDatabaseCheck.h"
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    R"(usage: warplint compdb -p BUILD -o DIR [--arch sm_XX] [--for TOOL] [-- EXTRA CLANG ARGS]

Writes DIR/compile_commands.json: the commands of BUILD/compile_commands.json as clang
runs them for warplint (nvcc commands translated, the device side of the first or the
given architecture), so that stock clang-tidy (clang-tidy-22 -p DIR --load
warplint-tidy.so) and editors can analyse a CUDA project built with nvcc.

  -p BUILD       directory with the original compile_commands.json
  -o DIR         where to write the translated compile_commands.json (created if needed;
                 the file is written atomically)
  --arch sm_XX   the device architecture to analyse (default: the command's first)
  --for TOOL     the clang tool that reads the export, by name or path (clang-tidy-19,
                 /usr/lib/llvm-19/bin/clang-tidy): for a clang older than warplint's 22
                 whose CUDA wrapper includes texture_fetch_functions.h, which CUDA 13 no
                 longer ships, commands against such a toolkit get -isystem
                 DIR/warplint-llvmNN, which holds an empty one (the toolkit's headers are
                 kept); no resource directory of clang 22 is named
  -- ARGS        clang arguments added to every command

DIR/compile_commands.json is rewritten only when its content changes (a run with the same
database, options and warplint leaves it, and its time stamp, as it was), so compdb can
run on every build.

A command whose -I has a project header that shadows a toolkit header of clang's CUDA
wrappers (a cuda.h) gets -resource-dir=DIR/warplint-resource-HASH, clang's resource
directory linked with warplint's shims. Files that write launch chevrons with spaces
('<< <', '>> >') are named in a warning: run clang-tidy with
--vfsoverlay=DIR/warplint-joined.yaml to read them joined, as warplint check does.

exit status: 0 written; 2 no database, nothing to write, a command clang cannot
split (an unbalanced quote: the entry is named), or a write error.
)";

int fail(const std::string &Msg) {
  llvm::errs() << "warplint compdb: " << Msg << "\n";
  return 2;
}

/// The LLVM major version of a clang tool named by TOOL ("clang-tidy-19",
/// "/usr/lib/llvm-19/bin/clang-tidy"); 0 when the name does not say.
unsigned toolMajor(llvm::StringRef Tool) {
  unsigned Major = 0;
  llvm::StringRef Name = llvm::sys::path::filename(Tool);
  size_t Dash = Name.rfind('-');
  if (Dash != llvm::StringRef::npos && !Name.drop_front(Dash + 1).getAsInteger(10, Major))
    return Major;
  size_t At = Tool.find("llvm-");
  if (At != llvm::StringRef::npos) {
    llvm::StringRef Rest = Tool.drop_front(At + 5);
    Rest = Rest.take_until([](char C) { return C < '0' || C > '9'; });
    if (!Rest.getAsInteger(10, Major))
      return Major;
  }
  return 0;
}

/// The toolkit a translated command parses against (its --cuda-path), or "".
std::string commandToolkit(const std::vector<std::string> &Command) {
  for (const std::string &A : Command)
    if (llvm::StringRef(A).starts_with("--cuda-path="))
      return A.substr(12);
  return "";
}

/// Writes Path unless it already holds Text; Changed says whether it wrote.
bool writeIfChanged(const std::string &Path, const std::string &Text, bool &Changed,
                    std::string &Err) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path); Old && (*Old)->getBuffer() == Text) {
    Changed = false;
    return true;
  }
  Changed = true;
  return writeFileAtomically(Path, Text, Err);
}

/// DIR/warplint-llvmNN/texture_fetch_functions.h, an empty header, for a clang older than
/// 22: its CUDA wrapper includes that header whatever the toolkit, and CUDA 13 no longer
/// ships it. The directory (absolute), or empty with Err set.
std::string writeTextureShim(const std::string &OutDir, unsigned OlderMajor, std::string &Err) {
  llvm::SmallString<256> Dir(OutDir);
  llvm::sys::path::append(Dir, "warplint-llvm" + std::to_string(OlderMajor));
  llvm::sys::fs::make_absolute(Dir);
  llvm::SmallString<256> File(Dir);
  llvm::sys::path::append(File, "texture_fetch_functions.h");
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Err = "cannot create " + std::string(Dir) + ": " + EC.message();
    return "";
  }
  bool Changed;
  if (!writeIfChanged(std::string(File),
                      "// Written by warplint compdb --for: clang before 22 includes "
                      "this header from its CUDA\n// wrapper, and CUDA 13 no longer "
                      "ships it (its texture fetches were deprecated).\n",
                      Changed, Err))
    return "";
  return std::string(Dir);
}

/// The command's resource directory (either spelling, -resource-dir=D or -resource-dir D)
/// replaced by Dir, named first after the compiler.
void setResourceDir(std::vector<std::string> &Command, const std::string &Dir) {
  Command.erase(std::remove_if(Command.begin() + 1, Command.end(),
                               [](const std::string &A) {
                                 return llvm::StringRef(A).starts_with("-resource-dir=");
                               }),
                Command.end());
  for (size_t I = 1; I + 1 < Command.size(); ++I)
    if (Command[I] == "-resource-dir") {
      Command.erase(Command.begin() + I, Command.begin() + I + 2);
      break;
    }
  Command.insert(Command.begin() + 1, "-resource-dir=" + Dir);
}

} // namespace

int runCompdbCommand(int Argc, char **Argv) {
  std::string BuildDir, OutDir, Arch, ForTool;
  std::vector<std::string> Extra;
  std::string Err;
  ArgParser P("compdb");
  P.option("-p", BuildDir)
      .option("-o", OutDir, "a directory")
      .option("--arch", nvidiaArchOption(Arch, "warplint compdb"))
      .option("--for", ForTool, "a tool name (clang-tidy-19)")
      .rest(Extra);
  if (std::optional<int> Rc = parsed(P.parse(Argc, Argv, Err), Usage, Err, fail))
    return *Rc;
  if (BuildDir.empty() || OutDir.empty())
    return fail("-p BUILD and -o DIR are required (see 'warplint compdb --help')");
  // An older clang than warplint's (clang-tidy-19 with the LLVM 19 plugin): its CUDA
  // wrapper includes texture_fetch_functions.h whatever the toolkit, and CUDA 13 dropped
  // that header (clang 22 includes it only below CUDA 13).
  unsigned OlderMajor = 0;
  if (!ForTool.empty()) {
    unsigned Major = toolMajor(ForTool);
    if (Major == 0 && llvm::StringRef(ForTool).contains("clang"))
      Major = WARPLINT_LLVM_MAJOR; // an unversioned clang-tidy: taken for warplint's own
    if (Major == 0)
      return fail("--for: '" + ForTool + "' names no clang tool version (clang-tidy-19, "
                  "/usr/lib/llvm-19/bin/clang-tidy)");
    if (Major < WARPLINT_LLVM_MAJOR)
      OlderMajor = Major;
  }

  std::string Why;
  auto Db = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, Why);
  if (!Db)
    return fail("cannot load a compile database from " + BuildDir + ": " + Why);
  // A command clang would split wrongly (an unbalanced quote) would be written out as
  // the broken arguments: refused, naming each entry.
  std::vector<CompileCommandProblem> Bad = checkCompileDatabase(BuildDir);
  for (const CompileCommandProblem &P : Bad)
    llvm::errs() << "warplint compdb: " << P.Message << "\n";
  if (!Bad.empty())
    return 2;
  std::vector<clang::tooling::CompileCommand> Commands = Db->getAllCompileCommands();
  if (Commands.empty())
    return fail("the compile database in " + BuildDir + " has no commands");
  std::sort(Commands.begin(), Commands.end(),
            [](const clang::tooling::CompileCommand &A, const clang::tooling::CompileCommand &B) {
              return A.Filename < B.Filename;
            });

  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
    return fail("cannot create " + OutDir + ": " + EC.message());
  // What warplint check changes in memory goes into files beside the database: the
  // wrapper shims as a resource directory the command names (before the database, which
  // names it), the joined chevrons as an overlay clang-tidy is told about.
  llvm::json::Array Entries;
  std::map<std::string, std::string> Farms; // resource + toolkit -> the shimmed copy
  std::vector<std::string> Shimmed;
  std::string ShimExample;
  std::vector<JoinedSource> Joined;
  std::string TextureShimDir; // DIR/warplint-llvmNN, once written
  size_t TextureShimmed = 0;
  for (const clang::tooling::CompileCommand &C : Commands) {
    std::vector<std::string> Command = clangCommand(C.CommandLine, Arch, Extra);
    std::string Toolkit = commandToolkit(Command);
    if (OlderMajor && !Toolkit.empty() && isCudaToolkit(Toolkit) &&
        !llvm::sys::fs::exists(Toolkit + "/include/texture_fetch_functions.h")) {
      if (TextureShimDir.empty() &&
          (TextureShimDir = writeTextureShim(OutDir, OlderMajor, Err)).empty())
        return fail(Err);
      Command.insert(std::find(Command.begin(), Command.end(), "--"),
                     {"-isystem", TextureShimDir});
      ++TextureShimmed;
    }
    std::optional<ShadowedWrapperHeaders> S;
    if (!OlderMajor) // the shimmed copy mirrors clang 22's resource directory
      S = shadowedWrapperHeaders(Command, C.Directory);
    if (S) {
      std::string &Farm = Farms[S->ResourceDir + "\n" + S->Toolkit];
      if (Farm.empty() && (Farm = writeShimmedResourceDir(OutDir, *S, Err)).empty())
        return fail(Err);
      setResourceDir(Command, Farm);
      if (Shimmed.empty())
        ShimExample = S->ProjectHeader + " shadows the toolkit's " + S->Name +
                      " for clang's CUDA wrappers in the command of " + C.Filename;
      Shimmed.push_back(C.Filename);
    }
    llvm::SmallString<256> Source(C.Filename);
    if (!llvm::sys::path::is_absolute(Source)) {
      Source = C.Directory;
      llvm::sys::path::append(Source, C.Filename);
    }
    llvm::sys::path::remove_dots(Source, /*remove_dot_dot=*/true);
    if (auto Buffer = llvm::MemoryBuffer::getFile(Source))
      if (std::optional<std::string> Text = joinSpacedChevrons((*Buffer)->getBuffer()))
        Joined.push_back({std::string(Source), std::move(*Text)});
    llvm::json::Array Args;
    for (const std::string &A : Command)
      Args.push_back(A);
    Entries.push_back(llvm::json::Object{
        {"directory", C.Directory}, {"file", C.Filename}, {"arguments", std::move(Args)}});
  }
  std::string Overlay = writeJoinedOverlay(OutDir, Joined, Err);
  if (!Joined.empty() && Overlay.empty())
    return fail(Err);
  llvm::SmallString<256> Path(OutDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  std::string Text = llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries))).str() + "\n";
  bool Changed = true;
  if (!writeIfChanged(std::string(Path), Text, Changed, Err))
    return fail(Err);
  llvm::errs() << "warplint compdb: " << (Changed ? "wrote " : "unchanged: ") << Path << " ("
               << Commands.size() << " command" << (Commands.size() == 1 ? "" : "s") << ")\n";
  if (TextureShimmed)
    llvm::errs() << "warplint compdb: for clang " << OlderMajor << ": " << TextureShimmed
                 << " command" << (TextureShimmed == 1 ? " reads" : "s read")
                 << " an empty texture_fetch_functions.h from " << TextureShimDir
                 << " (its CUDA wrapper includes it; the toolkit no longer has it)\n";
  if (!Shimmed.empty()) {
    llvm::errs() << "warplint compdb: " << Shimmed.size() << " command"
                 << (Shimmed.size() == 1 ? " reads" : "s read")
                 << " clang's resource directory through a copy with the toolkit's headers "
                    "for its CUDA wrappers ("
                 << Farms.begin()->second << "): " << ShimExample << "\n";
  }
  if (!Joined.empty()) {
    llvm::errs() << "warplint compdb: warning: " << Joined.size() << " file"
                 << (Joined.size() == 1 ? " writes" : "s write")
                 << " launch chevrons with spaces ('<< <', '>> >'), which clang refuses and "
                    "warplint check reads joined; clang-tidy reads "
                 << (Joined.size() == 1 ? "it" : "them")
                 << " as warplint does only when run with --vfsoverlay=" << Overlay << ":\n";
    for (const JoinedSource &J : Joined)
      llvm::errs() << "  " << J.File << "\n";
  }
  return 0;
}

} // namespace warplint::driver
