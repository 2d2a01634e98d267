//===- TuModel.cpp - one model per translation unit, shared by every check and output ===//
#include "model/TuModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace wl = ::warplint;

namespace clang::tidy::warplint {
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

// --- Plain records -------------------------------------------------------------------

namespace {

wl::SourcePos where(const SourceManager &SM, SourceLocation L) {
  wl::SourcePos P;
  PresumedLoc Pl = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (Pl.isInvalid())
    return P;
  P.File = Pl.getFilename();
  P.Line = Pl.getLine();
  P.Column = Pl.getColumn();
  return P;
}

void fillFigures(wl::LaunchRecord &R, const LaunchFigures &E, const LoadedRegisters &Regs,
                 const std::string &TuArch) {
  if (E.Compiler) {
    R.Registers = unsigned(E.Compiler->Registers);
    R.RegistersSource = describeOrigin(*E.Compiler);
    R.SpillStoreBytes = E.Compiler->SpillStoreBytes;
    R.SpillLoadBytes = E.Compiler->SpillLoadBytes;
    R.StaticSmemBytes = E.Resources.StaticSharedBytes;
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
  if (B[0] == 0 || B[1] == 0 || B[2] == 0 || L.Block.total() > 1024)
    return std::nullopt;
  return wl::divergence::BlockShape{unsigned(B[0]), unsigned(B[1]), unsigned(B[2])};
}

std::vector<wl::divergence::BlockShape> assumedAlternatives() {
  return {{32, 1, 1}, {32, 8, 1}, {64, 4, 1}, {128, 2, 1}};
}

namespace {

/// The values each parameter of K takes at its triple-chevron launches in the TU, for the
/// parameters that every such launch passes as a compile-time constant (none when a
/// launch goes through another API, whose arguments are not read).
KnownValues knownArguments(const KernelInfo &K, const TUFacts &F, ASTContext &Ctx) {
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
      std::optional<uint64_t> V = evaluateInt(Call->getArg(P), Ctx);
      if (!V || *V > uint64_t(INT64_MAX))
        Fixed[P] = false;
      else
        Values[P].insert(int64_t(*V));
    }
  }
  for (unsigned P = 0; P < Values.size(); ++P)
    if (Fixed[P] && !Values[P].empty() && Values[P].size() <= 4 &&
        !K.Decl->getParamDecl(P)->getName().empty())
      Out[K.Decl->getParamDecl(P)->getName().str()] =
          std::vector<int64_t>(Values[P].begin(), Values[P].end());
  return Out;
}

} // namespace

const KernelAnalysis &TuModel::kernelAnalysis(const FunctionDecl *Kernel) {
  auto It = KernelAnalyses.find(Kernel);
  if (It != KernelAnalyses.end())
    return *It->second;
  auto TD = std::make_unique<ThreadDependence>(Ctx);
  TD->analyze(Kernel);
  auto A = std::unique_ptr<KernelAnalysis>(new KernelAnalysis{Kernel, *TD, {}, true, {}});
  const TUFacts &F = facts();
  for (const KernelInfo &K : F.Kernels) {
    if (K.Decl != Kernel)
      continue;
    for (unsigned I : K.Launches) {
      const LaunchSite &L = F.Launches[I];
      if (L.Grid.known())
        A->Grids.push_back(*L.Grid.Dims);
      std::optional<wl::divergence::BlockShape> B = launchableBlock(L);
      if (!B)
        continue;
      if (std::none_of(A->Shapes.begin(), A->Shapes.end(), [&](const auto &S) {
            return S.X == B->X && S.Y == B->Y && S.Z == B->Z;
          }))
        A->Shapes.push_back(*B);
    }
  }
  A->AssumedShape = A->Shapes.empty();
  for (const KernelInfo &K : F.Kernels)
    if (K.Decl == Kernel)
      A->Known = knownArguments(K, F, Ctx);
  KernelTDs[Kernel] = std::move(TD);
  return *(KernelAnalyses[Kernel] = std::move(A));
}

const std::vector<AccessModel> &TuModel::accesses(unsigned AssumedBlockSize) {
  auto [It, New] = Accesses.try_emplace(AssumedBlockSize);
  if (!New)
    return It->second;
  const TUFacts &F = facts();
  std::optional<ThreadDependence> TD;
  for (const KernelInfo &K : F.Kernels) {
    if (!K.Decl || !K.HasBody || !K.Decl->hasBody() || K.Decl->isDependentContext())
      continue;
    // The distinct block shapes of its launches that can run.
    std::vector<std::pair<wl::divergence::BlockShape, SourceLocation>> Shapes;
    for (unsigned I : K.Launches) {
      const LaunchSite &L = F.Launches[I];
      std::optional<wl::divergence::BlockShape> Block = launchableBlock(L);
      if (!Block)
        continue;
      wl::divergence::BlockShape S = *Block;
      if (std::none_of(Shapes.begin(), Shapes.end(), [&](const auto &P) {
            return P.first.X == S.X && P.first.Y == S.Y && P.first.Z == S.Z;
          }))
        Shapes.push_back({S, L.Loc});
    }
    bool Assumed = Shapes.empty();
    if (Assumed)
      Shapes.push_back({wl::divergence::BlockShape{AssumedBlockSize, 1, 1}, SourceLocation()});
    if (!TD)
      TD.emplace(Ctx);
    TD->analyze(K.Decl);
    // The analysed arch's pipeline: 32-lane warps and 32-byte sectors on NVIDIA, the
    // wavefront and the vector L1 line on AMD.
    wl::memory::MemoryModel MM;
    if (const wl::GpuArch *A = wl::findArch(arch(), waveSize(arch())))
      MM = wl::memory::memoryModelFor(*A);
    KnownValues Known = knownArguments(K, F, Ctx);
    for (MemoryAccessSite &Site : collectAccesses(K.Decl, *TD, Ctx)) {
      AccessModel A;
      A.Kernel = &K;
      A.AssumedShape = Assumed;
      for (const auto &[Shape, Loc] : Shapes)
        A.PerShape.push_back({Shape, Loc, evaluateAccess(Site, TD->vars(), Shape, MM, &Known)});
      const AccessFigures &First = A.PerShape.front().Figures;
      if (Assumed && First.Evaluated && First.Typical.ratio() > 1.0)
        for (const wl::divergence::BlockShape &Alt : assumedAlternatives())
          if (Alt.X != AssumedBlockSize || Alt.Y != 1)
            A.Alternatives.push_back(
                {Alt, SourceLocation(), evaluateAccess(Site, TD->vars(), Alt, MM, &Known)});
      A.Site = std::move(Site);
      It->second.push_back(std::move(A));
    }
  }
  return It->second;
}

void TuModel::reportAccess(const AccessModel &A, size_t Shape, std::string Check,
                           std::string Text, bool Misaligned, const AccessFinding &As) {
  Reported.push_back({&A, Shape, std::move(Check), std::move(Text), Misaligned, As});
}

::warplint::ModelRecords TuModel::records() {
  ::warplint::ModelRecords Out;
  const TUFacts &F = facts();
  const std::vector<LaunchModel> &Ls = launches();
  const LoadedRegisters &Regs = registers();
  const SourceManager &SM = Ctx.getSourceManager();
  Out.Arch = arch();
  Out.RegisterSource = resourceSourceName(Regs.Source);
  Out.RegistersMissing = Regs.Missing;
  for (const LaunchModel &M : Ls) {
    const LaunchSite &L = *M.Site;
    wl::LaunchRecord R;
    R.Pos = where(SM, L.Loc);
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
      Out.Launches.push_back(std::move(PerArch));
    }
  }
  for (const KernelInfo &K : F.Kernels) {
    wl::KernelRecord R;
    R.Name = K.Name;
    R.MangledName = K.MangledName;
    if (K.Decl) {
      wl::SourcePos P = where(SM, K.Decl->getLocation());
      R.File = P.File;
      R.Line = P.Line;
      R.Column = P.Column;
      if (const FunctionDecl *Def = K.Decl->getDefinition(); Def && Def->hasBody()) {
        SourceRange Range = Def->getSourceRange();
        R.BeginLine = where(SM, Range.getBegin()).Line;
        R.EndLine = where(SM, Range.getEnd()).Line;
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
    Out.Kernels.push_back(std::move(R));
  }
  for (const ReportedAccess &RA : Reported) {
    const AccessModel &A = *RA.Access;
    const AccessShape &Shape = A.PerShape[RA.Shape];
    const WarpExecution &X = Shape.Figures.Typical;
    wl::AccessRecord R;
    R.Pos = where(SM, A.Site.Access->getBeginLoc());
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
    wl::SourcePos At = where(SM, RA.As.Finding.isValid() ? RA.As.Finding : A.Site.Access->getBeginLoc());
    R.FindingLine = At.Line;
    R.FindingColumn = At.Column;
    R.Places = RA.As.Places;
    R.Severity = RA.As.Note ? "note" : "warning";
    R.NoteReason = RA.As.NoteReason;
    Out.Accesses.push_back(std::move(R));
  }
  Out.Problems = takeProblems();
  return Out;
}

} // namespace clang::tidy::warplint
