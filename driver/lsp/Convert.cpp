//===- Convert.cpp - RunResult to LSP diagnostics and hovers, URIs, databases ===//
#include "driver/lsp/Convert.h"

#include "driver/formats/Formats.h"
#include "driver/formats/RecordText.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <cmath>

namespace warplint::driver::lsp {

using llvm::json::Array;
using llvm::json::Object;

std::optional<std::string> uriToPath(llvm::StringRef Uri, std::string &Error) {
  if (!Uri.consume_front("file://")) {
    Error = "'" + Uri.str() + "' is not a file:// URI";
    return std::nullopt;
  }
  // file://host/path: only an empty host or localhost is this machine.
  size_t Slash = Uri.find('/');
  llvm::StringRef Host = Uri.take_front(Slash);
  if (Slash == llvm::StringRef::npos || (!Host.empty() && Host != "localhost")) {
    Error = "'file://" + Uri.str() + "' names no local absolute path";
    return std::nullopt;
  }
  Uri = Uri.drop_front(Slash);
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size() + 0 && llvm::isHexDigit(Uri[I + 1]) &&
        llvm::isHexDigit(Uri[I + 2])) {
      Path.push_back(static_cast<char>(llvm::hexFromNibbles(Uri[I + 1], Uri[I + 2])));
      I += 2;
    } else {
      Path.push_back(Uri[I]);
    }
  }
  return Path;
}

std::string pathToUri(llvm::StringRef Path) { return "file://" + encodeUriPath(Path); }

std::string findCompileCommandsDir(llvm::StringRef File) {
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(File));
  while (!Dir.empty()) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> Candidate(Dir);
      if (*Sub)
        llvm::sys::path::append(Candidate, Sub);
      llvm::SmallString<256> Db(Candidate);
      llvm::sys::path::append(Db, "compile_commands.json");
      if (llvm::sys::fs::is_regular_file(Db))
        return std::string(Candidate);
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

namespace {
std::vector<std::string> splitLines(llvm::StringRef Text) {
  std::vector<std::string> Lines;
  llvm::SmallVector<llvm::StringRef, 0> Parts;
  Text.split(Parts, '\n');
  for (llvm::StringRef P : Parts)
    Lines.push_back(P.rtrim('\r').str());
  return Lines;
}
} // namespace

void SourceLines::setText(const std::string &File, llvm::StringRef Text) {
  Files[File] = splitLines(Text);
}

llvm::StringRef SourceLines::line(const std::string &File, unsigned Line) {
  auto It = Files.find(File);
  if (It == Files.end()) {
    std::vector<std::string> Lines;
    if (auto Buf = llvm::MemoryBuffer::getFile(File))
      Lines = splitLines((*Buf)->getBuffer());
    It = Files.emplace(File, std::move(Lines)).first;
  }
  if (Line == 0 || Line > It->second.size())
    return "";
  return It->second[Line - 1];
}

unsigned SourceLines::toCharacter(llvm::StringRef Text, unsigned Column) const {
  unsigned Bytes = Column ? Column - 1 : 0;
  if (Utf8)
    return Bytes;
  // UTF-16 code units of the bytes before the column: one per code point, two for those
  // above U+FFFF (four-byte sequences); continuation bytes count nothing.
  unsigned Units = 0;
  for (unsigned I = 0; I < Bytes; ++I) {
    unsigned char C = I < Text.size() ? static_cast<unsigned char>(Text[I]) : 'x';
    if ((C & 0xC0) == 0x80)
      continue;
    Units += C >= 0xF0 ? 2 : 1;
  }
  return Units;
}

unsigned SourceLines::toColumn(llvm::StringRef Text, unsigned Character) const {
  if (Utf8)
    return Character + 1;
  unsigned Units = 0, I = 0;
  while (I < Text.size() && Units < Character) {
    unsigned char C = static_cast<unsigned char>(Text[I]);
    unsigned Len = C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : C >= 0xC0 ? 2 : 1;
    Units += Len == 4 ? 2 : 1;
    I += Len;
  }
  return std::min<unsigned>(I, Text.size()) + (Units < Character ? Character - Units : 0) + 1;
}

