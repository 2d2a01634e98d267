//===- NvccTranslateTest.cpp - nvcc command lines as clang CUDA commands --===//
#include "driver/compdb/NvccTranslate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <algorithm>
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

/// What every translation adds for nvcc's view of the code (the toolkit at
/// /usr/local/cuda, or 13.0.0 where there is none), then a space.
NvccModes modes(bool Rdc, bool ExtendedLambda, bool RelaxedConstexpr) {
  NvccModes M;
  M.Rdc = Rdc;
  M.ExtendedLambda = ExtendedLambda;
  M.RelaxedConstexpr = RelaxedConstexpr;
  return M;
}

std::string nvcc(NvccModes M = {}) {
  return join(nvccCompatArgs(nvccVersionOf("/usr/local/cuda"), M)) + " ";
}

TEST(NvccTranslate, RecognisesNvcc) {
  EXPECT_TRUE(isNvccCommand(split("/usr/local/cuda/bin/nvcc -c a.cu")));
  EXPECT_TRUE(isNvccCommand(split("nvcc -c a.cu")));
  EXPECT_TRUE(isNvccCommand(split("/usr/bin/ccache /usr/local/cuda/bin/nvcc -c a.cu")));
  EXPECT_FALSE(isNvccCommand(split("clang++ -x cuda -c a.cu")));
  EXPECT_FALSE(isNvccCommand(split("/usr/bin/ccache g++ -c a.cpp")));
  EXPECT_FALSE(isNvccCommand({}));
}

// The command CMake 3.25 writes for a CUDA target with two architectures, separable
// compilation and the usual options.
TEST(NvccTranslate, CMakeCommand) {
  NvccTranslation T = translateNvccCommand(split(
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
      "--generate-code=arch=compute_80,code=[compute_80,sm_80] "
      "--generate-code=arch=compute_86,code=[compute_86,sm_86] --expt-relaxed-constexpr "
      "-lineinfo --use_fast_math -Xcompiler=-fPIC,-Wall,-DHOST_ONLY=1 -std=c++17 -x cu "
      "-rdc=true -c /src/k.cu -o k.cu.o"));
  EXPECT_EQ(join(T.Args),
            "clang++ -DHOST_ONLY=1 -std=c++17 -x cuda -c /src/k.cu -o k.cu.o " +
                nvcc(modes(true, false, true)) +
                "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
            "--cuda-device-only --cuda-gpu-arch=sm_80 -fgpu-rdc");
  EXPECT_EQ(T.GpuArchs, (std::vector<std::string>{"sm_80", "sm_86"}));
  EXPECT_EQ(join(T.Dropped), "-forward-unknown-to-host-compiler --expt-relaxed-constexpr "
                             "-lineinfo --use_fast_math -Xcompiler -fPIC -Xcompiler -Wall");
}

// A command clang's tooling inferred for a file the database does not list ends in
// "-- FILE": the options warplint adds go before the "--", not after it as input files.
TEST(NvccTranslate, InputsAfterDashDashStayLast) {
  NvccTranslation T = translateNvccCommand(
      split("/usr/local/cuda/bin/nvcc -arch=sm_86 -I../src -c -o host.o -- /src/kernel.cu"));
  EXPECT_EQ(join(T.Args), "clang++ -I../src -c -o host.o " + nvcc() +
                              "--cuda-path=/usr/local/cuda "
                          "-isystem /usr/local/cuda/include/cccl --cuda-device-only "
                          "--cuda-gpu-arch=sm_86 -- /src/kernel.cu");
}

// CMake writes a SYSTEM include directory for nvcc as "-isystem=DIR" (ggml and
// cuda-samples get "-isystem=/usr/local/cuda/include"); clang would take "=DIR" as a
// sysroot-relative path and, with no sysroot, drop it as nonexistent.
TEST(NvccTranslate, SystemIncludeWithEquals) {
  NvccTranslation T = translateNvccCommand(
      split("/usr/local/cuda/bin/nvcc -I/src/include -isystem=/opt/dep/include "
            "-isystem /opt/other/include --system-include=/opt/third -x cu -c /src/k.cu"));
  EXPECT_EQ(join(T.Args), "clang++ -I/src/include -isystem /opt/dep/include -isystem "
                          "/opt/other/include -isystem /opt/third -x cuda -c /src/k.cu " +
                              nvcc() + "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
                          "--cuda-device-only --cuda-gpu-arch=sm_75");
}

