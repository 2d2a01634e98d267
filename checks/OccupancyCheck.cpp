//===- OccupancyCheck.cpp - warplint-occupancy -----------------------------===//
#include "checks/OccupancyCheck.h"

#include "model/Facts.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {
const char *blocksWord(int N) { return N == 1 ? "block" : "blocks"; }
} // namespace

std::optional<double> parsePercent(llvm::StringRef Text) {
  llvm::StringRef T = Text.trim();
  T.consume_back("%");
  double V = 0;
  if (T.trim().getAsDouble(V) || V < 0 || V > 100)
    return std::nullopt;
  return V / 100.0;
}

std::string limiterText(const wl::GpuArch &Arch, const wl::OccupancyResult &R,
                        bool RegistersKnown) {
  std::vector<std::string> Parts;
  for (unsigned I = 0; I < wl::NumResources; ++I) {
    auto Res = static_cast<wl::Resource>(I);
    if (R.isLimitedBy(Res))
      Parts.push_back(wl::resourceLabel(Res, Arch));
  }
  std::string S = llvm::join(Parts, " and ");
  if (!RegistersKnown)
    S += " (registers not counted: unknown)";
  return S;
}

std::string nextStepText(const wl::GpuArch &Arch, const wl::KernelResources &Res,
                         const wl::LaunchShape &Shape, const wl::OccupancyResult &R) {
  std::vector<wl::NextStep> Steps = wl::nextSteps(Arch, Res, Shape);
  auto Find = [&](wl::Resource What) -> const wl::NextStep * {
    for (const wl::NextStep &S : Steps)
      if (S.What == What)
        return &S;
    return nullptr;
  };
  std::string Threads = std::to_string(R.ThreadsPerBlock);
  std::string Now = std::to_string(R.BlocksPerSm) + " " + blocksWord(R.BlocksPerSm) +
                    "/SM (" + percent(R.Occupancy) + ")";
  auto Gain = [](const wl::NextStep &S) {
    return std::to_string(S.GainBlocksPerSm) + " (" + percent(S.GainOccupancy) + ")";
  };
  if (R.isLimitedBy(wl::Resource::Registers) && Res.RegistersPerThread > 0) {
    const wl::NextStep *S = Find(wl::Resource::Registers);
    std::string Text = std::to_string(Res.RegistersPerThread) + " registers/thread limit this " +
                       Threads + "-thread block to " + Now;
    if (S && S->GainAt)
      Text += "; at " + std::to_string(*S->GainAt) + " registers it keeps " + Gain(*S);
    return Text;
  }
  if (R.isLimitedBy(wl::Resource::SharedMemory)) {
    const wl::NextStep *S = Find(wl::Resource::SharedMemory);
    std::string Text = std::to_string(Res.StaticSharedBytes + Shape.DynamicSharedBytes) +
                       " bytes of shared memory per block limit this " + Threads +
                       "-thread block to " + Now;
    if (S && S->GainAt)
      Text += "; at " + std::to_string(*S->GainAt) + " bytes it keeps " + Gain(*S);
    return Text;
  }
  if (R.isLimitedBy(wl::Resource::Blocks)) {
    return "the limit of " + std::to_string(Arch.MaxBlocksPerSm) + " blocks/SM leaves " +
           Threads + "-thread blocks at " + std::to_string(R.ActiveWarpsPerSm) +
           " warps/SM; larger blocks fill more warp slots";
  }
  if (R.isLimitedBy(wl::Resource::Warps)) {
    const wl::NextStep *S = Find(wl::Resource::Warps);
    std::string Text = Threads + "-thread blocks fit " + Now + " by warp slots";
    if (S && S->GainAt)
      Text += "; " + std::to_string(*S->GainAt) + "-thread blocks keep " + Gain(*S);
    return Text;
  }
  return "";
}

