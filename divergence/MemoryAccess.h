//===- MemoryAccess.h - a kernel's global and shared accesses, evaluated warp by warp -*- C++ -*-===//
//
// The loads and stores of a kernel whose address is an evaluable function of the thread
// indices: the object (a kernel's pointer parameter, a __device__ array, a __shared__
// array, static or extern), the byte offset of each lane from its base as a symbolic
// form (divergence/ThreadDependence), the bytes per lane, and the conditions under which
// the access runs. evaluateAccess counts per warp, for each block shape, the 32-byte
// sectors a global access touches and the wavefronts a shared access needs (core's
// warplint/core/WarpAccess.h).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/ThreadDependence.h"

#include "warplint/core/WarpAccess.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class MemorySpace : uint8_t { Global, Shared };

/// One load or store of a kernel as written.
struct MemoryAccessSite {
  const Expr *Access = nullptr; ///< the subscript, dereference or member access
  MemorySpace Space = MemorySpace::Global;
  bool Load = false, Store = false;
  unsigned Bytes = 0;        ///< per lane
  std::string TypeName;      ///< the accessed type ("float", "float4")
  std::string ElementName;   ///< the array's element type when a field of it is accessed
  unsigned ElementBytes = 0; ///< the array element's bytes (the struct for a field)
  std::string Object;        ///< the object's name ("in", "tile")
  const VarDecl *ObjectDecl = nullptr;
  bool ExternShared = false; ///< an `extern __shared__` array (dynamic shared memory)
  /// Bytes from the object's base, per lane (64-bit signed).
  ::warplint::divergence::SymRef Offset;
  /// The same offset with the innermost row of a 2-D (or more) shared array one element
  /// longer (`float tile[32][33]` for `[32][32]`); null when not such an array.
  ::warplint::divergence::SymRef PaddedOffset;
  std::string PaddedDecl; ///< "float tile[32][33]"
  /// Every reference to ObjectDecl in the kernel is a full subscript (`tile[y][x]`) that
  /// this list has a PaddedOffset for, or one at the same address for every lane (a
  /// broadcast, which padding cannot make conflict): the padded layout is evaluated for
  /// all of the kernel's accesses of the array. False when the array is used any other way
  /// (its address taken, a row used as a pointer, sizeof, an access not evaluable).
  bool PaddingCoversObject = false;
  /// The known conditions under which the access runs (their conjunction), or null.
  ::warplint::divergence::SymRef Active;
  /// Active includes a switch case's condition (ThreadDependence::underSwitchCase).
  bool UnderSwitchCase = false;
  /// The access runs under an `==` of data with another value (ThreadDependence::
  /// dataMatchOf): the lanes that make it are those whose data match, which Active does
  /// not hold (the figures take every lane the rest of the path keeps); null otherwise.
  const clang::Expr *DataMatch = nullptr;
  /// A field of an array element (`a[i].x`, `p->y`): the element's offset from the
  /// object's base (null for any other access) and the field's offset in the element.
  ::warplint::divergence::SymRef ElementOffset;
  unsigned FieldOffset = 0;
  /// The distinct fields of the same element that the kernel accesses the same way (loads
  /// or stores) in accesses of their own, this one included, when more than one: each is
  /// a load or store of its own unless they make up an aligned vector type (merged then).
  unsigned SiblingFields = 0;
  /// The fields of an element of a vector type (float2, float4, int4, double2) that the
  /// kernel reads in separate expressions (`a[i].x` .. `a[i].w`) and that together make
  /// up the whole element: the compiler emits one vector load of the element, so they are
  /// one access of ElementBytes per lane at ElementOffset (this site stands for them).
  bool MergedFields = false;
  /// The base pointer is loaded from a table of pointers at an index that reads a block
  /// index (`dA_array[blockIdx.z]`, magma's batches): each block reaches an object of its
  /// own through it, and what one block touches is apart from what another does.
  bool BlockObject = false;
  std::vector<unsigned> ObjectBlockVars; ///< the block indices (variables) that pick it
};

/// Values of kernel parameters (by name) known at every launch in the translation unit:
/// each launch passes a compile-time constant, one of these.
using KnownValues = std::map<std::string, std::vector<int64_t>>;

/// The accesses of the kernel TD last analysed whose offset is known and varies with the
/// thread index (an access at one address for every lane is a broadcast: not listed).
std::vector<MemoryAccessSite> collectAccesses(const FunctionDecl *Kernel,
                                              const ThreadDependence &TD, ASTContext &Ctx);

/// Every access of the kernel TD last analysed whose address is known, for the race
/// analysis: also those at one address for every lane (`s[0]`), `__shared__` scalars,
/// pointer fields of struct parameters (`q.p[0]`, object "q.p") and `memcpy` with a
/// constant length (a store at the destination and a load at the source, one site each).
/// Fields are not merged.
std::vector<MemoryAccessSite> collectAllAccesses(const FunctionDecl *Kernel,
                                                 const ThreadDependence &TD, ASTContext &Ctx);

