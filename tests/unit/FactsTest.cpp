//===- FactsTest.cpp - launch shapes and kernel facts from CUDA source ---===//
#include "model/Facts.h"
#include "model/TuModel.h"

#include "model/Branches.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace clang;
using namespace ::warplint;

namespace {

using Dims = std::array<uint64_t, 3>;

std::vector<std::string> cudaArgs(const char *Side = "--cuda-device-only",
                                  const char *Arch = "--cuda-gpu-arch=sm_86") {
  return {"-x",
          "cuda",
          "-nocudainc",
          "-nocudalib",
          "-Wno-unknown-cuda-version",
          "-isystem",
          WARPLINT_MOCK_CUDA_DIR,
          "-include",
          "cuda_runtime.h",
          "-resource-dir=" WARPLINT_CLANG_RESOURCE_DIR,
          Side,
          Arch,
          "-std=c++17"};
}

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  TUFacts Facts;
};

Parsed parse(const std::string &Code, std::vector<std::string> Args = cudaArgs()) {
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
  EXPECT_TRUE(P.AST);
  if (!P.AST)
    return P;
  EXPECT_FALSE(P.AST->getDiagnostics().hasErrorOccurred()) << Code;
  P.Facts = collectFacts(P.AST->getASTContext());
  return P;
}

/// The TU's model as plain records (no register source: registers not counted).
::warplint::ModelRecords records(Parsed &P) {
  ModelOptions None;
  None.Registers.Source = RegisterSourceChoice::None;
  return TuModel::of(P.AST->getASTContext(), nullptr, None).records();
}

/// The block shape of the only launch of the code.
std::optional<Dims> blockOf(const std::string &Body, const std::string &Prelude = "") {
  std::string Code = "__global__ void k(int *p) {}\n" + Prelude + "\nvoid host(int n, int *p) {\n" +
                     Body + "\n}\n";
  Parsed P = parse(Code);
  EXPECT_EQ(P.Facts.Launches.size(), 1u) << Code;
  if (P.Facts.Launches.size() != 1)
    return std::nullopt;
  return P.Facts.Launches[0].Block.Dims;
}

// --- The shape evaluator: what is a compile-time fact -------------------------------

TEST(ShapeEvaluator, LiteralsAndDim3Constructors) {
  EXPECT_EQ(blockOf("k<<<1, 256>>>(p);"), (Dims{256, 1, 1}));
  EXPECT_EQ(blockOf("k<<<1, dim3(40, 2)>>>(p);"), (Dims{40, 2, 1}));
  EXPECT_EQ(blockOf("k<<<1, dim3(8, 8, 4)>>>(p);"), (Dims{8, 8, 4}));
  EXPECT_EQ(blockOf("k<<<1, dim3{16, 16}>>>(p);"), (Dims{16, 16, 1}));
  EXPECT_EQ(blockOf("k<<<1, 64 * 3 + 1>>>(p);"), (Dims{193, 1, 1}));
}

TEST(ShapeEvaluator, MacrosConstexprAndConstLocals) {
  EXPECT_EQ(blockOf("k<<<1, BLOCK>>>(p);", "#define BLOCK 96"), (Dims{96, 1, 1}));
  EXPECT_EQ(blockOf("k<<<1, kBlock>>>(p);", "constexpr int kBlock = 128;"), (Dims{128, 1, 1}));
  EXPECT_EQ(blockOf("const int t = 48; k<<<1, t>>>(p);"), (Dims{48, 1, 1}));
  EXPECT_EQ(blockOf("const dim3 b(32, 4); k<<<1, b>>>(p);"), (Dims{32, 4, 1}));
  EXPECT_EQ(
      blockOf("k<<<1, pick(3)>>>(p);", "constexpr unsigned pick(int w) { return w * 32 + 16; }"),
      (Dims{112, 1, 1}));
  EXPECT_EQ(blockOf("k<<<1, shape()>>>(p);", "constexpr dim3 shape() { return dim3(24, 3); }"),
            (Dims{24, 3, 1}));
}

TEST(ShapeEvaluator, LocalsNeverReassigned) {
  EXPECT_EQ(blockOf("int t = 200; k<<<1, t>>>(p);"), (Dims{200, 1, 1}));
  EXPECT_EQ(blockOf("dim3 b(40, 2); k<<<1, b>>>(p);"), (Dims{40, 2, 1}));
  EXPECT_EQ(blockOf("int w = 4; int t = w * 32; dim3 b(t); k<<<1, b>>>(p);"), (Dims{128, 1, 1}));
  // Read-only uses (copies, const references) do not spoil the value.
  EXPECT_EQ(blockOf("int t = 64; int u = t; k<<<1, t>>>(p);"), (Dims{64, 1, 1}));
}

TEST(ShapeEvaluator, FieldsSetOneByOne) {
  EXPECT_EQ(blockOf("dim3 threads; threads.x = 16; threads.y = 16; k<<<1, threads>>>(p);"),
            (Dims{16, 16, 1}));
  EXPECT_EQ(blockOf("dim3 threads(8); threads.x = 128; k<<<1, threads>>>(p);"), (Dims{128, 1, 1}));
  EXPECT_EQ(blockOf("dim3 threads; threads = dim3(64, 2); k<<<1, threads>>>(p);"),
            (Dims{64, 2, 1}));
  // A later assignment outside any loop does not change this launch.
  EXPECT_EQ(blockOf("int t = 96; k<<<1, t>>>(p); t = 1024;"), (Dims{96, 1, 1}));
  // A write may read the variable's earlier value.
  EXPECT_EQ(blockOf("int t = 32; t = t * 2; t = t + 32; k<<<1, t>>>(p);"), (Dims{96, 1, 1}));
  // Set in an enclosing block before the launch.
  EXPECT_EQ(blockOf("dim3 b; b.x = 32; if (n) { b.y = 2; k<<<1, b>>>(p); }"), (Dims{32, 2, 1}));
}

