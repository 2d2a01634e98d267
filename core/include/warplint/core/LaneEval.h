//===- LaneEval.h - symbolic thread-index expressions, evaluated lane by lane -*- C++ -*-===//
#pragma once

// No clang or LLVM headers here: the evaluator is plain C++ so that it can be unit-tested
// on its own and reused by any host.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint::divergence {

/// The operations of a symbolic integer expression over threadIdx, blockDim and
/// uniform variables.
enum class SymOp : uint8_t {
  Const,     ///< Value
  ThreadIdx, ///< threadIdx.{x,y,z}; Value is the dimension 0..2
  BlockDim,  ///< blockDim.{x,y,z}; Value is the dimension 0..2
  Var,       ///< a variable of the environment; Value is its index
  Cast,      ///< A converted to this node's width and signedness
  Neg,
  BitNot,
  LNot,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  And,
  Or,
  Xor,
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,
  LAnd,
  LOr,
  Select, ///< A ? B : C
  Min,
  Max,
  // Integer models of math functions and bit intrinsics (the operand's width is its own):
  Pow,  ///< A raised to B, truncated toward zero as a float result converted to an integer
        ///< is (A^-k is 0 for |A| > 1); fails past 2^62
  Log2, ///< floor(log2(A)); fails for A <= 0 (log2f of an integer, converted back)
  Ffs,  ///< __ffs: 1 + the index of the lowest set bit of A, 0 for 0
  Clz,  ///< __clz: leading zero bits of A in A's width
  Popc, ///< __popc: set bits of A in A's width
};

struct Sym;
using SymRef = std::shared_ptr<const Sym>;

/// One node of a symbolic expression. Results are normalised to Bits/Unsigned after each
/// operation, so wrap-around follows C's rules for the node's type.
struct Sym {
  SymOp Op = SymOp::Const;
  int64_t Value = 0;
  unsigned Bits = 64;
  bool Unsigned = false;
  SymRef A, B, C;
};

SymRef makeConst(int64_t Value, unsigned Bits = 32, bool Unsigned = false);
SymRef makeThreadIdx(unsigned Dim);
SymRef makeBlockDim(unsigned Dim);
SymRef makeVar(unsigned Index, unsigned Bits = 32, bool Unsigned = false);
SymRef makeCast(SymRef A, unsigned Bits, bool Unsigned);
SymRef makeUnary(SymOp Op, SymRef A, unsigned Bits, bool Unsigned);
SymRef makeBinary(SymOp Op, SymRef A, SymRef B, unsigned Bits, bool Unsigned);
SymRef makeSelect(SymRef Cond, SymRef A, SymRef B, unsigned Bits, bool Unsigned);

/// Values for one evaluation: the thread, the block shape and every variable.
struct Env {
  int64_t Tid[3] = {0, 0, 0};
  int64_t BlockDim[3] = {1, 1, 1};
  std::vector<std::optional<int64_t>> Vars;
};

/// Evaluates E in Env with C semantics; nullopt on division by zero, an out-of-range
/// shift or an unbound variable.
std::optional<int64_t> evaluate(const Sym &E, const Env &Values);

/// True when E reads threadIdx (in any dimension).
bool mentionsThreadIdx(const Sym &E);
/// True when E reads variable Index.
bool mentionsVar(const Sym &E, unsigned Index);
/// Adds the indices of every variable E reads to Out (sorted, unique).
void collectVars(const Sym &E, std::vector<unsigned> &Out);
/// Replaces every occurrence of the node Target (by identity) with Replacement.
SymRef replaceNode(const SymRef &E, const Sym *Target, const SymRef &Replacement);

/// E with every subtree that reads neither threadIdx nor variable LaneVar replaced by its
/// value in Values (evaluated once); subtrees that cannot be evaluated are kept.
SymRef foldUniform(const SymRef &E, const Env &Values, int64_t LaneVar = -1);

/// A thread block shape in threads.
struct BlockShape {
  unsigned X = 1, Y = 1, Z = 1;
  unsigned threads() const { return X * Y * Z; }
  unsigned warps() const { return (threads() + 31) / 32; }
  std::string str() const;
};

/// How a branch condition splits the warps of one block for one environment.
struct WarpSplit {
  bool Evaluated = false;        ///< every active lane had a value
  unsigned Warps = 0;            ///< warps of the block
  unsigned DivergentWarps = 0;   ///< warps whose active lanes disagree
  unsigned MaxMinorityLanes = 0; ///< most lanes on the smaller side in one warp
  /// Most lanes on the smaller side that share one row (threadIdx.y and .z) in one warp:
  /// 1 for a leader of each row (`threadIdx.x == 0` with 16x16 blocks).
  unsigned MaxMinorityLanesPerRow = 0;
  unsigned TrueLanes = 0;        ///< lanes of the block for which the condition holds
  /// The shape of the split inside each row (threadIdx.y and .z) of a divergent warp: the
  /// most runs of equal values along a row's active lanes (2 for `tx < 16`, 3 for a halo
  /// `a <= tx && tx <= b`, 16 for `tx % 2` in rows of 32; a test of the row alone,
  /// `threadIdx.y % 2`, is 1: this measure is for tests on the row's lanes), and whether
  /// the values only rise or only fall along every such row (per-lane trip counts of a
  /// triangular or stride-tail loop: the lanes leave in lane order).
  unsigned MaxRunsPerRow = 0;
  bool InLaneOrder = true;
  std::vector<bool> WarpTrue;    ///< per warp: all lanes true (valid where not divergent)
  /// Per 32-lane warp: its active lanes disagree; the value its active lanes share (valid
  /// where not divergent); its active lanes (0: not counted).
  std::vector<bool> WarpDivergent;
  std::vector<int64_t> WarpValue;
  std::vector<unsigned> WarpLive;
  /// Per 32-lane warp: the lanes that reach the split (live) and, of them, those whose
  /// value is not zero (the lanes that take an `if`): which lanes, not only how many.
  std::vector<uint32_t> WarpLiveMask, WarpTrueMask;
  /// Loops only (LoopSplitter): the evaluations of the loop condition that the warps of
  /// the block make (a warp evaluates it once per trip of its longest-running lane, and
  /// once more to leave), and those of them at which some of the warp's running lanes
  /// leave while others stay (one per distinct trip count below the warp's longest).
  /// A triangular loop splits each warp only in its last trips.
  uint64_t CondEvals = 0, DivergentCondEvals = 0;
  /// Loops only: the most that two active lanes of one warp differ in trip count (0 when
  /// every warp's lanes run alike; 1 for the remainder of work split evenly over the
  /// threads, each lane running floor(n / threads) or one more trips).
  int64_t MaxTripSpread = 0;

