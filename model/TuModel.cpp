//===- TuModel.cpp - one model per translation unit, shared by every check and output ===//
#include "model/TuModel.h"

#include "divergence/Idioms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

namespace wl = ::warplint;

namespace warplint {
using namespace clang;
namespace {

/// The models of the live ASTContexts. An entry is removed by the ASTContext's own
/// destruction (ASTContext::AddDeallocation), so a model never outlives the AST its
/// pointers refer to, and a later ASTContext at the same address starts afresh. The
/// driver's -j workers each have their own ASTContext; the lock guards the map only.
struct Registry {
  std::mutex Lock;
  std::map<const ASTContext *, std::unique_ptr<TuModel>> Models;
};

Registry &registry() {
  static Registry R;
  return R;
}

void forget(void *Ctx) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Models.erase(static_cast<const ASTContext *>(Ctx));
}

wl::LaunchShape shapeOf(const ShapeFact &Block, uint64_t DynamicSmem) {
  const auto &B = *Block.Dims;
  return wl::LaunchShape::block(wl::Dim3{int64_t(B[0]), int64_t(B[1]), int64_t(B[2])},
                                DynamicSmem);
}

} // namespace

TuModel &TuModel::of(ASTContext &Ctx, const Preprocessor *PP, const ModelOptions &Opts) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto It = R.Models.find(&Ctx);
  if (It != R.Models.end()) {
    if (PP && !It->second->PP)
      It->second->PP = PP;
    return *It->second;
  }
  auto Model = std::make_unique<TuModel>(Ctx, PP, Opts);
  TuModel &Ref = *Model;
  R.Models.emplace(&Ctx, std::move(Model));
  Ctx.AddDeallocation(&forget, &Ctx);
  return Ref;
}

TuModel::TuModel(ASTContext &Ctx, const Preprocessor *PP, ModelOptions Opts)
    : Ctx(Ctx), PP(PP), Opts(std::move(Opts)) {}

TuModel::~TuModel() {
  const char *Debug = std::getenv("WARPLINT_DEBUG_ANALYSES");
  if (!Facts)
    return;
  for (const KernelInfo &K : Facts->Kernels) {
    if (!K.Decl)
      continue;
    unsigned N = analysesOf(K.Decl);
    if (N && Debug && *Debug)
      llvm::errs() << "warplint-debug: kernel '" << K.Name << "': " << N
                   << (N == 1 ? " thread-dependence analysis\n"
                              : " thread-dependence analyses\n");
    ThreadDependence::forgetAnalyses(K.Decl);
  }
}

const TUFacts &TuModel::facts() {
  if (!Facts)
    Facts = collectFacts(Ctx);
  return *Facts;
}

std::string TuModel::arch() const {
  if (!Opts.Arch.empty())
    return Opts.Arch;
  return Facts ? Facts->Arch : targetArch(Ctx);
}

int TuModel::waveSize(llvm::StringRef Arch) const {
  // The TU's wavefront size applies to its own target (an RDNA target compiled with
  // -mwavefrontsize64); another arch of a register source runs its default.
  std::string Own = Facts ? Facts->Arch : targetArch(Ctx);
  return Arch == Own ? int(Facts ? Facts->WaveSize : targetWaveSize(Ctx)) : 0;
}

const LoadedRegisters &TuModel::registers() {
  if (!Registers) {
    // Nothing to count registers for: no launch and no kernel body, no nvcc run.
    const TUFacts &F = facts();
    bool AnyBody = std::any_of(F.Kernels.begin(), F.Kernels.end(),
                               [](const KernelInfo &K) { return K.HasBody; });
    if (F.Launches.empty() && !AnyBody) {
      Registers.emplace();
      Registers->Missing = "no kernel in this file";
    } else {
      Registers = loadRegisters(Opts.Registers, Ctx, PP, facts().Arch);
    }
  }
  return *Registers;
}

const std::vector<LaunchModel> &TuModel::launches() {
  if (!Launches) {
    const TUFacts &F = facts();
    registers();
    Launches.emplace();
    Launches->reserve(F.Launches.size());
    for (const LaunchSite &L : F.Launches)
      Launches->push_back(evaluate(L));
    // A GPU of another arch than every evaluation's: no grid-level figures, said once.
    if (const wl::GpuProduct *P = Opts.Gpu.empty() ? nullptr : wl::findProduct(Opts.Gpu)) {
      bool Any = false, Matched = false;
      for (const LaunchModel &M : *Launches)
        for (const LaunchFigures &E : M.PerArch) {
          Any = true;
          Matched |= E.Gpu != nullptr;
        }
      if (Any && !Matched)
        EvalProblems.push_back("warplint.Gpu '" + std::string(P->Key) + "' is " + P->Arch +
                               ", the figures are for " + arch() +
                               ": no waves or clusters for it (analyse with --arch " +
                               P->Arch + ")");
    }
  }
  return *Launches;
}

std::vector<std::string> TuModel::takeProblems() {
  // Each problem once, to whichever check asks first after it arose: a check that asks
  // before the register source is loaded (one that needs no figures) takes the option
  // problems, and a later one the register source's.
  std::vector<std::string> All = Opts.Problems;
  if (Registers)
    All.insert(All.end(), Registers->Problems.begin(), Registers->Problems.end());
  All.insert(All.end(), EvalProblems.begin(), EvalProblems.end());
  std::vector<std::string> Out;
  for (std::string &P : All)
    if (ProblemsTaken.insert(P).second)
      Out.push_back(std::move(P));
  return Out;
}

const wl::NextStep *LaunchFigures::step(wl::Resource What) const {
  for (const wl::NextStep &S : Steps)
    if (S.What == What)
      return &S;
  return nullptr;
}

std::string LaunchModel::name() const {
  return Kernel ? Kernel->Name : Site ? Site->KernelName : std::string();
}

LaunchFigures TuModel::figuresFor(const LaunchSite &L, const KernelInfo *K,
                                  const wl::GpuArch &Arch, const KernelFigures *F,
                                  bool ByBaseName) const {
  LaunchFigures E;
  E.Arch = &Arch;
  E.Compiler = F;
  E.ByBaseName = ByBaseName;
  std::optional<uint64_t> Smem = K ? K->StaticSmemBytes : std::nullopt;
  int LbThreads = K && K->LaunchBoundsMaxThreads ? int(*K->LaunchBoundsMaxThreads) : 0;
  int LbBlocks = K && K->LaunchBoundsMinBlocks ? int(*K->LaunchBoundsMinBlocks) : 0;
  if (F) {
    E.Resources = toKernelResources(*F, Smem, LbThreads, LbBlocks);
  } else {
    E.Resources.RegistersPerThread = 0; // not counted
    E.Resources.StaticSharedBytes = Smem.value_or(0);
    E.Resources.LaunchBoundsMaxThreads = LbThreads;
    E.Resources.LaunchBoundsMinBlocks = LbBlocks;
  }
  E.Resources.OptinDynamicSharedBytes = K && K->HasOptin && K->Optin.Bytes ? *K->Optin.Bytes : 0;
  // cc 2.x/3.x: cudaFuncSetCacheConfig picks the shared/L1 split (L1 the smallest shared
  // part, equal the middle one on Kepler; none and shared the default, the largest).
  if (Arch.NumSharedSplits > 1 && K && K->CacheConfig) {
    if (*K->CacheConfig == 2)
      E.Resources.SharedSplitBytes = uint64_t(Arch.SharedSplitsKiB[0]) * 1024;
    else if (*K->CacheConfig == 3 && Arch.NumSharedSplits == 3)
      E.Resources.SharedSplitBytes = uint64_t(Arch.SharedSplitsKiB[1]) * 1024;
  }
  if (L.Block.known() && L.DynamicSmem.Bytes)
    E.Shape = shapeOf(L.Block, *L.DynamicSmem.Bytes);
  wl::LaunchEvaluation Figures = wl::evaluateLaunch(Arch, E.Resources, E.Shape, F != nullptr);
  E.Result = std::move(Figures.Result);
  E.Steps = std::move(Figures.Steps);
  E.Ceiling = std::move(Figures.Ceiling);
  // A spilling kernel: what it keeps without its bound (the uncapped run's registers).
  if (F && F->UncappedRegisters && E.Shape) {
    wl::KernelResources Free = E.Resources;
    Free.RegistersPerThread = *F->UncappedRegisters;
    Free.LaunchBoundsMaxThreads = 0;
    Free.LaunchBoundsMinBlocks = 0;
    E.Uncapped = wl::computeOccupancy(Arch, Free, *E.Shape);
  }
  gridFigures(L, K, E);
  return E;
}

ClusterFact clusterOf(const LaunchSite &L, const KernelInfo *K) {
  ClusterFact C;
  // cudaLaunchKernelEx's attribute overrides the kernel's __cluster_dims__.
  if (L.HasLaunchCluster) {
    C.Has = true;
    C.Dims = L.LaunchCluster.Dims;
    C.Text = L.LaunchCluster.Text;
  } else if (K && (K->ClusterDims || K->ClusterDimsLoc.isValid())) {
    C.Has = true;
    C.Dims = K->ClusterDims;
    C.Loc = K->ClusterDimsLoc;
    C.Text = "__cluster_dims__";
    if (K->ClusterDims)
      C.Text += "(" + std::to_string((*K->ClusterDims)[0]) + ", " +
                std::to_string((*K->ClusterDims)[1]) + ", " +
                std::to_string((*K->ClusterDims)[2]) + ")";
  }
  C.NonPortable = K && K->NonPortableCluster;
  return C;
}