TEST(ShapeEvaluator, UnknownWhenNotAFact) {
  // Parameters and runtime values.
  EXPECT_EQ(blockOf("k<<<1, n>>>(p);"), std::nullopt);
  EXPECT_EQ(blockOf("int t = n * 32; k<<<1, t>>>(p);"), std::nullopt);
  // Assigned on one path only.
  EXPECT_EQ(blockOf("int t = 64; if (n) t = 100; k<<<1, t>>>(p);"), std::nullopt);
  EXPECT_EQ(blockOf("dim3 b(32); if (n) b.x = 40; k<<<1, b>>>(p);"), std::nullopt);
  // Incremented, compound-assigned, address taken, bound to a non-const reference.
  EXPECT_EQ(blockOf("int t = 64; ++t; k<<<1, t>>>(p);"), std::nullopt);
  EXPECT_EQ(blockOf("int t = 64; t *= 2; k<<<1, t>>>(p);"), std::nullopt);
  EXPECT_EQ(blockOf("int t = 64; int *q = &t; *q = 3; k<<<1, t>>>(p);"), std::nullopt);
  EXPECT_EQ(blockOf("dim3 b(64); set(b); k<<<1, b>>>(p);", "void set(dim3 &);"), std::nullopt);
  // Written after the launch inside the same loop: the next iteration sees it.
  EXPECT_EQ(blockOf("int t = 64; for (int i = 0; i < n; ++i) { k<<<1, t>>>(p); t = 32; }"),
            std::nullopt);
  // A goto may run a later write before the launch.
  EXPECT_EQ(blockOf("int t = 64; again: k<<<1, t>>>(p); t = 32; if (n--) goto again;"),
            std::nullopt);
  EXPECT_EQ(blockOf("int t = 64; if (n) goto launch; t = 32; launch: k<<<1, t>>>(p);"),
            std::nullopt);
  // Captured by reference in a lambda.
  EXPECT_EQ(blockOf("int t = 64; auto f = [&] { t = 1; }; f(); k<<<1, t>>>(p);"), std::nullopt);
  // Non-const globals can change anywhere.
  EXPECT_EQ(blockOf("k<<<1, gBlock>>>(p);", "int gBlock = 128;"), std::nullopt);
}

TEST(ShapeEvaluator, LongSelfReadingChainsEndUnknownQuickly) {
  // Each write reads the variable twice: 2^40 paths without the depth and step limits.
  std::string Body = "unsigned long t = 1;";
  for (int I = 0; I < 40; ++I)
    Body += " t = t + t - t;";
  Body += " k<<<1, t>>>(p);";
  EXPECT_EQ(blockOf(Body), std::nullopt);
}

TEST(ShapeEvaluator, UnknownKeepsTheText) {
  Parsed P = parse("__global__ void k() {}\nvoid h(int n) { k<<<(n + 255) / 256, n>>>(); }");
  ASSERT_EQ(P.Facts.Launches.size(), 1u);
  const LaunchSite &L = P.Facts.Launches[0];
  EXPECT_FALSE(L.Block.known());
  EXPECT_EQ(L.Block.Text, "n");
  EXPECT_FALSE(L.Grid.known());
  EXPECT_EQ(L.Grid.Text, "(n + 255) / 256");
}

TEST(ShapeEvaluator, GridFromKnownLocals) {
  Parsed P = parse("__global__ void k() {}\nvoid h() { int n = 1000; int b = 256;\n"
                   "k<<<(n + b - 1) / b, b>>>(); }");
  ASSERT_EQ(P.Facts.Launches.size(), 1u);
  EXPECT_EQ(P.Facts.Launches[0].Grid.Dims, (Dims{4, 1, 1}));
  EXPECT_EQ(P.Facts.Launches[0].Block.Dims, (Dims{256, 1, 1}));
}

// --- Launch APIs ---------------------------------------------------------------------