  /// The same split counted per wavefront of LanesPerWave lanes (64 on AMD GCN/CDNA):
  /// each wavefront is that many consecutive 32-lane warps, divergent when one of them is
  /// or when they take different values. LanesPerWave <= 32 gives the split itself.
  WarpSplit asWaves(unsigned LanesPerWave) const;
};

/// One expression evaluated for every thread of a block, 32 threads (a group, in the order
/// of the linear thread index) at a time: flattened once, what does not depend on the
/// thread evaluated once per bind(), the rest for a group's 32 lanes at once, and a group's
/// values reused while the lane-independent inputs stay the same. Each thread's value is
/// evaluate() of foldUniform(E, Base) for that thread, as splitByWarp's lanes are.
class WarpEvaluator {
public:
  explicit WarpEvaluator(const Sym &E);
  ~WarpEvaluator();
  WarpEvaluator(const WarpEvaluator &) = delete;
  WarpEvaluator &operator=(const WarpEvaluator &) = delete;
  /// Evaluates for a block of Shape in Base (its Tid and BlockDim are not read). True when
  /// every variable the expression reads holds a value its type represents (or none):
  /// then each thread's value is also evaluate() of E itself, unfolded (a variable out of
  /// its type's range is read as it is by evaluate, wrapped by the fold).
  bool bind(const BlockShape &Shape, const Env &Base);
  /// The values of group G of the bound block (threads 32G to 32G+31); Valid gets the
  /// lanes that have one. Lanes past the block's threads (see threads()) carry no meaning.
  const int64_t *group(unsigned G, uint32_t &Valid);
  /// The lanes of group G that are threads of the bound block.
  uint32_t threads(unsigned G) const;
  /// The thread indices of group G's lanes: 32 of threadIdx.x, then .y, then .z.
  const int64_t *tid(unsigned G) const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// splitByWarp of one condition in many environments and block shapes: the condition is
/// flattened once, what does not depend on the lane is evaluated once per environment,
/// the rest for the 32 lanes of a warp at a time, and a warp's values are reused while
/// the lane-independent inputs stay the same. Same results as splitByWarp.
class WarpSplitter {
public:
  WarpSplitter(const Sym &Cond, bool CompareValues = false, const Sym *Active = nullptr);
  ~WarpSplitter();
  WarpSplitter(const WarpSplitter &) = delete;
  WarpSplitter &operator=(const WarpSplitter &) = delete;
  /// The split (valid until the next call: its storage is reused).
  const WarpSplit &split(const BlockShape &Shape, const Env &Base);
  /// Evaluates another condition from now on; what the active lanes were stays known.
  void setCondition(const Sym &Cond);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// splitLoopByWarp of one loop in many environments and block shapes; the lanes of a warp
/// run trip by trip together. Same results as splitLoopByWarp.
class LoopSplitter {
public:
  LoopSplitter(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex,
               unsigned MaxTrips = 4096, const Sym *Active = nullptr);
  ~LoopSplitter();
  LoopSplitter(const LoopSplitter &) = delete;
  LoopSplitter &operator=(const LoopSplitter &) = delete;
  /// The split (valid until the next call: its storage is reused).
  const WarpSplit &split(const BlockShape &Shape, const Env &Base);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Evaluates Cond for every thread of a block of Shape (lanes of the last warp past the
/// block's threads are inactive) and reports how it splits the warps. Values of Base other
/// than Tid and BlockDim are kept. A condition that is a switch value rather than a truth
/// value is compared by value (different values are different targets).
/// Lanes for which Active (when given) is false do not reach the branch: they are
/// inactive, and a warp with no active lane is not counted.
WarpSplit splitByWarp(const Sym &Cond, const BlockShape &Shape, const Env &Base,
                      bool CompareValues = false, const Sym *Active = nullptr);

/// A loop `for (V = Init; Cond; V = Step)` with V as variable VarIndex: per lane trip
/// counts (at most MaxTrips each); warps whose lanes leave after different trip counts
/// are divergent. Evaluated is false when a lane's trip count could not be computed.
WarpSplit splitLoopByWarp(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex,
                          const BlockShape &Shape, const Env &Base, unsigned MaxTrips = 4096,
                          const Sym *Active = nullptr);

/// The values a uniform loop variable takes (at most MaxValues): nullopt when Init, Cond
/// or Step cannot be evaluated in Base or the loop does not end within MaxValues.
std::optional<std::vector<int64_t>> enumerateLoop(const Sym &Init, const Sym &Cond,
                                                  const Sym &Step, unsigned VarIndex,
                                                  const Env &Base, unsigned MaxValues = 256);

} // namespace warplint::divergence
