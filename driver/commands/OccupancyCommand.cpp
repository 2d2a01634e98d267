//===- OccupancyCommand.cpp - `warplint occupancy`: the occupancy calculator ===//
#include "driver/BoundedJson.h"
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"
#include "driver/report/HtmlReport.h"
#include "driver/commands/OccupancyBatch.h"
#include "driver/report/ReportSvg.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

namespace warplint::driver {
namespace {

using llvm::StringRef;

// Anything above these is a typo, not a configuration to evaluate.
constexpr int64_t MaxPlausibleThreads = int64_t(1) << 24;
constexpr int64_t MaxPlausibleRegisters = 65536;
constexpr uint64_t MaxPlausibleBytes = uint64_t(1) << 30;
constexpr int64_t MaxPlausibleSms = 100000;
constexpr int64_t MaxPlausibleGrid = int64_t(1) << 50;

const char *const Usage =
    R"(usage: warplint occupancy --arch ARCH (--threads N | --block XxY[xZ]) [options]
       warplint occupancy --arch ARCH --max-block-size [--sms N] [options]
       warplint occupancy --batch < configs.jsonl

Theoretical occupancy of one kernel launch, as NVIDIA's occupancy calculator computes it
(cuda_occupancy.h), or for AMD GPUs from VGPRs, SGPRs and LDS.

target:
  --arch ARCH            sm_86, 8.6, 86, compute_90, sm_90a; AMD gfx900 gfx906 gfx908
                         gfx90a gfx942 gfx1030 gfx1100 (see --list-archs)
  --gpu NAME             a product (rtx3080, a100, h100, ...): its arch and SM count
  --sms N                SMs on the GPU (for --max-block-size and --grid)
launch:
  --threads N            threads per block
  --block XxY[xZ]        block shape (checked against 1024x1024x64)
  --dynamic-smem SIZE    dynamic shared memory per block (49152, 48K, 48KiB)
  --grid N               blocks in the grid: print the waves (needs --sms or --gpu)
kernel (NVIDIA):
  --registers N          registers per thread (ptxas "Used N registers")
  --static-smem SIZE     static __shared__ bytes per block
  --optin-smem SIZE      cudaFuncAttributeMaxDynamicSharedMemorySize set by the program
  --carveout PCT         cudaFuncAttributePreferredSharedMemoryCarveout, 0..100
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
  --batch                JSON lines on stdin, one JSON object per line on stdout; input
                         fields arch, threads (or block), registers, static_smem,
                         dynamic_smem, optin_smem, carveout, barriers, launch_bounds,
                         min_blocks, vgprs, sgprs, lds
  --list-archs           the architecture table with its sources

exit status: 0 the launch runs, 1 it cannot run, 2 bad input.
)";

/// One occupancy question.
struct Config {
  const GpuArch *Arch = nullptr;
  KernelResources Res;
  LaunchShape Shape;
  bool HasShape = false;
  bool NvidiaOnlyField = false; // registers, optin, carveout, barriers seen
  bool AmdOnlyField = false;    // vgprs, sgprs seen
};

std::string lowerAscii(StringRef S) { return S.lower(); }

/// Parses a non-negative integer; Error names the option.
std::optional<int64_t> parseCount(StringRef Text, StringRef What, int64_t Max, std::string &Error) {
  StringRef T = Text.trim();
  if (T.starts_with("-")) {
    Error = fmt::format("{}: '{}' is negative", What.str(), Text.str());
    return std::nullopt;
  }
  unsigned long long V = 0;
  if (T.empty() || T.getAsInteger(10, V)) {
    Error = fmt::format("{}: '{}' is not a whole number", What.str(), Text.str());
    return std::nullopt;
  }
  if (V > static_cast<unsigned long long>(Max)) {
    Error = fmt::format("{}: {} is implausibly large (at most {})", What.str(), Text.str(), Max);
    return std::nullopt;
  }
  return static_cast<int64_t>(V);
}

/// Parses a byte size: 49152, 48K, 48k, 48KB, 48KiB, 1M, 1MiB (K = 1024).
std::optional<uint64_t> parseSize(StringRef Text, StringRef What, std::string &Error) {
  StringRef T = Text.trim();
  if (T.starts_with("-")) {
    Error = fmt::format("{}: '{}' is negative", What.str(), Text.str());
    return std::nullopt;
  }
  size_t DigitsEnd = 0;
  while (DigitsEnd < T.size() && T[DigitsEnd] >= '0' && T[DigitsEnd] <= '9')
    ++DigitsEnd;
  StringRef Digits = T.substr(0, DigitsEnd);
  std::string Suffix = lowerAscii(T.substr(DigitsEnd).trim());
  uint64_t Scale = 0;
  if (Suffix.empty() || Suffix == "b")
    Scale = 1;
  else if (Suffix == "k" || Suffix == "kb" || Suffix == "kib")
    Scale = 1024;
  else if (Suffix == "m" || Suffix == "mb" || Suffix == "mib")
    Scale = 1024 * 1024;
  unsigned long long V = 0;
  if (Digits.empty() || !Scale || Digits.getAsInteger(10, V)) {
    Error =
        fmt::format("{}: '{}' is not a size (bytes, or with K/KiB/M/MiB)", What.str(), Text.str());
    return std::nullopt;
  }
  if (V > MaxPlausibleBytes / Scale) {
    Error = fmt::format("{}: {} is implausibly large (at most 1 GiB)", What.str(), Text.str());
    return std::nullopt;
  }
  return V * Scale;
}

/// Parses "16x16", "32x8x2".
std::optional<Dim3> parseBlock(StringRef Text, std::string &Error) {
  llvm::SmallVector<StringRef, 3> Parts;
  Text.split(Parts, 'x');
  if (Parts.size() > 3) {
    Error = fmt::format("--block: '{}' has more than three dimensions", Text.str());
    return std::nullopt;
  }
  int64_t D[3] = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    auto V = parseCount(Parts[I], "--block", MaxPlausibleThreads, Error);
    if (!V)
      return std::nullopt;
    if (*V == 0) {
      Error = fmt::format("--block: '{}' has a zero dimension", Text.str());
      return std::nullopt;
    }
    D[I] = *V;
  }
  if (D[0] * D[1] * D[2] > MaxPlausibleThreads) {
    Error = fmt::format("--block: {} threads is implausibly large", D[0] * D[1] * D[2]);
    return std::nullopt;
  }
  return Dim3{D[0], D[1], D[2]};
}