TEST(Launches, AllApisAndDynamicSharedMemory) {
  Parsed P = parse(R"(
__global__ void k(float *p) {}
void h(float *p, size_t bytes) {
  k<<<2, 64, 1024>>>(p);
  void *args[] = {&p};
  cudaLaunchKernel(k, dim3(8), dim3(128), args, 2048, 0);
  cudaLaunchKernel((const void *)k, dim3(8), dim3(96), args, bytes, 0);
  cudaLaunchCooperativeKernel(k, 4, 256, args);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(16);
  cfg.blockDim = dim3(32, 4);
  cfg.dynamicSmemBytes = 4096;
  cudaLaunchKernelEx(&cfg, k, p);
  cudaLaunchConfig_t cfg2 = {.gridDim = dim3(3), .blockDim = dim3(72), .dynamicSmemBytes = 0};
  cudaLaunchKernelEx(&cfg2, k, p);
}
)");
  const auto &L = P.Facts.Launches;
  ASSERT_EQ(L.size(), 6u);
  EXPECT_EQ(L[0].Api, LaunchApi::TripleChevron);
  EXPECT_EQ(L[0].Grid.Dims, (Dims{2, 1, 1}));
  EXPECT_EQ(L[0].DynamicSmem.Bytes, 1024u);
  EXPECT_EQ(L[1].Api, LaunchApi::LaunchKernel);
  EXPECT_EQ(L[1].Block.Dims, (Dims{128, 1, 1}));
  EXPECT_EQ(L[1].DynamicSmem.Bytes, 2048u);
  EXPECT_EQ(L[2].KernelName, "k");
  EXPECT_EQ(L[2].Block.Dims, (Dims{96, 1, 1}));
  EXPECT_FALSE(L[2].DynamicSmem.Bytes);
  EXPECT_EQ(L[2].DynamicSmem.Text, "bytes");
  EXPECT_EQ(L[3].Api, LaunchApi::LaunchCooperativeKernel);
  EXPECT_EQ(L[3].Block.Dims, (Dims{256, 1, 1}));
  EXPECT_EQ(L[3].DynamicSmem.Bytes, 0u);
  EXPECT_EQ(L[4].Api, LaunchApi::LaunchKernelEx);
  EXPECT_EQ(L[4].Grid.Dims, (Dims{16, 1, 1}));
  EXPECT_EQ(L[4].Block.Dims, (Dims{32, 4, 1}));
  EXPECT_EQ(L[4].DynamicSmem.Bytes, 4096u);
  EXPECT_EQ(L[5].Block.Dims, (Dims{72, 1, 1}));
  EXPECT_EQ(L[5].Grid.Dims, (Dims{3, 1, 1}));
  for (const LaunchSite &S : L) {
    ASSERT_TRUE(S.Kernel);
    EXPECT_EQ(S.MangledName, "_Z1kPf");
  }
}

TEST(Launches, TemplatesPerInstantiation) {
  Parsed P = parse(R"(
template <int N> __global__ void tk(float *p) { __shared__ float s[N]; p[0] = s[0]; }
template <int B> void launch(float *p) { tk<B><<<1, B>>>(p); }
void h(float *p) { launch<40>(p); launch<128>(p); }
)");
  const auto &L = P.Facts.Launches;
  ASSERT_EQ(L.size(), 2u);
  std::set<uint64_t> Blocks;
  for (const LaunchSite &S : L) {
    ASSERT_TRUE(S.Block.known());
    Blocks.insert((*S.Block.Dims)[0]);
    const KernelInfo *K = P.Facts.kernel(S.Kernel);
    ASSERT_TRUE(K);
    EXPECT_EQ(K->StaticSmemBytes, (*S.Block.Dims)[0] * 4);
    EXPECT_EQ(S.Instantiation, "launch<" + std::to_string((*S.Block.Dims)[0]) + ">");
  }
  EXPECT_EQ(Blocks, (std::set<uint64_t>{40, 128}));
  EXPECT_EQ(P.Facts.kernel(L[0].Kernel)->MangledName.substr(0, 6), "_Z2tkI");
}

TEST(Launches, MacrosReportTheExpansionSite) {
  Parsed P = parse("__global__ void k() {}\n#define LAUNCH(n) k<<<1, n>>>()\n"
                   "void h() {\n  LAUNCH(40);\n}\n");
  ASSERT_EQ(P.Facts.Launches.size(), 1u);
  ::warplint::ModelRecords F = records(P);
  ASSERT_EQ(F.Launches.size(), 1u);
  EXPECT_EQ(F.Launches[0].Pos.Line, 4u);
  EXPECT_EQ(F.Launches[0].Pos.Column, 3u);
  EXPECT_EQ(F.Launches[0].Block, (Dims{40, 1, 1}));
}

TEST(Launches, FunctionPointersAreUnresolved) {
  Parsed P = parse("__global__ void k() {}\nvoid h(void (*fp)()) {\n"
                   "  void *a[1];\n  cudaLaunchKernel((const void *)fp, 1, 32, a, 0, 0);\n}\n");
  ASSERT_EQ(P.Facts.Launches.size(), 1u);
  EXPECT_EQ(P.Facts.Launches[0].Kernel, nullptr);
  EXPECT_EQ(P.Facts.Launches[0].KernelName, "(const void *)fp");
  ::warplint::ModelRecords F = records(P);
  EXPECT_FALSE(F.Launches[0].MangledKernel);
  EXPECT_EQ(F.Launches[0].Kernel, std::optional<std::string>("(const void *)fp"));
}

