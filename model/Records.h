//===- Records.h - the per-TU model exported as plain records (no clang types) -*- C++ -*-===//
//
// What model/TuModel computes for a translation unit, copied once into plain structs: the
// driver's outputs (text summary, JSON, SARIF, GitHub, the HTML report) read these and
// nothing else, so every output quotes the figures the checks quoted. No clang or LLVM
// headers: core's types and the standard library only.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "warplint/core/Occupancy.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// A source position: absolute or database-relative path, 1-based line and column.
struct SourcePos {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// The compiler's answer to register advice (the step to fewer registers), from a what-if
/// run of the same file with a bound placed on the kernel (docs/registers.md): what was
/// asked, what the compiler gave, and core's figures for what it gave.
struct VerifiedAdvice {
  std::string Compiler; ///< "nvcc 13.0"
  /// __launch_bounds__(Threads, MinBlocks); or, where that bound cannot be placed (a
  /// launch of the kernel has more threads), a register cap of MaxRegisters.
  unsigned Threads = 0, MinBlocks = 0, MaxRegisters = 0;
  std::string CapReason; ///< why a cap and not __launch_bounds__
  /// The registers it asked for (the step's count) and what the compiler gave.
  unsigned AskedRegisters = 0;
  std::optional<unsigned> Registers;
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  /// core's answer for the compiler's registers (and the bound) with the launch's shape.
  std::optional<unsigned> BlocksPerSm;
  std::optional<double> Occupancy;
  std::string Error; ///< the what-if run failed (no figures then)
  /// AMD (clang's AMDGPU backend): MinBlocks is the waves per EU (SIMD) of
  /// __launch_bounds__(Threads, WavesPerEu) under HIP's headers, MaxRegisters a VGPR cap
  /// (amdgpu_num_vgpr); the what-if's SGPRs, scratch bytes per lane and spills, and
  /// core's waves per SIMD for what it gave.
  bool Amd = false;
  unsigned Sgprs = 0;
  uint64_t ScratchBytes = 0;
  unsigned VgprSpills = 0, SgprSpills = 0;
  std::optional<unsigned> WavesPerSimd;

  /// "__launch_bounds__(256, 4)", "__maxnreg__(64)" or, on AMD,
  /// "__attribute__((amdgpu_num_vgpr(128)))".
  std::string bound() const;
  bool spills() const {
    return SpillStoreBytes + SpillLoadBytes > 0 || VgprSpills + SgprSpills > 0;
  }
};

/// The note that says what the compiler did with the advice ("with __launch_bounds__(256,
/// 4) nvcc 13.0 gives 63 registers and 0 bytes of spill: 4 blocks/SM, 50% (verified)"),
/// from the record's figures: the one wording for the checks and every output.
std::string verifiedAdviceText(const VerifiedAdvice &V, bool Amd);
/// What a finding stands to gain or lose, stated as what it is (not as a speedup warplint
/// cannot know): the figure in its own unit, and a rank from 0 to 100 that orders findings
/// of different checks (the share, in percent, of the resource the finding wastes; see
/// docs/impact.md for each check's figure and rank).
struct Impact {
  double Value = 0;
  std::string Unit; ///< "warp slots per SM", "sectors per request over the ideal", ...
  unsigned Rank = 0; ///< 0..100
};

/// The impact of one finding of a check at a place (for one arch, or every arch when
/// Arch is empty): the driver gives it to the finding at that place.
struct ImpactRecord {
  std::string Check;
  SourcePos Pos;
  std::string Arch;
  /// The kernel the figure is of (launch and spill findings), as their messages quote it:
  /// of several instantiations launched at one place, the finding's own.
  std::string Kernel;
  Impact Figure;
  /// Text the finding's message contains, where several findings of one check share the
  /// place (a race's other access: two races at one access); empty: any.
  std::string Quote;
};

/// The rank of a share (0..1) of a resource: percent, rounded, clamped to 0..100.
unsigned shareRank(double Share);

/// One kernel launch evaluated for one architecture: the launch as written, the kernel's
/// resources as the model gave them to core, and core's answer.
struct LaunchRecord {
  SourcePos Pos;
  std::optional<std::string> Kernel;        ///< the kernel's name (the callee's text when
                                            ///< not resolvable)
  std::optional<std::string> MangledKernel; ///< its mangled name, if resolvable
  std::string Api;                          ///< "triple-chevron", "cudaLaunchKernel", ...
  std::optional<std::array<uint64_t, 3>> Block;
  std::optional<std::array<uint64_t, 3>> Grid;
  std::string BlockText, GridText;          ///< the expressions as written
  std::optional<uint64_t> DynamicSmemBytes;
  std::optional<std::string> DynamicSmemExpr; ///< when the bytes are not known
  std::string Instantiation;                  ///< "launch<128>" in a template instance
  std::string Enclosing;                      ///< the launching function
  /// A launch through a local function pointer that can hold several kernels: the
  /// pointer's name and how many kernels it can hold (this record is one of them).
  std::string Via;
  unsigned Candidates = 0;
  /// A grid, block or dynamic shared memory size the launching function reads from its
  /// parameters, given one value by every call of it in the TU: how many calls, and the
  /// first one's line (0: none).
  unsigned FromCalls = 0;
  unsigned FromCallLine = 0;

