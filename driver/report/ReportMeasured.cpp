//===- ReportMeasured.cpp - Nsight Compute's launches beside warplint's figures ===//
#include "driver/measure/NcuCsv.h"
#include "driver/report/HtmlReport.h"

#include "model/Records.h"

#include "warplint/core/Arch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace warplint::driver {
namespace {

const char *const AchievedMetric = "sm__warps_active.avg.pct_of_peak_sustained_active";
const char *const TheoreticalMetric = "sm__maximum_warps_per_active_cycle_pct";
const char *const UniformBranchMetric = "smsp__sass_average_branch_targets_threads_uniform.pct";
const char *const DivergentMetric = "smsp__sass_branch_targets_threads_divergent.sum";
const char *const BranchesMetric = "smsp__sass_branch_targets.sum";

/// ncu's launch__occupancy_limit_<suffix> and the resource it is.
const std::pair<const char *, Resource> NcuLimits[] = {{"registers", Resource::Registers},
                                                       {"shared_mem", Resource::SharedMemory},
                                                       {"warps", Resource::Warps},
                                                       {"blocks", Resource::Blocks},
                                                       {"barriers", Resource::Barriers}};

std::string dims(const std::array<uint64_t, 3> &D) {
  return fmt::format("{} x {} x {}", D[0], D[1], D[2]);
}

std::string whole(double V) { return fmt::format("{}", static_cast<long long>(std::llround(V))); }

std::string pctText(double Percent) {
  std::string S = fmt::format("{:.1f}", Percent);
  if (S.size() > 2 && S.substr(S.size() - 2) == ".0")
    S.resize(S.size() - 2);
  return S + "%";
}

/// A metric over the launches of a group: the value, or "mean (min to max, N launches)".
std::optional<std::string> spread(const std::vector<const NcuLaunch *> &Group, const char *Metric,
                                  bool Percent, bool SayAll = true) {
  std::vector<double> V;
  for (const NcuLaunch *L : Group)
    if (std::optional<double> N = L->number(Metric))
      V.push_back(*N);
  if (V.empty())
    return std::nullopt;
  auto fmtV = [Percent](double X) {
    return Percent ? pctText(X) : (X == std::floor(X) ? whole(X) : fmt::format("{:.2f}", X));
  };
  auto [Min, Max] = std::minmax_element(V.begin(), V.end());
  if (V.size() == 1 || *Min == *Max)
    return V.size() == 1 || !SayAll ? fmtV(V[0])
                                    : fmt::format("{} (all {} launches)", fmtV(V[0]), V.size());
  double Mean = 0;
  for (double X : V)
    Mean += X;
  Mean /= V.size();
  return fmt::format("{} mean ({} to {}, {} launches)", fmtV(Mean), fmtV(*Min), fmtV(*Max),
                     V.size());
}

/// The first launch's value of a metric that must be the same for all launches of a group
/// (a theoretical figure), and a note when it is not.
std::optional<double> same(const std::vector<const NcuLaunch *> &Group, const char *Metric,
                           std::vector<std::string> &Notes) {
  std::optional<double> First;
  for (const NcuLaunch *L : Group) {
    std::optional<double> N = L->number(Metric);
    if (!N)
      continue;
    if (!First)
      First = N;
    else if (*N != *First) {
      Notes.push_back(
          fmt::format("{} differs between the launches (ID {}: {})", Metric, L->Id, *N));
      break;
    }
  }
  return First;
}

/// Source launches a profiled launch can be: by mangled name, by name, or by name without
/// template arguments; and of those, the ones whose known shape agrees.
struct Match {
  size_t Record = 0;
  std::string How;
};

std::optional<Match> matchLaunch(const NcuLaunch &N, const RunResult &Result, const GpuArch *Arch) {
  std::string Key = ncuKernelKey(N.KernelName);
  bool Mangled = llvm::StringRef(Key).starts_with("_Z");
  std::vector<size_t> ByName;
  std::string How = Mangled ? "mangled name" : "name";
  for (int Pass = 0; Pass < 2 && ByName.empty(); ++Pass) {
    for (size_t I = 0; I < Result.Launches.size(); ++I) {
      const LaunchRecord &L = Result.Launches[I];
      if (Mangled ? (L.MangledKernel && *L.MangledKernel == Key)
                  : (L.Kernel && (Pass == 0 ? sourceKernelKey(*L.Kernel) == Key
                                            : withoutTemplateArgs(sourceKernelKey(*L.Kernel)) ==
                                                  withoutTemplateArgs(Key))))
        ByName.push_back(I);
    }
    if (Mangled)
      break;
    if (Pass == 0 && ByName.empty())
      How = "name without template arguments";
  }
  std::optional<Match> Best;
  int BestScore = -1;
  for (size_t I : ByName) {
    const LaunchRecord &L = Result.Launches[I];
    int Score = 0;
    if (L.Block && N.Block) {
      if (*L.Block != *N.Block)
        continue;
      Score += 2;
    }
    if (L.Grid && N.Grid) {
      if (*L.Grid != *N.Grid)
        continue;
      Score += 1;
    }
    if (Arch && L.Arch == Arch->Name)
      Score += 4;
    if (Score > BestScore) {
      BestScore = Score;
      Best = Match{I, How + ((Score & 3) == 3   ? ", block and grid"
                             : (Score & 3) == 2 ? ", block (grid not known in the source)"
                             : (Score & 3) == 1 ? ", grid (block not known in the source)"
                                                : ", shape not known in the source")};
    }
  }
  return Best;
}

class GroupBuilder {
public:
  GroupBuilder(const LaunchRecord &L, const std::vector<const NcuLaunch *> &Group,
               const std::vector<BranchRecord> &CardBranches)
      : L(L), Group(Group), CardBranches(CardBranches), N(*Group.front()) {}

