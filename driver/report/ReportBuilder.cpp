//===- ReportBuilder.cpp - launch records to report cards with core's model ===//
#include "driver/report/HtmlReport.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>
#include <unordered_map>

namespace warplint::driver {
namespace {

std::string bytes(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return fmt::format("{} KiB ({} B)", B / 1024, B);
  return fmt::format("{} B", B);
}

/// "limited by shared memory", from the record's limiter mask.
std::string limiterLine(const LaunchRecord &L, const GpuArch &Arch) {
  return limiterVerdict(Arch, L.LimiterMask, L.Registers.has_value());
}

SourcePos relative(SourcePos P, const std::string &Root) {
  if (!Root.empty())
    P.File = relativeToRoot(P.File, Root);
  return P;
}

Finding relative(Finding F, const std::string &Root) {
  F.Pos = relative(F.Pos, Root);
  for (FindingNote &N : F.Notes)
    N.Pos = relative(N.Pos, Root);
  return F;
}

std::string dims(const std::array<uint64_t, 3> &D) {
  return fmt::format("{} x {} x {}", D[0], D[1], D[2]);
}

} // namespace

std::vector<OccupancyChart> occupancyCharts(const GpuArch &Arch, const KernelResources &Res,
                                            const LaunchShape &Shape, std::optional<LaunchPoint> Now,
                                            bool RegistersKnown) {
  std::vector<OccupancyChart> Charts(3);
  OccupancyChart &Block = Charts[0], &Regs = Charts[1], &Smem = Charts[2];
  // AMD's calculator draws waves per SIMD (active wavefronts per CU over its SIMDs)
  // against VGPRs, LDS and workgroup size; NVIDIA's draws occupancy.
  const bool Amd = Arch.isAmd();
  auto Y = [&](int ActiveWarpsPerSm, double Occupancy) {
    return Amd ? double(ActiveWarpsPerSm) / Arch.SimdsPerCu : Occupancy;
  };
  for (OccupancyChart &C : Charts)
    C.WavesMax = Amd ? Arch.MaxWavesPerSimd : 0;
  Block.Title = Amd ? "Waves per SIMD vs workgroup size" : "Block size";
  Block.XLabel = Amd ? "lanes per workgroup" : "threads per block";
  Block.Discrete = true;
  for (const SweepPoint &P : sweepBlockSize(Arch, Res, Shape.DynamicSharedBytes))
    Block.Points.push_back({double(P.Value), Y(P.ActiveWarpsPerSm, P.Occupancy)});
  Regs.Title = Amd ? "Waves per SIMD vs VGPRs" : "Registers per thread";
  Regs.XLabel = Amd ? "VGPRs per lane" : "registers per thread";
  Smem.Title = Amd ? "Waves per SIMD vs LDS" : "Shared memory per block";
  Smem.XLabel = Amd ? "LDS bytes per workgroup" : "shared bytes per block";
  if (Shape.ThreadsPerBlock > 0) {
    for (const SweepPoint &P : sweepRegisters(Arch, Res, Shape))
      Regs.Points.push_back({double(P.Value), Y(P.ActiveWarpsPerSm, P.Occupancy)});
    for (const SweepPoint &P : sweepSharedMemory(Arch, Res, Shape))
      Smem.Points.push_back({double(P.Value), Y(P.ActiveWarpsPerSm, P.Occupancy)});
    double NowY = Now ? Y(Now->ActiveWarpsPerSm, Now->Occupancy) : 0;
    Block.HasCurrent = Now.has_value();
    Block.CurrentX = double(Shape.ThreadsPerBlock);
    Block.CurrentOccupancy = NowY;
    Regs.HasCurrent = Now && RegistersKnown;
    Regs.CurrentX = Amd ? Res.Vgprs : Res.RegistersPerThread;
    Regs.CurrentOccupancy = NowY;
    Smem.HasCurrent = Now.has_value();
    Smem.CurrentX = double(Res.StaticSharedBytes + Shape.DynamicSharedBytes);
    Smem.CurrentOccupancy = NowY;
  } else {
    // Without a block there is no register or shared-memory sweep to draw.
    Charts.resize(1);
  }
  return Charts;
}

namespace {

/// The findings of a run by place, to put each on its cards without a pass over all
/// findings per launch.
class FindingPlaces {
public:
  explicit FindingPlaces(const RunResult &Result) {
    for (size_t I = 0; I < Result.Findings.size(); ++I) {
      const SourcePos &P = Result.Findings[I].Pos;
      AtLine[{P.File, P.Line}].push_back(I);
      ByFile[P.File].push_back({P.Line, I});
    }
    for (auto &[File, Lines] : ByFile)
      std::sort(Lines.begin(), Lines.end());
    for (const KernelRecord &K : Result.Kernels)
      KernelsByName[K.Name].push_back(&K);
  }

