//===- Findings.h - what one warplint run found, format-independent -*- C++ -*-===//
//
// The driver gathers clang-tidy's diagnostics and the launch facts of every analysed
// translation unit into these plain structs; every output format (text, json, sarif,
// github, the HTML report) is written from them and from nothing else.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint::driver {

/// A source position: absolute or database-relative path, 1-based line and column.
struct SourcePos {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// A note attached to a finding (clang's "note:" diagnostics).
struct FindingNote {
  SourcePos Pos;
  std::string Message;
};

enum class Severity { Note, Warning, Error };

/// One diagnostic of a warplint-* check.
struct Finding {
  std::string Check;  ///< e.g. "warplint-block-size-warp-multiple"
  Severity Level = Severity::Warning;
  SourcePos Pos;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::string Arch;   ///< the target arch the finding was computed for ("sm_86"), or empty
};

/// One kernel launch site, with what is known of its shape and resources.
struct LaunchRecord {
  SourcePos Pos;
  std::optional<std::string> Kernel;        ///< the kernel's name, if resolvable
  std::optional<std::string> MangledKernel; ///< its mangled name, if resolvable
  std::string Api;                          ///< "triple-chevron", "cudaLaunchKernel", ...
  std::optional<std::array<uint64_t, 3>> Block;
  std::optional<std::array<uint64_t, 3>> Grid;
  std::optional<uint64_t> DynamicSmemBytes;
  std::optional<std::string> DynamicSmemExpr;
  std::optional<uint64_t> StaticSmemBytes;
  std::string Arch;
  std::optional<unsigned> Registers;        ///< registers per thread, when known
  std::optional<unsigned> BlocksPerSm;
  std::optional<double> Occupancy;          ///< 0..1
  std::vector<std::string> Limiters;        ///< "warps", "blocks", "registers", ...
  std::optional<std::string> LaunchError;   ///< why the launch cannot run, if it cannot
};

/// A kernel defined in an analysed file: where its body is (to tie findings to it).
struct KernelRecord {
  std::string Name;     ///< qualified, with template arguments, as LaunchRecord::Kernel
  std::string File;
  unsigned BeginLine = 0; ///< the definition's first line
  unsigned EndLine = 0;   ///< the body's closing brace
};

/// Everything one run of `warplint check` produced.
struct RunResult {
  std::vector<Finding> Findings;     ///< sorted by file, line, column, check
  std::vector<LaunchRecord> Launches;///< sorted by file, line, column
  std::vector<std::string> FilesAnalysed;
  std::vector<std::string> FilesFailed;
  std::vector<KernelRecord> Kernels; ///< sorted by file, line (when launches are collected)
};

} // namespace warplint::driver
