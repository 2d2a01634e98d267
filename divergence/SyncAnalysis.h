//===- SyncAnalysis.h - which threads reach a barrier or a warp-synchronous call -*- C++ -*-===//
//
// On the SyncCalls of a kernel (divergence/ThreadDependence.h): what kind of
// synchronisation each call is (a block or grid barrier, a warp mask, a tile's collective),
// the conditions and exits that can keep part of the block from it, and, where those are
// compile-time facts of the thread index (loop counters enumerated), which threads of a
// block shape reach it, thread by thread. The checks warplint-barrier-divergence and
// warplint-warp-sync-mask only word what this finds.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/HostFacts.h"
#include "divergence/ThreadDependence.h"

#include "warplint/core/LaneEval.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// What a synchronising call waits for.
enum class SyncKind {
  BlockBarrier, ///< every thread of the block: __syncthreads*, __barrier_sync, block.sync()
  GridBarrier,  ///< every thread of the grid: grid.sync()
  WarpMask,     ///< the lanes its mask names: __shfl*_sync, __ballot_sync, __syncwarp, ...
  Tile,         ///< every thread of its thread_block_tile: tile.sync(), tile.shfl(), ...
  Other,        ///< a coalesced group (the lanes that arrive together), a generic group
};

/// A SyncCall's kind, name ("__syncthreads", "grid.sync()") and, for a warp mask, the mask.
struct SyncClass {
  SyncKind Kind = SyncKind::Other;
  std::string Name;
  const Expr *Mask = nullptr;      ///< WarpMask: the mask argument (null: __syncwarp())
  std::optional<uint32_t> MaskValue; ///< WarpMask: the mask when a compile-time constant
  unsigned TileSize = 0;           ///< Tile: threads per tile
  /// WarpMask, a `__shfl*_sync`: how a lane's source lane follows from its operand (the
  /// third argument: the source lane, the delta or the xor mask).
  enum ShuffleKind { NoShuffle, ShflIdx, ShflUp, ShflDown, ShflXor } Shuffle = NoShuffle;
  /// A shuffle's width argument (its default: 32) when a compile-time power of two from 1
  /// to 32; 0 otherwise (the source lanes are then unknown).
  unsigned ShuffleWidth = 0;
};
SyncClass classifySync(const SyncCall &S, ASTContext &Ctx);

/// The call as its rule sees the exits before it. The mask rule of `__syncwarp` and the
/// vote, match and reduce intrinsics names the non-exited lanes only (CUDA C++ Programming
/// Guide: every non-exited thread the mask names must execute the call), so a lane that
/// returned from the kernel body is no absent lane: those returns are left out. A shuffle
/// keeps them: the same rule lets an exited lane be named, but a lane that reads from an
/// exited lane gets an undefined value, and whether one does depends on the source lanes
/// (evaluateReach compares them). Barriers and tiles keep them too.
SyncCall exitsThatCount(const SyncCall &S, const SyncClass &Class);

/// A condition or exit that may keep part of the block (for a grid barrier, part of the
/// grid) from a call.
struct SyncCause {
  enum KindT { Condition, Exit, TripCount } Kind = Condition;
  const Stmt *Where = nullptr; ///< the if/switch, the return/break/continue, the loop
  const Expr *Cond = nullptr;  ///< the condition as written (an exit: its innermost guard)
  bool Negated = false;        ///< reached (or taken) where Cond is false
  bool Data = false;           ///< it depends on data loaded at a thread-dependent address
  bool BlockOnly = false;      ///< grid barriers: it differs between blocks, not threads
  bool WarpUniform = false;    ///< the same for the lanes of a warp (it splits warps apart)
  bool LaterTrips = false;     ///< an exit of a loop, taken in an earlier trip
  /// A bounds guard `i >= n` (a thread index against a uniform run-time value): the threads
  /// past n in the last block leave; BoundIndex and BoundLimit are its two sides.
  bool BoundsExit = false;
  /// The bound's index is the thread's place in its block (`threadIdx.x >= n`): the
  /// threads past n leave in every block, and only when n is below the block's size.
  bool BoundBlockLocal = false;
  const Expr *BoundIndex = nullptr, *BoundLimit = nullptr;
};

