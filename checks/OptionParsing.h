//===- OptionParsing.h - check options read as text, checked -*- C++ -*-===//
//
// Options are read as text (OptionsView's bool specialisations are mangled differently by
// g++, this build, and clang, clang-tidy's build) and checked here, so that every check
// refuses a bad value the same way: a configuration warning in the style number options
// use ("invalid MinOccupancy '%0' for %1: a percentage 0-100; using 50") and the default.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang::tidy::warplint {

/// A boolean option's text: true or false (any case), 1 or 0, spaces around ignored;
/// nullopt for anything else ("maybe", "banana", "yes", "").
inline std::optional<bool> parseBoolOption(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.equals_insensitive("true") || Text == "1")
    return true;
  if (Text.equals_insensitive("false") || Text == "0")
    return false;
  return std::nullopt;
}

/// A percentage option ("25", "25%"; "0.25" is read as 0.25%) as a fraction: nullopt
/// when it is not a number from 0 to 100.
inline std::optional<double> parsePercent(llvm::StringRef Text) {
  llvm::StringRef T = Text.trim();
  T.consume_back("%");
  double V = 0;
  if (T.trim().getAsDouble(V) || V < 0 || V > 100)
    return std::nullopt;
  return V / 100.0;
}

/// The configuration warning for a bad boolean: %0 the option, %1 its text, %2 the check,
/// %3 the default used.
inline constexpr const char *InvalidBoolOption =
    "invalid %0 '%1' for %2: true, false, 1 or 0; using %3";

/// Reads boolean option Key as a check does: \p Get gives the option's text (with
/// Default's spelling as the fallback), \p Diag is the check's configurationDiag. A bad
/// value is warned about once per check instance, and Default is used.
///
///   Flag(readBoolOption("ReportX", false, Name,
///                       [&](llvm::StringRef K, llvm::StringRef D) { return Options.get(K, D); },
///                       [&](llvm::StringRef M) { return configurationDiag(M); }))
template <typename GetFn, typename DiagFn>
bool readBoolOption(llvm::StringRef Key, bool Default, llvm::StringRef CheckName, GetFn &&Get,
                    DiagFn &&Diag) {
  const char *DefaultText = Default ? "true" : "false";
  std::string Text = llvm::StringRef(Get(Key, DefaultText)).str();
  if (std::optional<bool> V = parseBoolOption(Text))
    return *V;
  Diag(InvalidBoolOption) << Key << Text << CheckName << DefaultText;
  return Default;
}

} // namespace clang::tidy::warplint
