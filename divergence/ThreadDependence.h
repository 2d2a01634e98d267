//===- ThreadDependence.h - which values of a kernel differ between threads -*- C++ -*-===//
#pragma once

#include "warplint/core/LaneEval.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <array>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warplint {
using namespace clang;

/// How far a value may differ between the threads of a block, from least to most.
enum class Variance : uint8_t {
  Uniform,     ///< the same for every thread of the block (constants, parameters, blockIdx)
  WarpUniform, ///< the same within a warp (tid / 32 when warps do not straddle rows)
  LaneVarying, ///< may differ between the lanes of a warp (threadIdx.x, lane ids)
  Data,        ///< loaded from memory at a thread-dependent address, or unknown
};

inline Variance join(Variance A, Variance B) { return A < B ? B : A; }
const char *varianceName(Variance V);

/// The thread-dependent part of a value as a sum of terms (a term: a coefficient and a
/// product of thread indices and uniform factors, named by its printed form): the value is
/// a uniform value plus this sum. Two values with equal parts differ by a uniform amount.
struct ThreadPart {
  std::map<std::string, int64_t> Terms;
  bool operator==(const ThreadPart &O) const { return Terms == O.Terms; }
};

/// The abstract value of an expression: its variance and, where known, its symbolic form.
struct AbsVal {
  Variance V = Variance::Uniform;
  ::warplint::divergence::SymRef S;
  /// Where S is unknown (a pointer, a local a loop writes) and V is no Data: the value's
  /// thread-dependent part when known (in bytes for a pointer), else null.
  std::shared_ptr<const ThreadPart> T;
  /// V is LaneVarying or Data, yet the value is the same at the same lane of every warp
  /// of the block: a function of the lane index and block-wide values only (a load of
  /// `ptr[lane]` with a block-wide `ptr`), so that a shuffle from one fixed lane gives the
  /// whole block one value. False claims nothing.
  bool LaneFn = false;
  /// Lane symmetry (issue 23, twentieth session). V is LaneVarying or Data, yet the value
  /// is the same at lanes l and l ^ m for every m made of the lane bits in LaneInv (15:
  /// each half-warp holds one value, AMGX's `shfl(v, 16 * (lane / 16) + k)`; 16: the two
  /// half-warps hold the same values lane for lane). 31 is one value for the warp, and V
  /// is then WarpUniform. 0 claims nothing.
  uint8_t LaneInv = 0;
  /// The lane offset (one lane bit) of XorOf and of EqOf.
  uint8_t XorBy = 0, EqBy = 0;
  /// Identities for the symmetry rules, 0 for none. Id names this one value: the same Id
  /// is the same value in every lane. XorOf: this value is a `__shfl_xor_sync` of value
  /// XorOf by XorBy (lane l holds that value's word of lane l ^ XorBy). DepOf: a function
  /// of value DepOf and warp-uniform values alone. EqOf: the test `X == (X of lane l ^
  /// EqBy)` of value X = EqOf, or its truth converted: where it holds, X is the same at
  /// lanes l and l ^ EqBy.
  uint32_t Id = 0, XorOf = 0, DepOf = 0, EqOf = 0;
};

/// A variable of the symbolic environment (a uniform unknown, or a loop variable).
struct SymVarInfo {
  enum KindT { Param, BlockIdx, GridDim, Opaque, Loop, Iteration } Kind = Opaque;
  std::string Name;
  /// Param: the kernel parameter's position (a launch's argument of that position).
  int ParamIndex = -1;
  /// Param: every launch passes a compile-time value (the check sets it): the variable is
  /// given those values, and is no run-time size.
  bool Launched = false;
  /// Loop: `for (V = Init; Cond; V = Step)`, Cond and Step in terms of this variable.
  ::warplint::divergence::SymRef Init, Cond, Step;
  Variance LoopVariance = Variance::Uniform; ///< Loop: variance of Init, Cond and Step
  bool Shrinking = false;                    ///< Loop: Step divides or shifts right
  bool Growing = false;                      ///< Loop: Step multiplies or shifts left
  /// Opaque: loaded (somewhere) inside a loop of the kernel, so that it may take another
  /// value in each trip; false: loaded once per thread, one value for the whole block.
  bool InLoop = false;
};