  MeasuredGroup build(const std::string &Where, const std::string &How) {
    std::string Ids;
    for (const NcuLaunch *X : Group)
      Ids += (Ids.empty() ? "" : ", ") + std::to_string(X->Id);
    G.Title = fmt::format("{} launch{} (ncu ID{} {}): block {}, grid {}{}", Group.size(),
                          Group.size() == 1 ? "" : "es", Group.size() == 1 ? "" : "s", Ids,
                          N.Block ? dims(*N.Block) : "?", N.Grid ? dims(*N.Grid) : "?",
                          N.Cc.empty() ? "" : ", cc " + N.Cc);
    G.Matched = fmt::format("{} (by {})", Where, How);
    const GpuArch *NcuArch = N.Cc.empty() ? nullptr : findArch(N.Cc);
    const GpuArch *OurArch = L.Arch.empty() ? nullptr : findArch(L.Arch);
    if (NcuArch && OurArch && NcuArch != OurArch)
      defect(fmt::format("analysed for {}, profiled on cc {} ({}): the figures are for different "
                         "GPUs (run the analysis with --arch {})",
                         OurArch->Name, N.Cc, NcuArch->Name, NcuArch->Name));
    NcuRegisters = same(Group, "launch__registers_per_thread", G.Notes);
    inputs();
    theoretical(OurArch);
    modelOnNcuInputs(NcuArch ? NcuArch : OurArch);
    measured();
    return std::move(G);
  }

private:
  void defect(std::string Text) { G.Defects.push_back(std::move(Text)); }

  /// A row of a figure both sides have; a disagreement when both are known and differ.
  void row(const std::string &What, std::optional<double> Ours, std::optional<double> Ncu,
           std::string OursText = "", double Tolerance = 0) {
    MeasuredRow R;
    R.What = What;
    R.Ours = !OursText.empty() ? OursText : Ours ? whole(*Ours) : "-";
    R.Ncu = Ncu ? whole(*Ncu) : "-";
    R.Disagrees = Ours && Ncu && std::fabs(*Ours - *Ncu) > Tolerance;
    if (R.Disagrees)
      defect(
          fmt::format("ncu and warplint disagree on {}: warplint {}, ncu {}", What, R.Ours, R.Ncu));
    G.Rows.push_back(std::move(R));
  }

  /// ncu's launch__registers_per_thread is the allocation, at least 16 per thread: measured
  /// on an H200 (tests/Inputs/gpu/h200), ptxas's 8, 10 and 14 registers read 16 there while
  /// cudaFuncGetAttributes says 8, 10 and 14. Below 16 registers the register file never
  /// limits a launch (64 warps x 32 lanes x 16 = 32768 of 65536 registers), so the floor
  /// changes no occupancy.
  static constexpr int NcuMinRegisters = 16;

