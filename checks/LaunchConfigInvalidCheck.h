//===- LaunchConfigInvalidCheck.h - warplint-launch-config-invalid --*- C++ -*-===//
#pragma once

#include "clang-tidy/ClangTidyCheck.h"

#include <string>

namespace clang::tidy::warplint {

/// Finds kernel launches that cannot run on the target architecture: block or grid
/// dimensions over their limits, more threads than a block or `__launch_bounds__` allows,
/// or more shared memory than the block may have with or without the opt-in.
class LaunchConfigInvalidCheck final : public ClangTidyCheck {
public:
  LaunchConfigInvalidCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool silenced(SourceLocation Loc, const SourceManager &SM) const;
  const std::string Name;
  std::string Arch; ///< overrides the TU's device arch when set ("sm_86")
};

} // namespace clang::tidy::warplint