void TuModel::gridFigures(const LaunchSite &L, const KernelInfo *K, LaunchFigures &E) const {
  const ClusterFact C = clusterOf(L, K);
  E.HasCluster = C.Has;
  E.Cluster = C.Dims;
  E.ClusterText = C.Text;
  E.ClusterLoc = C.Loc;
  E.NonPortableCluster = C.NonPortable;
  // The run's GPU, when it is of the arch the figures are for.
  const wl::GpuProduct *P = Opts.Gpu.empty() ? nullptr : wl::findProduct(Opts.Gpu);
  const wl::GpuArch *PA = P ? wl::findArch(P->Arch) : nullptr;
  // By name: an RDNA target compiled for wave64 is its own row of the same arch.
  if (!P || !PA || std::string_view(PA->Name) != E.Arch->Name)
    return;
  E.Gpu = P;
  if (!E.Result || !E.Result->canLaunch())
    return;
  const int64_t ClusterBlocks =
      E.Cluster ? int64_t((*E.Cluster)[0] * (*E.Cluster)[1] * (*E.Cluster)[2]) : 0;
  const bool ClusterOk =
      E.Cluster && wl::clusterProblem(*E.Arch, ClusterBlocks, E.NonPortableCluster).empty();
  if (ClusterOk)
    E.Clusters =
        wl::activeClusters(E.Result->BlocksPerSm, ClusterBlocks, P->SmsPerGpc, P->GpcCount);
  if (!L.Grid.known())
    return;
  const int64_t Grid = int64_t(L.Grid.total());
  if (E.HasCluster) {
    // A cluster launch runs in waves of active clusters, when that is known.
    if (E.Clusters && E.Clusters->ActiveClusters > 0 && Grid % ClusterBlocks == 0)
      E.Waves = wl::wavesOf(Grid, E.Clusters->ActiveBlocks);
    return;
  }
  E.Waves = wl::waves(Grid, E.Result->BlocksPerSm, int(P->SmCount));
}

std::vector<KernelArchFigures> TuModel::figuresOf(llvm::StringRef Mangled,
                                                 std::string *Note) const {
  std::vector<KernelArchFigures> Out;
  const ResourceTable &Table = Registers->Table;
  if (Table.empty() || Mangled.empty())
    return Out;
  ResourceTable::Match Found = Table.match(Mangled);
  if (Note)
    *Note = Found.Note;
  // The analysed arch when the source has it; else every arch the source has (a ptxas
  // log of another build's archs).
  std::string Analysed = arch();
  std::vector<const KernelFigures *> Use;
  for (const KernelFigures *F : Found.PerArch)
    if (F->Arch == Analysed)
      Use.push_back(F);
  if (Use.empty())
    Use = Found.PerArch;
  for (const KernelFigures *F : Use)
    if (const wl::GpuArch *A = wl::findArch(F->Arch, waveSize(F->Arch)))
      Out.push_back({A, F, Found.ByBaseName});
  return Out;
}

std::vector<KernelArchFigures> TuModel::kernelFigures(const KernelInfo &K) {
  registers();
  return figuresOf(K.MangledName, nullptr);
}

std::string TuModel::kernelMatchNote(const KernelInfo &K) {
  registers();
  std::string Note;
  if (figuresOf(K.MangledName, &Note).empty() && Note.empty())
    Note = Registers->Missing;
  return Note;
}

LaunchModel TuModel::evaluate(const LaunchSite &L) const {
  LaunchModel M;
  M.Site = &L;
  M.Kernel = L.Kernel ? Facts->kernel(L.Kernel) : nullptr;
  for (const KernelArchFigures &F : figuresOf(L.MangledName, &M.MatchNote))
    M.PerArch.push_back(figuresFor(L, M.Kernel, *F.Arch, F.Compiler, F.ByBaseName));
  if (!M.PerArch.empty())
    return M;
  if (const wl::GpuArch *A = wl::findArch(arch(), waveSize(arch())))
    M.PerArch.push_back(figuresFor(L, M.Kernel, *A, nullptr, false));
  return M;
}

std::string amdAgprText(const LaunchFigures &E) {
  if (!E.Compiler || !E.Compiler->isAmd() || !E.Compiler->Vgprs ||
      E.Compiler->Agprs.value_or(0) == 0)
    return "";
  const unsigned V = unsigned(*E.Compiler->Vgprs), A = unsigned(*E.Compiler->Agprs);
  const std::string Arch = E.Compiler->Arch;
  // core's amdgpuOccupancyVgprs: one file on gfx90a and later CDNA, two before.
  if (unsigned(E.Compiler->Registers) != std::max(V, A))
    return std::to_string(V) + " VGPRs rounded up to 4 and " + std::to_string(A) +
           " AGPRs, one file on " + Arch + ": fewer of either counts";
  if (A >= V)
    return "the larger of its " + std::to_string(V) + " VGPRs and " + std::to_string(A) +
           " AGPRs, two files on " + Arch + ": the AGPRs must fall too";
  return "the larger of its " + std::to_string(V) + " VGPRs and " + std::to_string(A) +
         " AGPRs, two files on " + Arch;
}

std::string describeRegisters(const LaunchFigures &E) {
  if (!E.Compiler)
    return "registers unknown";
  std::string S = "registers from " + describeOrigin(*E.Compiler) + " (" + E.Compiler->Arch + ")";
  if (E.Compiler->isAmd())
    S = std::to_string(*E.Compiler->Vgprs) + " VGPRs, " +
        std::to_string(E.Compiler->Agprs.value_or(0)) + " AGPRs, " +
        std::to_string(E.Compiler->Sgprs.value_or(0)) + " SGPRs from " +
        (E.Compiler->Source == ResourceSource::Objects
             ? "the code object " + describeOrigin(*E.Compiler) + " ("
             : describeOrigin(*E.Compiler) + "'s AMDGPU backend (") +
        E.Compiler->Arch + ", wave" +
        std::to_string(E.Arch->WarpSize) + ")";
  if (E.ByBaseName)
    S += ", matched by base name";
  return S;
}

// --- Register advice checked by the compiler ----------------------------------------

namespace {

// Threads of a launch's block when it is a compile-time fact.
std::optional<uint64_t> blockThreads(const LaunchSite &L) {
  if (!L.Block.known())
    return std::nullopt;
  return L.Block.total();
}

/// What the compiler is asked for one kernel: a bound (PtxBound, AmdgpuBound) and, where the
/// bound is a register cap, why.
template <typename Bound> struct AdviceAsk {
  Bound B;
  std::string CapReason;
  unsigned AskedRegisters = 0;
};

/// The verified-advice requests of a TU, one per kernel, in the order of their first
/// launch with register advice: Candidate(L, E) gives a launch's step of fewer registers
/// (nullptr: none), Make(L, E, Step, Bound) fills the bound at that launch (false: none
/// from it). A kernel launched here with more threads than the bound's would fail under
/// __launch_bounds__, so it gets a cap of the step's registers instead (Bound::*Cap), with
/// CapWhat ("a register cap") and BlockWord ("block") in the reason.
template <typename Bound, typename CandidateFn, typename MakeFn>
std::vector<std::string> gatherAdvice(const std::vector<LaunchModel> &Launches,
                                      const TUFacts &Facts, CandidateFn &&Candidate,
                                      MakeFn &&Make, unsigned Bound::*Cap, const char *CapWhat,
                                      const char *BlockWord,
                                      std::map<std::string, AdviceAsk<Bound>> &ByKernel) {
  std::vector<std::string> Order;
  for (const LaunchModel &L : Launches)
    for (const LaunchFigures &E : L.PerArch) {
      const wl::NextStep *S = Candidate(L, E);
      if (!S || ByKernel.count(E.Compiler->Name))
        continue;
      AdviceAsk<Bound> A;
      if (!Make(L, E, *S, A.B))
        continue;
      A.B.Kernel = E.Compiler->Name;
      A.B.Threads = unsigned(E.Result->ThreadsPerBlock);
      A.AskedRegisters = unsigned(*S->GainAt);
      uint64_t Most = 0;
      for (unsigned I : L.Kernel->Launches)
        Most = std::max(Most, blockThreads(Facts.Launches[I]).value_or(0));
      if (Most > A.B.Threads) {
        A.B.*Cap = A.AskedRegisters;
        A.CapReason = std::string(CapWhat) + ": its launches here differ in " + BlockWord +
                      " size, up to " + std::to_string(Most) + " threads";
      }
      Order.push_back(E.Compiler->Name);
      ByKernel.emplace(E.Compiler->Name, std::move(A));
    }
  return Order;
}

} // namespace