TEST(Launches, LocalPointerToSeveralKernelsIsOneLaunchPerKernel) {
  // transpose's loop: `kernel = &copy;` ... in a switch, then `kernel<<<grid, threads>>>`.
  Parsed P = parse("__global__ void a(float *p) { __shared__ float t[64]; t[0] = p[0]; }\n"
                   "__global__ void b(float *p) { __shared__ float t[4096]; t[0] = p[0]; }\n"
                   "void host(float *p) {}\n"
                   "void h(float *p, int c, int n) {\n"
                   "  void (*kernel)(float *);\n"
                   "  for (int k = 0; k < 2; ++k) {\n"
                   "    switch (k) { case 0: kernel = &a; break; default: kernel = &b; }\n"
                   "    if (kernel == &a) {}\n"
                   "    kernel<<<16, n>>>(p);\n"
                   "    cudaLaunchKernel((const void *)kernel, 8, 128, (void **)0, 0, 0);\n"
                   "  }\n"
                   "  void (*one)(float *) = &b;\n"
                   "  one<<<4, 32>>>(p);\n"
                   "  void (*mixed)(float *) = &a;\n"
                   "  if (c) mixed = host;\n"
                   "  mixed<<<2, 32>>>(p);\n"
                   "}\n");
  const auto &L = P.Facts.Launches;
  ASSERT_EQ(L.size(), 6u);
  // The triple-chevron launch: a, then b, with the launch's shape and argument.
  for (unsigned I : {0u, 1u}) {
    EXPECT_EQ(L[I].Loc, L[0].Loc);
    EXPECT_EQ(L[I].Via, "kernel");
    EXPECT_EQ(L[I].Candidates, 2u);
    EXPECT_EQ(L[I].Grid.Dims, (Dims{16, 1, 1}));
    EXPECT_EQ(L[I].BlockParams, (std::array<int, 3>{-1, -1, -1}));
    ASSERT_NE(L[I].Kernel, nullptr);
  }
  EXPECT_EQ(L[0].KernelName, "a");
  EXPECT_EQ(L[1].KernelName, "b");
  EXPECT_EQ(P.Facts.kernel(L[0].Kernel)->StaticSmemBytes, 256u);
  EXPECT_EQ(P.Facts.kernel(L[1].Kernel)->StaticSmemBytes, 16384u);
  // cudaLaunchKernel through the same pointer: two launches too.
  EXPECT_EQ(L[2].KernelName, "a");
  EXPECT_EQ(L[3].KernelName, "b");
  EXPECT_EQ(L[3].Block.Dims, (Dims{128, 1, 1}));
  EXPECT_EQ(L[3].Candidates, 2u);
  // One kernel: that kernel's launch, not marked.
  EXPECT_EQ(L[4].KernelName, "b");
  EXPECT_EQ(L[4].Candidates, 0u);
  EXPECT_TRUE(L[4].Via.empty());
  // Given a host function once: unresolved.
  EXPECT_EQ(L[5].Kernel, nullptr);
  EXPECT_EQ(L[5].KernelName, "mixed");
  EXPECT_EQ(L[5].Candidates, 0u);
  // Each kernel lists its launches; the records carry the pointer and the kernel's facts.
  EXPECT_EQ(P.Facts.kernel(L[0].Kernel)->Launches, (std::vector<unsigned>{0, 2}));
  ::warplint::ModelRecords F = records(P);
  ASSERT_EQ(F.Launches.size(), 6u);
  EXPECT_EQ(F.Launches[0].Via, "kernel");
  EXPECT_EQ(F.Launches[0].Candidates, 2u);
  EXPECT_EQ(F.Launches[0].StaticSmemBytes, std::optional<uint64_t>(256));
  EXPECT_EQ(F.Launches[1].StaticSmemBytes, std::optional<uint64_t>(16384));
  EXPECT_EQ(F.Launches[1].Kernel, std::optional<std::string>("b"));
  EXPECT_EQ(F.Launches[4].Candidates, 0u);
}

TEST(Launches, BlockSizePassedAsAnArgument) {
  Parsed P = parse("__global__ void k(int a, int n, int m) {}\n"
                   "int pad(int);\n"
                   "void h(int c, int r) {\n"
                   "  const int n = pad(c);\n"
                   "  const dim3 b(n, r, 1);\n"
                   "  k<<<1, b>>>(0, n, r);\n"      // x is n, y is r
                   "  k<<<1, c>>>(c + 1, 0, c);\n"  // x is the third argument only
                   "  int w = c;\n"
                   "  dim3 d(w);\n"
                   "  w = 2;\n"
                   "  k<<<1, d>>>(0, w, 0);\n"      // w changed after d was built: none
                   "  k<<<1, c>>>(0, (char)c, 0);\n" // narrowed to 8 bits: none
                   "}\n");
  ASSERT_EQ(P.Facts.Launches.size(), 4u);
  EXPECT_EQ(P.Facts.Launches[0].BlockParams, (std::array<int, 3>{1, 2, -1}));
  EXPECT_EQ(P.Facts.Launches[1].BlockParams, (std::array<int, 3>{2, -1, -1}));
  EXPECT_EQ(P.Facts.Launches[2].BlockParams, (std::array<int, 3>{-1, -1, -1}));
  EXPECT_EQ(P.Facts.Launches[3].BlockParams, (std::array<int, 3>{-1, -1, -1}));
}

// --- Kernel facts --------------------------------------------------------------------

TEST(Kernels, StaticSharedWithAlignmentStructsAndCallees) {
  Parsed P = parse(R"(
struct Tile { double d[3]; char c; };
__shared__ int gShared[10];
__device__ void helper() { __shared__ double h[2]; h[0] = 1; }
__device__ void viaHelper() { helper(); }
__global__ void k() {
  __shared__ char c[3];
  __shared__ Tile t;
  extern __shared__ float dyn[];
  viaHelper();
  gShared[0] = c[0] + t.c + dyn[0];
}
)");
  ASSERT_EQ(P.Facts.Kernels.size(), 1u);
  const KernelInfo &K = P.Facts.Kernels[0];
  // c: 0..3, t (32 bytes, align 8): 8..40, gShared: 40..80, h (align 8): 80..96.
  EXPECT_EQ(K.StaticSmemBytes, 96u);
  EXPECT_EQ(K.SharedVars.size(), 4u);
}

