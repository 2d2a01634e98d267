//===- RegisterSpillCheck.cpp - warplint-register-spill -------------------===//
#include "checks/RegisterSpillCheck.h"
#include "checks/AnalysisNames.h"

#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <optional>

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {
namespace {

/// The -maxrregcount of the nvcc flags warplint compiles with, if any.
std::optional<unsigned> maxrregcount(llvm::StringRef Flags) {
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Flags.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I < Parts.size(); ++I) {
    llvm::StringRef P = Parts[I].trim("'\"");
    for (llvm::StringRef Name : {"-maxrregcount", "--maxrregcount"}) {
      unsigned N = 0;
      if (P.consume_front(Name)) {
        llvm::StringRef V = P.consume_front("=") ? P
                            : P.empty() && I + 1 < Parts.size() ? Parts[I + 1].trim("'\"")
                                                                : llvm::StringRef();
        if (!V.getAsInteger(10, N))
          return N;
      }
    }
  }
  return std::nullopt;
}

} // namespace

RegisterSpillCheck::RegisterSpillCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context),
      MinSpillBytes(Options.get<decltype(MinSpillBytes)>("MinSpillBytes", 1)) {}

void RegisterSpillCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Options.store(Opts, "MinSpillBytes", MinSpillBytes);
  Model.store(Opts);
}

void RegisterSpillCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  const TUFacts &Facts = M.facts();
  if (Facts.Kernels.empty())
    return;
  Model_ = &M;
  // Kernels defined here are reported at their definition; a kernel only declared here
  // is reported at its launches.
  for (const KernelInfo &K : Facts.Kernels) {
    if (!K.HasBody || !K.Decl)
      continue;
    for (const KernelArchFigures &F : M.kernelFigures(K))
      report(K.Decl->getLocation(), &K, K.Name, F);
  }
  sayProblems(M);
  for (const LaunchSite &L : Facts.Launches) {
    const KernelInfo *K = L.Kernel ? Facts.kernel(L.Kernel) : nullptr;
    if (!K || K->HasBody || L.Loc.isInvalid())
      continue;
    for (const KernelArchFigures &F : M.kernelFigures(*K))
      report(L.Loc, K, K->Name, F);
  }
}

