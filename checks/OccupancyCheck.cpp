//===- OccupancyCheck.cpp - warplint-occupancy -----------------------------===//
#include "checks/OccupancyCheck.h"
#include "checks/AnalysisNames.h"

#include "model/TuModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {
const char *blocksWord(int N) { return N == 1 ? "block" : "blocks"; }
} // namespace

// Without the registers, whose count may allow fewer blocks, the figures are upper bounds:
// "occupancy at most 28.1% ...: at most 18 of 64 warps per SM" (the verdict below a
// minimum holds whatever the registers).
static std::string occupancyText(const LaunchFigures &E) {
  return (E.registersKnown() ? "" : "at most ") + wl::percentText(E.Result->Occupancy);
}
static std::string warpsText(const LaunchFigures &E) {
  return (E.registersKnown() ? "" : "at most ") +
         std::to_string(unsigned(E.Result->ActiveWarpsPerSm));
}

std::string limiterVerdict(const LaunchFigures &E) {
  // One wording for every output (core): the check, the report and the hover.
  return wl::limiterVerdict(*E.Arch, E.Result->Limiters, E.registersKnown());
}

std::string nextStepText(const LaunchFigures &E) {
  const wl::GpuArch &Arch = *E.Arch;
  const wl::KernelResources &Res = E.Resources;
  const wl::OccupancyResult &R = *E.Result;
  const bool Amd = Arch.isAmd();
  std::string Threads = std::to_string(R.ThreadsPerBlock);
  std::string Now = std::to_string(R.BlocksPerSm) + " " +
                    (Amd ? (R.BlocksPerSm == 1 ? "workgroup" : "workgroups")
                         : blocksWord(R.BlocksPerSm)) +
                    (Amd ? "/CU (" : "/SM (") + wl::percentText(R.Occupancy) + ")";
  auto Gain = [](const wl::NextStep &S) {
    return std::to_string(S.GainBlocksPerSm) + " (" + wl::percentText(S.GainOccupancy) + ")";
  };
  if (R.isLimitedBy(wl::Resource::Registers) && E.registersKnown()) {
    const wl::NextStep *S = E.step(wl::Resource::Registers);
    const char *Unit = Amd ? " VGPRs" : " registers";
    std::string Agprs = Amd ? amdAgprText(E) : "";
    std::string Text = std::to_string(Amd ? Res.Vgprs : Res.RegistersPerThread) + Unit +
                       (Amd ? "/lane" : "/thread") +
                       (Agprs.empty() ? "" : " (" + Agprs + ")") + " limit this " + Threads +
                       "-thread block to " + Now;
    if (S && S->GainAt)
      Text += "; at " + std::to_string(*S->GainAt) + Unit + " it keeps " + Gain(*S);
    return Text;
  }
  // Registers unknown: what shared memory or the block size allows is an upper bound,
  // and a gain holds only if the registers allow it too.
  const bool Known = E.registersKnown();
  const std::string IfRegisters =
      Known ? "" : (Amd ? " if VGPRs allow" : " if registers allow");
  if (R.isLimitedBy(wl::Resource::SharedMemory)) {
    const wl::NextStep *S = E.step(wl::Resource::SharedMemory);
    std::string Text = std::to_string(Res.StaticSharedBytes + E.Shape->DynamicSharedBytes) +
                       (Amd ? " bytes of LDS per workgroup " : " bytes of shared memory per block ") +
                       (Known ? "limit this " : "allow this ") + Threads + "-thread block " +
                       (Known ? "to " : "at most ") + Now;
    if (S && S->GainAt)
      Text += "; at " + std::to_string(*S->GainAt) + " bytes it keeps " + Gain(*S) + IfRegisters;
    return Text;
  }
  if (R.isLimitedBy(wl::Resource::Blocks)) {
    return "the limit of " + std::to_string(Arch.MaxBlocksPerSm) + " blocks/SM leaves " +
           Threads + "-thread blocks at " + std::to_string(R.ActiveWarpsPerSm) +
           " warps/SM; larger blocks fill more warp slots";
  }
  if (R.isLimitedBy(wl::Resource::Warps)) {
    const wl::NextStep *S = E.step(wl::Resource::Warps);
    std::string Text = Threads + "-thread blocks fit " + Now + " by warp slots";
    if (S && S->GainAt)
      Text += "; " + std::to_string(*S->GainAt) + "-thread blocks keep " + Gain(*S) + IfRegisters;
    return Text;
  }
  return "";
}