/// A branch of a kernel whose condition is not uniform over the block.
struct BranchSite {
  enum KindT { If, Switch, Conditional, ShortCircuit, Loop } Kind = If;
  const Stmt *Branch = nullptr;  ///< the statement or expression that branches
  const Expr *Cond = nullptr;    ///< the condition as written
  AbsVal CondVal;                ///< for a switch: the case target, not the value
  const Expr *Term = nullptr;    ///< the first thread-dependent term of the condition
  ::warplint::divergence::SymRef TermSym; ///< its symbolic form, where known
  /// Loop with an induction variable: its index in the environment (a Loop variable).
  int LoopVar = -1;
  bool EarlyExit = false; ///< `if (c) return;` with no else: a tail guard shape
  /// The known conditions under which the branch is reached (their conjunction), or null.
  ::warplint::divergence::SymRef Path;
};

/// A condition under which a statement is reached: an arm of an enclosing `if`, the
/// condition of an enclosing loop (in the current trip), the body of a `switch`.
struct Guard {
  enum KindT { If, Loop, Switch } Kind = If;
  const Stmt *Branch = nullptr; ///< the if, loop or switch
  const Expr *Cond = nullptr;   ///< its condition as written (null: a loop without one)
  AbsVal Val;                   ///< the condition's value (a switch: the value switched on)
  bool Negated = false;         ///< the else arm: reached where Cond is false
  int LoopVar = -1;             ///< Loop: its induction variable (index into vars()), if any
};

/// A `return`, `break` or `continue` that a thread may have taken before it reaches a later
/// statement, with the conditions under which it is taken.
struct ExitSite {
  const Stmt *Exit = nullptr;
  std::vector<Guard> Guards;
  unsigned Depth = 1;      ///< the call depth it leaves (1: the kernel, 2: a callee of it, ...)
  bool LaterTrips = false; ///< a break or return of an enclosing loop, taken in an earlier trip
};

/// The text of an inline assembly statement, as either LLVM major gives it.
std::string asmText(const clang::GCCAsmStmt *A);

/// A call of a barrier or a warp-synchronous function (`__syncthreads`, `__shfl_sync`, a
/// cooperative group's `sync()` or collective) and how the threads reach it.
struct SyncCall {
  const CallExpr *Call = nullptr;
  /// The calls of device functions of the TU that lead to it from the kernel body,
  /// outermost first (empty: in the kernel body).
  std::vector<const CallExpr *> Via;
  std::vector<Guard> Guards;   ///< the enclosing conditions, outermost first, across Via
  std::vector<ExitSite> Exits; ///< the exits a thread may have taken before it
  std::vector<AbsVal> Args;    ///< the call's arguments
  /// A call in the kernel body whose value goes to a local that the kernel only stores,
  /// by stores under known conditions: their disjunction, where a lane's value is kept
  /// (ThreadDependence::resultKept); null otherwise.
  ::warplint::divergence::SymRef Kept;
};

/// Whether a call is one SyncCall records: the CUDA barrier and warp-synchronous
/// intrinsics (__syncthreads*, __barrier_sync, __syncwarp, __shfl*_sync, __ballot_sync,
/// __any/__all/__uni_sync, __match_*_sync, __reduce_*_sync) and the synchronising calls of
/// cooperative_groups (sync, synchronize, shfl*, ballot, any, all, match_*, reduce).
bool isSyncCallee(const FunctionDecl *FD);
/// The read-only and cache-hinted loads of one value at a pointer (`__ldg`, `__ldcg`,
/// `__ldca`, `__ldcs`, `__ldlu`, `__ldcv`).
bool isCacheHintedLoad(llvm::StringRef Name);

