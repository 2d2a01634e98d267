//===- HipTranslate.cpp - HIP compile commands as device-side clang parses --===//
#include "driver/compdb/HipTranslate.h"
#include "driver/compdb/NvccTranslate.h"
#include "warplint/core/Arch.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace warplint::driver {
namespace {

bool startsWith(std::string_view S, std::string_view P) { return S.substr(0, P.size()) == P; }

bool endsWithHip(std::string_view S) {
  if (S.size() < 4)
    return false;
  std::string Tail(S.substr(S.size() - 4));
  std::transform(Tail.begin(), Tail.end(), Tail.begin(), ::tolower);
  return Tail == ".hip";
}

bool isHipDriver(std::string_view Tool) {
  return Tool == "hipcc" || Tool == "hipcc.pl" || Tool == "hipcc.bin" || Tool == "amdclang++" ||
         Tool == "amdclang";
}

/// The options that name device targets, with their value joined ("--offload-arch=") or
/// next ("--offload-arch").
constexpr std::string_view ArchOptions[] = {"--offload-arch", "--cuda-gpu-arch",
                                            "--amdgpu-target", "-offload-arch"};

/// "gfx90a" of "gfx90a:xnack+:sramecc-".
std::string withoutFeatures(std::string_view A) { return std::string(A.substr(0, A.find(':'))); }

void addArchs(std::vector<std::string> &Archs, std::string_view Value) {
  size_t Start = 0;
  while (Start <= Value.size()) {
    size_t Comma = Value.find(',', Start);
    std::string_view One = Value.substr(Start, Comma == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : Comma - Start);
    if (startsWith(One, "gfx") &&
        std::find(Archs.begin(), Archs.end(), One) == Archs.end())
      Archs.emplace_back(One);
    if (Comma == std::string_view::npos)
      break;
    Start = Comma + 1;
  }
}

} // namespace

unsigned amdWaveSize(const std::string &Arch, bool Wave64Flag) {
  if (!startsWith(Arch, "gfx") || Arch.size() < 4)
    return 0;
  // gfx9xx (three digits after gfx, GCN/CDNA) and older: wave64 only; gfx10xx and later
  // (four digits): RDNA, wave32 by default.
  std::string Name = withoutFeatures(Arch);
  size_t Digits = Name.size() - 3;
  bool Rdna = Digits >= 4 && Name[3] >= '1';
  return Rdna && !Wave64Flag ? 32 : 64;
}

bool isHipCommand(const std::vector<std::string> &Args) {
  if (Args.empty())
    return false;
  size_t I = compilerIndex(Args);
  std::string_view Tool = baseName(Args[I]);
  if (isHipDriver(Tool))
    return true;
  for (size_t J = I + 1; J < Args.size(); ++J) {
    std::string_view A = Args[J];
    if ((A == "-x" && J + 1 < Args.size() && Args[J + 1] == "hip") || A == "-xhip")
      return true;
    for (std::string_view O : ArchOptions) {
      if (startsWith(A, std::string(O) + "=gfx"))
        return true;
      if (A == O && J + 1 < Args.size() && startsWith(Args[J + 1], "gfx"))
        return true;
    }
    if (A[0] != '-' && endsWithHip(A))
      return true;
  }
  return false;
}

HipTranslation translateHipCommand(const std::vector<std::string> &In, const std::string &Arch,
                                   bool RocmFound, const std::string &OwnHeaderDir) {
  HipTranslation T;
  size_t I = compilerIndex(In);
  T.Args.push_back("clang++");
  bool HasX = false, Wave64 = false, HasWaveMacro = false, NoGpuInc = false, RocmPath = false,
       NoGpuLib = false;
  for (size_t J = I + 1; J < In.size(); ++J)
    HasX |= (In[J] == "-x" && J + 1 < In.size() && In[J + 1] == "hip") || In[J] == "-xhip";
  // hipcc compiles .cpp and .cu inputs as HIP without saying so.
  if (!HasX) {
    T.Args.push_back("-x");
    T.Args.push_back("hip");
  }
  std::vector<std::string> AfterDashDash;
  for (size_t J = I + 1; J < In.size(); ++J) {
    const std::string &A = In[J];
    if (A == "--") {
      AfterDashDash.assign(In.begin() + J, In.end());
      break;
    }
    bool Taken = false;
    for (std::string_view O : ArchOptions) {
      std::string Joined = std::string(O) + "=";
      if (startsWith(A, Joined)) {
        addArchs(T.GpuArchs, std::string_view(A).substr(Joined.size()));
        Taken = true;
      } else if (A == O) {
        if (J + 1 < In.size())
          addArchs(T.GpuArchs, In[++J]);
        Taken = true;
      }
    }
    if (Taken || startsWith(A, "--no-offload-arch") || A == "--cuda-host-only" ||
        A == "--cuda-device-only" || A == "--offload-host-only" || A == "--offload-device-only" ||
        A == "--offload-host-device" || A == "--cuda-compile-host-device")
      continue;
    if (A == "-mwavefrontsize64")
      Wave64 = true;
    else if (A == "-mno-wavefrontsize64")
      Wave64 = false;
    HasWaveMacro |= startsWith(A, "-D__AMDGCN_WAVEFRONT_SIZE=") ||
                    (A == "-D" && J + 1 < In.size() &&
                     startsWith(In[J + 1], "__AMDGCN_WAVEFRONT_SIZE="));
    NoGpuInc |= A == "-nogpuinc" || A == "-nohipwrapperinc";
    NoGpuLib |= A == "-nogpulib";
    RocmPath |= startsWith(A, "--rocm-path") || startsWith(A, "--hip-path");
    T.Args.push_back(A);
  }
  std::string Chosen = !Arch.empty() ? Arch : !T.GpuArchs.empty() ? T.GpuArchs.front() : std::string(warplint::DefaultHipArch);
  T.Arch = withoutFeatures(Chosen);
  T.WaveSize = amdWaveSize(T.Arch, Wave64);
  T.Args.push_back("--cuda-device-only");
  T.Args.push_back("--offload-arch=" + Chosen);
  // A parse links nothing: no device libraries needed (and none looked for).
  if (!NoGpuLib)
    T.Args.push_back("-nogpulib");
  if (!HasWaveMacro)
    T.Args.push_back("-D__AMDGCN_WAVEFRONT_SIZE=" + std::to_string(T.WaveSize));
  if (!NoGpuInc && !RocmFound && !RocmPath && !OwnHeaderDir.empty()) {
    T.OwnHeader = true;
    for (const char *A : {"-nogpuinc", "-isystem"})
      T.Args.push_back(A);
    T.Args.push_back(OwnHeaderDir);
    T.Args.push_back("-include");
    T.Args.push_back("hip/hip_runtime.h");
  } else if (NoGpuInc) {
    // The command's own choice: its -isystem/-include give the HIP header.
    T.OwnHeader = false;
  }
  T.Args.insert(T.Args.end(), AfterDashDash.begin(), AfterDashDash.end());
  return T;
}

std::string findRocm() {
  namespace fs = std::filesystem;
  auto Has = [](const std::string &Dir) {
    std::error_code EC;
    return fs::exists(fs::path(Dir) / "include" / "hip" / "hip_runtime.h", EC);
  };
  if (const char *Env = std::getenv("ROCM_PATH"); Env && *Env)
    return Has(Env) ? std::string(Env) : std::string();
  for (const char *Dir : {"/opt/rocm", "/usr"})
    if (Has(Dir))
      return Dir;
  return {};
}

} // namespace warplint::driver