TEST(Kernels, EmptyStructsTakeNoSharedMemory) {
  Parsed P = parse("struct Scratch {};\n__global__ void k(float *o) { __shared__ Scratch s; "
                   "__shared__ float f[2]; o[0] = f[0] + (&s != nullptr); }");
  ASSERT_EQ(P.Facts.Kernels.size(), 1u);
  EXPECT_EQ(P.Facts.Kernels[0].StaticSmemBytes, 8u);
}

TEST(Kernels, UnreferencedSharedIsNotCounted) {
  Parsed P = parse("__global__ void k(float *o) { __shared__ float never[64]; "
                   "__shared__ float used[8]; o[0] = used[1]; }");
  ASSERT_EQ(P.Facts.Kernels.size(), 1u);
  EXPECT_EQ(P.Facts.Kernels[0].StaticSmemBytes, 32u);
}

TEST(Kernels, LaunchBoundsMaxNRegAndOptin) {
  Parsed P = parse(R"(
#define __maxnreg__(n) __attribute__((maxnreg(n)))
__global__ void __launch_bounds__(256, 2) lb() {}
__global__ void __maxnreg__(40) nr() {}
__global__ void big() { extern __shared__ float s[]; s[0] = 0; }
void h(int n) {
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
  big<<<1, 128, 80 * 1024>>>();
}
)",
                   [] {
                     auto A = cudaArgs();
                     A.push_back("-Wno-unknown-attributes");
                     return A;
                   }());
  const KernelInfo *LB = nullptr, *NR = nullptr, *Big = nullptr;
  for (const KernelInfo &K : P.Facts.Kernels) {
    if (K.Name == "lb")
      LB = &K;
    if (K.Name == "nr")
      NR = &K;
    if (K.Name == "big")
      Big = &K;
  }
  ASSERT_TRUE(LB && NR && Big);
  EXPECT_EQ(LB->LaunchBoundsMaxThreads, 256u);
  EXPECT_EQ(LB->LaunchBoundsMinBlocks, 2u);
  EXPECT_FALSE(LB->MaxNReg);
  EXPECT_EQ(NR->MaxNReg, 40u);
  EXPECT_FALSE(NR->LaunchBoundsMaxThreads);
  EXPECT_TRUE(Big->HasOptin);
  EXPECT_EQ(Big->Optin.Bytes, 96u * 1024);
  EXPECT_EQ(Big->StaticSmemBytes, 0u);
  ASSERT_EQ(Big->Launches.size(), 1u);
  EXPECT_EQ(P.Facts.Launches[Big->Launches[0]].DynamicSmem.Bytes, 80u * 1024);
}

TEST(Arch, FromTheDeviceSideTargetOnly) {
  Parsed P = parse("__global__ void k() {}");
  EXPECT_EQ(P.Facts.Arch, "sm_86");
  Parsed Q =
      parse("__global__ void k() {}", cudaArgs("--cuda-device-only", "--cuda-gpu-arch=sm_90"));
  EXPECT_EQ(Q.Facts.Arch, "sm_90");
  Parsed H = parse("__global__ void k() {}\nvoid h() { k<<<1, 32>>>(); }",
                   cudaArgs("--cuda-host-only", "--cuda-gpu-arch=sm_90"));
  // The host-side compile records no device CPU: the checks fall back to their option.
  EXPECT_EQ(H.Facts.Arch, "");
  EXPECT_EQ(H.Facts.Launches.size(), 1u);
}

} // namespace

namespace {

TEST(Kernels, LaunchBoundsMaxClusterOnSm90) {
  Parsed P = parse("__global__ void __launch_bounds__(128, 2, 4) k() {}",
                   cudaArgs("--cuda-device-only", "--cuda-gpu-arch=sm_90"));
  ASSERT_EQ(P.Facts.Kernels.size(), 1u);
  EXPECT_EQ(P.Facts.Kernels[0].LaunchBoundsMaxThreads, 128u);
  EXPECT_EQ(P.Facts.Kernels[0].LaunchBoundsMinBlocks, 2u);
  EXPECT_EQ(P.Facts.Kernels[0].LaunchBoundsMaxCluster, 4u);
}

TEST(Launches, InLambdasMembersAndDeviceCode) {
  Parsed P = parse(R"(
__global__ void k() {}
struct Runner {
  int Threads = 64;
  void run() const { k<<<1, 96>>>(); }
};
void h() {
  auto f = [] { k<<<2, 160>>>(); };
  f();
}
__global__ void parent() { k<<<1, 32>>>(); }
)",
                   [] {
                     auto A = cudaArgs();
                     A.push_back("-fgpu-rdc"); // device-side launches need relocatable code
                     return A;
                   }());
  const auto &L = P.Facts.Launches;
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0].Block.Dims, (Dims{96, 1, 1}));
  EXPECT_EQ(L[0].Enclosing->getNameAsString(), "run");
  EXPECT_EQ(L[1].Block.Dims, (Dims{160, 1, 1}));
  EXPECT_EQ(L[2].Block.Dims, (Dims{32, 1, 1}));
  EXPECT_EQ(L[2].Enclosing->getNameAsString(), "parent");
}

TEST(Launches, UninstantiatedTemplatesAndSystemHeadersAreSkipped) {
  // The template is never instantiated: no launch with unknown dependent values.
  Parsed P = parse("__global__ void k() {}\ntemplate <int B> void never() { k<<<1, B>>>(); }\n");
  EXPECT_TRUE(P.Facts.Launches.empty());
}

} // namespace