/// Checks the fields that depend on the vendor; empty when fine.
std::string checkVendorFields(const Config &C) {
  if (C.Arch->isAmd() && C.NvidiaOnlyField)
    return fmt::format("registers/opt-in/carveout/barriers are NVIDIA inputs; for {} use "
                       "vgprs, sgprs and lds",
                       C.Arch->Name);
  if (C.Arch->isNvidia() && C.AmdOnlyField)
    return fmt::format("vgprs/sgprs are AMD inputs; for {} use registers", C.Arch->Name);
  return {};
}

std::string bytesText(uint64_t B) {
  if (B >= 1024 && B % 1024 == 0)
    return fmt::format("{} KiB", B / 1024);
  return fmt::format("{} B", B);
}

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

llvm::json::Array limitersJson(const OccupancyResult &R) {
  llvm::json::Array A;
  for (unsigned I = 0; I < NumResources; ++I)
    if (R.Limiters & (1u << I))
      A.push_back(resourceName(static_cast<Resource>(I)));
  return A;
}

/// The result fields every JSON answer has (batch lines included).
void addResultFields(llvm::json::Object &O, const OccupancyResult &R) {
  O["blocks_per_sm"] = R.BlocksPerSm;
  O["active_warps"] = R.ActiveWarpsPerSm;
  O["max_warps"] = R.MaxWarpsPerSm;
  O["warps_per_block"] = R.WarpsPerBlock;
  O["occupancy"] = R.Occupancy;
  O["limiters"] = limitersJson(R);
  if (R.Failure) {
    O["error"] = R.Failure->Message;
    O["error_kind"] = failureKindName(R.Failure->Kind);
  }
}

// ----------------------------------------------------------------------------------
// --batch
// ----------------------------------------------------------------------------------

