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

#include "divergence/DataRace.h"
#include "divergence/MemoryAccess.h"
#include "divergence/SyncAnalysis.h"
#include "divergence/ThreadDependence.h"
#include "model/Branches.h"
#include "model/Facts.h"
#include "model/ModelOptions.h"
#include "model/Records.h"
#include "resources/RegisterSource.h"

#include "clang/Basic/Diagnostic.h"

#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace warplint {
using namespace clang;

/// Where L is, as a plain record says it: the presumed line and column of its expansion.
::warplint::SourcePos sourcePos(const SourceManager &SM, SourceLocation L);

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

  /// A spilling kernel with nvcc's uncapped figures: core's answer for the registers
  /// ptxas uses without the caps, no bound (what the kernel keeps without its bound).
  std::optional<::warplint::OccupancyResult> Uncapped;
  /// The compiler's answer to the register advice (TuModel::verifyAdvice), when this
  /// launch's next step is fewer registers and the what-if ran.
  std::optional<::warplint::VerifiedAdvice> Verified;

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
  bool AssumedShape = false; ///< no launch with a known block: the assumed block was used
  std::vector<AccessShape> PerShape;
  /// With an assumed shape, when its typical warp is not ideal: the access evaluated for
  /// other blocks at least a warp wide in x (assumedAlternatives), so that a check can
  /// tell a finding that holds whatever the block from one the assumption makes.
  std::vector<AccessShape> Alternatives;
  /// Every launch of the kernel in the TU is one block (a grid of 1), outside any loop
  /// of the launching function, and the access is in the kernel's body outside its loops:
  /// each thread makes it once per launch. OneBlockThreads is the largest such block.
  bool OnceInOneBlock = false;
  unsigned OneBlockThreads = 0;
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

/// A barrier or warp-synchronous call of a kernel (divergence/SyncAnalysis.h) with who
/// reaches it for every block shape of the kernel's launches: what the sync checks word.
struct SyncModel {
  const KernelInfo *Kernel = nullptr;
  SyncCall Call;
  SyncClass Class;
  /// The conditions and exits that may keep part of the block (the grid, for a grid
  /// barrier; the warp, for a mask) from it; empty: nothing does.
  std::vector<SyncCause> Causes;
  bool AssumedShape = false; ///< no launch with a known block: the assumed block was used
  /// Per distinct launchable block shape of its launches (or the assumed one), with the
  /// first launch of that shape (invalid when assumed).
  std::vector<std::pair<ReachFigures, SourceLocation>> PerShape;
  /// With an assumed shape whose evaluation splits: the same for assumedAlternatives(),
  /// so that a check can tell a finding of every block from one of the assumption.
  std::vector<ReachFigures> Alternatives;
  /// Every launch of the kernel in this TU is a triple-chevron launch whose grid, block and
  /// integer arguments evaluate with its function's run-time values sampled together
  /// (jointLaunchSamples), and in every such sample every thread (every named lane) of the
  /// first and the last block reaches the call: the causes are real conditions, but the
  /// launches make them hold for the whole block (a guard `i < n` with n the grid's thread
  /// count, a group width equal to the block).
  bool LaunchWhole = false;
  unsigned LaunchCount = 0;                ///< LaunchWhole: the launches
  unsigned LaunchSamples = 0;              ///< LaunchWhole: the samples evaluated
  std::vector<std::string> LaunchUnknowns; ///< LaunchWhole: the values sampled, by name
};

/// One finding of warplint-data-race (TuModel::races): the record every output reads,
/// and the accesses its diagnostics are at.
struct RaceModel {
  const clang::Expr *First = nullptr;  ///< the other access (a note)
  const clang::Expr *Second = nullptr; ///< where the finding is
  ::warplint::RaceRecord Record;
};

/// A kernel's data races (divergence/DataRace.h) for one assumed block and one choice of
/// benign races: one finding per object and barrier interval, the other pairs counted.
struct KernelRaces {
  std::vector<RaceModel> Findings;
  bool AssumedShape = false; ///< no launch with a known block: the assumed block was used
  /// The analysis stopped at a call whose body is not in the TU, or at its work cap.
  const clang::CallExpr *StoppedAt = nullptr;
  std::string StoppedCallee;
  bool WorkCapped = false;
};

/// The launch's block when it is a compile-time fact and can launch (no zero dimension,
/// at most 1024 threads: a block that cannot is warplint-launch-config-invalid's): the one
/// selection of block shapes the memory model and the divergence check evaluate.
std::optional<::warplint::divergence::BlockShape> launchableBlock(const LaunchSite &L);

