//===- NvccTranslate.h - nvcc compile commands as clang CUDA commands -*- C++ -*-===//
//
// CMake's CUDA support writes nvcc command lines into compile_commands.json; clang
// rejects many nvcc options and silently misreads others (-lineinfo as -l ineinfo,
// -Werror X taking X as a file). This turns one nvcc command into the clang command of a
// device-side parse for one architecture.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warplint::driver {

/// Whether Args (argv[0] first) runs nvcc, directly or through ccache/sccache.
bool isNvccCommand(const std::vector<std::string> &Args);

/// What the translation found and made.
struct NvccTranslation {
  std::vector<std::string> Args;       ///< the clang command (argv[0] "clang++")
  std::vector<std::string> GpuArchs;   ///< "sm_80", ... from -arch/-gencode/-code, in order
  std::vector<std::string> Dropped;    ///< nvcc-only options left out, as written
};

/// Translates an nvcc command. The parse is for the device side of the first real
/// architecture of the command (sm_75, nvcc 13's default, when it names none). The
/// headers come from the toolkit above nvcc's bin/ when argv[0] is a path; when that
/// directory exists here but holds no toolkit (a wrapper script in /usr/local/bin, a
/// symlink in /usr/bin), from the toolkit the path resolves to, $CUDA_PATH or
/// /usr/local/cuda.
NvccTranslation translateNvccCommand(const std::vector<std::string> &Args);

/// True when Dir holds a CUDA toolkit (include/cuda_runtime.h).
bool isCudaToolkit(const std::string &Dir);

/// The toolkit to use when nothing names one: $CUDA_PATH when set, else /usr/local/cuda;
/// empty when that directory holds no toolkit.
std::string defaultCudaToolkit();

} // namespace warplint::driver
