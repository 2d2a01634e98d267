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
#include "model/Records.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <map>
#include <string>
#include <vector>

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

  /// The launches a check reports on, those of one launch site with the same figures on
  /// every arch together (a template's instantiations that use the same registers and
  /// shared memory: flashinfer's 16 decode kernels at one dispatch): one root cause, one
  /// finding, the others named in a note (sameFiguresNote). First-seen order; launches
  /// left out (leftOut) are not in any group.
  struct SameFigures {
    const LaunchModel *First = nullptr;
    std::vector<const LaunchModel *> Others;
  };
  std::vector<SameFigures> groupSameFigures(const std::vector<LaunchModel> &Launches) const {
    std::vector<SameFigures> Groups;
    std::map<std::string, size_t> Index;
    for (const LaunchModel &L : Launches) {
      if (leftOut(L))
        continue;
      auto [It, New] = Index.emplace(figuresKey(L), Groups.size());
      if (New)
        Groups.push_back({&L, {}});
      else
        Groups[It->second].Others.push_back(&L);
    }
    return Groups;
  }
  /// After a group's finding: "the same figures for 3 more kernels launched here: 'K<1>',
  /// 'K<2>' and 'K<3>'" (at most three named).
  void sameFiguresNote(const SameFigures &G) {
    if (G.Others.empty())
      return;
    std::string Names;
    for (size_t I = 0; I < G.Others.size() && I < 3; ++I)
      Names += (I == 0 ? "'" : I + 1 == G.Others.size() ? " and '" : ", '") +
               G.Others[I]->name() + "'";
    if (G.Others.size() > 3)
      Names += " and " + std::to_string(G.Others.size() - 3) + " more";
    diag(G.First->Site->Loc, "the same figures for %0 more kernel%s0 launched here: %1",
         DiagnosticIDs::Note)
        << unsigned(G.Others.size()) << Names;
  }

  /// Every figure an occupancy or cliff finding of L says, on each arch, with the place.
  static std::string figuresKey(const LaunchModel &L) {
    std::string K = std::to_string(L.Site->Loc.getRawEncoding()) + "|" + L.MatchNote + "|" +
                    std::to_string(L.Site->Candidates) + "|";
    if (L.Kernel && L.Kernel->WavesPerEuMin)
      K += "w" + std::to_string(*L.Kernel->WavesPerEuMin);
    auto Add = [&K](auto V) { K += std::to_string(V) + ","; };
    for (const LaunchFigures &E : L.PerArch) {
      K += std::string("|") + (E.Arch ? E.Arch->Name : "?") + ":";
      const ::warplint::KernelResources &R = E.Resources;
      for (auto V : {int64_t(R.RegistersPerThread), int64_t(R.StaticSharedBytes),
                     int64_t(R.Barriers), int64_t(R.LaunchBoundsMaxThreads),
                     int64_t(R.LaunchBoundsMinBlocks), int64_t(R.OptinDynamicSharedBytes),
                     int64_t(R.CarveoutPercent), int64_t(R.SharedSplitBytes),
                     int64_t(R.VirtualResources), int64_t(R.Vgprs), int64_t(R.Sgprs)})
        Add(V);
      Add(int(E.registersKnown()));
      Add(int(E.ByBaseName));
      auto AddResult = [&](const std::optional<::warplint::OccupancyResult> &O) {
        if (!O) {
          K += "-;";
          return;
        }
        for (auto V : {int64_t(O->ThreadsPerBlock), int64_t(O->BlocksPerSm),
                       int64_t(O->ActiveWarpsPerSm), int64_t(O->MaxWarpsPerSm),
                       int64_t(O->WavesPerSimd), int64_t(O->Limiters),
                       int64_t(O->canLaunch())})
          Add(V);
        Add(O->Occupancy);
        K += ";";
      };
      AddResult(E.Result);
      AddResult(E.Ceiling);
      AddResult(E.Uncapped);
      for (const ::warplint::NextStep &S : E.Steps) {
        for (auto V : {int64_t(S.What), int64_t(S.Limiting), S.Current,
                       S.GainAt.value_or(-1), int64_t(S.GainBlocksPerSm), S.HeadroomUpTo,
                       int64_t(S.LossBlocksPerSm.value_or(-1)), S.BestAt.value_or(-1)})
          Add(V);
        Add(S.GainOccupancy);
        Add(S.LossOccupancy);
        K += ";";
      }
      if (E.Verified)
        K += ::warplint::verifiedAdviceText(*E.Verified, E.Arch && E.Arch->isAmd());
    }
    return K;
  }

  ModelOptions Model;   ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  const Preprocessor *PP = nullptr;
};

} // namespace clang::tidy::warplint
