//===- LaunchConfigInvalidCheck.cpp - warplint-launch-config-invalid -----===//
#include "checks/LaunchConfigInvalidCheck.h"
#include "checks/AnalysisNames.h"

#include "model/TuModel.h"
#include "warplint/core/Arch.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <algorithm>

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

/// The target a launch is checked on: its name and core's launch limits for it (CUDA's
/// limits from compute capability 3.0 on when the target is not known).
struct LaunchTarget {
  std::string Arch; ///< "sm_86", or empty when not known
  bool Nvidia = true;
  wl::LaunchLimits Limits = wl::PortableLaunchLimits;
  /// " on sm_86", or nothing when the arch is not known.
  std::string on() const { return Arch.empty() ? "" : " on " + Arch; }
};

namespace {

LaunchTarget targetFor(const wl::GpuArch *A) {
  LaunchTarget T;
  T.Limits = wl::launchLimits(A);
  if (A) {
    T.Arch = A->Name;
    T.Nvidia = A->isNvidia();
  }
  return T;
}

std::string bytes(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return std::to_string(B / 1024) + " KiB";
  return std::to_string(B) + " bytes";
}

const char *const DimName[3] = {"x", "y", "z"};

} // namespace

// The findings are warnings, as clang-tidy's are: NOLINT silences them through
// clang-tidy's own mechanism and --warnings-as-errors promotes them. SARIF and the
// driver's formats give this check the level "error" (a launch that cannot run).

LaunchConfigInvalidCheck::LaunchConfigInvalidCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context) {}

void LaunchConfigInvalidCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Model.store(Opts);
}

void LaunchConfigInvalidCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  const TUFacts &Facts = M.facts();
  const LaunchTarget Lim = targetFor(wl::findArch(M.arch()));
  for (const KernelInfo &K : Facts.Kernels)
    if (!Ignored.ignores(K.Name))
      checkKernel(K, Lim);
  if (Facts.Launches.empty())
    return;
  const std::vector<LaunchModel> &Launches = M.launches();
  sayProblems(M);
  for (const LaunchModel &L : Launches) {
    if (leftOut(L))
      continue;
    bool Reported = checkRegisters(L);
    checkShape(L, Lim, Reported);
    checkSharedMemory(L, Lim);
    checkCluster(L, Lim);
  }
}

void LaunchConfigInvalidCheck::checkCluster(const LaunchModel &L, const LaunchTarget &Lim) {
  const ClusterFact C = clusterOf(*L.Site, L.Kernel);
  if (!C.Has)
    return;
  const LaunchSite &S = *L.Site;
  const wl::GpuArch *A = Lim.Arch.empty() ? nullptr : wl::findArch(Lim.Arch);
  auto Declared = [&] {
    instantiationNote(L);
    if (C.Loc.isValid())
      diag(C.Loc, "cluster of '%0' declared here", DiagnosticIDs::Note) << L.name();
  };
  // Clusters before sm_90; the size is checked on every arch that has them (and when no
  // arch is known, against the CUDA limits of sm_90 on).
  if (A && A->isNvidia() && A->Major < 9) {
    diag(S.Loc, "launch of '%0' uses a thread block cluster (%1), which needs sm_90 or newer; "
                "%2 cannot launch it")
        << L.name() << C.Text << A->Name;
    Declared();
    return;
  }
  if (!C.Dims)
    return;
  const uint64_t N = C.blocks();
  if (N > uint64_t(wl::NonPortableClusterBlocks) ||
      (N > uint64_t(wl::PortableClusterBlocks) && !C.NonPortable)) {
    const bool Over = N > uint64_t(wl::NonPortableClusterBlocks);
    diag(S.Loc, "launch of '%0' has a cluster of %1 blocks (%2), over the %3 maximum of %4%5")
        << L.name() << std::to_string(N) << C.Text << (Over ? "hardware" : "portable")
        << (Over ? wl::NonPortableClusterBlocks : wl::PortableClusterBlocks)
        << (Over ? "" : "; up to 16 needs cudaFuncSetAttribute(kernel, "
                        "cudaFuncAttributeNonPortableClusterSizeAllowed, 1)");
    Declared();
  }
  if (!S.Grid.known())
    return;
  const auto &G = *S.Grid.Dims;
  for (int I = 0; I < 3; ++I) {
    const uint64_t D = (*C.Dims)[I];
    if (D == 0 || G[I] % D == 0)
      continue;
    diag(S.Loc, "grid %0 of '%1' is not a multiple of its cluster %2: dimension %3 is %4, "
                "not a multiple of %5 (the launch fails)")
        << S.Grid.str() << L.name() << C.Text << DimName[I] << std::to_string(G[I])
        << std::to_string(D);
    Declared();
    return;
  }
}