void TuModel::verifyAdvice() {
  if (AdviceVerified)
    return;
  AdviceVerified = true;
  launches();
  if (Opts.VerifyAdvice && Registers && Registers->Source == ResourceSource::Clang &&
      Registers->ClangRun) {
    verifyAmdAdvice();
    return;
  }
  if (!Opts.VerifyAdvice || !Registers || Registers->Source != ResourceSource::Nvcc ||
      !Registers->NvccRun)
    return;
  const std::string &RunArch = Registers->NvccRun->Arch;
  // One bound per kernel (its first launch with register advice); a launch of the kernel
  // with more threads than that bound would fail under __launch_bounds__, so a register
  // cap (.maxnreg, what __maxnreg__ or -maxrregcount give) is verified instead.
  using Ask = AdviceAsk<PtxBound>;
  std::map<std::string, Ask> ByKernel;
  auto Candidate = [&](const LaunchModel &L, const LaunchFigures &E) -> const wl::NextStep * {
    if (!L.Kernel || !E.Result || !E.Result->canLaunch() || !E.Compiler || E.Arch->isAmd() ||
        E.Compiler->Source != ResourceSource::Nvcc || E.Compiler->Arch != RunArch ||
        !E.Result->isLimitedBy(wl::Resource::Registers))
      return nullptr;
    // A kernel whose own __launch_bounds__(T, minBlocks) this launch meets asked for its
    // occupancy: neither occupancy check reports it, and no what-if is run for it.
    if (E.Resources.LaunchBoundsMinBlocks > 0 &&
        E.Result->BlocksPerSm >= E.Resources.LaunchBoundsMinBlocks)
      return nullptr;
    const wl::NextStep *S = E.step(wl::Resource::Registers);
    return S && S->GainAt && *S->GainAt > 0 ? S : nullptr;
  };
  std::vector<std::string> Order = gatherAdvice<PtxBound>(
      *Launches, facts(), Candidate,
      [](const LaunchModel &, const LaunchFigures &, const wl::NextStep &S, PtxBound &B) {
        B.MinBlocks = unsigned(S.GainBlocksPerSm);
        return true;
      },
      &PtxBound::MaxRegisters, "a register cap", "block", ByKernel);
  if (Order.empty())
    return;
  std::vector<PtxBound> Bounds;
  for (const std::string &K : Order)
    Bounds.push_back(ByKernel[K].B);
  VerifyResult V = verifyRegisterAdvice(*Registers, Bounds);
  if (!V.Repaired.empty()) {
    EvalProblems.push_back("registers from nvcc: " + V.Repaired);
    Registers->CacheRepaired = true;
  }
  if (V.NotCached) {
    Registers->NotCached = true;
    return;
  }
  const std::string Compiler =
      "nvcc" + (Registers->CompilerRelease.empty() ? "" : " " + Registers->CompilerRelease);
  for (LaunchModel &L : *Launches)
    for (LaunchFigures &E : L.PerArch) {
      const wl::NextStep *S = Candidate(L, E);
      if (!S)
        continue;
      const Ask &A = ByKernel[E.Compiler->Name];
      // The launches the bound answers: those it was asked for (the kernel's first shape
      // of advice); with a register cap, every launch whose step allows that many.
      bool Answers = A.B.MaxRegisters
                         ? int64_t(A.B.MaxRegisters) <= *S->GainAt
                         : A.B.Threads == unsigned(E.Result->ThreadsPerBlock) &&
                               A.B.MinBlocks == unsigned(S->GainBlocksPerSm);
      if (!Answers)
        continue;
      wl::VerifiedAdvice VA;
      VA.Compiler = Compiler;
      VA.Threads = A.B.Threads;
      VA.MinBlocks = A.B.MinBlocks;
      VA.MaxRegisters = A.B.MaxRegisters;
      VA.CapReason = A.CapReason;
      VA.AskedRegisters = unsigned(*S->GainAt);
      if (VA.MaxRegisters) { // the cap names this launch's own step
        VA.Threads = unsigned(E.Result->ThreadsPerBlock);
        VA.MinBlocks = unsigned(S->GainBlocksPerSm);
      }
      VA.Error = V.Error;
      for (const VerifiedFigures &F : V.Kernels)
        if (F.Kernel == A.B.Kernel) {
          VA.Registers = unsigned(F.Registers);
          VA.SpillStoreBytes = F.SpillStoreBytes;
          VA.SpillLoadBytes = F.SpillLoadBytes;
        }
      if (VA.Registers && E.Shape) {
        // core's answer for what the compiler gave, under the bound it was given.
        wl::KernelResources Res = E.Resources;
        Res.RegistersPerThread = int(*VA.Registers);
        if (!VA.MaxRegisters) {
          Res.LaunchBoundsMaxThreads = int(VA.Threads);
          Res.LaunchBoundsMinBlocks = int(VA.MinBlocks);
        }
        wl::OccupancyResult R = wl::computeOccupancy(*E.Arch, Res, *E.Shape);
        if (R.canLaunch()) {
          VA.BlocksPerSm = unsigned(R.BlocksPerSm);
          VA.Occupancy = R.Occupancy;
        }
      }
      E.Verified = std::move(VA);
    }
}

void TuModel::verifyAmdAdvice() {
  // As on NVIDIA: one bound per kernel, from its first launch whose next step is fewer
  // VGPRs. The bound is what __launch_bounds__(threads, waves per EU) gives the backend
  // under HIP's headers; the waves per EU are core's waves per SIMD at the step's VGPRs.
  // A kernel launched here with larger workgroups gets a VGPR cap instead.
  using Ask = AdviceAsk<AmdgpuBound>;
  std::map<std::string, Ask> ByKernel;
  auto Candidate = [&](const LaunchModel &L, const LaunchFigures &E) -> const wl::NextStep * {
    if (!L.Kernel || !E.Result || !E.Result->canLaunch() || !E.Compiler || !E.Arch->isAmd() ||
        E.Compiler->Source != ResourceSource::Clang || !E.Shape ||
        !E.Result->isLimitedBy(wl::Resource::Registers))
      return nullptr;
    // A kernel whose own amdgpu_waves_per_eu this launch meets asked for its occupancy.
    if (L.Kernel->WavesPerEuMin && uint64_t(E.Result->WavesPerSimd) >= *L.Kernel->WavesPerEuMin)
      return nullptr;
    const wl::NextStep *S = E.step(wl::Resource::Registers);
    return S && S->GainAt && *S->GainAt > 0 ? S : nullptr;
  };
  // core's answer at the step's VGPRs: its waves per SIMD are the bound's waves per EU.
  auto AtStep = [&](const LaunchFigures &E, const wl::NextStep &S) {
    wl::KernelResources Res = E.Resources;
    Res.RegistersPerThread = int(*S.GainAt);
    Res.Vgprs = int(*S.GainAt);
    return wl::computeOccupancy(*E.Arch, Res, *E.Shape);
  };
  std::vector<std::string> Order = gatherAdvice<AmdgpuBound>(
      *Launches, facts(), Candidate,
      [&](const LaunchModel &, const LaunchFigures &E, const wl::NextStep &S, AmdgpuBound &B) {
        wl::OccupancyResult Gain = AtStep(E, S);
        if (!Gain.canLaunch() || Gain.WavesPerSimd <= 0)
          return false;
        B.WavesPerEu = unsigned(Gain.WavesPerSimd);
        return true;
      },
      &AmdgpuBound::MaxVgprs, "a VGPR cap", "workgroup", ByKernel);
  if (Order.empty())
    return;
  std::vector<AmdgpuBound> Bounds;
  for (const std::string &K : Order)
    Bounds.push_back(ByKernel[K].B);
  VerifyResult V = verifyAmdgpuAdvice(*Registers, Bounds);
  if (!V.Repaired.empty()) {
    EvalProblems.push_back("registers from clang: " + V.Repaired);
    Registers->CacheRepaired = true;
  }
  const std::string Compiler =
      "clang" + (Registers->CompilerRelease.empty() ? "" : " " + Registers->CompilerRelease);
  for (LaunchModel &L : *Launches)
    for (LaunchFigures &E : L.PerArch) {
      const wl::NextStep *S = Candidate(L, E);
      if (!S || !ByKernel.count(E.Compiler->Name))
        continue;
      const Ask &A = ByKernel[E.Compiler->Name];
      wl::OccupancyResult Gain = AtStep(E, *S);
      bool Answers = A.B.MaxVgprs
                         ? int64_t(A.B.MaxVgprs) <= *S->GainAt
                         : A.B.Threads == unsigned(E.Result->ThreadsPerBlock) &&
                               A.B.WavesPerEu == unsigned(Gain.WavesPerSimd);
      if (!Answers)
        continue;
      wl::VerifiedAdvice VA;
      VA.Amd = true;
      VA.Compiler = Compiler;
      VA.Threads = A.B.Threads;
      VA.MinBlocks = A.B.WavesPerEu;
      VA.MaxRegisters = A.B.MaxVgprs;
      VA.CapReason = A.CapReason;
      VA.AskedRegisters = unsigned(*S->GainAt);
      if (VA.MaxRegisters) { // the cap names this launch's own step
        VA.Threads = unsigned(E.Result->ThreadsPerBlock);
        VA.MinBlocks = unsigned(Gain.WavesPerSimd);
      }
      VA.Error = V.Error;
      for (const VerifiedFigures &F : V.Kernels)
        if (F.Kernel == A.B.Kernel) {
          VA.Registers = unsigned(F.Registers);
          VA.Sgprs = unsigned(F.Sgprs);
          VA.ScratchBytes = F.ScratchBytes;
          VA.VgprSpills = unsigned(F.VgprSpills);
          VA.SgprSpills = unsigned(F.SgprSpills);
        }
      if (VA.Registers) {
        // core's answer for what the compiler gave (its VGPRs and SGPRs) at this launch.
        wl::KernelResources Res = E.Resources;
        Res.RegistersPerThread = int(*VA.Registers);
        Res.Vgprs = int(*VA.Registers);
        Res.Sgprs = int(VA.Sgprs);
        wl::OccupancyResult R = wl::computeOccupancy(*E.Arch, Res, *E.Shape);
        if (R.canLaunch()) {
          VA.BlocksPerSm = unsigned(R.BlocksPerSm);
          VA.Occupancy = R.Occupancy;
          VA.WavesPerSimd = unsigned(R.WavesPerSimd);
        }
      }
      E.Verified = std::move(VA);
    }
}

