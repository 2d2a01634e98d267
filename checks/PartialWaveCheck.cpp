//===- PartialWaveCheck.cpp - warplint-partial-wave -----------------------===//
#include "checks/PartialWaveCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/OccupancyCheck.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <string>

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {
namespace {

std::string plural(int64_t N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

} // namespace

PartialWaveCheck::PartialWaveCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context), GpuText(Options.get("Gpu", "").str()),
      MaxWaves(Options.get<unsigned>("MaxWaves", 4)) {
  MinLastWave = readPercent("MinLastWaveFill", "50", InvalidPercent, MinLastWaveText);
}

void PartialWaveCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Options.store(Opts, "Gpu", GpuText);
  Options.store(Opts, "MinLastWaveFill", MinLastWaveText);
  Options.store(Opts, "MaxWaves", MaxWaves);
  Model.store(Opts);
}

void PartialWaveCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  // Off unless a GPU is named: the waves need its SM count. A GPU name that is not known
  // is a problem of the run's options, said here too.
  if (Model.Gpu.empty()) {
    sayProblems(M);
    return;
  }
  if (M.facts().Launches.empty())
    return;
  const std::vector<LaunchModel> &Launches = M.launches();
  sayProblems(M);
  for (const LaunchModel &L : Launches) {
    SourceLocation Loc = L.Site->Loc;
    if (leftOut(L))
      continue;
    for (const LaunchFigures &E : L.PerArch) {
      if (!E.Gpu || !E.Waves || !E.Result)
        continue;
      const wl::WaveInfo &W = *E.Waves;
      const int64_t Grid = int64_t(L.Site->Grid.total());
      const unsigned Sms = E.Gpu->SmCount;
      // Blocks land on SMs one by one: a grid smaller than the SM count leaves SMs idle.
      const bool IdleSms = !E.Clusters && W.WaveCount == 1 && Grid < int64_t(Sms);
      const bool Tail = W.LastWaveFullness < MinLastWave && W.WaveCount <= MaxWaves;
      if (!IdleSms && !Tail)
        continue;
      // "132 blocks of 3 per SM on 132 SMs", or with clusters "... in 66 clusters of 2
      // (198 clusters at once)".
      std::string Fit = E.Clusters
                            ? std::to_string(Grid) + " blocks in clusters of " +
                                  std::to_string(E.Clusters->ClusterBlocks) + " (" +
                                  plural(E.Clusters->ActiveClusters, "cluster", "clusters") +
                                  " of " + std::to_string(E.Result->BlocksPerSm) +
                                  " blocks/SM at once)"
                            : std::to_string(Grid) + " blocks of " +
                                  std::to_string(E.Result->BlocksPerSm) + " per SM";
      std::string Waves = W.WaveCount == 1
                              ? "1 wave at " + wl::percentText(W.LastWaveFullness)
                              : std::to_string(W.WaveCount) + " waves, the last at " +
                                    wl::percentText(W.LastWaveFullness);
      const int64_t Fill = W.WaveCount * W.BlocksPerWave;
      std::string Fills = W.WaveCount == 1
                              ? std::to_string(Fill) + " blocks fill it"
                              : std::to_string(Fill) + " blocks fill " +
                                    std::to_string(W.WaveCount) + " waves, " +
                                    std::to_string(Fill - W.BlocksPerWave) + " fill " +
                                    std::to_string(W.WaveCount - 1);
      if (E.Arch->isAmd()) {
        reportAmd(Loc, L, E, IdleSms);
        continue;
      }
      if (IdleSms)
        diag(Loc, "grid of '%0' leaves %1 of %2's %3 SMs idle: %4 on %3 SMs: %5; %6")
            << L.name() << unsigned(Sms - Grid) << E.Gpu->Name << Sms << Fit << Waves << Fills;
      else
        diag(Loc, "last wave of '%0' fills %1 of %2: %3 on %4 SMs: %5; %6")
            << L.name() << wl::percentText(W.LastWaveFullness) << E.Gpu->Name << Fit << Sms
            << Waves << Fills;
      diag(Loc, "%0 blocks/SM (occupancy %1, limited by %2) on %3 (%4); %5 of the GPU's "
                "block-slot time is used over the grid",
           DiagnosticIDs::Note)
          << E.Result->BlocksPerSm << wl::percentText(E.Result->Occupancy)
          << wl::limiterText(*E.Arch, E.Result->Limiters) << E.Gpu->Name << E.Arch->Name
          << wl::percentText(W.Efficiency);
      if (!E.registersKnown())
        diag(Loc, "registers not counted: blocks/SM is an upper bound", DiagnosticIDs::Note);
      if (!L.Site->Instantiation.empty())
        diag(Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Site->Instantiation;
      viaNote(*L.Site);
    }
  }
}

