//===- Includers.cpp - the database file that #includes a file it does not list ===//
#include "driver/compdb/Includers.h"
#include "driver/compdb/NvccTranslate.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>
#include <set>

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
  /// The -isystem and -idirafter directories (also in Angled): headers found there are
  /// not searched for further includes.
  std::vector<std::string> System;
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
  S.System = std::move(System);
  S.System.insert(S.System.end(), After.begin(), After.end());
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

/// Whether Path lies under one of Dirs.
bool under(llvm::StringRef Path, const std::vector<std::string> &Dirs) {
  for (const std::string &D : Dirs) {
    llvm::StringRef Dir = llvm::StringRef(D).rtrim('/');
    if (Path.starts_with(Dir) && Path.size() > Dir.size() && Path[Dir.size()] == '/')
      return true;
  }
  return false;
}

/// The #includes of each file read, read once however many translation units reach it.
class IncludeCache {
public:
  const std::vector<SpelledInclude> &of(const std::string &Path) {
    auto [It, New] = Cache.try_emplace(Path);
    if (New)
      if (auto Buffer = llvm::MemoryBuffer::getFile(Path))
        It->second = spelledIncludes((*Buffer)->getBuffer().str());
    return It->second;
  }

private:
  std::map<std::string, std::vector<SpelledInclude>> Cache;
};

/// The longest chain of headers followed from a translation unit's file: deeper includes
/// of a kernel file are not looked for.
constexpr size_t MaxIncludeDepth = 16;

} // namespace

std::string resolveQuotedInclude(const std::string &Name, const std::string &FromDir,
                                 const std::vector<std::string> &Args,
                                 const std::string &Directory) {
  llvm::SmallString<256> From(FromDir);
  llvm::sys::path::append(From, "includer");
  return resolve({Name, /*Quoted=*/true}, std::string(From),
                 searchDirs(clang::tooling::CompileCommand(Directory, "", Args, "")));
}

std::map<std::string, Includer> findIncluders(const std::vector<std::string> &Files,
                                              const clang::tooling::CompilationDatabase &Db) {
  std::map<std::string, Includer> Found;
  if (Files.empty())
    return Found;
  std::vector<std::string> Sources = Db.getAllFiles();
  std::sort(Sources.begin(), Sources.end());
  IncludeCache Includes;
  auto Unfound = [&](const std::string &F) { return !Found.count(F); };
  auto Matches = [&](const std::string &Resolved, const std::string &F) {
    return llvm::sys::path::filename(Resolved) == llvm::sys::path::filename(F) &&
           llvm::sys::fs::equivalent(Resolved, F);
  };
  auto CommandDirs = [&](const std::string &Source) -> std::optional<SearchDirs> {
    std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(Source);
    if (Commands.empty())
      return std::nullopt;
    return searchDirs(Commands.front());
  };
  // Direct includes first: a database file that #includes the file itself.
  for (const std::string &Source : Sources) {
    if (Found.size() == Files.size())
      return Found;
    // Only the includes that name one of the files (by its last component) are resolved.
    std::vector<SpelledInclude> Named;
    for (const SpelledInclude &Inc : Includes.of(Source))
      if (std::any_of(Files.begin(), Files.end(), [&](const std::string &F) {
            return Unfound(F) &&
                   llvm::sys::path::filename(Inc.Name) == llvm::sys::path::filename(F);
          }))
        Named.push_back(Inc);
    if (Named.empty())
      continue;
    std::optional<SearchDirs> Dirs = CommandDirs(Source);
    if (!Dirs)
      continue;
    for (const SpelledInclude &Inc : Named) {
      std::string Resolved = resolve(Inc, Source, *Dirs);
      if (Resolved.empty())
        continue;
      for (const std::string &F : Files)
        if (Unfound(F) && Matches(Resolved, F))
          Found[F] = {Source, {}};
    }
  }
  if (Found.size() == Files.size())
    return Found;
  // Then through the project's headers (A.cu includes b.h, which includes kernel.cu):
  // breadth first from each database file, so that each gets its shortest chain; the
  // shortest over all files wins, the first in sorted order among equals.
  std::map<std::string, Includer> Indirect;
  for (const std::string &Source : Sources) {
    std::optional<SearchDirs> Dirs;
    struct Step {
      std::string File;
      std::vector<std::string> Via;
    };
    std::vector<Step> Queue{{Source, {}}};
    std::set<std::string> Seen{Source};
    for (size_t Next = 0; Next < Queue.size(); ++Next) {
      Step Cur = Queue[Next];
      const std::vector<SpelledInclude> &Incs = Includes.of(Cur.File);
      if (Incs.empty())
        continue;
      if (!Dirs && !(Dirs = CommandDirs(Source)))
        break;
      for (const SpelledInclude &Inc : Incs) {
        std::string Resolved = resolve(Inc, Cur.File, *Dirs);
        if (Resolved.empty() || !Seen.insert(Resolved).second)
          continue;
        if (!Cur.Via.empty()) // the database file's own includes were seen above
          for (const std::string &F : Files) {
            if (!Unfound(F) || !Matches(Resolved, F))
              continue;
            auto Have = Indirect.find(F);
            if (Have == Indirect.end() || Have->second.Via.size() > Cur.Via.size())
              Indirect[F] = {Source, Cur.Via};
          }
        if (Cur.Via.size() + 1 < MaxIncludeDepth && !under(Resolved, Dirs->System)) {
          std::vector<std::string> Via = Cur.Via;
          Via.push_back(Resolved);
          Queue.push_back({Resolved, std::move(Via)});
        }
      }
    }
  }
  for (auto &[F, I] : Indirect)
    Found[F] = std::move(I);
  return Found;
}

} // namespace warplint::driver
