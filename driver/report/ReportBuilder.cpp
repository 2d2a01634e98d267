//===- ReportBuilder.cpp - launch records to report cards with core's model ===//
#include "driver/report/HtmlReport.h"

#include <fmt/format.h>

namespace warplint::driver {
namespace {

std::string bytes(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return fmt::format("{} KiB ({} B)", B / 1024, B);
  return fmt::format("{} B", B);
}

/// "limited by shared memory", from the record's limiter mask.
std::string limiterLine(const LaunchRecord &L, const GpuArch &Arch) {
  if (L.LaunchError)
    return "cannot launch";
  std::string Names = limiterText(Arch, L.LimiterMask);
  if (Names.empty())
    return "no limiter";
  return "limited by " + Names + (L.Registers ? "" : " (registers not counted)");
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
                                            const LaunchShape &Shape, bool RegistersKnown) {
  OccupancyResult Now = computeOccupancy(Arch, Res, Shape);
  std::vector<OccupancyChart> Charts(3);
  OccupancyChart &Block = Charts[0], &Regs = Charts[1], &Smem = Charts[2];
  Block.Title = "Block size";
  Block.XLabel = "threads per block";
  Block.Discrete = true;
  for (const SweepPoint &P : sweepBlockSize(Arch, Res, Shape.DynamicSharedBytes))
    Block.Points.push_back({double(P.Value), P.Occupancy});
  Regs.Title = Arch.isAmd() ? "VGPRs" : "Registers per thread";
  Regs.XLabel = Arch.isAmd() ? "VGPRs per lane" : "registers per thread";
  Smem.Title = Arch.isAmd() ? "LDS per workgroup" : "Shared memory per block";
  Smem.XLabel = Arch.isAmd() ? "LDS bytes per workgroup" : "shared bytes per block";
  if (Shape.ThreadsPerBlock > 0) {
    for (const SweepPoint &P : sweepRegisters(Arch, Res, Shape))
      Regs.Points.push_back({double(P.Value), P.Occupancy});
    for (const SweepPoint &P : sweepSharedMemory(Arch, Res, Shape))
      Smem.Points.push_back({double(P.Value), P.Occupancy});
    Block.HasCurrent = true;
    Block.CurrentX = double(Shape.ThreadsPerBlock);
    Block.CurrentOccupancy = Now.Occupancy;
    Regs.HasCurrent = RegistersKnown;
    Regs.CurrentX = Arch.isAmd() ? Res.Vgprs : Res.RegistersPerThread;
    Regs.CurrentOccupancy = Now.Occupancy;
    Smem.HasCurrent = true;
    Smem.CurrentX = double(Res.StaticSharedBytes + Shape.DynamicSharedBytes);
    Smem.CurrentOccupancy = Now.Occupancy;
  } else {
    // Without a block there is no register or shared-memory sweep to draw.
    Charts.resize(1);
  }
  return Charts;
}

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

