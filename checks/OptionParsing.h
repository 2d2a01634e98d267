//===- OptionParsing.h - check options read typed, bad values refused -*- C++ -*-===//
//
// How every check reads its options, so that each refuses a bad value the same way:
// - integers: OptionsView::get<T> (clang-tidy's "invalid configuration value ...;
//   expected an integer" and the default);
// - enumerations: OptionsView::get<T> through OptionEnumMapping (clang-tidy's "invalid
//   configuration value ..." with a "did you mean" where one is close);
// - booleans, percentages and ratios: readCheckedOption below, the one place their text is
//   read, with a configuration warning in the style "invalid MinOccupancy 'lots' for
//   warplint-occupancy: a percentage 0-100; using 50" and the default. Booleans are read
//   as text because OptionsView::get<bool> is a specialisation that g++ (this build) and
//   clang (clang-tidy's build) mangle differently: it does not link from the plugin.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/Basic/DiagnosticIDs.h"
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

/// A ratio option (a number from 1 to 1024); nullopt when not one.
inline std::optional<double> parseRatio(llvm::StringRef Text) {
  double V = 0;
  if (Text.trim().getAsDouble(V) || !(V >= 1.0) || V > 1024)
    return std::nullopt;
  return V;
}

/// The configuration warning for a bad boolean: %0 the option, %1 its text, %2 the check,
/// %3 the default used.
inline constexpr const char *InvalidBoolOption =
    "invalid %0 '%1' for %2: true, false, 1 or 0; using %3";

/// Reads option Key of a check (its Options) as text and gives it to Parse (nullopt: not
/// a valid value). A bad value is warned about through Diag (the check's
/// configurationDiag) with Message, whose %0 to %3 are the option, its text, the check and
/// DefaultText, and Parse(DefaultText) is used. \p Used, when given, receives the text
/// whose value is used (for storeOptions).
template <typename ParseFn, typename DiagFn>
auto readCheckedOption(const ClangTidyCheck::OptionsView &Options, llvm::StringRef Key,
                       llvm::StringRef DefaultText, ParseFn &&Parse, const char *Message,
                       llvm::StringRef CheckName, DiagFn &&Diag, std::string *Used = nullptr)
    -> std::decay_t<decltype(*Parse(DefaultText))> {
  std::string Text = Options.get(Key, DefaultText).str();
  auto V = Parse(Text);
  if (!V) {
    Diag(Message) << Key << Text << CheckName << DefaultText;
    Text = DefaultText.str();
    V = Parse(Text);
  }
  if (Used)
    *Used = Text;
  return *V;
}

/// Reads boolean option Key: true/false (any case), 1 or 0; anything else is warned about
/// once per check instance (InvalidBoolOption) and Default used.
template <typename DiagFn>
bool readBoolOption(const ClangTidyCheck::OptionsView &Options, llvm::StringRef Key,
                    bool Default, llvm::StringRef CheckName, DiagFn &&Diag) {
  return readCheckedOption(Options, Key, Default ? "true" : "false", parseBoolOption,
                           InvalidBoolOption, CheckName, Diag);
}

/// How a memory check says a finding: a warning, a note (a clang remark, shown as a note
/// by the driver), or not at all where an option allows it.
enum class FindingSeverity { Warning, Note, None };

/// The level a finding of Severity S is said at; nullopt for None.
inline std::optional<DiagnosticIDs::Level> severityLevel(FindingSeverity S) {
  switch (S) {
  case FindingSeverity::Warning:
    return DiagnosticIDs::Warning;
  case FindingSeverity::Note:
    return DiagnosticIDs::Remark;
  case FindingSeverity::None:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace clang::tidy::warplint

namespace clang::tidy {
template <> struct OptionEnumMapping<warplint::FindingSeverity> {
  static llvm::ArrayRef<std::pair<warplint::FindingSeverity, llvm::StringRef>>
  getEnumMapping() {
    static constexpr std::pair<warplint::FindingSeverity, llvm::StringRef> Mapping[] = {
        {warplint::FindingSeverity::Warning, "warning"},
        {warplint::FindingSeverity::Note, "note"},
        {warplint::FindingSeverity::None, "none"}};
    return Mapping;
  }
};
} // namespace clang::tidy
