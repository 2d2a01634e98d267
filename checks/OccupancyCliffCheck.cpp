//===- OccupancyCliffCheck.cpp - warplint-occupancy-cliff ------------------===//
#include "checks/OccupancyCliffCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/OccupancyCheck.h"

#include "model/TuModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {

/// AMD: "3 workgroups/CU (12 wavefronts, 30%)", or "0 workgroups/CU (the launch fails)".
std::string amdBlocksText(int Blocks, int WavesPerWorkgroup, double Occupancy) {
  if (Blocks <= 0)
    return "0 workgroups/CU (the launch fails)";
  int Waves = Blocks * WavesPerWorkgroup;
  return std::to_string(Blocks) + (Blocks == 1 ? " workgroup" : " workgroups") + "/CU (" +
         std::to_string(Waves) + (Waves == 1 ? " wavefront, " : " wavefronts, ") +
         wl::percentText(Occupancy) + ")";
}

/// AMD: the waves per SIMD that Blocks workgroups of WavesPerWorkgroup waves need (their
/// waves spread over the CU's SIMDs): what amdgpu_waves_per_eu asks the backend for.
int amdWavesPerSimd(const wl::GpuArch &A, int Blocks, int WavesPerWorkgroup) {
  int Waves = Blocks * WavesPerWorkgroup;
  return (Waves + A.SimdsPerCu - 1) / A.SimdsPerCu;
}

/// "3 blocks/SM (37.5%)", or "0 blocks/SM (the launch fails)".
std::string blocksText(int Blocks, double Occupancy) {
  if (Blocks <= 0)
    return "0 blocks/SM (the launch fails)";
  return std::to_string(Blocks) + (Blocks == 1 ? " block" : " blocks") + "/SM (" +
         wl::percentText(Occupancy) + ")";
}

} // namespace

OccupancyCliffCheck::OccupancyCliffCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context),
      WarnBeforeCliff(readFlag("WarnBeforeCliff", false)) {
  // Non-negative integers: clang-tidy refuses anything else ("expected an integer").
  RegisterMargin = Options.get<uint32_t>("RegisterMargin", uint32_t(RegisterMargin));
  SharedMemoryMargin = Options.get<uint32_t>("SharedMemoryMargin", uint32_t(SharedMemoryMargin));
  MinRegisterBudget = Options.get<uint32_t>("MinRegisterBudget", uint32_t(MinRegisterBudget));
  MinOccupancyChange = readPercent("MinOccupancyChange", "5",
                                   "invalid %0 '%1' for %2: percentage points 0-100; using %3",
                                   MinOccupancyChangeText);
}

void OccupancyCliffCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Options.store(Opts, "RegisterMargin", RegisterMargin);
  Options.store(Opts, "SharedMemoryMargin", SharedMemoryMargin);
  Options.store(Opts, "MinRegisterBudget", MinRegisterBudget);
  Options.store(Opts, "WarnBeforeCliff", WarnBeforeCliff ? "true" : "false");
  Options.store(Opts, "MinOccupancyChange", MinOccupancyChangeText);
  Model.store(Opts);
}

void OccupancyCliffCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  const std::vector<LaunchModel> *Launches = advisedLaunches(M);
  if (!Launches)
    return;

  for (const SameFigures &G : groupSameFigures(*Launches)) {
    const LaunchModel &L = *G.First;
    SourceLocation Loc = L.Site->Loc;
    Site = L.Site;
    Said = false;
    std::string Name = L.name();
    for (const LaunchFigures &E : L.PerArch) {
      if (!E.Result || !E.Result->canLaunch())
        continue;
      if (E.Arch->isAmd()) {
        for (const wl::NextStep &S : E.Steps)
          reportAmdStep(Loc, Name, E, L.Kernel, S);
        continue;
      }
      const wl::OccupancyResult &R = *E.Result;
      std::string Threads = std::to_string(R.ThreadsPerBlock);
      std::string Now = blocksText(R.BlocksPerSm, R.Occupancy);
      bool Known = E.registersKnown();
      // __launch_bounds__(N, minBlocks) that this launch meets: ptxas keeps the registers
      // within the stated blocks, so sitting at the edge is by design.
      bool Pinned = E.Resources.LaunchBoundsMinBlocks > 0 &&
                    R.BlocksPerSm >= E.Resources.LaunchBoundsMinBlocks;
      for (const wl::NextStep &S : E.Steps) {
        if (S.What == wl::Resource::Registers && Known)
          reportRegisterCliff(M, L, E, S, Now, Threads, Pinned);
        else if (S.What == wl::Resource::Registers)
          reportRegisterBudget(Loc, Name, E, S, Now, Threads);
        else if (S.What == wl::Resource::SharedMemory)
          reportSharedCliff(Loc, Name, E, S, Now, Threads);
      }
    }
    if (Said)
      sameFiguresNote(G);
  }
}

void OccupancyCliffCheck::reportRegisterCliff(TuModel &M, const LaunchModel &L,
                                              const LaunchFigures &E, const wl::NextStep &S,
                                              const std::string &Now,
                                              const std::string &Threads, bool Pinned) {
  const SourceLocation Loc = L.Site->Loc;
  const std::string Name = L.name();
  const wl::GpuArch &A = *E.Arch;
  int64_t Regs = S.Current;
  // Before a cliff: being at the top of a register band is no defect; the headroom is in
  // the JSON and the report, and a warning only with WarnBeforeCliff. A "loss" where the
  // launch fails (the register file) is warplint-launch-config-invalid's, not a cliff.
  const double Occ = E.Result->Occupancy;
  if (WarnBeforeCliff && S.LossBlocksPerSm && *S.LossBlocksPerSm > 0 &&
      S.HeadroomUpTo + 1 - Regs <= RegisterMargin && !Pinned && worthIt(Occ, S.LossOccupancy)) {
    diag(Loc, "'%0' on %1 is %2 register%s2 from an occupancy cliff: %3 "
              "registers/thread keep %4 with %5-thread blocks; %6 drop it to %7")
        << Name << A.Name << unsigned(S.HeadroomUpTo + 1 - Regs) << unsigned(Regs) << Now
        << Threads << unsigned(S.HeadroomUpTo + 1)
        << blocksText(*S.LossBlocksPerSm, S.LossOccupancy);
    diag(Loc,
         "keep it there as the code grows: __launch_bounds__(%0, %1) or -maxrregcount=%2",
         DiagnosticIDs::Note)
        << Threads << unsigned(E.Result->BlocksPerSm) << unsigned(S.HeadroomUpTo);
    diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
    viaNote(*Site);
  } else if (S.GainAt && Regs - *S.GainAt <= RegisterMargin && worthIt(Occ, S.GainOccupancy)) {
    // A __launch_bounds__ the compiler showed keeps the kernel spill-free, where the
    // rewrite is certain (TuModel::launchBoundsFixIt): a fix-it on the warning.
    std::optional<FixItHint> Fix = M.launchBoundsFixIt(L, E);
    {
      auto D = diag(Loc, "'%0' on %1 is %2 register%s2 past an occupancy cliff: %3 "
                         "registers/thread allow %4 with %5-thread blocks; at %6 it keeps %7")
               << Name << A.Name << unsigned(Regs - *S.GainAt) << unsigned(Regs) << Now
               << Threads << unsigned(*S.GainAt)
               << blocksText(S.GainBlocksPerSm, S.GainOccupancy);
      if (Fix)
        D << *Fix;
    }
    diag(Loc,
         "ask ptxas for %0 registers: __launch_bounds__(%1, %2) or -maxrregcount=%0 "
         "(watch the spills it may add)",
         DiagnosticIDs::Note)
        << unsigned(*S.GainAt) << Threads << unsigned(S.GainBlocksPerSm);
    if (E.Verified)
      diag(Loc, "%0", DiagnosticIDs::Note) << wl::verifiedAdviceText(*E.Verified, E.Arch->isAmd());
    diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
    viaNote(*Site);
  }
}

