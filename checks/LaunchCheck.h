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
#include "checks/AnalysisNames.h"
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
    return readBoolOption(Options, Key, Default, getID(),
                          [&](StringRef M) { return configurationDiag(M); });
  }
  /// A percentage option as a fraction ("50", "50%"); a bad value is warned about with
  /// Message (%0 the option, %1 its text, %2 the check, %3 DefaultText) and DefaultText
  /// used. \p Text receives the text used, for storeOptions.
  double readPercent(StringRef Key, StringRef DefaultText, const char *Message,
                     std::string &Text) {
    return readCheckedOption(Options, Key, DefaultText, parsePercent, Message, getID(),
                             [&](StringRef M) { return configurationDiag(M); }, &Text);
  }
  /// "invalid MinOccupancy 'lots' for warplint-occupancy: a percentage 0-100; using 50".
  static constexpr const char *InvalidPercent =
      "invalid %0 '%1' for %2: a percentage 0-100; using %3";

  /// Says the model's problems with the run's options (configuration warnings), once.
  void sayProblems(TuModel &M) {
    for (const std::string &P : M.takeProblems())
      configurationDiag("%0") << P;
  }
  /// What the occupancy checks start from: the TU's launches, with the compiler's answer
  /// to every "fewer registers" step (one run for the TU) and the model's problems said;
  /// nullptr when the TU launches nothing.
  const std::vector<LaunchModel> *advisedLaunches(TuModel &M) {
    if (M.facts().Launches.empty())
      return nullptr;
    const std::vector<LaunchModel> &Launches = M.launches();
    M.verifyAdvice();
    sayProblems(M);
    return &Launches;
  }
  /// A finding on one of the launches through a local function pointer that can hold
  /// several kernels (the finding names the kernel): a note that names the pointer.
  void viaNote(const LaunchSite &S) {
    if (S.Candidates)
      diag(S.Loc, "launched through the function pointer '%0', which can hold %1 kernels "
                  "here; this finding is for one of them",
           DiagnosticIDs::Note)
          << S.Via << S.Candidates;
  }
  /// A launch the check leaves out: no source location, or an ignored kernel.
  bool leftOut(const LaunchModel &L) const {
    return L.Site->Loc.isInvalid() || Ignored.ignores(L.name());
  }

  ModelOptions Model;   ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  const Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::warplint