llvm::json::Object SourceLines::range(const std::string &File, unsigned Line, unsigned Column) {
  llvm::StringRef Text = line(File, Line);
  unsigned L = Line ? Line - 1 : 0;
  unsigned Start = Column ? Column - 1 : 0, End = Start;
  // The token at the column: an identifier or number, else one character.
  auto Word = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  while (End < Text.size() && Word(Text[End]))
    ++End;
  if (End == Start && Start < Text.size())
    ++End;
  unsigned From = toCharacter(Text, Start + 1), To = toCharacter(Text, End + 1);
  if (To == From)
    ++To;
  return Object{{"start", Object{{"line", L}, {"character", From}}},
                {"end", Object{{"line", L}, {"character", To}}}};
}

int diagnosticSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Note:
    return 3;
  }
  return 2;
}

namespace {

bool samePath(const std::string &A, const std::string &B) {
  return A == B || (!A.empty() && !B.empty() && llvm::sys::fs::equivalent(A, B));
}

} // namespace

namespace {

/// The LSP diagnostic of one finding of Path's result, or none when it is another file's
/// (a finding elsewhere that is no error).
std::optional<Object> diagnosticFor(const Finding &F, const std::string &Path,
                                    SourceLines &Lines) {
  {
    bool Placeless = F.Pos.File.empty() || F.Pos.Line == 0;
    bool Elsewhere = !Placeless && !samePath(F.Pos.File, Path);
    // Another file's findings are that file's; its errors (a header that does not
    // compile) are this file's too, at its start, naming where they are.
    if (Elsewhere && F.Level != Severity::Error)
      return std::nullopt;
    std::string Message = F.Message;
    if (Elsewhere)
      Message = fmt::format("{}:{}:{}: {}", F.Pos.File, F.Pos.Line, F.Pos.Column, F.Message);
    Object D{{"range", Placeless || Elsewhere ? Lines.range(Path, 1, 1)
                                              : Lines.range(Path, F.Pos.Line, F.Pos.Column)},
             {"severity", diagnosticSeverity(F.Level)},
             {"source", "warplint"},
             {"message", Message}};
    if (!F.Check.empty()) {
      D["code"] = F.Check;
      if (findCheckDoc(F.Check))
        D["codeDescription"] = Object{{"href", checkDocUrl(F.Check)}};
    }
    Array Related;
    for (const FindingNote &N : F.Notes) {
      const std::string &File = N.Pos.File.empty() ? Path : N.Pos.File;
      unsigned Line = N.Pos.Line ? N.Pos.Line : 1, Column = N.Pos.Line ? N.Pos.Column : 1;
      Related.push_back(Object{
          {"location", Object{{"uri", pathToUri(File)}, {"range", Lines.range(File, Line, Column)}}},
          {"message", N.Message}});
    }
    if (!Related.empty())
      D["relatedInformation"] = std::move(Related);
    return D;
  }
}

} // namespace

llvm::json::Array diagnosticsFor(const RunResult &Result, const std::string &Path,
                                 SourceLines &Lines) {
  Array Out;
  for (const Finding &F : Result.Findings)
    if (std::optional<Object> D = diagnosticFor(F, Path, Lines))
      Out.push_back(std::move(*D));
  return Out;
}

llvm::json::Array codeActionsFor(const RunResult &Result, const std::string &Path,
                                 unsigned FirstLine, unsigned LastLine, SourceLines &Lines) {
  Array Out;
  for (const Finding &F : Result.Findings) {
    if (F.Fixes.empty() || !samePath(F.Pos.File, Path) || F.Pos.Line < FirstLine ||
        F.Pos.Line > LastLine)
      continue;
    std::optional<Object> D = diagnosticFor(F, Path, Lines);
    if (!D)
      continue;
    // One TextEdit per edit, by file (a fix may edit a header).
    std::map<std::string, Array> Changes;
    for (const FixEdit &E : F.Fixes) {
      auto At = [&](const SourcePos &P) {
        unsigned Char = Lines.toCharacter(Lines.line(E.File, P.Line), P.Column);
        return Object{{"line", int64_t(P.Line ? P.Line - 1 : 0)}, {"character", int64_t(Char)}};
      };
      Changes[pathToUri(E.File)].push_back(
          Object{{"range", Object{{"start", At(E.Begin)}, {"end", At(E.End)}}},
                 {"newText", E.Text}});
    }
    Object ByUri;
    for (auto &[Uri, Edits] : Changes)
      ByUri[Uri] = std::move(Edits);
    std::string Title = "warplint: apply the fix-it";
    if (F.Fixes.size() == 1)
      Title = fmt::format("warplint: replace with '{}'", F.Fixes.front().Text);
    Out.push_back(Object{{"title", Title},
                         {"kind", "quickfix"},
                         {"diagnostics", Array{std::move(*D)}},
                         {"isPreferred", true},
                         {"edit", Object{{"changes", std::move(ByUri)}}}});
  }
  return Out;
}