  /// The kernel's declared facts.
  std::optional<uint64_t> LaunchBoundsMaxThreads, LaunchBoundsMinBlocks, MaxNReg;
  bool HasOptin = false;                         ///< cudaFuncSetAttribute(MaxDynamic...)
  std::optional<uint64_t> OptinDynamicSmemBytes; ///< its value, when known

  /// The architecture the figures are for ("sm_86"); empty when none is known.
  std::string Arch;
  /// Static shared bytes per block: ptxas's figure when a register source has the
  /// kernel, else the estimate from the declarations; none when neither is known.
  std::optional<uint64_t> StaticSmemBytes;
  /// Registers per thread from the compiler; none: not counted in the figures below.
  std::optional<unsigned> Registers;
  /// Where the registers came from: "nvcc", "ptxas log 'build.log'", "objects 'k.o'";
  /// empty when they are unknown.
  std::string RegistersSource;
  /// Why the registers are unknown (when they are): "nvcc not found", ...
  std::string RegistersMissing;
  std::optional<uint64_t> SpillStoreBytes, SpillLoadBytes; ///< per thread, from ptxas
  /// A spilling kernel (nvcc): the registers ptxas uses with every cap removed (the
  /// uncapped run), and core's blocks per SM and occupancy for them: what the kernel
  /// would keep without its bound.
  std::optional<unsigned> UncappedRegisters, UncappedBlocksPerSm;
  std::optional<double> UncappedOccupancy;
  /// The compiler's answer to this launch's register advice, when it was verified.
  std::optional<VerifiedAdvice> Verified;
  /// AMD, from the compiler's kernel metadata: architectural VGPRs and accumulation VGPRs
  /// per lane, SGPRs per wave (Registers is then the VGPRs occupancy counts), and scratch
  /// bytes per lane; the backend's own occupancy (waves per SIMD) for its assumed
  /// workgroup sizes.
  std::optional<unsigned> Vgprs, Agprs, Sgprs;
  std::optional<uint64_t> PrivateSegmentBytes;
  /// AMD: VGPRs and SGPRs the backend spilled (.vgpr_spill_count, .sgpr_spill_count).
  std::optional<unsigned> VgprSpills, SgprSpills;
  std::optional<unsigned> BackendWavesPerSimd;
  /// Lanes per warp (32) or wavefront (AMD: 64, or 32 on RDNA) of Arch as analysed.
  unsigned WaveSize = 0;
  /// AMD: the kernel's amdgpu_waves_per_eu minimum (HIP's second __launch_bounds__
  /// argument), when it has one.
  std::optional<uint64_t> WavesPerEuMin;

  /// What core was given (registers 0 when unknown) and the launch shape; the shape is
  /// set when the block and the dynamic shared memory are known and an arch is.
  KernelResources Resources;
  std::optional<LaunchShape> Shape;

