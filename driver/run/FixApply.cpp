//===- FixApply.cpp - apply the findings' fix-its to the files, export them ===//
#include "driver/run/FixApply.h"

#include "driver/formats/Formats.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

namespace warplint::driver {

namespace {

clang::tooling::Replacement replacementOf(const FixEdit &E) {
  return clang::tooling::Replacement(E.File, E.Offset, E.Length, E.Text);
}

} // namespace

FixSummary applyFixes(const RunResult &R) {
  FixSummary S;
  // Per file: the replacements taken so far, and the edits already in (a fix that several
  // findings carry, such as one padding for two accesses of an array, is applied once).
  std::map<std::string, clang::tooling::Replacements> ByFile;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  for (const Finding &F : R.Findings) {
    if (F.Fixes.empty())
      continue;
    std::map<std::string, clang::tooling::Replacements> Trial = ByFile;
    bool Ok = true, New = false;
    for (const FixEdit &E : F.Fixes) {
      if (Seen.count({E.File, E.Offset, E.Length, E.Text}))
        continue;
      New = true;
      if (llvm::Error Err = Trial[E.File].add(replacementOf(E))) {
        llvm::consumeError(std::move(Err));
        Ok = false;
        break;
      }
    }
    if (!New)
      continue;
    if (!Ok) {
      ++S.Conflicts;
      continue;
    }
    ByFile = std::move(Trial);
    for (const FixEdit &E : F.Fixes)
      Seen.insert({E.File, E.Offset, E.Length, E.Text});
    ++S.Applied;
  }
  for (const auto &[File, Reps] : ByFile) {
    if (Reps.empty())
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      S.Errors.push_back(fmt::format("cannot read {}: {}", File, Buf.getError().message()));
      continue;
    }
    llvm::Expected<std::string> Fixed =
        clang::tooling::applyAllReplacements((*Buf)->getBuffer(), Reps);
    if (!Fixed) {
      S.Errors.push_back(fmt::format("cannot apply the fixes to {}: {}", File,
                                     llvm::toString(Fixed.takeError())));
      continue;
    }
    std::string Err;
    if (!writeFileAtomically(File, *Fixed, Err)) {
      S.Errors.push_back(Err);
      continue;
    }
    ++S.Files;
  }
  return S;
}

std::string fixSummaryText(const FixSummary &S) {
  std::string T = fmt::format("applied {} fix{} in {} file{}", S.Applied,
                              S.Applied == 1 ? "" : "es", S.Files, S.Files == 1 ? "" : "s");
  if (S.Conflicts)
    T += fmt::format("; {} fix{} left out: {} another fix's edit", S.Conflicts,
                     S.Conflicts == 1 ? "" : "es", S.Conflicts == 1 ? "it overlaps" : "they overlap");
  return T;
}

std::string exportFixesYaml(const RunResult &R) {
  clang::tooling::TranslationUnitDiagnostics TU;
  for (const Finding &F : R.Findings) {
    if (F.Fixes.empty())
      continue;
    clang::tooling::Diagnostic D;
    D.DiagnosticName = F.Check;
    D.DiagLevel = F.Level == Severity::Error     ? clang::tooling::Diagnostic::Error
                  : F.Level == Severity::Warning ? clang::tooling::Diagnostic::Warning
                                                 : clang::tooling::Diagnostic::Remark;
    D.Message.Message = F.Message;
    D.Message.FilePath = F.Pos.File;
    for (const FixEdit &E : F.Fixes) {
      llvm::Error Err = D.Message.Fix[E.File].add(replacementOf(E));
      llvm::consumeError(std::move(Err));
    }
    TU.Diagnostics.push_back(std::move(D));
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output Y(OS);
  Y << TU;
  return Out;
}

} // namespace warplint::driver