/// The block shapes an assumed-shape finding is held against besides the assumed 1-D
/// block: blocks at least a warp wide in x, 1-D and 2-D (32x1, 32x8, 64x4, 128x2).
std::vector<::warplint::divergence::BlockShape> assumedAlternatives();

struct KernelAnalysis;
/// S with the dimensions KA's launches fix at 1 folded into x (or z into y): the assumed
/// block of a kernel whose launches fix y = 1 is 1-D. Every dimension the launches fix
/// (KernelAnalysis::FixedParts) is kept, and S's threads fill the first one they leave
/// open: 256 threads with x fixed at 32 are assumed as 32x8.
::warplint::divergence::BlockShape fitUnitDims(::warplint::divergence::BlockShape S,
                                               const KernelAnalysis &KA);
/// The alternatives of an assumed block for KA (fitUnitDims of each, without duplicates
/// and without Assumed's fitted shape itself). Each stays at least a warp wide in x: where
/// the launches fix y or z and leave x open, an alternative keeps its x and takes the
/// fixed dimensions (32x16 and 64x16 for `dim3(w, 16)`; one over 1024 threads is left out).
std::vector<::warplint::divergence::BlockShape>
assumedAlternatives(const KernelAnalysis &KA, const ::warplint::divergence::BlockShape &Assumed);

/// A block shape of a kernel's launches that can run, with the first launch of it.
struct KernelShape {
  ::warplint::divergence::BlockShape Shape;
  SourceLocation Launch;
};

/// A launch of a kernel whose block can run or is not known (a known block that cannot
/// launch is warplint-launch-config-invalid's, and is left out).
struct KernelLaunch {
  const LaunchSite *Site = nullptr;
  std::optional<size_t> Shape; ///< into KernelAnalysis::Shapes when the block is known
};

/// One thread-dependence analysis per kernel (TuModel::kernelAnalysis), read by the memory
/// accesses, the branch records and every check that asks about a kernel's body.
struct KernelAnalysis {
  const clang::FunctionDecl *Kernel = nullptr; ///< the definition analysed
  const KernelInfo *Info = nullptr;
  const ThreadDependence &TD; ///< divergence/ThreadDependence.h, analysed once
  /// The distinct launchable block shapes of its launches (launchableBlock), in launch
  /// order, each with its first launch.
  std::vector<KernelShape> Shapes;
  std::vector<KernelLaunch> Launches;
  /// No launch with a known block that can run: a caller assumes a 1-D block.
  bool AssumedShape = false;
  /// The block dimensions every launch fixes at 1 (y, z) also where another is a run-time
  /// value: the analysis takes threadIdx there as 0, and an assumed block keeps them 1.
  std::array<bool, 3> UnitDims{false, false, false};
  /// The parameters every launch of the TU passes as a compile-time constant, with those
  /// values (read before sampled values: the memory model and the race check).
  KnownValues Known;
  /// What the host establishes about the parameters every launch passes a variable for
  /// (an enclosing `if (n % 32 == 0)`, an assertion): divergence/HostFacts.h.
  HostFacts Host;
  /// The block dimensions every launch fixes at compile time while another is a run-time
  /// value (llm.c's `dim3(32, block_y)`, magma's `dim3(nthreads, 1, 1)`), 0 where not
  /// fixed: an assumed block keeps them.
  std::array<unsigned, 3> FixedParts{0, 0, 0};
};

/// The facts every launch of K in the TU establishes on the host about the integer
/// arguments it passes (model/HostFacts.cpp).
HostFacts hostFacts(const KernelInfo &K, const TUFacts &F, ASTContext &Ctx,
                    WritesVarMemo &Writes);

class TuModel {
public:
  /// The model of Ctx's translation unit, built on first use with these options and
  /// shared by every caller until the ASTContext is destroyed. PP (for the nvcc register
  /// source's -I/-D) may be null.
  static TuModel &of(ASTContext &Ctx, const Preprocessor *PP, const ModelOptions &Opts);

  /// The values a host expression passes for a kernel argument at its place in function
  /// Enclosing: a compile-time constant (or a local initialised with one and never
  /// written), or, for a parameter Enclosing never writes, the values every call of
  /// Enclosing in the TU passes for it, followed through its callers in turn (a
  /// dispatcher that recurses over a list of template values hands its arguments down
  /// one call per value; calls that go round a cycle give nothing); empty when any is not
  /// known. Real values before sampled ones: the branch,
  /// memory, race and sync models all read a launch's arguments through this.
  std::vector<int64_t> passedValues(const Expr *Arg, const FunctionDecl *Enclosing);
  /// The launches and kernels (one pass over the AST).
  const TUFacts &facts();
  /// Every launch with its figures (loads the register source on first use).
  const std::vector<LaunchModel> &launches();
  /// The compiler's figures of a kernel: for the analysed arch when the source has it,
  /// else for every arch it has; empty when the source has none (loads the source).
  std::vector<KernelArchFigures> kernelFigures(const KernelInfo &K);
  /// Why the register source has nothing for a kernel ("no entry for '_Z1kv'"), if so.
  std::string kernelMatchNote(const KernelInfo &K);