/// Which threads of one block shape reach a call.
struct ReachFigures {
  ::warplint::divergence::BlockShape Shape;
  /// Every cause was evaluated for every thread in every environment (loop counters of
  /// uniform loops enumerated; no run-time value involved).
  bool Evaluated = false;
  /// The first environment in which the threads disagree (or, for a warp mask or tile,
  /// in which named lanes are absent): per linear thread index, whether it reaches;
  /// empty when none was found.
  std::vector<bool> Reaches;
  std::string Values; ///< the loop counters of that environment ("s = 64"), if any
  /// WarpMask and Tile: per warp of that environment, the lanes the mask (or the tiles of
  /// the lanes that reach) name that do not reach: bit l for lane l.
  std::vector<uint32_t> AbsentNamed;
  /// A shuffle after lanes returned from the kernel, its source lanes known: per warp, the
  /// lanes of AbsentNamed that have exited and that a lane reaching the call reads from
  /// (the others of AbsentNamed are named and absent without having exited).
  std::vector<uint32_t> ExitedRead;
  /// A __shfl_down_sync tree (its operand a uniform loop's counter, every trip known)
  /// whose only absent lanes are of ExitedRead: the result of each segment's lane 0 (the
  /// tree's, in a reduction) reads only lanes that reach the call in every trip; the
  /// undefined values are in the other lanes' partial results.
  bool LeaderDefined = false;
  /// Not evaluated (run-time values decide), but with those values sampled (parameters
  /// and loaded values 1, 32, 33, 1000; blocks 0 and 1) no environment keeps a thread, or
  /// a named lane, from the call: a guard that admits only whole warps, a bound a multiple
  /// of the warp by construction.
  bool SampledWhole = false;
  /// Not evaluated, and some sampled environment splits the call while another brings
  /// every thread (or named lane), where a sampled value sizes the groups a condition lays
  /// on the block (a shift amount or a divisor of the thread index: `threadIdx.x >> bits`,
  /// `threadIdx.x / width`): those values, quoted ("'bits'"); empty otherwise.
  std::string DecidedBy;
  bool splits() const { return !Reaches.empty(); }
};

/// The causes that may keep threads from S (for Kind's scope), outermost first; empty
/// when every thread that reaches the enclosing code reaches S.
std::vector<SyncCause> syncCauses(const SyncCall &S, SyncKind Kind,
                                  const std::vector<SymVarInfo> &Vars, ASTContext &Ctx);

/// Evaluates who reaches S for Shape (see ReachFigures); Class says what a warp mask or
/// tile names. A shuffle after returns from the kernel whose source lanes are known (its
/// operand a compile-time value, a counter of a uniform loop enumerated, or a form of the
/// thread index; its width a constant) leaves a named lane out of AbsentNamed where that
/// lane has exited and no lane that reaches the call reads from it; a source lane that
/// does not reach the call is absent. Host (when given) restricts the sampled values of the parameters the host
/// establishes facts about at every launch. Grid (when given) is the launch's grid: gridDim
/// takes its value and blockIdx its first and last block's, instead of a grid of 2.
/// Launched: Shape is a launch's own block (not an assumed one or an alternative to it):
/// when it is one warp, a warp-uniform condition keeps or drops the whole block.
ReachFigures evaluateReach(const SyncCall &S, const SyncClass &Class,
                           const std::vector<SymVarInfo> &Vars,
                           const ::warplint::divergence::BlockShape &Shape,
                           const HostFacts *Host = nullptr,
                           const std::array<uint64_t, 3> *Grid = nullptr,
                           bool Launched = false);

/// "0-15, 48-63": the set positions of Bits (LSB first) as ranges.
/// The lanes of warp W that are threads of a block of Threads threads (bit l for lane l):
/// all 32 but in the last warp of a block whose size is not a multiple of 32.
uint32_t lanesThatExist(unsigned W, unsigned Threads);

std::string laneRanges(uint32_t Bits);
/// "threads 16-31, 48-63, ... (128 threads)", "thread 0": the linear indices where Reaches is Want, as ranges
/// (at most MaxRanges, then how many in all).
std::string threadRanges(const std::vector<bool> &Reaches, bool Want, unsigned MaxRanges = 4);

} // namespace warplint
