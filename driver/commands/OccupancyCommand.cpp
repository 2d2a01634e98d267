//===- OccupancyCommand.cpp - `warplint occupancy`: the occupancy calculator ===//
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/commands/OccupancyBatch.h"
#include "driver/commands/OccupancyInput.h"
#include "driver/formats/Formats.h"
#include "driver/formats/RecordText.h"
#include "driver/report/HtmlReport.h"
#include "driver/report/ReportSvg.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cctype>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

namespace warplint::driver {
namespace {

using llvm::StringRef;

const char *const Usage =
    R"(usage: warplint occupancy --arch ARCH (--threads N | --block XxY[xZ]) [options]
       warplint occupancy --arch ARCH --max-block-size [--sms N] [options]
       warplint occupancy --batch < configs.jsonl

Theoretical occupancy of one kernel launch, as NVIDIA's occupancy calculator computes it
(cuda_occupancy.h), or for AMD GPUs from VGPRs, SGPRs and LDS.

target:
  --arch ARCH            sm_86, 8.6, 86, compute_90, sm_90a; AMD gfx900 gfx906 gfx908
                         gfx90a gfx942 gfx1030 gfx1100 (see --list-archs); legacy
                         sm_20 sm_21 sm_30 sm_32 sm_35 sm_37 (Fermi, Kepler: the
                         occupancy calculator's rules; nvcc 12+ cannot build for them)
  --gpu NAME             a product (rtx3080, a100, h100, ...): its arch and SM count
  --sms N                SMs on the GPU (for --max-block-size and --grid)
launch:
  --threads N            threads per block
  --block XxY[xZ]        block shape (checked against 1024x1024x64)
  --dynamic-smem SIZE    dynamic shared memory per block (49152, 48K, 48KiB)
  --grid N               blocks in the grid: print the waves (needs --sms or --gpu)
  --cluster XxYxZ        thread block cluster (sm_90+): active clusters per GPU from the
                         GPU's GPCs (needs --gpu with a known GPC layout: h100, h200)
  --non-portable-cluster the kernel sets cudaFuncAttributeNonPortableClusterSizeAllowed
                         (clusters of 9 to 16 blocks)
kernel (NVIDIA):
  --registers N          registers per thread (ptxas "Used N registers")
  --static-smem SIZE     static __shared__ bytes per block
  --optin-smem SIZE      cudaFuncAttributeMaxDynamicSharedMemorySize set by the program
  --carveout PCT|SIZE    cudaFuncAttributePreferredSharedMemoryCarveout, 0..100 (sm_70+);
                         legacy sm_2x/sm_3x: the shared/L1 split's shared size
                         (cudaFuncSetCacheConfig): 16K or 48K (Fermi), 16K, 32K or 48K
                         (Kepler), 80K, 96K or 112K (sm_37)
  --launch-bounds N[,M]  __launch_bounds__(N, M): max threads, min blocks per SM
  --min-blocks M         __launch_bounds__ min blocks per SM
  --barriers N           named barriers per block (default 1, as the runtime assumes)
kernel (AMD):
  --vgprs N  --sgprs N   registers per lane / per wave (SGPRs with VCC etc.)
  --lds SIZE             static LDS per workgroup
output:
  --format text|json     (default text)
  --max-block-size       the block size with the highest occupancy and the min grid
  --sweep KIND           occupancy over block size|registers|smem
  --svg FILE             also draw the three calculator charts (occupancy against block
                         size, registers and shared memory, this launch marked) to FILE
  --batch                JSON lines on stdin, one JSON object per line on stdout, each
                         flushed as it is written and with the input's "line"; blank
                         lines skipped, unknown keys named in "warnings"; input
                         fields arch, threads (or block), registers, static_smem,
                         dynamic_smem, optin_smem, carveout, barriers, launch_bounds,
                         min_blocks, vgprs, sgprs, lds, wave_size (AMD RDNA:
                         64 for -mwavefrontsize64)
  --list-archs           the architecture table with its sources

exit status: 0 the launch runs, 1 it cannot run, 2 bad input.
)";

std::string limitersText(const OccupancyResult &R) {
  std::string S;
  for (unsigned I = 0; I < NumResources; ++I)
    if (R.Limiters & (1u << I)) {
      if (!S.empty())
        S += ", ";
      S += resourceLabel(static_cast<Resource>(I), *R.Arch);
    }
  return S.empty() ? "-" : S;
}

// ----------------------------------------------------------------------------------
// The command line
// ----------------------------------------------------------------------------------

struct CliOptions {
  OccupancyConfig C;
  std::optional<int64_t> Sms;
  std::optional<int64_t> Grid;
  bool Json = false;
  bool MaxBlockSize = false;
  std::string Sweep;
  const GpuProduct *Gpu = nullptr;
  // As given, resolved into C by resolveLaunch.
  std::string ArchText;
  std::optional<int64_t> Threads;
  std::optional<Dim3> Block;
  bool RegistersGiven = false;
  std::string SvgPath;
  std::optional<Dim3> Cluster;
  bool NonPortableCluster = false;
  bool Batch = false;
  bool List = false;
};

/// --carveout: a percentage 0..100 (cudaFuncAttributePreferredSharedMemoryCarveout), or
/// a size with a unit suffix (16K, 48KiB), a legacy shared/L1 split.
bool parseCarveout(StringRef V, OccupancyConfig &C, std::string &E) {
  if (!V.empty() && std::isalpha(static_cast<unsigned char>(V.back()))) {
    std::optional<uint64_t> B = parseSize(V, "--carveout", E);
    if (B && *B == 0) {
      E = "--carveout: a split of 0 bytes";
      return false;
    }
    if (B) {
      C.Res.SharedSplitBytes = *B;
      C.NvidiaOnlyField = true;
    }
    return B.has_value();
  }
  std::optional<int64_t> N = parseCount(V, "--carveout", 100, E);
  if (!N) {
    if (E.find("implausibly") != std::string::npos)
      E = "--carveout: a percentage 0..100";
    return false;
  }
  C.Res.CarveoutPercent = static_cast<int>(*N);
  C.NvidiaOnlyField = true;
  return true;
}

/// --launch-bounds MAX[,MIN]: __launch_bounds__'s two figures.
bool parseLaunchBounds(StringRef V, OccupancyConfig &C, std::string &E) {
  auto [Max, Min] = V.split(',');
  std::optional<int64_t> N = parseCount(Max, "--launch-bounds", MaxPlausibleThreads, E);
  if (!N)
    return false;
  if (*N == 0) {
    E = "--launch-bounds: max threads must be positive";
    return false;
  }
  C.Res.LaunchBoundsMaxThreads = static_cast<int>(*N);
  if (Min.empty())
    return true;
  std::optional<int64_t> M = parseCount(Min, "--launch-bounds", 1024, E);
  if (M)
    C.Res.LaunchBoundsMinBlocks = static_cast<int>(*M);
  return M.has_value();
}

/// Parses the command line into Opt, each value checked as it comes: Ok, Help, or Error
/// with Err set.
ArgParser::Result parseOccupancyArgs(int Argc, char **Argv, CliOptions &Opt, std::string &Err) {
  OccupancyConfig &C = Opt.C;
  // A whole number up to Max, handed to Store (which may still refuse it).
  auto count = [](const char *Name, int64_t Max,
                  std::function<bool(int64_t, std::string &)> Store) {
    return [=](StringRef V, std::string &E) {
      std::optional<int64_t> N = parseCount(V, Name, Max, E);
      return N && Store(*N, E);
    };
  };
  // A byte size, handed to Store.
  auto size = [](const char *Name, std::function<void(uint64_t)> Store) {
    return [=](StringRef V, std::string &E) {
      std::optional<uint64_t> N = parseSize(V, Name, E);
      if (N)
        Store(*N);
      return N.has_value();
    };
  };
  auto positive = [](const char *Message, std::optional<int64_t> &Into) {
    return [Message, &Into](int64_t N, std::string &E) {
      if (N == 0) {
        E = Message;
        return false;
      }
      Into = N;
      return true;
    };
  };
  auto staticSmem = [&C](uint64_t N) { C.Res.StaticSharedBytes = N; };
  ArgParser P("occupancy");
  P.option("--arch", Opt.ArchText)
      .option("--gpu",
              [&Opt](StringRef V, std::string &E) {
                Opt.Gpu = findProduct(V);
                if (!Opt.Gpu)
                  E = fmt::format("unknown GPU '{}' (known: {})", V.str(), knownProductList());
                return Opt.Gpu != nullptr;
              })
      .option("--threads",
              count("--threads", MaxPlausibleThreads,
                    positive("--threads: a block needs at least one thread", Opt.Threads)))
      .option("--block",
              [&Opt](StringRef V, std::string &E) {
                Opt.Block = parseBlock(V, E);
                return Opt.Block.has_value();
              })
      .option("--registers", count("--registers", MaxPlausibleRegisters,
                                   [&](int64_t N, std::string &) {
                                     C.Res.RegistersPerThread = static_cast<int>(N);
                                     Opt.RegistersGiven = true;
                                     C.NvidiaOnlyField = true;
                                     return true;
                                   }))
      .option("--static-smem", size("--static-smem", staticSmem))
      .option("--lds", size("--lds", staticSmem))
      .option("--dynamic-smem",
              size("--dynamic-smem", [&C](uint64_t N) { C.Shape.DynamicSharedBytes = N; }))
      .option("--optin-smem", size("--optin-smem",
                                   [&C](uint64_t N) {
                                     C.Res.OptinDynamicSharedBytes = N;
                                     C.NvidiaOnlyField = true;
                                   }))
      .option("--carveout",
              [&C](StringRef V, std::string &E) { return parseCarveout(V, C, E); })
      .option("--launch-bounds",
              [&C](StringRef V, std::string &E) { return parseLaunchBounds(V, C, E); })
      .option("--min-blocks", count("--min-blocks", 1024,
                                    [&C](int64_t M, std::string &) {
                                      C.Res.LaunchBoundsMinBlocks = static_cast<int>(M);
                                      return true;
                                    }))
      .option("--barriers", count("--barriers", 16,
                                  [&C](int64_t N, std::string &) {
                                    C.Res.Barriers = static_cast<int>(N);
                                    C.NvidiaOnlyField = true;
                                    return true;
                                  }))
      .option("--vgprs", count("--vgprs", MaxPlausibleRegisters,
                               [&](int64_t N, std::string &) {
                                 C.Res.Vgprs = static_cast<int>(N);
                                 Opt.RegistersGiven = true;
                                 C.AmdOnlyField = true;
                                 return true;
                               }))
      .option("--sgprs", count("--sgprs", MaxPlausibleRegisters,
                               [&C](int64_t N, std::string &) {
                                 C.Res.Sgprs = static_cast<int>(N);
                                 C.AmdOnlyField = true;
                                 return true;
                               }))
      .option("--sms", count("--sms", MaxPlausibleSms,
                             positive("--sms: a GPU has at least one SM", Opt.Sms)))
      .option("--grid", count("--grid", MaxPlausibleGrid,
                              positive("--grid: a grid has at least one block", Opt.Grid)))
      .option("--format",
              [&Opt](StringRef V, std::string &E) {
                if (V != "text" && V != "json") {
                  E = fmt::format("--format: '{}' is not text or json", V.str());
                  return false;
                }
                Opt.Json = V == "json";
                return true;
              })
      .flag("--max-block-size", Opt.MaxBlockSize)
      .option("--cluster",
              [&Opt](StringRef V, std::string &E) {
                Opt.Cluster = parseBlock(V, E);
                if (!Opt.Cluster)
                  E = fmt::format("--cluster: '{}' is not XxY[xZ] (e.g. 2x1x1)", V.str());
                return Opt.Cluster.has_value();
              })
      .flag("--non-portable-cluster", Opt.NonPortableCluster)
      .option("--svg",
              [&Opt](StringRef V, std::string &E) {
                Opt.SvgPath = V.str();
                E = "--svg needs a file name";
                return !V.empty();
              })
      .option("--sweep",
              [&Opt](StringRef V, std::string &E) {
                Opt.Sweep = V.str();
                if (V == "block" || V == "registers" || V == "smem")
                  return true;
                E = fmt::format("--sweep: '{}' is not block, registers or smem", V.str());
                return false;
              })
      .flag("--batch", Opt.Batch)
      .flag("--list-archs", Opt.List);
  return P.parse(Argc, Argv, Err);
}

// ----------------------------------------------------------------------------------
// The answers: text and JSON
// ----------------------------------------------------------------------------------

std::string valueText(Resource What, int64_t V) {
  switch (What) {
  case Resource::SharedMemory:
    return bytesText(static_cast<uint64_t>(V));
  case Resource::Warps:
    return fmt::format("{} threads", V);
  default:
    return fmt::format("{}", V);
  }
}

const char *stepLabel(Resource What, const GpuArch &A) {
  switch (What) {
  case Resource::Registers:
    return A.isAmd() ? "VGPRs" : "registers";
  case Resource::SharedMemory:
    return A.isAmd() ? "LDS" : "shared memory";
  case Resource::Sgprs:
    return "SGPRs";
  default:
    return "block size";
  }
}

std::string blocksText(int Blocks, const GpuArch &A) {
  if (A.isAmd())
    return fmt::format("{} workgroup{}/CU", Blocks, Blocks == 1 ? "" : "s");
  return fmt::format("{} block{}/SM", Blocks, Blocks == 1 ? "" : "s");
}

void printNextSteps(llvm::raw_ostream &OS, const GpuArch &A, const KernelResources &K,
                    const LaunchShape &S, const OccupancyResult &R,
                    const std::vector<NextStep> &Steps) {
  OS << "\nnext steps:\n";
  // Limiting resources first.
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const NextStep &N : Steps) {
      if (N.Limiting != (Pass == 0))
        continue;
      std::string Line = fmt::format("  {:<14}", stepLabel(N.What, A));
      const char *Unit = N.What == Resource::Registers ? " per thread" : "";
      if (N.What == Resource::Registers && A.isAmd())
        Unit = " per lane";
      if (N.What == Resource::Sgprs)
        Unit = " per wave";
      if (N.GainAt) {
        int64_t Drop = N.Current - *N.GainAt;
        std::string DropText = N.What == Resource::SharedMemory
                                   ? bytesText(static_cast<uint64_t>(Drop))
                                   : std::to_string(Drop);
        Line +=
            fmt::format("down to {}{} (-{}) gives {}, {:.1f}%", valueText(N.What, *N.GainAt), Unit,
                        DropText, blocksText(N.GainBlocksPerSm, A), 100 * N.GainOccupancy);
      } else {
        Line += "no smaller value raises occupancy";
      }
      if (N.BestAt)
        Line += fmt::format("; at {} {}, {:.1f}% (the best)", valueText(N.What, *N.BestAt),
                            blocksText(N.BestBlocksPerSm, A), 100 * N.BestOccupancy);
      if (R.canLaunch()) {
        if (N.LossBlocksPerSm) {
          if (*N.LossBlocksPerSm == 0)
            Line += fmt::format("; headroom up to {}, beyond that the launch fails",
                                valueText(N.What, N.HeadroomUpTo));
          else
            Line +=
                fmt::format("; headroom up to {}, beyond that {}",
                            valueText(N.What, N.HeadroomUpTo), blocksText(*N.LossBlocksPerSm, A));
        } else {
          Line += fmt::format("; no loss up to {}", valueText(N.What, N.HeadroomUpTo));
        }
      }
      OS << Line << (N.Limiting ? "  (limiter)" : "") << "\n";
    }
  // Other block sizes can raise occupancy too: the smallest block that reaches the best
  // occupancy any block size reaches with these per-block resources (96 threads, not
  // cudaOccupancyMaxPotentialBlockSize's 768, for a 48-thread block on sm_86).
  BlockSizeSuggestion Best = maxPotentialBlockSize(A, K, S.DynamicSharedBytes, 0);
  if (Best.BlockSize > 0 && Best.Occupancy > R.Occupancy + 1e-12) {
    for (const SweepPoint &P : sweepBlockSize(A, K, S.DynamicSharedBytes))
      if (P.Occupancy >= Best.Occupancy - 1e-12) {
        Best.BlockSize = static_cast<int>(P.Value);
        Best.BlocksPerSm = P.BlocksPerSm;
        break;
      }
    OS << fmt::format("  {:<14}{} threads per block give {:.1f}% ({}) with the same "
                      "per-block resources\n",
                      "best block", Best.BlockSize, 100 * Best.Occupancy,
                      blocksText(Best.BlocksPerSm, A));
  }
}

void printText(llvm::raw_ostream &OS, const CliOptions &Opt, const OccupancyResult &R) {
  const GpuArch &A = *Opt.C.Arch;
  const KernelResources &K = Opt.C.Res;
  const LaunchShape &S = Opt.C.Shape;
  OS << fmt::format("{} ({}{}{})\n", A.Name, A.Family,
                    A.isNvidia() ? ", cc " + A.displayVersion() : std::string(),
                    Opt.Gpu ? std::string(", ") + Opt.Gpu->Name : std::string());
  std::string Shape = S.Block ? fmt::format("{}x{}x{} = {} threads", S.Block->X, S.Block->Y,
                                            S.Block->Z, S.ThreadsPerBlock)
                              : fmt::format("{} threads", S.ThreadsPerBlock);
  const char *WarpWord = A.isAmd() ? "waves" : "warps";
  OS << fmt::format("  block          {} = {} {}{}\n", Shape, R.WarpsPerBlock,
                    A.isAmd() ? "wave" : "warp", R.WarpsPerBlock == 1 ? "" : "s");
  if (A.isNvidia()) {
    OS << fmt::format("  registers      {} per thread -> {} per block\n", K.RegistersPerThread,
                      R.AllocatedRegistersPerBlock);
    std::string Smem = fmt::format("{} static + {} dynamic", bytesText(K.StaticSharedBytes),
                                   bytesText(S.DynamicSharedBytes));
    if (A.ReservedSharedPerBlockBytes)
      Smem += fmt::format(" + {} reserved", bytesText(A.ReservedSharedPerBlockBytes));
    OS << fmt::format("  shared memory  {} -> {} per block (SM carveout {})\n", Smem,
                      bytesText(R.AllocatedSharedBytesPerBlock), bytesText(R.SharedBytesPerSm));
  } else {
    OS << fmt::format("  VGPRs/SGPRs    {} / {}\n", K.Vgprs, K.Sgprs);
    OS << fmt::format("  LDS            {} -> {} per workgroup (of {} per CU)\n",
                      bytesText(K.StaticSharedBytes + S.DynamicSharedBytes),
                      bytesText(R.AllocatedSharedBytesPerBlock), bytesText(A.LdsPerCuBytes));
  }
  OS << "\n";
  if (!R.canLaunch()) {
    OS << fmt::format("cannot launch: {}\n", R.Failure->Message);
  } else {
    OS << fmt::format("occupancy {:.1f}%  ({} of {} {}, {} {}{} per {})\n", 100 * R.Occupancy,
                      R.ActiveWarpsPerSm, R.MaxWarpsPerSm, WarpWord, R.BlocksPerSm,
                      A.isAmd() ? "workgroup" : "block", R.BlocksPerSm == 1 ? "" : "s",
                      A.isAmd() ? "CU" : "SM");
    OS << fmt::format("limited by {}\n", limitersText(R));
    if (K.LaunchBoundsMinBlocks > 0 && !R.MeetsMinBlocks)
      OS << fmt::format("note: __launch_bounds__ asks for {} block{} per SM, only {} fit{}\n",
                        K.LaunchBoundsMinBlocks, K.LaunchBoundsMinBlocks == 1 ? "" : "s",
                        R.BlocksPerSm, R.BlocksPerSm == 1 ? "s" : "");
  }
  OS << fmt::format("\n{} per {} each resource allows:\n", A.isAmd() ? "workgroups" : "blocks",
                    A.isAmd() ? "CU" : "SM");
  for (unsigned I = 0; I < NumResources; ++I) {
    Resource Res = static_cast<Resource>(I);
    int L = R.limit(Res);
    if (L == UnlimitedBlocks)
      continue;
    OS << fmt::format("  {:<18}{:>4}{}\n", resourceLabel(Res, A), L,
                      R.isLimitedBy(Res) ? "  <- limiter" : "");
  }
  printNextSteps(OS, A, K, S, R, nextSteps(A, K, S));
}

llvm::json::Object singleJson(const CliOptions &Opt, const OccupancyResult &R) {
  const GpuArch &A = *Opt.C.Arch;
  const KernelResources &K = Opt.C.Res;
  const LaunchShape &S = Opt.C.Shape;
  llvm::json::Object O;
  O["arch"] = A.Name;
  O["threads"] = S.ThreadsPerBlock;
  if (S.Block)
    O["block"] = llvm::json::Array{S.Block->X, S.Block->Y, S.Block->Z};
  O["dynamic_smem"] = S.DynamicSharedBytes;
  if (A.isNvidia()) {
    O["registers"] = K.RegistersPerThread;
    O["static_smem"] = K.StaticSharedBytes;
    if (K.OptinDynamicSharedBytes)
      O["optin_smem"] = K.OptinDynamicSharedBytes;
    O["allocated_registers_per_block"] = R.AllocatedRegistersPerBlock;
    O["allocated_smem_per_block"] = R.AllocatedSharedBytesPerBlock;
    O["smem_per_sm"] = R.SharedBytesPerSm;
  } else {
    O["vgprs"] = K.Vgprs;
    O["sgprs"] = K.Sgprs;
    O["lds"] = K.StaticSharedBytes;
    O["allocated_lds_per_workgroup"] = R.AllocatedSharedBytesPerBlock;
  }
  addResultFields(O, R);
  llvm::json::Object Limits;
  for (unsigned I = 0; I < NumResources; ++I) {
    int L = R.limit(static_cast<Resource>(I));
    if (L != UnlimitedBlocks)
      Limits[resourceName(static_cast<Resource>(I))] = L;
  }
  O["limits"] = std::move(Limits);
  llvm::json::Array Steps;
  for (const NextStep &N : nextSteps(A, K, S)) {
    llvm::json::Object J;
    J["resource"] = resourceName(N.What);
    J["limiting"] = N.Limiting;
    J["current"] = N.Current;
    if (N.GainAt) {
      J["gain_at"] = *N.GainAt;
      J["gain_blocks_per_sm"] = N.GainBlocksPerSm;
      J["gain_occupancy"] = N.GainOccupancy;
    }
    J["headroom_up_to"] = N.HeadroomUpTo;
    if (N.LossBlocksPerSm)
      J["loss_blocks_per_sm"] = *N.LossBlocksPerSm;
    Steps.push_back(std::move(J));
  }
  O["next_steps"] = std::move(Steps);
  return O;
}

int error(const std::string &Msg) {
  llvm::errs() << "warplint occupancy: error: " << Msg << "\n";
  return 2;
}

int listArchs(bool Json) {
  llvm::raw_ostream &OS = llvm::outs();
  llvm::json::Array Rows;
  if (!Json)
    OS << fmt::format("{:<8} {:<5} {:<20} {:>9} {:>9} {:>10} {:>10}  {}\n", "arch", "cc", "family",
                      "warps/SM", "blocks/SM", "smem/SM", "opt-in", "source");
  for (const GpuArch &A : allArchs()) {
    if (Json) {
      Rows.push_back(llvm::json::Object{{"arch", A.Name},
                                        {"version", A.displayVersion()},
                                        {"family", A.Family},
                                        {"warp_size", A.WarpSize},
                                        {"max_warps_per_sm", A.MaxWarpsPerSm},
                                        {"max_blocks_per_sm", A.MaxBlocksPerSm},
                                        {"smem_per_sm", A.SharedPerSmBytes},
                                        {"smem_per_block_optin", A.SharedPerBlockOptinBytes},
                                        {"legacy", A.Legacy},
                                        {"source", A.Source}});
      continue;
    }
    OS << fmt::format("{:<8} {:<5} {:<20} {:>9} {:>9} {:>10} {:>10}  {}\n", A.Name,
                      A.isNvidia() ? A.displayVersion() : "-",
                      A.Legacy ? std::string(A.Family) + " legacy" : std::string(A.Family),
                      A.MaxWarpsPerSm,
                      A.MaxBlocksPerSm, bytesText(A.SharedPerSmBytes),
                      bytesText(A.SharedPerBlockOptinBytes), A.Source);
  }
  if (Json)
    OS << llvm::json::Value(std::move(Rows)) << "\n";
  return 0;
}

/// --carveout as the arch takes it: a percentage from cc 7.0, a split's size on cc 2.x
/// and 3.x; empty when it fits.
std::string checkCarveout(const GpuArch &A, const KernelResources &K) {
  if (A.Legacy && K.CarveoutPercent != -1)
    return fmt::format("--carveout on {} (legacy) takes the shared/L1 split's size: {} "
                       "(e.g. --carveout {}K)",
                       A.Name, sharedSplitsText(A), A.SharedSplitsKiB[0]);
  if (K.SharedSplitBytes != 0 && !A.Legacy)
    return fmt::format("--carveout SIZE is the shared/L1 split of cc 2.x and 3.x; {} takes a "
                       "percentage 0..100{}",
                       A.Name, A.NumCarveoutSteps ? "" : " (and ignores it: fixed size)");
  if (K.SharedSplitBytes != 0 && !isSharedSplit(A, K.SharedSplitBytes))
    return fmt::format("--carveout {}: not a shared/L1 split of {}: {}",
                       bytesText(K.SharedSplitBytes), A.Name, sharedSplitsText(A));
  return "";
}

/// The arch (--arch, else --gpu's), --gpu's SM count, the vendor's fields and the launch
/// shape of the command line, into Opt.C; false with Error set.
bool resolveLaunch(CliOptions &Opt, std::string &Error) {
  OccupancyConfig &C = Opt.C;
  if (Opt.ArchText.empty() && Opt.Gpu)
    Opt.ArchText = Opt.Gpu->Arch;
  if (Opt.ArchText.empty()) {
    Error = "--arch is required (e.g. --arch sm_86; see --list-archs)";
    return false;
  }
  C.Arch = findArch(Opt.ArchText);
  if (!C.Arch) {
    Error = fmt::format("unknown architecture '{}' (known: {})", Opt.ArchText, knownArchNames());
    return false;
  }
  // --gpu of another arch than --arch: the figures are the arch's and the SM count the
  // GPU's, a mix no GPU has. Said once, as check says it (check then gives no waves; here
  // the user asked for these figures, so they are printed).
  if (Opt.Gpu) {
    const GpuArch *GpuOwn = findArch(Opt.Gpu->Arch);
    if (GpuOwn && GpuOwn != C.Arch && std::string_view(GpuOwn->Name) != C.Arch->Name)
      llvm::errs() << fmt::format("warplint occupancy: warning: --gpu {} is {}, the figures are "
                                  "for {}: the waves count the {}'s {} {} with {}'s limits "
                                  "(give --arch {} for that GPU's own)\n",
                                  Opt.Gpu->Key, GpuOwn->Name, C.Arch->Name, Opt.Gpu->Name,
                                  Opt.Gpu->SmCount, productUnits(*Opt.Gpu), C.Arch->Name,
                                  GpuOwn->Name);
  }
  if (Opt.Gpu && !Opt.Sms)
    Opt.Sms = Opt.Gpu->SmCount;
  Error = checkVendorFields(C);
  if (!Error.empty())
    return false;
  Error = checkCarveout(*C.Arch, C.Res);
  if (!Error.empty())
    return false;
  if (Opt.Cluster) {
    const Dim3 &Cl = *Opt.Cluster;
    Error = clusterProblem(*C.Arch, Cl.X * Cl.Y * Cl.Z, Opt.NonPortableCluster);
    if (!Error.empty())
      return false;
    if (!Opt.Gpu || !Opt.Gpu->SmsPerGpc) {
      Error = "--cluster needs --gpu NAME with a known GPC layout (h100, h200): a cluster's "
              "blocks share one GPC";
      return false;
    }
  }
  if (Opt.Threads && Opt.Block) {
    Error = "give --threads or --block, not both";
    return false;
  }
  uint64_t Dyn = C.Shape.DynamicSharedBytes;
  if (Opt.Block)
    C.Shape = LaunchShape::block(*Opt.Block, Dyn);
  else if (Opt.Threads)
    C.Shape = LaunchShape::threads(*Opt.Threads, Dyn);
  C.HasShape = Opt.Threads || Opt.Block;
  return true;
}

/// --svg: the three calculator charts with the launch marked, written to Opt.SvgPath.
bool writeSvgCharts(const CliOptions &Opt, std::string &Error) {
  const OccupancyConfig &C = Opt.C;
  if (!C.HasShape) {
    Error = "--svg needs the launch: --threads N or --block XxY[xZ]";
    return false;
  }
  OccupancyResult Now = computeOccupancy(*C.Arch, C.Res, C.Shape);
  std::string Title = fmt::format(
      "{}: {} threads per block, {} registers, {} + {} shared bytes: occupancy {:.1f}%",
      C.Arch->Name, C.Shape.ThreadsPerBlock,
      Opt.RegistersGiven ? std::to_string(C.Arch->isAmd() ? C.Res.Vgprs : C.Res.RegistersPerThread)
                         : std::string("unknown"),
      C.Res.StaticSharedBytes, C.Shape.DynamicSharedBytes, 100 * Now.Occupancy);
  std::string Svg =
      renderChartsDocument(occupancyCharts(*C.Arch, C.Res, C.Shape,
                                           LaunchPoint{Now.ActiveWarpsPerSm, Now.Occupancy},
                                           Opt.RegistersGiven),
                           Title);
  return writeFileAtomically(Opt.SvgPath, Svg, Error);
}

/// --max-block-size: cudaOccupancyMaxPotentialBlockSize's answer, with the min grid when
/// the SM count is known. 0, or 1 when no block size can launch.
int printMaxBlockSize(const CliOptions &Opt, llvm::raw_ostream &OS) {
  const OccupancyConfig &C = Opt.C;
  BlockSizeSuggestion B = maxPotentialBlockSize(*C.Arch, C.Res, C.Shape.DynamicSharedBytes,
                                                static_cast<int>(Opt.Sms.value_or(0)));
  if (Opt.Json) {
    llvm::json::Object O{{"arch", C.Arch->Name},
                         {"max_block_size", B.BlockSize},
                         {"blocks_per_sm", B.BlocksPerSm},
                         {"occupancy", B.Occupancy}};
    if (Opt.Sms) {
      O["sms"] = *Opt.Sms;
      O["min_grid_size"] = B.MinGridSize;
    }
    writeOccupancyJson(OS, llvm::json::Value(std::move(O)));
    OS << "\n";
  } else if (B.BlockSize == 0) {
    OS << fmt::format("{}: no block size can launch with these resources\n", C.Arch->Name);
  } else {
    OS << fmt::format("{}: max potential block size {} ({} block{} per SM, occupancy {:.1f}%)\n",
                      C.Arch->Name, B.BlockSize, B.BlocksPerSm, B.BlocksPerSm == 1 ? "" : "s",
                      100 * B.Occupancy);
    if (Opt.Sms)
      OS << fmt::format("min grid size {} ({} blocks x {} SMs) fills the GPU\n", B.MinGridSize,
                        B.BlocksPerSm, *Opt.Sms);
    else
      OS << "(give --sms N or --gpu NAME for the min grid size)\n";
  }
  return B.BlockSize > 0 ? 0 : 1;
}

/// --sweep block|registers|smem: the calculator's chart as a table (or JSON points).
int printSweep(const CliOptions &Opt, llvm::raw_ostream &OS) {
  const OccupancyConfig &C = Opt.C;
  std::vector<SweepPoint> Points =
      Opt.Sweep == "block"       ? sweepBlockSize(*C.Arch, C.Res, C.Shape.DynamicSharedBytes)
      : Opt.Sweep == "registers" ? sweepRegisters(*C.Arch, C.Res, C.Shape)
                                 : sweepSharedMemory(*C.Arch, C.Res, C.Shape);
  const char *Key = Opt.Sweep == "block"       ? "threads"
                    : Opt.Sweep == "registers" ? (C.Arch->isAmd() ? "vgprs" : "registers")
                                               : "smem";
  auto limiting = [&C](const SweepPoint &P) {
    OccupancyResult R;
    R.Arch = C.Arch;
    R.Limiters = P.Limiters;
    return R;
  };
  if (Opt.Json) {
    llvm::json::Array A;
    for (const SweepPoint &P : Points)
      A.push_back(llvm::json::Object{{Key, P.Value},
                                     {"blocks_per_sm", P.BlocksPerSm},
                                     {"active_warps", P.ActiveWarpsPerSm},
                                     {"occupancy", P.Occupancy},
                                     {"limiters", limitersJson(limiting(P))}});
    writeOccupancyJson(
        OS,
        llvm::json::Object{{"arch", C.Arch->Name}, {"sweep", Opt.Sweep}, {"points", std::move(A)}});
    OS << "\n";
    return 0;
  }
  OS << fmt::format("{:>10} {:>10} {:>8} {:>10}  limiters\n", Key, "blocks/SM", "warps",
                    "occupancy");
  for (const SweepPoint &P : Points)
    OS << fmt::format("{:>10} {:>10} {:>8} {:>9.1f}%  {}\n", P.Value, P.BlocksPerSm,
                      P.ActiveWarpsPerSm, 100 * P.Occupancy,
                      P.BlocksPerSm ? limitersText(limiting(P)) : "cannot launch");
  return 0;
}

llvm::json::Object clusterJson(const CliOptions &Opt, int64_t ClusterBlocks,
                               const std::optional<ClusterOccupancy> &Cl) {
  const Dim3 &D = *Opt.Cluster;
  llvm::json::Array Gpcs;
  for (int G = 0; G < Opt.Gpu->GpcCount; ++G)
    Gpcs.push_back(Opt.Gpu->SmsPerGpc[G]);
  llvm::json::Object O{{"dims", llvm::json::Array{D.X, D.Y, D.Z}},
                       {"blocks", ClusterBlocks},
                       {"non_portable", Opt.NonPortableCluster},
                       {"gpu", Opt.Gpu->Key},
                       {"gpcs", std::move(Gpcs)},
                       {"gpc_source", Opt.Gpu->GpcSource}};
  O["max_active_clusters"] = Cl ? Cl->ActiveClusters : 0;
  if (Cl) {
    O["active_blocks"] = Cl->ActiveBlocks;
    O["block_slots"] = Cl->BlockSlots;
    O["cluster_blocks_per_sm"] = Cl->ClusterBlocksPerSm;
  }
  return O;
}

void printCluster(llvm::raw_ostream &OS, const CliOptions &Opt, int64_t ClusterBlocks,
                  const std::optional<ClusterOccupancy> &Cl) {
  const Dim3 &D = *Opt.Cluster;
  OS << fmt::format("\ncluster {}x{}x{} = {} blocks, all in one GPC; {} has {} ({} SMs)\n",
                    D.X, D.Y, D.Z, ClusterBlocks, Opt.Gpu->Name, gpcLayoutText(*Opt.Gpu),
                    Opt.Gpu->SmCount);
  if (!Cl) {
    OS << "max active clusters 0 (the launch cannot run)\n";
    return;
  }
  OS << fmt::format("max active clusters {} (cudaOccupancyMaxActiveClusters): per GPC of at "
                    "least {} SMs floor(SMs x {} blocks/SM{} / {}); {} of {} block slots used\n",
                    Cl->ActiveClusters, ClusterBlocks, Cl->ClusterBlocksPerSm,
                    Cl->ClusterBlocksPerSm < Cl->BlocksPerSm
                        ? fmt::format(" (of {}: clusters count at most {})", Cl->BlocksPerSm,
                                      ClusterBlocksPerSmCap)
                        : std::string(),
                    ClusterBlocks, Cl->ActiveBlocks, Cl->BlockSlots);
  OS << "note: the GPC layout: " << Opt.Gpu->GpcSource << "\n";
}

/// The launch itself: the text report or one JSON object, with the waves of --grid.
/// 0 when it can run, 1 when it cannot, 2 for --grid without an SM count.
int printLaunch(const CliOptions &Opt, llvm::raw_ostream &OS) {
  const OccupancyConfig &C = Opt.C;
  OccupancyResult R = computeOccupancy(*C.Arch, C.Res, C.Shape);
  std::optional<ClusterOccupancy> Cl;
  int64_t ClusterBlocks = 0;
  if (Opt.Cluster) {
    ClusterBlocks = Opt.Cluster->X * Opt.Cluster->Y * Opt.Cluster->Z;
    Cl = activeClusters(R.BlocksPerSm, ClusterBlocks, Opt.Gpu->SmsPerGpc, Opt.Gpu->GpcCount);
  }
  std::optional<WaveInfo> W;
  if (Opt.Grid) {
    if (!Opt.Sms)
      return error("--grid needs --sms N (or --gpu NAME) to count waves");
    if (Opt.Cluster && *Opt.Grid % ClusterBlocks != 0)
      return error(fmt::format("--grid {} is not a multiple of the cluster's {} blocks",
                               *Opt.Grid, ClusterBlocks));
    W = Cl ? wavesOf(*Opt.Grid, Cl->ActiveBlocks)
           : waves(*Opt.Grid, R.BlocksPerSm, static_cast<int>(*Opt.Sms));
  }
  if (Opt.Json) {
    llvm::json::Object O = singleJson(Opt, R);
    if (W) {
      O["waves"] = llvm::json::Object{{"grid", *Opt.Grid},
                                      {"sms", *Opt.Sms},
                                      {"blocks_per_wave", W->BlocksPerWave},
                                      {"wave_count", W->WaveCount},
                                      {"waves", W->Waves},
                                      {"last_wave_blocks", W->LastWaveBlocks},
                                      {"last_wave_fullness", W->LastWaveFullness},
                                      {"efficiency", W->Efficiency}};
    }
    if (Opt.Cluster)
      O["cluster"] = clusterJson(Opt, ClusterBlocks, Cl);
    writeOccupancyJson(OS, llvm::json::Value(std::move(O)));
    OS << "\n";
  } else {
    printText(OS, Opt, R);
    if (Opt.Cluster)
      printCluster(OS, Opt, ClusterBlocks, Cl);
    if (W && Cl)
      OS << fmt::format("\nwaves: {} blocks in {} active clusters of {} = {} per wave: {:.2f} "
                        "waves ({} launched), the last {:.0f}% full ({} blocks); GPU busy "
                        "{:.0f}% of the time\n",
                        *Opt.Grid, Cl->ActiveClusters, ClusterBlocks, W->BlocksPerWave,
                        W->Waves, W->WaveCount, 100 * W->LastWaveFullness, W->LastWaveBlocks,
                        100 * W->Efficiency);
    else if (W)
      OS << fmt::format("\nwaves: {} blocks on {} SMs x {} blocks = {} per wave: {:.2f} waves "
                        "({} launched), the last {:.0f}% full ({} blocks); GPU busy {:.0f}% "
                        "of the time\n",
                        *Opt.Grid, *Opt.Sms, R.BlocksPerSm, W->BlocksPerWave, W->Waves,
                        W->WaveCount, 100 * W->LastWaveFullness, W->LastWaveBlocks,
                        100 * W->Efficiency);
    else if (Opt.Grid)
      OS << "\nwaves: none (the launch cannot run)\n";
  }
  return R.canLaunch() ? 0 : 1;
}

} // namespace

