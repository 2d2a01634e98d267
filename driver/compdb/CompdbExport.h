//===- CompdbExport.h - what `warplint compdb` writes beside the database -*- C++ -*-===//
//
// `warplint check` parses some files with changes in memory that give clang the program
// nvcc sees: shims that keep clang's CUDA wrappers on the toolkit's cuda.h when a project
// header of that name is on -I (driver/compdb/WrapperShims.h), and launch chevrons written with
// spaces joined (driver/compdb/SourceRewrite.h). A database for stock clang-tidy carries them as
// files next to it.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/compdb/WrapperShims.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint::driver {

/// A command whose CUDA wrappers would include a project header in place of the
/// toolkit's (a project `cuda.h` on -I).
struct ShadowedWrapperHeaders {
  std::string ResourceDir;     ///< clang's resource directory the command runs with
  std::string Toolkit;         ///< the toolkit's include directory
  std::string Name;            ///< the first shadowed name ("cuda.h")
  std::string ProjectHeader;   ///< the project's file that shadows it
  std::vector<ShimFile> Shims; ///< paths relative to the resource directory's include/
};

/// For a translated (clang) command run in Directory: the wrappers' quoted toolkit
/// includes (`#include "cuda.h"`), looked up as clang does from the resource directory
/// (the command's -resource-dir, else clangResourceDir()); nullopt when each finds the
/// toolkit's file or nothing before clang's own directories (the program is then the
/// same without shims), or the command is not a CUDA parse against a toolkit.
std::optional<ShadowedWrapperHeaders> shadowedWrapperHeaders(const std::vector<std::string> &Args,
                                                             const std::string &Directory);

/// A copy of clang's resource directory under OutDir in which every entry is a symbolic
/// link to the original, with the shims added to include/: clang's wrappers, read from
/// there, find the shims first, as warplint's in-memory file system gives them. Named by
/// a hash of its content, written once (built in a temporary directory and renamed).
/// Its path, or empty with Error set.
std::string writeShimmedResourceDir(const std::string &OutDir, const ShadowedWrapperHeaders &S,
                                    std::string &Error);

/// A source file and its text with the launch chevrons joined.
struct JoinedSource {
  std::string File; ///< absolute
  std::string Text;
};

/// Writes each joined text to OutDir/warplint-joined/ and a virtual file system overlay
/// (clang's YAML format), OutDir/warplint-joined.yaml, that shows each file's joined
/// text under its own name (`clang-tidy --vfsoverlay=...`). Removes a stale overlay
/// when Files is empty. The overlay's path (empty when Files is), or empty with Error.
std::string writeJoinedOverlay(const std::string &OutDir, const std::vector<JoinedSource> &Files,
                               std::string &Error);

} // namespace warplint::driver