  /// core's answer for Resources and Shape (set with Shape).
  std::optional<unsigned> BlocksPerSm, ActiveWarpsPerSm, MaxWarpsPerSm, WarpsPerBlock;
  /// AMD: waves per SIMD (core's OccupancyResult::WavesPerSimd).
  std::optional<unsigned> WavesPerSimd;
  std::optional<double> Occupancy;   ///< 0..1
  unsigned LimiterMask = 0;          ///< limiterBit()s
  std::vector<std::string> Limiters; ///< resourceName()s of LimiterMask
  std::optional<std::string> LaunchError;     ///< why the launch cannot run, if it cannot
  std::optional<std::string> LaunchErrorKind; ///< failureKindName()
  /// The cliffs around the launch, per resource (registers: only when counted).
  std::vector<NextStep> NextSteps;
  /// With the registers unknown: the most registers per thread that keep BlocksPerSm,
  /// and the blocks per SM one register above (none when any count keeps them).
  std::optional<int64_t> RegisterBudget;
  std::optional<int> RegisterBudgetLossBlocks;
  /// What the block size alone allows, registers and shared memory taken away (block and
  /// warp slots): blocks per SM and occupancy. A minimum above it is out of reach for
  /// this block size (warplint-occupancy then says so in a note, not a warning).
  std::optional<unsigned> CeilingBlocksPerSm;
  std::optional<double> CeilingOccupancy;