int runOccupancyCommand(int Argc, char **Argv) {
  CliOptions Opt;
  std::string Err;
  if (std::optional<int> Rc =
          parsed(parseOccupancyArgs(Argc, Argv, Opt, Err), Usage, Err, error))
    return *Rc;
  if (Opt.List)
    return listArchs(Opt.Json);
  // Options that another one would drop without a word are refused.
  if (Opt.Batch) {
    for (int I = 1; I < Argc; ++I) {
      StringRef A = Argv[I];
      if (A != "--batch" && A != "occupancy" && A.starts_with("-"))
        return error(fmt::format("--batch reads every launch from stdin (JSON lines with "
                                 "\"threads\", \"registers\", ...): {} is not read with it; "
                                 "give it in each line",
                                 A.split('=').first.str()));
    }
  }
  if (Opt.MaxBlockSize && !Opt.Sweep.empty())
    return error("give --max-block-size or --sweep, not both (--max-block-size prints the "
                 "block size of the highest occupancy; --sweep block lists every size)");
  if (Opt.Batch) {
    std::ios::sync_with_stdio(false);
    return runOccupancyBatch(std::cin, llvm::outs());
  }
  if (!resolveLaunch(Opt, Err))
    return error(Err);
  if (!Opt.SvgPath.empty() && !writeSvgCharts(Opt, Err))
    return error(Err);
  llvm::raw_ostream &OS = llvm::outs();
  if (Opt.MaxBlockSize)
    return printMaxBlockSize(Opt, OS);
  // Only the block-size sweep goes without a block.
  if (Opt.Sweep != "block" && !Opt.C.HasShape)
    return error("--threads N or --block XxY[xZ] is required");
  if (!Opt.Sweep.empty())
    return printSweep(Opt, OS);
  return printLaunch(Opt, OS);
}

} // namespace warplint::driver