namespace {

TEST(PlainExport, CarriesWhatTheDriverReports) {
  Parsed P = parse(R"(
__global__ void __launch_bounds__(128) k(float *p) { __shared__ float s[64]; p[0] = s[0]; }
void h(float *p, unsigned bytes) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  k<<<dim3(8, 2), 128, bytes>>>(p);
}
)");
  ::warplint::ModelRecords F = records(P);
  EXPECT_EQ(F.Arch, "sm_86");
  ASSERT_EQ(F.Launches.size(), 1u);
  const ::warplint::LaunchRecord &L = F.Launches[0];
  EXPECT_EQ(L.Pos.File, "input.cu");
  EXPECT_EQ(L.Pos.Line, 5u);
  EXPECT_EQ(L.Pos.Column, 3u);
  EXPECT_EQ(L.Api, "triple-chevron");
  EXPECT_EQ(L.Kernel, std::optional<std::string>("k"));
  EXPECT_EQ(L.MangledKernel, std::optional<std::string>("_Z1kPf"));
  EXPECT_EQ(L.Grid, (Dims{8, 2, 1}));
  EXPECT_EQ(L.GridText, "dim3(8, 2)");
  EXPECT_EQ(L.Block, (Dims{128, 1, 1}));
  EXPECT_FALSE(L.DynamicSmemBytes);
  EXPECT_EQ(L.DynamicSmemExpr, std::optional<std::string>("bytes"));
  EXPECT_EQ(L.StaticSmemBytes, 256u);
  EXPECT_EQ(L.LaunchBoundsMaxThreads, 128u);
  EXPECT_TRUE(L.HasOptin);
  EXPECT_EQ(L.OptinDynamicSmemBytes, 65536u);
  EXPECT_EQ(L.Enclosing, "h");
  ASSERT_EQ(F.Kernels.size(), 1u);
  EXPECT_EQ(F.Kernels[0].Name, "k");
  EXPECT_EQ(F.Kernels[0].Line, 2u);
  EXPECT_EQ(F.Kernels[0].BeginLine, 2u);
  EXPECT_EQ(F.Kernels[0].EndLine, 2u);
  EXPECT_EQ(F.Kernels[0].LaunchCount, 1u);
  EXPECT_FALSE(F.Kernels[0].OptinExpr);
}

// --- The model: one answer per launch ---------------------------------------------

// The launch of the first round's disagreement (check 16.7%, JSON null, report "cannot
// launch"): 80 KiB dynamic with the opt-in, 256 threads, sm_86. One record says 1 block
// per SM (81 KiB with the reserved 1 KiB of a 100 KiB SM), 8 of 48 warps.
TEST(Model, OptinLaunchHasOneAnswer) {
  Parsed P = parse(R"(
__global__ void big(float *p) { extern __shared__ float s[]; p[0] = s[0]; }
void h(float *p) {
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 80 * 1024);
  big<<<100, 256, 80 * 1024>>>(p);
}
)");
  TuModel &M = TuModel::of(P.AST->getASTContext(), nullptr, ModelOptions());
  ASSERT_EQ(&M, &TuModel::of(P.AST->getASTContext(), nullptr, ModelOptions())); // shared
  const std::vector<LaunchModel> &Ls = M.launches();
  ASSERT_EQ(Ls.size(), 1u);
  ASSERT_EQ(Ls[0].PerArch.size(), 1u);
  const LaunchFigures &E = Ls[0].PerArch[0];
  EXPECT_FALSE(E.registersKnown());
  EXPECT_EQ(E.Resources.OptinDynamicSharedBytes, 80u * 1024);
  ASSERT_TRUE(E.Result && E.Result->canLaunch());
  EXPECT_EQ(E.Result->BlocksPerSm, 1);
  ::warplint::ModelRecords F = M.records();
  ASSERT_EQ(F.Launches.size(), 1u);
  const ::warplint::LaunchRecord &L = F.Launches[0];
  EXPECT_EQ(L.BlocksPerSm, 1u);
  EXPECT_EQ(L.ActiveWarpsPerSm, 8u);
  EXPECT_EQ(L.MaxWarpsPerSm, 48u);
  ASSERT_TRUE(L.Occupancy);
  EXPECT_NEAR(*L.Occupancy, 8.0 / 48, 1e-12);
  EXPECT_FALSE(L.LaunchError);
  EXPECT_FALSE(L.Registers);
  EXPECT_FALSE(L.RegistersMissing.empty());
  EXPECT_TRUE(L.HasOptin);
  EXPECT_EQ(L.OptinDynamicSmemBytes, 80u * 1024);
  EXPECT_EQ(L.Limiters, std::vector<std::string>{"shared_memory"});
}

// Registers unknown: the figures leave them out, and the budget says up to how many hold.
TEST(Model, UnknownRegistersGiveABudgetNotACliff) {
  Parsed P = parse("__global__ void k(float *p) {}\nvoid h(float *p) { k<<<1, 512>>>(p); }\n",
                   cudaArgs("--cuda-device-only", "--cuda-gpu-arch=sm_61"));
  ::warplint::ModelRecords F = records(P);
  ASSERT_EQ(F.Launches.size(), 1u);
  const ::warplint::LaunchRecord &L = F.Launches[0];
  EXPECT_EQ(L.BlocksPerSm, 4u); // 2048 threads per SM, registers not counted
  EXPECT_EQ(L.RegisterBudget, 32); // 32 x 512 x 4 = 64 K registers
  EXPECT_EQ(L.RegisterBudgetLossBlocks, 3);
  for (const ::warplint::NextStep &S : L.NextSteps)
    EXPECT_NE(S.What, ::warplint::Resource::Registers);
}

