//===- GithubFormat.cpp - GitHub Actions workflow commands (annotations) --===//
#include "driver/formats/Formats.h"

#include "llvm/Support/raw_ostream.h"

namespace warplint::driver {
namespace {

std::string escape(std::string_view S, bool Property) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    case ':':
      Out += Property ? "%3A" : ":";
      break;
    case ',':
      Out += Property ? "%2C" : ",";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

/// The workflow command of a severity: GitHub calls a note a notice.
const char *commandName(Severity S) { return S == Severity::Note ? "notice" : severityName(S); }

std::string position(const SourcePos &Pos, const LocationOptions &Opts) {
  std::string Out = Opts.SourceRoot.empty() ? Pos.File : relativeToRoot(Pos.File, Opts.SourceRoot);
  if (Pos.Line > 0) {
    Out += ":" + std::to_string(Pos.Line);
    if (Pos.Column > 0)
      Out += ":" + std::to_string(Pos.Column);
  }
  return Out;
}

} // namespace

std::string escapeGithubData(std::string_view S) { return escape(S, false); }
std::string escapeGithubProperty(std::string_view S) { return escape(S, true); }

void writeGithub(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS) {
  // Messages about the run: annotations without a file.
  for (const RunMessage &M : Result.Messages)
    OS << "::" << commandName(M.Level) << " title=warplint::" << escapeGithubData(M.Text) << "\n";
  for (const Finding &F : Result.Findings) {
    std::string File =
        Opts.SourceRoot.empty() ? F.Pos.File : relativeToRoot(F.Pos.File, Opts.SourceRoot);
    OS << "::" << commandName(F.Level) << " file=" << escapeGithubProperty(File);
    if (F.Pos.Line > 0)
      OS << ",line=" << F.Pos.Line;
    if (F.Pos.Column > 0)
      OS << ",col=" << F.Pos.Column;
    OS << ",title=" << escapeGithubProperty(F.Check) << "::";
    // The annotation shows one message; notes follow it on their own lines.
    std::string Message = F.Message + " [" + F.Check + "]";
    for (const FindingNote &N : F.Notes) {
      Message += "\nnote: ";
      if (!N.Pos.File.empty())
        Message += position(N.Pos, Opts) + ": ";
      Message += N.Message;
    }
    OS << escapeGithubData(Message) << "\n";
  }
  // Files relative to the project root, in the property and the text alike.
  auto Shown = [&](const std::string &File) {
    return Opts.SourceRoot.empty() ? File : relativeToRoot(File, Opts.SourceRoot);
  };
  for (const std::string &File : Result.FilesWithErrors)
    OS << "::warning file=" << escapeGithubProperty(Shown(File)) << ",title=warplint::"
       << escapeGithubData("analysed with errors " + Shown(File) +
                           ": clang reported errors and recovered; the findings cover the "
                           "code it could build")
       << "\n";
  for (const std::string &File : Result.FilesFailed)
    OS << "::error file=" << escapeGithubProperty(Shown(File))
       << ",title=warplint::" << escapeGithubData("could not analyse " + Shown(File)) << "\n";
}

} // namespace warplint::driver