/// Computes the variance and symbolic form of every value of a kernel by walking its body
/// in order (flow-sensitive on locals; loops iterated to a fixpoint; calls to device
/// functions defined in the TU evaluated with their arguments), and records each branch
/// whose condition is not uniform.
class ThreadDependence {
public:
  explicit ThreadDependence(ASTContext &Ctx) : Ctx(Ctx) {}
  /// The block dimensions (0..2) whose extent every launch of the kernel fixes at 1 (set
  /// before analyze): there threadIdx is 0 and blockDim 1, uniform constants, also when
  /// another dimension of the launches is a run-time value (`dim3 threads(n, 1, 1)`).
  void setUnitDims(std::array<bool, 3> U) { UnitDims = U; }
  /// Every launch's block is a multiple of 32 threads wide in x: a warp lies in one row,
  /// so threadIdx.y and threadIdx.z are the same in a warp.
  void setWarpRows(bool W) { WarpRows = W; }
  /// Every launch's block is exactly 32 threads wide in x (`dim3(32, warps)`): threadIdx.x
  /// is the lane, the same at the same lane of every warp.
  void setLaneRows(bool L) { LaneRows = L; }
  /// For each block dimension, the kernel parameter (its position) that every launch
  /// passes the block's size in that dimension as (-1: none): the parameter reads as
  /// blockDim there, so `threadIdx.x >= n` with n == blockDim.x is never true.
  void setBlockDimParams(std::array<int, 3> P) { BlockDimParams = P; }
  const std::array<bool, 3> &unitDims() const { return UnitDims; }
  /// Whether the analysed code (the kernel and the device functions it calls) reads
  /// threadIdx in dimension Dim (0..2) where the launches leave that dimension open: a
  /// kernel that reads threadIdx.y is written for a 2-D block.
  bool readsThreadIdx(unsigned Dim) const { return Dim < 3 && ThreadIdxRead[Dim]; }
  /// Analyses one kernel; branches() and vars() describe it afterwards.
  void analyze(const FunctionDecl *Kernel);
  /// How many times any ThreadDependence of this process analysed the kernel (any of its
  /// declarations) since forgetAnalyses: for the test that each kernel is analysed once.
  static unsigned analysesOf(const FunctionDecl *Kernel);
  /// Forgets the kernel's count (its AST is going away; the address may be reused).
  static void forgetAnalyses(const FunctionDecl *Kernel);
  const std::vector<BranchSite> &branches() const { return Branches; }
  const std::vector<SymVarInfo> &vars() const { return Vars; }
  /// The variance recorded for an expression of the kernel body (Uniform if none).
  Variance varianceOf(const Expr *E) const;
  AbsVal valueOf(const Expr *E) const;
  /// The known conditions under which a memory access of the kernel body (a subscript, a
  /// dereference, a member access through a pointer) runs, as their conjunction; null
  /// when none is known.
  ::warplint::divergence::SymRef pathOf(const Expr *E) const;
  /// The `==` of data with another value that the access E runs under (`if (col == row)
  /// v = vals[...]`, `col` loaded at a thread-dependent address, `row` not a compile-time
  /// constant): the innermost `if` whose condition is such a test or a conjunction holding
  /// one. The lanes that make the access are those whose data match, as many as the data
  /// decide (one, for a search's hit); null when there is none.
  const Expr *dataMatchOf(const Expr *E) const;
  /// Whether the path of the access E has the condition of a `case` (or `default`) label
  /// of a switch: the lanes that run it are the share of the warp that case selects.
  bool underSwitchCase(const Expr *E) const;
  /// The barrier and warp-synchronous calls reached from the kernel (isSyncCallee), once
  /// per path of helper calls, with the conditions and exits before each.
  const std::vector<SyncCall> &syncCalls() const { return SyncCalls; }
  /// Symbolic linear thread index x + y*bx + z*bx*by.
  static ::warplint::divergence::SymRef linearTid();
  /// The environment variable of a loop statement's counter (SymVarInfo::Loop) and of its
  /// iteration number (SymVarInfo::Iteration, a lane-varying start), -1 where none.
  int loopVarOf(const Stmt *Loop) const;
  int iterationVarOf(const Stmt *Loop) const;

private:
  struct State {
    llvm::DenseMap<const VarDecl *, AbsVal> Locals;
    bool Terminated = false;
    std::vector<::warplint::divergence::SymRef> Path; ///< known enclosing conditions
    std::vector<Guard> Guards;   ///< every enclosing condition (SyncCall)
    std::vector<ExitSite> Exits; ///< exits taken on the way here (SyncCall)
  };
  struct Frame {
    const FunctionDecl *Fn = nullptr;
    std::vector<AbsVal> Returns;
    /// The guards of the caller's state (the callee's own guards follow them).
    size_t GuardBase = 0;
    /// Per parameter, what a writable reference parameter holds where the callee returns
    /// (joined over its returns and its end), with the variance of the callee's own
    /// conditions around each return; unset for another parameter or none seen.
    std::vector<std::optional<AbsVal>> Outs;
    /// The one store of each pointer parameter that is an output only (`*dst = v`, a
    /// statement of the body's own, no return before it), by parameter index; and the
    /// value it stored, once walked.
    llvm::DenseMap<const BinaryOperator *, unsigned> OutStores;
    std::vector<std::optional<AbsVal>> PointerOuts;
  };
  /// Joins the values of the current callee's writable reference parameters in St into
  /// its frame's Outs (at a return, or where the body ends).
  void noteOuts(const State &St);

