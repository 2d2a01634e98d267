//===- TuModel.h - one model per translation unit, shared by every check and output -*- C++ -*-===//
//
// The launches and kernels of a TU (model/Facts), the register figures of its kernels
// (resources/), and core's figures for every launch and architecture, computed once per
// TU on first use. The checks read it and report; the driver exports it as plain records
// (model/Records.h) for its outputs. This is the only place where launch facts become
// occupancy figures: a figure exists once.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/MemoryAccess.h"
#include "model/Facts.h"
#include "model/ModelOptions.h"
#include "model/Records.h"
#include "resources/RegisterSource.h"

#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace clang::tidy::warplint {

/// One launch on one architecture: what core was given and what it answered.
struct LaunchFigures {
  const ::warplint::GpuArch *Arch = nullptr;
  /// core's input: the compiler's registers (0 when unknown), static shared memory
  /// (ptxas's when known, else the declarations'), launch bounds, the opt-in.
  ::warplint::KernelResources Resources;
  /// The compiler's figures for this kernel and arch; null: registers unknown.
  const KernelFigures *Compiler = nullptr;
  bool ByBaseName = false; ///< the figures were matched by the kernel's base name
  /// The launch shape; set when the block and the dynamic shared memory are known.
  std::optional<::warplint::LaunchShape> Shape;
  /// core's answer (set with Shape).
  std::optional<::warplint::OccupancyResult> Result;
  /// The cliffs around Result per resource (with Shape; for unknown registers the
  /// register entry is the budget: the count up to which Result holds).
  std::vector<::warplint::NextStep> Steps;
  /// What the block size alone allows (registers and shared memory taken away; with
  /// Result).
  std::optional<::warplint::OccupancyResult> Ceiling;
  /// The cluster shape (launch attribute, else __cluster_dims__) when known; HasCluster
  /// also when its shape is not.
  bool HasCluster = false;
  std::optional<std::array<uint64_t, 3>> Cluster;
  std::string ClusterText;
  SourceLocation ClusterLoc; ///< __cluster_dims__ (invalid for a launch attribute)
  bool NonPortableCluster = false;
  /// The run's GPU (warplint.Gpu) when it is of this arch; null otherwise.
  const ::warplint::GpuProduct *Gpu = nullptr;
  /// Clusters resident at once on Gpu (a known cluster shape, a GPC layout, a launch).
  std::optional<::warplint::ClusterOccupancy> Clusters;
  /// The grid's waves on Gpu (of clusters with a cluster); with a known grid.
  std::optional<::warplint::WaveInfo> Waves;

  bool registersKnown() const { return Compiler != nullptr; }
  /// The step of one resource, or null.
  const ::warplint::NextStep *step(::warplint::Resource What) const;
};

/// One launch site (per template instantiation) with its figures per architecture.
struct LaunchModel {
  const LaunchSite *Site = nullptr;
  const KernelInfo *Kernel = nullptr; ///< null when the callee is not resolved
  /// The kernel's name as the user sees it (the callee's text when not resolved).
  std::string name() const;
  /// Why the register source has nothing for this kernel on this arch (when it does not).
  std::string MatchNote;
  /// The analysed arch; or, when a register source has this kernel only for other
  /// archs, those archs. Empty only when no arch is known at all.
  std::vector<LaunchFigures> PerArch;
};

/// One kernel's compiler figures for one architecture.
struct KernelArchFigures {
  const ::warplint::GpuArch *Arch = nullptr;
  const KernelFigures *Compiler = nullptr;
  bool ByBaseName = false;
};

/// One memory access of a kernel evaluated for one block shape of its launches.
struct AccessShape {
  ::warplint::divergence::BlockShape Shape;
  SourceLocation Launch; ///< the first launch with this shape (invalid when assumed)
  AccessFigures Figures;
};

