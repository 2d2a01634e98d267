//===- SharedBankConflictCheck.h - warplint-shared-bank-conflict ----*- C++ -*-===//
#pragma once

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

/// Finds shared-memory loads and stores whose lanes hit the same bank at different words,
/// so that a warp needs more wavefronts than the bytes it moves, evaluated lane by lane
/// for every warp of the kernel's block shapes.
class SharedBankConflictCheck final : public ClangTidyCheck {
public:
  SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  ModelOptions Model;
  KernelFilter Ignored;
  double MinConflictWays;
  DiagnosticIDs::Level Level;
  std::string SeverityText;
  unsigned AssumedBlockSize;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::warplint