void OccupancyCliffCheck::reportRegisterBudget(SourceLocation Loc, const std::string &Name,
                                               const LaunchFigures &E, const wl::NextStep &S,
                                               const std::string &Now,
                                               const std::string &Threads) {
  if (MinRegisterBudget <= 0 || !S.LossBlocksPerSm || S.HeadroomUpTo >= MinRegisterBudget ||
      E.Resources.LaunchBoundsMinBlocks != 0)
    return;
  diag(Loc, "register budget of '%0' on %1: %2-thread blocks keep %3 only up to "
            "%4 registers/thread; at %5 they drop to %6")
      << Name << E.Arch->Name << Threads << Now << unsigned(S.HeadroomUpTo)
      << unsigned(S.HeadroomUpTo + 1) << blocksText(*S.LossBlocksPerSm, S.LossOccupancy);
  diag(Loc,
       "registers unknown: set warplint.RegisterSource (a ptxas log, objects or nvcc) to "
       "check the real count",
       DiagnosticIDs::Note);
  viaNote(*Site);
}

void OccupancyCliffCheck::reportSharedCliff(SourceLocation Loc, const std::string &Name,
                                            const LaunchFigures &E, const wl::NextStep &S,
                                            const std::string &Now,
                                            const std::string &Threads) {
  int64_t Bytes = S.Current;
  const double Occ = E.Result->Occupancy;
  // With the registers unknown the figures leave them out: they may allow fewer blocks
  // than shared memory on either side of the cliff, which is then no cliff at all. Said
  // as a note that names what is unknown, not as a warning.
  const bool Known = E.registersKnown();
  const DiagnosticIDs::Level Level = Known ? DiagnosticIDs::Warning : DiagnosticIDs::Remark;
  auto Unknown = [&] {
    if (!Known)
      diag(Loc,
           "registers unknown: they may limit '%0' to fewer blocks first; set "
           "warplint.RegisterSource (a ptxas log, objects or nvcc) to know",
           DiagnosticIDs::Note)
          << Name;
  };
  // Only a real drop in blocks is a cliff: one byte more than the opt-in or the
  // architecture allows makes the launch fail, which is a limit, not a cliff.
  if (WarnBeforeCliff && S.LossBlocksPerSm && *S.LossBlocksPerSm > 0 &&
      S.HeadroomUpTo + 1 - Bytes <= SharedMemoryMargin && worthIt(Occ, S.LossOccupancy)) {
    diag(Loc,
         "'%0' on %1 is %2 byte%s2 of shared memory from an occupancy cliff: "
         "%3 bytes per block keep %4 with %5-thread blocks; %6 drop it to %7",
         Level)
        << Name << E.Arch->Name << unsigned(S.HeadroomUpTo + 1 - Bytes) << unsigned(Bytes)
        << Now << Threads << unsigned(S.HeadroomUpTo + 1)
        << blocksText(*S.LossBlocksPerSm, S.LossOccupancy);
    diag(Loc, "any growth of the shared arrays costs a block per SM", DiagnosticIDs::Note);
    Unknown();
    viaNote(*Site);
  } else if (S.GainAt && Bytes - *S.GainAt <= SharedMemoryMargin &&
             worthIt(Occ, S.GainOccupancy)) {
    uint64_t Cut = uint64_t(Bytes - *S.GainAt);
    diag(Loc,
         "'%0' on %1 is %2 byte%s2 of shared memory past an occupancy cliff: "
         "%3 bytes per block allow %4 with %5-thread blocks; at %6 it keeps %7",
         Level)
        << Name << E.Arch->Name << unsigned(Cut) << unsigned(Bytes) << Now << Threads
        << unsigned(*S.GainAt) << blocksText(S.GainBlocksPerSm, S.GainOccupancy);
    diag(Loc, "use %0 fewer bytes of shared memory per block (a smaller tile or padding)",
         DiagnosticIDs::Note)
        << unsigned(Cut);
    Unknown();
    viaNote(*Site);
  }
}