  void walk(const Stmt *S, State &St);
  void walkDecl(const DeclStmt *DS, State &St);
  void walkIf(const IfStmt *If, State &St);
  void walkSwitch(const SwitchStmt *Sw, State &St);
  void walkAsm(const GCCAsmStmt *A, State &St);
  void walkLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond, const Expr *Inc,
                const Stmt *Body, State &St);
  int loopCounter(const Stmt *Loop, const VarDecl *IV, const Expr *Cond, const Expr *Inc,
                  State &St, State &L);
  void loopFixpoint(const Expr *Cond, const Expr *Inc, const Stmt *Body,
                    const llvm::SmallPtrSet<const VarDecl *, 8> &Assigned, const VarDecl *IV,
                    State &L);
  AbsVal eval(const Expr *E, State &St);
  bool sameTripsByOffset(const ForStmt *For, const VarDecl *IV,
                         const llvm::SmallPtrSet<const VarDecl *, 8> &Assigned, State &St);
  AbsVal evalImpl(const Expr *E, State &St);
  AbsVal evalCast(const CastExpr *CE, State &St, unsigned Bits, bool Uns);
  AbsVal evalBinary(const BinaryOperator *B, State &St, unsigned Bits, bool Uns);
  AbsVal evalUnary(const UnaryOperator *U, State &St, unsigned Bits, bool Uns);
  AbsVal evalCall(const CallExpr *C, State &St);
  std::optional<AbsVal> hipIndexCall(const CallExpr *C, const FunctionDecl *FD,
                                     const std::string &Name);
  AbsVal specialRegister(StringRef Reg);
  std::optional<AbsVal> cooperativeGroupsCall(const CallExpr *C, const std::string &Name,
                                              unsigned Bits, bool Uns);
  /// Whether a shuffle's mask names the whole warp: a constant, or a parameter given one.
  bool fullMask(const Expr *M, const State &St) const;
  /// Whether a call of Def is walked at the current depth (inlineCall's depth rule).
  bool walkable(const FunctionDecl *Def);
  llvm::DenseMap<const FunctionDecl *, bool> SmallBodies; ///< AST only: kept across kernels
  std::optional<AbsVal> inlineCall(const CallExpr *C, const FunctionDecl *FD,
                                   const std::vector<AbsVal> &Args, State &St, unsigned Bits,
                                   bool Uns);
  AbsVal evalBuiltinVar(const Expr *E);
  /// threadIdx, blockIdx, blockDim or gridDim (Var) in dimension Dim (0..2).
  AbsVal builtinVar(StringRef Var, unsigned Dim);
  AbsVal load(const Expr *E, Variance Address, bool LaneFn = false);
  /// Whether A is the same at the same lane of every warp (a uniform value, a value
  /// marked LaneFn, or a symbolic form that reads the thread only as its lane).
  bool laneFunction(const AbsVal &A) const;
  bool laneFunctionSym(const ::warplint::divergence::Sym *S) const;
  /// Out with LaneFn set when it varies and every operand is a lane function, and with
  /// the lane symmetry its operands give it (LaneInv, DepOf, a new Id).
  AbsVal withLanes(AbsVal Out, std::initializer_list<const AbsVal *> Operands) const;
  /// The lane bits A is the same under (AbsVal::LaneInv): 31 for a value the same in the
  /// warp, else its LaneInv, or with Compute that of its symbolic form (laneInvariance).
  uint8_t laneInv(const AbsVal &A, bool Compute = false, int64_t Mod = 0) const;
  /// The lane bits under which S, a function of the thread and uniform unknowns, takes the
  /// same value (modulo Mod when not 0) at lanes l and l ^ bit, in every block shape the
  /// kernel may have and for sampled unknowns; 0 where it cannot be evaluated.
  uint8_t laneInvariance(const ::warplint::divergence::Sym *S, int64_t Mod) const;
  /// Out, a value computed anew: a new Id, and WarpUniform where LaneInv is the whole warp.
  void settleLanes(AbsVal &Out) const;
  /// The symmetry of an order-free operation of a value and its own xor shuffle
  /// (`X == __shfl_xor_sync(m, X, 16)`, `a | __shfl_xor_sync(m, a, 8)`): the same at l
  /// and l ^ offset, besides what both operands share; with Eq, Out is that equality test
  /// (EqOf). In `A && B` with B such a test on X and A a function of X and warp-uniform
  /// values, A too agrees between l and l ^ offset wherever B holds.
  void laneSymmetry(bool Commutes, bool Eq, bool And, const AbsVal &L, const AbsVal &R,
                    AbsVal &Out) const;
  /// Out, the result of the warp intrinsic N, with the lane symmetry a shuffle gives it.
  AbsVal shuffleLanes(StringRef N, const std::vector<AbsVal> &Args, AbsVal Out) const;
  mutable uint32_t NextId = 0;
  mutable std::unordered_map<std::string, uint8_t> LaneInvMemo;
  AbsVal evalCastOf(const CastExpr *CE, const AbsVal &Sub, unsigned Bits, bool Uns);
  /// `__shfl*_sync(mask, v, src[, width])` where lane functions decide it, else none.
  std::optional<AbsVal> shuffle(StringRef N, const std::vector<AbsVal> &Args) const;
  AbsVal readVar(const VarDecl *D, const Expr *Ref, State &St);
  void assign(const Expr *LHS, const AbsVal &V, State &St);
  AbsVal merge(const AbsVal &Cond, const AbsVal &A, const AbsVal &B);
  /// The state after a two-way branch; consumes Then and Else.
  State mergeStates(const AbsVal &Cond, State &Then, State &Else);
  unsigned varFor(const std::string &Key, SymVarInfo Info);
  void record(BranchSite Site, const State &St);
  void findTerm(BranchSite &Site);
  std::pair<unsigned, bool> typeOf(QualType T) const;
  /// The thread-dependent part of a value (empty for a uniform one), when known: its T, or
  /// the linear decomposition of its symbolic form.
  std::optional<ThreadPart> threadPart(const AbsVal &A) const;
  std::optional<ThreadPart> linearPart(const ::warplint::divergence::Sym *S) const;
  bool uniformSym(const ::warplint::divergence::Sym &S) const;
  /// Whether a thread part counts the lanes of a warp one by one (threadIdx.x where warps
  /// lie in rows or the block is 1-D, or the linear thread index): then the value less its
  /// low five bits is the same in a warp.
  bool countsLanes(const std::optional<ThreadPart> &P) const;
  bool keyOf(const ::warplint::divergence::Sym *S, std::string &Out) const;
  /// Out (the value of B from L and R) with the thread parts: an offset of a pointer or
  /// a sum carries its part; a difference or comparison of two values with the same part
  /// is uniform (`B < Blast` with `Blast = B + jb`).
  void combineParts(const BinaryOperator *B, const AbsVal &L, const AbsVal &R, AbsVal &Out);
  /// E's value when it is an integer constant expression without side effects.
  std::optional<int64_t> constantOf(const Expr *E);

  ASTContext &Ctx;
  std::array<bool, 3> UnitDims{false, false, false};
  bool WarpRows = false;
  bool LaneRows = false;
  /// The `__shared__` arrays whose slot `a[threadIdx.x]` is each thread's own variable.
  llvm::SmallPtrSet<const VarDecl *, 4> OwnSlots;
  const VarDecl *ownSlot(const ArraySubscriptExpr *AS) const;
  std::array<bool, 3> ThreadIdxRead{false, false, false};
  std::array<int, 3> BlockDimParams{-1, -1, -1};
  std::vector<SymVarInfo> Vars;
  std::map<std::string, unsigned> VarIndex;
  std::vector<BranchSite> Branches;
  /// Local references bound to memory (`PxgTriangleMesh &mesh0 = reinterpret_cast<...&>(
  /// *sMesh0)` over a `__shared__` buffer): the variance of the address they name. A
  /// member read through one is a load there, not a read of a thread's own value.
  std::map<const VarDecl *, Variance> MemoryRefs;
  /// Whether a member function only computes from its object and arguments (accessor):
  /// its body and the bodies it calls read no thread index and make no sync, atomic, asm
  /// or other call without a body (readsOnlyInputs).
  bool readsOnlyInputs(const FunctionDecl *FD, unsigned Depth);
  llvm::DenseMap<const FunctionDecl *, bool> OnlyInputs;
  llvm::DenseMap<const Expr *, AbsVal> Seen;
  /// The variance of the addresses each load variable (SymVarInfo::Opaque) was read at.
  llvm::DenseMap<unsigned, Variance> LoadVariance;
  /// The path (State::Path) at each memory access of the kernel body.
  llvm::DenseMap<const Expr *, std::vector<::warplint::divergence::SymRef>> AccessPaths;
  /// The path (State::Path) at each read of a local of the kernel body (resultKept: where
  /// a lane uses a value it read from another).
  llvm::DenseMap<const Expr *, std::vector<::warplint::divergence::SymRef>> LocalReadPaths;
  /// The data match (dataMatchOf) at each memory access of the kernel body that has one.
  llvm::DenseMap<const Expr *, const Expr *> AccessMatches;
  const Expr *dataMatch(const std::vector<Guard> &Guards) const;
  ::warplint::divergence::SymRef
  resultKept(const CallExpr *Call,
             const llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> &Reads);
  /// The conditions walkSwitch put on the paths of case labels.
  llvm::DenseSet<const ::warplint::divergence::Sym *> CaseConds;
  std::vector<::warplint::divergence::SymRef> CaseCondRefs; ///< keeps CaseConds' nodes alive
  std::vector<Frame> Frames;
  bool Recording = true;
  // SyncCall: what was reached, recorded outside the trial walks of loops (Speculative > 0),
  // callees included (CallStack: the calls of device functions being walked).
  std::vector<SyncCall> SyncCalls;
  std::vector<const CallExpr *> CallStack;
  unsigned Speculative = 0;
  /// How many merged values mergeStates has named (ThreadPart terms of their own).
  unsigned MergedValues = 0;
  unsigned LoopNesting = 0; ///< loops around what is being walked (their cond, step, body)
  void recordSync(const CallExpr *C, const std::vector<AbsVal> &Args, const State &St);
  // What depends only on the AST, kept across the walks of loop bodies and callees (and
  // across kernels): constantOf's answers, and the locals each loop writes.
  struct Writes {
    llvm::SmallPtrSet<const VarDecl *, 8> Assigned; ///< in the condition, step or body
    llvm::SmallPtrSet<const VarDecl *, 8> InBody;
  };
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Constants;
  std::unordered_map<const Stmt *, Writes> LoopWrites; ///< node-based: nested loops insert
};

/// The unknowns of \p Needed (indices into \p Vars) and what their loops read, each once:
/// the plain ones in \p Plain, the loop counters in \p Loops after every unknown their
/// initial value, condition and step read (the order in which to give them values).
void orderUnknowns(const std::vector<unsigned> &Needed, const std::vector<SymVarInfo> &Vars,
                   std::vector<unsigned> &Plain, std::vector<unsigned> &Loops);

} // namespace warplint