  /// Findings on the launch's line (indices into Result.Findings, ascending).
  const std::vector<size_t> &atLaunch(const SourcePos &P) const {
    auto It = AtLine.find({P.File, P.Line});
    return It == AtLine.end() ? None : It->second;
  }

  /// Findings inside a definition of the kernel named `Name` (ascending).
  const std::vector<size_t> &inKernel(const std::string &Name) {
    auto [It, New] = InKernel.try_emplace(Name);
    if (!New)
      return It->second;
    auto Defs = KernelsByName.find(Name);
    if (Defs == KernelsByName.end())
      return It->second;
    for (const KernelRecord *K : Defs->second) {
      auto File = ByFile.find(K->File);
      if (File == ByFile.end())
        continue;
      const auto &Lines = File->second;
      auto First =
          std::lower_bound(Lines.begin(), Lines.end(), std::make_pair(K->BeginLine, size_t(0)));
      for (auto L = First; L != Lines.end() && L->first <= K->EndLine; ++L)
        It->second.push_back(L->second);
    }
    std::sort(It->second.begin(), It->second.end());
    It->second.erase(std::unique(It->second.begin(), It->second.end()), It->second.end());
    return It->second;
  }

private:
  std::map<std::pair<std::string_view, unsigned>, std::vector<size_t>> AtLine;
  std::unordered_map<std::string_view, std::vector<std::pair<unsigned, size_t>>> ByFile;
  std::unordered_map<std::string_view, std::vector<const KernelRecord *>> KernelsByName;
  std::unordered_map<std::string, std::vector<size_t>> InKernel;
  const std::vector<size_t> None;
};

/// What makes two launches share a card: the kernel, the arch and what core was given
/// for the kernel.
std::string cardKey(const ReportLaunch &C, const LaunchRecord &L) {
  const KernelResources &R = L.Resources;
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}\n{} {} {} {} {} {} {} {} {} {}", C.Kernel, C.Arch,
                     L.StaticSmemBytes ? std::to_string(*L.StaticSmemBytes) : "-",
                     L.Registers ? std::to_string(*L.Registers) : "-", L.RegistersSource,
                     L.RegistersMissing, R.RegistersPerThread, R.StaticSharedBytes, R.Barriers,
                     R.LaunchBoundsMaxThreads, R.LaunchBoundsMinBlocks, R.OptinDynamicSharedBytes,
                     R.CarveoutPercent, R.VirtualResources, R.Vgprs, R.Sgprs);
}

/// What makes two launches of a card share a shape: the shape core was given and its
/// answer, as the launch table shows them.
std::string shapeKey(const ReportLaunch &C, const LaunchShape &Shape) {
  Dim3 B = Shape.Block.value_or(Dim3{0, 0, 0});
  return fmt::format("{}\n{}\n{}\n{} {} {} {} {}\n{}\n{}\n{}\n{}", C.Block, C.DynamicShared,
                     C.BlocksPerSm, Shape.ThreadsPerBlock, Shape.DynamicSharedBytes, B.X, B.Y, B.Z,
                     C.Occupancy ? fmt::format("{}", *C.Occupancy) : "-", C.Limiter, C.LaunchError,
                     C.Missing);
}

std::string shapeSummary(const LaunchRecord &L, const ReportLaunch &C) {
  std::string S;
  if (L.Block) {
    uint64_t Threads = (*L.Block)[0] * (*L.Block)[1] * (*L.Block)[2];
    uint64_t Warps = (Threads + 31) / 32;
    S = fmt::format("{} block ({} thread{}, {} warp{})", C.Block, Threads, Threads == 1 ? "" : "s",
                    Warps, Warps == 1 ? "" : "s");
  } else {
    S = "block not known at compile time";
  }
  if (!C.DynamicShared.empty())
    S += ", " + C.DynamicShared + " dynamic shared";
  return S;
}