void RegisterSpillCheck::report(SourceLocation Loc, const KernelInfo *K, const std::string &Name,
                                const KernelArchFigures &F) {
  if (F.Compiler->isAmd()) {
    reportAmd(Loc, K, Name, F);
    return;
  }
  uint64_t Stores = F.Compiler->SpillStoreBytes.value_or(0);
  uint64_t Loads = F.Compiler->SpillLoadBytes.value_or(0);
  if (Stores + Loads == 0 || Stores + Loads < MinSpillBytes || Loc.isInvalid() ||
      Ignored.ignores(Name))
    return;
  int Regs = F.Compiler->Registers;
  bool Capped = true;
  diag(Loc, "kernel '%0' spills registers to local memory on %1: %2 bytes/thread of stores "
            "and %3 of loads with %4 registers/thread")
      << Name << F.Arch->Name << unsigned(Stores) << unsigned(Loads) << unsigned(Regs);
  // The cap that forces the spills, where the source or the flags show one.
  if (K && K->MaxNReg && int(*K->MaxNReg) <= Regs) {
    diag(Loc, "__maxnreg__(%0) caps the registers: raise it or remove it to let ptxas keep "
              "the values in registers",
         DiagnosticIDs::Note)
        << unsigned(*K->MaxNReg);
  } else if (K && K->LaunchBoundsMaxThreads) {
    int Threads = int(*K->LaunchBoundsMaxThreads);
    int Blocks = K->LaunchBoundsMinBlocks ? int(*K->LaunchBoundsMinBlocks) : 0;
    int Budget = wl::launchBoundsRegisterBudget(*F.Arch, Threads, Blocks);
    if (Budget > 0 && Regs >= Budget)
      diag(Loc, "__launch_bounds__(%0%1) leaves ptxas at most %2 registers/thread on %3: "
                "fewer threads or fewer blocks per SM in it raise the budget",
           DiagnosticIDs::Note)
          << unsigned(Threads) << (Blocks ? ", " + std::to_string(Blocks) : std::string())
          << unsigned(Budget) << F.Arch->Name;
  } else if (std::optional<unsigned> Cap = maxrregcount(Model.Registers.NvccFlags);
             Cap && int(*Cap) <= Regs) {
    diag(Loc, "-maxrregcount=%0 in the build's nvcc flags caps the registers of every "
              "kernel of the file",
         DiagnosticIDs::Note)
        << *Cap;
  } else {
    Capped = false;
    if (Regs >= 255)
      diag(Loc, "at the limit of 255 registers/thread: the kernel needs more than a thread "
                "can have",
           DiagnosticIDs::Note);
  }
  // What ptxas does without any cap (a second run on the file's PTX, nvcc source only).
  if (F.Compiler->UncappedRegisters && (Capped || *F.Compiler->UncappedRegisters != Regs)) {
    uint64_t Free = F.Compiler->UncappedSpillStoreBytes.value_or(0) +
                    F.Compiler->UncappedSpillLoadBytes.value_or(0);
    diag(Loc, "with __maxnreg__, __launch_bounds__ and -maxrregcount removed, ptxas uses %0 "
              "registers/thread on %1 and %2 (a second ptxas run)",
         DiagnosticIDs::Note)
        << unsigned(*F.Compiler->UncappedRegisters) << F.Arch->Name
        << (Free == 0 ? std::string("does not spill")
                      : "still spills " +
                            std::to_string(F.Compiler->UncappedSpillStoreBytes.value_or(0)) +
                            " bytes/thread of stores and " +
                            std::to_string(F.Compiler->UncappedSpillLoadBytes.value_or(0)) +
                            " of loads");
  }
  // The reverse of the occupancy advice: what the bound buys. Each launch of the kernel
  // with a known shape, its blocks/SM now and with the uncapped registers (core's figures,
  // LaunchFigures::Uncapped; the record holds them).
  if (F.Compiler->UncappedRegisters && Capped && Model_ && K)
    for (const LaunchModel &L : Model_->launches()) {
      if (L.Kernel != K)
        continue;
      for (const LaunchFigures &LE : L.PerArch) {
        if (LE.Arch != F.Arch || !LE.Result || !LE.Result->canLaunch() || !LE.Uncapped)
          continue;
        const wl::OccupancyResult &Now = *LE.Result, &Free = *LE.Uncapped;
        const SourceManager &SM = K->Decl->getASTContext().getSourceManager();
        unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(L.Site->Loc));
        std::string Points = wl::percentText(Now.Occupancy - Free.Occupancy); // "12.5%"
        Points.pop_back();
        if (!Free.canLaunch() || Free.BlocksPerSm == 0)
          diag(Loc, "without the cap its %0-thread launch at line %1 could not run (%2 "
                    "registers/thread); the bound is what lets it launch",
               DiagnosticIDs::Note)
              << unsigned(Now.ThreadsPerBlock) << Line << *F.Compiler->UncappedRegisters;
        else if (Free.Occupancy < Now.Occupancy)
          diag(Loc, "without the cap its %0-thread launch at line %1 would keep %2 block%s2/SM "
                    "(%3) instead of %4 (%5): the spills buy %6 points of occupancy",
               DiagnosticIDs::Note)
              << unsigned(Now.ThreadsPerBlock) << Line << unsigned(Free.BlocksPerSm)
              << wl::percentText(Free.Occupancy) << unsigned(Now.BlocksPerSm)
              << wl::percentText(Now.Occupancy) << Points;
        else
          diag(Loc, "without the cap its %0-thread launch at line %1 keeps the same %2 "
                    "block%s2/SM (%3): the spills buy no occupancy there",
               DiagnosticIDs::Note)
              << unsigned(Now.ThreadsPerBlock) << Line << unsigned(Now.BlocksPerSm)
              << wl::percentText(Now.Occupancy);
      }
    }
  LaunchFigures E;
  E.Compiler = F.Compiler;
  E.ByBaseName = F.ByBaseName;
  diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
}