// --- Thread block clusters ------------------------------------------------------------

TEST(Clusters, ClusterDimsAndTheNonPortableAttribute) {
  Parsed P = parse("__global__ void __cluster_dims__(4, 2) k(float *p) {}\n"
                   "__global__ void plain(float *p) {}\n"
                   "void h(float *p) {\n"
                   "  cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);\n"
                   "  k<<<64, 128>>>(p);\n"
                   "  plain<<<64, 128>>>(p);\n"
                   "}\n",
                   cudaArgs("--cuda-device-only", "--cuda-gpu-arch=sm_90"));
  ASSERT_EQ(P.Facts.Kernels.size(), 2u);
  const KernelInfo &K = P.Facts.Kernels[0];
  EXPECT_EQ(K.Name, "k");
  EXPECT_EQ(K.ClusterDims, (Dims{4, 2, 1}));
  EXPECT_TRUE(K.NonPortableCluster);
  EXPECT_FALSE(P.Facts.Kernels[1].ClusterDims);
  EXPECT_FALSE(P.Facts.Kernels[1].NonPortableCluster);
}

TEST(Clusters, LaunchAttributeOfCudaLaunchKernelEx) {
  const std::string Launch = "__global__ void k(float *p) {}\n"
                             "void h(float *p, unsigned n) {\n"
                             "  cudaLaunchConfig_t cfg = {};\n"
                             "  cfg.gridDim = dim3(64);\n"
                             "  cfg.blockDim = dim3(128);\n"
                             "  cudaLaunchAttribute a[1];\n"
                             "  a[0].id = cudaLaunchAttributeClusterDimension;\n"
                             "  a[0].val.clusterDim.x = X;\n"
                             "  a[0].val.clusterDim.y = 1;\n"
                             "  a[0].val.clusterDim.z = 1;\n"
                             "  cfg.attrs = a;\n"
                             "  cfg.numAttrs = 1;\n"
                             "  cudaLaunchKernelEx(&cfg, k, p);\n"
                             "}\n";
  auto With = [&](const std::string &X) {
    std::string Code = Launch;
    Code.replace(Code.find("= X;"), 4, "= " + X + ";");
    return Code;
  };
  Parsed Known = parse(With("2"));
  ASSERT_EQ(Known.Facts.Launches.size(), 1u);
  const LaunchSite &L = Known.Facts.Launches[0];
  EXPECT_TRUE(L.HasLaunchCluster);
  EXPECT_EQ(L.LaunchCluster.Dims, (Dims{2, 1, 1}));
  EXPECT_EQ(L.LaunchCluster.Text, "clusterDim(2, 1, 1)");
  // Not a compile-time fact: the cluster is there, its shape unknown.
  Parsed Unknown = parse(With("n"));
  ASSERT_EQ(Unknown.Facts.Launches.size(), 1u);
  EXPECT_TRUE(Unknown.Facts.Launches[0].HasLaunchCluster);
  EXPECT_FALSE(Unknown.Facts.Launches[0].LaunchCluster.Dims);
  // Without the cluster attribute id: no cluster.
  std::string NoId = With("2");
  NoId.replace(NoId.find("cudaLaunchAttributeClusterDimension"),
               strlen("cudaLaunchAttributeClusterDimension"), "cudaLaunchAttributeCooperative");
  Parsed Plain = parse(NoId);
  ASSERT_EQ(Plain.Facts.Launches.size(), 1u);
  EXPECT_FALSE(Plain.Facts.Launches[0].HasLaunchCluster);
}

TEST(Clusters, RecordsCarryTheGpuFiguresOnce) {
  Parsed P = parse("__global__ void __cluster_dims__(2, 1, 1) k(float *p) {}\n"
                   "void h(float *p) { k<<<132, 640>>>(p); }\n",
                   cudaArgs("--cuda-device-only", "--cuda-gpu-arch=sm_90"));
  ModelOptions O;
  O.Registers.Source = RegisterSourceChoice::None;
  O.Gpu = "h100";
  ::warplint::ModelRecords R = TuModel::of(P.AST->getASTContext(), nullptr, O).records();
  ASSERT_EQ(R.Launches.size(), 1u);
  const ::warplint::LaunchRecord &L = R.Launches[0];
  EXPECT_EQ(L.Cluster, (Dims{2, 1, 1}));
  EXPECT_EQ(L.Gpu, "h100");
  EXPECT_EQ(L.GpuSms, 132u);
  EXPECT_EQ(L.MaxActiveClusters, 198); // 3 blocks/SM over the measured GH100 layout (27+27+5x24+12+4x3)
  ASSERT_TRUE(L.Waves);
  EXPECT_EQ(L.Waves->BlocksPerWave, 396);
  EXPECT_EQ(L.Waves->WaveCount, 1);
  EXPECT_NEAR(L.Waves->LastWaveFullness, 1.0 / 3, 1e-12);
}