/// The shape the sweeps start from: the record's, or only the dynamic shared memory.
LaunchShape drawnShape(const LaunchRecord &L) {
  if (L.Shape)
    return *L.Shape;
  LaunchShape Shape;
  Shape.DynamicSharedBytes = L.DynamicSmemBytes.value_or(0);
  return Shape;
}

/// A launch record's row: the launch as written and the model's figures. The figures are
/// the model's (model/TuModel): the record says them, the report only draws them.
ReportLaunch launchRow(const LaunchRecord &L, const ReportOptions &Opts) {
  ReportLaunch C;
  C.Kernel = L.Kernel ? *L.Kernel : "(kernel not resolved)";
  SourcePos Where = relative(L.Pos, Opts.SourceRoot);
  C.Where = fmt::format("{}:{}:{}", Where.File, Where.Line, Where.Column);
  C.Arch = !L.Arch.empty()             ? L.Arch
           : !Opts.DefaultArch.empty() ? Opts.DefaultArch
           : Opts.Product              ? std::string(Opts.Product->Arch)
                                       : std::string();
  C.Api = L.Api;
  C.Block = L.Block ? dims(*L.Block) : "not known at compile time";
  uint64_t GridBlocks = 0;
  if (L.Grid) {
    GridBlocks = (*L.Grid)[0] * (*L.Grid)[1] * (*L.Grid)[2];
    C.Grid = fmt::format("{} ({} block{})", dims(*L.Grid), GridBlocks, GridBlocks == 1 ? "" : "s");
  } else {
    C.Grid = "not known at compile time";
  }
  if (L.DynamicSmemBytes)
    C.DynamicShared = bytes(*L.DynamicSmemBytes);
  else if (L.DynamicSmemExpr && !L.DynamicSmemExpr->empty())
    C.DynamicShared = *L.DynamicSmemExpr + " (not known; taken as 0)";

  const GpuArch *Arch = C.Arch.empty() ? nullptr : findArch(C.Arch);
  if (!Arch) {
    C.Missing = C.Arch.empty() ? "no target architecture: pass --arch or --gpu"
                               : "unknown architecture " + C.Arch;
  } else if (L.Occupancy && L.BlocksPerSm) {
    C.Occupancy = *L.Occupancy;
    C.Limiter = limiterLine(L, *Arch);
    C.BlocksPerSm = fmt::format("{} ({} of {} warps)", *L.BlocksPerSm,
                                L.ActiveWarpsPerSm.value_or(0), L.MaxWarpsPerSm.value_or(0));
    if (!L.Registers)
      C.Missing = "registers per thread not counted (" +
                  (L.RegistersMissing.empty() ? std::string("unknown") : L.RegistersMissing) +
                  "): the occupancy shown leaves the register limit out (an upper bound)";
    // A cluster launch: the model's active clusters and waves of clusters (the per-SM
    // timeline assumes blocks placed one by one, which clusters are not).
    if (L.Cluster && L.MaxActiveClusters) {
      const uint64_t Size = (*L.Cluster)[0] * (*L.Cluster)[1] * (*L.Cluster)[2];
      C.BlocksPerSm += fmt::format("; clusters of {}: {} at once on the {} "
                                   "(cudaOccupancyMaxActiveClusters, GPC layout assumed)",
                                   Size, *L.MaxActiveClusters, L.Gpu);
      if (L.Waves)
        C.BlocksPerSm += fmt::format("; {} wave{} of clusters, the last {:.0f}% full",
                                     L.Waves->WaveCount, L.Waves->WaveCount == 1 ? "" : "s",
                                     100 * L.Waves->LastWaveFullness);
    } else if (L.Grid && Opts.SmCount && *L.BlocksPerSm > 0) {
      C.Waves = WavePlan{GridBlocks, *L.BlocksPerSm, Opts.SmCount};
    }
  } else if (!L.Block) {
    C.Missing = "block shape not known at compile time: no occupancy";
  } else {
    C.Missing = "dynamic shared memory not known at compile time: no occupancy";
  }
  if (L.LaunchError)
    C.LaunchError = *L.LaunchError;
  return C;
}

