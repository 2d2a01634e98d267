//===- OccupancyBatch.cpp - `warplint occupancy --batch`: JSON lines in, out ===//
#include "driver/commands/OccupancyBatch.h"
#include "driver/formats/BoundedJson.h"
#include "driver/commands/OccupancyInput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <istream>
#include <vector>

namespace warplint::driver {
namespace {

using llvm::StringRef;

/// A size field: bytes, or a string with a unit ("48K"); absent or null is 0.
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

/// A whole-number field up to Max; absent or null is 0 (Present says which).
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
std::string configFromJson(const llvm::json::Object &O, OccupancyConfig &C) {
  std::string Error;
  auto Arch = O.getString("arch");
  if (!Arch)
    return "missing \"arch\" (a string such as \"sm_86\" or \"gfx906\")";
  C.Arch = findArch(*Arch);
  if (!C.Arch)
    return fmt::format("unknown arch '{}' (known: {})", Arch->str(), knownArchNames());
  // AMD RDNA code compiled with -mwavefrontsize64: the wave64 row of the arch.
  if (const llvm::json::Value *W = O.get("wave_size"); W && W->kind() != llvm::json::Value::Null) {
    std::optional<int64_t> Size = W->getAsInteger();
    const GpuArch *Sized = Size ? findArch(*Arch, int(*Size)) : nullptr;
    if (!Sized)
      return fmt::format("wave_size: {} does not run {}-lane wavefronts (GCN/CDNA: 64; RDNA: "
                         "32 or 64)",
                         C.Arch->Name, Size ? std::to_string(*Size) : std::string("non-integer"));
    C.Arch = Sized;
  }

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
    // A string is the shared/L1 split's size on cc 2.x and 3.x ("16K").
    if (std::optional<StringRef> Text = V->getAsString()) {
      std::string E;
      std::optional<uint64_t> Bytes = parseSize(*Text, "carveout", E);
      if (!Bytes || *Bytes == 0)
        return "carveout: expected a percentage 0..100, or the shared/L1 split's size "
               "(\"16K\") on cc 2.x and 3.x";
      C.Res.SharedSplitBytes = *Bytes;
      C.NvidiaOnlyField = true;
    } else {
      auto I = V->getAsInteger();
      if (!I || *I < -1 || *I > 100)
        return "carveout: expected -1 (default) or a percentage 0..100";
      C.Res.CarveoutPercent = static_cast<int>(*I);
      C.NvidiaOnlyField |= *I != -1;
    }
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

/// The fields a batch line may have.
constexpr llvm::StringLiteral BatchFields[] = {
    "arch",         "threads",    "block",    "registers", "static_smem",
    "dynamic_smem", "optin_smem", "carveout", "barriers",  "launch_bounds",
    "min_blocks",   "vgprs",      "sgprs",    "lds",       "wave_size"};

/// One warning per key that is not a batch field, in key order, with the closest field
/// when it looks like a typo: "unknown key 'registrs' (did you mean 'registers'?): ignored".
llvm::json::Array unknownFieldWarnings(const llvm::json::Object &In) {
  std::vector<StringRef> Unknown;
  for (const auto &KV : In)
    if (!llvm::is_contained(BatchFields, StringRef(KV.first)))
      Unknown.push_back(KV.first);
  llvm::sort(Unknown);
  llvm::json::Array Warnings;
  for (StringRef Key : Unknown) {
    std::string Lower = Key.lower();
    StringRef Best;
    // A typo: at most one edit in three characters ("registrs", "thread", "arc").
    unsigned BestDistance = std::max<size_t>(1, Key.size() / 3) + 1;
    for (StringRef F : BatchFields)
      if (unsigned D = StringRef(Lower).edit_distance(F); D < BestDistance) {
        Best = F;
        BestDistance = D;
      }
    Warnings.push_back(Best.empty() ? fmt::format("unknown key '{}': ignored", Key.str())
                                    : fmt::format("unknown key '{}' (did you mean '{}'?): ignored",
                                                  Key.str(), Best.str()));
  }
  return Warnings;
}

} // namespace

std::string evaluateOccupancyBatchLine(llvm::StringRef Line, long long LineNo, bool &Bad) {
  llvm::json::Object Reply;
  std::string Where = "line " + std::to_string(LineNo) + ": ";
  auto Parsed = parseBoundedJson(Line);
  if (!Parsed) {
    Reply["error"] = Where + "invalid JSON: " + llvm::toString(Parsed.takeError());
    Bad = true;
  } else if (const llvm::json::Object *In = Parsed->getAsObject(); !In) {
    Reply["error"] = Where + "expected a JSON object";
    Bad = true;
  } else {
    Reply = *In;
    if (llvm::json::Array Warnings = unknownFieldWarnings(*In); !Warnings.empty())
      Reply["warnings"] = std::move(Warnings);
    OccupancyConfig C;
    std::string Err = configFromJson(*In, C);
    if (!Err.empty()) {
      Reply["error"] = Where + Err;
      Bad = true;
    } else {
      addResultFields(Reply, computeOccupancy(*C.Arch, C.Res, C.Shape));
    }
  }
  Reply["line"] = LineNo;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeOccupancyJson(OS, llvm::json::Value(std::move(Reply)));
  return Text;
}

int runOccupancyBatch(std::istream &In, llvm::raw_ostream &Out) {
  std::string Line;
  long long LineNo = 0;
  bool AnyBad = false;
  while (std::getline(In, Line)) {
    ++LineNo;
    // Blank lines are skipped: no answer (the answers' "line" keeps the count).
    if (StringRef(Line).trim().empty())
      continue;
    Out << evaluateOccupancyBatchLine(Line, LineNo, AnyBad) << '\n';
    // Each answer as soon as it is known: a co-process waits for it before the next line.
    Out.flush();
  }
  return AnyBad ? 2 : 0;
}

} // namespace warplint::driver
