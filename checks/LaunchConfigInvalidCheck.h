//===- LaunchConfigInvalidCheck.h - warplint-launch-config-invalid --*- C++ -*-===//
#pragma once

#include "resources/ResourceOptions.h"

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
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool silenced(SourceLocation Loc, const SourceManager &SM) const;
  const std::string Name;
  std::string Arch; ///< overrides the TU's device arch when set ("sm_86")
  /// Registers from ptxas (RegisterSource, PtxasLog, Objects, ...): registers x threads
  /// over the register file, and the spills, per arch of the source.
  ResourceOptions Sources;
  const Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::warplint