// AMD: the backend's kernel metadata counts the VGPRs and SGPRs it spilled; VGPR spills go
// to scratch memory (per lane), SGPR spills to lanes of a VGPR first, to scratch only when
// none is free. The VGPR budget comes from the waves per SIMD the kernel must leave room
// for: its largest workgroup (amdgpu_flat_work_group_size, 1024 threads by default) and
// amdgpu_waves_per_eu's minimum (the second argument of HIP's __launch_bounds__).
void RegisterSpillCheck::reportAmd(SourceLocation Loc, const KernelInfo *K,
                                   const std::string &Name, const KernelArchFigures &F) {
  const KernelFigures &C = *F.Compiler;
  unsigned VSpills = unsigned(C.VgprSpills.value_or(0));
  unsigned SSpills = unsigned(C.SgprSpills.value_or(0));
  // MinSpillBytes counts 4 bytes per spilled register.
  if (VSpills + SSpills == 0 || 4 * uint64_t(VSpills + SSpills) < MinSpillBytes ||
      Loc.isInvalid() || Ignored.ignores(Name))
    return;
  const wl::GpuArch &A = *F.Arch;
  std::string Wave = "wave" + std::to_string(C.WaveSize ? C.WaveSize : A.WarpSize);
  diag(Loc, "kernel '%0' spills registers on %1 (%2): %3 VGPR%s3 and %4 SGPR%s4 spilled, "
            "%5 bytes of scratch memory per lane, with %6 VGPRs and %7 SGPRs")
      << Name << A.Name << Wave << VSpills << SSpills
      << unsigned(C.PrivateSegmentBytes.value_or(0)) << unsigned(C.Vgprs.value_or(0))
      << unsigned(C.Sgprs.value_or(0));
  const wl::AmdKernelVgprBudget B = wl::amdKernelVgprBudget(
      A, C.MaxFlatWorkgroupSize, K && K->WavesPerEuMin ? int(*K->WavesPerEuMin) : 0);
  if (VSpills > 0 && B.Vgprs > 0 && B.Vgprs < A.MaxVgprsPerWave) {
    const std::string Budget = wl::amdVgprBudgetText(A, B.WavesPerSimd);
    if (B.ByWavesPerEu)
      diag(Loc, "amdgpu_waves_per_eu(%0) (the second argument of HIP's __launch_bounds__) "
                "asks for %0 waves per SIMD: %1 on %2; a smaller minimum raises the budget",
           DiagnosticIDs::Note)
          << unsigned(B.WavesPerSimd) << Budget << A.Name;
    else
      diag(Loc, "workgroups of up to %0 threads (%1) need %2 waves per SIMD: %3 on %4; "
                "__launch_bounds__ with the largest block the kernel is launched with raises "
                "the budget",
           DiagnosticIDs::Note)
          << unsigned(B.FlatWorkGroupMax)
          << (K && K->FlatWorkGroupMax ? "its amdgpu_flat_work_group_size"
                                       : "the compiler's default without __launch_bounds__")
          << unsigned(B.WavesPerSimd) << Budget << A.Name;
  } else if (VSpills > 0) {
    diag(Loc, "at the limit of %0 VGPRs a wave can address on %1", DiagnosticIDs::Note)
        << unsigned(A.MaxVgprsPerWave) << A.Name;
  }
  LaunchFigures E;
  E.Compiler = F.Compiler;
  E.ByBaseName = F.ByBaseName;
  E.Arch = F.Arch;
  diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
}

} // namespace clang::tidy::warplint