namespace {

std::string dimsText(const std::array<uint64_t, 3> &D) {
  if (D[1] == 1 && D[2] == 1)
    return std::to_string(D[0]);
  return fmt::format("{}x{}x{}", D[0], D[1], D[2]);
}

/// "registers down to 32 per thread gives 3 blocks per SM (50%); up to 40 keeps this".
std::string stepText(const NextStep &S, const GpuArch *Arch) {
  // The warp resource's value is the block's threads: say it as the block size.
  std::string Name = S.What == Resource::Warps ? "block size"
                     : Arch                    ? resourceLabel(S.What, *Arch)
                                               : resourceName(S.What);
  const bool Amd = Arch && Arch->isAmd();
  const char *Unit = Amd ? "workgroup" : "block";
  const char *Where = Amd ? "CU" : "SM";
  auto Value = [&](int64_t V) {
    switch (S.What) {
    case Resource::Registers:
      return Amd ? fmt::format("{} per lane", V) : fmt::format("{} per thread", V);
    case Resource::Sgprs:
      return fmt::format("{} per wave", V);
    case Resource::SharedMemory:
      return bytesText(static_cast<uint64_t>(V));
    case Resource::Warps:
      return fmt::format("{} threads", V);
    default:
      return std::to_string(V);
    }
  };
  std::string Out = Name + " " + Value(S.Current) + (S.Limiting ? " (limiter)" : "");
  if (S.GainAt)
    Out += fmt::format(": down to {} gives {} {}{} per {} ({})", Value(*S.GainAt),
                       S.GainBlocksPerSm, Unit, S.GainBlocksPerSm == 1 ? "" : "s", Where,
                       percentText(S.GainOccupancy));
  // A larger block that raises occupancy: the smallest that reaches the best; then only
  // where larger blocks fall below the current occupancy ("keeps it" would hide the gain).
  if (S.BestAt)
    Out += fmt::format("{} at {} {} {}{} per {} ({}), the best", S.GainAt ? ";" : ":",
                       Value(*S.BestAt), S.BestBlocksPerSm, Unit,
                       S.BestBlocksPerSm == 1 ? "" : "s", Where, percentText(S.BestOccupancy));
  if (!S.LossBlocksPerSm)
    return Out;
  // What a value past the headroom gives.
  std::string Loss = *S.LossBlocksPerSm == 0
                         ? std::string("the launch fails")
                         : fmt::format("{} {}{} per {} ({})", *S.LossBlocksPerSm, Unit,
                                       *S.LossBlocksPerSm == 1 ? "" : "s", Where,
                                       percentText(S.LossOccupancy));
  if (S.BestAt)
    Out += fmt::format("; beyond {} {}", Value(S.HeadroomUpTo), Loss);
  else
    Out += fmt::format("{} up to {} keeps it, beyond {}", S.GainAt ? ";" : ":",
                       Value(S.HeadroomUpTo), Loss);
  return Out;
}

} // namespace