void LaunchConfigInvalidCheck::checkKernel(const KernelInfo &K, const LaunchTarget &Lim) {
  if (!Lim.Nvidia || !K.Decl)
    return;
  uint64_t Static = K.StaticSmemBytes.value_or(0);
  if (Static > Lim.Limits.DefaultSharedBytes)
    diag(K.Decl->getLocation(),
         "static shared memory of kernel '%0' is %1, over the %2 a block may declare "
         "statically")
        << K.Name << bytes(Static) << bytes(Lim.Limits.DefaultSharedBytes);
  if (K.HasOptin && K.Optin.Bytes && Lim.Limits.OptinSharedBytes &&
      Static + *K.Optin.Bytes > *Lim.Limits.OptinSharedBytes && K.OptinLoc.isValid())
    diag(K.OptinLoc, "cudaFuncSetAttribute asks for %0 of dynamic shared memory for kernel "
                     "'%1'; with %2 static, at most %3 are allowed per block%4")
        << bytes(*K.Optin.Bytes) << K.Name << bytes(Static)
        << bytes(*Lim.Limits.OptinSharedBytes > Static ? *Lim.Limits.OptinSharedBytes - Static : 0)
        << Lim.on();
}

void LaunchConfigInvalidCheck::instantiationNote(const LaunchModel &L) {
  if (!L.Site->Instantiation.empty())
    diag(L.Site->Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Site->Instantiation;
  viaNote(*L.Site);
}

bool LaunchConfigInvalidCheck::checkRegisters(const LaunchModel &L) {
  // Registers x threads over the register file: the runtime refuses the launch with
  // "too many resources requested for launch".
  bool Reported = false;
  SourceLocation Loc = L.Site->Loc;
  for (const LaunchFigures &E : L.PerArch) {
    if (!E.registersKnown() || !E.Result || !E.Result->Failure)
      continue;
    wl::LaunchFailureKind Kind = E.Result->Failure->Kind;
    if (Kind != wl::LaunchFailureKind::RegisterFileExceeded &&
        Kind != wl::LaunchFailureKind::TooManyRegisters)
      continue;
    unsigned Threads = unsigned(E.Shape->ThreadsPerBlock);
    diag(Loc, "launch of '%0' needs %1 registers per block on %2 (%3 registers/thread for %4 "
              "threads), over the %5 of the register file: too many resources requested for "
              "launch")
        << L.name() << unsigned(E.Result->AllocatedRegistersPerBlock) << E.Arch->Name
        << unsigned(E.Resources.RegistersPerThread) << Threads
        << unsigned(E.Arch->RegistersPerBlock);
    diag(Loc, "at most %0 registers/thread fit %1 threads: __launch_bounds__(%1) makes "
              "ptxas keep within them",
         DiagnosticIDs::Note)
        << unsigned(E.Arch->RegistersPerBlock / int(Threads)) << Threads;
    if (E.Compiler->SpillStoreBytes.value_or(0) || E.Compiler->SpillLoadBytes.value_or(0))
      diag(Loc, "ptxas already spills %0 bytes/thread of stores and %1 of loads to local "
                "memory for '%2' on %3; fewer registers will spill more",
           DiagnosticIDs::Note)
          << unsigned(E.Compiler->SpillStoreBytes.value_or(0))
          << unsigned(E.Compiler->SpillLoadBytes.value_or(0)) << L.name() << E.Arch->Name;
    diag(Loc, "%0", DiagnosticIDs::Note) << describeRegisters(E);
    instantiationNote(L);
    Reported = true;
  }
  return Reported;
}

bool LaunchConfigInvalidCheck::checkShape(const LaunchModel &L, const LaunchTarget &Lim,
                                          bool Reported) {
  const LaunchSite &S = *L.Site;
  SourceLocation Loc = S.Loc;
  if (S.Block.known()) {
    const auto &B = *S.Block.Dims;
    // A 1-D block over 1024 in x is over the threads limit too: said once, below.
    bool OneD = B[1] == 1 && B[2] == 1;
    for (int I = 0; I < 3; ++I) {
      if (B[I] == 0) {
        diag(Loc, "block dimension %0 of %1 is 0; every dimension needs at least one thread")
            << DimName[I] << S.Block.str();
        instantiationNote(L);
        Reported = true;
      } else if (Lim.Limits.blockDimOver(I, B[I]) && !(OneD && Lim.Limits.threadsOver(B[I]))) {
        diag(Loc, "block dimension %0 of %1 is %2, over the limit of %3%4")
            << DimName[I] << S.Block.str() << std::to_string(B[I])
            << std::to_string(Lim.Limits.MaxBlock[I]) << Lim.on();
        instantiationNote(L);
        Reported = true;
      }
    }
    uint64_t Threads = S.Block.total();
    // "block of 2048 threads" for a 1-D block, "block dim3(64,32) has 2048 threads".
    std::string Block = OneD ? "block of " + std::to_string(Threads) + " threads is"
                             : "block " + S.Block.str() + " has " + std::to_string(Threads) +
                                   " threads,";
    const KernelInfo *K = L.Kernel;
    if (!Reported && Lim.Limits.threadsOver(Threads)) {
      diag(Loc, "%0 over the limit of %1 threads per %select{block|workgroup}3%2")
          << Block << std::to_string(Lim.Limits.MaxThreadsPerBlock) << Lim.on() << unsigned(!Lim.Nvidia);
      instantiationNote(L);
      Reported = true;
    } else if (!Reported && !Lim.Nvidia && K && K->LaunchBoundsMaxThreads &&
               Threads > *K->LaunchBoundsMaxThreads) {
      // AMD: HIP's __launch_bounds__ is amdgpu_flat_work_group_size(1, N); the runtime
      // refuses a larger workgroup.
      diag(Loc, "%0 over the flat work-group size maximum of %1 threads of kernel '%2' "
                "(amdgpu_flat_work_group_size, HIP's __launch_bounds__)")
          << Block << std::to_string(*K->LaunchBoundsMaxThreads) << K->Name;
      instantiationNote(L);
      if (K->LaunchBoundsLoc.isValid())
        diag(K->LaunchBoundsLoc, "flat work-group size of '%0' declared here",
             DiagnosticIDs::Note)
            << K->Name;
      Reported = true;
    } else if (!Reported && !Lim.Nvidia && K && K->FlatWorkGroupMin &&
               Threads < *K->FlatWorkGroupMin) {
      // Below the range's minimum: the backend compiled for larger workgroups (clang's
      // attribute reference: a dispatch outside the range is undefined).
      diag(Loc, "%0 under the flat work-group size minimum of %1 threads of kernel '%2' "
                "(amdgpu_flat_work_group_size(%1, %3)): the code was compiled for larger "
                "workgroups, a smaller one is undefined behaviour")
          << Block << std::to_string(*K->FlatWorkGroupMin) << K->Name
          << std::to_string(K->FlatWorkGroupMax.value_or(*K->FlatWorkGroupMin));
      instantiationNote(L);
      Reported = true;
    } else if (!Reported && K && K->LaunchBoundsMaxThreads &&
               Threads > *K->LaunchBoundsMaxThreads) {
      diag(Loc, "%0 over the __launch_bounds__ maximum of %1 threads of kernel '%2'")
          << Block << std::to_string(*K->LaunchBoundsMaxThreads) << K->Name;
      instantiationNote(L);
      if (K->LaunchBoundsLoc.isValid())
        diag(K->LaunchBoundsLoc, "__launch_bounds__ of '%0' declared here", DiagnosticIDs::Note)
            << K->Name;
      Reported = true;
    }
  }
  if (!S.Grid.known())
    return Reported;
  const auto &G = *S.Grid.Dims;
  for (int I = 0; I < 3; ++I) {
    if (G[I] == 0) {
      diag(Loc, "grid dimension %0 of %1 is 0; every dimension needs at least one block")
          << DimName[I] << S.Grid.str();
    } else if (Lim.Limits.gridDimOver(I, G[I]) && I == 0 && G[1] == 1 && G[2] == 1) {
      diag(Loc, "grid of %0 blocks is over the limit of %1 blocks in x%2")
          << std::to_string(G[0]) << std::to_string(Lim.Limits.MaxGrid[0]) << Lim.on();
    } else if (Lim.Limits.gridDimOver(I, G[I])) {
      diag(Loc, "grid dimension %0 of %1 is %2, over the limit of %3%4")
          << DimName[I] << S.Grid.str() << std::to_string(G[I])
          << std::to_string(Lim.Limits.MaxGrid[I]) << Lim.on();
    } else {
      continue;
    }
    instantiationNote(L);
    Reported = true;
  }
  return Reported;
}

void LaunchConfigInvalidCheck::checkSharedMemory(const LaunchModel &L, const LaunchTarget &Lim) {
  // Only for a resolved kernel: the opt-in is per kernel.
  const KernelInfo *K = L.Kernel;
  const LaunchSite &S = *L.Site;
  if (!Lim.Nvidia) {
    // AMD: the launch record's answer (core's LDS limit per workgroup), static LDS from
    // the compiler where counted, else from the declarations.
    for (const LaunchFigures &E : L.PerArch) {
      if (!E.Result || !E.Result->Failure ||
          E.Result->Failure->Kind != wl::LaunchFailureKind::SharedOverBlockLimit)
        continue;
      uint64_t Static = E.Resources.StaticSharedBytes;
      uint64_t Dyn = E.Shape ? E.Shape->DynamicSharedBytes : 0;
      diag(S.Loc, "launch of '%0' asks for %1 of LDS per workgroup (%2 static + %3 dynamic), "
                  "over the %4 a workgroup may use on %5")
          << L.name() << bytes(Static + Dyn) << bytes(Static) << bytes(Dyn)
          << bytes(uint64_t(E.Arch->LdsPerWorkgroupBytes)) << E.Arch->Name;
      instantiationNote(L);
      return;
    }
    return;
  }
  if (!K || !S.DynamicSmem.Bytes)
    return;
  uint64_t Dyn = *S.DynamicSmem.Bytes;
  uint64_t Static = K->StaticSmemBytes.value_or(0);
  uint64_t Total = Static + Dyn;
  std::string What = Static ? bytes(Static) + " static + " + bytes(Dyn) + " dynamic = " +
                                  bytes(Total) + " of shared memory"
                            : bytes(Dyn) + " of dynamic shared memory";
  if (Lim.Limits.OptinSharedBytes && Total > *Lim.Limits.OptinSharedBytes) {
    diag(S.Loc, "launch of '%0' asks for %1, over the maximum of %2 per block%3")
        << K->Name << What << bytes(*Lim.Limits.OptinSharedBytes) << Lim.on();
  } else if (K->HasOptin && K->Optin.Bytes && Dyn > *K->Optin.Bytes) {
    diag(S.Loc, "launch of '%0' asks for %1 of dynamic shared memory, over the %2 set with "
                "cudaFuncSetAttribute")
        << K->Name << bytes(Dyn) << bytes(*K->Optin.Bytes);
    instantiationNote(L);
    diag(K->OptinLoc, "cudaFuncAttributeMaxDynamicSharedMemorySize of '%0' set here",
         DiagnosticIDs::Note)
        << K->Name;
    return;
  } else if (!K->HasOptin && Total > Lim.Limits.DefaultSharedBytes) {
    diag(S.Loc, "launch of '%0' asks for %1, over the %2 a block gets without "
                "cudaFuncSetAttribute(%0, cudaFuncAttributeMaxDynamicSharedMemorySize, ...)")
        << K->Name << What << bytes(Lim.Limits.DefaultSharedBytes);
  } else {
    return;
  }
  instantiationNote(L);
}

} // namespace clang::tidy::warplint
