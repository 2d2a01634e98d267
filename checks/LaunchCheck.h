//===- LaunchCheck.h - what the launch and kernel checks share ------*- C++ -*-===//
//
// The six checks that read the TU's launches and kernels from the model
// (block-size-warp-multiple, launch-config-invalid, occupancy, occupancy-cliff,
// partial-wave, register-spill) share their setup: CUDA (and HIP) only, the run's model
// options (warplint.*), IgnoredKernels, the preprocessor the nvcc register source reads
// -I/-D from, and boolean options read the checked way. The two memory checks share
// MemoryAccessCheck (checks/MemoryAccessReport.h) the same way.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "model/KernelFilter.h"
#include "checks/OptionParsing.h"
#include "model/ModelOptions.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

class LaunchCheck : public ClangTidyCheck {
public:
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  /// Stores IgnoredKernels; a check with options of its own stores them after calling this.
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "IgnoredKernels", Ignored.text());
  }
  /// One match per translation unit: the checks read the TU's model, not the AST.
  void registerMatchers(ast_matchers::MatchFinder *Finder) final {
    Finder->addMatcher(ast_matchers::translationUnitDecl().bind("tu"), this);
  }
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final {
    checkTu(TuModel::of(*Result.Context, PP, Model), *Result.Context);
  }

protected:
  /// The check on the TU's one model (built with the run's options on first use).
  virtual void checkTu(TuModel &M, ASTContext &Ctx) = 0;

  LaunchCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context),
        Model(ModelOptions::read(Context->getOptions().CheckOptions)),
        Ignored(Options.get("IgnoredKernels", "")) {}

  /// A boolean option of the check (true/false, 1/0; anything else warned about once and
  /// Default used).
  bool readFlag(StringRef Key, bool Default) {
    return readBoolOption(
        Key, Default, getID(), [&](StringRef K, StringRef D) { return Options.get(K, D); },
        [&](StringRef M) { return configurationDiag(M); });
  }

  ModelOptions Model;   ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  const Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::warplint
