//===- OccupancyCliffCheck.cpp - warplint-occupancy-cliff ------------------===//
#include "checks/OccupancyCliffCheck.h"

#include "model/Facts.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {

std::optional<int64_t> readInt(StringRef Text) {
  int64_t V = 0;
  if (Text.trim().getAsInteger(10, V) || V < 0)
    return std::nullopt;
  return V;
}

std::string blocksAt(const wl::GpuArch &Arch, const wl::KernelResources &Res,
                     const wl::LaunchShape &Shape) {
  wl::OccupancyResult R = wl::computeOccupancy(Arch, Res, Shape);
  if (!R.canLaunch())
    return "0 blocks/SM (the launch fails)";
  return std::to_string(R.BlocksPerSm) + (R.BlocksPerSm == 1 ? " block" : " blocks") +
         "/SM (" + percent(R.Occupancy) + ")";
}

} // namespace

OccupancyCliffCheck::OccupancyCliffCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Arch(Options.get("Arch", "").str()) {
  Sources.read(Options);
  struct {
    const char *Key;
    int64_t &Field;
  } Ints[] = {{"RegisterMargin", RegisterMargin},
              {"SharedMemoryMargin", SharedMemoryMargin},
              {"MinRegisterBudget", MinRegisterBudget}};
  for (auto &I : Ints) {
    std::string Text = Options.get(I.Key, std::to_string(I.Field)).str();
    if (std::optional<int64_t> V = readInt(Text))
      I.Field = *V;
    else
      configurationDiag("invalid %0 '%1' for %2: a non-negative integer; using %3")
          << I.Key << Text << Name << std::to_string(I.Field);
  }
}

void OccupancyCliffCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "RegisterMargin", std::to_string(RegisterMargin));
  Options.store(Opts, "SharedMemoryMargin", std::to_string(SharedMemoryMargin));
  Options.store(Opts, "MinRegisterBudget", std::to_string(MinRegisterBudget));
  Options.store(Opts, "Arch", Arch);
  Sources.store(Options, Opts);
}

void OccupancyCliffCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void OccupancyCliffCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  TUFacts Facts = collectFacts(Ctx);
  if (Facts.Launches.empty())
    return;
  ResourceProvider Provider(Sources);
  for (const std::string &M : Provider.load(Ctx, PP, Facts.Arch))
    configurationDiag("%0: %1") << "warplint-occupancy-cliff" << M;
  std::string FallbackArch = Arch.empty() ? Facts.Arch : Arch;

  for (const LaunchSite &L : Facts.Launches) {
    if (!L.Block.known() || L.Loc.isInvalid() || !L.DynamicSmem.Bytes)
      continue;
    const KernelInfo *K = L.Kernel ? Facts.kernel(L.Kernel) : nullptr;
    std::string Name = K ? K->Name : L.KernelName;
    const auto &B = *L.Block.Dims;
    wl::LaunchShape Shape = wl::LaunchShape::block(
        wl::Dim3{int64_t(B[0]), int64_t(B[1]), int64_t(B[2])}, *L.DynamicSmem.Bytes);
    std::string Threads = std::to_string(Shape.ThreadsPerBlock);
    for (const ArchEvaluation &E : Provider.evaluate(K, L.MangledName, FallbackArch, nullptr)) {
      const wl::GpuArch &A = *E.Arch;
      wl::OccupancyResult R = wl::computeOccupancy(A, E.Resources, Shape);
      if (!R.canLaunch())
        continue;
      std::string Now = blocksAt(A, E.Resources, Shape);
      bool Known = E.Figures != nullptr;
      // __launch_bounds__(N, minBlocks) that this launch meets: ptxas keeps the registers
      // within the stated blocks, so sitting at the edge is by design.
      bool Pinned = E.Resources.LaunchBoundsMinBlocks > 0 &&
                    R.BlocksPerSm >= E.Resources.LaunchBoundsMinBlocks;
      wl::KernelResources Probe = E.Resources;
      if (!Known)
        Probe.RegistersPerThread = 1;
      for (const wl::NextStep &S : wl::nextSteps(A, Probe, Shape)) {
        if (S.What == wl::Resource::Registers && Known) {
          int64_t Regs = S.Current;
          if (S.LossBlocksPerSm && S.HeadroomUpTo + 1 - Regs <= RegisterMargin && !Pinned) {
            wl::KernelResources More = E.Resources;
            More.RegistersPerThread = int(S.HeadroomUpTo + 1);
            diag(L.Loc, "'%0' on %1 is %2 register%s2 from an occupancy cliff: %3 "
                        "registers/thread keep %4 with %5-thread blocks; %6 drop it to %7")
                << Name << A.Name << unsigned(S.HeadroomUpTo + 1 - Regs) << unsigned(Regs)
                << Now << Threads << unsigned(S.HeadroomUpTo + 1)
                << blocksAt(A, More, Shape);
            diag(L.Loc,
                 "keep it there as the code grows: __launch_bounds__(%0, %1) or "
                 "-maxrregcount=%2",
                 DiagnosticIDs::Note)
                << Threads << unsigned(R.BlocksPerSm) << unsigned(S.HeadroomUpTo);
            diag(L.Loc, "%0", DiagnosticIDs::Note) << describeSource(E);
          } else if (S.GainAt && Regs - *S.GainAt <= RegisterMargin) {
            wl::KernelResources Less = E.Resources;
            Less.RegistersPerThread = int(*S.GainAt);
            diag(L.Loc, "'%0' on %1 is %2 register%s2 past an occupancy cliff: %3 "
                        "registers/thread allow %4 with %5-thread blocks; at %6 it keeps %7")
                << Name << A.Name << unsigned(Regs - *S.GainAt) << unsigned(Regs) << Now
                << Threads << unsigned(*S.GainAt) << blocksAt(A, Less, Shape);
            diag(L.Loc,
                 "ask ptxas for %0 registers: __launch_bounds__(%1, %2) or -maxrregcount=%0 "
                 "(watch the spills it may add)",
                 DiagnosticIDs::Note)
                << unsigned(*S.GainAt) << Threads << unsigned(S.GainBlocksPerSm);
            diag(L.Loc, "%0", DiagnosticIDs::Note) << describeSource(E);
          }
        } else if (S.What == wl::Resource::Registers && !Known) {
          if (MinRegisterBudget > 0 && S.LossBlocksPerSm && S.HeadroomUpTo < MinRegisterBudget &&
              E.Resources.LaunchBoundsMinBlocks == 0) {
            wl::KernelResources More = Probe;
            More.RegistersPerThread = int(S.HeadroomUpTo + 1);
            diag(L.Loc, "register budget of '%0' on %1: %2-thread blocks keep %3 only up to "
                        "%4 registers/thread; at %5 they drop to %6")
                << Name << A.Name << Threads << Now << unsigned(S.HeadroomUpTo)
                << unsigned(S.HeadroomUpTo + 1) << blocksAt(A, More, Shape);
            diag(L.Loc,
                 "registers unknown: set RegisterSource (a ptxas log, objects or nvcc) to "
                 "check the real count",
                 DiagnosticIDs::Note);
          }
        } else if (S.What == wl::Resource::SharedMemory) {
          int64_t Bytes = S.Current;
          if (S.LossBlocksPerSm && S.HeadroomUpTo + 1 - Bytes <= SharedMemoryMargin) {
            wl::KernelResources More = E.Resources;
            More.StaticSharedBytes += uint64_t(S.HeadroomUpTo + 1 - Bytes);
            diag(L.Loc, "'%0' on %1 is %2 byte%s2 of shared memory from an occupancy cliff: "
                        "%3 bytes per block keep %4 with %5-thread blocks; %6 drop it to %7")
                << Name << A.Name << unsigned(S.HeadroomUpTo + 1 - Bytes) << unsigned(Bytes)
                << Now << Threads << unsigned(S.HeadroomUpTo + 1) << blocksAt(A, More, Shape);
            diag(L.Loc, "any growth of the shared arrays costs a block per SM",
                 DiagnosticIDs::Note);
          } else if (S.GainAt && Bytes - *S.GainAt <= SharedMemoryMargin) {
            wl::LaunchShape Less = Shape;
            wl::KernelResources LessRes = E.Resources;
            uint64_t Cut = uint64_t(Bytes - *S.GainAt);
            if (LessRes.StaticSharedBytes >= Cut)
              LessRes.StaticSharedBytes -= Cut;
            else
              Less.DynamicSharedBytes -= Cut - LessRes.StaticSharedBytes,
                  LessRes.StaticSharedBytes = 0;
            diag(L.Loc, "'%0' on %1 is %2 byte%s2 of shared memory past an occupancy cliff: "
                        "%3 bytes per block allow %4 with %5-thread blocks; at %6 it keeps %7")
                << Name << A.Name << unsigned(Cut) << unsigned(Bytes) << Now << Threads
                << unsigned(*S.GainAt) << blocksAt(A, LessRes, Less);
            diag(L.Loc, "use %0 fewer bytes of shared memory per block (a smaller tile or "
                        "padding)",
                 DiagnosticIDs::Note)
                << unsigned(Cut);
          }
        }
      }
    }
  }
}

} // namespace clang::tidy::warplint