void OccupancyCliffCheck::reportAmdStep(SourceLocation Loc, const std::string &Name,
                                        const LaunchFigures &E, const KernelInfo *K,
                                        const wl::NextStep &S) {
  const wl::GpuArch &A = *E.Arch;
  const wl::OccupancyResult &R = *E.Result;
  const int W = R.WarpsPerBlock;
  const std::string Target = std::string(A.Name) + " (wave" + std::to_string(A.WarpSize) + ")";
  const std::string Now = amdBlocksText(R.BlocksPerSm, W, R.Occupancy);
  const unsigned Threads = unsigned(R.ThreadsPerBlock);
  const bool Known = E.registersKnown();
  auto Loss = [&] { return amdBlocksText(*S.LossBlocksPerSm, W, S.LossOccupancy); };
  auto Gain = [&] { return amdBlocksText(S.GainBlocksPerSm, W, S.GainOccupancy); };
  const bool Before = WarnBeforeCliff && S.LossBlocksPerSm && *S.LossBlocksPerSm > 0 &&
                      worthIt(R.Occupancy, S.LossOccupancy);
  const bool Gains = S.GainAt && worthIt(R.Occupancy, S.GainOccupancy);

  if (S.What == wl::Resource::Registers || S.What == wl::Resource::Sgprs) {
    const bool Vgpr = S.What == wl::Resource::Registers;
    const char *Unit = Vgpr ? "VGPR" : "SGPR";
    const char *Per = Vgpr ? "per lane" : "per wave";
    if (Vgpr && !Known) {
      // Registers not counted: the entry is the budget of the launch.
      if (MinRegisterBudget <= 0 || !S.LossBlocksPerSm ||
          S.HeadroomUpTo >= MinRegisterBudget || (K && K->WavesPerEuMin))
        return;
      diag(Loc, "VGPR budget of '%0' on %1: %2-thread workgroups keep %3 only up to %4 "
                "VGPRs per lane; at %5 they drop to %6")
          << Name << Target << Threads << Now << unsigned(S.HeadroomUpTo)
          << unsigned(S.HeadroomUpTo + 1) << Loss();
      diag(Loc,
           "VGPRs unknown: --registers-from clang (warplint.RegisterSource: clang) counts "
           "them with clang's AMDGPU backend",
           DiagnosticIDs::Note);
      viaNote(*Site);
      return;
    }
    if (!Known)
      return;
    // The kernel asks for waves per EU and gets them: sitting at the edge is by design.
    bool Pinned = K && K->WavesPerEuMin &&
                  uint64_t(amdWavesPerSimd(A, R.BlocksPerSm, W)) >= *K->WavesPerEuMin;
    int64_t Count = S.Current;
    // Where the registers came from; with AGPRs, what the VGPR count is made of.
    auto RegistersNotes = [&] {
      diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
      if (std::string Agprs = amdAgprText(E); Vgpr && !Agprs.empty())
        diag(Loc, "%0 VGPRs per lane are %1", DiagnosticIDs::Note) << unsigned(Count) << Agprs;
    };
    if (Before && S.HeadroomUpTo + 1 - Count <= RegisterMargin && !Pinned) {
      int Keep = amdWavesPerSimd(A, R.BlocksPerSm, W);
      diag(Loc, "'%0' on %1 is %2 %3%s2 from an occupancy cliff: %4 %3s %5 keep %6 with "
                "%7-thread workgroups; %8 drop it to %9")
          << Name << Target << unsigned(S.HeadroomUpTo + 1 - Count) << Unit << unsigned(Count)
          << Per << Now << Threads << unsigned(S.HeadroomUpTo + 1) << Loss();
      diag(Loc,
           "keep it there as the code grows: __launch_bounds__(%0, %1) asks the backend for "
           "%1 waves per SIMD (amdgpu_waves_per_eu), which leaves %2",
           DiagnosticIDs::Note)
          << Threads << unsigned(Keep) << wl::amdVgprBudgetText(A, Keep);
      RegistersNotes();
      viaNote(*Site);
    } else if (Gains && Count - *S.GainAt <= RegisterMargin) {
      int Ask = amdWavesPerSimd(A, S.GainBlocksPerSm, W);
      diag(Loc, "'%0' on %1 is %2 %3%s2 past an occupancy cliff: %4 %3s %5 allow %6 with "
                "%7-thread workgroups; at %8 it keeps %9")
          << Name << Target << unsigned(Count - *S.GainAt) << Unit << unsigned(Count) << Per
          << Now << Threads << unsigned(*S.GainAt) << Gain();
      if (Vgpr)
        diag(Loc,
             "ask the backend for %0 waves per SIMD: __launch_bounds__(%1, %0) "
             "(amdgpu_waves_per_eu(%0)) leaves %2 (watch the spills it may add)",
             DiagnosticIDs::Note)
            << unsigned(Ask) << Threads << wl::amdVgprBudgetText(A, Ask);
      if (Vgpr && E.Verified) // what the backend did with that bound (verifyAdvice)
        diag(Loc, "%0", DiagnosticIDs::Note) << wl::verifiedAdviceText(*E.Verified, true);
      else if (!Vgpr)
        diag(Loc,
             "SGPRs count VCC, FLAT_SCRATCH and XNACK_MASK; __launch_bounds__(%0, %1) "
             "(amdgpu_waves_per_eu(%1)) asks the backend to fit %1 waves per SIMD",
             DiagnosticIDs::Note)
            << Threads << unsigned(Ask);
      RegistersNotes();
      viaNote(*Site);
    }
    return;
  }
  if (S.What != wl::Resource::SharedMemory)
    return;
  int64_t Bytes = S.Current;
  // VGPRs unknown: they may limit first, so an LDS cliff is a note that says so.
  const DiagnosticIDs::Level Level = Known ? DiagnosticIDs::Warning : DiagnosticIDs::Remark;
  auto Unknown = [&] {
    if (!Known)
      diag(Loc,
           "VGPRs unknown: they may limit '%0' to fewer workgroups first; --registers-from "
           "clang (warplint.RegisterSource: clang) counts them",
           DiagnosticIDs::Note)
          << Name;
  };
  if (Before && S.HeadroomUpTo + 1 - Bytes <= SharedMemoryMargin) {
    diag(Loc,
         "'%0' on %1 is %2 byte%s2 of LDS from an occupancy cliff: %3 bytes per "
         "workgroup keep %4 with %5-thread workgroups; %6 drop it to %7",
         Level)
        << Name << Target << unsigned(S.HeadroomUpTo + 1 - Bytes) << unsigned(Bytes) << Now
        << Threads << unsigned(S.HeadroomUpTo + 1) << Loss();
    diag(Loc, "any growth of the LDS arrays costs a workgroup per CU", DiagnosticIDs::Note);
    Unknown();
    viaNote(*Site);
  } else if (Gains && Bytes - *S.GainAt <= SharedMemoryMargin) {
    uint64_t Cut = uint64_t(Bytes - *S.GainAt);
    diag(Loc,
         "'%0' on %1 is %2 byte%s2 of LDS past an occupancy cliff: %3 bytes per "
         "workgroup allow %4 with %5-thread workgroups; at %6 it keeps %7",
         Level)
        << Name << Target << unsigned(Cut) << unsigned(Bytes) << Now << Threads
        << unsigned(*S.GainAt) << Gain();
    diag(Loc,
         "use %0 fewer bytes of LDS per workgroup (a smaller tile); the CU's %1 KiB of LDS "
         "is allocated in %2-byte granules",
         DiagnosticIDs::Note)
        << unsigned(Cut) << unsigned(A.LdsPerCuBytes / 1024) << unsigned(A.LdsAllocGranuleBytes);
    Unknown();
    viaNote(*Site);
  }
}

} // namespace clang::tidy::warplint