std::string launchMarkdown(const LaunchRecord &L) {
  const GpuArch *Arch = L.Arch.empty() ? nullptr : findArch(L.Arch);
  std::string Out = fmt::format("**kernel launch** `{}`", L.Kernel ? *L.Kernel : "(not resolved)");
  if (!L.Arch.empty())
    Out += " on " + L.Arch;
  if (!L.Instantiation.empty())
    Out += fmt::format(" in `{}`", L.Instantiation);
  Out += "\n\n";
  auto Item = [&](const std::string &S) { Out += "- " + S + "\n"; };
  if (L.Block) {
    uint64_t Threads = (*L.Block)[0] * (*L.Block)[1] * (*L.Block)[2];
    Item(fmt::format("block {} = {} thread{}{}", dimsText(*L.Block), Threads,
                     Threads == 1 ? "" : "s",
                     L.WarpsPerBlock ? fmt::format(" ({} warp{})", *L.WarpsPerBlock,
                                                   *L.WarpsPerBlock == 1 ? "" : "s")
                                     : ""));
  } else {
    Item(fmt::format("block `{}`: not known at compile time", L.BlockText));
  }
  if (L.Grid)
    Item("grid " + dimsText(*L.Grid));
  else if (!L.GridText.empty())
    Item(fmt::format("grid `{}`: not known at compile time", L.GridText));
  if (L.DynamicSmemBytes)
    Item("dynamic shared memory " + bytesText(*L.DynamicSmemBytes));
  else if (L.DynamicSmemExpr && !L.DynamicSmemExpr->empty())
    Item(fmt::format("dynamic shared memory `{}`: not known at compile time", *L.DynamicSmemExpr));
  Item(L.StaticSmemBytes ? "static shared memory " + bytesText(*L.StaticSmemBytes)
                         : std::string("static shared memory not known"));
  if (L.Registers)
    Item(fmt::format("{} registers per thread (from {})", *L.Registers,
                     L.RegistersSource.empty() ? std::string("the compiler") : L.RegistersSource));
  else
    Item("registers not counted" +
         (L.RegistersMissing.empty() ? std::string() : ": " + L.RegistersMissing));
  if (L.SpillStoreBytes && (*L.SpillStoreBytes || L.SpillLoadBytes.value_or(0)))
    Item(fmt::format("spills {} B stores, {} B loads per thread", *L.SpillStoreBytes,
                     L.SpillLoadBytes.value_or(0)));
  if (L.LaunchBoundsMaxThreads)
    Item(fmt::format("`__launch_bounds__({}{})`", *L.LaunchBoundsMaxThreads,
                     L.LaunchBoundsMinBlocks ? fmt::format(", {}", *L.LaunchBoundsMinBlocks) : ""));
  Out += "\n";
  if (L.LaunchError) {
    Out += "**cannot launch**: " + *L.LaunchError + "\n";
    return Out;
  }
  if (!L.Occupancy || !L.BlocksPerSm) {
    Out += "no occupancy: " +
           std::string(!L.Block ? "the block is not known at compile time"
                       : Arch   ? "the dynamic shared memory is not known at compile time"
                                : "no target architecture") +
           "\n";
    return Out;
  }
  std::string Limiter =
      Arch ? limiterVerdict(*Arch, L.LimiterMask, L.Registers.has_value()) : std::string();
  Out += fmt::format("**occupancy {}** ({} of {} warps per SM, {} block{} per SM){}", 
                     percentText(*L.Occupancy), L.ActiveWarpsPerSm.value_or(0),
                     L.MaxWarpsPerSm.value_or(0), *L.BlocksPerSm, *L.BlocksPerSm == 1 ? "" : "s",
                     Limiter.empty() || Limiter == "no limiter" ? std::string() : ", " + Limiter);
  if (!L.Registers)
    Out += " (an upper bound)";
  Out += "\n";
  if (!L.Registers && L.RegisterBudget)
    Out += fmt::format("\nup to {} registers per thread keep {} block{} per SM\n", *L.RegisterBudget,
                       *L.BlocksPerSm, *L.BlocksPerSm == 1 ? "" : "s");
  if (!L.NextSteps.empty()) {
    Out += "\nnext steps:\n";
    for (const NextStep &S : L.NextSteps)
      if (S.GainAt || S.LossBlocksPerSm || S.BestAt)
        Out += "- " + stepText(S, Arch) + "\n";
  }
  return Out;
}

namespace {

std::string percentOf(double Fraction) { return fmt::format("{}%", std::lround(100.0 * Fraction)); }

std::string blockText(const std::array<unsigned, 3> &B) {
  return fmt::format("{}x{}x{}", B[0], B[1], B[2]);
}

} // namespace

