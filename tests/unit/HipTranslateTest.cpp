//===- HipTranslateTest.cpp - HIP compile commands as device-side parses ----===//
#include "driver/compdb/HipTranslate.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace warplint::driver;

namespace {

std::vector<std::string> split(const std::string &S) {
  std::istringstream In(S);
  std::vector<std::string> Out;
  for (std::string W; In >> W;)
    Out.push_back(W);
  return Out;
}

std::string join(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V)
    Out += (Out.empty() ? "" : " ") + S;
  return Out;
}

TEST(HipCommand, RecognisesHipCommands) {
  struct Case {
    const char *Command;
    bool Hip;
  } Cases[] = {
      {"/opt/rocm/bin/hipcc -c a.cpp -o a.o", true},
      {"ccache hipcc -c a.cpp", true},
      {"amdclang++ -c a.cpp", true},
      {"/usr/bin/clang++ -x hip -c a.cpp", true},
      {"clang++ -xhip -c a.cpp", true},
      {"clang++ --offload-arch=gfx90a -c a.cpp", true},
      {"clang++ --cuda-gpu-arch=gfx906 -c a.cu", true},
      {"clang++ --offload-arch gfx1030 -c a.cpp", true},
      {"clang++ -c kernels.HIP", true},
      {"clang++ -x cuda --cuda-gpu-arch=sm_80 -c a.cu", false},
      {"clang++ --offload-arch=sm_80 -c a.cu", false},
      {"/usr/local/cuda/bin/nvcc -arch=sm_80 -c a.cu", false},
      {"g++ -c a.cpp", false},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(isHipCommand(split(C.Command)), C.Hip) << C.Command;
}

TEST(HipCommand, WaveSizes) {
  EXPECT_EQ(amdWaveSize("gfx906", false), 64u);
  EXPECT_EQ(amdWaveSize("gfx906", true), 64u);
  EXPECT_EQ(amdWaveSize("gfx90a:xnack+", false), 64u);
  EXPECT_EQ(amdWaveSize("gfx942", false), 64u);
  EXPECT_EQ(amdWaveSize("gfx1030", false), 32u);
  EXPECT_EQ(amdWaveSize("gfx1030", true), 64u);
  EXPECT_EQ(amdWaveSize("gfx1100", false), 32u);
  EXPECT_EQ(amdWaveSize("sm_80", false), 0u);
}

TEST(HipCommand, HipccCommandBecomesOneDeviceParse) {
  HipTranslation T = translateHipCommand(
      split("ccache /opt/rocm/bin/hipcc -DN=4 -O3 --offload-arch=gfx90a:xnack- "
            "--offload-arch=gfx1030 -c k.cpp -o k.o"),
      "", /*RocmFound=*/true, "/own");
  EXPECT_EQ(join(T.Args), "clang++ -x hip -DN=4 -O3 -c k.cpp -o k.o --cuda-device-only "
                          "--offload-arch=gfx90a:xnack- -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64");
  EXPECT_EQ(T.GpuArchs, (std::vector<std::string>{"gfx90a:xnack-", "gfx1030"}));
  EXPECT_EQ(T.Arch, "gfx90a");
  EXPECT_EQ(T.WaveSize, 64u);
  EXPECT_FALSE(T.OwnHeader);
}

TEST(HipCommand, ArchOverrideAndWave64) {
  HipTranslation T = translateHipCommand(
      split("clang++ -x hip --offload-arch=gfx90a -mwavefrontsize64 --cuda-host-only -c k.hip"),
      "gfx1030", true, "/own");
  EXPECT_EQ(join(T.Args), "clang++ -x hip -mwavefrontsize64 -c k.hip --cuda-device-only "
                          "--offload-arch=gfx1030 -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64");
  EXPECT_EQ(T.WaveSize, 64u);
  T = translateHipCommand(split("clang++ -x hip -c k.hip"), "gfx1100", true, "/own");
  EXPECT_EQ(T.WaveSize, 32u);
  EXPECT_EQ(T.Args.back(), "-D__AMDGCN_WAVEFRONT_SIZE=32");
}

TEST(HipCommand, DefaultArchIsClangs) {
  HipTranslation T = translateHipCommand(split("hipcc -c k.cpp"), "", true, "");
  EXPECT_EQ(T.Arch, "gfx906");
  EXPECT_TRUE(T.GpuArchs.empty());
}

TEST(HipCommand, OwnHeaderWithoutRocm) {
  HipTranslation T = translateHipCommand(split("hipcc -c k.hip"), "", /*RocmFound=*/false,
                                         "/share/warplint/hip");
  EXPECT_TRUE(T.OwnHeader);
  EXPECT_EQ(join(T.Args), "clang++ -x hip -c k.hip --cuda-device-only --offload-arch=gfx906 "
                          "-nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 -nogpuinc -isystem "
                          "/share/warplint/hip -include hip/hip_runtime.h");
  // A command that names its ROCm, or brings its own headers, keeps them.
  EXPECT_FALSE(translateHipCommand(split("hipcc --rocm-path=/r -c k.hip"), "", false, "/o").OwnHeader);
  EXPECT_FALSE(translateHipCommand(split("hipcc -nogpuinc -c k.hip"), "", false, "/o").OwnHeader);
}

TEST(HipCommand, KeepsWhatTheCommandDefines) {
  HipTranslation T = translateHipCommand(
      split("clang++ -x hip -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 -c k.hip -- k.hip"), "gfx90a",
      true, "");
  EXPECT_EQ(join(T.Args), "clang++ -x hip -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 -c k.hip "
                          "--cuda-device-only --offload-arch=gfx90a -- k.hip");
}

} // namespace