std::optional<FixItHint> TuModel::launchBoundsFixIt(const LaunchModel &L, const LaunchFigures &E,
                                                    std::string *WhyNot) {
  auto No = [&](std::string Why) -> std::optional<FixItHint> {
    if (WhyNot)
      *WhyNot = std::move(Why);
    return std::nullopt;
  };
  const wl::VerifiedAdvice *V = E.Verified ? &*E.Verified : nullptr;
  if (!V || !V->Registers || !V->Error.empty())
    return No("the advice was not verified");
  if (V->MaxRegisters)
    return No(V->CapReason);
  if (V->spills())
    return No("the bound makes the kernel spill");
  if (!V->BlocksPerSm || *V->Registers > V->AskedRegisters)
    return No("the compiler did not reach the registers of the advice");
  const KernelInfo *K = L.Kernel;
  if (!K || !K->HasBody || !K->Decl)
    return No("the kernel's definition is not in this file");
  if (K->LaunchBoundsMaxThreads || K->MaxNReg || K->FlatWorkGroupMax || K->WavesPerEuMin)
    return No("the kernel has a bound of its own");
  for (unsigned I : K->Launches) {
    std::optional<uint64_t> T = blockThreads(facts().Launches[I]);
    if (!T)
      return No("a launch of the kernel has a block that is not known here");
    if (*T > V->Threads)
      return No("a launch of the kernel has more than " + std::to_string(V->Threads) +
                " threads");
  }
  // The declaration the attribute goes on: the template's pattern for an instantiation.
  const FunctionDecl *D = K->Decl;
  if (const FunctionDecl *Pattern = D->getTemplateInstantiationPattern()) {
    unsigned Instances = 0;
    for (const KernelInfo &Other : facts().Kernels)
      if (Other.Decl && Other.Decl->getTemplateInstantiationPattern() == Pattern)
        ++Instances;
    if (Instances > 1)
      return No("the kernel is a template with several instantiations here");
    D = Pattern;
  }
  if (D->getPreviousDecl() || D->getMostRecentDecl() != D)
    return No("the kernel is declared more than once");
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = D->getLocation();
  if (At.isInvalid() || At.isMacroID() || SM.isInSystemHeader(At) || !SM.isWrittenInMainFile(At))
    return No("the kernel's name is not written in this file");
  // One insertion per kernel: its other launches and the other occupancy check quote the
  // same advice, and a second identical insertion would write the bound twice.
  if (!FixItsGiven.insert(D).second)
    return No("the fix-it is on another finding of this kernel");
  return FixItHint::CreateInsertion(At, "__launch_bounds__(" + std::to_string(V->Threads) +
                                            ", " + std::to_string(V->MinBlocks) + ") ");
}

// --- Plain records -------------------------------------------------------------------

wl::SourcePos sourcePos(const SourceManager &SM, SourceLocation L) {
  wl::SourcePos P;
  PresumedLoc Pl = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (Pl.isInvalid())
    return P;
  P.File = Pl.getFilename();
  P.Line = Pl.getLine();
  P.Column = Pl.getColumn();
  return P;
}

namespace {

void fillFigures(wl::LaunchRecord &R, const LaunchFigures &E, const LoadedRegisters &Regs,
                 const std::string &TuArch) {
  if (E.Compiler) {
    R.Registers = unsigned(E.Compiler->Registers);
    R.RegistersSource = describeOrigin(*E.Compiler);
    R.SpillStoreBytes = E.Compiler->SpillStoreBytes;
    R.SpillLoadBytes = E.Compiler->SpillLoadBytes;
    R.StaticSmemBytes = E.Resources.StaticSharedBytes;
    if (E.Compiler->UncappedRegisters)
      R.UncappedRegisters = unsigned(*E.Compiler->UncappedRegisters);
    if (E.Uncapped && E.Uncapped->canLaunch()) {
      R.UncappedBlocksPerSm = unsigned(E.Uncapped->BlocksPerSm);
      R.UncappedOccupancy = E.Uncapped->Occupancy;
    }
    R.Verified = E.Verified;
    if (E.Compiler->isAmd()) {
      R.Vgprs = unsigned(*E.Compiler->Vgprs);
      R.Agprs = unsigned(E.Compiler->Agprs.value_or(0));
      R.Sgprs = unsigned(E.Compiler->Sgprs.value_or(0));
      R.PrivateSegmentBytes = E.Compiler->PrivateSegmentBytes;
      R.VgprSpills = unsigned(E.Compiler->VgprSpills.value_or(0));
      R.SgprSpills = unsigned(E.Compiler->SgprSpills.value_or(0));
      if (E.Compiler->BackendOccupancy)
        R.BackendWavesPerSimd = unsigned(*E.Compiler->BackendOccupancy);
    }
  } else {
    R.RegistersMissing = !Regs.Missing.empty() ? Regs.Missing
                                                : "the register source has no figures for "
                                                  "this kernel on " + std::string(E.Arch->Name);
  }
  R.WaveSize = unsigned(E.Arch->WarpSize);
  wl::LaunchEvaluation Figures{E.Result, E.Steps, E.Ceiling};
  wl::setFigures(R, *E.Arch, E.Resources, E.Shape, Figures, E.registersKnown());
  // One spelling per run: the TU's own arch as analysed (sm_121a, as its findings say),
  // not the name of the row of limits it shares with its base (sm_121).
  if (const wl::GpuArch *Own = wl::findArch(TuArch);
      Own && std::string_view(Own->Name) == std::string_view(E.Arch->Name))
    R.Arch = TuArch;
  R.Cluster = E.Cluster;
  R.ClusterText = E.ClusterText;
  R.NonPortableCluster = E.NonPortableCluster;
  if (E.Gpu) {
    R.Gpu = E.Gpu->Key;
    R.GpuSms = E.Gpu->SmCount;
  }
  if (E.Clusters)
    R.MaxActiveClusters = E.Clusters->ActiveClusters;
  R.Waves = E.Waves;
}

} // namespace

std::optional<size_t> AccessModel::worst() const {
  std::optional<size_t> W;
  for (size_t K = 0; K < PerShape.size(); ++K)
    if (PerShape[K].Figures.Evaluated &&
        (!W || PerShape[K].Figures.Typical.ratio() > PerShape[*W].Figures.Typical.ratio()))
      W = K;
  return W;
}

std::optional<wl::divergence::BlockShape> launchableBlock(const LaunchSite &L) {
  if (!L.Block.known())
    return std::nullopt;
  const auto &B = *L.Block.Dims;
  if (B[0] == 0 || B[1] == 0 || B[2] == 0 ||
      wl::PortableLaunchLimits.threadsOver(L.Block.total()))
    return std::nullopt;
  return wl::divergence::BlockShape{unsigned(B[0]), unsigned(B[1]), unsigned(B[2])};
}

std::vector<wl::divergence::BlockShape> assumedAlternatives() {
  return {{32, 1, 1}, {32, 8, 1}, {64, 4, 1}, {128, 2, 1}};
}

wl::divergence::BlockShape fitUnitDims(wl::divergence::BlockShape S, const KernelAnalysis &KA) {
  // The threads of a dimension the launches fix at 1 go to x (z to y when only z is).
  if (KA.UnitDims[2]) {
    (KA.UnitDims[1] ? S.X : S.Y) *= S.Z;
    S.Z = 1;
  }
  if (KA.UnitDims[1]) {
    S.X *= S.Y;
    S.Y = 1;
  }
  // Dimensions every launch fixes (beyond those at 1): kept, and the threads fill the
  // first open one.
  const std::array<unsigned, 3> &F = KA.FixedParts;
  if ((F[0] || F[1] || F[2]) && !(F[0] && F[1] && F[2]) &&
      ((F[0] && F[0] != 1) || (F[1] && F[1] != 1) || (F[2] && F[2] != 1))) {
    unsigned Threads = S.X * S.Y * S.Z, Known = 1;
    for (unsigned D = 0; D < 3; ++D)
      Known *= F[D] ? F[D] : 1;
    unsigned Dims[3];
    bool Filled = false;
    for (unsigned D = 0; D < 3; ++D) {
      Dims[D] = F[D] ? F[D] : Filled ? 1 : std::max(1u, Threads / Known);
      Filled |= !F[D];
    }
    S = wl::divergence::BlockShape{Dims[0], Dims[1], Dims[2]};
  }
  return S;
}

std::vector<wl::divergence::BlockShape> assumedAlternatives(const KernelAnalysis &KA,
                                                            const wl::divergence::BlockShape &Assumed) {
  std::vector<wl::divergence::BlockShape> Out;
  wl::divergence::BlockShape A = fitUnitDims(Assumed, KA);
  const std::array<unsigned, 3> &F = KA.FixedParts;
  for (wl::divergence::BlockShape S : assumedAlternatives()) {
    const unsigned Wide = S.X;
    S = fitUnitDims(S, KA);
    // An alternative is a block at least a warp wide in x. When the launches fix y or z
    // but leave x a run-time value (`dim3(warpSize, 16)`), fitting the alternative's
    // threads into the fixed dimensions narrows x below a warp (2x16 for 32 threads):
    // keep its width and the fixed dimensions instead, where the block stays launchable.
    if (!F[0] && !KA.UnitDims[0] && (F[1] || F[2]) && S.X < Wide) {
      S = wl::divergence::BlockShape{Wide, F[1] ? F[1] : 1, F[2] ? F[2] : 1};
      if (uint64_t(S.X) * S.Y * S.Z > 1024)
        continue;
    }
    bool Seen = S.X == A.X && S.Y == A.Y && S.Z == A.Z;
    for (const auto &O : Out)
      Seen |= O.X == S.X && O.Y == S.Y && O.Z == S.Z;
    if (!Seen)
      Out.push_back(S);
  }
  // A kernel that reads threadIdx.y, its x and y left open by the launches, is written
  // for a 2-D block, whose rows are often narrower than a warp: the 16x16 tile too
  // (CudaSift's matching kernels, `siftPoints1[128*ty + 16*i + tx]` with tx < 16).
  if (KA.TD.readsThreadIdx(1) && !KA.UnitDims[0] && !KA.UnitDims[1] && !F[0] && !F[1] &&
      !(A.X == 16 && A.Y == 16 && A.Z == 1))
    Out.push_back(wl::divergence::BlockShape{16, 16, 1});
  return Out;
}