  /// The global and shared accesses of the TU's kernels whose address varies with the
  /// thread index, each evaluated per warp for every distinct block shape of the kernel's
  /// launches (AssumedBlock when none is known); computed on first use, once per
  /// assumed block.
  const std::vector<AccessModel> &accesses(const ::warplint::divergence::BlockShape &AssumedBlock);

  /// The kernel's thread-dependence analysis and launchable block shapes, made once per
  /// kernel on first use (Kernel: any declaration of a kernel of the TU with a body).
  const KernelAnalysis &kernelAnalysis(const clang::FunctionDecl *Kernel);
  /// How many thread-dependence analyses of a kernel ran in this process, by the model or
  /// anything else (ThreadDependence::analysesOf; 1 once analysed: each kernel is
  /// analysed once however many checks read it).
  unsigned analysesOf(const clang::FunctionDecl *Kernel) const;
  /// The kernels with a body that the analyses cover, in the order of their definitions.
  std::vector<const KernelInfo *> analysedKernels();

  /// Every thread-dependent branch of the TU's kernels with its figures per block shape
  /// and its verdict under these options (model/Branches.h), grouped into findings;
  /// computed on first use for each set of options.
  const std::vector<BranchModel> &branches(const BranchOptions &Opts);

  /// A check reported access A with the figures of its shape Shape: records() exports it
  /// (an AccessRecord with the check's name) for the driver's outputs.
  void reportAccess(const AccessModel &A, size_t Shape, std::string Check, std::string Text,
                    bool Misaligned, const AccessFinding &As);

  /// Checks register advice with the compiler, once per TU (warplint.VerifyAdvice, on by
  /// default; registers from nvcc): every launch whose next step is fewer registers gets
  /// a bound for the blocks the step gains, all in one ptxas run over the file's kept
  /// PTX, and LaunchFigures::Verified the compiler's answer. Problems are said through
  /// takeProblems.
  void verifyAdvice();
  /// The AMD part of verifyAdvice: registers from clang's AMDGPU backend, one backend run
  /// over the file's kept device IR with a bound per kernel (verifyAmdgpuAdvice).
  void verifyAmdAdvice();

  /// The __launch_bounds__ fix-it for a launch whose verified advice is spill-free: an
  /// insertion before the kernel's name, only when every launch of the kernel in the TU
  /// has a known block of at most the bound's threads, the kernel has one declaration, no
  /// bound or register cap of its own, and is not a template with several
  /// instantiations here; once per kernel (the first finding that asks). Why not,
  /// otherwise (in WhyNot, when given).
  std::optional<FixItHint> launchBoundsFixIt(const LaunchModel &L, const LaunchFigures &E,
                                             std::string *WhyNot = nullptr);

  /// The run's options (warplint.*) the model was built with: the assumed block and grid
  /// (AssumedBlock, AssumedGrid) for kernels with no launch of a known shape among them.
  const ModelOptions &options() const { return Opts; }
  /// The barrier and warp-synchronous calls of the TU's kernels that some condition, exit
  /// or partial warp may keep threads from, each evaluated for the block shapes of the
  /// kernel's launches (AssumedBlock when none is known); computed on first use, once per
  /// assumed block.
  const std::vector<SyncModel> &syncCalls(const ::warplint::divergence::BlockShape &AssumedBlock);
  /// A sync check reported sync call S with the figures of Quoted (null: the finding
  /// depends on run-time values): records() exports it (a SyncRecord) for the outputs.
  void reportSync(const SyncModel &S, const ReachFigures *Quoted, std::string Check,
                  std::string Severity, std::string Cause, SourceLocation CauseLoc);