/// Puts launch rows on their cards and shapes, and findings on the cards.
class PageBuilder {
public:
  PageBuilder(ReportPage &Page, const RunResult &Result, const ReportOptions &Opts)
      : Page(Page), Result(Result), Opts(Opts), Places(Result),
        Placed(Result.Findings.size(), false) {}

  void add(const LaunchRecord &L) {
    ReportLaunch C = launchRow(L, Opts);
    LaunchShape Shape = drawnShape(L);
    C.Card = cardOf(C, L);
    ReportKernel &K = Page.Kernels[C.Card];
    K.Launches.push_back(Page.Cards.size());
    C.Shape = shapeOf(C, L, Shape);
    ReportShape &S = K.Shapes[C.Shape];
    S.Launches.push_back(Page.Cards.size());
    if (C.Waves && llvm::none_of(S.Waves, [&](const WavePlan &W) {
          return W.GridBlocks == C.Waves->GridBlocks;
        }))
      S.Waves.push_back(*C.Waves);

    // The findings at the launch, and those inside the launched kernel's definition.
    const std::vector<size_t> &At = Places.atLaunch(L.Pos);
    const std::vector<size_t> &In = L.Kernel ? Places.inKernel(*L.Kernel) : NoFindings;
    std::vector<size_t> Mine;
    std::set_union(At.begin(), At.end(), In.begin(), In.end(), std::back_inserter(Mine));
    C.FindingCount = Mine.size();
    for (size_t I : Mine)
      Placed[I] = true;
    CardFindings[C.Card].insert(CardFindings[C.Card].end(), Mine.begin(), Mine.end());
    Page.Cards.push_back(std::move(C));
  }

  /// The cards' findings in the run's order, each once; the waves by grid size; the
  /// findings of no card.
  void finish() {
    for (size_t Card = 0; Card < Page.Kernels.size(); ++Card) {
      std::vector<size_t> &F = CardFindings[Card];
      std::sort(F.begin(), F.end());
      F.erase(std::unique(F.begin(), F.end()), F.end());
      for (size_t I : F)
        Page.Kernels[Card].Findings.push_back(relative(Result.Findings[I], Opts.SourceRoot));
      for (ReportShape &S : Page.Kernels[Card].Shapes)
        std::sort(S.Waves.begin(), S.Waves.end(),
                  [](const WavePlan &A, const WavePlan &B) { return A.GridBlocks < B.GridBlocks; });
    }
    for (ReportKernel &K : Page.Kernels)
      for (const BranchRecord &B : Result.Branches)
        if (B.Kernel == K.Kernel) {
          K.Branches.push_back(B);
          K.Branches.back().Pos = relative(B.Pos, Opts.SourceRoot);
        }
    for (ReportKernel &K : Page.Kernels)
      for (const RaceRecord &R : Result.Races)
        if (R.Kernel == K.Kernel) {
          K.Races.push_back(R);
          K.Races.back().Pos = relative(R.Pos, Opts.SourceRoot);
          K.Races.back().First.Pos = relative(R.First.Pos, Opts.SourceRoot);
          K.Races.back().Second.Pos = relative(R.Second.Pos, Opts.SourceRoot);
        }
    for (ReportKernel &K : Page.Kernels)
      for (const SyncRecord &S : Result.Syncs)
        if (S.Kernel == K.Kernel) {
          K.Syncs.push_back(S);
          K.Syncs.back().Pos = relative(S.Pos, Opts.SourceRoot);
        }
    for (ReportKernel &K : Page.Kernels)
      for (const AccessRecord &A : Result.Accesses)
        if (A.Kernel == K.Kernel) {
          K.Accesses.push_back(A);
          K.Accesses.back().Pos = relative(A.Pos, Opts.SourceRoot);
        }
    Page.FindingCount = Result.Findings.size();
    for (size_t I = 0; I < Result.Findings.size(); ++I)
      if (!Placed[I])
        Page.OtherFindings.push_back(relative(Result.Findings[I], Opts.SourceRoot));
  }

private:
  /// The launch's card: a new one for the first launch of a kernel, arch and resources.
  size_t cardOf(const ReportLaunch &C, const LaunchRecord &L) {
    auto [It, New] = Cards.try_emplace(cardKey(C, L), Page.Kernels.size());
    if (New) {
      ReportKernel K;
      K.Kernel = C.Kernel;
      K.Arch = C.Arch;
      K.Facts.push_back({"static shared",
                         L.StaticSmemBytes ? bytes(*L.StaticSmemBytes) : std::string("unknown")});
      if (L.Vgprs)
        K.Facts.push_back({"registers", fmt::format("{} VGPRs, {} AGPRs per lane, {} SGPRs per "
                                                    "wave ({})",
                                                    *L.Vgprs, L.Agprs.value_or(0),
                                                    L.Sgprs.value_or(0), L.RegistersSource)});
      else
        K.Facts.push_back({"registers", L.Registers ? fmt::format("{} per thread ({})",
                                                                  *L.Registers, L.RegistersSource)
                                                    : std::string("not counted")});
      Page.Kernels.push_back(std::move(K));
      Shapes.emplace_back();
      CardFindings.emplace_back();
    }
    return It->second;
  }

