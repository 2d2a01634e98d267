//===- CompileDatabaseCheck.cpp - compile_commands.json entries clang would misread ===//
#include "driver/compdb/CompileDatabaseCheck.h"
#include "driver/formats/BoundedJson.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

namespace warplint::driver {
namespace {

std::string normalized(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

} // namespace

std::string commandSplitError(llvm::StringRef C) {
  // The splitter of clang's JSONCompilationDatabase (POSIX hosts): arguments are
  // separated by spaces; '"' quotes with backslash escapes inside, '\'' quotes without;
  // outside quotes a backslash escapes the next character.
  auto unterminated = [](char Quote, size_t Open) {
    return fmt::format("the \"command\" has an unterminated {} (opened at character {}); clang "
                       "would take the rest of it as one argument",
                       Quote, Open + 1);
  };
  size_t I = 0, N = C.size();
  while (I < N) {
    if (C[I] == ' ') {
      ++I;
    } else if (C[I] == '"') {
      size_t Open = I++;
      while (I < N && C[I] != '"')
        I += C[I] == '\\' ? 2 : 1;
      if (I >= N)
        return unterminated('"', Open);
      ++I;
    } else if (C[I] == '\'') {
      size_t Open = I++;
      while (I < N && C[I] != '\'')
        ++I;
      if (I >= N)
        return unterminated('\'', Open);
      ++I;
    } else if (C[I] == '\\') {
      if (I + 1 >= N)
        return "the \"command\" ends in a lone backslash";
      I += 2;
    } else {
      ++I;
    }
  }
  return {};
}

std::vector<CompileCommandProblem> checkCompileCommandsJson(llvm::StringRef Text,
                                                            llvm::StringRef Name) {
  std::vector<CompileCommandProblem> Problems;
  llvm::Expected<llvm::json::Value> Parsed = parseBoundedJson(Text);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return Problems;
  }
  const llvm::json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return Problems;
  for (size_t I = 0; I < Entries->size(); ++I) {
    const llvm::json::Object *E = (*Entries)[I].getAsObject();
    if (!E || E->get("arguments"))
      continue; // clang prefers "arguments", already split
    std::optional<llvm::StringRef> Command = E->getString("command");
    std::optional<llvm::StringRef> File = E->getString("file");
    if (!Command || !File)
      continue;
    std::string Why = commandSplitError(*Command);
    if (Why.empty())
      continue;
    CompileCommandProblem P;
    P.Index = I;
    llvm::SmallString<256> Abs(*File);
    if (llvm::sys::path::is_relative(Abs))
      if (std::optional<llvm::StringRef> Dir = E->getString("directory")) {
        Abs = *Dir;
        llvm::sys::path::append(Abs, *File);
      }
    P.File = normalized(Abs);
    P.Message = fmt::format("{}[{}] ({}): {}", Name.str(), I, File->str(), Why);
    Problems.push_back(std::move(P));
  }
  return Problems;
}

std::vector<CompileCommandProblem> checkCompileDatabase(llvm::StringRef BuildDir) {
  if (BuildDir.empty())
    return {};
  llvm::SmallString<256> Path(BuildDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return {};
  return checkCompileCommandsJson((*Buf)->getBuffer(), Path);
}

const CompileCommandProblem *
findCompileCommandProblem(const std::vector<CompileCommandProblem> &Problems,
                          llvm::StringRef File) {
  if (Problems.empty())
    return nullptr;
  std::string Key = normalized(File);
  for (const CompileCommandProblem &P : Problems)
    if (P.File == Key)
      return &P;
  return nullptr;
}

RunResult failedCompileCommand(const std::string &File, const CompileCommandProblem &Problem) {
  return failedFile(File, Problem.Message);
}

} // namespace warplint::driver
