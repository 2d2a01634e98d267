//===- Includers.cpp - the database file that #includes a file it does not list ===//
#include "driver/Includers.h"
#include "driver/NvccTranslate.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace warplint::driver {

std::vector<SpelledInclude> spelledIncludes(const std::string &Source) {
  std::vector<SpelledInclude> Out;
  llvm::StringRef Text = Source;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    llvm::StringRef L = Line.ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("include"))
      continue;
    L = L.ltrim();
    char Close = L.consume_front("\"") ? '"' : L.consume_front("<") ? '>' : 0;
    size_t End = Close ? L.find(Close) : llvm::StringRef::npos;
    if (End == llvm::StringRef::npos || End == 0)
      continue;
    Out.push_back({L.take_front(End).str(), Close == '"'});
  }
  return Out;
}

namespace {

/// The include directories of a command, in search order, absolute against its directory:
/// -iquote ones first (quoted includes only), then -I, -isystem, -idirafter.
struct SearchDirs {
  std::vector<std::string> Quoted, Angled;
};

SearchDirs searchDirs(const clang::tooling::CompileCommand &C) {
  std::vector<std::string> Args =
      isNvccCommand(C.CommandLine) ? translateNvccCommand(C.CommandLine).Args : C.CommandLine;
  auto Abs = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> P(Dir);
    if (!llvm::sys::path::is_absolute(P)) {
      P = C.Directory;
      llvm::sys::path::append(P, Dir);
    }
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  };
  SearchDirs S;
  std::vector<std::string> System, After;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--")
      break;
    const std::pair<llvm::StringRef, std::vector<std::string> *> Flags[] = {
        {"-iquote", &S.Quoted}, {"-I", &S.Angled}, {"-isystem", &System}, {"-idirafter", &After}};
    for (auto [Flag, Into] : Flags) {
      if (!A.starts_with(Flag))
        continue;
      if (A == Flag && I + 1 < Args.size())
        Into->push_back(Abs(Args[++I]));
      else if (A.size() > Flag.size())
        Into->push_back(Abs(A.drop_front(Flag.size())));
      break;
    }
  }
  S.Angled.insert(S.Angled.end(), System.begin(), System.end());
  S.Angled.insert(S.Angled.end(), After.begin(), After.end());
  return S;
}

/// The file an include resolves to in Includer's compile (the first candidate that
/// exists); empty when none does.
std::string resolve(const SpelledInclude &Inc, const std::string &Includer, const SearchDirs &S) {
  std::vector<std::string> Dirs;
  if (Inc.Quoted) {
    Dirs.push_back(std::string(llvm::sys::path::parent_path(Includer)));
    Dirs.insert(Dirs.end(), S.Quoted.begin(), S.Quoted.end());
  }
  Dirs.insert(Dirs.end(), S.Angled.begin(), S.Angled.end());
  for (const std::string &D : Dirs) {
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, Inc.Name);
    if (llvm::sys::fs::is_regular_file(P))
      return std::string(P);
  }
  return {};
}

} // namespace

std::map<std::string, std::string> findIncluders(const std::vector<std::string> &Files,
                                                 const clang::tooling::CompilationDatabase &Db) {
  std::map<std::string, std::string> Found;
  if (Files.empty())
    return Found;
  std::vector<std::string> Sources = Db.getAllFiles();
  std::sort(Sources.begin(), Sources.end());
  for (const std::string &Source : Sources) {
    if (Found.size() == Files.size())
      break;
    auto Buffer = llvm::MemoryBuffer::getFile(Source);
    if (!Buffer)
      continue;
    std::string Text = (*Buffer)->getBuffer().str();
    // Only the includes that name one of the files (by its last component) are resolved.
    std::vector<SpelledInclude> Includes;
    for (SpelledInclude &Inc : spelledIncludes(Text))
      if (std::any_of(Files.begin(), Files.end(), [&](const std::string &F) {
            return !Found.count(F) && llvm::sys::path::filename(Inc.Name) ==
                                          llvm::sys::path::filename(F);
          }))
        Includes.push_back(std::move(Inc));
    if (Includes.empty())
      continue;
    std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(Source);
    if (Commands.empty())
      continue;
    SearchDirs Dirs = searchDirs(Commands.front());
    for (const SpelledInclude &Inc : Includes) {
      std::string Resolved = resolve(Inc, Source, Dirs);
      if (Resolved.empty())
        continue;
      for (const std::string &F : Files)
        if (!Found.count(F) && llvm::sys::fs::equivalent(Resolved, F))
          Found[F] = Source;
    }
  }
  return Found;
}

} // namespace warplint::driver