OccupancyCheck::OccupancyCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context),
      MinOccupancy(readPercent("MinOccupancy", "50", InvalidPercent, MinOccupancyText)) {}

void OccupancyCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Options.store(Opts, "MinOccupancy", MinOccupancyText);
  Model.store(Opts);
}

void OccupancyCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  const std::vector<LaunchModel> *Launches = advisedLaunches(M);
  if (!Launches)
    return;
  const std::string &Missing = M.registers().Missing;

  for (const SameFigures &G : groupSameFigures(*Launches)) {
    const LaunchModel &L = *G.First;
    bool Said = false;
    for (const LaunchFigures &E : L.PerArch)
      if (E.Result && E.Result->canLaunch())
        Said |= checkLaunch(M, L, E, Missing);
    if (Said)
      sameFiguresNote(G);
  }
}

bool OccupancyCheck::checkLaunch(TuModel &M, const LaunchModel &L, const LaunchFigures &E,
                                 const std::string &Missing) {
  SourceLocation Loc = L.Site->Loc;
  const wl::OccupancyResult &R = *E.Result;
  // AMD: amdgpu_waves_per_eu's minimum (HIP's second __launch_bounds__ argument) the
  // launch does not reach.
  std::optional<uint64_t> MinWaves =
      E.Arch->isAmd() && L.Kernel ? L.Kernel->WavesPerEuMin : std::nullopt;
  if (MinWaves && *MinWaves > 0 && uint64_t(R.WavesPerSimd) < *MinWaves) {
    reportWavesPerEu(Loc, L, E, unsigned(*MinWaves));
    viaNote(*L.Site);
    return true;
  }
  if (R.Occupancy >= MinOccupancy)
    return false;
  // __launch_bounds__(N, minBlocks) met: the occupancy was asked for, not an accident;
  // on AMD amdgpu_waves_per_eu's minimum met.
  if (E.Resources.LaunchBoundsMinBlocks > 0 &&
      R.BlocksPerSm >= E.Resources.LaunchBoundsMinBlocks)
    return false;
  if (MinWaves && *MinWaves > 0)
    return false;
  // A minimum the block size itself cannot reach (its block or warp slots hold
  // fewer warps) is the launch's choice of block size, not an occupancy to fix by
  // registers or shared memory: a note that says so, not a warning.
  const wl::OccupancyResult *Ceiling =
      E.Ceiling && E.Ceiling->canLaunch() ? &*E.Ceiling : nullptr;
  bool OutOfReach = Ceiling && Ceiling->Occupancy < MinOccupancy;
  // A grid of one block (a small solve, a setup kernel) runs on one SM: how many
  // blocks an SM could hold does not matter to it.
  bool OneBlock = L.Site->Grid.known() && L.Site->Grid.total() == 1;
  if (OutOfReach)
    reportOutOfReach(L, E, *Ceiling);
  else
    reportBelowMinimum(M, L, E, OneBlock);
  if (OneBlock && !OutOfReach)
    diag(Loc,
         "said as a note: the grid is one %select{block|workgroup}0, which runs on one "
         "%select{SM|CU}0 whatever the occupancy; more resident "
         "%select{blocks|workgroups}0 would change nothing",
         DiagnosticIDs::Note)
        << unsigned(E.Arch->isAmd());
  std::string Step = nextStepText(E);
  if (!Step.empty())
    diag(Loc, "%0", DiagnosticIDs::Note) << Step;
  if (E.Verified && R.isLimitedBy(wl::Resource::Registers))
    diag(Loc, "%0", DiagnosticIDs::Note) << wl::verifiedAdviceText(*E.Verified, E.Arch->isAmd());
  registerNotes(L, E, Missing);
  if (!L.Site->Instantiation.empty())
    diag(Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Site->Instantiation;
  viaNote(*L.Site);
  return true;
}

void OccupancyCheck::reportOutOfReach(const LaunchModel &L, const LaunchFigures &E,
                                      const wl::OccupancyResult &Ceiling) {
  SourceLocation Loc = L.Site->Loc;
  const wl::OccupancyResult &R = *E.Result;
  std::string Verdict = limiterVerdict(E);
  bool Amd = E.Arch->isAmd();
  std::string Reach = wl::limiterText(*E.Arch, Ceiling.Limiters) + " allow at most " +
                      std::to_string(Ceiling.BlocksPerSm) +
                      (Amd ? (Ceiling.BlocksPerSm == 1 ? " workgroup/CU (" : " workgroups/CU (")
                           : (Ceiling.BlocksPerSm == 1 ? " block/SM (" : " blocks/SM (")) +
                      wl::percentText(Ceiling.Occupancy) + ")";
  std::string Why = (R.ActiveWarpsPerSm < Ceiling.ActiveWarpsPerSm
                         ? Verdict + "; and their "
                         : std::string("their ")) +
                    Reach;
  if (Amd)
    diag(Loc,
         "occupancy %0 for '%1' on %2: %3 of %4 wavefronts (%8 lanes) per CU with "
         "%5-thread workgroups; %5-thread workgroups cannot reach the %6 minimum "
         "there: %7",
         DiagnosticIDs::Remark)
        << occupancyText(E) << L.name() << E.Arch->Name
        << warpsText(E) << R.MaxWarpsPerSm << R.ThreadsPerBlock
        << wl::percentText(MinOccupancy)
        << Why << E.Arch->WarpSize;
  else
    diag(Loc,
         "occupancy %0 for '%1' on %2: %3 of %4 warps per SM with %5-thread blocks; "
         "%5-thread blocks cannot reach the %6 minimum there: %7",
         DiagnosticIDs::Remark)
        << occupancyText(E) << L.name() << E.Arch->Name
        << warpsText(E) << R.MaxWarpsPerSm << R.ThreadsPerBlock
        << wl::percentText(MinOccupancy)
        << Why;
}

void OccupancyCheck::reportBelowMinimum(TuModel &M, const LaunchModel &L,
                                        const LaunchFigures &E, bool OneBlock) {
  SourceLocation Loc = L.Site->Loc;
  const wl::OccupancyResult &R = *E.Result;
  std::string Verdict = limiterVerdict(E);
  // A __launch_bounds__ the compiler showed keeps the kernel spill-free, where the rewrite
  // is certain (TuModel::launchBoundsFixIt): a fix-it on the warning (HIP's spelling,
  // threads and waves per EU, on AMD).
  std::optional<FixItHint> Fix;
  if (!OneBlock && R.isLimitedBy(wl::Resource::Registers))
    Fix = M.launchBoundsFixIt(L, E);
  if (E.Arch->isAmd()) {
    auto D = diag(Loc, "occupancy %0 for '%1' on %2: %3 of %4 wavefronts (%8 lanes) per CU "
                       "with %5-thread workgroups, below the %6 minimum; %7",
                  OneBlock ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
             << occupancyText(E) << L.name() << E.Arch->Name
             << warpsText(E) << R.MaxWarpsPerSm << R.ThreadsPerBlock
             << wl::percentText(MinOccupancy) << Verdict << E.Arch->WarpSize;
    if (Fix)
      D << *Fix;
  } else {
    auto D = diag(Loc, "occupancy %0 for '%1' on %2: %3 of %4 warps per SM with "
                       "%5-thread blocks, below the %6 minimum; %7",
                  OneBlock ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
             << occupancyText(E) << L.name() << E.Arch->Name
             << warpsText(E) << R.MaxWarpsPerSm << R.ThreadsPerBlock
             << wl::percentText(MinOccupancy) << Verdict;
    if (Fix)
      D << *Fix;
  }
}

void OccupancyCheck::registerNotes(const LaunchModel &L, const LaunchFigures &E,
                                   const std::string &Missing) {
  SourceLocation Loc = L.Site->Loc;
  const wl::OccupancyResult &R = *E.Result;
  if (E.registersKnown()) {
    diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
    // The backend's figure is for the workgroup sizes it allowed for (the flat range,
    // best case); this one is for the launch's own workgroup: say where they differ.
    if (E.Compiler->BackendOccupancy && E.Arch->isAmd()) {
      int Ours = R.WavesPerSimd;
      if (Ours != *E.Compiler->BackendOccupancy)
        diag(Loc,
             "the compiler's backend reports %0 waves per SIMD for the workgroup sizes "
             "it allowed for (up to %1 threads); this launch's %2-thread workgroups "
             "give %3",
             DiagnosticIDs::Note)
            << *E.Compiler->BackendOccupancy << E.Compiler->MaxFlatWorkgroupSize
            << R.ThreadsPerBlock << Ours;
    }
    return;
  }
  // The register budget: how many registers keep this occupancy.
  const wl::NextStep *S = E.step(wl::Resource::Registers);
  if (S && S->LossBlocksPerSm && E.Arch->isAmd())
    diag(Loc,
         "VGPRs unknown: up to %0 VGPRs per lane keep this; at %1 it drops to "
         "%2 workgroup%s2/CU",
         DiagnosticIDs::Note)
        << int(S->HeadroomUpTo) << int(S->HeadroomUpTo + 1) << *S->LossBlocksPerSm;
  else if (S && S->LossBlocksPerSm)
    diag(Loc,
         "registers unknown: up to %0 registers/thread keep this; at %1 it drops to "
         "%2 block%s2/SM",
         DiagnosticIDs::Note)
        << int(S->HeadroomUpTo) << int(S->HeadroomUpTo + 1) << *S->LossBlocksPerSm;
  std::string Why = !L.MatchNote.empty() ? L.MatchNote : Missing;
  if (!Why.empty())
    diag(Loc, "registers not counted: %0", DiagnosticIDs::Note) << Why;
}

void OccupancyCheck::reportWavesPerEu(SourceLocation Loc, const LaunchModel &L,
                                      const LaunchFigures &E, unsigned MinWaves) {
  const wl::GpuArch &A = *E.Arch;
  const wl::OccupancyResult &R = *E.Result;
  bool Known = E.registersKnown();
  diag(Loc, "'%0' reaches %1 wave%s1 per SIMD on %2 (wave%3) with %4-thread workgroups "
            "(%5 workgroup%s5/CU, %6 wavefronts), below the %7 its amdgpu_waves_per_eu asks "
            "for; %8")
      << L.name() << unsigned(R.WavesPerSimd) << A.Name << unsigned(A.WarpSize)
      << unsigned(R.ThreadsPerBlock) << unsigned(R.BlocksPerSm)
      << unsigned(R.ActiveWarpsPerSm) << MinWaves << limiterVerdict(E);
  if (MinWaves > unsigned(A.MaxWavesPerSimd))
    diag(Loc, "a %0 SIMD runs at most %1 waves: the backend ignores a larger minimum",
         DiagnosticIDs::Note)
        << A.Name << unsigned(A.MaxWavesPerSimd);
  else if (R.isLimitedBy(wl::Resource::Warps) || R.isLimitedBy(wl::Resource::Blocks))
    diag(Loc,
         "%0 waves per SIMD need smaller workgroups: each CU holds %1 wave slots and %2 "
         "workgroups of more than one wave",
         DiagnosticIDs::Note)
        << MinWaves << unsigned(A.MaxWarpsPerSm) << unsigned(A.MaxBarrierWorkgroupsPerCu);
  else if (R.isLimitedBy(wl::Resource::SharedMemory))
    diag(Loc,
         "%0 bytes of LDS per workgroup: the backend cannot trade LDS for waves, only "
         "registers",
         DiagnosticIDs::Note)
        << unsigned(E.Resources.StaticSharedBytes + E.Shape->DynamicSharedBytes);
  else if (Known)
    diag(Loc,
         "the backend did not fit the registers of %0 waves per SIMD (%1); the attribute is "
         "a hint, not a limit",
         DiagnosticIDs::Note)
        << MinWaves << wl::amdVgprBudgetText(A, int(MinWaves));
  if (Known)
    diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
}

} // namespace clang::tidy::warplint