// GCC's own header directory among CMake's implicit system includes (instant-ngp's
// commands) is left out: clang reads its own intrinsics, not GCC's mmintrin.h. The C++
// library's directories stay.
TEST(NvccTranslate, GccBuiltinHeadersLeftOut) {
  NvccTranslation T = translateNvccCommand(
      split("/usr/local/cuda/bin/nvcc -isystem=/usr/include/c++/12 "
            "-isystem=/usr/lib/gcc/x86_64-linux-gnu/12/include "
            "-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include-fixed/ -x cu -c /src/k.cu"));
  EXPECT_EQ(join(T.Args), "clang++ -isystem /usr/include/c++/12 -x cuda -c /src/k.cu " +
                              nvcc() + "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
                          "--cuda-device-only --cuda-gpu-arch=sm_75");
  EXPECT_NE(std::find(T.Dropped.begin(), T.Dropped.end(),
                      "-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include"),
            T.Dropped.end());
}

// A Makefile's `-Xcompiler "$(flags)"` is one argument holding every host flag; nvcc
// pastes it into the host compiler's command unquoted, where blanks split it
// (Lidar_AI_Solution's libraries). Each flag is judged on its own, not the whole string as
// one -std value.
TEST(NvccTranslate, XcompilerValueSplitAtBlanks) {
  std::vector<std::string> Cmd = {"/usr/local/cuda/bin/nvcc", "-c", "src/v.cu", "-o", "v.o",
                                  "-Xcompiler",
                                  "-std=c++17  -g -O3 -fPIC -Isrc -Ilib/include,-DX=1"};
  NvccTranslation T = translateNvccCommand(Cmd);
  EXPECT_EQ(join(T.Args), "clang++ -c src/v.cu -o v.o -std=c++17 -Isrc -Ilib/include -DX=1 " +
                              nvcc() + "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
                          "--cuda-device-only --cuda-gpu-arch=sm_75");
  EXPECT_EQ(join(T.Dropped), "-Xcompiler -g -Xcompiler -O3 -Xcompiler -fPIC");
}

// Every option TOOLCHAIN.md lists as rejected or misread by clang, in its spellings.
TEST(NvccTranslate, OptionsClangRejectsOrMisreads) {
  NvccTranslation T = translateNvccCommand(split(
      "nvcc -arch=sm_90 --gpu-architecture sm_80 -gencode arch=compute_75,code=sm_75 "
      "-ccbin /usr/bin/g++-12 -maxrregcount 64 --maxrregcount=32 --diag-suppress 177 "
      "-diag-suppress=20012 --default-stream per-thread -Xptxas -v -Xptxas=-O3 "
      "--ptxas-options=-v -Werror all-warnings -Werror=cross-execution-space-call "
      "-G --extended-lambda --expt-extended-lambda -Xcompiler -fopenmp "
      "--std=c++20 --threads 4 -t 2 -t0 -Xcudafe --diag_suppress=esa_on_defaulted_function_ignored "
      "-rdc=false -I inc -Iinc2 -isystem sys -DA=1 -O3 -g -c a.cu"));
  EXPECT_EQ(join(T.Args), "clang++ -std=c++20 -I inc -Iinc2 -isystem sys -DA=1 -O3 -g -c a.cu " +
                              nvcc(modes(false, true, false)) + "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
                          "--cuda-device-only --cuda-gpu-arch=sm_90");
  EXPECT_EQ(T.GpuArchs, (std::vector<std::string>{"sm_90", "sm_80", "sm_75"}));
  // Nothing of the dropped options (or their values) reaches clang.
  for (const char *Gone : {"all-warnings", "per-thread", "177", "64", "g++-12", "-v",
                           "-fopenmp", "4", "2", "-t0", "esa_on_defaulted_function_ignored"})
    EXPECT_EQ(std::count(T.Args.begin(), T.Args.end(), Gone), 0) << Gone;
}

TEST(NvccTranslate, CompressionAndOptimisationOptionsWithValues) {
  // ggml's CMake adds -compress-mode=size; the spaced spelling takes the next argument.
  NvccTranslation T = translateNvccCommand(
      split("nvcc -compress-mode=size --compress-mode balance -ewp --jobserver "
            "--allow-expensive-optimizations true -arch=sm_86 -c a.cu"));
  EXPECT_EQ(join(T.Args), "clang++ -c a.cu " + nvcc() + "--cuda-path=/usr/local/cuda -isystem "
                          "/usr/local/cuda/include/cccl --cuda-device-only --cuda-gpu-arch=sm_86");
}

