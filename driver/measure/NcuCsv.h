//===- NcuCsv.h - Nsight Compute's CSV export read back -*- C++ -*-===//
//
// `ncu --csv --page raw` writes one row per profiled launch: the launch's identity (ID in
// launch order, kernel name, block and grid size, device, compute capability) and one
// column per metric, with a row of units under the header. `ncu --csv` without --page
// raw (the details page) writes one row per metric instead ("Metric Name", "Metric
// Unit", "Metric Value"). Both are read into one NcuLaunch per launch. What `warplint
// report --ncu` needs of them: the launch statistics and occupancy metrics (registers,
// shared memory, launch__occupancy_limit_*, theoretical and achieved occupancy) and the
// branch metrics (smsp__sass_average_branch_targets_threads_uniform.pct,
// smsp__sass_branch_targets_threads_divergent.sum).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint::driver {

/// One metric's value as ncu printed it, and as a number in base units when it is one
/// (thousands separators removed; byte multiples and time units scaled to bytes and ns).
struct NcuValue {
  std::string Text;
  std::string Unit; ///< as printed: "%", "byte", "Kbyte", "register/thread", ""
  std::optional<double> Number;
};

/// One profiled launch.
struct NcuLaunch {
  uint64_t Id = 0;        ///< ncu's "ID": launch order within the profile
  std::string KernelName; ///< "stencil(float *, int)", "void k<128>(float *)", or mangled
  std::optional<std::array<uint64_t, 3>> Block, Grid; ///< "(256, 1, 1)"
  std::string Device;
  std::string Cc; ///< "8.6"
  std::map<std::string, NcuValue> Metrics;

  /// A metric as a number, when present and numeric.
  std::optional<double> number(llvm::StringRef Metric) const;
};

/// Reads the CSV (lines before the header, such as ==PROF== lines and the program's own
/// output, are skipped). Launches in ID order. False with Error on a file with no ncu
/// header, a row whose field count differs from the header's, or no launch at all.
bool readNcuCsv(llvm::StringRef Text, std::vector<NcuLaunch> &Out, std::string &Error);

/// The name to match a source kernel against: a mangled name as it is; a demangled one
/// without its parameter list, its return type ("void ") and spaces, with integer
/// suffixes of template arguments dropped ("void ns::k<256u>(float *)" -> "ns::k<256>").
std::string ncuKernelKey(llvm::StringRef KernelName);

/// The same normalisation for a source kernel name ("ns::k<256U>" -> "ns::k<256>").
std::string sourceKernelKey(llvm::StringRef Name);

/// A key without template arguments: "ns::k<256>" -> "ns::k".
std::string withoutTemplateArgs(llvm::StringRef Key);

} // namespace warplint::driver