namespace {

/// E's value when it is a compile-time fact in function Fn: an integer constant expression
/// (negative ones included), a local of Fn initialised with one and never written after,
/// or what the launch-facts evaluator finds (fields of a dim3, sizes).
std::optional<int64_t> constantIn(const Expr *E, const FunctionDecl *Fn, ASTContext &Ctx,
                                  WritesVarMemo &Writes, unsigned Depth = 0) {
  if (!E || E->isValueDependent() || E->containsErrors())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt() && R.Val.getInt().getSignificantBits() <= 64)
    return R.Val.getInt().getSExtValue();
  if (auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (Fn && Depth < 4 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
          !V->getType()->isReferenceType() && V->getDeclContext() == Fn &&
          !Writes(Fn->getBody(), V))
        return constantIn(V->getInit(), Fn, Ctx, Writes, Depth + 1);
  if (std::optional<uint64_t> V = evaluateInt(E, Ctx))
    return int64_t(*V);
  return std::nullopt;
}

/// S lies inside a loop of function Fn, or is not a node of Fn's body at all (in a helper
/// it calls: the caller's loops are not seen from there).
bool insideLoopOf(const FunctionDecl *Fn, const Stmt *S, FunctionParents &Walks) {
  DynTypedNodeList Parents = Walks.of(Fn, DynTypedNode::create(*S));
  for (unsigned Depth = 0; Depth < 256 && !Parents.empty(); ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (P.get<ForStmt>() || P.get<WhileStmt>() || P.get<DoStmt>() || P.get<CXXForRangeStmt>())
      return true;
    if (const auto *D = P.get<FunctionDecl>())
      return D->getCanonicalDecl() != Fn->getCanonicalDecl();
    if (P.get<LambdaExpr>())
      return true;
    Parents = Walks.of(Fn, P);
  }
  return true;
}

/// The values each parameter of K takes at its triple-chevron launches in the TU, for the
/// parameters that every such launch passes as a compile-time constant (none when a
/// launch goes through another API, whose arguments are not read).
KnownValues knownArguments(const KernelInfo &K, const TUFacts &F, ASTContext &Ctx,
                           TuModel &M) {
  KnownValues Out;
  if (!K.Decl || K.Launches.empty())
    return Out;
  std::vector<std::set<int64_t>> Values(K.Decl->getNumParams());
  std::vector<bool> Fixed(K.Decl->getNumParams(), true);
  for (unsigned I : K.Launches) {
    const auto *Call = dyn_cast_or_null<CUDAKernelCallExpr>(F.Launches[I].Call);
    if (!Call || Call->getNumArgs() != K.Decl->getNumParams())
      return {};
    for (unsigned P = 0; P < Call->getNumArgs(); ++P) {
      if (!Fixed[P])
        continue;
      const ParmVarDecl *PD = K.Decl->getParamDecl(P);
      if (!PD->getType()->isIntegerType()) {
        Fixed[P] = false;
        continue;
      }
      // A constant, or what the launching function's callers pass for the parameter it
      // hands on (TuModel::passedValues).
      std::vector<int64_t> Got = M.passedValues(Call->getArg(P), F.Launches[I].Enclosing);
      if (Got.empty())
        Fixed[P] = false;
      else
        Values[P].insert(Got.begin(), Got.end());
    }
  }
  for (unsigned P = 0; P < Values.size(); ++P)
    if (Fixed[P] && !Values[P].empty() && Values[P].size() <= 4 &&
        !K.Decl->getParamDecl(P)->getName().empty())
      Out[K.Decl->getParamDecl(P)->getName().str()] =
          std::vector<int64_t>(Values[P].begin(), Values[P].end());
  return Out;
}

/// The grid sizes every launch of K in the TU gives, by dimension ("gridDim.x" -> {64}),
/// where each launch's grid is known and they take at most 4 values: the memory figures
/// evaluate gridDim at these, not at a sampled 2 (a grid-stride `size = blockDim.x *
/// gridDim.x` decides how many items each lane takes).
void addKnownGrid(const KernelInfo &K, const TUFacts &F, KnownValues &Out) {
  if (K.Launches.empty())
    return;
  std::array<std::set<int64_t>, 3> Values;
  for (unsigned I : K.Launches) {
    const LaunchSite &L = F.Launches[I];
    if (!L.Grid.known())
      return;
    for (unsigned D = 0; D < 3; ++D)
      Values[D].insert(int64_t((*L.Grid.Dims)[D]));
  }
  static const char *Names[3] = {"gridDim.x", "gridDim.y", "gridDim.z"};
  for (unsigned D = 0; D < 3; ++D)
    if (Values[D].size() <= 4)
      Out[Names[D]] = std::vector<int64_t>(Values[D].begin(), Values[D].end());
}

} // namespace

std::vector<int64_t> TuModel::passedValues(const Expr *Arg, const FunctionDecl *Enclosing) {
  bool Cut = false;
  return passedValuesIn(Arg, Enclosing, 0, Cut);
}

std::vector<int64_t> TuModel::passedValuesIn(const Expr *Arg, const FunctionDecl *Enclosing,
                                             unsigned Depth, bool &Cut) {
  if (!Arg || Arg->isValueDependent())
    return {};
  if (std::optional<int64_t> V = constantIn(Arg, Enclosing, Ctx, Writes))
    return {*V};
  // `std::forward<T>(x)` and `std::move(x)` are x (a benchmark template's arguments).
  if (const Expr *Inner = forwardedOperand(Arg))
    return passedValuesIn(Inner, Enclosing, Depth, Cut);
  // A parameter of the launching function (a launch helper's `W`, a wrapper's size): what
  // its callers pass, unless the function writes it; a caller's own parameter is followed
  // to its callers in turn (llm.c's and HeCBench's dispatchers: main ->
  // kernel-number switch -> launcher; ginkgo's selection of a sub-warp size, which calls
  // itself once per size left in its list, handing its argument pack on).
  const auto *DR = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  // A reference parameter counts where the function does not write it (a forwarding
  // template's `Args&&... args`, handed on by value).
  if (!P || !Enclosing || P->getDeclContext() != Enclosing ||
      Enclosing->isDependentContext() ||
      (P->getType()->isReferenceType() &&
       !P->getType().getNonReferenceType()->isIntegralOrEnumerationType()))
    return {};
  if (auto Known = ParamValues.find(P); Known != ParamValues.end())
    return Known->second;
  // A parameter already being walked: the calls go round a cycle (a recursive helper
  // handing its parameter on), whose values are not followed. Every parameter of the
  // cycle then has none, whichever was asked first, so the answer is kept.
  if (ParamsWalked.count(P))
    return {};
  // A chain of callers deeper than any code writes by hand: not followed, and not kept,
  // since a walk from nearer the top might have finished.
  if (Depth >= 32) {
    Cut = true;
    return {};
  }
  ParamsWalked.insert(P);
  bool Own = false; // this walk cut below
  auto Values = [&]() -> std::vector<int64_t> {
    if (Writes(Enclosing->getBody(), P))
      return {};
    // A function whose address escapes may be called with any values.
    if (facts().Escapes.count(Enclosing->getCanonicalDecl()))
      return {};
    const auto &CallsOf = facts().CallsOf;
    auto It = CallsOf.find(Enclosing->getCanonicalDecl());
    if (It == CallsOf.end() || It->second.empty())
      return {};
    std::set<int64_t> Got;
    unsigned Index = P->getFunctionScopeIndex();
    for (auto [C, Caller] : It->second) {
      if (isa<CXXMemberCallExpr>(C) || Index >= C->getNumArgs())
        return {};
      std::vector<int64_t> One = passedValuesIn(C->getArg(Index), Caller, Depth + 1, Own);
      if (One.empty())
        return {};
      Got.insert(One.begin(), One.end());
      if (Got.size() > 8)
        return {};
    }
    return {Got.begin(), Got.end()};
  }();
  ParamsWalked.erase(P);
  if (Own)
    Cut = true;
  else
    ParamValues[P] = Values;
  return Values;
}