TEST(NvccTranslate, WrapperOrSymlinkOutsideTheToolkit) {
  // A temporary "toolkit" and, elsewhere, a bin/nvcc symlink to it and a bin/nvcc wrapper
  // script: the headers come from the toolkit, never from the wrapper's directory.
  namespace fs = std::filesystem;
  fs::path Root = fs::temp_directory_path() / ("warplint-nvcc-" + std::to_string(::getpid()));
  fs::remove_all(Root);
  fs::create_directories(Root / "cuda-13.9" / "bin");
  fs::create_directories(Root / "cuda-13.9" / "include");
  std::ofstream(Root / "cuda-13.9" / "include" / "cuda_runtime.h") << "\n";
  std::ofstream(Root / "cuda-13.9" / "bin" / "nvcc") << "\n";
  fs::create_directories(Root / "links" / "bin");
  fs::create_symlink(Root / "cuda-13.9" / "bin" / "nvcc", Root / "links" / "bin" / "nvcc");
  std::string Toolkit = (Root / "cuda-13.9").string();
  auto cudaPath = [](const NvccTranslation &T) {
    for (const std::string &A : T.Args)
      if (A.rfind("--cuda-path=", 0) == 0)
        return A.substr(12);
    return std::string();
  };
  EXPECT_EQ(cudaPath(translateNvccCommand(
                {(Root / "cuda-13.9" / "bin" / "nvcc").string(), "-c", "a.cu"})),
            Toolkit);
  EXPECT_EQ(cudaPath(translateNvccCommand(
                {(Root / "links" / "bin" / "nvcc").string(), "-c", "a.cu"})),
            Toolkit);
  // A wrapper script resolves to nothing: $CUDA_PATH names the toolkit.
  fs::create_directories(Root / "wrap" / "bin");
  std::ofstream(Root / "wrap" / "bin" / "nvcc") << "#!/bin/sh\n";
  ::setenv("CUDA_PATH", Toolkit.c_str(), 1);
  EXPECT_EQ(cudaPath(translateNvccCommand({(Root / "wrap" / "bin" / "nvcc").string(), "-c",
                                           "a.cu"})),
            Toolkit);
  ::unsetenv("CUDA_PATH");
  fs::remove_all(Root);
}

TEST(NvccTranslate, MpiWrapperAsHostCompiler) {
  // `-ccbin mpicxx`: the wrapper adds MPI's headers to nvcc's compiles (TeaLeaf_CUDA).
  // Two stand-in wrappers: one answers Open MPI's --showme:incdirs, the other only
  // MPICH's -show; a host compiler of another name is not run.
  namespace fs = std::filesystem;
  fs::path Root = fs::temp_directory_path() / ("warplint-mpi-" + std::to_string(::getpid()));
  fs::remove_all(Root);
  fs::create_directories(Root / "ompi");
  fs::create_directories(Root / "mpich");
  auto script = [](const fs::path &P, const std::string &Body) {
    std::ofstream(P) << "#!/bin/sh\n" << Body;
    fs::permissions(P, fs::perms::owner_all);
  };
  script(Root / "ompi" / "mpicxx",
         "[ \"$1\" = --showme:incdirs ] && echo /opt/ompi/include /opt/ompi/include/openmpi "
         "&& exit 0\nexit 1\n");
  script(Root / "mpich" / "mpicxx",
         "[ \"$1\" = -show ] && echo g++ -I/opt/mpich/include -I /opt/mpich/extra -L/opt/mpich/lib "
         "-lmpi && exit 0\nexit 1\n");
  auto isystems = [](const NvccTranslation &T) {
    std::vector<std::string> Out;
    for (size_t I = 0; I + 1 < T.Args.size(); ++I)
      if (T.Args[I] == "-isystem" && T.Args[I + 1].rfind("/opt/", 0) == 0)
        Out.push_back(T.Args[I + 1]);
    return Out;
  };
  EXPECT_EQ(join(isystems(translateNvccCommand(
                {"nvcc", "-ccbin", (Root / "ompi" / "mpicxx").string(), "-c", "a.cu"}))),
            "/opt/ompi/include /opt/ompi/include/openmpi");
  EXPECT_EQ(join(isystems(translateNvccCommand(
                {"nvcc", "--compiler-bindir=" + (Root / "mpich" / "mpicxx").string(), "-c",
                 "a.cu"}))),
            "/opt/mpich/include /opt/mpich/extra");
  // Not a wrapper's name: nothing is run, nothing added.
  fs::copy_file(Root / "ompi" / "mpicxx", Root / "ompi" / "g++");
  EXPECT_TRUE(isystems(translateNvccCommand(
                           {"nvcc", "-ccbin", (Root / "ompi" / "g++").string(), "-c", "a.cu"}))
                  .empty());
  // A wrapper that cannot run: none.
  EXPECT_TRUE(mpiIncludeDirs((Root / "absent" / "mpicxx").string()).empty());
  fs::remove_all(Root);
}