std::optional<uint64_t> jsonSize(const llvm::json::Object &O, StringRef Key, std::string &Error) {
  const llvm::json::Value *V = O.get(Key);
  if (!V || V->kind() == llvm::json::Value::Null)
    return uint64_t(0);
  if (auto S = V->getAsString())
    return parseSize(*S, Key, Error);
  if (auto I = V->getAsInteger()) {
    if (*I < 0) {
      Error = fmt::format("{}: {} is negative", Key.str(), *I);
      return std::nullopt;
    }
    if (uint64_t(*I) > MaxPlausibleBytes) {
      Error = fmt::format("{}: {} is implausibly large (at most 1 GiB)", Key.str(), *I);
      return std::nullopt;
    }
    return uint64_t(*I);
  }
  Error = fmt::format("{}: expected a number of bytes or a size string", Key.str());
  return std::nullopt;
}

std::optional<int64_t> jsonCount(const llvm::json::Object &O, StringRef Key, int64_t Max,
                                 std::string &Error, bool *Present = nullptr) {
  const llvm::json::Value *V = O.get(Key);
  if (Present)
    *Present = V && V->kind() != llvm::json::Value::Null;
  if (!V || V->kind() == llvm::json::Value::Null)
    return int64_t(0);
  auto I = V->getAsInteger();
  if (!I) {
    Error = fmt::format("{}: expected a whole number", Key.str());
    return std::nullopt;
  }
  if (*I < 0) {
    Error = fmt::format("{}: {} is negative", Key.str(), *I);
    return std::nullopt;
  }
  if (*I > Max) {
    Error = fmt::format("{}: {} is implausibly large (at most {})", Key.str(), *I, Max);
    return std::nullopt;
  }
  return *I;
}

/// Reads one batch line's configuration; returns an error message or empty.
std::string configFromJson(const llvm::json::Object &O, Config &C) {
  std::string Error;
  auto Arch = O.getString("arch");
  if (!Arch)
    return "missing \"arch\" (a string such as \"sm_86\" or \"gfx906\")";
  C.Arch = findArch(*Arch);
  if (!C.Arch)
    return fmt::format("unknown arch '{}' (known: {})", Arch->str(), knownArchNames());

  bool HasThreads = false;
  auto Threads = jsonCount(O, "threads", MaxPlausibleThreads, Error, &HasThreads);
  if (!Threads)
    return Error;
  const llvm::json::Value *BlockV = O.get("block");
  if (BlockV && BlockV->kind() != llvm::json::Value::Null) {
    std::optional<Dim3> B;
    if (auto S = BlockV->getAsString()) {
      B = parseBlock(*S, Error);
    } else if (auto *A = BlockV->getAsArray(); A && !A->empty() && A->size() <= 3) {
      int64_t D[3] = {1, 1, 1};
      for (size_t I = 0; I < A->size(); ++I) {
        auto V = (*A)[I].getAsInteger();
        if (!V || *V <= 0 || *V > MaxPlausibleThreads)
          return "block: expected 1 to 3 positive whole numbers";
        D[I] = *V;
      }
      if (D[0] * D[1] * D[2] > MaxPlausibleThreads)
        return "block: implausibly many threads";
      B = Dim3{D[0], D[1], D[2]};
    } else {
      return "block: expected \"XxYxZ\" or [x, y, z]";
    }
    if (!B)
      return Error;
    C.Shape = LaunchShape::block(*B);
  } else if (HasThreads) {
    C.Shape = LaunchShape::threads(*Threads);
  } else {
    return "missing \"threads\" (or \"block\")";
  }
  C.HasShape = true;

  auto Dyn = jsonSize(O, "dynamic_smem", Error);
  if (!Dyn)
    return Error;
  C.Shape.DynamicSharedBytes = *Dyn;
  auto Static = jsonSize(O, "static_smem", Error);
  if (!Static)
    return Error;
  auto Lds = jsonSize(O, "lds", Error);
  if (!Lds)
    return Error;
  C.Res.StaticSharedBytes = *Static + *Lds;
  auto Optin = jsonSize(O, "optin_smem", Error);
  if (!Optin)
    return Error;
  C.Res.OptinDynamicSharedBytes = *Optin;

  bool P = false;
  auto Regs = jsonCount(O, "registers", MaxPlausibleRegisters, Error, &P);
  if (!Regs)
    return Error;
  C.Res.RegistersPerThread = static_cast<int>(*Regs);
  C.NvidiaOnlyField |= P && *Regs > 0;
  C.NvidiaOnlyField |= *Optin > 0;
  if (const llvm::json::Value *V = O.get("carveout"); V && V->kind() != llvm::json::Value::Null) {
    auto I = V->getAsInteger();
    if (!I || *I < -1 || *I > 100)
      return "carveout: expected -1 (default) or a percentage 0..100";
    C.Res.CarveoutPercent = static_cast<int>(*I);
    C.NvidiaOnlyField |= *I != -1;
  }
  auto Barriers = jsonCount(O, "barriers", 16, Error, &P);
  if (!Barriers)
    return Error;
  if (P) {
    C.Res.Barriers = static_cast<int>(*Barriers);
    C.NvidiaOnlyField = true;
  }
  auto Bounds = jsonCount(O, "launch_bounds", MaxPlausibleThreads, Error);
  if (!Bounds)
    return Error;
  C.Res.LaunchBoundsMaxThreads = static_cast<int>(*Bounds);
  auto MinBlocks = jsonCount(O, "min_blocks", 1024, Error);
  if (!MinBlocks)
    return Error;
  C.Res.LaunchBoundsMinBlocks = static_cast<int>(*MinBlocks);
  auto Vgprs = jsonCount(O, "vgprs", MaxPlausibleRegisters, Error, &P);
  if (!Vgprs)
    return Error;
  C.Res.Vgprs = static_cast<int>(*Vgprs);
  C.AmdOnlyField |= P;
  auto Sgprs = jsonCount(O, "sgprs", MaxPlausibleRegisters, Error, &P);
  if (!Sgprs)
    return Error;
  C.Res.Sgprs = static_cast<int>(*Sgprs);
  C.AmdOnlyField |= P;
  return checkVendorFields(C);
}

