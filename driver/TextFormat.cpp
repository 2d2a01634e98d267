//===- TextFormat.cpp - clang-style text output, coloured on a terminal ---===//
#include "driver/Formats.h"

#include "llvm/Support/raw_ostream.h"

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

const char *levelName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
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
  OS << levelName(S) << ":";
  if (Colour)
    OS << Reset << Bold;
  OS << " " << Message;
  if (!Check.empty())
    OS << " [" << Check << "]";
  if (Colour)
    OS << Reset;
  OS << "\n";
}

} // namespace

void writeText(const RunResult &Result, const LocationOptions &Opts, bool Colour,
               llvm::raw_ostream &OS) {
  for (const Finding &F : Result.Findings) {
    line(OS, F.Pos, F.Level, F.Message, F.Check, Opts, Colour);
    for (const FindingNote &N : F.Notes)
      line(OS, N.Pos, Severity::Note, N.Message, "", Opts, Colour);
  }
}

} // namespace warplint::driver