  /// The launch's shape on its card (C.Card): the charts are drawn once per shape.
  size_t shapeOf(const ReportLaunch &C, const LaunchRecord &L, const LaunchShape &Shape) {
    ReportKernel &K = Page.Kernels[C.Card];
    auto [It, New] = Shapes[C.Card].try_emplace(shapeKey(C, Shape), K.Shapes.size());
    if (New) {
      ReportShape S;
      S.Summary = shapeSummary(L, C);
      S.Occupancy = C.Occupancy;
      S.Limiter = C.Limiter;
      S.LaunchError = C.LaunchError;
      S.Missing = C.Missing;
      // The sweeps start from the inputs core was given.
      if (const GpuArch *Arch = C.Arch.empty() ? nullptr : findArch(C.Arch, L.WaveSize)) {
        // The launch is marked where its record puts it (one answer: the JSON's
        // active_warps_per_sm and occupancy), the curves are core's sweeps around it.
        std::optional<LaunchPoint> Now;
        if (L.ActiveWarpsPerSm && L.Occupancy)
          Now = LaunchPoint{int(*L.ActiveWarpsPerSm), *L.Occupancy};
        S.Charts = occupancyCharts(*Arch, L.Resources, Shape, Now, L.Registers.has_value());
      }
      K.Shapes.push_back(std::move(S));
    }
    return It->second;
  }

  ReportPage &Page;
  const RunResult &Result;
  const ReportOptions &Opts;
  FindingPlaces Places;
  std::vector<bool> Placed; ///< per finding: on a card
  std::unordered_map<std::string, size_t> Cards;
  std::vector<std::unordered_map<std::string, size_t>> Shapes; ///< per card
  std::vector<std::vector<size_t>> CardFindings;               ///< per card
  const std::vector<size_t> NoFindings;
};

} // namespace

ReportPage buildReport(const RunResult &Result, const ReportOptions &Opts) {
  ReportPage Page;
  if (Opts.Product)
    Page.Gpu = fmt::format("{} ({}, {} SMs)", Opts.Product->Name, Opts.Product->Arch, Opts.SmCount);
  else if (Opts.SmCount)
    Page.Gpu = fmt::format("{} SMs", Opts.SmCount);
  for (const std::string &F : Result.FilesAnalysed)
    Page.FilesAnalysed.push_back(Opts.SourceRoot.empty() ? F : relativeToRoot(F, Opts.SourceRoot));
  for (const std::string &F : Result.FilesFailed)
    Page.FilesFailed.push_back(Opts.SourceRoot.empty() ? F : relativeToRoot(F, Opts.SourceRoot));
  Page.ByImpact = Result.Findings;
  std::stable_sort(Page.ByImpact.begin(), Page.ByImpact.end(), [](const Finding &A, const Finding &B) {
    if (A.Impact.has_value() != B.Impact.has_value())
      return A.Impact.has_value();
    if (!A.Impact)
      return false;
    if (A.Impact->Rank != B.Impact->Rank)
      return A.Impact->Rank > B.Impact->Rank;
    return A.Impact->Value > B.Impact->Value;
  });
  for (Finding &F : Page.ByImpact)
    if (!Opts.SourceRoot.empty())
      F.Pos.File = relativeToRoot(F.Pos.File, Opts.SourceRoot);
  PageBuilder Builder(Page, Result, Opts);
  for (const LaunchRecord &L : Result.Launches)
    Builder.add(L);
  Builder.finish();
  return Page;
}

} // namespace warplint::driver
