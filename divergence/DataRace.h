//===- DataRace.h - words two threads touch between the same barriers -*- C++ -*-===//
//
// The race analysis of one kernel: every shared and global access whose address is known
// (divergence/MemoryAccess collectAllAccesses) placed in its barrier interval (the code
// between two __syncthreads() every thread reaches; a loop with a barrier puts the end of
// iteration k and the start of iteration k+1 in one interval), then evaluated lane-exact
// for a block shape: the bytes each thread touches go into one hash map per object and
// sampled environment, and a byte that a second thread touches while either stores is a
// race. The work is linear in accesses x threads x bytes (each byte keeps at most a few
// earlier touches), never pairwise over threads.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/MemoryAccess.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct RaceOptions {
  bool ReportBenign = false; ///< report every thread writing the same value too
  unsigned SmVersion = 86;   ///< the analysed arch (70 and later: no warp lockstep)
};

/// One access with its place among the kernel's barriers.
struct RaceSite {
  MemoryAccessSite Site;
  unsigned Order = 0;        ///< position in the kernel body, in evaluation order
  /// The barrier intervals the access may run in (sorted ids; two accesses whose sets
  /// meet may run unordered). One code position can be in two: the start of a loop body
  /// follows both the code before the loop and the end of the previous iteration, which
  /// are themselves separated by the body's barrier.
  llvm::SmallVector<unsigned, 2> Intervals;
  llvm::SmallVector<unsigned, 2> WarpIntervals; ///< the same, with __syncwarp() a barrier too
  llvm::SmallVector<unsigned, 2> GridIntervals; ///< the same, with only grid barriers
  unsigned Interval = 0; ///< the first of Intervals: a name for the interval, for grouping
  /// Counters of enclosing loops that contain a barrier: every thread is in the same
  /// iteration; Shift -1 for an access after the loop body's last barrier (it shares its
  /// interval with the start of the next iteration).
  struct Tied {
    int Var;
    int Shift;
    const Stmt *Loop;
  };
  std::vector<Tied> TiedLoops;
  /// Counters of enclosing loops with no barrier: each thread may be at any iteration.
  std::vector<std::pair<int, const Stmt *>> FreeLoops;
  const Expr *Value = nullptr; ///< the stored value, for a plain store
  /// Value is a local that holds each thread's own indeterminate bytes
  /// (isIndeterminateLocal in DataRace.cpp): no one value.
  bool ValueIndeterminate = false;
  /// A plain store whose value is a load of memory no access of the kernel writes
  /// (`s[i] = in[j]`): that load's offset in its object. Two threads that store through
  /// this site with equal keys store one value (a word read from the same address).
  ::warplint::divergence::SymRef ValueKey;
  bool ValueKeyShared = false; ///< the loaded object is `__shared__` (one copy per block)
  bool Atomic = false;
  /// Under a condition not known per thread (loaded from memory): not evaluated.
  bool UnderData = false;
  /// In the layout of blocks that skip a conditional barrier (analyzeRaces' skip layouts
  /// only): the access is in the arm those blocks do not take, so they do not run it.
  bool NotRun = false;
};

/// A barrier in one arm of an `if` whose condition is the same for every thread of a
/// block but may differ between blocks or launches (it reads blockIdx, gridDim, blockDim
/// or kernel parameters, never the thread): the blocks whose condition leaves the barrier's
/// arm skip it, and for them the intervals on both sides of the `if` are one.
struct ConditionalBarrier {
  const IfStmt *If = nullptr;
  const CallExpr *Barrier = nullptr; ///< the first block barrier in the barrier's arm
  bool BarrierInThen = true;         ///< the barrier is in the then arm
  ::warplint::divergence::SymRef Cond;
};

/// A race that exists only in blocks that skip a conditional barrier: the barrier, the
/// blocks that skip it and the values that make them skip it.
struct BarrierSkip {
  const IfStmt *If = nullptr;
  const CallExpr *Barrier = nullptr;
  std::string Blocks;      ///< the blocks that skip it: "1", "1-3", "0, 2, 4"
  unsigned BlockCount = 0; ///< how many of the evaluated blocks skip it
  uint64_t GridBlocks = 0; ///< the launch's blocks (0: no launch gives the grid, 2 sampled)
  std::string Values;      ///< the condition's run-time values: "N = 1"
  /// Only a sampled value makes a block skip it: a parameter no launch fixes, or a grid
  /// no launch gives (a block past the first, gridDim). SampledWhat says which.
  bool Sampled = false;
  std::string SampledWhat;
};

