//===- LaunchConfigInvalidCheck.cpp - warplint-launch-config-invalid -----===//
#include "checks/LaunchConfigInvalidCheck.h"

#include "model/Facts.h"
#include "warplint/core/Arch.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::warplint {

namespace {

/// The limits a launch is checked against; the arch-independent CUDA limits when the
/// target architecture is not known.
struct Limits {
  std::string Arch; ///< "sm_86", or empty when not known
  uint64_t MaxThreads = 1024;
  uint64_t MaxBlock[3] = {1024, 1024, 64};
  uint64_t MaxGrid[3] = {2147483647, 65535, 65535};
  uint64_t DefaultSharedBytes = 48 * 1024;  ///< per block without the opt-in
  std::optional<uint64_t> OptinSharedBytes; ///< the arch's maximum with the opt-in
  bool Nvidia = true;
};

Limits limitsFor(const ::warplint::GpuArch *A) {
  Limits L;
  if (!A)
    return L;
  L.Arch = A->Name;
  L.Nvidia = A->isNvidia();
  L.MaxThreads = uint64_t(A->MaxThreadsPerBlock);
  L.MaxBlock[0] = uint64_t(A->MaxBlockDimX);
  L.MaxBlock[1] = uint64_t(A->MaxBlockDimY);
  L.MaxBlock[2] = uint64_t(A->MaxBlockDimZ);
  L.MaxGrid[0] = uint64_t(A->MaxGridDimX);
  L.MaxGrid[1] = uint64_t(A->MaxGridDimY);
  L.MaxGrid[2] = uint64_t(A->MaxGridDimZ);
  if (A->isNvidia()) {
    L.DefaultSharedBytes = uint64_t(A->SharedPerBlockBytes);
    L.OptinSharedBytes = uint64_t(A->SharedPerBlockOptinBytes);
  } else {
    L.DefaultSharedBytes = uint64_t(A->LdsPerWorkgroupBytes);
    L.OptinSharedBytes = uint64_t(A->LdsPerWorkgroupBytes);
  }
  return L;
}

std::string bytes(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return std::to_string(B / 1024) + " KiB";
  return std::to_string(B) + " bytes";
}

const char *const DimName[3] = {"x", "y", "z"};

/// Whether a NOLINT comment on a line names the check: `NOLINT`, `NOLINT(*)`,
/// `NOLINT(warplint-*)`, `NOLINT(a, warplint-launch-config-invalid)`.
bool lineSilences(StringRef Line, StringRef Directive, StringRef Check) {
  size_t Pos = Line.find(Directive);
  if (Pos == StringRef::npos)
    return false;
  StringRef Rest = Line.substr(Pos + Directive.size());
  if (Directive == "NOLINT" &&
      (Rest.starts_with("NEXTLINE") || Rest.starts_with("BEGIN") || Rest.starts_with("END")))
    return false;
  if (!Rest.starts_with("("))
    return true;
  size_t Close = Rest.find(')');
  if (Close == StringRef::npos)
    return true; // clang-tidy reads an unclosed list as "all checks"
  llvm::SmallVector<StringRef, 4> Names;
  Rest.slice(1, Close).split(Names, ',');
  for (StringRef N : Names) {
    N = N.trim();
    if (N == "*" || N == Check || (N.ends_with("*") && Check.starts_with(N.drop_back())))
      return true;
  }
  return false;
}

} // namespace

/// clang-tidy never applies NOLINT to error-level diagnostics; this check's findings are
/// errors, so it honours NOLINT and NOLINTNEXTLINE on the reported line itself.
bool LaunchConfigInvalidCheck::silenced(SourceLocation Loc, const SourceManager &SM) const {
  if (Loc.isInvalid())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return false;
  size_t Begin = Buffer.rfind('\n', Offset);
  Begin = Begin == StringRef::npos ? 0 : Begin + 1;
  size_t End = Buffer.find('\n', Offset);
  StringRef Line = Buffer.slice(Begin, End);
  if (lineSilences(Line, "NOLINT", Name))
    return true;
  if (Begin == 0)
    return false;
  size_t PrevBegin = Buffer.rfind('\n', Begin - 1);
  PrevBegin = PrevBegin == StringRef::npos ? 0 : PrevBegin + 1;
  return lineSilences(Buffer.slice(PrevBegin, Begin - 1), "NOLINTNEXTLINE", Name);
}

namespace {} // namespace

LaunchConfigInvalidCheck::LaunchConfigInvalidCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Name(Name.str()), Arch(Options.get("Arch", "")) {
  if (!Arch.empty() && !::warplint::findArch(Arch)) {
    configurationDiag("unknown Arch '%0' (known: %1); using the translation unit's target")
        << Arch << ::warplint::knownArchNames();
    Arch.clear();
  }
  Sources.read(Options);
}

void LaunchConfigInvalidCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Arch", Arch);
  Sources.store(Options, Opts);
}

void LaunchConfigInvalidCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void LaunchConfigInvalidCheck::check(const MatchFinder::MatchResult &Result) {
  TUFacts Facts = collectFacts(*Result.Context);
  const Limits Lim = limitsFor(::warplint::findArch(Arch.empty() ? Facts.Arch : Arch));
  const std::string On = Lim.Arch.empty() ? "" : " on " + Lim.Arch;
  const SourceManager &SM = *Result.SourceManager;

  // Kernel-level facts that make every launch fail.
  for (const KernelInfo &K : Facts.Kernels) {
    if (!Lim.Nvidia)
      break;
    uint64_t Static = K.StaticSmemBytes.value_or(0);
    if (Static > Lim.DefaultSharedBytes && !silenced(K.Decl->getLocation(), SM))
      diag(K.Decl->getLocation(),
           "static shared memory of kernel '%0' is %1, over the %2 a block may declare "
           "statically",
           DiagnosticIDs::Error)
          << K.Name << bytes(Static) << bytes(Lim.DefaultSharedBytes);
    if (K.HasOptin && K.Optin.Bytes && Lim.OptinSharedBytes &&
        Static + *K.Optin.Bytes > *Lim.OptinSharedBytes && K.OptinLoc.isValid() &&
        !silenced(K.OptinLoc, SM)) {
      diag(K.OptinLoc,
           "cudaFuncSetAttribute asks for %0 of dynamic shared memory for kernel '%1'; "
           "with %2 static, at most %3 are allowed per block%4",
           DiagnosticIDs::Error)
          << bytes(*K.Optin.Bytes) << K.Name << bytes(Static)
          << bytes(*Lim.OptinSharedBytes > Static ? *Lim.OptinSharedBytes - Static : 0) << On;
    }
  }

  // The compiler's registers, when a source is configured (none by default).
  ResourceProvider Provider(Sources);
  if (!Facts.Launches.empty())
    for (const std::string &M : Provider.load(*Result.Context, PP, Facts.Arch))
      configurationDiag("%0: %1") << Name << M;

  for (const LaunchSite &L : Facts.Launches) {
    if (L.Loc.isInvalid() || silenced(L.Loc, SM))
      continue;
    const KernelInfo *K = Facts.kernel(L.Kernel);
    bool Reported = false;
    auto Note = [&] {
      if (!L.Instantiation.empty())
        diag(L.Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Instantiation;
      Reported = true;
    };

    // Registers x threads over the register file: the runtime refuses the launch with
    // "too many resources requested for launch".
    if (L.Block.known() && !Provider.table().empty() && !L.MangledName.empty()) {
      const auto &B = *L.Block.Dims;
      ::warplint::LaunchShape Shape = ::warplint::LaunchShape::block(
          ::warplint::Dim3{int64_t(B[0]), int64_t(B[1]), int64_t(B[2])},
          L.DynamicSmem.Bytes.value_or(0));
      for (const ArchEvaluation &E : Provider.evaluate(K, L.MangledName, "", nullptr)) {
        if (!E.Figures)
          continue;
        ::warplint::KernelResources Res = E.Resources;
        Res.LaunchBoundsMaxThreads = 0; // over-the-bounds launches are reported above
        ::warplint::OccupancyResult R = ::warplint::computeOccupancy(*E.Arch, Res, Shape);
        if (!R.Failure || (R.Failure->Kind != ::warplint::LaunchFailureKind::RegisterFileExceeded &&
                           R.Failure->Kind != ::warplint::LaunchFailureKind::TooManyRegisters))
          continue;
        diag(L.Loc,
             "launch of '%0' needs %1 registers per block on %2 (%3 registers/thread for %4 "
             "threads), over the %5 of the register file: too many resources requested for "
             "launch",
             DiagnosticIDs::Error)
            << (K ? K->Name : L.KernelName) << unsigned(R.AllocatedRegistersPerBlock)
            << E.Arch->Name << unsigned(Res.RegistersPerThread) << unsigned(Shape.ThreadsPerBlock)
            << unsigned(E.Arch->RegistersPerBlock);
        int MaxRegs = E.Arch->RegistersPerBlock / int(Shape.ThreadsPerBlock);
        diag(L.Loc, "at most %0 registers/thread fit %1 threads: __launch_bounds__(%1) makes "
                    "ptxas keep within them",
             DiagnosticIDs::Note)
            << unsigned(MaxRegs) << unsigned(Shape.ThreadsPerBlock);
        if (E.Figures->SpillStoreBytes.value_or(0) || E.Figures->SpillLoadBytes.value_or(0))
          diag(L.Loc,
               "ptxas already spills %0 bytes/thread of stores and %1 of loads to local "
               "memory for '%2' on %3; fewer registers will spill more",
               DiagnosticIDs::Note)
              << unsigned(E.Figures->SpillStoreBytes.value_or(0))
              << unsigned(E.Figures->SpillLoadBytes.value_or(0)) << (K ? K->Name : L.KernelName)
              << E.Arch->Name;
        diag(L.Loc, "%0", DiagnosticIDs::Note) << describeSource(E);
        Note();
      }
    }

    if (L.Block.known()) {
      const auto &B = *L.Block.Dims;
      // A 1-D block over 1024 in x is over the threads limit too: said once, below.
      bool OneD = B[1] == 1 && B[2] == 1;
      for (int I = 0; I < 3; ++I) {
        if (B[I] == 0) {
          diag(L.Loc,
               "block dimension %0 of %1 is 0; every dimension needs at least one "
               "thread",
               DiagnosticIDs::Error)
              << DimName[I] << L.Block.str();
          Note();
        } else if (B[I] > Lim.MaxBlock[I] && !(OneD && B[I] > Lim.MaxThreads)) {
          diag(L.Loc, "block dimension %0 of %1 is %2, over the limit of %3%4",
               DiagnosticIDs::Error)
              << DimName[I] << L.Block.str() << std::to_string(B[I])
              << std::to_string(Lim.MaxBlock[I]) << On;
          Note();
        }
      }
      uint64_t Threads = L.Block.total();
      // "block of 2048 threads" for a 1-D block, "block dim3(64,32) has 2048 threads".
      std::string Block = OneD ? "block of " + std::to_string(Threads) + " threads is"
                               : "block " + L.Block.str() + " has " + std::to_string(Threads) +
                                     " threads,";
      if (!Reported && Threads > Lim.MaxThreads) {
        diag(L.Loc, "%0 over the limit of %1 threads per block%2", DiagnosticIDs::Error)
            << Block << std::to_string(Lim.MaxThreads) << On;
        Note();
      } else if (!Reported && K && K->LaunchBoundsMaxThreads &&
                 Threads > *K->LaunchBoundsMaxThreads) {
        diag(L.Loc, "%0 over the __launch_bounds__ maximum of %1 threads of kernel '%2'",
             DiagnosticIDs::Error)
            << Block << std::to_string(*K->LaunchBoundsMaxThreads) << K->Name;
        Note();
        if (K->LaunchBoundsLoc.isValid())
          diag(K->LaunchBoundsLoc, "__launch_bounds__ of '%0' declared here", DiagnosticIDs::Note)
              << K->Name;
      }
    }

    if (L.Grid.known()) {
      const auto &G = *L.Grid.Dims;
      for (int I = 0; I < 3; ++I) {
        if (G[I] == 0) {
          diag(L.Loc,
               "grid dimension %0 of %1 is 0; every dimension needs at least one "
               "block",
               DiagnosticIDs::Error)
              << DimName[I] << L.Grid.str();
          Note();
        } else if (G[I] > Lim.MaxGrid[I] && I == 0 && G[1] == 1 && G[2] == 1) {
          diag(L.Loc, "grid of %0 blocks is over the limit of %1 blocks in x%2",
               DiagnosticIDs::Error)
              << std::to_string(G[0]) << std::to_string(Lim.MaxGrid[0]) << On;
          Note();
        } else if (G[I] > Lim.MaxGrid[I]) {
          diag(L.Loc, "grid dimension %0 of %1 is %2, over the limit of %3%4", DiagnosticIDs::Error)
              << DimName[I] << L.Grid.str() << std::to_string(G[I])
              << std::to_string(Lim.MaxGrid[I]) << On;
          Note();
        }
      }
    }

    // Shared memory: only for a resolved kernel (the opt-in is per kernel).
    if (!K || !L.DynamicSmem.Bytes || !Lim.Nvidia)
      continue;
    uint64_t Dyn = *L.DynamicSmem.Bytes;
    uint64_t Static = K->StaticSmemBytes.value_or(0);
    uint64_t Total = Static + Dyn;
    std::string What = Static ? bytes(Static) + " static + " + bytes(Dyn) +
                                    " dynamic = " + bytes(Total) + " of shared memory"
                              : bytes(Dyn) + " of dynamic shared memory";
    if (Lim.OptinSharedBytes && Total > *Lim.OptinSharedBytes) {
      diag(L.Loc, "launch of '%0' asks for %1, over the maximum of %2 per block%3",
           DiagnosticIDs::Error)
          << K->Name << What << bytes(*Lim.OptinSharedBytes) << On;
      Note();
    } else if (K->HasOptin && K->Optin.Bytes && Dyn > *K->Optin.Bytes) {
      diag(L.Loc,
           "launch of '%0' asks for %1 of dynamic shared memory, over the %2 set "
           "with cudaFuncSetAttribute",
           DiagnosticIDs::Error)
          << K->Name << bytes(Dyn) << bytes(*K->Optin.Bytes);
      Note();
      diag(K->OptinLoc, "cudaFuncAttributeMaxDynamicSharedMemorySize of '%0' set here",
           DiagnosticIDs::Note)
          << K->Name;
    } else if (!K->HasOptin && Total > Lim.DefaultSharedBytes) {
      diag(L.Loc,
           "launch of '%0' asks for %1, over the %2 a block gets without "
           "cudaFuncSetAttribute(%0, cudaFuncAttributeMaxDynamicSharedMemorySize, "
           "...)",
           DiagnosticIDs::Error)
          << K->Name << What << bytes(Lim.DefaultSharedBytes);
      Note();
    }
  }
}

} // namespace clang::tidy::warplint
