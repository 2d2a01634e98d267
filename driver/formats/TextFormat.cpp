//===- TextFormat.cpp - clang-style text output, coloured on a terminal ---===//
#include "driver/formats/Formats.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace warplint::driver {
namespace {

// clang's colours: bold locations, magenta warnings, red errors, dark notes.
constexpr const char *Bold = "\033[1m";
constexpr const char *Reset = "\033[0m";

const char *levelColour(Severity S) {
  switch (S) {
  case Severity::Error:
    return "\033[1;31m";
  case Severity::Warning:
    return "\033[1;35m";
  case Severity::Note:
    return "\033[1;30m";
  }
  return "";
}

void line(llvm::raw_ostream &OS, const SourcePos &Pos, Severity S, const std::string &Message,
          const std::string &Check, const LocationOptions &Opts, bool Colour) {
  std::string File = Opts.SourceRoot.empty() ? Pos.File : relativeToRoot(Pos.File, Opts.SourceRoot);
  if (Colour)
    OS << Bold;
  OS << File;
  if (Pos.Line > 0) {
    OS << ":" << Pos.Line;
    if (Pos.Column > 0)
      OS << ":" << Pos.Column;
  }
  OS << ": ";
  if (Colour)
    OS << Reset << levelColour(S);
  OS << severityName(S) << ":";
  if (Colour)
    OS << Reset << Bold;
  OS << " " << Message;
  if (!Check.empty())
    OS << " [" << Check << "]";
  if (Colour)
    OS << Reset;
  OS << "\n";
}

/// The lines of the files findings point into, read once each.
class SourceLines {
public:
  /// Line (1-based) of File, or nullptr when the file or the line cannot be read.
  const std::string *get(const std::string &File, unsigned Line) {
    auto It = Files.find(File);
    if (It == Files.end()) {
      std::vector<std::string> Lines;
      if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
        llvm::StringRef Text = (*Buf)->getBuffer();
        while (!Text.empty()) {
          auto [Head, Tail] = Text.split('\n');
          Lines.push_back(Head.rtrim('\r').str());
          Text = Tail;
        }
      }
      It = Files.emplace(File, std::move(Lines)).first;
    }
    if (Line == 0 || Line > It->second.size())
      return nullptr;
    return &It->second[Line - 1];
  }

private:
  std::map<std::string, std::vector<std::string>> Files;
};

/// clang's snippet under a diagnostic: the source line and a caret under the column
/// (tabs expanded to clang's tab stop of 8, so the caret stays aligned).
void snippet(llvm::raw_ostream &OS, const SourcePos &Pos, SourceLines &Sources, bool Colour) {
  const std::string *Src = Pos.Line > 0 ? Sources.get(Pos.File, Pos.Line) : nullptr;
  if (!Src)
    return;
  std::string Expanded;
  size_t CaretAt = std::string::npos;
  for (size_t I = 0; I < Src->size(); ++I) {
    if (I + 1 == Pos.Column)
      CaretAt = Expanded.size();
    if ((*Src)[I] == '\t')
      Expanded.append(8 - Expanded.size() % 8, ' ');
    else
      Expanded.push_back((*Src)[I]);
  }
  if (CaretAt == std::string::npos)
    CaretAt = Pos.Column > 0 ? Expanded.size() : 0;
  // clang's gutter: a space, then the number right-aligned in at least 4 columns.
  std::string Number = std::to_string(Pos.Line);
  if (Number.size() < 4)
    Number.insert(0, 4 - Number.size(), ' ');
  Number.insert(0, 1, ' ');
  OS << Number << " | " << Expanded << "\n";
  OS << std::string(Number.size(), ' ') << " | " << std::string(CaretAt, ' ');
  if (Colour)
    OS << "\033[1;32m";
  OS << "^";
  if (Colour)
    OS << Reset;
  OS << "\n";
}

} // namespace

void writeText(const RunResult &Result, const LocationOptions &Opts, bool Colour,
               llvm::raw_ostream &OS) {
  SourceLines Sources;
  for (const Finding &F : Result.Findings) {
    line(OS, F.Pos, F.Level, F.Message, F.Check, Opts, Colour);
    snippet(OS, F.Pos, Sources, Colour);
    for (const FindingNote &N : F.Notes) {
      line(OS, N.Pos, Severity::Note, N.Message, "", Opts, Colour);
      snippet(OS, N.Pos, Sources, Colour);
    }
  }
}

} // namespace warplint::driver