TEST(NvccTranslate, ArchitecturesAndDefaults) {
  // No architecture: nvcc 13's default, sm_75. compute_XX alone: that number.
  EXPECT_EQ(translateNvccCommand(split("nvcc -c a.cu")).GpuArchs.front(), "sm_75");
  EXPECT_EQ(translateNvccCommand(split("nvcc -arch=compute_89 -c a.cu")).GpuArchs.front(),
            "sm_89");
  EXPECT_EQ(translateNvccCommand(split("nvcc -arch=native -c a.cu")).GpuArchs.front(),
            "sm_75");
  EXPECT_EQ(translateNvccCommand(split("nvcc -arch=compute_80 -code=sm_86,compute_80 a.cu"))
                .GpuArchs,
            (std::vector<std::string>{"sm_80", "sm_86"}));
  EXPECT_EQ(
      translateNvccCommand(split("nvcc -gencode=arch=compute_90a,code=sm_90a a.cu")).GpuArchs,
      (std::vector<std::string>{"sm_90a"}));
  // -dc is separable compilation plus -c.
  EXPECT_EQ(join(translateNvccCommand(split("nvcc -dc a.cu")).Args),
            "clang++ -c a.cu " + nvcc(modes(true, false, false)) +
                "--cuda-path=/usr/local/cuda -isystem /usr/local/cuda/include/cccl "
            "--cuda-device-only --cuda-gpu-arch=sm_75 -fgpu-rdc");
  // The toolkit comes from nvcc's own location; ccache in front is skipped.
  NvccTranslation C = translateNvccCommand(split("ccache /opt/cuda-12.4/bin/nvcc -c a.cu"));
  EXPECT_EQ(C.Args[0], "clang++");
  EXPECT_NE(std::find(C.Args.begin(), C.Args.end(), "--cuda-path=/opt/cuda-12.4"), C.Args.end());
}

// nvcc's predefined version: version.json's cuda_nvcc, a wheel's dist-info, cuda.h's
// CUDA_VERSION (no build number), or 13.0.0 assumed without a toolkit.
TEST(NvccTranslate, NvccVersionOfTheToolkit) {
  namespace fs = std::filesystem;
  fs::path Root = fs::temp_directory_path() / ("warplint-nvccver-" + std::to_string(::getpid()));
  fs::remove_all(Root);
  fs::create_directories(Root / "json" / "include");
  fs::create_directories(Root / "wheel" / "dist-info" / "nvidia_cuda_nvcc-12.8.93.dist-info");
  fs::create_directories(Root / "h" / "include");
  std::ofstream(Root / "json" / "version.json")
      << "{\n \"cuda\" : {\"version\" : \"12.4.1\"},\n \"cuda_nvcc\" : {\n  \"name\" : "
         "\"CUDA NVCC\",\n  \"version\" : \"12.4.131\"\n }\n}\n";
  std::ofstream(Root / "json" / "include" / "cuda.h") << "#define CUDA_VERSION 12040\n";
  std::ofstream(Root / "h" / "include" / "cuda.h") << "#pragma once\n#define CUDA_VERSION   11080\n";
  auto Text = [](const NvccVersion &V) {
    return std::to_string(V.Major) + "." + std::to_string(V.Minor) + "." +
           std::to_string(V.Build) + " " + V.From;
  };
  EXPECT_EQ(Text(nvccVersionOf((Root / "json").string())), "12.4.131 version.json");
  EXPECT_EQ(Text(nvccVersionOf((Root / "wheel").string())), "12.8.93 dist-info");
  EXPECT_EQ(Text(nvccVersionOf((Root / "h").string())), "11.8.0 cuda.h");
  EXPECT_EQ(Text(nvccVersionOf((Root / "none").string())), "13.0.0 assumed");
  EXPECT_EQ(Text(nvccVersionOf("")), "13.0.0 assumed");
  EXPECT_EQ(join(nvccCompatArgs(nvccVersionOf((Root / "json").string()),
                                modes(true, true, true))),
            "-D__NVCC__=1 -D__CUDACC_VER_MAJOR__=12 -D__CUDACC_VER_MINOR__=4 "
            "-D__CUDACC_VER_BUILD__=131 -D__CUDACC_RDC__=1 -D__WARPLINT_CUDACC_EXTENDED_LAMBDA__=1 "
            "-D__CUDACC_RELAXED_CONSTEXPR__=1 -Wno-register -Wno-c++11-narrowing "
            "-Wno-reserved-user-defined-literal -Wno-missing-template-arg-list-after-template-kw");
  fs::remove_all(Root);
}

} // namespace