std::string branchMarkdown(const BranchRecord &B) {
  std::string What = B.Kind == "loop"            ? "loop condition"
                     : B.Kind == "switch"        ? "switch"
                     : B.Kind == "?:"            ? "'?:'"
                     : B.Kind == "short-circuit" ? "short-circuit operand"
                                                 : "branch";
  std::string Out = fmt::format("**thread-dependent {}** `{}` in kernel `{}`: **{}**", What,
                                B.Condition, B.Kernel, B.Severity);
  if (B.Severity == "silent" && !B.Idiom.empty())
    Out += fmt::format(", kept silent by `{}`", B.Idiom);
  Out += "\n\n";
  std::string Unit = B.WaveSize == 32 ? "warps" : fmt::format("wavefronts of {} lanes", B.WaveSize);
  for (size_t I = 0; I < B.Shapes.size(); ++I) {
    const BranchShapeRecord &S = B.Shapes[I];
    std::string Item = "- block " + blockText(S.Block) +
                       (B.BlockAssumed ? " (assumed)"
                        : S.LaunchLine ? fmt::format(" (launch at line {})", S.LaunchLine)
                                       : std::string()) +
                       (B.Worst && *B.Worst == I && B.Shapes.size() > 1 ? ", the one quoted" : "");
    if (!S.Evaluated) {
      Out += Item + ": not evaluated\n";
      continue;
    }
    std::string Eff = percentOf(S.WorstEfficiency);
    if (percentOf(S.BestEfficiency) != Eff)
      Eff += " to " + percentOf(S.BestEfficiency);
    if (S.OverTrips)
      Eff += " over the loop's trips";
    Item += fmt::format(": diverges in {}{} of {} {}; predicted branch efficiency {}",
                        S.Varies ? "up to " : "", S.DivergentWarps, S.Warps, Unit, Eff);
    if (S.TrueLanesMin >= 0)
      Item += fmt::format("; lanes taking it {}{} of {}", S.TrueLanesMin,
                          S.TrueLanesMax != S.TrueLanesMin
                              ? fmt::format(" to {}", S.TrueLanesMax)
                              : std::string(),
                          uint64_t(S.Block[0]) * S.Block[1] * S.Block[2]);
    if (!S.Sampled.empty())
      Item += "; sampled: " + llvm::join(S.Sampled, ", ");
    Out += Item + "\n";
  }
  if (B.Shapes.empty())
    Out += "- not evaluated (the idiom or the data kept it from evaluation)\n";
  for (const std::string &Why : B.NoteReasons)
    Out += "\na note, not a warning: " + Why + "\n";
  if (B.FindingLine) {
    Out += fmt::format("\nwarplint-divergent-branch finding at line {}, column {}", B.FindingLine,
                       B.FindingColumn);
    if (B.Places > 1)
      Out += fmt::format(" ({} places with the same figures)", B.Places);
    if (B.FindingImpact)
      Out += fmt::format("; impact {:.2f} {} (rank {})", B.FindingImpact->Value,
                         B.FindingImpact->Unit, B.FindingImpact->Rank);
    Out += "\n";
  }
  return Out;
}

std::string syncMarkdown(const SyncRecord &S) {
  std::string Out = fmt::format("**{}** `{}` in kernel `{}`: **{}** ({})",
                                S.Check == "warplint-barrier-divergence" ? "barrier"
                                                                         : "warp-synchronous call",
                                S.Call, S.Kernel, S.Severity, S.Check);
  if (S.Mask)
    Out += fmt::format(", mask {:#010x}", *S.Mask);
  Out += "\n\n";
  uint64_t Threads = uint64_t(S.Block[0]) * S.Block[1] * S.Block[2];
  Out += "- block " + blockText(S.Block) + (S.BlockAssumed ? " (assumed)" : "") +
         (S.Values.empty() ? std::string() : ", when " + S.Values) + "\n";
  if (!S.Evaluated) {
    Out += "- who skips it depends on run-time values\n";
  } else {
    if (!S.SkippingThreads.empty())
      Out += fmt::format("- {} of {} threads skip it: {}\n", rangesCount(S.SkippingThreads),
                         Threads, rangesText(S.SkippingThreads));
    for (const auto &W : S.AbsentLanes)
      Out += fmt::format("- warp {}: named lanes {} do not take part\n", W[0],
                         rangesText(maskRanges(W[1])));
  }
  if (!S.Cause.empty())
    Out += (S.CauseLine ? fmt::format("\ncause (line {}): ", S.CauseLine) : std::string("\ncause: ")) +
           S.Cause + "\n";
  return Out;
}

