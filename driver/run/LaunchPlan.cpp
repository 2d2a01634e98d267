//===- LaunchPlan.cpp - what `warplint launch` analyses of one compile command ---===//
#include "driver/run/LaunchPlan.h"

#include "driver/compdb/HipTranslate.h"
#include "driver/compdb/NvccTranslate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace warplint::driver {
namespace {

/// Launchers that run the compiler named after them (CMake chains them:
/// "warplint;launch;--;ccache").
bool isLauncher(llvm::StringRef Arg) {
  llvm::StringRef Name = llvm::sys::path::filename(Arg);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "buildcache" ||
         Name == "icecc";
}

/// Options whose value is the next argument and can look like a source file.
bool takesSeparateValue(llvm::StringRef Arg) {
  static const char *const Names[] = {
      "-o",        "--output-file", "-MF",          "--dependency-output", "-MT",
      "-MQ",       "-MJ",           "-include",     "--pre-include",       "-imacros",
      "-x",        "-Xclang",       "-Xcompiler",   "--compiler-options",  "-Xptxas",
      "-Xlinker",  "-Xarch_device", "-Xarch_host",  "-Xcuda-ptxas",        "-Xcuda-fatbinary",
      "-ccbin",    "--compiler-bindir", "-isystem", "-I",                  "-iquote",
      "-idirafter", "--options-file", "-optf",      "-odir",               "--output-directory",
      "-dependency-target-name", "--dependency-target-name"};
  return llvm::is_contained(Names, Arg);
}

bool hasSourceExtension(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".hip" || Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" ||
         Ext == ".c++" || Ext == ".C" || Ext == ".c" || Ext == ".cp" || Ext == ".CPP";
}

bool isDeviceExtension(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".hip";
}

} // namespace

LaunchPlan planLaunch(const std::vector<std::string> &Compile) {
  LaunchPlan P;
  size_t First = 0;
  while (First < Compile.size() && isLauncher(Compile[First]))
    ++First;
  if (First >= Compile.size()) {
    P.Skip = "no compiler in the command";
    return P;
  }
  P.Command.assign(Compile.begin() + First, Compile.end());
  if (isNvccCommand(P.Command))
    P.Compiler = LaunchCompiler::Nvcc;
  else if (isHipCommand(P.Command))
    P.Compiler = LaunchCompiler::Hip;
  else if (llvm::sys::path::filename(P.Command[0]).contains("clang"))
    P.Compiler = LaunchCompiler::Clang;

  bool DeviceLanguage = false; // -x cu, -x cuda, -x hip
  bool Compiles = false, NoDeviceCode = false;
  std::vector<std::string> Candidates;
  for (size_t I = 1; I < P.Command.size(); ++I) {
    llvm::StringRef A = P.Command[I];
    if (A == "-x" && I + 1 < P.Command.size()) {
      llvm::StringRef Lang = P.Command[I + 1];
      DeviceLanguage |= Lang == "cu" || Lang == "cuda" || Lang == "hip";
    } else if (A == "-xcuda" || A == "-xhip" || A == "-xcu") {
      DeviceLanguage = true;
    }
    if (A == "-o" || A == "--output-file") {
      if (I + 1 < P.Command.size())
        P.Output = P.Command[I + 1];
    } else if (A.starts_with("--output-file=")) {
      P.Output = A.drop_front(14).str();
    } else if (A.starts_with("-o=") && P.Compiler == LaunchCompiler::Nvcc) {
      P.Output = A.drop_front(3).str();
    } else if (A.starts_with("-o") && A.size() > 2 && P.Compiler != LaunchCompiler::Nvcc) {
      P.Output = A.drop_front(2).str();
    }
    if (A == "-c" || A == "--compile" || A == "-dc" || A == "--device-c" || A == "-cubin" ||
        A == "--cubin" || A == "-fatbin" || A == "--fatbin")
      Compiles = true;
    if (A == "-E" || A == "--preprocess" || A == "-M" || A == "-MM" ||
        A == "--generate-dependencies" || A == "--generate-nonsystem-dependencies" ||
        A == "-fsyntax-only" || A == "--cuda-host-only" || A == "--offload-host-only" ||
        A == "-ptx" || A == "--ptx" || A == "-S" || A == "-cuda" || A == "--cuda" ||
        A == "-emit-llvm")
      NoDeviceCode = true;
    if (takesSeparateValue(A)) {
      ++I;
      continue;
    }
    if (!A.starts_with("-") && hasSourceExtension(A))
      Candidates.push_back(A.str());
  }
  P.DeviceCode = Compiles && !NoDeviceCode && !P.Output.empty();

  for (const std::string &S : Candidates) {
    bool Device = DeviceLanguage || isDeviceExtension(S) || P.Compiler == LaunchCompiler::Hip;
    if (Device)
      P.Sources.push_back(S);
  }
  if (P.Sources.empty()) {
    // A host-only compile (a .cpp through the CXX launcher), a link, `nvcc --version`.
    P.Skip = "no CUDA or HIP source in the command";
    P.SkipQuietly = true;
    return P;
  }
  if (P.Compiler == LaunchCompiler::Other) {
    P.Skip = "'" + P.Command[0] +
             "' is not nvcc, hipcc or clang: warplint does not know how it reads its "
             "arguments";
    P.Sources.clear();
  }
  return P;
}

} // namespace warplint::driver