// The branch model's parent maps of one function at a time (model/Branches.h,
// FunctionParents) give the answers of the map over the declarations outside system
// headers, which the walks up from a branch read before, for every node of every
// function: default arguments and default member initializers (reached from their
// declarations too), an init list's two forms, a lambda, `?:` with an omitted middle, a
// template's instantiations; and they answer from the function's own map where they can.
TEST(FunctionParents, SameAnswersAsTheMapOverTheFile) {
  Parsed P = parse(R"(
struct S { int a = threadIdx.x < 4 ? 1 : 2; int b; };
__device__ int dflt(int v, int w = threadIdx.x > 2 ? 3 : 4) { return v + w; }
template <int N> __global__ void k(int *p, int n) {
  S s{};
  int arr[] = {n > 0 ? 1 : 2, 3};
  for (int i = threadIdx.x; i < n; i += N) {
    if (p[i] > 0 && i < 4)
      p[i] = dflt(i);
    auto f = [&](int x) { if (x > 1) return x; return 0; };
    p[i] += f(i) + (n ?: 1);
  }
  if (threadIdx.x == 0) { p[0] = s.a + arr[0]; }
}
void host(int *p, int n) {
  for (int r = 0; r < 2; ++r)
    k<32><<<1, 32>>>(p, n);
  k<64><<<1, 64>>>(p, n);
}
)");
  ASSERT_TRUE(P.AST);
  ASTContext &Ctx = P.AST->getASTContext();
  // Every function with a body in the file (instantiations too), and the nodes of each.
  struct Nodes : RecursiveASTVisitor<Nodes> {
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }
    std::vector<const Stmt *> Out;
    bool VisitStmt(Stmt *S) {
      Out.push_back(S);
      return true;
    }
  };
  struct Functions : RecursiveASTVisitor<Functions> {
    bool shouldVisitTemplateInstantiations() const { return true; }
    const SourceManager &SM;
    explicit Functions(const SourceManager &SM) : SM(SM) {}
    std::vector<const FunctionDecl *> Out;
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (FD->doesThisDeclarationHaveABody() && SM.isInMainFile(FD->getLocation()))
        Out.push_back(FD);
      return true;
    }
  } Fns(Ctx.getSourceManager());
  Fns.TraverseDecl(Ctx.getTranslationUnitDecl());
  ASSERT_GE(Fns.Out.size(), 5u); // dflt, k, k<32>, k<64>, host
  // The expected answers: getParents over the declarations outside system headers.
  std::vector<Decl *> Own;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (D->getLocation().isInvalid() || !Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      Own.push_back(D);
  struct Query {
    const FunctionDecl *Fn;
    DynTypedNode Node;
    std::vector<DynTypedNode> Expected;
  };
  std::vector<Query> Queries;
  std::vector<Decl *> Before = Ctx.getTraversalScope();
  Ctx.setTraversalScope(Own);
  for (const FunctionDecl *Fn : Fns.Out) {
    Nodes N;
    N.TraverseStmt(Fn->getBody());
    for (const Stmt *S : N.Out) {
      DynTypedNodeList L = Ctx.getParents(*S);
      Queries.push_back({Fn, DynTypedNode::create(*S), {L.begin(), L.end()}});
    }
  }
  Ctx.setTraversalScope(Before);
  ASSERT_GT(Queries.size(), 100u);
  unsigned Local = 0, Whole = 0;
  for (const Query &Q : Queries) {
    FunctionParents FP(Ctx);
    DynTypedNodeList L = FP.of(Q.Fn, Q.Node);
    std::vector<DynTypedNode> Got(L.begin(), L.end());
    auto Kinds = [&](const std::vector<DynTypedNode> &V) {
      std::string K;
      for (const DynTypedNode &D : V)
        K += D.getNodeKind().asStringRef().str() + " ";
      return K;
    };
    EXPECT_TRUE(Got == Q.Expected)
        << Q.Node.getNodeKind().asStringRef().str() << " at "
        << Q.Node.getSourceRange().getBegin().printToString(Ctx.getSourceManager()) << " in "
        << Q.Fn->getNameAsString() << ": " << Kinds(Got) << "against " << Kinds(Q.Expected);
    ++(FP.usedWholeMap() ? Whole : Local);
    // The branches written in a kernel's instantiation, where the branch model asks, are
    // its own (clang builds them anew): its own map answers.
    const Stmt *S = Q.Node.get<Stmt>();
    auto *B = dyn_cast_or_null<BinaryOperator>(S);
    SourceRange Body = Q.Fn->getBody()->getSourceRange();
    const SourceManager &SM = Ctx.getSourceManager();
    bool Written = S && !SM.isBeforeInTranslationUnit(S->getBeginLoc(), Body.getBegin()) &&
                   !SM.isBeforeInTranslationUnit(Body.getEnd(), S->getBeginLoc());
    if (Q.Fn->isTemplateInstantiation() && Written &&
        (isa_and_nonnull<IfStmt>(S) || isa_and_nonnull<ForStmt>(S) ||
         isa_and_nonnull<ConditionalOperator>(S) || (B && B->isLogicalOp())))
      EXPECT_FALSE(FP.usedWholeMap()) << S->getStmtClassName();
  }
  // The functions' own maps answered most; the map over the file the rest: the template's
  // own body, the nodes its instantiations kept, the roots of the default argument and of
  // the default member initializer.
  EXPECT_GT(Local, 100u);
  EXPECT_GT(Whole, 10u);
  // The traversal scope is put back.
  EXPECT_EQ(Ctx.getTraversalScope().vec(), Before);
}

} // namespace
