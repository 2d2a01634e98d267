//===- OccupancyInput.h - one occupancy question and its JSON answer -*- C++ -*-===//
//
// What `warplint occupancy` and its --batch lines share: the question (arch, kernel
// resources, launch shape), the parsing and plausibility checks of its numbers, and the
// result fields every JSON answer carries.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warplint::driver {

// Anything above these is a typo, not a configuration to evaluate.
constexpr int64_t MaxPlausibleThreads = int64_t(1) << 24;
constexpr int64_t MaxPlausibleRegisters = 65536;
constexpr uint64_t MaxPlausibleBytes = uint64_t(1) << 30;
constexpr int64_t MaxPlausibleSms = 100000;
constexpr int64_t MaxPlausibleGrid = int64_t(1) << 50;

/// One occupancy question.
struct OccupancyConfig {
  const GpuArch *Arch = nullptr;
  KernelResources Res;
  LaunchShape Shape;
  bool HasShape = false;
  bool NvidiaOnlyField = false; ///< registers, optin, carveout, barriers seen
  bool AmdOnlyField = false;    ///< vgprs, sgprs seen
};

/// A non-negative whole number up to Max; Error names the option What.
std::optional<int64_t> parseCount(llvm::StringRef Text, llvm::StringRef What, int64_t Max,
                                  std::string &Error);
/// A byte size: 49152, 48K, 48k, 48KB, 48KiB, 1M, 1MiB (K = 1024), at most 1 GiB.
std::optional<uint64_t> parseSize(llvm::StringRef Text, llvm::StringRef What, std::string &Error);
/// A block shape: "16x16", "32x8x2".
std::optional<Dim3> parseBlock(llvm::StringRef Text, std::string &Error);
/// The fields that depend on the vendor (registers for NVIDIA, VGPRs for AMD); empty
/// when they fit C.Arch.
std::string checkVendorFields(const OccupancyConfig &C);

/// The limiting resources' names ("registers", "shared_memory", ...).
llvm::json::Array limitersJson(const OccupancyResult &R);
/// The result fields every JSON answer has (batch lines included): blocks_per_sm,
/// active_warps, max_warps, warps_per_block, occupancy, limiters, and error/error_kind
/// when the launch cannot run.
void addResultFields(llvm::json::Object &O, const OccupancyResult &R);

/// Writes V as compact JSON (keys sorted, as llvm::json does) with every number that is
/// not whole, the occupancy and the other rates and fractions, at 6 significant digits
/// (0.333333, not 0.33333333333333331), and a number too large for a double as null
/// (JSON has no infinity). No newline.
void writeOccupancyJson(llvm::raw_ostream &OS, const llvm::json::Value &V);

} // namespace warplint::driver
