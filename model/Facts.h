//===- Facts.h - kernel launches and kernel facts of one CUDA TU -----*- C++ -*-===//
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <map>
#include <set>
#include <vector>

namespace warplint {
using namespace clang;

/// Which API a launch goes through.
enum class LaunchApi : uint8_t {
  TripleChevron,          ///< k<<<grid, block, smem, stream>>>(...)
  LaunchKernel,           ///< cudaLaunchKernel(k, grid, block, args, smem, stream)
  LaunchKernelEx,         ///< cudaLaunchKernelEx(&config, k, ...) / cudaLaunchKernelExC
  LaunchCooperativeKernel, ///< cudaLaunchCooperativeKernel(k, grid, block, args, smem, stream)
  LaunchKernelGGL,         ///< hipLaunchKernelGGL(k, grid, block, smem, stream, args...)
  ExtLaunchKernelGGL       ///< hipExtLaunchKernelGGL(k, grid, block, smem, stream, e0, e1,
                           ///< flags, args...)
};

/// "triple-chevron", "cudaLaunchKernel", "cudaLaunchKernelEx", "cudaLaunchCooperativeKernel";
/// with Hip the HIP runtime's names: "hipLaunchKernel", ..., "hipLaunchKernelGGL",
/// "hipExtLaunchKernelGGL".
const char *launchApiName(LaunchApi A, bool Hip = false);

/// A block or grid shape: known (x, y, z) when every component is a compile-time fact of
/// the TU, otherwise unknown; Text is always the expression as written.
struct ShapeFact {
  std::optional<std::array<uint64_t, 3>> Dims;
  /// Each component that is a compile-time fact, also where another is not (`dim3
  /// threads(n, 1, 1)` with a run-time n: y and z); all three when Dims is known.
  std::array<std::optional<uint64_t>, 3> Parts;
  std::string Text;
  bool known() const { return Dims.has_value(); }
  /// x*y*z; only when known.
  uint64_t total() const { return known() ? (*Dims)[0] * (*Dims)[1] * (*Dims)[2] : 0; }
  /// "dim3(40,2)" / "dim3(40,2,3)" / "256" for a known shape (trailing 1s dropped).
  std::string str() const;
};

/// An integer launch parameter (dynamic shared memory bytes, the opt-in value): known
/// bytes, or the expression's text.
struct BytesFact {
  std::optional<uint64_t> Bytes;
  std::string Text;
};

/// One kernel launch as the AST shows it (pointers valid while the ASTContext lives).
struct LaunchSite {
  LaunchApi Api = LaunchApi::TripleChevron;
  const Expr *Call = nullptr;           ///< the CUDAKernelCallExpr or CallExpr
  SourceLocation Loc;                   ///< where a user sees it (macro expansion site)
  const FunctionDecl *Kernel = nullptr; ///< the kernel (a specialization for templates),
                                        ///< null when not resolvable (function pointers)
  std::string KernelName;               ///< qualified name with template arguments, or
                                        ///< the callee's text when not resolvable
  std::string MangledName;              ///< device-side mangled name; empty if unresolved
  ShapeFact Grid, Block;
  /// For each block dimension, the kernel parameter whose argument at this launch is the
  /// same value as the block's size there (argsort's `dim3 block_dims(ncols_pad, 1, 1)`
  /// with the argument `ncols_pad`), -1 where none is.
  std::array<int, 3> BlockParams{-1, -1, -1};
  BytesFact DynamicSmem;                   ///< 0 bytes when the launch passes none
  const FunctionDecl *Enclosing = nullptr; ///< the function (or instantiation) launching
  std::string Instantiation;               ///< "launch<128>" when in a template instantiation
  /// cudaLaunchKernelEx with a cudaLaunchAttributeClusterDimension attribute in the
  /// launching function: the cluster shape when every component is a compile-time fact
  /// (`attr.val.clusterDim.x = 2;`, one such attribute per function).
  bool HasLaunchCluster = false;
  ShapeFact LaunchCluster;
  bool Hip = false;                        ///< through the HIP runtime (the TU is HIP)
  /// A launch through a local function-pointer variable that can hold several kernels
  /// (transpose's `kernel = &copy;` ... `kernel<<<grid, threads>>>(...)`): one launch per
  /// kernel it can hold, each with that kernel and the launch's shape; Via is the
  /// variable's name and Candidates how many kernels it can hold (0: a direct launch).
  std::string Via;
  unsigned Candidates = 0;
  /// A grid, block or dynamic shared memory size read from parameters of the launching
  /// host function that every call of it in the TU gives one value (GASAL2's
  /// `gasal_kernel_launcher(N_BLOCKS, BLOCKDIM, ...)`): how many calls, and the first;
  /// 0 when no component came from the callers.
  unsigned FromCalls = 0;
  SourceLocation FromCallLoc;
};

/// A `__shared__` variable counted in a kernel's static shared memory.
struct SharedVarFact {
  const VarDecl *Var = nullptr;
  uint64_t Bytes = 0;
  uint64_t Align = 1;
};

/// What the TU says about one kernel (one per template specialization).
struct KernelInfo {
  const FunctionDecl *Decl = nullptr; ///< the definition when the TU has one
  std::string Name;                   ///< qualified, with template arguments
  std::string MangledName;            ///< device-side mangled name
  /// Static __shared__ bytes of the variables the kernel and the device functions it
  /// calls (transitively, within the TU) refer to, each aligned, in first-use order;
  /// nullopt if a size is unknown. An upper bound of ptxas's figure when the optimizer
  /// removes a variable.
  std::optional<uint64_t> StaticSmemBytes;
  std::vector<SharedVarFact> SharedVars;
  bool HasBody = false;      ///< false: the estimate saw no body (declaration only)
  bool CallsUnknown = false; ///< calls a function whose body is not in the TU
  /// __launch_bounds__(MaxThreads, MinBlocks, MaxClusterBlocks) where present.
  std::optional<uint64_t> LaunchBoundsMaxThreads, LaunchBoundsMinBlocks, LaunchBoundsMaxCluster;
  SourceLocation LaunchBoundsLoc;
  std::optional<uint64_t> MaxNReg; ///< __maxnreg__(N) as written
  /// __cluster_dims__(x, y, z) where present and known (missing components are 1).
  std::optional<std::array<uint64_t, 3>> ClusterDims;
  SourceLocation ClusterDimsLoc;
  /// cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, v) with v
  /// not known to be 0: clusters up to 16 blocks.
  bool NonPortableCluster = false;
  /// cudaFuncSetCacheConfig(k, cudaFuncCachePreferX): 0 none, 1 shared, 2 L1, 3 equal
  /// (the shared/L1 split of cc 2.x and 3.x); none when not set or not one known value.
  std::optional<int> CacheConfig;
  /// AMD: __attribute__((amdgpu_flat_work_group_size(Min, Max))) (HIP's __launch_bounds__
  /// first argument, as ROCm spells it; Max is also LaunchBoundsMaxThreads when the kernel
  /// has no CUDA launch_bounds) and amdgpu_waves_per_eu(Min[, Max]) (its second argument:
  /// waves per SIMD the compiler is asked to leave room for).
  std::optional<uint64_t> FlatWorkGroupMin, FlatWorkGroupMax, WavesPerEuMin, WavesPerEuMax;
  /// cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n) in the TU:
  /// the largest known n, or the text when one is not known.
  bool HasOptin = false;
  BytesFact Optin;
  SourceLocation OptinLoc;
  std::vector<unsigned> Launches; ///< indices into TUFacts::Launches
};

/// All launches and kernels of a TU, from one pass over its AST.
struct TUFacts {
  std::vector<LaunchSite> Launches; ///< in source order (by user-visible location)
  std::vector<KernelInfo> Kernels;  ///< kernels defined or launched in user code
  /// The device architecture the TU is compiled for ("sm_86"), empty if not known
  /// (host-side compile with no --cuda-gpu-arch recorded).
  std::string Arch;
  /// Lanes per warp (NVIDIA: 32) or wavefront (AMD: 64 on GCN/CDNA, 32 or, with
  /// -mwavefrontsize64, 64 on RDNA) of the TU's device target.
  unsigned WaveSize = 32;
  /// The TU is HIP (clang's -x hip).
  bool Hip = false;
  /// The direct calls of each function (canonical declaration) in user code, each with
  /// the function or lambda it is in (null at file scope): where the host's values come
  /// from (TuModel::passedValues).
  std::map<const FunctionDecl *, std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
      CallsOf;
  /// Functions (canonical declarations) whose address is taken other than to be called
  /// through a function-pointer parameter (stored, put in a table, handed to a function
  /// that does not call it there): calls may come that CallsOf does not hold. A function
  /// handed to one that calls it through its parameter (a benchmark template's
  /// `kernel(args...)`) has those calls in CallsOf instead.
  std::set<const FunctionDecl *> Escapes;
  /// The KernelInfo of a kernel (any redeclaration of it), or null.
  const KernelInfo *kernel(const FunctionDecl *FD) const;
  llvm::DenseMap<const FunctionDecl *, unsigned> KernelIndex; ///< canonical decl -> index
};

/// Options of the collection.
struct FactsOptions {
  /// Also report launches written in system headers (library internals).
  bool IncludeSystemHeaders = false;
};

/// One pass over the TU: every launch (per template instantiation), every kernel.
TUFacts collectFacts(ASTContext &Ctx, const FactsOptions &Opts = {});

/// The device arch of the TU: the NVPTX or AMDGPU target's CPU ("sm_86", "gfx90a") on
/// the device side, the aux target's on the host side; empty when not recorded.
std::string targetArch(const ASTContext &Ctx);

/// Lanes per warp or wavefront of the TU's device target (the aux target's on the host
/// side): 32 on NVIDIA, 64 or 32 on AMD as the target was configured; 32 when unknown.
unsigned targetWaveSize(const ASTContext &Ctx);

// --- Shape evaluation, exposed for the unit tests and other checks -----------------

/// Evaluates an integer expression at its place in the code: constants, macros,
/// constexpr, const locals, locals whose only writes dominate the use in straight-line
/// code, arithmetic on those. Never a guess: nullopt when not a compile-time fact.
std::optional<uint64_t> evaluateInt(const Expr *E, ASTContext &Ctx);
/// Evaluates a dim3 (or integer converted to dim3) expression the same way.
std::optional<std::array<uint64_t, 3>> evaluateDim3(const Expr *E, ASTContext &Ctx);

/// One launch with the run-time values of its launching function sampled together: the
/// grid, the block and the integer arguments it passes, each computed from the same values
/// of the unknowns they read (`dim3 grid(blocks); dim3 block(threads << 3);
/// k<<<grid, block>>>(blocks * threads)`).
struct JointLaunch {
  std::array<uint64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  /// Kernel parameter position -> value: the integer arguments that evaluate and read no
  /// unknown that the grid and the block do not read too.
  std::map<unsigned, uint64_t> Args;
  bool Sampled = false;              ///< some unknown was given a value
};

/// Samples of the triple-chevron launch L (empty for another API, or when the grid or the
/// block does not evaluate): evaluated as evaluateInt does, except that each run-time
/// unknown met (a parameter of the launching function, a global, a call's result) takes a
/// value from sizes a host passes (27 of them, 1 to 2^20), the same unknown the same value
/// within a sample: first all unknowns each of those values alike, then (with two unknowns
/// or more) Count more drawn for each apart with a fixed seed. Samples that cannot launch
/// (a zero dimension, a block over 1024 threads) are dropped. One sample when no unknown is
/// met. Unknowns (when given) gets the unknowns' names.
std::vector<JointLaunch> jointLaunchSamples(const LaunchSite &L, ASTContext &Ctx, unsigned Count,
                                            std::vector<std::string> *Unknowns = nullptr);

/// Whether S writes the variable D: assigns it, increments or decrements it, takes its
/// address, or binds it to a reference to non-const (a local reference, or a call's
/// parameter that the callee writes through, followed three calls deep; a callee without
/// a body counts as writing; `std::forward` and `std::move` hand it on). The one test of
/// "this variable keeps the value it was given" for the launch facts, the branch model
/// and the host facts.
bool writesVar(const Stmt *S, const ValueDecl *D);

/// The operand of `std::forward<T>(x)` or `std::move(x)` (which hand x on and write
/// nothing), else null.
const Expr *forwardedOperand(const Expr *E);

/// writesVar with each answer kept, for one TU (TuModel::Writes): the host facts and the
/// branch model ask whether a launching function's body writes a variable once per
/// launch and parameter, and cuda-samples' reduce<T> (72 launches in each of its three
/// instantiations) had its body walked once for each of them.
class WritesVarMemo {
public:
  bool operator()(const Stmt *S, const ValueDecl *D) {
    auto [It, New] = Known.try_emplace({S, D}, false);
    if (New)
      It->second = writesVar(S, D);
    return It->second;
  }

private:
  llvm::DenseMap<std::pair<const Stmt *, const ValueDecl *>, bool> Known;
};

/// The qualified name of a function with its template arguments, as facts name kernels
/// and launching functions ("ns::launch<128>").
std::string functionName(const FunctionDecl *FD);

} // namespace warplint