const KernelAnalysis &TuModel::kernelAnalysis(const FunctionDecl *Kernel) {
  const FunctionDecl *Canon = Kernel->getCanonicalDecl();
  auto Found = Analyses.find(Canon);
  if (Found != Analyses.end())
    return *Found->second;
  const TUFacts &F = facts();
  const KernelInfo *K = F.kernel(Kernel);
  const FunctionDecl *Def = K && K->Decl ? K->Decl : Kernel;
  if (const FunctionDecl *D = Def->getDefinition())
    Def = D;
  // The block dimensions that every launch of the TU fixes at 1, also where another
  // dimension is a run-time value (magma's `dim3 threads(nthreads, 1, 1)`): the analysis
  // takes threadIdx there as 0. A launch that cannot run does not count; no launch: none.
  std::array<bool, 3> Unit{false, false, false};
  // The dimensions every launch fixes while another is a run-time value.
  std::array<unsigned, 3> Fixed{0, 0, 0};
  bool XWarpRows = false, XLaneRows = false;
  // The kernel parameter that every launch passes its block's size in a dimension as.
  std::array<int, 3> SizeParams{-1, -1, -1};
  if (K) {
    bool Any = false, Partial = true, WarpRows = true, LaneRows = true;
    std::array<bool, 3> SameParam{true, true, true};
    std::array<bool, 3> Same{true, true, true};
    std::array<bool, 3> All{true, true, true};
    for (unsigned I : K->Launches) {
      const LaunchSite &L = F.Launches[I];
      if (L.Block.known() && !launchableBlock(L))
        continue;
      Any = true;
      for (unsigned D = 0; D < 3; ++D)
        All[D] = All[D] && L.Block.Parts[D] && *L.Block.Parts[D] == 1;
      Partial = Partial && !L.Block.known();
      for (unsigned D = 0; D < 3; ++D) {
        SameParam[D] = SameParam[D] && L.BlockParams[D] >= 0 &&
                       (SizeParams[D] < 0 || SizeParams[D] == L.BlockParams[D]);
        SizeParams[D] = SameParam[D] ? L.BlockParams[D] : -1;
      }
      WarpRows = WarpRows && L.Block.Parts[0] && *L.Block.Parts[0] % 32 == 0;
      LaneRows = LaneRows && L.Block.Parts[0] && *L.Block.Parts[0] == 32;
      for (unsigned D = 0; D < 3; ++D) {
        uint64_t V = L.Block.Parts[D] ? *L.Block.Parts[D] : 0;
        Same[D] = Same[D] && V > 0 && V <= 1024 && (!Fixed[D] || V == Fixed[D]);
        Fixed[D] = Same[D] ? unsigned(V) : 0;
      }
    }
    if (Any)
      Unit = {false, All[1], All[2]};
    if (!Any || !Partial)
      Fixed = {0, 0, 0};
    XWarpRows = Any && WarpRows;
    XLaneRows = Any && LaneRows;
    if (!Any)
      SizeParams = {-1, -1, -1};
  }
  // No launch of the kernel here: its block is assumed, and the assumed block and every
  // alternative it is held against (assumedAlternatives: 32x1, 32x8, 64x4, 128x2) are a
  // whole number of warps wide in x, so a warp never holds two rows: threadIdx.y and .z
  // are the same in a warp (issue 23: a finding under an assumed block stays a warning
  // only when it holds for every block at least a warp wide in x; PhysX's warp-per-item
  // kernels take the item from threadIdx.y in 32xN blocks launched from host code).
  if (!K || K->Launches.empty())
    XWarpRows = true;
  auto &TD = Dependences[Canon];
  TD = std::make_unique<ThreadDependence>(Ctx);
  TD->setUnitDims(Unit);
  TD->setWarpRows(XWarpRows);
  TD->setLaneRows(XLaneRows);
  TD->setBlockDimParams(SizeParams);
  TD->analyze(Def);
  auto A = std::unique_ptr<KernelAnalysis>(new KernelAnalysis{Def, K, *TD, {}, {}, false, Unit, {}});
  A->FixedParts = Fixed;
  if (K) {
    A->Known = knownArguments(*K, F, Ctx, *this);
    addKnownGrid(*K, F, A->Known);
  }
  if (K) {
    A->Host = hostFacts(*K, F, Ctx, Writes);
    // One value passed for a parameter at every launch (a constant, or its callers'):
    // the host facts hold it too, so the sync model reads the value the memory model
    // and the branch model read.
    for (unsigned P = 0; P < Def->getNumParams(); ++P) {
      const ParmVarDecl *PD = Def->getParamDecl(P);
      auto It = PD->getName().empty() ? A->Known.end() : A->Known.find(PD->getName().str());
      if (It != A->Known.end() && It->second.size() == 1 && PD->getType()->isIntegerType())
        A->Host[int(P)].Equal = It->second.front();
    }
  }
  // The distinct block shapes of its launches that can run, each with its first launch.
  if (K)
    for (unsigned I : K->Launches) {
      const LaunchSite &L = F.Launches[I];
      KernelLaunch KL{&L, std::nullopt};
      if (L.Block.known()) {
        std::optional<wl::divergence::BlockShape> Block = launchableBlock(L);
        if (!Block)
          continue; // cannot launch: warplint-launch-config-invalid reports it
        wl::divergence::BlockShape S = *Block;
        size_t Index = 0;
        while (Index < A->Shapes.size() &&
               !(A->Shapes[Index].Shape.X == S.X && A->Shapes[Index].Shape.Y == S.Y &&
                 A->Shapes[Index].Shape.Z == S.Z))
          ++Index;
        if (Index == A->Shapes.size())
          A->Shapes.push_back({S, L.Loc});
        KL.Shape = Index;
      }
      A->Launches.push_back(KL);
    }
  A->AssumedShape = A->Shapes.empty();
  return *(Analyses[Canon] = std::move(A));
}

unsigned TuModel::analysesOf(const FunctionDecl *Kernel) const {
  return ThreadDependence::analysesOf(Kernel);
}

std::vector<const KernelInfo *> TuModel::analysedKernels() {
  std::vector<const KernelInfo *> Out;
  for (const KernelInfo &K : facts().Kernels)
    if (K.Decl && K.HasBody && K.Decl->hasBody() && !K.Decl->isDependentContext())
      Out.push_back(&K);
  // In the order of their definitions (instantiations of one template in the order the
  // facts met them).
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(Out.begin(), Out.end(), [&](const KernelInfo *A, const KernelInfo *B) {
    SourceLocation LA = SM.getExpansionLoc(A->Decl->getLocation()),
                   LB = SM.getExpansionLoc(B->Decl->getLocation());
    return LA != LB && SM.isBeforeInTranslationUnit(LA, LB);
  });
  return Out;
}

const std::vector<AccessModel> &TuModel::accesses(const wl::divergence::BlockShape &AssumedBlock) {
  auto [It, New] =
      Accesses.try_emplace(std::array<unsigned, 3>{AssumedBlock.X, AssumedBlock.Y, AssumedBlock.Z});
  if (!New)
    return It->second;
  const TUFacts &F = facts();
  FunctionParents Walks(Ctx);
  for (const KernelInfo &K : F.Kernels) {
    if (!K.Decl || !K.HasBody || !K.Decl->hasBody() || K.Decl->isDependentContext())
      continue;
    const KernelAnalysis &KA = kernelAnalysis(K.Decl);
    const ThreadDependence &TD = KA.TD;
    // The distinct block shapes of its launches that can run.
    std::vector<std::pair<wl::divergence::BlockShape, SourceLocation>> Shapes;
    for (const KernelShape &S : KA.Shapes)
      Shapes.push_back({S.Shape, S.Launch});
    bool Assumed = KA.AssumedShape;
    if (Assumed)
      Shapes.push_back({fitUnitDims(AssumedBlock, KA), SourceLocation()});
    // The analysed arch's pipeline: 32-lane warps and 32-byte sectors on NVIDIA, the
    // wavefront and the vector L1 line on AMD.
    wl::memory::MemoryModel MM;
    if (const wl::GpuArch *A = wl::findArch(arch(), waveSize(arch())))
      MM = wl::memory::memoryModelFor(*A);
    const KnownValues &Known = KA.Known;
    // A one-block kernel launched once (an init, a search tree built by one block): the
    // launches' grids, and each launch outside its function's loops.
    unsigned OneBlock = 0;
    if (!Assumed && !K.Launches.empty()) {
      OneBlock = 1;
      for (unsigned I : K.Launches) {
        const LaunchSite &L = F.Launches[I];
        if (!L.Grid.known() || L.Grid.total() != 1 || !L.Block.known() || !L.Call ||
            !L.Enclosing || insideLoopOf(L.Enclosing, L.Call, Walks)) {
          OneBlock = 0;
          break;
        }
        OneBlock = std::max(OneBlock, unsigned(L.Block.total()));
      }
    }
    for (MemoryAccessSite &Site : collectAccesses(K.Decl, TD, Ctx)) {
      AccessModel A;
      A.Kernel = &K;
      A.AssumedShape = Assumed;
      if (OneBlock && !insideLoopOf(K.Decl, Site.Access, Walks)) {
        A.OnceInOneBlock = true;
        A.OneBlockThreads = OneBlock;
      }
      for (const auto &[Shape, Loc] : Shapes)
        A.PerShape.push_back({Shape, Loc, evaluateAccess(Site, TD.vars(), Shape, MM, &Known)});
      const AccessFigures &First = A.PerShape.front().Figures;
      if (Assumed && First.Evaluated && First.Typical.ratio() > 1.0)
        for (const wl::divergence::BlockShape &Alt : assumedAlternatives(KA, AssumedBlock))
          A.Alternatives.push_back(
              {Alt, SourceLocation(), evaluateAccess(Site, TD.vars(), Alt, MM, &Known)});
      A.Site = std::move(Site);
      It->second.push_back(std::move(A));
    }
  }
  return It->second;
}

namespace {

/// The call lies in a `for` loop that makes no trip in this instantiation: its start and
/// bound are compile-time constants and the condition is false at the start (`for (i =
/// WARP_SIZE / 2; i >= 1; i /= 2)` with WARP_SIZE = 1). The call is never made.
bool inLoopWithoutTrips(const SyncCall &C, const ASTContext &Ctx) {
  for (const Guard &G : C.Guards) {
    auto *F = G.Kind == Guard::Loop ? dyn_cast_or_null<ForStmt>(G.Branch) : nullptr;
    std::optional<ForHead> H = F ? forHead(F) : std::nullopt;
    if (!H || H->Init->isValueDependent() || H->Bound->isValueDependent())
      continue;
    Expr::EvalResult I, B;
    if (!H->Init->EvaluateAsInt(I, Ctx) || !H->Bound->EvaluateAsInt(B, Ctx))
      continue;
    const llvm::APSInt &X = I.Val.getInt(), &Y = B.Val.getInt();
    int64_t A = X.getExtValue(), L = Y.getExtValue();
    bool Enters = H->Op == BO_LT   ? A < L
                  : H->Op == BO_LE ? A <= L
                  : H->Op == BO_GT ? A > L
                  : H->Op == BO_GE ? A >= L
                  : H->Op == BO_NE ? A != L
                                   : true;
    if (!Enters)
      return true;
  }
  return false;
}

} // namespace

const TuModel::JointLaunches &TuModel::jointEnvs(const KernelInfo &K) {
  auto [It, New] = Joints.try_emplace(K.Decl);
  if (!New)
    return It->second;
  std::vector<JointEnv> Out;
  std::set<std::string> Names;
  const KernelAnalysis &KA = kernelAnalysis(K.Decl);
  for (unsigned I : K.Launches) {
    std::vector<std::string> Unknowns;
    std::vector<JointLaunch> Samples = jointLaunchSamples(facts().Launches[I], Ctx, 16, &Unknowns);
    if (Samples.empty())
      return It->second; // a launch not evaluated: no joint figure for the kernel
    Names.insert(Unknowns.begin(), Unknowns.end());
    for (const JointLaunch &J : Samples) {
      JointEnv E;
      E.Shape = {unsigned(J.Block[0]), unsigned(J.Block[1]), unsigned(J.Block[2])};
      E.Grid = J.Grid;
      E.Host = KA.Host;
      for (const auto &[P, V] : J.Args)
        if (V <= uint64_t(std::numeric_limits<int64_t>::max()))
          E.Host[int(P)].Equal = int64_t(V);
      Out.push_back(std::move(E));
    }
  }
  It->second.Envs = std::move(Out);
  It->second.Unknowns.assign(Names.begin(), Names.end());
  return It->second;
}

