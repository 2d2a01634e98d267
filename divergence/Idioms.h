//===- Idioms.h - the branch idioms of the divergence analysis ----*- C++ -*-===//
//
// Predicates that name the usual forms of a thread-dependent branch (its symbolic
// condition from divergence/ThreadDependence, and its arms as written): the model's
// branch verdicts (model/Branches.cpp) keep a branch silent or make it a note by them.
// Each predicate's full description is at its definition in Idioms.cpp.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/ThreadDependence.h"

#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace warplint {

/// A read of a CUDA builtin variable's field, as clang writes `threadIdx.x` (a property
/// getter of the variable): the variable's name and the field's dimension.
struct BuiltinRead {
  llvm::StringRef Var;
  unsigned Dim;
};
std::optional<BuiltinRead> builtinRead(const PseudoObjectExpr *POE);

using SymVars = std::vector<SymVarInfo>;

// --- Forms of symbolic values ---------------------------------------------------------
const ::warplint::divergence::Sym *skipCasts(const ::warplint::divergence::Sym *S);
/// S reads a block index (blockIdx in any dimension).
bool mentionsBlockIdx(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// Two forms that are the same expression node for node, conversions aside.
bool sameUpToCasts(const ::warplint::divergence::Sym *A, const ::warplint::divergence::Sym *B);
/// A size known only at run time (uniform, not a constant, not a loop variable).
bool isRuntimeSize(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// A variable whose value is sampled: a parameter, blockIdx, gridDim, a loaded value.
bool isSampledVar(unsigned V, const SymVars &Vars);
bool mentionsSampledVar(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// The counter of an enclosing uniform loop that steps by adding or subtracting.
bool isSweepingCounter(unsigned V, const SymVars &Vars);
/// A block-local thread index compared with a counter of a loop that sweeps the block.
bool sweepsBlock(const ::warplint::divergence::Sym *Index,
                 const ::warplint::divergence::Sym *Limit, const SymVars &Vars);
/// A block-local thread index against a compile-time limit: the same split in every block
/// (not a warp window's guard, isWindowGuard: that splits only the window holding it).
bool isBlockLocalGuard(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// Non-decreasing in every thread index (with Vars: `i % n`; with Lanes: `tid % 32`).
bool isMonotone(const ::warplint::divergence::Sym *S, const SymVars *Vars = nullptr,
                bool Lanes = false);
/// A warp index: `tid / 32`, `tid >> 5`.
bool isWarpIndex(const ::warplint::divergence::Sym *T);
/// S compares two sides: `==`, `!=`, `<`, `<=`, `>`, `>=`.
bool isComparison(const ::warplint::divergence::Sym &S);
/// A test of the warp index: `tid / 32 == 0`.
bool isWarpIndexTest(const ::warplint::divergence::Sym *S);
/// A test of threadIdx.y or threadIdx.z alone against a uniform value.
bool isRowTest(const ::warplint::divergence::Sym *S);
/// The same for every lane of a warp by its form.
bool isWarpUniformForm(const ::warplint::divergence::Sym *S);
/// A comparison, negation, conjunction or disjunction.
bool isTruthValue(const ::warplint::divergence::Sym *S);
/// `(row < n) & (col < m)`: a bitwise and/or of two truth values.
bool isTruthAndOr(const ::warplint::divergence::Sym *S);
/// The conjuncts of a condition (operands of `&&`, and of `&` between truth values).
void conjuncts(const ::warplint::divergence::Sym *S,
               std::vector<const ::warplint::divergence::Sym *> &Out);
/// The disjuncts of a condition (operands of `||`, and of `|` between truth values).
void disjuncts(const ::warplint::divergence::Sym *S,
               std::vector<const ::warplint::divergence::Sym *> &Out);

// --- Named idioms -----------------------------------------------------------------------
/// A monotone thread index against a uniform limit (`i < n`, `if (i >= n) return;`).
bool isBoundsGuard(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// `U + s * lane`, U a moving multiple of 32 * s: the index of a sweep in warp-wide
/// windows, which a limit splits in the one window that holds it.
bool isWarpWindowIndex(const ::warplint::divergence::Sym *Index, const SymVars &Vars);
/// A lane's bit of a loaded word (`w & (1 << lane)`, `(w >> lane) & 1`), alone or as a
/// conjunct: a packed flag per lane, data-dependent as `if (flag[lane])` is.
bool isLaneBitOfLoad(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// A comparison of a warp window index (isWarpWindowIndex) with a uniform limit: the
/// sweep's tail, not a split fixed to lanes (isBlockLocalGuard is false for it).
bool isWindowGuard(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// One lane in each run of a run-time row length: `(i + 1) % n == 0`.
bool isRowLeaderTest(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// A bounds guard whose limit halves with a loop: a tree reduction's tail.
bool isTreeReductionTail(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// A loop from a thread index stepping by one element: a triangle of trips per lane.
bool isPerLaneStart(const BranchSite &B, const SymVars &Vars);
/// A grid- or block-stride loop.
bool isStrideLoop(const BranchSite &B, const SymVars &Vars);
/// A uniform loop whose condition also holds a tail guard of the thread index.
bool isTailGuardedLoop(const BranchSite &B, const SymVars &Vars);
/// A loop from a uniform start up to a thread-dependent bound.
bool isPerLaneTripCount(const BranchSite &B, const SymVars &Vars);
/// `tid % (2 * s) == 0` with s growing: the interleaved tree reduction.
bool isInterleavedReduction(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// `blockIdx.d == constant` among the conjuncts: the dimensions (bits) pinned to one block.
unsigned pinnedBlockDims(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// `x == v` with x thread-dependent and v a uniform value that is not a constant.
bool isUniformPick(const ::warplint::divergence::Sym *S);
/// `g == 0` or `g != 0` with g a global index: a sum of non-negative terms (thread and
/// block indices, their multiples by positive constants, block and grid sizes, parameters
/// taken as sizes, loop trip numbers) that reads blockIdx. It is 0 only where every term
/// is: the first threads of the first block, in the first trip: one place in the grid.
bool isGridZeroPick(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// The cells on a domain's edge: every thread-dependent disjunct of S is `x == v`, x a
/// coordinate non-decreasing in the thread index and v uniform (`i == 0 || i == NX - 1 ||
/// j == 0 || ... || k == NZ - 1`, a Dirichlet boundary). An equality of a coordinate that
/// reads threadIdx.x holds for at most one lane of a row of threads (Columns); one that
/// reads no threadIdx.x holds for whole rows (Rows), and counts only where the coordinate
/// is the grid's (it reads blockIdx) or v is no compile-time constant (`j == my - 1`):
/// `threadIdx.y == 0` alone is a tile's first row, unless the test or its else-if chain
/// (Siblings: their conditions) also compares the same coordinate with a value that is no
/// compile-time constant (`if (j == 0) ... else if (j == my - 1)`: both ends of the
/// extent). The
/// complement, every thread-dependent conjunct `x != v` (`x != 0 && x != w - 1 && ...`,
/// the interior), is the same partition. Both zero when S is no such test.
/// Flat: an equality of a coordinate recovered from a global flattened index by a size
/// known only at run time (`i == 0 || i == mm - 1 || j == 0 || j == mm - 1` with i = tid %
/// mm and j = tid / mm, SUNDIALS' heat equation): the domain's own rows and columns,
/// O(mm) cells of the O(mm^2), however its rows fall across warps.
struct EdgeCells {
  unsigned Columns = 0, Rows = 0, Flat = 0;
};
EdgeCells edgeCellEqualities(const ::warplint::divergence::Sym *S, const SymVars &Vars,
                             const std::vector<const ::warplint::divergence::Sym *> &Siblings = {});
/// Path without the enclosing conditions that depend on run-time values only.
::warplint::divergence::SymRef
pathWithoutRuntimeConditions(const ::warplint::divergence::SymRef &Path, const SymVars &Vars);

// --- Arms -------------------------------------------------------------------------------
bool isSimpleStmt(const Stmt *S);
/// Plain statements of an arm, or -1 when it holds anything else.
int armStatements(const Stmt *S);
/// Arms short enough that nvcc may predicate them.
bool hasShortArms(const BranchSite &B);
/// A local of the thread (a register candidate).
bool isThreadLocal(const Expr *E, unsigned Depth);
/// An element of one of the thread's own arrays.
bool isThreadLocalElement(const Expr *E);
/// Code that only moves values between registers.
/// With Loads, reads of memory count too (a `?:` arm the compiler predicates).
bool movesRegistersOnly(const Stmt *S, unsigned Depth = 0, bool Loads = false);
/// An `if` (not an early exit) or a `?:` whose arms only move registers.
bool hasRegisterArms(const BranchSite &B);
/// A `?:` whose arms compute values without side effects: loads, arithmetic and calls of
/// functions that do no more (`c ? s[i] : identity`).
bool hasLoadingSelectArms(const BranchSite &B);
/// An `if` with an else whose two arms are each one plain store to the same place
/// (`if (c) m[i] = 1; else m[i] = 0;`), their addresses written alike and their values
/// read from no memory: one store of a select of the two values.
bool storesOnePlace(const BranchSite &B, ASTContext &Ctx);

/// `if (i < v) { t = x[..i..]; x[..i..] = x[..v..]; x[..v..] = t; }`, no else, i and v
/// locals (a thread's index and its partner in a permutation: FFT's bit reversal
/// `v = reverse(i)`, an in-place transpose's `new_pos`): the one thread of each pair that
/// the strict comparison picks swaps the two elements; the other has nothing to do. Not a
/// partner at a fixed offset or bit (`i ^ j`, `i + h`: a bitonic step, whose pairs a
/// thread each can take).
bool isPairSwap(const BranchSite &B);
/// A guard the code skips when a size fills the tile it is padded to: `Dh == Dh_MAX || vi
/// < Dh`, two compile-time sizes (not written as numbers) unequal in this instantiation,
/// and an index against one of them. The lanes past the size have no element of the
/// padded tile: a bounds guard, whatever the index's layout across the lanes.
bool isPaddingGuard(const Expr *E, ASTContext &Ctx);

// --- Shapes of the data: what a branch's idle lanes cost (issue 23) ---------------------
/// An arm that does no work: nothing, or a plain value (a local, a constant, an element of
/// the thread's own array).
bool isIdleArm(const Expr *E);
/// Statements of straight-line work in an arm (register-only calls, nested ifs of such
/// arms), or -1.
int lightStatements(const Stmt *S);
/// S (an arm: a statement, or a block of one) is one plain store (`=`, not a compound
/// assignment) of a value that reads no memory (a constant, the thread's registers):
/// `s[lane] = 0`, not `s[lane] += s[lane + 8]` nor `s[lane] = s[lane + 8]`.
bool storesRegisterValue(const Stmt *S);
/// Both arms of an `if` are a statement or two of straight-line work.
bool hasLightArms(const BranchSite &B);
/// A node's parents, as ASTContext::getParents gives them: the walks up from a branch
/// (insideLoop, isReductionFinalStep, isWarpResultWriteOut) ask through this, so that the
/// branch model can answer from a parent map of the kernel's body alone, with the same
/// answers (model/Branches.cpp, FunctionParents).
using ParentsOf = llvm::function_ref<DynTypedNodeList(const DynTypedNode &)>;
/// S lies inside a loop of its function.
bool insideLoop(const Stmt *S, ParentsOf Parents);
/// The innermost loop around S in its function (for, while, do, range-for), or null.
const Stmt *enclosingLoop(const Stmt *S, ParentsOf Parents);
/// `for (V = A; V op B; V step)` with A, B and the step integer constants (in the
/// instantiation): a loop whose trips the code fixes.
bool hasConstantTrips(const ForStmt *F, const ASTContext &Ctx);
/// A loop of constant trips (hasConstantTrips): the distance from its start to its bound,
/// |B - A|, the most trips it can run (an unrolled vector's, a small block's); also K for
/// `for (j = s; j < s + K; ...)` whatever s is. None for another loop.
std::optional<int64_t> constantTripSpan(const ForStmt *F, const ASTContext &Ctx);
/// A and B are the same expression written twice: the same variables, members, subscripts
/// and operators, constants equal, nothing with a side effect (no increment, assignment or
/// call).
bool sameExprShape(const clang::Expr *A, const clang::Expr *B);
/// S stores each place's own value back (`la[td] = la[td];`, or a block of such): a
/// statement that changes nothing and that the compiler drops. Not through a volatile.
bool isSelfStore(const clang::Stmt *S);
/// The head of `for (V = A; V op B; step of V)` (A's declaration or assignment, a
/// comparison with V on either side, `++V`, `V--`, `V op= K`): V, A, the bound B, the
/// comparison as if V were on its left, and the step. None for another head.
struct ForHead {
  const VarDecl *V = nullptr;
  const Expr *Init = nullptr;
  const Expr *Bound = nullptr;
  BinaryOperatorKind Op = BO_LT;
  const Expr *Inc = nullptr; ///< the UnaryOperator or CompoundAssignOperator on V
};
std::optional<ForHead> forHead(const ForStmt *F);
/// `for (V = A; V + K op B; V step)` (SGEMM_CUDA's tile fill, `offset + rowStride <= BM`):
/// the head of `V op B` with its offset K apart (Offset); none for another head.
std::optional<ForHead> forHeadWithOffset(const ForStmt *F, const Expr *&Offset);

/// One side does no work: an `if` with no else (not an early exit), a `?:` with an idle
/// arm, a loop condition.
bool isOneArmed(const BranchSite &B);
/// The `if` whose condition the branch is or is an operand of (`if (a && b)`: the
/// short-circuit operand `a`); null for any other branch.
const IfStmt *enclosingIf(const BranchSite &B, ParentsOf ParentsFn);
/// A short-circuit operand whose `&&` or `||` gives a value, not a branch: a local's
/// initialiser or an assignment to a local (`bool p = bin < n && s[bin] > m;`), its later
/// operands computing values without side effects (loads and arithmetic). The compiler
/// predicates the loads and computes the value; no lane waits for another.
bool isValueShortCircuit(const BranchSite &B, ParentsOf ParentsFn);
/// A fill of a shared tile's edge (issue 23, HeCBench's FDTD3d, metropolis,
/// marchingCubes): an `if` with no else whose condition compares a thread index
/// (`threadIdx.d`, or a local that is one) with a compile-time constant (`ltidx <
/// RADIUS`, `threadIdx.y == 0`, `threadIdx.z == BZ - 1`; `&&` of such), and whose arm
/// writes only `__shared__` arrays and the thread's locals (nested such `if`s too), with
/// no loop, barrier, atomic or jump: the halo a stencil's tile loads at its edge.
bool isTileEdgeFill(const BranchSite &B, ASTContext &Ctx);
/// S reads the thread index only as the lane's place in a group of K lanes (`t % K`, K
/// dividing 32), through sums, uniform multiples and comparisons: each group of K lanes
/// is a row of its own (a head's slice of a warp).
bool readsGroupLaneOnly(const ::warplint::divergence::Sym *S);
/// Every thread-dependent conjunct of S compares the row and the column of one flattened
/// index (`idx / n < idx % n`, each side up to a uniform offset; the row may be taken
/// modulo the width, `(idx / n) % n`, a batch of square matrices): a test against the
/// diagonal of a matrix of rows of n threads, whose lanes split into one contiguous range
/// in each row of the matrix, however many rows a warp holds.
bool isRowColumnTest(const ::warplint::divergence::Sym *S);
/// A conjunct of S is an equality of a thread-dependent term with the counter of an
/// enclosing block-uniform loop (`for (k...) if (t % 4 == k)`): each lane meets it in one
/// trip at most, the loop handing the arm out to the lanes in turns.
bool isTurnTest(const ::warplint::divergence::Sym *S, const SymVars &Vars);
/// S reads a lane index of the warp (`t % 32`, `t & 15`).
bool mentionsLaneForm(const ::warplint::divergence::Sym *S);
/// `lane >= C` with lane the thread's place in its warp (`t & 31`, `t % 32`) and C a
/// compile-time count inside the warp: the lanes past a packing of C (`if (lane >= 3 * 9)
/// return;`, three 3x3 blocks to a warp).
bool isLanePaddingTest(const ::warplint::divergence::Sym *S);
/// A lane index against a compile-time limit (`lane < 16`): a lane role in every warp.
bool isLaneRoleTest(const ::warplint::divergence::Sym *S);
/// The split's boundary is set by the data: an ordered comparison that reads a run-time
/// value or an additive loop counter.
bool isDataBoundary(const BranchSite &B, const ::warplint::divergence::Sym *CondS,
                    const SymVars &Vars);
/// `if (tx < 16 && tx + 16 < M) s[tx] += s[tx + 16];`: an unrolled step of a block's tree.
bool isUnrolledTreeStep(const BranchSite &B, const ::warplint::divergence::Sym *CondS,
                        ASTContext &Ctx);
/// The last level of a block's two-level reduction: `__syncthreads(); if (tx < K) { sum =
/// 0; for (i...) sum += s[i][tx]; out[tx] = sum; }`, an `if` on the thread index with no
/// else, after a barrier, whose arm sums array elements in a loop: each of the first K
/// threads reduces what the block wrote; the others have no result to compute. The first
/// row (`threadIdx.y == 0`) counts as the first threads, and an arm that loads the
/// block's partials from an array and sums them by a shuffle loop as a sum.
bool isReductionFinalStep(const BranchSite &B, const ::warplint::divergence::Sym *CondS,
                          ParentsOf Parents);
/// The write-out after a warp's reduction: `r = cg::reduce(warp, v, op); if (lane < K)
/// out[i + lane] = r[lane];`, an `if` with no else on the first K lanes (K <= 32), whose
/// arm only stores register values, right after a shuffle or warp reduce (the statements
/// between only set locals): every lane holds the results; K of them exist.
bool isWarpResultWriteOut(const BranchSite &B, const ::warplint::divergence::Sym *CondS,
                          ParentsOf Parents);
/// The write-out of a result by the threads the code picks by name at the kernel's end:
/// an `if` with no else whose condition is `g == v` (g a thread, lane or group index, v
/// uniform) beside uniform terms only, after a barrier or warp collective, with nothing
/// after it but the end of the kernel, and an arm of straight-line work: no barrier or
/// collective, no branch or loop of the arm or of the functions it calls on a value that
/// splits the threads (Sites: the kernel's), and no loop but one of constant trips. The
/// others are done; the arm runs once, a bounded few instructions, masked, with no
/// second path (FasterTransformer's `if (vo == 0 && ...)` after the
/// value groups' tree).
bool isFinalGroupWriteOut(const BranchSite &B, const ::warplint::divergence::Sym *CondS,
                          ParentsOf Parents, const std::vector<BranchSite> &Sites,
                          const FunctionDecl *Kernel, ASTContext &Ctx, const SymVars &Vars);
/// The condition moves with the counter of an enclosing loop that sweeps the block.
bool isSweptCondition(const ::warplint::divergence::Sym *S, const SymVars &Vars);

/// Adds to Dims (bit D for threadIdx.D) the threadIdx dimensions S reads, directly or
/// through the loop variables it reads.
void collectTidDims(const ::warplint::divergence::Sym *S, const SymVars &Vars, unsigned &Dims,
                    std::vector<bool> &SeenVars);

} // namespace warplint