int runBatch() {
  std::ios::sync_with_stdio(false);
  llvm::raw_ostream &Out = llvm::outs();
  std::string Line;
  long long LineNo = 0;
  bool AnyBad = false;
  while (std::getline(std::cin, Line)) {
    ++LineNo;
    if (StringRef(Line).trim().empty())
      continue;
    Out << evaluateOccupancyBatchLine(Line, LineNo, AnyBad) << '\n';
  }
  Out.flush();
  return AnyBad ? 2 : 0;
}

// ----------------------------------------------------------------------------------
// Single configuration
// ----------------------------------------------------------------------------------

struct CliOptions {
  Config C;
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
  bool Batch = false;
  bool List = false;
};

/// Parses the command line into Opt, each value checked as it comes: Ok, Help, or Error
/// with Err set.
ArgParser::Result parseOccupancyArgs(int Argc, char **Argv, CliOptions &Opt, std::string &Err) {
  Config &C = Opt.C;
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
      .option("--threads", count("--threads", MaxPlausibleThreads,
                                 positive("--threads: a block needs at least one thread",
                                          Opt.Threads)))
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
              [&C](StringRef V, std::string &E) {
                std::optional<int64_t> N = parseCount(V, "--carveout", 100, E);
                if (!N) {
                  if (E.find("implausibly") != std::string::npos)
                    E = "--carveout: a percentage 0..100";
                  return false;
                }
                C.Res.CarveoutPercent = static_cast<int>(*N);
                C.NvidiaOnlyField = true;
                return true;
              })
      .option("--launch-bounds",
              [&C](StringRef V, std::string &E) {
                auto [Max, Min] = V.split(',');
                std::optional<int64_t> N =
                    parseCount(Max, "--launch-bounds", MaxPlausibleThreads, E);
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
              })
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
  // Larger blocks can raise occupancy too: the best block size for this kernel.
  BlockSizeSuggestion Best = maxPotentialBlockSize(A, K, S.DynamicSharedBytes, 0);
  if (Best.BlockSize > 0 && Best.Occupancy > R.Occupancy + 1e-12)
    OS << fmt::format("  {:<14}{} threads per block give {:.1f}% ({}) with the same "
                      "per-block resources\n",
                      "best block", Best.BlockSize, 100 * Best.Occupancy,
                      blocksText(Best.BlocksPerSm, A));
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
      OS << fmt::format("note: __launch_bounds__ asks for {} blocks per SM, only {} fit\n",
                        K.LaunchBoundsMinBlocks, R.BlocksPerSm);
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
                                        {"source", A.Source}});
      continue;
    }
    OS << fmt::format("{:<8} {:<5} {:<20} {:>9} {:>9} {:>10} {:>10}  {}\n", A.Name,
                      A.isNvidia() ? A.displayVersion() : "-", A.Family, A.MaxWarpsPerSm,
                      A.MaxBlocksPerSm, bytesText(A.SharedPerSmBytes),
                      bytesText(A.SharedPerBlockOptinBytes), A.Source);
  }
  if (Json)
    OS << llvm::json::Value(std::move(Rows)) << "\n";
  return 0;
}

} // namespace