/// One warp's access in one environment: the execution the figures quote.
struct WarpExecution {
  unsigned Warp = 0;
  ::warplint::memory::SectorCount Sectors;      ///< global accesses
  ::warplint::memory::WavefrontCount Waves;     ///< shared accesses
  std::optional<int64_t> LaneStride; ///< bytes from one lane to the next, when one
  /// Every active lane L at FirstOffset + (L - first lane) * the access size: contiguous
  /// but for lanes that take no part (a divergent branch), which is no layout problem.
  bool Contiguous = false;
  /// Not Contiguous, but the active lanes' bytes together are one gapless run (lanes that
  /// repeat or share the elements of a small table): at most one sector past the ideal,
  /// where the run starts.
  bool Gapless = false;
  int64_t FirstOffset = 0;           ///< the first active lane's offset
  std::string Values; ///< the sampled unknowns it was evaluated with ("n = 32"), or empty
  /// sectors / ideal sectors, or wavefronts / ideal wavefronts.
  double ratio() const;
  /// Two lanes or more took part: the execution says how lanes lie apart. One lane (`if
  /// (i < n)` with a sampled n = 1) says only how many lanes run.
  bool hasLanePairs() const { return std::max(Sectors.ActiveLanes, Waves.ActiveLanes) >= 2; }
};

/// The typical execution of an access for one combination of the sampled run-time values
/// it reads (kernel parameters no launch fixes, values loaded from memory).
struct ValueFigure {
  std::string Values; ///< "W = 32"
  WarpExecution Typical;
};

/// The figures of one access for one block shape.
struct AccessFigures {
  bool Evaluated = false;
  /// The pipeline counted: lanes per warp (wavefront) and the bytes of a global segment
  /// (NVIDIA's 32-byte sectors, AMD's cache lines).
  ::warplint::memory::MemoryModel Model;
  unsigned Executions = 0;  ///< warp executions evaluated (sampled warps x environments)
  WarpExecution Typical;    ///< the median execution by ratio
  /// The median of the executions with two lanes or more, where there are such.
  std::optional<WarpExecution> TypicalWithPairs;
  WarpExecution Worst;      ///< the largest ratio
  /// Every execution touched more sectors than its ideal with contiguous lanes starting
  /// at the same distance past a 32-byte boundary (global accesses): that distance.
  std::optional<int64_t> Misalignment;
  /// Shared: the largest ratio of any execution with the rows padded by one element (set
  /// only when every execution could be evaluated padded).
  std::optional<double> PaddedRatio;
  /// The unknowns whose values were sampled rather than known ("W, n"), and the typical
  /// execution for each sampled combination (when the access reads such an unknown).
  std::string SampledNames;
  std::vector<ValueFigure> ByValue;
  /// ByValue holds figures of one parameter's other samples, the rest as sampled
  /// (evaluateAccess's probe): the joint samples alone gave one stride.
  bool Probed = false;
  /// Global accesses whose typical warp is not ideal: the greatest common divisor of the
  /// byte distances between every address the access touches, over all the threads of a
  /// block, the trips of its loops and the block indices (one block's, when the object is
  /// per block: BlockObject), for the sampled values of the unknowns it reads: the
  /// smallest such divisor over those values. None when it cannot be known: a value loaded
  /// inside a loop, or loaded at all where blocks share the object, may put the addresses
  /// anywhere; a lane that cannot be evaluated. At least a segment (32 bytes) and more
  /// than the access's bytes: no two elements the kernel touches through it share a
  /// segment, whatever thread touches which; such a divisor is set only where it changes
  /// with a run-time value no launch here fixes (a leading dimension): the caller's
  /// layout, not one the kernel's own code makes. Under a segment but more than the
  /// access's bytes (one element in every few): the same, where a kernel parameter decides
  /// it, one the launches pass too (FootprintNames names them); where none does, or the
  /// divisor is no more than the access's bytes (a dense footprint), the first such one
  /// found, with no names (nothing more is counted).
  std::optional<int64_t> FootprintStride;
  std::string FootprintNames; ///< the run-time values that decide it ("lda")
  /// Whether the finding depends on a sampled value: some combination's typical ratio is
  /// under MinRatio (the check's threshold), so that for that value there is no finding,
  /// or the lanes' stride changes with the value (`in[i * incx]`: coalesced for incx 1).
  bool valueDependent(double MinRatio) const;
  /// Every combination gives the typical ratio.
  bool sameForAllValues() const;
};

/// Evaluates an access for a block shape: every sampled warp of the block, in sampled
/// environments of the unknowns it reads (kernel parameters, block indices, values loaded
/// at uniform addresses: a few values each; uniform loop counters: a few of their values).
/// Parameters with Known values take those values instead of samples.
AccessFigures evaluateAccess(const MemoryAccessSite &Site, const std::vector<SymVarInfo> &Vars,
                             const ::warplint::divergence::BlockShape &Shape,
                             const ::warplint::memory::MemoryModel &Model = {},
                             const KnownValues *Known = nullptr);

} // namespace warplint