  /// The data races of a kernel (any declaration with a body), evaluated once for the
  /// block shapes of its launches (AssumedBlock when none is known) with the constants
  /// its launches pass, each finding with its record (RaceRecord) and, with an assumed
  /// block, held against assumedAlternatives(); made once per kernel and options.
  const KernelRaces &races(const clang::FunctionDecl *Kernel,
                           const ::warplint::divergence::BlockShape &AssumedBlock,
                           bool ReportBenign);
  /// warplint-data-race reported R: records() exports its record.
  void reportRace(const RaceModel &R) { RacesReported.push_back(&R); }

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
  /// With WARPLINT_DEBUG_ANALYSES set, says on stderr how many thread-dependence analyses
  /// each kernel had (tests/checkers/model-analyses-once.cu).
  ~TuModel();

private:
  /// The table's figures of a mangled name, with the arch rule of kernelFigures.
  std::vector<KernelArchFigures> figuresOf(llvm::StringRef Mangled, std::string *Note) const;
  LaunchModel evaluate(const LaunchSite &L) const;
  LaunchFigures figuresFor(const LaunchSite &L, const KernelInfo *K,
                           const ::warplint::GpuArch &Arch, const KernelFigures *F,
                           bool ByBaseName) const;
  /// The cluster and the run's GPU figures (active clusters, waves) of one evaluation.
  void gridFigures(const LaunchSite &L, const KernelInfo *K, LaunchFigures &E) const;
  /// records() by kind of record: each appends its records (and their impacts) to Out.
  void launchRecords(::warplint::ModelRecords &Out);
  void kernelRecords(::warplint::ModelRecords &Out);
  void accessRecords(::warplint::ModelRecords &Out) const;
  void syncRecords(::warplint::ModelRecords &Out) const;
  void branchRecords(::warplint::ModelRecords &Out) const;

  ASTContext &Ctx;
  const Preprocessor *PP;
  ModelOptions Opts;
  std::optional<TUFacts> Facts;
  /// Whether a function body writes a variable, asked per launch and parameter.
  WritesVarMemo Writes;
  /// passedValues, a parameter's values (Cut: the walk stopped at the depth limit, so the
  /// answer is the walk's, not the parameter's).
  std::vector<int64_t> passedValuesIn(const Expr *Arg, const FunctionDecl *Enclosing,
                                      unsigned Depth, bool &Cut);
  /// The values of parameters whose walk was not cut: the same answer for every kernel
  /// and every order of asking.
  std::map<const clang::ParmVarDecl *, std::vector<int64_t>> ParamValues;
  std::set<const clang::ParmVarDecl *> ParamsWalked;
  std::optional<LoadedRegisters> Registers;
  std::optional<std::vector<LaunchModel>> Launches;
  bool AdviceVerified = false;
  /// The kernels (declarations) a __launch_bounds__ fix-it was handed out for, once each.
  std::set<const FunctionDecl *> FixItsGiven;
  /// By assumed block (x, y, z).
  std::map<std::array<unsigned, 3>, std::vector<AccessModel>> Accesses;
  /// Per kernel (canonical declaration): its analysis and the object that holds it.
  std::map<const clang::FunctionDecl *, std::unique_ptr<ThreadDependence>> Dependences;
  std::map<const clang::FunctionDecl *, std::unique_ptr<KernelAnalysis>> Analyses;
  /// Branch records by the options they were decided with (records() exports the first).
  std::list<std::pair<BranchOptions, std::vector<BranchModel>>> Branches;
  friend class BranchBuilder;
  struct ReportedAccess {
    const AccessModel *Access;
    size_t Shape;
    std::string Check, Text;
    bool Misaligned;
    AccessFinding As;
  };
  std::vector<ReportedAccess> Reported;
  std::map<std::array<unsigned, 3>, std::vector<SyncModel>> Syncs; ///< by assumed block
  /// One launch of a kernel with its function's run-time values sampled together
  /// (jointLaunchSamples): its block, its grid, and the host facts with the integer
  /// arguments it passes.
  struct JointEnv {
    ::warplint::divergence::BlockShape Shape;
    std::array<uint64_t, 3> Grid{1, 1, 1};
    HostFacts Host;
  };
  /// The samples of every launch of K in the TU (Envs, empty when a launch has none:
  /// another API, a grid or block that does not evaluate) and the unknowns they sampled,
  /// by name. Once per kernel.
  struct JointLaunches {
    std::vector<JointEnv> Envs;
    std::vector<std::string> Unknowns;
  };
  const JointLaunches &jointEnvs(const KernelInfo &K);
  std::map<const clang::FunctionDecl *, JointLaunches> Joints;
  struct ReportedSync {
    const SyncModel *Sync;
    const ReachFigures *Quoted;
    std::string Check, Severity, Cause;
    SourceLocation CauseLoc;
  };
  std::vector<ReportedSync> SyncsReported;
  /// Races by kernel (canonical declaration), assumed block and ReportBenign
  /// (model/Races.cpp), and those warplint-data-race reported.
  std::map<std::tuple<const clang::FunctionDecl *, std::array<unsigned, 3>, bool>, KernelRaces>
      Races;
  std::vector<const RaceModel *> RacesReported;
  /// records()'s part for the correctness checks: the reported races' records, and the
  /// impacts of the sync and race findings (model/Races.cpp).
  void correctnessRecords(::warplint::ModelRecords &Out);
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

} // namespace warplint