  void inputs() {
    const std::optional<double> &Regs = NcuRegisters;
    std::optional<double> Ours = L.Registers ? std::optional<double>(*L.Registers) : std::nullopt;
    std::string Text = L.Registers ? fmt::format("{} ({})", *L.Registers, L.RegistersSource)
                                   : std::string("not counted");
    if (Ours && Regs && *Ours < NcuMinRegisters && *Regs == NcuMinRegisters) {
      Text += fmt::format(", allocated as {}", NcuMinRegisters);
      Ours = NcuMinRegisters;
    }
    row("registers per thread", Ours, Regs, Text);
    row("static shared memory per block (bytes)",
        L.StaticSmemBytes ? std::optional<double>(double(*L.StaticSmemBytes)) : std::nullopt,
        same(Group, "launch__shared_mem_per_block_static", G.Notes));
    row("dynamic shared memory per block (bytes)",
        L.DynamicSmemBytes ? std::optional<double>(double(*L.DynamicSmemBytes)) : std::nullopt,
        same(Group, "launch__shared_mem_per_block_dynamic", G.Notes),
        L.DynamicSmemBytes  ? ""
        : L.DynamicSmemExpr ? *L.DynamicSmemExpr + " (not known)"
                            : "");
  }

  void theoretical(const GpuArch *Arch) {
    std::optional<OccupancyResult> Ours;
    if (Arch) {
      // With ncu's allocation floor (NcuMinRegisters): the same blocks per SM, and the
      // register limit counted as ncu counts it.
      KernelResources Res = L.Resources;
      const std::optional<double> &Regs = NcuRegisters;
      if (L.Registers && Regs && *Regs == NcuMinRegisters &&
          Res.RegistersPerThread < NcuMinRegisters)
        Res.RegistersPerThread = NcuMinRegisters;
      Ours = evaluateLaunch(*Arch, Res, L.Shape, L.Registers.has_value()).Result;
    }
    std::optional<double> NcuBlocks;
    std::vector<std::pair<Resource, double>> NcuLimitValues;
    for (const auto &[Suffix, Res] : NcuLimits)
      if (std::optional<double> Ncu =
              same(Group, ("launch__occupancy_limit_" + std::string(Suffix)).c_str(), G.Notes)) {
        NcuLimitValues.push_back({Res, *Ncu});
        NcuBlocks = NcuBlocks ? std::min(*NcuBlocks, *Ncu) : *Ncu;
      }
    // A limit above both sides' blocks per SM binds neither: said with its defect line.
    double Binding = std::max<double>(NcuBlocks.value_or(0), L.BlocksPerSm.value_or(0));
    for (const auto &[Res, Ncu] : NcuLimitValues) {
      std::optional<double> Mine;
      std::string MineText;
      if (Ours && Ours->canLaunch()) {
        int Lim = Ours->limit(Res);
        std::optional<double> Config;
        if (Res == Resource::SharedMemory && Ours->AllocatedSharedBytesPerBlock > 0)
          Config = same(Group, "launch__shared_mem_config_size", G.Notes);
        if (Config && *Config > 0) {
          // ncu counts the shared-memory limit with the carveout the driver chose for the
          // launch (the smallest that keeps its blocks per SM), not the largest: count ours
          // at that carveout too, so the figure compares the per-block allocation. Not
          // capped at the block slots here: ncu gives this limit above them where the
          // carveout allows more (convolutionRowsKernel on an H200: 37 at 132 KiB, 3584
          // bytes a block), and the cap below applies where its figure is within them.
          Lim = static_cast<int>(
              std::floor(*Config / double(Ours->AllocatedSharedBytesPerBlock)));
          MineText = fmt::format("{} (at ncu's {} KiB carveout)", Lim, whole(*Config / 1024));
        }
        if (Lim == UnlimitedBlocks) {
          // Ours does not limit by it: no disagreement unless ncu's limit binds.
          MineText = "no limit";
          if (Ncu <= Binding)
            Mine = UnlimitedBlocks;
        } else {
          // ncu 2025.3 reports a limit at most the SM's block slots (barriers 32 on sm_90,
          // where 64 block barriers would allow 64): where its figure is within them, ours is
          // capped the same way.
          const bool Capped = Ncu <= Arch->MaxBlocksPerSm && Lim > Arch->MaxBlocksPerSm;
          Mine = Capped ? Arch->MaxBlocksPerSm : Lim;
          if (Capped && MineText.empty())
            MineText = fmt::format("{} (at most {} blocks per SM)", Lim, Arch->MaxBlocksPerSm);
        }
      }
      std::string What = fmt::format("blocks per SM allowed by {}",
                                     Arch ? resourceLabel(Res, *Arch) : resourceName(Res));
      size_t Before = G.Defects.size();
      row(What, Mine, Ncu, MineText);
      if (G.Defects.size() > Before && Mine && std::min<double>(*Mine, Ncu) > Binding)
        G.Defects.back() += " (binds neither: the blocks per SM are not affected)";
    }
    row("blocks per SM", L.BlocksPerSm ? std::optional<double>(*L.BlocksPerSm) : std::nullopt,
        NcuBlocks,
        L.BlocksPerSm
            ? fmt::format("{}{}", *L.BlocksPerSm, L.Registers ? "" : " (register limit left out)")
            : "");
    std::optional<double> NcuTheory = same(Group, TheoreticalMetric, G.Notes);
    MeasuredRow R;
    R.What = "theoretical occupancy";
    R.Ours = L.Occupancy ? pctText(100 * *L.Occupancy) : "-";
    R.Ncu = NcuTheory ? pctText(*NcuTheory) : "-";
    R.Disagrees = L.Occupancy && NcuTheory && std::fabs(100 * *L.Occupancy - *NcuTheory) > 0.05;
    if (R.Disagrees)
      defect(fmt::format("ncu and warplint disagree on the theoretical occupancy: warplint {}, "
                         "ncu {}",
                         R.Ours, R.Ncu));
    G.Rows.push_back(std::move(R));
  }