std::string evaluateOccupancyBatchLine(llvm::StringRef Line, long long LineNo, bool &Bad) {
  llvm::json::Object Reply;
  auto Parsed = parseBoundedJson(Line);
  if (!Parsed) {
    Reply["error"] =
        "line " + std::to_string(LineNo) + ": invalid JSON: " + llvm::toString(Parsed.takeError());
    Reply["line"] = LineNo;
    Bad = true;
  } else if (const llvm::json::Object *In = Parsed->getAsObject(); !In) {
    Reply["error"] = "line " + std::to_string(LineNo) + ": expected a JSON object";
    Reply["line"] = LineNo;
    Bad = true;
  } else {
    Reply = *In;
    Config C;
    std::string Err = configFromJson(*In, C);
    if (!Err.empty()) {
      Reply["error"] = "line " + std::to_string(LineNo) + ": " + Err;
      Reply["line"] = LineNo;
      Bad = true;
    } else {
      addResultFields(Reply, computeOccupancy(*C.Arch, C.Res, C.Shape));
    }
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(std::move(Reply));
  return Text;
}

int runOccupancyCommand(int Argc, char **Argv) {
  CliOptions Opt;
  Config &C = Opt.C;
  std::string Err;
  switch (parseOccupancyArgs(Argc, Argv, Opt, Err)) {
  case ArgParser::Result::Help:
    llvm::outs() << Usage;
    return 0;
  case ArgParser::Result::Error:
    return error(Err);
  case ArgParser::Result::Ok:
    break;
  }
  std::string &ArchText = Opt.ArchText;
  const std::optional<int64_t> &Threads = Opt.Threads;
  const std::optional<Dim3> &Block = Opt.Block;
  const std::string &SvgPath = Opt.SvgPath;
  bool RegistersGiven = Opt.RegistersGiven;

  if (Opt.List)
    return listArchs(Opt.Json);
  if (Opt.Batch)
    return runBatch();

  if (ArchText.empty() && Opt.Gpu)
    ArchText = Opt.Gpu->Arch;
  if (ArchText.empty())
    return error("--arch is required (e.g. --arch sm_86; see --list-archs)");
  C.Arch = findArch(ArchText);
  if (!C.Arch)
    return error(fmt::format("unknown architecture '{}' (known: {})", ArchText, knownArchNames()));
  if (Opt.Gpu && !Opt.Sms)
    Opt.Sms = Opt.Gpu->SmCount;
  if (std::string E = checkVendorFields(C); !E.empty())
    return error(E);
  if (Threads && Block)
    return error("give --threads or --block, not both");
  uint64_t Dyn = C.Shape.DynamicSharedBytes;
  if (Block)
    C.Shape = LaunchShape::block(*Block, Dyn);
  else if (Threads)
    C.Shape = LaunchShape::threads(*Threads, Dyn);
  C.HasShape = Threads || Block;
  if (!SvgPath.empty()) {
    if (!C.HasShape)
      return error("--svg needs the launch: --threads N or --block XxY[xZ]");
    OccupancyResult Now = computeOccupancy(*C.Arch, C.Res, C.Shape);
    std::string Title = fmt::format(
        "{}: {} threads per block, {} registers, {} + {} shared bytes: occupancy {:.1f}%",
        C.Arch->Name, C.Shape.ThreadsPerBlock,
        RegistersGiven ? std::to_string(C.Arch->isAmd() ? C.Res.Vgprs : C.Res.RegistersPerThread)
                       : std::string("unknown"),
        C.Res.StaticSharedBytes, C.Shape.DynamicSharedBytes, 100 * Now.Occupancy);
    std::string Svg =
        renderChartsDocument(occupancyCharts(*C.Arch, C.Res, C.Shape, RegistersGiven), Title);
    if (!writeFileAtomically(SvgPath, Svg, Err))
      return error(Err);
  }
  llvm::raw_ostream &OS = llvm::outs();

  if (Opt.MaxBlockSize) {
    BlockSizeSuggestion B =
        maxPotentialBlockSize(*C.Arch, C.Res, Dyn, static_cast<int>(Opt.Sms.value_or(0)));
    if (Opt.Json) {
      llvm::json::Object O{{"arch", C.Arch->Name},
                           {"max_block_size", B.BlockSize},
                           {"blocks_per_sm", B.BlocksPerSm},
                           {"occupancy", B.Occupancy}};
      if (Opt.Sms) {
        O["sms"] = *Opt.Sms;
        O["min_grid_size"] = B.MinGridSize;
      }
      OS << llvm::json::Value(std::move(O)) << "\n";
    } else if (B.BlockSize == 0) {
      OS << fmt::format("{}: no block size can launch with these resources\n", C.Arch->Name);
    } else {
      OS << fmt::format("{}: max potential block size {} ({} blocks per SM, occupancy {:.1f}%)\n",
                        C.Arch->Name, B.BlockSize, B.BlocksPerSm, 100 * B.Occupancy);
      if (Opt.Sms)
        OS << fmt::format("min grid size {} ({} blocks x {} SMs) fills the GPU\n", B.MinGridSize,
                          B.BlocksPerSm, *Opt.Sms);
      else
        OS << "(give --sms N or --gpu NAME for the min grid size)\n";
    }
    return B.BlockSize > 0 ? 0 : 1;
  }

  if (Opt.Sweep == "block") {
    // The block-size sweep needs no block.
  } else if (!C.HasShape) {
    return error("--threads N or --block XxY[xZ] is required");
  }

  if (!Opt.Sweep.empty()) {
    std::vector<SweepPoint> Points = Opt.Sweep == "block" ? sweepBlockSize(*C.Arch, C.Res, Dyn)
                                     : Opt.Sweep == "registers"
                                         ? sweepRegisters(*C.Arch, C.Res, C.Shape)
                                         : sweepSharedMemory(*C.Arch, C.Res, C.Shape);
    const char *Key = Opt.Sweep == "block"       ? "threads"
                      : Opt.Sweep == "registers" ? (C.Arch->isAmd() ? "vgprs" : "registers")
                                                 : "smem";
    if (Opt.Json) {
      llvm::json::Array A;
      for (const SweepPoint &P : Points) {
        OccupancyResult Fake;
        Fake.Arch = C.Arch;
        Fake.Limiters = P.Limiters;
        A.push_back(llvm::json::Object{{Key, P.Value},
                                       {"blocks_per_sm", P.BlocksPerSm},
                                       {"active_warps", P.ActiveWarpsPerSm},
                                       {"occupancy", P.Occupancy},
                                       {"limiters", limitersJson(Fake)}});
      }
      OS << llvm::json::Value(llvm::json::Object{
                {"arch", C.Arch->Name}, {"sweep", Opt.Sweep}, {"points", std::move(A)}})
         << "\n";
    } else {
      OS << fmt::format("{:>10} {:>10} {:>8} {:>10}  limiters\n", Key, "blocks/SM", "warps",
                        "occupancy");
      for (const SweepPoint &P : Points) {
        OccupancyResult Fake;
        Fake.Arch = C.Arch;
        Fake.Limiters = P.Limiters;
        OS << fmt::format("{:>10} {:>10} {:>8} {:>9.1f}%  {}\n", P.Value, P.BlocksPerSm,
                          P.ActiveWarpsPerSm, 100 * P.Occupancy,
                          P.BlocksPerSm ? limitersText(Fake) : "cannot launch");
      }
    }
    return 0;
  }

  OccupancyResult R = computeOccupancy(*C.Arch, C.Res, C.Shape);
  std::optional<WaveInfo> W;
  if (Opt.Grid) {
    if (!Opt.Sms)
      return error("--grid needs --sms N (or --gpu NAME) to count waves");
    W = waves(*Opt.Grid, R.BlocksPerSm, static_cast<int>(*Opt.Sms));
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
    OS << llvm::json::Value(std::move(O)) << "\n";
  } else {
    printText(OS, Opt, R);
    if (W)
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

} // namespace warplint::driver
