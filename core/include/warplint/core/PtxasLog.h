//===- PtxasLog.h - parser of ptxas resource-usage reports (-Xptxas -v) ---*- C++ -*-===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warplint {

/// One function of a ptxas report: an entry function (kernel) with its "Used" line, or
/// a non-inlined device function that only has a "Function properties" block.
struct PtxasFunction {
  /// The name as ptxas prints it (the mangled name; `__nv_static_..._` prefixed for
  /// internal-linkage kernels under -rdc).
  std::string Name;
  /// Target of the compile, "sm_80"; empty when the log never named one.
  std::string Arch;
  /// True for "Compiling entry function" (a __global__ kernel).
  bool IsEntry = false;
  /// Registers per thread ("Used N registers"); nullopt without a "Used" line.
  std::optional<int> Registers;
  /// Named barriers used ("used N barriers").
  std::optional<int> Barriers;
  /// Per-thread stack frame, bytes.
  uint64_t StackFrameBytes = 0;
  /// Bytes per thread spilled to local memory (stores and loads).
  uint64_t SpillStoreBytes = 0;
  uint64_t SpillLoadBytes = 0;
  /// Stack including callees, bytes per thread ("N bytes cumulative stack size").
  std::optional<uint64_t> CumulativeStackBytes;
  /// Static shared memory per block, bytes ("N bytes smem"; 0 when not printed).
  uint64_t SharedBytes = 0;
  /// Constant banks: (bank, bytes) for each "N bytes cmem[B]" of the Used line.
  std::vector<std::pair<int, uint64_t>> ConstantBytes;
  /// 1-based line of the "Compiling entry function" or "Function properties" line.
  int Line = 0;
};

/// The report of one ptxas run: one target arch (one -gencode) of one translation unit.
struct PtxasArchBlock {
  /// "sm_80"; empty when only device functions were reported and no entry named it.
  std::string Arch;
  /// Module-level globals, bytes ("N bytes gmem").
  uint64_t GlobalBytes = 0;
  /// Module-level constant banks (bank, bytes), e.g. __constant__ data in cmem[3].
  std::vector<std::pair<int, uint64_t>> ConstantBytes;
  /// Functions in report order.
  std::vector<PtxasFunction> Functions;
};

/// A parsed log: every arch block in order, plus the lines that were not resource data.
struct PtxasLog {
  std::vector<PtxasArchBlock> Blocks;
  /// "ptxas warning : ..." and "ptxas error : ..." lines, verbatim (without the prefix).
  std::vector<std::string> Warnings;
  std::vector<std::string> Errors;
  /// Lines that looked like resource data but could not be read, "line N: text".
  std::vector<std::string> Malformed;

  /// The entry function named exactly \p Name compiled for \p Arch ("sm_80"), or null.
  const PtxasFunction *findEntry(std::string_view Name, std::string_view Arch) const;
  /// Every arch that has at least one entry function, in log order, without repeats.
  std::vector<std::string> archs() const;
  /// Number of entry functions over all blocks.
  size_t entryCount() const;
};

/// Parses the stderr of `nvcc -Xptxas -v` / `--resource-usage` (or of ptxas -v itself).
/// Lines that are not from ptxas (host compiler, nvcc warnings) are skipped. Returns
/// nullopt and sets \p Error when the text holds no ptxas resource report at all.
std::optional<PtxasLog> parsePtxasLog(std::string_view Text, std::string *Error = nullptr);

/// The mangled name behind a ptxas name: strips the `__nv_static_<N>__<hash>_` prefix
/// that -rdc gives internal-linkage functions; other names are returned unchanged.
std::string_view stripNvStaticPrefix(std::string_view Name);

} // namespace warplint
