//===- DivergentBranchCheck.h - warplint-divergent-branch ----------*- C++ -*-===//
#pragma once

#include "model/KernelFilter.h"
#include "checks/AnalysisNames.h"
#include "model/Branches.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

/// Finds branches whose condition splits the lanes of a warp, evaluated lane by lane for
/// every warp of the kernel's block shape, and stays quiet on the usual idioms.
class DivergentBranchCheck final : public ClangTidyCheck {
public:
  DivergentBranchCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A boolean option, checked (checks/OptionParsing.h), false by default.
  bool readFlag(StringRef Key);

  ModelOptions Model;   ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  /// The options the model decides each branch's verdict with (model/Branches.h).
  BranchOptions Branches;
  std::optional<unsigned> AssumedBlockSize; ///< the per-check alias (nullopt: unset)
  bool AnyKernel = false; ///< a kernel definition of this TU that is not ignored
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::warplint
