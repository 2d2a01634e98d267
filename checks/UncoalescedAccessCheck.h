//===- UncoalescedAccessCheck.h - warplint-uncoalesced-access -------*- C++ -*-===//
#pragma once

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <vector>

namespace clang::tidy::warplint {

/// Finds global loads and stores whose warps touch more 32-byte sectors than the bytes
/// they move need, evaluated lane by lane for every warp of the kernel's block shapes.
class UncoalescedAccessCheck final : public ClangTidyCheck {
public:
  UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  ModelOptions Model; ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored;
  double MinSectorRatio;
  DiagnosticIDs::Level Level;            ///< Severity
  std::optional<DiagnosticIDs::Level> MisalignmentLevel; ///< none: not reported
  std::string SeverityText, MisalignmentText;
  unsigned AssumedBlockSize;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::warplint