// AMD: workgroups per CU (per WGP on RDNA), and "rounds" for the grid's waves (on AMD a
// wave is a wavefront): the same figures of the launch record, AMD's words.
void PartialWaveCheck::reportAmd(SourceLocation Loc, const LaunchModel &L,
                                 const LaunchFigures &E, bool IdleUnits) {
  const wl::WaveInfo &W = *E.Waves;
  const int64_t Grid = int64_t(L.Site->Grid.total());
  const unsigned Units = E.Gpu->SmCount;
  const std::string Unit = wl::productUnits(*E.Gpu);
  const std::string One = Unit.substr(0, Unit.size() - 1);
  const int Per = E.Result->BlocksPerSm;
  std::string Fit = std::to_string(Grid) + " workgroups of " + std::to_string(Per) + " per " + One;
  std::string Rounds = W.WaveCount == 1
                           ? "1 round at " + wl::percentText(W.LastWaveFullness)
                           : std::to_string(W.WaveCount) + " rounds, the last at " +
                                 wl::percentText(W.LastWaveFullness);
  const int64_t Fill = W.WaveCount * W.BlocksPerWave;
  std::string Fills = W.WaveCount == 1
                          ? std::to_string(Fill) + " workgroups fill it"
                          : std::to_string(Fill) + " workgroups fill " +
                                std::to_string(W.WaveCount) + " rounds, " +
                                std::to_string(Fill - W.BlocksPerWave) + " fill " +
                                std::to_string(W.WaveCount - 1);
  if (IdleUnits)
    diag(Loc, "grid of '%0' leaves %1 of %2's %3 %4 idle: %5 on %3 %4: %6; %7")
        << L.name() << unsigned(Units - Grid) << E.Gpu->Name << Units << Unit << Fit << Rounds
        << Fills;
  else
    diag(Loc, "last round of workgroups of '%0' fills %1 of %2: %3 on %4 %5: %6; %7")
        << L.name() << wl::percentText(W.LastWaveFullness) << E.Gpu->Name << Fit << Units
        << Unit << Rounds << Fills;
  diag(Loc, "%0 workgroup%s0/%1 (%2 wavefronts of %3 lanes each, occupancy %4, limited by "
            "%5) on %6 (%7); %8 of the GPU's workgroup-slot time is used over the grid; a "
            "round is the workgroups the whole GPU runs at once",
       DiagnosticIDs::Note)
      << unsigned(Per) << One << unsigned(E.Result->WarpsPerBlock) << unsigned(E.Arch->WarpSize)
      << wl::percentText(E.Result->Occupancy) << wl::limiterText(*E.Arch, E.Result->Limiters)
      << E.Gpu->Name << E.Arch->Name << wl::percentText(W.Efficiency);
  if (!E.registersKnown())
    diag(Loc, "VGPRs not counted: workgroups per %0 is an upper bound", DiagnosticIDs::Note)
        << One;
  if (!L.Site->Instantiation.empty())
    diag(Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Site->Instantiation;
  viaNote(*L.Site);
}

} // namespace clang::tidy::warplint