/// A global or shared access of a kernel with its per-warp figures for every block shape
/// (model/TuModel::accesses): the one place those figures are computed.
struct AccessModel {
  const KernelInfo *Kernel = nullptr;
  MemoryAccessSite Site;
  bool AssumedShape = false; ///< no launch with a known block: a 1-D block was assumed
  std::vector<AccessShape> PerShape;
  /// With an assumed shape, when its typical warp is not ideal: the access evaluated for
  /// other blocks at least a warp wide in x (assumedAlternatives), so that a check can
  /// tell a finding that holds whatever the block from one the assumption makes.
  std::vector<AccessShape> Alternatives;
  /// The shape whose typical warp has the largest ratio (index into PerShape), if any
  /// was evaluated.
  std::optional<size_t> worst() const;
};

/// How a check reported an access: the finding it belongs to (one per group of places of
/// the same cause), and whether it was said as a note.
struct AccessFinding {
  SourceLocation Finding; ///< where the finding's diagnostic is
  unsigned Places = 1;    ///< the places the finding stands for
  bool Note = false;
  std::string NoteReason;
};

/// The launch's block when it is a compile-time fact and can launch (no zero dimension,
/// at most 1024 threads: a block that cannot is warplint-launch-config-invalid's): the one
/// selection of block shapes the memory model and the divergence check evaluate.
std::optional<::warplint::divergence::BlockShape> launchableBlock(const LaunchSite &L);

/// The block shapes an assumed-shape finding is held against besides the assumed 1-D
/// block: blocks at least a warp wide in x, 1-D and 2-D (32x1, 32x8, 64x4, 128x2).
std::vector<::warplint::divergence::BlockShape> assumedAlternatives();

// --- kernelAnalysis: the interface agreed with house-div (tag div-model), added here
// before that tag exists; the lead reconciles at merge.
/// One thread-dependence analysis per kernel, analysed once.
struct KernelAnalysis {
  const clang::FunctionDecl *Kernel = nullptr;
  const ThreadDependence &TD;
  /// The launchable block shapes of its launches (launchableBlock), distinct.
  std::vector<::warplint::divergence::BlockShape> Shapes;
  bool AssumedShape = true; ///< no launch with a known block
  /// The grids of its launches where known (sync-a: global races between blocks).
  std::vector<std::array<uint64_t, 3>> Grids;
  /// Parameters every launch passes as a compile-time constant, with those values.
  KnownValues Known;
};
// --- end kernelAnalysis

class TuModel {
public:
  /// The model of Ctx's translation unit, built on first use with these options and
  /// shared by every caller until the ASTContext is destroyed. PP (for the nvcc register
  /// source's -I/-D) may be null.
  static TuModel &of(ASTContext &Ctx, const Preprocessor *PP, const ModelOptions &Opts);

  /// The launches and kernels (one pass over the AST).
  const TUFacts &facts();
  /// The thread-dependence analysis of a kernel defined in the TU, made on first use.
  const KernelAnalysis &kernelAnalysis(const clang::FunctionDecl *Kernel);
  /// Every launch with its figures (loads the register source on first use).
  const std::vector<LaunchModel> &launches();
  /// The compiler's figures of a kernel: for the analysed arch when the source has it,
  /// else for every arch it has; empty when the source has none (loads the source).
  std::vector<KernelArchFigures> kernelFigures(const KernelInfo &K);
  /// Why the register source has nothing for a kernel ("no entry for '_Z1kv'"), if so.
  std::string kernelMatchNote(const KernelInfo &K);

  /// The global and shared accesses of the TU's kernels whose address varies with the
  /// thread index, each evaluated per warp for every distinct block shape of the kernel's
  /// launches (a 1-D block of AssumedBlockSize threads when none is known); computed on
  /// first use, once per assumed size.
  const std::vector<AccessModel> &accesses(unsigned AssumedBlockSize);

  /// A check reported access A with the figures of its shape Shape: records() exports it
  /// (an AccessRecord with the check's name) for the driver's outputs.
  void reportAccess(const AccessModel &A, size_t Shape, std::string Check, std::string Text,
                    bool Misaligned, const AccessFinding &As);

