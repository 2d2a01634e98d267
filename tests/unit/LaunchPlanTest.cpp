//===- LaunchPlanTest.cpp - what `warplint launch` reads of a compile command --===//
#include "driver/run/LaunchPlan.h"

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

// CMake's Ninja rule for a CUDA object, as nvcc gets it.
const char *CMakeNvcc =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -I/p/include "
    "--generate-code=arch=compute_80,code=[compute_80,sm_80] -std=c++17 -MD -MT "
    "CMakeFiles/demo.dir/k.cu.o -MF CMakeFiles/demo.dir/k.cu.o.d -x cu -c /p/k.cu -o "
    "CMakeFiles/demo.dir/k.cu.o";

TEST(LaunchPlan, CMakeNvccCompile) {
  LaunchPlan P = planLaunch(split(CMakeNvcc));
  EXPECT_EQ(P.Compiler, LaunchCompiler::Nvcc);
  EXPECT_TRUE(P.Skip.empty()) << P.Skip;
  EXPECT_EQ(P.Sources, std::vector<std::string>{"/p/k.cu"});
  EXPECT_EQ(P.Output, "CMakeFiles/demo.dir/k.cu.o");
  EXPECT_TRUE(P.DeviceCode);
  EXPECT_EQ(P.Command, split(CMakeNvcc));
}

TEST(LaunchPlan, LaunchersBeforeTheCompilerAreLeftOut) {
  LaunchPlan P = planLaunch(split(std::string("/usr/bin/ccache ") + CMakeNvcc));
  EXPECT_EQ(P.Command, split(CMakeNvcc));
  EXPECT_EQ(P.Compiler, LaunchCompiler::Nvcc);
  P = planLaunch(split("sccache ccache clang++ -x cuda --cuda-gpu-arch=sm_80 -c k.cu -o k.o"));
  EXPECT_EQ(P.Command.front(), "clang++");
  EXPECT_EQ(P.Compiler, LaunchCompiler::Clang);
  EXPECT_EQ(P.Sources, std::vector<std::string>{"k.cu"});
}

TEST(LaunchPlan, NoDeviceCodeWithoutAnObjectCompile) {
  // Dependencies or preprocessing only, the host side only, PTX: registers from the cache.
  for (const char *Cmd : {"nvcc -M k.cu -o k.d", "nvcc -E k.cu -o k.i",
                          "clang++ -x cuda --cuda-host-only -c k.cu -o k.o",
                          "nvcc -ptx k.cu -o k.ptx", "nvcc -c k.cu -fsyntax-only -o k.o",
                          "nvcc -c k.cu"}) {
    LaunchPlan P = planLaunch(split(Cmd));
    EXPECT_TRUE(P.Skip.empty()) << Cmd;
    EXPECT_FALSE(P.DeviceCode) << Cmd;
  }
  // -MD writes dependencies beside a real compile; -cubin writes device code.
  EXPECT_TRUE(planLaunch(split("nvcc -MD -MF k.d -c k.cu -o k.o")).DeviceCode);
  EXPECT_TRUE(planLaunch(split("nvcc -cubin -arch=sm_80 k.cu -o k.cubin")).DeviceCode);
}

TEST(LaunchPlan, ValuesOfOptionsAreNotSources) {
  LaunchPlan P = planLaunch(split("nvcc -include pre.cu -MT dep.cu -c k.cu -o out.cu.o"));
  EXPECT_EQ(P.Sources, std::vector<std::string>{"k.cu"});
  EXPECT_EQ(P.Output, "out.cu.o");
  // clang's -oFILE, nvcc's -o=FILE and --output-file=FILE.
  EXPECT_EQ(planLaunch(split("clang++ -x cuda -c k.cu -ok.o")).Output, "k.o");
  EXPECT_EQ(planLaunch(split("nvcc -c k.cu -o=k.o")).Output, "k.o");
  EXPECT_EQ(planLaunch(split("nvcc -c k.cu --output-file=k.o")).Output, "k.o");
}

TEST(LaunchPlan, HostOnlyCompilesAreSkippedQuietly) {
  // A .cpp through CMAKE_CXX_COMPILER_LAUNCHER, nvcc on a host .cpp, a link, a query.
  for (const char *Cmd : {"/usr/bin/c++ -O2 -c main.cpp -o main.o", "nvcc -c host.cpp -o host.o",
                          "clang++ -c main.cpp -o main.o", "nvcc -o app a.o b.o",
                          "nvcc --version"}) {
    LaunchPlan P = planLaunch(split(Cmd));
    EXPECT_FALSE(P.Skip.empty()) << Cmd;
    EXPECT_TRUE(P.SkipQuietly) << Cmd;
    EXPECT_TRUE(P.Sources.empty()) << Cmd;
  }
  // The same .cpp as CUDA is analysed.
  EXPECT_EQ(planLaunch(split("nvcc -x cu -c k.cpp -o k.o")).Sources,
            std::vector<std::string>{"k.cpp"});
  EXPECT_EQ(planLaunch(split("clang++ -xcuda -c k.cpp -o k.o")).Sources,
            std::vector<std::string>{"k.cpp"});
}

TEST(LaunchPlan, HipCommands) {
  LaunchPlan P = planLaunch(split("/opt/rocm/bin/hipcc --offload-arch=gfx90a -c k.cpp -o k.o"));
  EXPECT_EQ(P.Compiler, LaunchCompiler::Hip);
  EXPECT_EQ(P.Sources, std::vector<std::string>{"k.cpp"});
  P = planLaunch(split("/usr/bin/clang++ -x hip --offload-arch=gfx1100 -c k.hip -o k.o"));
  EXPECT_EQ(P.Compiler, LaunchCompiler::Hip);
  EXPECT_TRUE(P.DeviceCode);
}

TEST(LaunchPlan, UnknownCompilerOfACudaFileIsSaid) {
  LaunchPlan P = planLaunch(split("my-cuda-wrapper -c k.cu -o k.o"));
  EXPECT_FALSE(P.Skip.empty());
  EXPECT_FALSE(P.SkipQuietly);
  EXPECT_NE(P.Skip.find("my-cuda-wrapper"), std::string::npos) << P.Skip;
  EXPECT_TRUE(P.Sources.empty());
  P = planLaunch(split("ccache"));
  EXPECT_FALSE(P.Skip.empty());
  EXPECT_FALSE(P.SkipQuietly);
}

} // namespace
