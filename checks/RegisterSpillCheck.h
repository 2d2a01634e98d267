//===- RegisterSpillCheck.h - warplint-register-spill ---------------*- C++ -*-===//
#pragma once

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

struct KernelInfo;
struct KernelArchFigures;

/// Finds kernels that ptxas made spill registers to local memory, with the bytes, the
/// architecture and, where the source shows it, the cap that forces the spills.
class RegisterSpillCheck final : public ClangTidyCheck {
public:
  RegisterSpillCheck(StringRef Name, ClangTidyContext *Context);
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
  void report(SourceLocation Loc, const KernelInfo *K, const std::string &Name,
              const KernelArchFigures &F);
  void reportAmd(SourceLocation Loc, const KernelInfo *K, const std::string &Name,
                 const KernelArchFigures &F);

  ModelOptions Model; ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  uint64_t MinSpillBytes = 1; ///< stores + loads per thread, bytes
  const Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::warplint