  /// warplint's model given ncu's own inputs (registers, static and dynamic shared
  /// memory, block): whether a disagreement is in the inputs or in the model.
  void modelOnNcuInputs(const GpuArch *Arch) {
    if (!Arch || !N.Block)
      return;
    KernelResources Res = L.Resources;
    std::optional<double> Regs = N.number("launch__registers_per_thread");
    std::optional<double> Static = N.number("launch__shared_mem_per_block_static");
    std::optional<double> Dynamic = N.number("launch__shared_mem_per_block_dynamic");
    // Figures no GPU has (a damaged file) are not handed to core.
    auto plausible = [](std::optional<double> V, double Max) {
      return !V || (*V >= 0 && *V <= Max);
    };
    if (!plausible(Regs, 65536) || !plausible(Static, double(1 << 30)) ||
        !plausible(Dynamic, double(1 << 30)) ||
        std::any_of(N.Block->begin(), N.Block->end(), [](uint64_t D) { return D > (1u << 20); })) {
      G.Notes.push_back("ncu's registers, shared memory or block are out of range: warplint's "
                        "model was not run on them");
      return;
    }
    if (Regs)
      Res.RegistersPerThread = static_cast<int>(*Regs);
    if (Static)
      Res.StaticSharedBytes = static_cast<uint64_t>(*Static);
    Dim3 B{int64_t((*N.Block)[0]), int64_t((*N.Block)[1]), int64_t((*N.Block)[2])};
    LaunchShape Shape =
        LaunchShape::block(B, Dynamic ? uint64_t(*Dynamic) : L.DynamicSmemBytes.value_or(0));
    OccupancyResult R = computeOccupancy(*Arch, Res, Shape);
    std::optional<double> NcuBlocks;
    for (const auto &[Suffix, Resource] : NcuLimits)
      if (std::optional<double> V = N.number("launch__occupancy_limit_" + std::string(Suffix)))
        NcuBlocks = NcuBlocks ? std::min(*NcuBlocks, *V) : *V;
    std::optional<double> NcuTheory = N.number(TheoreticalMetric);
    MeasuredRow Row;
    Row.What = fmt::format("warplint's model on ncu's inputs ({}, {} registers, {} + {} B shared)",
                           Arch->Name, Res.RegistersPerThread, Res.StaticSharedBytes,
                           Shape.DynamicSharedBytes);
    Row.Ours = R.canLaunch()
                   ? fmt::format("{} blocks/SM, {}", R.BlocksPerSm, pctText(100 * R.Occupancy))
                   : "cannot launch: " + R.Failure->Message;
    Row.Ncu = fmt::format("{} blocks/SM, {}", NcuBlocks ? whole(*NcuBlocks) : "-",
                          NcuTheory ? pctText(*NcuTheory) : "-");
    Row.Disagrees =
        (NcuBlocks && (!R.canLaunch() || R.BlocksPerSm != *NcuBlocks)) ||
        (NcuTheory && R.canLaunch() && std::fabs(100 * R.Occupancy - *NcuTheory) > 0.05);
    if (Row.Disagrees)
      defect(fmt::format("warplint's occupancy model disagrees with ncu on ncu's own inputs: "
                         "warplint {}, ncu {}",
                         Row.Ours, Row.Ncu));
    G.Rows.push_back(std::move(Row));
  }