  std::vector<bool> Placed(Result.Findings.size(), false);
  for (const LaunchRecord &L : Result.Launches) {
    ReportCard C;
    C.Kernel = L.Kernel ? *L.Kernel : "(kernel not resolved)";
    SourcePos Where = relative(L.Pos, Opts.SourceRoot);
    C.Where = fmt::format("{}:{}:{}", Where.File, Where.Line, Where.Column);
    C.Arch = !L.Arch.empty()             ? L.Arch
             : !Opts.DefaultArch.empty() ? Opts.DefaultArch
             : Opts.Product              ? std::string(Opts.Product->Arch)
                                         : std::string();

    if (!L.Api.empty())
      C.Facts.push_back({"launch", L.Api});
    uint64_t Threads = 0;
    if (L.Block) {
      Threads = (*L.Block)[0] * (*L.Block)[1] * (*L.Block)[2];
      C.Facts.push_back({"block", fmt::format("{} ({} threads, {} warps)", dims(*L.Block), Threads,
                                              (Threads + 31) / 32)});
    } else {
      C.Facts.push_back({"block", "not known at compile time"});
    }
    uint64_t GridBlocks = 0;
    if (L.Grid) {
      GridBlocks = (*L.Grid)[0] * (*L.Grid)[1] * (*L.Grid)[2];
      C.Facts.push_back({"grid", fmt::format("{} ({} block{})", dims(*L.Grid), GridBlocks,
                                             GridBlocks == 1 ? "" : "s")});
    } else {
      C.Facts.push_back({"grid", "not known at compile time"});
    }
    uint64_t Dynamic = L.DynamicSmemBytes.value_or(0);
    if (L.DynamicSmemBytes)
      C.Facts.push_back({"dynamic shared", bytes(*L.DynamicSmemBytes)});
    else if (L.DynamicSmemExpr && !L.DynamicSmemExpr->empty())
      C.Facts.push_back({"dynamic shared", *L.DynamicSmemExpr + " (not known; taken as 0)"});
    C.Facts.push_back(
        {"static shared", L.StaticSmemBytes ? bytes(*L.StaticSmemBytes) : std::string("unknown")});
    C.Facts.push_back({"registers", L.Registers ? fmt::format("{} per thread ({})", *L.Registers,
                                                              L.RegistersSource)
                                                : std::string("not counted")});

    // The figures are the model's (model/TuModel): the record says them, the report
    // only draws them; the sweeps start from the same inputs core was given.
    const GpuArch *Arch = C.Arch.empty() ? nullptr : findArch(C.Arch);
    if (!Arch) {
      C.Missing = C.Arch.empty() ? "no target architecture: pass --arch or --gpu"
                                 : "unknown architecture " + C.Arch;
    } else {
      LaunchShape Shape;
      if (L.Shape)
        Shape = *L.Shape;
      else
        Shape.DynamicSharedBytes = Dynamic;
      C.Charts = occupancyCharts(*Arch, L.Resources, Shape, L.Registers.has_value());
      if (L.Occupancy && L.BlocksPerSm) {
        C.Occupancy = *L.Occupancy;
        C.Limiter = limiterLine(L, *Arch);
        C.Facts.push_back({"blocks per SM",
                           fmt::format("{} ({} of {} warps)", *L.BlocksPerSm,
                                       L.ActiveWarpsPerSm.value_or(0),
                                       L.MaxWarpsPerSm.value_or(0))});
        if (!L.Registers)
          C.Missing = "registers per thread not counted (" +
                      (L.RegistersMissing.empty() ? std::string("unknown") : L.RegistersMissing) +
                      "): the occupancy shown leaves the register limit out (an upper bound)";
        if (L.Grid && Opts.SmCount && *L.BlocksPerSm > 0)
          C.Waves = WavePlan{GridBlocks, *L.BlocksPerSm, Opts.SmCount};
      } else if (!L.Block) {
        C.Missing = "block shape not known at compile time: no occupancy";
      } else {
        C.Missing = "dynamic shared memory not known at compile time: no occupancy";
      }
    }
    if (L.LaunchError && C.LaunchError.empty())
      C.LaunchError = *L.LaunchError;

    // The card's findings: those at the launch, and those inside the launched kernel's
    // definition (a kernel launched from several places shows them on each card).
    for (size_t I = 0; I < Result.Findings.size(); ++I) {
      const Finding &F = Result.Findings[I];
      bool AtLaunch = F.Pos.File == L.Pos.File && F.Pos.Line == L.Pos.Line;
      bool InKernel = false;
      for (const KernelRecord &K : Result.Kernels)
        InKernel |= L.Kernel && K.Name == *L.Kernel && K.File == F.Pos.File &&
                    F.Pos.Line >= K.BeginLine && F.Pos.Line <= K.EndLine;
      if (AtLaunch || InKernel) {
        C.Findings.push_back(relative(F, Opts.SourceRoot));
        Placed[I] = true;
      }
    }
    Page.Cards.push_back(std::move(C));
  }
  Page.FindingCount = Result.Findings.size();
  for (size_t I = 0; I < Result.Findings.size(); ++I)
    if (!Placed[I])
      Page.OtherFindings.push_back(relative(Result.Findings[I], Opts.SourceRoot));
  return Page;
}

} // namespace warplint::driver