  /// Thread block cluster (sm_90 on): the shape when known (cudaLaunchKernelEx's cluster
  /// attribute, else the kernel's __cluster_dims__); ClusterText says where it comes from.
  std::optional<std::array<uint64_t, 3>> Cluster;
  std::string ClusterText;     ///< "__cluster_dims__(2, 1, 1)", "clusterDim(2, 1, 1)"
  bool NonPortableCluster = false; ///< cudaFuncAttributeNonPortableClusterSizeAllowed
  /// Grid-level figures for the run's GPU (warplint.Gpu), when one is named, matches the
  /// arch, and the launch's grid and occupancy are known: the product key and SM count,
  /// the active clusters (a cluster launch on a product with a known GPC layout), and
  /// the waves (of clusters when there is one).
  std::string Gpu;
  std::optional<unsigned> GpuSms;
  std::optional<int64_t> MaxActiveClusters;
  std::optional<WaveInfo> Waves;
};

/// A kernel of the translation unit: where its body is (to tie findings to it).
struct KernelRecord {
  std::string Name; ///< qualified, with template arguments, as LaunchRecord::Kernel
  std::string MangledName;
  std::string File;
  unsigned Line = 0, Column = 0; ///< the declaration's name
  unsigned BeginLine = 0;        ///< the definition's first line
  unsigned EndLine = 0;          ///< the body's closing brace
  std::optional<uint64_t> StaticSmemBytes;
  std::optional<uint64_t> LaunchBoundsMaxThreads, LaunchBoundsMinBlocks,
      LaunchBoundsMaxCluster, MaxNReg;
  bool HasOptin = false;
  std::optional<uint64_t> OptinDynamicSmemBytes;
  std::optional<std::string> OptinExpr;
  unsigned LaunchCount = 0;
};

/// One global or shared access a warplint check reported, with the per-warp figures its
/// finding quotes (model/TuModel's access figures: one record per finding, at its place).
struct AccessRecord {
  SourcePos Pos;         ///< the access, where the finding is
  std::string Check;     ///< "warplint-uncoalesced-access" or "warplint-shared-bank-conflict"
  std::string Kernel;    ///< qualified, with template arguments
  std::string Access;    ///< as written: "in[i * 32]"
  std::string Space;     ///< "global" or "shared"
  std::string Kind;      ///< "load", "store" or "load and store"
  unsigned BytesPerLane = 0;
  std::array<unsigned, 3> Block{1, 1, 1};
  bool BlockAssumed = false; ///< no launch with a known block: a 1-D block was assumed
  std::string Values;        ///< the sampled unknowns of the quoted warp ("n = 1000")
  unsigned Warp = 0;         ///< the quoted warp (the median execution) of the block
  /// Lanes per warp (wavefront) and bytes per global segment the figures count in
  /// (NVIDIA: 32 and 32-byte sectors; AMD: the wavefront and the L1 cache line).
  unsigned WaveLanes = 32, SegmentBytes = 32;
  unsigned ActiveLanes = 0;
  std::optional<int64_t> LaneStrideBytes; ///< between consecutive lanes, when one
  /// Global accesses: sectors touched, the fewest that hold the bytes, the distinct bytes,
  /// and how far past a 32-byte boundary contiguous lanes start (a misalignment finding).
  std::optional<unsigned> Sectors, IdealSectors;
  std::optional<uint64_t> BytesRequested;
  std::optional<int64_t> MisalignmentBytes;
  /// Shared accesses: wavefronts, the ideal, the most distinct words in one bank.
  std::optional<unsigned> Wavefronts, IdealWavefronts, ConflictWays;
  /// One finding stands for every place of a kernel that accesses the same object with
  /// the same figures (unrolled or repeated code): where its diagnostic is (this place
  /// for the first), and how many places it stands for.
  unsigned FindingLine = 0, FindingColumn = 0;
  unsigned Places = 1;
  /// "warning", or "note" where the check said it as a note (an assumed block shape or a
  /// sampled run-time value decides the figure, an edge access of a few lanes, or the
  /// check's Severity option).
  std::string Severity = "warning";
  /// Why it is a note rather than a warning, when the check decided so ("" otherwise).
  std::string NoteReason;
};

/// One barrier or warp-synchronous call a sync check reported (warplint-barrier-divergence,
/// warplint-warp-sync-mask), with the threads involved in the evaluation its finding quotes.
struct SyncRecord {
  SourcePos Pos;        ///< the call, where the finding is
  std::string Check;
  std::string Kernel;   ///< qualified, with template arguments
  std::string Call;     ///< "__syncthreads()", "__shfl_down_sync()", "grid_group::sync()"
  std::string Severity; ///< "error", "warning" or "note"
  std::array<unsigned, 3> Block{1, 1, 1};
  bool BlockAssumed = false; ///< no launch with a known block: the assumed block
  /// The threads below are exact for Block (else the finding depends on run-time values
  /// and names its cause only).
  bool Evaluated = false;
  std::string Values; ///< the loop counters of the quoted evaluation ("s = 64")
  /// Barriers: the threads (linear index) that skip it, as [first, last] ranges.
  std::vector<std::array<unsigned, 2>> SkippingThreads;
  /// Masks and tiles: each warp with named lanes that do not take part: [warp, lane bits].
  std::vector<std::array<uint32_t, 2>> AbsentLanes;
  std::optional<uint32_t> Mask; ///< the constant mask, when one
  std::string Cause;            ///< the first cause as the finding words it ("" when none)
  unsigned CauseLine = 0;       ///< where it is written (0: none)
};

/// One access of a data race (RaceRecord::First, Second): where it is, as written, and
/// what it does to the word.
struct RaceAccessRecord {
  SourcePos Pos;
  std::string Access; ///< as written: "s[tid + k]"
  std::string Kind;   ///< "read", "write" or "update" (a read and a write, `+=`)
};

/// One thread of a data race: its index in the block and the block's index along the
/// grid's first dimension (0 for both threads of one block).
struct RaceThreadRecord {
  std::array<int64_t, 3> Thread{0, 0, 0};
  int64_t Block = 0;
  unsigned Linear = 0; ///< x + y * block.x + z * block.x * block.y
};

/// A barrier that some blocks skip: the race of a RaceRecord that has one happens in such a
/// block (the barrier's `if` has a condition the same for every thread of a block, false
/// for those blocks, so the intervals on both sides of it are one there).
struct RaceSkipRecord {
  unsigned Line = 0;       ///< the barrier's line
  std::string Barrier;     ///< "__syncthreads()"
  std::string Condition;   ///< the `if`'s condition as written: "blockIdx.x < N"
  std::string Blocks;      ///< the blocks that skip it: "1", "1-3", "0, 2, 4"
  unsigned BlockCount = 0; ///< how many of the evaluated blocks skip it
  uint64_t GridBlocks = 0; ///< the launch's blocks (0: no launch gives the grid; 2 sampled)
  std::string Values;      ///< the condition's run-time values: "N = 1"
  bool Sampled = false;    ///< only a sampled value (or grid) makes a block skip it
};

/// "block 1 of 2 skips the __syncthreads() on line 5 (blockIdx.x < N, N = 1)": the clause
/// every output words a RaceSkipRecord with.
std::string raceSkipText(const RaceSkipRecord &S);

/// One finding of warplint-data-race (model/TuModel::races): the first pair of accesses
/// of an object that race in one barrier interval, the two threads that collide on the
/// word, the barrier that would separate them and how sure the finding is. The check's
/// message and every output read this record.
struct RaceRecord {
  SourcePos Pos; ///< where the finding is: the second access
  std::string Check = "warplint-data-race";
  std::string Kernel; ///< qualified, with template arguments
  std::string Space;  ///< "shared" or "global"
  std::string Object; ///< the array or variable: "s"
  std::string Word;   ///< the word the threads collide on: "s[64]", "tile[2][3]"
  RaceAccessRecord First, Second; ///< Thread1 makes First's access, Thread2 Second's
  RaceThreadRecord Thread1, Thread2;
  bool CrossBlock = false; ///< the two threads are in different blocks (global memory)
  /// Global memory: two threads of different blocks that collide on the same accesses
  /// too (when Thread1 and Thread2 are of one block): no barrier separates those.
  std::optional<std::array<RaceThreadRecord, 2>> CrossBlockToo;
  bool SameWarp = false; ///< lanes of one warp (a warp-synchronous exchange)
  std::array<unsigned, 3> Block{1, 1, 1};
  bool BlockAssumed = false; ///< no launch with a known block: the assumed block
  /// The barrier that would separate the accesses ("__syncthreads()", "__syncwarp()"),
  /// empty where none can (threads of different blocks); the finding's advice note, which
  /// says where it goes.
  std::string Barrier;
  std::string Fix;
  unsigned LoopLine = 0;    ///< the loop the collision is in (0: none)
  bool LoopCarried = false; ///< one iteration's end against the next one's start
  /// The loop whose every trip has a barrier that orders the two accesses: they race only
  /// when it runs no trip (0: not such a race).
  unsigned ZeroTripLine = 0;
  /// "certain" (for a launch's block and the values its launches pass, or every sampled
  /// value), "depends-on-value" (some values race, others do not), "assumed-shape" (no
  /// launch gives the block: the assumed one).
  std::string Certainty = "certain";
  std::string Values;       ///< the run-time values of the racing evaluation ("offset = 1")
  bool ValuesSampled = false; ///< they are sampled (no launch in the file fixes them)
  std::string Samples;      ///< the sampled values tried ("offset: 1, 32, 33, 1000")
  /// The analysed arch and, for a warp-synchronous race, what it means there (a race
  /// from sm_70 on; lockstep before).
  std::string Arch;
  std::string ArchNote;
  bool Benign = false;   ///< both write the same value (reported with ReportBenign)
  /// Benign as a write-back of the clamp every reader computes (min(M, *p) stored to *p)
  bool ClampWriteBack = false;
  bool Volatile = false; ///< an access is through 'volatile' (which orders nothing)
  unsigned MorePairs = 0; ///< other pairs of accesses to the object racing in the interval
  /// The race is in a block that skips a conditional barrier (the blocks that take it do
  /// not race on these accesses): that barrier and the blocks.
  std::optional<RaceSkipRecord> Skip;
  std::string Severity = "warning"; ///< "warning" or "note"
  std::string NoteReason;           ///< why a note (a note, not a warning: ...)
  /// The finding's impact (raceImpact of this record): the one figure its impact is.
  std::optional<Impact> FindingImpact;
};

/// One thread-dependent branch evaluated for one block shape (BranchRecord::Shapes).
struct BranchShapeRecord {
  std::array<unsigned, 3> Block{1, 1, 1};
  unsigned LaunchLine = 0; ///< the first launch with this block (0: assumed)
  bool Evaluated = false;  ///< false: no sample could be evaluated
  /// The worst sample of the run-time values: the warps (wavefronts; warp executions of
  /// the loops around it) that reach the branch and of them those that diverge.
  uint64_t DivergentWarps = 0, Warps = 0;
  bool Varies = false; ///< the count depends on sampled run-time values ("up to")
  /// Predicted branch efficiency (1 - divergent / reaching; over the loop's trips for a
  /// loop with per-lane trip counts), worst and best over the samples.
  double WorstEfficiency = 1, BestEfficiency = 1;
  bool OverTrips = false;
  /// Lanes of a block that take the branch, fewest and most over the environments, and
  /// the most lanes of one warp on the smaller side.
  int64_t TrueLanesMin = -1, TrueLanesMax = -1;
  unsigned MinorityLanes = 0;
  std::vector<std::string> Sampled; ///< run-time values sampled
};

/// One thread-dependent branch of a kernel (TuModel::branches): the figures per block
/// shape and the verdict of warplint-divergent-branch, silent ones included.
struct BranchRecord {
  SourcePos Pos;       ///< the condition
  std::string Kernel;  ///< qualified, with template arguments
  std::string Kind;    ///< "if", "switch", "?:", "short-circuit", "loop"
  std::string Condition;
  std::string Term;    ///< what the figures are of (warning and note)
  /// "warning", "note" or "silent"
  std::string Severity = "silent";
  std::string Idiom;   ///< silent: the idiom or reason ("bounds-guard", "warp-uniform", ...)
  std::vector<std::string> NoteReasons; ///< note: why
  bool BlockAssumed = false;
  unsigned WaveSize = 32;
  std::vector<BranchShapeRecord> Shapes;
  std::optional<unsigned> Worst; ///< the shape a finding quotes (index into Shapes)
  /// Warning or note: where the finding that stands for this place is, and how many
  /// places it stands for (this place first).
  unsigned FindingLine = 0, FindingColumn = 0;
  unsigned Places = 0;
  /// Warning or note: the impact of that finding (divergenceImpact of the split share of
  /// the worst shape of the record that carries it), the one figure the finding's
  /// impact, JSON, SARIF and the report read.
  std::optional<Impact> FindingImpact;
  /// The efficiency a finding quotes (the worst shape's worst sample), when evaluated.
  std::optional<double> efficiency() const {
    if (!Worst || *Worst >= Shapes.size() || !Shapes[*Worst].Evaluated)
      return std::nullopt;
    return Shapes[*Worst].WorstEfficiency;
  }
};

/// A kernel's predicted branch efficiency for one block, beside ncu's per-kernel figure
/// (report --ncu):
/// over its thread-dependent branches with figures (each at the shape of Block, else the
/// shape its finding quotes; the worst sample of the run-time values), each branch's
/// predicted efficiency weighted by the warps (warp executions) that reach it:
/// sum(warps * efficiency) / sum(warps). Branches an idiom kept from evaluation are
/// counted apart (Unevaluated); warp-uniform branches are not records at all.
struct KernelBranchEfficiency {
  double Efficiency = 1;
  uint64_t Warps = 0, DivergentWarps = 0;
  unsigned Branches = 0, Unevaluated = 0;
};
KernelBranchEfficiency
predictedKernelBranchEfficiency(const std::vector<BranchRecord> &Branches,
                                const std::optional<std::array<uint64_t, 3>> &Block);

/// The model of one translation unit as plain records.
struct ModelRecords {
  std::string Arch;                   ///< the analysed device architecture
  std::vector<LaunchRecord> Launches; ///< source order; one per launch and arch
  std::vector<KernelRecord> Kernels;
  std::vector<AccessRecord> Accesses; ///< the reported accesses, in report order
  std::vector<SyncRecord> Syncs;      ///< the reported sync calls, in report order
  std::vector<RaceRecord> Races;      ///< the reported data races, in report order
  /// Every thread-dependent branch, with the verdicts of the divergent-branch check's
  /// options (none when that check did not run).
  std::vector<BranchRecord> Branches;
  /// Where registers came from for this TU ("nvcc", "ptxas-log", "objects", "none") and,
  /// when from none, why.
  std::string RegisterSource;
  std::string RegistersMissing;
  /// The impact of each finding the checks made (at the finding's place).
  std::vector<ImpactRecord> Impacts;
  /// Problems with the register source a user must hear of (unreadable log, nvcc
  /// failed, cache not writable), each said once.
  std::vector<std::string> Problems;
};

/// core's answer for one kernel configuration: the occupancy (when the shape is known)
/// and the cliffs around it.
struct LaunchEvaluation {
  std::optional<OccupancyResult> Result;
  /// Per resource; with the registers not counted, the register entry is the budget
  /// (evaluated from one register per thread).
  std::vector<NextStep> Steps;
  /// What the block size alone allows (core's blockSizeCeiling; set with a Result that
  /// can launch).
  std::optional<OccupancyResult> Ceiling;
};

/// The one conversion from a kernel's resources and a launch shape to figures, used by
/// the model for every launch and arch.
LaunchEvaluation evaluateLaunch(const GpuArch &Arch, const KernelResources &Res,
                                const std::optional<LaunchShape> &Shape, bool RegistersCounted);

/// Copies an evaluation into a record (Arch, Resources, Shape and the figures).
void setFigures(LaunchRecord &R, const GpuArch &Arch, const KernelResources &Res,
                const std::optional<LaunchShape> &Shape, const LaunchEvaluation &E,
                bool RegistersCounted);

/// The impact figures of each kind of finding, from the records the findings quote (one
/// computation, read by every output; docs/impact.md says how each is computed).
///
/// warplint-occupancy: warp slots per SM the advised next step gains (the step of the
/// limiting resource, registers first, as the check's note names it); 0 when no step of
/// one resource gains. Rank: the slots as a share of the SM's.
std::optional<Impact> occupancyImpact(const LaunchRecord &R);
/// warplint-occupancy-cliff: the most warp slots per SM one cliff of registers or shared
/// memory puts at stake (gained past it, lost one step over it).
std::optional<Impact> cliffImpact(const LaunchRecord &R);
/// warplint-partial-wave: the idle share of the last wave; ranked by the idle share of
/// the GPU's block-slot time over the whole grid.
std::optional<Impact> partialWaveImpact(const LaunchRecord &R);
/// warplint-block-size-warp-multiple: the share of the block's warp lanes that hold no
/// thread.
std::optional<Impact> blockLanesImpact(const LaunchRecord &R);
/// warplint-launch-config-invalid: the launch fails (rank 100).
std::optional<Impact> launchErrorImpact(const LaunchRecord &R);
/// warplint-register-spill: spill bytes per thread (stores and loads); ranked by the share
/// of the thread's values that live in local memory (spilled words over registers plus
/// spilled words).
Impact spillImpact(uint64_t StoreBytes, uint64_t LoadBytes, unsigned Registers);
/// warplint-uncoalesced-access (sectors per request over the ideal) and
/// warplint-shared-bank-conflict (wavefronts over the ideal): ranked by the share of the
/// transactions that the ideal would not need.
std::optional<Impact> accessImpact(const AccessRecord &A);
/// warplint-divergent-branch: the share of warps (warp executions) that split at the
/// branch, each idling its lanes in one arm or the other; ranked by the lane slots idle
/// over both arms (half of a split warp's, for arms of equal length).
Impact divergenceImpact(double SplitShare);
/// The correctness checks (warplint-barrier-divergence, warplint-warp-sync-mask,
/// warplint-data-race) waste no resource: their findings are undefined behaviour. The
/// rank says how sure the finding is (correctnessRank), the value how much of the block
/// it involves:
/// barriers: the share of the block's threads that skip it (0 when run-time values
/// decide who does); masks: the share of the block's threads that the mask names and
/// that do not take part; races: the pairs of accesses of the object that race in the
/// interval.
std::optional<Impact> syncImpact(const SyncRecord &S);
Impact raceImpact(const RaceRecord &R);
/// Each check's impact, one row per check: the one place where a new check names its
/// impact. `docs-places` (tests/docs/check-places.py) fails, naming the check, when a
/// check of checks/*Check.h has no row here, and for a row of no check. A launch check's
/// row holds the function TuModel::launchRecords applies to each launch record; another
/// check's row names the function above that computes it where its record is made (the
/// spill loop, the access, branch, sync and race records).
struct CheckImpact {
  const char *Check;
  /// Launch checks: the impact of the check's finding at a launch, from the launch record.
  std::optional<Impact> (*OfLaunch)(const LaunchRecord &) = nullptr;
  /// The other checks: the function declared above that computes it ("accessImpact").
  const char *Computed = nullptr;
};
/// The table, in docs/impact.md's order.
const std::vector<CheckImpact> &checkImpacts();

/// certain: 100 (as a launch that fails); under an assumed block every alternative block
/// shows too: 95; decided by run-time values: 90; a note (the finding may not hold: an
/// assumed block or a sampled value decides, or the arch runs warps in lockstep): 25;
/// a benign race (every thread writes the same value): 10.
unsigned correctnessRank(const std::string &Certainty, const std::string &Severity,
                         bool Benign = false);

} // namespace warplint