const std::vector<SyncModel> &TuModel::syncCalls(const wl::divergence::BlockShape &AssumedBlock) {
  auto [It, New] =
      Syncs.try_emplace(std::array<unsigned, 3>{AssumedBlock.X, AssumedBlock.Y, AssumedBlock.Z});
  if (!New)
    return It->second;
  for (const KernelInfo *KP : analysedKernels()) {
    const KernelInfo &K = *KP;
    const KernelAnalysis &KA = kernelAnalysis(K.Decl);
    const ThreadDependence &TD = KA.TD;
    std::vector<std::pair<wl::divergence::BlockShape, SourceLocation>> Shapes;
    for (const KernelShape &S : KA.Shapes)
      Shapes.push_back({S.Shape, S.Launch});
    bool Assumed = KA.AssumedShape;
    if (Assumed)
      Shapes.push_back({fitUnitDims(AssumedBlock, KA), SourceLocation()});
    for (const SyncCall &C : TD.syncCalls()) {
      if (inLoopWithoutTrips(C, Ctx))
        continue;
      SyncModel M;
      M.Kernel = &K;
      M.Class = classifySync(C, Ctx);
      if (M.Class.Kind == SyncKind::Other)
        continue;
      M.Call = exitsThatCount(C, M.Class);
      M.Causes = syncCauses(M.Call, M.Class.Kind, TD.vars(), Ctx);
      bool Lanes = M.Class.Kind == SyncKind::WarpMask || M.Class.Kind == SyncKind::Tile;
      if (M.Causes.empty() && !Lanes)
        continue;
      // An exit that alone keeps no thread apart from the others (the block takes it
      // together, for every sampled value, in every shape launched) is no cause of a split
      // the others make: a barrier's causes are the exits that split.
      if (M.Class.Kind == SyncKind::BlockBarrier && M.Causes.size() > 1) {
        std::vector<SyncCause> Kept;
        for (const SyncCause &Cause : M.Causes) {
          bool Whole = Cause.Kind == SyncCause::Exit && !Shapes.empty();
          if (Whole) {
            SyncCall Alone = M.Call;
            llvm::erase_if(Alone.Exits, [&](const ExitSite &X) { return X.Exit != Cause.Where; });
            for (const auto &[Shape, Loc] : Shapes) {
              ReachFigures R = evaluateReach(Alone, M.Class, TD.vars(), Shape, &KA.Host,
                                             nullptr, Loc.isValid());
              // Sampled values do not stand for a bounds exit's limit (`i >= n` leaves a
              // tail for most n): only a full evaluation drops one.
              Whole &= (R.Evaluated && !R.splits()) ||
                       (R.SampledWhole && Loc.isValid() && !Cause.BoundsExit);
            }
          }
          if (!Whole)
            Kept.push_back(Cause);
        }
        if (!Kept.empty())
          M.Causes = std::move(Kept);
      }
      M.AssumedShape = Assumed;
      bool Splits = false, AssumedSampledWhole = false, AssumedSampledSplit = false;
      for (const auto &[Shape, Loc] : Shapes) {
        M.PerShape.push_back(
            {evaluateReach(M.Call, M.Class, TD.vars(), Shape, &KA.Host, nullptr, Loc.isValid()),
             Loc});
        const ReachFigures &R = M.PerShape.back().first;
        Splits |= R.splits();
        AssumedSampledWhole |= Loc.isInvalid() && R.SampledWhole;
        AssumedSampledSplit |= Loc.isInvalid() && !R.Evaluated && !R.SampledWhole;
      }
      // A constant mask that leaves out lanes of a warp of the block: they may call it
      // (warplint-warp-sync-mask weighs that when nothing splits a warp before the call).
      bool LeavesOut = false;
      if (M.Class.Kind == SyncKind::WarpMask && M.Class.MaskValue)
        for (const auto &[Shape, Loc] : Shapes)
          for (unsigned W = 0; W * 32 < Shape.threads(); ++W)
            LeavesOut |= (wl::lanesThatExist(W, Shape.threads()) &
                          ~*M.Class.MaskValue) != 0;
      if (Lanes && M.Causes.empty() && !Splits && !LeavesOut)
        continue;
      // The alternatives weigh an assumed block's split (a note when one does not split),
      // its sampled split (a note when one is whole for every sampled value) and its
      // sampled whole (SyncCheck::shapesOf: trusted when every one is whole too).
      if (Assumed && (Splits || AssumedSampledWhole || AssumedSampledSplit))
        for (const wl::divergence::BlockShape &Alt : assumedAlternatives(KA, AssumedBlock))
          M.Alternatives.push_back(evaluateReach(M.Call, M.Class, TD.vars(), Alt, &KA.Host));
      // Not whole for the launches' shapes alone: the launches' grids, blocks and arguments
      // together may still bring every thread.
      bool Whole = !Assumed && llvm::all_of(M.PerShape, [](const auto &P) {
        return P.second.isValid() &&
               ((P.first.Evaluated && !P.first.splits()) || P.first.SampledWhole);
      });
      if (!Whole && M.Class.Kind != SyncKind::GridBarrier) {
        const JointLaunches &Joint = jointEnvs(K);
        bool All = !Joint.Envs.empty();
        for (const JointEnv &J : Joint.Envs) {
          ReachFigures R =
              evaluateReach(M.Call, M.Class, TD.vars(), J.Shape, &J.Host, &J.Grid, true);
          All &= (R.Evaluated && !R.splits()) || R.SampledWhole;
          if (!All)
            break;
        }
        if (All) {
          M.LaunchWhole = true;
          M.LaunchCount = unsigned(K.Launches.size());
          M.LaunchSamples = unsigned(Joint.Envs.size());
          M.LaunchUnknowns = Joint.Unknowns;
        }
      }
      It->second.push_back(std::move(M));
    }
  }
  return It->second;
}

void TuModel::reportSync(const SyncModel &S, const ReachFigures *Quoted, std::string Check,
                         std::string Severity, std::string Cause, SourceLocation CauseLoc) {
  SyncsReported.push_back(
      {&S, Quoted, std::move(Check), std::move(Severity), std::move(Cause), CauseLoc});
}

void TuModel::reportAccess(const AccessModel &A, size_t Shape, std::string Check,
                           std::string Text, bool Misaligned, const AccessFinding &As) {
  Reported.push_back({&A, Shape, std::move(Check), std::move(Text), Misaligned, As});
}

void TuModel::launchRecords(::warplint::ModelRecords &Out) {
  const LoadedRegisters &Regs = registers();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const LaunchModel &M : launches()) {
    const LaunchSite &L = *M.Site;
    wl::LaunchRecord R;
    R.Pos = sourcePos(SM, L.Loc);
    R.Kernel = L.KernelName;
    if (L.Kernel)
      R.MangledKernel = L.MangledName;
    R.Api = launchApiName(L.Api, L.Hip);
    R.Block = L.Block.Dims;
    R.Grid = L.Grid.Dims;
    R.BlockText = L.Block.Text;
    R.GridText = L.Grid.Text;
    R.DynamicSmemBytes = L.DynamicSmem.Bytes;
    if (!L.DynamicSmem.Bytes)
      R.DynamicSmemExpr = L.DynamicSmem.Text;
    R.Instantiation = L.Instantiation;
    if (L.Enclosing)
      R.Enclosing = functionName(L.Enclosing);
    R.Via = L.Via;
    R.Candidates = L.Candidates;
    if (L.FromCalls) {
      R.FromCalls = L.FromCalls;
      R.FromCallLine = sourcePos(SM, L.FromCallLoc).Line;
    }
    if (const KernelInfo *K = M.Kernel) {
      R.StaticSmemBytes = K->StaticSmemBytes;
      R.LaunchBoundsMaxThreads = K->LaunchBoundsMaxThreads;
      R.LaunchBoundsMinBlocks = K->LaunchBoundsMinBlocks;
      R.MaxNReg = K->MaxNReg;
      R.HasOptin = K->HasOptin;
      R.OptinDynamicSmemBytes = K->Optin.Bytes;
      R.WavesPerEuMin = K->WavesPerEuMin;
    }
    if (M.PerArch.empty()) {
      R.RegistersMissing = Regs.Missing;
      Out.Launches.push_back(std::move(R));
      continue;
    }
    for (const LaunchFigures &E : M.PerArch) {
      wl::LaunchRecord PerArch = R;
      fillFigures(PerArch, E, Regs, Out.Arch);
      if (!E.Compiler && !M.MatchNote.empty() && Regs.Source != ResourceSource::None)
        PerArch.RegistersMissing = M.MatchNote;
      // The impact of each launch check's finding at this launch, from this record: the
      // launch checks' rows of the one table of impacts.
      for (const wl::CheckImpact &C : wl::checkImpacts())
        if (C.OfLaunch)
          if (std::optional<wl::Impact> I = C.OfLaunch(PerArch))
            Out.Impacts.push_back(
                {C.Check, PerArch.Pos, PerArch.Arch, PerArch.Kernel.value_or(""), *I});
      Out.Launches.push_back(std::move(PerArch));
    }
  }
}