  void measured() {
    MeasuredRow A;
    A.What = "achieved occupancy";
    A.Ours = "- (measured only)";
    A.Ncu = spread(Group, AchievedMetric, /*Percent=*/true).value_or("-");
    G.Rows.push_back(A);
    // Predicted branch efficiency: the kernel's branch records at the profiled block,
    // weighted by the warps that reach each (docs/report.md).
    KernelBranchEfficiency K =
        predictedKernelBranchEfficiency(CardBranches, N.Block ? N.Block : L.Block);
    std::string Predicted;
    if (K.Branches == 0)
      Predicted = "100% (no thread-dependent branch evaluated)";
    else
      Predicted = fmt::format("{} over {} thread-dependent branch{} (weighted by the warps "
                              "reaching each)",
                              pctText(100 * K.Efficiency), K.Branches,
                              K.Branches == 1 ? "" : "es");
    if (K.Unevaluated)
      Predicted += fmt::format("; {} more kept silent by an idiom, not evaluated", K.Unevaluated);
    MeasuredRow B;
    B.What = "branch efficiency (uniform branch targets)";
    B.Ours = Predicted;
    B.Ncu = spread(Group, UniformBranchMetric, /*Percent=*/true).value_or("-");
    G.Rows.push_back(B);
    if (std::optional<std::string> D = spread(Group, DivergentMetric, false)) {
      MeasuredRow R;
      R.What = "divergent branch targets";
      R.Ours = "-";
      R.Ncu = *D;
      if (std::optional<std::string> T = spread(Group, BranchesMetric, false, /*SayAll=*/false))
        R.Ncu = *spread(Group, DivergentMetric, false, false) + " of " + *T +
                (Group.size() > 1 && D->find("mean") == std::string::npos
                     ? fmt::format(" (all {} launches)", Group.size())
                     : "");
      G.Rows.push_back(R);
    }
  }

  const LaunchRecord &L;
  const std::vector<const NcuLaunch *> &Group;
  const std::vector<BranchRecord> &CardBranches;
  const NcuLaunch &N;
  /// ncu's registers per thread, read once (a spread over the group is a note of G's).
  std::optional<double> NcuRegisters;
  MeasuredGroup G;
};

} // namespace

void addNcuMeasurements(ReportPage &Page, const RunResult &Result,
                        const std::vector<NcuLaunch> &Ncu, const std::string &From) {
  Page.MeasuredFrom = From;
  Page.MeasuredLaunches = Ncu.size();
  // Groups: a source launch record and the profiled shape, in order of first launch.
  std::map<std::string, size_t> GroupIndex;
  std::vector<std::pair<Match, std::vector<const NcuLaunch *>>> Groups;
  for (const NcuLaunch &N : Ncu) {
    const GpuArch *Arch = N.Cc.empty() ? nullptr : findArch(N.Cc);
    std::optional<Match> M = matchLaunch(N, Result, Arch);
    if (!M || M->Record >= Page.Cards.size()) {
      Page.MeasuredUnmatched.push_back(fmt::format(
          "ncu launch ID {} of '{}' (block {}, grid {}): no launch of this kernel{} in the "
          "analysed source",
          N.Id, N.KernelName, N.Block ? dims(*N.Block) : "?", N.Grid ? dims(*N.Grid) : "?",
          N.Block || N.Grid ? " with this shape" : ""));
      continue;
    }
    std::string Key = fmt::format("{}|{}|{}|{}", M->Record, N.Block ? dims(*N.Block) : "",
                                  N.Grid ? dims(*N.Grid) : "",
                                  N.Metrics.count("launch__shared_mem_per_block_dynamic")
                                      ? N.Metrics.at("launch__shared_mem_per_block_dynamic").Text
                                      : "");
    auto [It, New] = GroupIndex.try_emplace(Key, Groups.size());
    if (New)
      Groups.push_back({*M, {}});
    Groups[It->second].second.push_back(&N);
  }
  for (auto &[M, Launches] : Groups) {
    const ReportLaunch &Row = Page.Cards[M.Record];
    ReportKernel &Card = Page.Kernels[Row.Card];
    GroupBuilder B(Result.Launches[M.Record], Launches, Card.Branches);
    MeasuredGroup G = B.build(Row.Where, M.How);
    Page.MeasuredDefects += G.Defects.size();
    Card.Measured.push_back(std::move(G));
  }
}

} // namespace warplint::driver