std::string raceMarkdown(const RaceRecord &R) {
  std::string Out = fmt::format("**data race** on {} `{}` in kernel `{}`: **{}** ({})\n\n",
                                R.Space, R.Word, R.Kernel, R.Severity, R.Check);
  Out += fmt::format("- {} {}s it: `{}` (line {})\n", raceThreadText(R.Thread1, R),
                     R.First.Kind, R.First.Access, R.First.Pos.Line);
  Out += fmt::format("- {} {}s it: `{}` (line {})\n", raceThreadText(R.Thread2, R),
                     R.Second.Kind, R.Second.Access, R.Second.Pos.Line);
  Out += "- block " + blockText(R.Block) + (R.BlockAssumed ? " (assumed)" : "") +
         (R.Values.empty() ? std::string()
                           : ", when " + R.Values + (R.ValuesSampled ? " (sampled)" : "")) +
         "\n";
  Out += "- certainty: " + R.Certainty + "\n";
  Out += "- separated by: " +
         (R.Barrier.empty() ? std::string("no barrier (threads of different blocks)")
                            : "`" + R.Barrier + "`") +
         "\n";
  if (R.MorePairs)
    Out += fmt::format("- {} more pair{} of accesses to `{}` race in the same interval\n",
                       R.MorePairs, R.MorePairs > 1 ? "s" : "", R.Object);
  Out += "\n" + R.Fix + "\n";
  if (!R.ArchNote.empty() && R.ArchNote != R.Fix)
    Out += "\n" + R.ArchNote + "\n";
  if (!R.NoteReason.empty())
    Out += "\na note, not a warning: " + R.NoteReason + "\n";
  if (R.FindingImpact)
    Out += fmt::format("\nimpact {:.2f} {} (rank {})\n", R.FindingImpact->Value,
                       R.FindingImpact->Unit, R.FindingImpact->Rank);
  return Out;
}

std::optional<LaunchHover> hoverAt(const RunResult &Result, const std::string &Path,
                                   unsigned Line, unsigned Column) {
  // The records that start on the line (launches, branches, sync calls, the accesses of
  // races); with several at
  // different columns, the last one that starts at or before the cursor (else the first).
  struct OnLine {
    unsigned Column;
    std::string Markdown;
  };
  std::vector<OnLine> Here;
  for (const LaunchRecord &L : Result.Launches)
    if (L.Pos.Line == Line && samePath(L.Pos.File, Path))
      Here.push_back({L.Pos.Column, launchMarkdown(L)});
  for (const BranchRecord &B : Result.Branches)
    if (B.Pos.Line == Line && samePath(B.Pos.File, Path))
      Here.push_back({B.Pos.Column, branchMarkdown(B)});
  for (const SyncRecord &S : Result.Syncs)
    if (S.Pos.Line == Line && samePath(S.Pos.File, Path))
      Here.push_back({S.Pos.Column, syncMarkdown(S)});
  // A race on both its accesses' lines (one entry where both are one access).
  for (const RaceRecord &R : Result.Races)
    for (const SourcePos *P : {&R.First.Pos, &R.Second.Pos})
      if (P->Line == Line && samePath(P->File, Path) &&
          (P == &R.First.Pos || R.First.Pos.Line != R.Second.Pos.Line ||
           R.First.Pos.Column != R.Second.Pos.Column))
        Here.push_back({P->Column, raceMarkdown(R)});
  if (Here.empty())
    return std::nullopt;
  unsigned First = Here.front().Column, At = 0;
  for (const OnLine &O : Here) {
    First = std::min(First, O.Column);
    if (O.Column <= Column)
      At = std::max(At, O.Column);
  }
  if (At == 0)
    At = First;
  LaunchHover H;
  H.Line = Line;
  H.Column = At;
  for (const OnLine &O : Here)
    if (O.Column == At) {
      if (!H.Markdown.empty())
        H.Markdown += "\n---\n\n";
      H.Markdown += O.Markdown;
    }
  return H;
}

} // namespace warplint::driver::lsp