/// One thread of the evaluation.
struct RaceThread {
  int64_t Tid[3] = {0, 0, 0};
  int64_t Block = 0; ///< the block's index along the grid's first dimension used
  unsigned Linear = 0;
};

/// Whether two sorted interval sets share an interval.
inline bool intervalsMeet(llvm::ArrayRef<unsigned> A, llvm::ArrayRef<unsigned> B) {
  for (size_t I = 0, J = 0; I < A.size() && J < B.size();) {
    if (A[I] == B[J])
      return true;
    A[I] < B[J] ? ++I : ++J;
  }
  return false;
}

/// Two accesses of one object that two threads make to the same byte with no barrier
/// between them.
struct RaceFinding {
  size_t First = 0, Second = 0; ///< indices into RaceAnalysis::Sites, First <= Second
  RaceThread T1, T2;            ///< T1 makes First's access, T2 Second's
  int64_t Byte = 0;             ///< the byte's offset from the object's base
  std::string Word;             ///< "s[1]", "tile[2][3]", "a"
  bool SameWarp = false;        ///< every collision found is between lanes of one warp
  bool CrossBlock = false;      ///< the threads are in different blocks (global memory)
  /// Global memory: two threads of different blocks that collide on the same pair of
  /// accesses too (when T1/T2 are of one block), for the note that no barrier helps.
  std::optional<std::pair<RaceThread, RaceThread>> CrossBlockToo;
  bool LoopCarried = false;     ///< the collision needs different iterations of a loop
  const Stmt *Loop = nullptr;   ///< that loop
  bool Benign = false;          ///< both write the same value
  /// Benign because the store writes back the clamp every reader computes from the word
  /// (clampWriteBack in DataRace.cpp): either order gives every thread the same value.
  bool ClampWriteBack = false;
  /// The run-time values (kernel parameters) of an environment that races: the launches'
  /// constants where every launch passes one, else sampled values; and whether some
  /// environment does not race.
  std::string Values;
  bool ValueDependent = false;
  /// That environment gives a parameter a sampled value (no launch of the TU fixes it):
  /// the finding rests on a value nobody wrote. Samples lists each such parameter with the
  /// values tried ("offset: 1, 32, 33, 1000").
  bool Sampled = false;
  std::string Samples;
  ::warplint::divergence::BlockShape Shape;
  /// The race needs a block that skips a conditional barrier (the launches' layout of
  /// every block that takes it has none): that barrier and those blocks.
  std::optional<BarrierSkip> Skip;
  /// The two accesses meet only when this loop, whose every trip has a barrier that
  /// orders them, runs no trip (a trip count no constant of the file fixes).
  const Stmt *ZeroTripLoop = nullptr;
};

struct RaceAnalysis {
  std::vector<RaceSite> Sites;
  std::vector<RaceFinding> Findings;
  /// The first call to a function whose body is not in the TU: accesses after it are not
  /// analysed.
  const CallExpr *StoppedAt = nullptr;
  std::string StoppedCallee;
  /// Work done (bytes inserted into the maps), for the speed bench and its bound.
  uint64_t Work = 0;
  bool WorkCapped = false;
};

/// Analyses the kernel TD last analysed for each block shape (threads of Grid's first two
/// blocks for global memory when the grid is known to have more than one block).
RaceAnalysis analyzeRaces(const FunctionDecl *Kernel, const ThreadDependence &TD,
                          ASTContext &Ctx,
                          const std::vector<::warplint::divergence::BlockShape> &Blocks,
                          std::optional<std::array<uint64_t, 3>> Grid, const RaceOptions &Opts,
                          const KnownValues *Known = nullptr);

/// The barrier calls the analysis knows: __syncthreads and its _count/_and/_or forms,
/// __barrier_sync, cooperative groups' sync()/synchronize() of a block or grid.
bool isBlockBarrier(const CallExpr *C);
bool isWarpBarrier(const CallExpr *C);

} // namespace warplint