OccupancyCheck::OccupancyCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinOccupancyText(Options.get("MinOccupancy", "50").str()), MinOccupancy(0.5),
      Arch(Options.get("Arch", "").str()) {
  Sources.read(Options);
  if (std::optional<double> V = parsePercent(MinOccupancyText))
    MinOccupancy = *V;
  else
    configurationDiag("invalid MinOccupancy '%0' for %1: a percentage 0-100; using 50")
        << MinOccupancyText << Name;
}

void OccupancyCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinOccupancy", MinOccupancyText);
  Options.store(Opts, "Arch", Arch);
  Sources.store(Options, Opts);
}

void OccupancyCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void OccupancyCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  TUFacts Facts = collectFacts(Ctx);
  if (Facts.Launches.empty())
    return;
  ResourceProvider Provider(Sources);
  for (const std::string &M : Provider.load(Ctx, PP, Facts.Arch))
    configurationDiag("%0: %1") << "warplint-occupancy" << M;
  std::string FallbackArch = Arch.empty() ? Facts.Arch : Arch;

  for (const LaunchSite &L : Facts.Launches) {
    if (!L.Block.known() || L.Loc.isInvalid() || !L.DynamicSmem.Bytes)
      continue;
    const KernelInfo *K = L.Kernel ? Facts.kernel(L.Kernel) : nullptr;
    std::string MatchNote;
    std::vector<ArchEvaluation> Evals =
        Provider.evaluate(K, L.MangledName, FallbackArch, &MatchNote);
    const auto &B = *L.Block.Dims;
    wl::LaunchShape Shape = wl::LaunchShape::block(
        wl::Dim3{int64_t(B[0]), int64_t(B[1]), int64_t(B[2])}, *L.DynamicSmem.Bytes);
    for (const ArchEvaluation &E : Evals) {
      wl::OccupancyResult R = wl::computeOccupancy(*E.Arch, E.Resources, Shape);
      if (!R.canLaunch() || R.Occupancy >= MinOccupancy)
        continue;
      // __launch_bounds__(N, minBlocks) met: the occupancy was asked for, not an accident.
      if (E.Resources.LaunchBoundsMinBlocks > 0 &&
          R.BlocksPerSm >= E.Resources.LaunchBoundsMinBlocks)
        continue;
      bool Known = E.Figures != nullptr;
      diag(L.Loc, "occupancy %0 for '%1' on %2: %3 of %4 warps per SM with %5-thread blocks, "
                  "below the %6 minimum; limited by %7")
          << percent(R.Occupancy) << (K ? K->Name : L.KernelName) << E.Arch->Name
          << R.ActiveWarpsPerSm << R.MaxWarpsPerSm << R.ThreadsPerBlock
          << percent(MinOccupancy) << limiterText(*E.Arch, R, Known);
      std::string Step = nextStepText(*E.Arch, E.Resources, Shape, R);
      if (!Step.empty())
        diag(L.Loc, "%0", DiagnosticIDs::Note) << Step;
      if (Known) {
        diag(L.Loc, "%0", DiagnosticIDs::Note) << describeSource(E);
      } else {
        // The register budget: how many registers keep this occupancy.
        wl::KernelResources One = E.Resources;
        One.RegistersPerThread = 1;
        for (const wl::NextStep &S : wl::nextSteps(*E.Arch, One, Shape))
          if (S.What == wl::Resource::Registers && S.LossBlocksPerSm)
            diag(L.Loc,
                 "registers unknown: up to %0 registers/thread keep this; at %1 it drops to "
                 "%2 block%s2/SM",
                 DiagnosticIDs::Note)
                << int(S.HeadroomUpTo) << int(S.HeadroomUpTo + 1) << *S.LossBlocksPerSm;
        if (!MatchNote.empty())
          diag(L.Loc, "%0", DiagnosticIDs::Note) << MatchNote;
      }
      if (!L.Instantiation.empty())
        diag(L.Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Instantiation;
    }
  }
}

} // namespace clang::tidy::warplint