  /// The register source as loaded (launches() loads it).
  const LoadedRegisters &registers();
  /// The register source if something loaded it already, else null (loads nothing).
  const LoadedRegisters *loadedRegisters() const { return Registers ? &*Registers : nullptr; }
  /// The architecture figures are computed for: the Arch option, else the TU's.
  std::string arch() const;
  /// Lanes per wavefront the figures of Arch use: the TU's own (facts().WaveSize) when
  /// Arch is the TU's target, else 0 (the architecture's default).
  int waveSize(llvm::StringRef Arch) const;

  /// Problems a user must hear of (options, the register source), each returned once:
  /// to the first check that asks after it arose.
  std::vector<std::string> takeProblems();

  /// The model as plain records for the driver's outputs.
  ::warplint::ModelRecords records();

  TuModel(ASTContext &Ctx, const Preprocessor *PP, ModelOptions Opts);

private:
  /// The table's figures of a mangled name, with the arch rule of kernelFigures.
  std::vector<KernelArchFigures> figuresOf(llvm::StringRef Mangled, std::string *Note) const;
  LaunchModel evaluate(const LaunchSite &L) const;
  LaunchFigures figuresFor(const LaunchSite &L, const KernelInfo *K,
                           const ::warplint::GpuArch &Arch, const KernelFigures *F,
                           bool ByBaseName) const;
  /// The cluster and the run's GPU figures (active clusters, waves) of one evaluation.
  void gridFigures(const LaunchSite &L, const KernelInfo *K, LaunchFigures &E) const;

  ASTContext &Ctx;
  const Preprocessor *PP;
  ModelOptions Opts;
  std::optional<TUFacts> Facts;
  std::optional<LoadedRegisters> Registers;
  std::optional<std::vector<LaunchModel>> Launches;
  std::map<unsigned, std::vector<AccessModel>> Accesses; ///< by assumed block size
  std::map<const FunctionDecl *, std::unique_ptr<ThreadDependence>> KernelTDs;
  std::map<const FunctionDecl *, std::unique_ptr<KernelAnalysis>> KernelAnalyses;
  struct ReportedAccess {
    const AccessModel *Access;
    size_t Shape;
    std::string Check, Text;
    bool Misaligned;
    AccessFinding As;
  };
  std::vector<ReportedAccess> Reported;
  /// The problems already handed out by takeProblems (each is said once).
  std::set<std::string> ProblemsTaken;
  /// Problems found while evaluating (warplint.Gpu of another arch), said once.
  std::vector<std::string> EvalProblems;
};

/// A launch's thread block cluster: cudaLaunchKernelEx's cluster attribute, else the
/// kernel's __cluster_dims__.
struct ClusterFact {
  bool Has = false;
  std::optional<std::array<uint64_t, 3>> Dims; ///< when every component is known
  std::string Text;   ///< "__cluster_dims__(2, 1, 1)", "clusterDim(2, 1, 1)"
  SourceLocation Loc; ///< __cluster_dims__ (invalid for a launch attribute)
  bool NonPortable = false;
  uint64_t blocks() const { return Dims ? (*Dims)[0] * (*Dims)[1] * (*Dims)[2] : 0; }
};
ClusterFact clusterOf(const LaunchSite &L, const KernelInfo *K);

/// "registers from nvcc (sm_86)", "registers from the ptxas log 'b.log' (sm_80), matched
/// by base name": where one evaluation's registers came from.
std::string describeRegisters(const LaunchFigures &E);

/// AMD kernels with AGPRs: how the VGPR figure that sets occupancy is made of the kernel's
/// VGPRs and AGPRs ("72 VGPRs rounded up to 4 and 64 AGPRs, one file on gfx90a"), so that
/// advice to use fewer VGPRs names what must fall; empty without AGPRs.
std::string amdAgprText(const LaunchFigures &E);

} // namespace clang::tidy::warplint
