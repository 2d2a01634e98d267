//===- LaunchPlan.h - what `warplint launch` analyses of one compile command -*- C++ -*-===//
//
// A build runs `warplint launch -- COMPILER ARGS...` (CMake's <LANG>_COMPILER_LAUNCHER)
// for each compile. The compile itself runs as given; this reads the same argument vector
// to find what to analyse afterwards: the command without the launchers in front of the
// compiler (ccache, sccache), the CUDA or HIP sources, the object the compile writes, and
// whether that object holds device code to take registers from.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace warplint::driver {

/// The compilers the launcher understands.
enum class LaunchCompiler { Nvcc, Hip, Clang, Other };

/// What one compile command means for the analysis.
struct LaunchPlan {
  /// The command analysed: the compile's own, without launchers (ccache, sccache,
  /// distcc, buildcache) before the compiler.
  std::vector<std::string> Command;
  LaunchCompiler Compiler = LaunchCompiler::Other;
  /// The CUDA or HIP sources the command compiles, as written.
  std::vector<std::string> Sources;
  /// The -o file, as written; empty when the command names none.
  std::string Output;
  /// The compile writes device code into Output (an object with a fatbin, or a cubin):
  /// registers come from it. False for -E, -M, -MM, -fsyntax-only, --cuda-host-only,
  /// -ptx, -S, and commands without -c/-dc/-cubin.
  bool DeviceCode = false;
  /// Why nothing is analysed (empty: analyse Sources). Quiet: the command is not a CUDA
  /// or HIP compile (a host .cpp through CMAKE_CXX_COMPILER_LAUNCHER), which is normal and
  /// not said; otherwise the reason is said once on stderr.
  std::string Skip;
  bool SkipQuietly = false;
};

/// Reads a compile command (argv[0] the compiler or a launcher in front of it).
LaunchPlan planLaunch(const std::vector<std::string> &Compile);

} // namespace warplint::driver