void TuModel::kernelRecords(::warplint::ModelRecords &Out) {
  const TUFacts &F = facts();
  const LoadedRegisters &Regs = registers();
  const SourceManager &SM = Ctx.getSourceManager();
  for (const KernelInfo &K : F.Kernels) {
    wl::KernelRecord R;
    R.Name = K.Name;
    R.MangledName = K.MangledName;
    if (K.Decl) {
      wl::SourcePos P = sourcePos(SM, K.Decl->getLocation());
      R.File = P.File;
      R.Line = P.Line;
      R.Column = P.Column;
      if (const FunctionDecl *Def = K.Decl->getDefinition(); Def && Def->hasBody()) {
        SourceRange Range = Def->getSourceRange();
        R.BeginLine = sourcePos(SM, Range.getBegin()).Line;
        R.EndLine = sourcePos(SM, Range.getEnd()).Line;
      }
    }
    R.StaticSmemBytes = K.StaticSmemBytes;
    R.LaunchBoundsMaxThreads = K.LaunchBoundsMaxThreads;
    R.LaunchBoundsMinBlocks = K.LaunchBoundsMinBlocks;
    R.LaunchBoundsMaxCluster = K.LaunchBoundsMaxCluster;
    R.MaxNReg = K.MaxNReg;
    R.HasOptin = K.HasOptin;
    R.OptinDynamicSmemBytes = K.Optin.Bytes;
    if (K.HasOptin && !K.Optin.Bytes)
      R.OptinExpr = K.Optin.Text;
    R.LaunchCount = unsigned(K.Launches.size());
    // warplint-register-spill's impact, at the kernel (and at the launches of a kernel
    // declared without its body here, where that check reports).
    if (K.Decl && Regs.Source != ResourceSource::None)
      for (const KernelArchFigures &KF : kernelFigures(K)) {
        if (!KF.Compiler || !KF.Arch)
          continue;
        const KernelFigures &C = *KF.Compiler;
        wl::Impact I = C.isAmd() ? wl::spillImpact(4 * uint64_t(C.VgprSpills.value_or(0)), 0,
                                                   unsigned(C.Vgprs.value_or(0)))
                                 : wl::spillImpact(C.SpillStoreBytes.value_or(0),
                                                   C.SpillLoadBytes.value_or(0),
                                                   unsigned(C.Registers));
        if (C.isAmd())
          I.Unit = "bytes of VGPR spills per lane";
        if (I.Value == 0)
          continue;
        if (K.HasBody)
          Out.Impacts.push_back({"warplint-register-spill", {R.File, R.Line, R.Column},
                                 KF.Arch->Name, K.Name, I});
        else
          for (unsigned L : K.Launches)
            Out.Impacts.push_back({"warplint-register-spill", sourcePos(SM, F.Launches[L].Loc),
                                   KF.Arch->Name, K.Name, I});
      }
    Out.Kernels.push_back(std::move(R));
  }
}

void TuModel::accessRecords(::warplint::ModelRecords &Out) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ReportedAccess &RA : Reported) {
    const AccessModel &A = *RA.Access;
    const AccessShape &Shape = A.PerShape[RA.Shape];
    const WarpExecution &X = Shape.Figures.Typical;
    wl::AccessRecord R;
    R.Pos = sourcePos(SM, A.Site.Access->getBeginLoc());
    R.Check = RA.Check;
    R.Kernel = A.Kernel->Name;
    R.Access = RA.Text;
    bool Shared = A.Site.Space == MemorySpace::Shared;
    R.Space = Shared ? "shared" : "global";
    R.Kind = A.Site.Load && A.Site.Store ? "load and store" : A.Site.Store ? "store" : "load";
    R.BytesPerLane = A.Site.Bytes;
    R.Block = {Shape.Shape.X, Shape.Shape.Y, Shape.Shape.Z};
    R.BlockAssumed = A.AssumedShape;
    R.Values = X.Values;
    R.Warp = X.Warp;
    R.WaveLanes = Shape.Figures.Model.Lanes;
    R.SegmentBytes = Shape.Figures.Model.SegmentBytes;
    R.LaneStrideBytes = X.LaneStride;
    if (Shared) {
      R.ActiveLanes = X.Waves.ActiveLanes;
      R.Wavefronts = X.Waves.Wavefronts;
      R.IdealWavefronts = X.Waves.IdealWavefronts;
      R.ConflictWays = X.Waves.Ways;
    } else {
      R.ActiveLanes = X.Sectors.ActiveLanes;
      R.Sectors = X.Sectors.Sectors;
      R.IdealSectors = X.Sectors.IdealSectors;
      R.BytesRequested = X.Sectors.BytesRequested;
      if (RA.Misaligned)
        R.MisalignmentBytes = Shape.Figures.Misalignment;
    }
    wl::SourcePos At = sourcePos(SM, RA.As.Finding.isValid() ? RA.As.Finding : A.Site.Access->getBeginLoc());
    R.FindingLine = At.Line;
    R.FindingColumn = At.Column;
    R.Places = RA.As.Places;
    R.Severity = RA.As.Note ? "note" : "warning";
    R.NoteReason = RA.As.NoteReason;
    if (std::optional<wl::Impact> I = wl::accessImpact(R))
      Out.Impacts.push_back({R.Check, {R.Pos.File, R.FindingLine, R.FindingColumn}, "", "", *I});
    Out.Accesses.push_back(std::move(R));
  }
}

void TuModel::syncRecords(::warplint::ModelRecords &Out) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ReportedSync &RS : SyncsReported) {
    const SyncModel &S = *RS.Sync;
    wl::SyncRecord R;
    R.Pos = sourcePos(SM, S.Call.Call->getBeginLoc());
    R.Check = RS.Check;
    R.Kernel = S.Kernel->Name;
    R.Call = S.Class.Name.find("()") != std::string::npos ? S.Class.Name : S.Class.Name + "()";
    R.Severity = RS.Severity;
    const ReachFigures &F = RS.Quoted ? *RS.Quoted : S.PerShape.front().first;
    R.Block = {F.Shape.X, F.Shape.Y, F.Shape.Z};
    R.BlockAssumed = S.AssumedShape;
    R.Evaluated = RS.Quoted != nullptr;
    if (RS.Quoted) {
      R.Values = F.Values;
      bool Lanes = S.Class.Kind == SyncKind::WarpMask || S.Class.Kind == SyncKind::Tile;
      for (size_t T = 0; !Lanes && T < F.Reaches.size(); ++T)
        if (!F.Reaches[T]) {
          if (!R.SkippingThreads.empty() && R.SkippingThreads.back()[1] + 1 == T)
            R.SkippingThreads.back()[1] = unsigned(T);
          else
            R.SkippingThreads.push_back({unsigned(T), unsigned(T)});
        }
      for (size_t W = 0; W < F.AbsentNamed.size(); ++W)
        if (F.AbsentNamed[W])
          R.AbsentLanes.push_back({uint32_t(W), F.AbsentNamed[W]});
    }
    R.Mask = S.Class.MaskValue;
    R.Cause = RS.Cause;
    if (RS.CauseLoc.isValid())
      R.CauseLine = sourcePos(SM, RS.CauseLoc).Line;
    Out.Syncs.push_back(std::move(R));
  }
}

void TuModel::branchRecords(::warplint::ModelRecords &Out) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Branches.empty()) {
    const std::vector<BranchModel> &Bs = Branches.front().second;
    for (const BranchModel &B : Bs) {
      wl::BranchRecord R;
      R.Pos = sourcePos(SM, B.Loc);
      R.Kernel = B.Kernel ? B.Kernel->Name : B.KernelName;
      R.Kind = B.Kind == BranchSite::If           ? "if"
               : B.Kind == BranchSite::Switch      ? "switch"
               : B.Kind == BranchSite::Conditional ? "?:"
               : B.Kind == BranchSite::ShortCircuit ? "short-circuit"
                                                   : "loop";
      R.Condition = B.Condition;
      R.Term = B.Term;
      R.Severity = branchSeverityName(B.Severity);
      R.Idiom = B.Idiom;
      R.NoteReasons = B.NoteReasons;
      R.BlockAssumed = B.AssumedShape;
      R.WaveSize = B.WaveSize;
      for (const BranchShape &S : B.PerShape) {
        wl::BranchShapeRecord X;
        X.Block = {S.Shape.X, S.Shape.Y, S.Shape.Z};
        X.LaunchLine = S.Launch.isValid() ? sourcePos(SM, S.Launch).Line : 0;
        X.Evaluated = S.Figures.Evaluated;
        X.DivergentWarps = S.Figures.Divergent;
        X.Warps = S.Figures.Total;
        X.Varies = S.Figures.Varies;
        X.WorstEfficiency = S.Figures.WorstEfficiency;
        X.BestEfficiency = S.Figures.Evaluated ? S.Figures.BestEfficiency : 1;
        X.OverTrips = S.Figures.Trips;
        X.TrueLanesMin = S.TrueLanesMin;
        X.TrueLanesMax = S.TrueLanesMax;
        X.MinorityLanes = S.Figures.MaxMinority;
        X.Sampled = S.Figures.Sampled;
        R.Shapes.push_back(std::move(X));
      }
      if (B.Worst)
        R.Worst = unsigned(*B.Worst);
      if (B.Severity != BranchSeverity::Silent && !B.DataDependent) {
        // The finding that stands for this place: its own, or the one it is folded into.
        const BranchModel *F = &B;
        while (F->FoldedInto)
          F = &Bs[*F->FoldedInto];
        wl::SourcePos At = sourcePos(SM, F->Loc);
        R.FindingLine = At.Line;
        R.FindingColumn = At.Column;
        R.Places = unsigned(F->Places.size());
        R.FindingImpact = F->Impact;
        // warplint-divergent-branch's impact, at its finding, from the record.
        if (F == &B && B.Impact)
          Out.Impacts.push_back({"warplint-divergent-branch", At, "", "", *B.Impact});
      } else if (B.DataDependent && B.Severity == BranchSeverity::Warning) {
        R.FindingLine = R.Pos.Line;
        R.FindingColumn = R.Pos.Column;
        R.Places = 1;
      }
      Out.Branches.push_back(std::move(R));
    }
  }
}

::warplint::ModelRecords TuModel::records() {
  ::warplint::ModelRecords Out;
  const LoadedRegisters &Regs = registers();
  Out.Arch = arch();
  Out.RegisterSource = resourceSourceName(Regs.Source);
  Out.RegistersMissing = Regs.Missing;
  launchRecords(Out);
  kernelRecords(Out);
  accessRecords(Out);
  syncRecords(Out);
  branchRecords(Out);
  correctnessRecords(Out);
  Out.Problems = takeProblems();
  return Out;
}

} // namespace warplint
