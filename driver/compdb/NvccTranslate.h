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

/// Where the compiler of a compile command is (nvcc's, hipcc's, clang's): 1 after a
/// ccache or sccache launcher with a command after it, else 0.
size_t compilerIndex(const std::vector<std::string> &Args);
/// A path's last component: "nvcc" of "/usr/local/cuda/bin/nvcc".
std::string_view baseName(std::string_view Path);

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

/// The include directories of an MPI compiler wrapper (a host compiler whose name starts
/// with "mpi": mpicxx, mpic++, mpiCC, mpiicpc), which nvcc's `-ccbin` hands every
/// compile: Open MPI's `--showme:incdirs`, else the -I options of MPICH's `-show`. Asked
/// once per wrapper; none for another compiler or a wrapper that cannot be run.
std::vector<std::string> mpiIncludeDirs(const std::string &Wrapper);

/// The version of the nvcc a toolkit holds: what nvcc predefines as __CUDACC_VER_MAJOR__,
/// __CUDACC_VER_MINOR__ and __CUDACC_VER_BUILD__.
struct NvccVersion {
  int Major = 0, Minor = 0, Build = 0;
  /// Where the figures were read: "version.json", "dist-info", "cuda.h" (CUDA_VERSION:
  /// no build number, 0), or "assumed" (no toolkit: nvcc 13.0.0, the release whose
  /// default target, sm_75, an nvcc command without one is parsed for).
  std::string From;
};

/// The nvcc version of the toolkit at CudaPath: its version.json's cuda_nvcc entry, else
/// a pip-installed toolkit's dist-info/nvidia_cuda_nvcc-X.Y.Z.dist-info, else
/// include/cuda.h's CUDA_VERSION; 13.0.0 ("assumed") when none is there. Read once per
/// directory.
NvccVersion nvccVersionOf(const std::string &CudaPath);

/// What nvcc-specific options of a command change in the program nvcc sees.
struct NvccModes {
  bool Rdc = false;            ///< -rdc=true, -dc: __CUDACC_RDC__
  bool ExtendedLambda = false; ///< --extended-lambda: __CUDACC_EXTENDED_LAMBDA__ (after
                               ///< clang's CUDA wrapper: nvccCompatArgs)
  bool RelaxedConstexpr = false; ///< --expt-relaxed-constexpr: __CUDACC_RELAXED_CONSTEXPR__
};

/// The clang options that make a device-side parse see a file as nvcc compiles it:
/// nvcc's predefined macros (__NVCC__, __CUDACC_VER_*__, and those of Modes), and the
/// diagnostics that nvcc gives as warnings but clang as errors, turned off: the
/// C++17-removed `register` (-Wno-register), narrowing in braces (-Wno-c++11-narrowing),
/// a literal glued to a macro ("%"PRId64: -Wno-reserved-user-defined-literal).
/// __CUDACC__ itself is 1 under nvcc but empty in clang's CUDA wrappers, which define it
/// last; warplint's compatibility header (driver/headers/warplint_cuda_compat.h)
/// redefines it to 1 when __NVCC__ is defined.
std::vector<std::string> nvccCompatArgs(const NvccVersion &V, const NvccModes &Modes = {});

/// True when Dir holds a CUDA toolkit (include/cuda_runtime.h).
bool isCudaToolkit(const std::string &Dir);

/// The toolkit to use when nothing names one: $CUDA_PATH when set, else /usr/local/cuda;
/// empty when that directory holds no toolkit.
std::string defaultCudaToolkit();

} // namespace warplint::driver
