//===- Idioms.cpp - the branch idioms of the divergence analysis ---------------===//
//
// Predicates on a branch's symbolic condition (divergence/ThreadDependence) and on its
// arms that name the usual idioms: bounds guards, tree-reduction tails, grid- and
// block-stride loops, leader tests, arms the compiler makes selects of. The model's
// branch verdicts (model/Branches.cpp) read them.
//
//===----------------------------------------------------------------------------===//
#include "divergence/Idioms.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

using namespace ::warplint::divergence;

namespace warplint {
using namespace clang;

const Sym *skipCasts(const Sym *S) {
  while (S && S->Op == SymOp::Cast && S->A)
    S = S->A.get();
  return S;
}

/// A size known only at run time: uniform, not a constant, and not a loop variable
/// (`n`, `blockDim.x`, a value loaded at a uniform address), e.g. the row length of a 2-D
/// index recovered with `%` and `/`.
bool isRuntimeSize(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S || mentionsThreadIdx(*S) || S->Op == SymOp::Const)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && (Vars[V].Kind == SymVarInfo::Loop ||
                            Vars[V].Kind == SymVarInfo::Iteration || Vars[V].Launched))
      return false;
  return true;
}

/// A variable whose value is sampled (known only at run time): a parameter, blockIdx,
/// gridDim, a value loaded from a uniform address. Loop variables and iterations are
/// enumerated instead.
bool isSampledVar(unsigned V, const std::vector<SymVarInfo> &Vars) {
  return V < Vars.size() && Vars[V].Kind != SymVarInfo::Loop &&
         Vars[V].Kind != SymVarInfo::Iteration && !Vars[V].Launched;
}

bool mentionsSampledVar(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  if (!S)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (isSampledVar(V, Vars))
      return true;
  return false;
}

/// The counter of an enclosing uniform loop that steps by adding or subtracting (not a
/// halving or doubling stride): `for (m = 0; m < 16; m++)`.
bool isSweepingCounter(unsigned V, const std::vector<SymVarInfo> &Vars) {
  return V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop &&
         Vars[V].LoopVariance == Variance::Uniform && !Vars[V].Shrinking &&
         !Vars[V].Growing;
}

/// A thread index compared with the counter of an enclosing loop that sweeps the block:
/// the index is block-local (thread indices, constants, blockDim and loop counters: no
/// blockIdx, parameter or loaded value) and the limit is made of such counters and
/// compile-time values only (`for (m...) if (tx <= m)`, `for (i...) if (threadIdx.x > i)`).
/// As the counter advances the boundary moves across the lanes of the block and splits a
/// warp in most iterations: not a bounds guard. A global index against a counter over a
/// run-time size (`t2 <= t` with t = idx / NH % T) crosses any one block rarely, and
/// stays a guard.
bool sweepsBlock(const Sym *Index, const Sym *Limit, const std::vector<SymVarInfo> &Vars) {
  if (mentionsSampledVar(Index, Vars) || mentionsSampledVar(Limit, Vars))
    return false;
  std::vector<unsigned> Used;
  collectVars(*Limit, Used);
  for (unsigned V : Used)
    if (isSweepingCounter(V, Vars))
      return true;
  return false;
}

/// A comparison of a block-local thread index with a compile-time limit (`threadIdx.x <
/// 16`, `tid >= blockDim.x / 2`): the same split in every block. A bounds guard by form;
/// the evaluation decides whether it splits only part of the block.
bool isBlockLocalGuard(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  return S && mentionsThreadIdx(*S) && !mentionsSampledVar(S, Vars) && !isWindowGuard(S, Vars);
}

/// A lane's bit of a loaded word: `w & (1 << l)` or `(w >> l) & 1` (compared with 0 or
/// not), w reading a value loaded from memory and no thread index, l reading the thread:
/// a flag per lane packed in a word (PhysX's changed-handle bitmaps: `if ((mask &
/// ~addedOrRemoved) & (1 << threadIndexInWarp))`), the data's choice of lanes as `if
/// (flag[lane])` is. As one conjunct of several too.
bool isLaneBitOfLoad(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (S->Op == SymOp::LAnd) {
    std::vector<const Sym *> Parts;
    conjuncts(S, Parts);
    return llvm::any_of(Parts, [&](const Sym *P) {
      return skipCasts(P) && skipCasts(P)->Op != SymOp::LAnd && isLaneBitOfLoad(P, Vars);
    });
  }
  if ((S->Op == SymOp::Ne || S->Op == SymOp::Eq) && S->A && S->B &&
      skipCasts(S->B.get())->Op == SymOp::Const && skipCasts(S->B.get())->Value == 0)
    return isLaneBitOfLoad(S->A.get(), Vars);
  if (S->Op != SymOp::And || !S->A || !S->B)
    return false;
  auto Loaded = [&](const Sym *W) {
    if (!W || mentionsThreadIdx(*W))
      return false;
    std::vector<unsigned> Used;
    collectVars(*W, Used);
    return llvm::any_of(Used, [&](unsigned V) {
      return V < Vars.size() && Vars[V].Kind == SymVarInfo::Opaque;
    });
  };
  auto Lane = [&](const Sym *L) { return L && mentionsThreadIdx(*L); };
  for (int Side = 0; Side < 2; ++Side) {
    const Sym *X = skipCasts(Side ? S->B.get() : S->A.get());
    const Sym *Y = skipCasts(Side ? S->A.get() : S->B.get());
    // w & (1 << l)
    if (Y && Y->Op == SymOp::Shl && Y->A && Y->B && skipCasts(Y->A.get())->Op == SymOp::Const &&
        skipCasts(Y->A.get())->Value == 1 && Lane(Y->B.get()) && Loaded(X))
      return true;
    // (w >> l) & 1
    if (Y && Y->Op == SymOp::Const && Y->Value == 1 && X && X->Op == SymOp::Shr && X->A &&
        X->B && Loaded(skipCasts(X->A.get())) && Lane(X->B.get()))
      return true;
  }
  return false;
}

/// A comparison of a warp window index (isWarpWindowIndex: `i * 32 + lane`, the window
/// moving with a loop counter) with a uniform limit: a tile's elements taken a warp's width
/// at a time, the same sweep as `for (i = lane; i < L; i += 32)`, written by windows
/// (ginkgo's transpose_blocks: `pos = i * subwarp_size + rank; if (pos >= B * B) break;`).
/// The limit splits a warp only in the window that holds it, the sweep's tail, however
/// constant the limit: a bounds guard as the stride loop's condition is, not a role fixed
/// to lanes.
bool isWindowGuard(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  while (S && S->Op == SymOp::LNot)
    S = skipCasts(S->A.get());
  if (!S || (S->Op != SymOp::Lt && S->Op != SymOp::Le && S->Op != SymOp::Gt &&
             S->Op != SymOp::Ge))
    return false;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT == BT)
    return false;
  return isWarpWindowIndex(AT ? S->A.get() : S->B.get(), Vars);
}


/// The factors of a product, casts aside (a non-product is its one factor).
static void productFactors(const Sym *X, llvm::SmallVectorImpl<const Sym *> &Out) {
  X = skipCasts(X);
  if (X && X->Op == SymOp::Mul && X->A && X->B) {
    productFactors(X->A.get(), Out);
    productFactors(X->B.get(), Out);
  } else {
    Out.push_back(X);
  }
}

/// `a - (a / n) * n` (or `a - n * (a / n)`), the remainder written by hand (HeCBench's
/// dwconv recovers its coordinates so): a, n and the form `a % n` would have. The product
/// may be written in any order and grouping when n is itself a product (Cholla's `xid =
/// tid - zid * nx * ny - yid * nx`, with zid = tid / (nx * ny) and yid = (tid - zid * nx *
/// ny) / nx: the remainder by nx of the remainder by nx * ny).
static bool handWrittenRem(const Sym *S, const Sym *&A, const Sym *&N) {
  S = skipCasts(S);
  if (!S || S->Op != SymOp::Sub || !S->A || !S->B)
    return false;
  const Sym *M = skipCasts(S->B.get());
  if (!M || M->Op != SymOp::Mul || !M->A || !M->B)
    return false;
  // `(a / n) * n` as written, the common form, before the product's factors.
  for (int Order = 0; Order < 2; ++Order) {
    const Sym *D = skipCasts(Order ? M->B.get() : M->A.get());
    const Sym *K = Order ? M->A.get() : M->B.get();
    if (D && D->Op == SymOp::Div && D->A && D->B && sameUpToCasts(D->A.get(), S->A.get()) &&
        sameUpToCasts(D->B.get(), K)) {
      A = S->A.get();
      N = K;
      return true;
    }
  }
  llvm::SmallVector<const Sym *, 4> Product;
  productFactors(M, Product);
  if (Product.size() < 3 || llvm::is_contained(Product, nullptr))
    return false;
  for (size_t I = 0; I < Product.size(); ++I) {
    const Sym *D = Product[I];
    if (D->Op != SymOp::Div || !D->A || !D->B || !sameUpToCasts(D->A.get(), S->A.get()))
      continue;
    // The other factors, as many as the divisor's and each matched once.
    llvm::SmallVector<const Sym *, 4> Divisor, Rest;
    productFactors(D->B.get(), Divisor);
    for (size_t J = 0; J < Product.size(); ++J)
      if (J != I)
        Rest.push_back(Product[J]);
    if (Divisor.size() != Rest.size() || llvm::is_contained(Divisor, nullptr))
      continue;
    llvm::SmallVector<bool, 4> Used(Rest.size(), false);
    bool All = true;
    for (const Sym *F : Divisor) {
      bool Found = false;
      for (size_t J = 0; J < Rest.size() && !Found; ++J)
        if (!Used[J] && sameUpToCasts(F, Rest[J]))
          Used[J] = Found = true;
      All &= Found;
    }
    if (All) {
      A = S->A.get();
      N = D->B.get();
      return true;
    }
  }
  return false;
}

/// Non-decreasing in every thread index: sums and uniform multiples of thread indices.
/// With Vars, also a coordinate `i % n` (or `i - (i / n) * n`) of a 2-D decomposition by a
/// run-time size n
/// (non-decreasing along each row) and, with Lanes, a lane index `tid % 32`
/// (non-decreasing within a warp) and the bit fields of a tile's fragment layout (`(c >> 1)
/// & 3`, `t % 2`: a bounded offset of a uniform base; against a size known only at run
/// time such an index splits lanes only in the tile that holds the size's edge).
bool isMonotone(const Sym *S, const std::vector<SymVarInfo> *Vars, bool Lanes) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (!mentionsThreadIdx(*S))
    return true;
  switch (S->Op) {
  case SymOp::ThreadIdx:
    return true;
  case SymOp::Add:
    return isMonotone(S->A.get(), Vars, Lanes) && isMonotone(S->B.get(), Vars, Lanes);
  case SymOp::Mul:
    return (!mentionsThreadIdx(*S->A) && isMonotone(S->B.get(), Vars, Lanes)) ||
           (!mentionsThreadIdx(*S->B) && isMonotone(S->A.get(), Vars, Lanes));
  case SymOp::Sub: {
    const Sym *A = nullptr, *N = nullptr;
    if (handWrittenRem(S, A, N) && !mentionsThreadIdx(*N)) {
      // As `a % n`, below.
      if (!Vars || !isMonotone(A, Vars, Lanes))
        return false;
      if (isRuntimeSize(N, *Vars))
        return true;
      const Sym *K = skipCasts(N);
      return Lanes && K->Op == SymOp::Const && K->Value > 0;
    }
    return !mentionsThreadIdx(*S->B) && isMonotone(S->A.get(), Vars, Lanes);
  }
  case SymOp::Div:
  case SymOp::Shr:
  case SymOp::Shl:
    return !mentionsThreadIdx(*S->B) && isMonotone(S->A.get(), Vars, Lanes);
  case SymOp::Rem: {
    if (!Vars || !isMonotone(S->A.get(), Vars, Lanes))
      return false;
    if (isRuntimeSize(S->B.get(), *Vars))
      return true;
    const Sym *K = skipCasts(S->B.get());
    return Lanes && K->Op == SymOp::Const && K->Value > 0;
  }
  case SymOp::And: {
    // Either operand order: `t & 31` and `31 & t` (sptrsv's `(WARP_SIZE - 1) & local_id`).
    const Sym *K = skipCasts(S->B.get()), *T = S->A.get();
    if (K->Op != SymOp::Const && S->A && skipCasts(S->A.get())->Op == SymOp::Const) {
      K = skipCasts(S->A.get());
      T = S->B.get();
    }
    return Lanes && K->Op == SymOp::Const && K->Value >= 0 && isMonotone(T, Vars, Lanes);
  }
  default:
    return false;
  }
}

/// Non-increasing in every thread index: a uniform value less a non-decreasing one, and
/// sums of such (`x_top - half - (tid - 16)`, a merge path's column falling with the
/// lane). A guard on it splits a row of lanes into one contiguous range as a guard on a
/// growing index does.
static bool isAntitone(const Sym *S, const std::vector<SymVarInfo> *Vars, bool Lanes) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (!mentionsThreadIdx(*S))
    return true;
  switch (S->Op) {
  case SymOp::Add:
    return isAntitone(S->A.get(), Vars, Lanes) && isAntitone(S->B.get(), Vars, Lanes);
  case SymOp::Sub:
    return isAntitone(S->A.get(), Vars, Lanes) && isMonotone(S->B.get(), Vars, Lanes);
  default:
    return false;
  }
}

/// A warp index: `tid / 32` (any multiple of 32), `tid >> 5` (5 or more) of a
/// non-decreasing thread index.
bool isWarpIndex(const Sym *T) {
  T = skipCasts(T);
  if (!T || (T->Op != SymOp::Div && T->Op != SymOp::Shr) || !T->B ||
      skipCasts(T->B.get())->Op != SymOp::Const)
    return false;
  int64_t K = skipCasts(T->B.get())->Value;
  return isMonotone(T->A.get()) &&
         ((T->Op == SymOp::Div && K > 0 && K % 32 == 0) || (T->Op == SymOp::Shr && K >= 5));
}

/// A test of the warp index: `tid / 32 == 0`, `(tid >> 5) < k` (uniform within a warp
/// when warps do not straddle rows; the evaluation decides).
bool isComparison(const Sym &S) {
  return (S.Op == SymOp::Eq || S.Op == SymOp::Ne || S.Op == SymOp::Lt || S.Op == SymOp::Le ||
          S.Op == SymOp::Gt || S.Op == SymOp::Ge) &&
         S.A && S.B;
}

bool isWarpIndexTest(const Sym *S) {
  S = skipCasts(S);
  if (!S || !isComparison(*S))
    return false;
  return !mentionsThreadIdx(*S->B) && isWarpIndex(S->A.get());
}

/// A test of a row index alone: `threadIdx.y == 0`, `threadIdx.z < k` (uniform within a
/// warp when rows are a warp wide or more; the evaluation decides).
bool isRowTest(const Sym *S) {
  S = skipCasts(S);
  if (!S || !isComparison(*S))
    return false;
  const Sym *A = skipCasts(S->A.get()), *B = skipCasts(S->B.get());
  if (mentionsThreadIdx(*B))
    std::swap(A, B);
  return A->Op == SymOp::ThreadIdx && A->Value > 0 && !mentionsThreadIdx(*B);
}

/// The same for every lane of a warp by its form: no thread index, or thread indices only
/// inside a warp index.
bool isWarpUniformForm(const Sym *S) {
  S = skipCasts(S);
  if (!S || !mentionsThreadIdx(*S))
    return S != nullptr;
  if (isWarpIndex(S))
    return true;
  if (S->Op == SymOp::ThreadIdx)
    return false;
  for (const SymRef *C : {&S->A, &S->B, &S->C})
    if (*C && !isWarpUniformForm(C->get()))
      return false;
  return true;
}

/// A truth value by its form: a comparison, a negation, a conjunction or disjunction.
bool isTruthValue(const Sym *S) {
  S = skipCasts(S);
  if (!S)
    return false;
  switch (S->Op) {
  case SymOp::Lt: case SymOp::Le: case SymOp::Gt: case SymOp::Ge: case SymOp::Eq:
  case SymOp::Ne: case SymOp::LNot: case SymOp::LAnd: case SymOp::LOr:
    return true;
  // `a & b` of truth values is one too: a chain `i >= 4 & j >= 4 & i <= n - 5` is the
  // conjunction of its tests, however many.
  case SymOp::And: case SymOp::Or:
    return isTruthValue(S->A.get()) && isTruthValue(S->B.get());
  default:
    return false;
  }
}

/// `(row < n) & (col < m)`: a bitwise and (or) of two truth values is their conjunction
/// (disjunction), as a flag of two guards is often written.
bool isTruthAndOr(const Sym *S) {
  return S && (S->Op == SymOp::And || S->Op == SymOp::Or) && isTruthValue(S->A.get()) &&
         isTruthValue(S->B.get());
}

namespace {

/// The operands of a chain of one logical operator (and of its bitwise twin between truth
/// values), flattened, in source order.
void flattenChain(const Sym *S, SymOp Logical, SymOp Bitwise, std::vector<const Sym *> &Out) {
  const Sym *T = skipCasts(S);
  if (T && (T->Op == Logical || (T->Op == Bitwise && isTruthAndOr(T)))) {
    flattenChain(T->A.get(), Logical, Bitwise, Out);
    flattenChain(T->B.get(), Logical, Bitwise, Out);
    return;
  }
  Out.push_back(S);
}

} // namespace

/// The conjuncts of a condition: the operands of `&&` (and of `&` between truth values).
void conjuncts(const Sym *S, std::vector<const Sym *> &Out) {
  flattenChain(S, SymOp::LAnd, SymOp::And, Out);
}

/// The disjuncts of a condition: the operands of `||` (and of `|` between truth values).
void disjuncts(const Sym *S, std::vector<const Sym *> &Out) {
  flattenChain(S, SymOp::LOr, SymOp::Or, Out);
}

/// `i < j` with i and j global indices of the grid along different thread dimensions
/// (`i = blockIdx.y * blockDim.y + threadIdx.y`, `j = blockIdx.x * blockDim.x +
/// threadIdx.x`), each non-decreasing in its threads: the triangle of a matrix that a
/// symmetric kernel skips (gpu4pyscf's `if (i < j) return;` over 16x16 tiles), or its
/// diagonal (`i == j`, `i != j`). The
/// diagonal crosses only the blocks whose tiles it cuts, O(n) of the O(n^2): in every
/// other block the comparison is the same for all threads, as a grid-tail bound is. A
/// comparison of thread indices within one block (`threadIdx.x < threadIdx.y`, no block
/// index on a side) splits the same warps in every block and is no such guard.
static bool isTriangleGuard(const Sym *A, const Sym *B, const std::vector<SymVarInfo> &Vars) {
  auto Global = [&](const Sym *X, unsigned &Dims) {
    bool Block = mentionsBlockIdx(X, Vars);
    std::vector<bool> Seen(Vars.size(), false);
    collectTidDims(X, Vars, Dims, Seen);
    return Block && Dims != 0 && isMonotone(X, &Vars, /*Lanes=*/false);
  };
  unsigned ADims = 0, BDims = 0;
  return Global(A, ADims) && Global(B, BDims) && (ADims & BDims) == 0;
}

static bool isBoundsGuardIndex(const Sym *Index, const Sym *Limit,
                               const std::vector<SymVarInfo> &Vars);

/// Named idiom: a comparison of a monotone thread index with a uniform limit
/// (`i < n`, `if (i >= n) return;`), or a conjunction/disjunction of such. Against a size
/// known only at run time, a coordinate `i % n` and a lane-strided index
/// (`lane * 8 + k * 256 < C`) count as monotone too: such a guard splits warps only where
/// the size is not a multiple of the row or the stride.
bool isBoundsGuard(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S)
    return false;
  if (S->Op == SymOp::LNot)
    return isBoundsGuard(S->A.get(), Vars);
  // A flag set from a guard: `bool ok = i < n; ... if (ok)` (a select of two constants).
  if (S->Op == SymOp::Ne && skipCasts(S->B.get())->Op == SymOp::Const)
    return isBoundsGuard(S->A.get(), Vars);
  if (S->Op == SymOp::Select && skipCasts(S->B.get())->Op == SymOp::Const &&
      skipCasts(S->C.get())->Op == SymOp::Const)
    return isBoundsGuard(S->A.get(), Vars);
  // A flag cleared by guards one after another (`bool valid = true; if (x >= nx) valid =
  // false; if (y >= ny) valid = false;`, FDTD3d): a select of a constant and an earlier
  // such flag on a guard.
  if (S->Op == SymOp::Select && S->B && S->C) {
    const Sym *T = skipCasts(S->B.get()), *F = skipCasts(S->C.get());
    bool TFlag = T->Op == SymOp::Const || (T->Op == SymOp::Select && isBoundsGuard(T, Vars));
    bool FFlag = F->Op == SymOp::Const || (F->Op == SymOp::Select && isBoundsGuard(F, Vars));
    if (TFlag && FFlag && (T->Op == SymOp::Const || F->Op == SymOp::Const))
      return isBoundsGuard(S->A.get(), Vars);
  }
  // Joined with a warp test (`tid / 32 == w`) or a term without a thread index; and a
  // guard joined with a row test (`threadIdx.x < rows && threadIdx.y == 0`, ggml's
  // mmvq.cu): the guard's split, in the warps the test keeps (rows of a warp width and
  // more; the evaluation decides for narrower ones). A row test alone stays a branch.
  if (S->Op == SymOp::LAnd || S->Op == SymOp::LOr || isTruthAndOr(S)) {
    const Sym *A = S->A.get(), *B = S->B.get();
    bool AG = isBoundsGuard(A, Vars), BG = isBoundsGuard(B, Vars);
    bool AW = isWarpIndexTest(A), BW = isWarpIndexTest(B);
    return ((AG || AW || !mentionsThreadIdx(*A)) && (BG || BW || !mentionsThreadIdx(*B)) &&
            !(AW && BW)) ||
           (AG && isRowTest(B)) || (BG && isRowTest(A));
  }
  // `t / K == 0` is `t < K` for a non-negative index t and K > 0 (and `!= 0` is `t >=
  // K`), K a run-time value: the first K threads, a row of a 2-D decomposition by a width
  // (gpu4pyscf's `gout_id == 0` with gout_id = thread_id / nsp_per_block, the lanes that
  // set up the block's shared values).
  if ((S->Op == SymOp::Eq || S->Op == SymOp::Ne) && S->A && S->B) {
    // The diagonal of two global indices along different dimensions (gpu4pyscf's `if
    // (i_atom_G == i_atom_H) return;` over 16x4x4 blocks, the pair of an atom with
    // itself): like the triangle's edge, it crosses only the blocks whose tiles it cuts.
    if (mentionsThreadIdx(*S->A) && mentionsThreadIdx(*S->B))
      return isTriangleGuard(S->A.get(), S->B.get(), Vars);
    const Sym *Q = skipCasts(S->A.get()), *Z = skipCasts(S->B.get());
    if (Z->Op != SymOp::Const || Z->Value != 0 || Q->Op != SymOp::Div || !Q->A || !Q->B ||
        mentionsThreadIdx(*Q->B))
      return false;
    // A compile-time K is a lane role (`tid / 16 == 0`), which the fixed-role rules judge.
    if (skipCasts(Q->B.get())->Op == SymOp::Const)
      return false;
    return isBoundsGuardIndex(Q->A.get(), Q->B.get(), Vars);
  }
  if (S->Op != SymOp::Lt && S->Op != SymOp::Le && S->Op != SymOp::Gt && S->Op != SymOp::Ge)
    return false;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT && BT)
    return isTriangleGuard(S->A.get(), S->B.get(), Vars);
  if (AT == BT)
    return false;
  return isBoundsGuardIndex(AT ? S->A.get() : S->B.get(), AT ? S->B.get() : S->A.get(), Vars);
}

/// A thread index compared with a uniform limit, as a bounds guard compares them.
static bool isBoundsGuardIndex(const Sym *Index, const Sym *Limit,
                               const std::vector<SymVarInfo> &Vars) {
  if (sweepsBlock(Index, Limit, Vars))
    return false;
  // A lane index only against a run-time size, possibly shifted by uniform terms
  // (`C - k * 256`): `lane < 16` splits every warp whatever the launch.
  std::vector<unsigned> Used;
  collectVars(*Limit, Used);
  bool Runtime = false;
  for (unsigned V : Used)
    Runtime |= isSampledVar(V, Vars);
  return isMonotone(Index, &Vars, /*Lanes=*/Runtime) || isAntitone(Index, &Vars, Runtime) ||
         isWarpWindowIndex(Index, Vars);
}

/// `U + s * lane` with lane the place in the warp (`t % 32`, `t & 31`, %laneid), s > 0 a
/// constant, and U a sum of terms each a constant multiple of 32 * s, at least one of them
/// a loop counter or a block index times that multiple (`wb * 32 + lane`, AMGX's load of
/// an NxN block in warp-sized chunks): the lanes cover the aligned window [U, U + 32 * s),
/// and a limit splits a warp only in the one window that holds it, the sweep's tail.
/// `lane < 16` alone (no term that moves the window) is no such index.
bool isWarpWindowIndex(const Sym *Index, const std::vector<SymVarInfo> &Vars) {
  std::vector<const Sym *> Terms;
  flattenChain(Index, SymOp::Add, SymOp::Add, Terms);
  for (const Sym *&T : Terms)
    T = skipCasts(T);
  if (llvm::is_contained(Terms, nullptr))
    return false;
  auto Scaled = [](const Sym *X, const Sym *&Part) -> int64_t {
    // X = c * Part (either order) or Part << c; 1 * X otherwise.
    if (X->Op == SymOp::Mul || X->Op == SymOp::Shl) {
      const Sym *A = skipCasts(X->A.get()), *B = skipCasts(X->B.get());
      if (X->Op == SymOp::Mul && A->Op == SymOp::Const)
        std::swap(A, B);
      if (B->Op == SymOp::Const && B->Value > 0) {
        Part = A;
        return X->Op == SymOp::Mul ? B->Value : (B->Value < 32 ? int64_t(1) << B->Value : 0);
      }
    }
    Part = X;
    return 1;
  };
  int64_t LaneScale = 0;
  std::vector<std::pair<const Sym *, int64_t>> Uniform;
  for (const Sym *T : Terms) {
    const Sym *Part = nullptr;
    int64_t C = Scaled(T, Part);
    if (mentionsThreadIdx(*T)) {
      const Sym *L = skipCasts(Part);
      bool Lane = L && L->B && ((L->Op == SymOp::Rem && skipCasts(L->B.get())->Op == SymOp::Const &&
                                 skipCasts(L->B.get())->Value == 32) ||
                                (L->Op == SymOp::And && skipCasts(L->B.get())->Op == SymOp::Const &&
                                 skipCasts(L->B.get())->Value == 31));
      if (LaneScale || !Lane || !C || !isMonotone(L->A.get(), &Vars, false))
        return false;
      LaneScale = C;
    } else {
      Uniform.push_back({Part, C});
    }
  }
  if (!LaneScale)
    return false;
  bool Moves = false;
  for (auto [Part, C] : Uniform) {
    const Sym *P = skipCasts(Part);
    if (P->Op == SymOp::Const) {
      if ((P->Value * C) % (32 * LaneScale) != 0)
        return false;
      continue;
    }
    if (C % (32 * LaneScale) != 0)
      return false;
    std::vector<unsigned> Used;
    collectVars(*P, Used);
    for (unsigned V : Used)
      Moves |= V < Vars.size() && (Vars[V].Kind == SymVarInfo::Loop ||
                                   Vars[V].Kind == SymVarInfo::Iteration ||
                                   Vars[V].Kind == SymVarInfo::BlockIdx);
  }
  return Moves;
}

namespace {

/// `x == v` or `x != v` (casts aside) with exactly one side thread-dependent: that side
/// first, the uniform one second; nullopt for anything else.
std::optional<std::pair<const Sym *, const Sym *>> threadSidedEquality(const Sym *S) {
  S = skipCasts(S);
  if (!S || (S->Op != SymOp::Eq && S->Op != SymOp::Ne))
    return std::nullopt;
  bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
  if (AT == BT)
    return std::nullopt;
  return AT ? std::make_pair(S->A.get(), S->B.get()) : std::make_pair(S->B.get(), S->A.get());
}

} // namespace

/// Named idiom: one lane in each run of n threads, n a size known only at run time:
/// `(i + 1) % n == 0` picks the last element of each row (at most one lane of a warp once
/// n >= 32), the leader pattern of a 2-D index recovered from a 1-D one.
bool isRowLeaderTest(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  auto Sides = threadSidedEquality(S);
  if (!Sides)
    return false;
  const Sym *Rem = skipCasts(Sides->first);
  if (Rem->Op != SymOp::Rem || !isRuntimeSize(Rem->B.get(), Vars))
    return false;
  // The column of a 3-D index recovered from a 1-D one, `(p % (nx * ny)) % nx == 0`
  // (RELION's back-projection): the inner remainder is monotone within each run of
  // nx * ny threads, a whole number of rows when its divisor is a product of the outer
  // one; one lane per run of nx still.
  const Sym *A = skipCasts(Rem->A.get());
  if (A && A->Op == SymOp::Rem && isRuntimeSize(A->B.get(), Vars)) {
    const Sym *P = skipCasts(A->B.get()), *N = skipCasts(Rem->B.get());
    std::function<bool(const Sym *, const Sym *)> Same = [&](const Sym *X, const Sym *Y) {
      X = skipCasts(X);
      Y = skipCasts(Y);
      if (!X || !Y)
        return X == Y;
      return X->Op == Y->Op && X->Value == Y->Value && Same(X->A.get(), Y->A.get()) &&
             Same(X->B.get(), Y->B.get()) && Same(X->C.get(), Y->C.get());
    };
    auto Factor = [&](const Sym *F) { return Same(F, N); };
    if (P && P->Op == SymOp::Mul && (Factor(P->A.get()) || Factor(P->B.get())))
      A = skipCasts(A->A.get());
  }
  return isMonotone(A);
}

/// `t % K` (K dividing 32) or `t & M` (M + 1 a power of two up to 32), either operand
/// order for `&`, with t a thread index: the lane's place in its warp or a part of it.
static bool isLaneIndex(const Sym *A) {
  A = skipCasts(A);
  if (!A || !A->A || !A->B || !mentionsThreadIdx(*A))
    return false;
  const Sym *X = skipCasts(A->A.get()), *K = skipCasts(A->B.get());
  if (A->Op == SymOp::And && X->Op == SymOp::Const)
    std::swap(X, K);
  if (K->Op != SymOp::Const || K->Value <= 0 || !isMonotone(X))
    return false;
  return (A->Op == SymOp::Rem && 32 % K->Value == 0) ||
         (A->Op == SymOp::And && K->Value < 32 && ((K->Value + 1) & K->Value) == 0);
}

/// The uniform side of a bounds guard mentions a loop variable that halves. The guard may
/// be on the lane's index (`if (lane_id < offset) s[id] += s[id + offset];` for offset
/// from 16 down, sptrsv's warp tree through shared memory).
bool isTreeReductionTail(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  bool LaneGuard = false;
  if (const Sym *T = skipCasts(S);
      T && (T->Op == SymOp::Lt || T->Op == SymOp::Le || T->Op == SymOp::Gt ||
            T->Op == SymOp::Ge)) {
    bool AT = mentionsThreadIdx(*T->A), BT = mentionsThreadIdx(*T->B);
    LaneGuard = AT != BT && isLaneIndex(AT ? T->A.get() : T->B.get());
  }
  if (!LaneGuard && !isBoundsGuard(S, Vars))
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop && Vars[V].Shrinking)
      return true;
  return false;
}

/// A loop whose variable starts at a thread index and steps by one element (`for (j2 =
/// j1 + 1; j2 < M; j2++)`): each lane runs its own triangle of trips, not a tail guard.
bool isPerLaneStart(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Step || !mentionsThreadIdx(*L.Init))
    return false;
  const Sym *Step = skipCasts(L.Step.get());
  if ((Step->Op != SymOp::Add && Step->Op != SymOp::Sub) || !Step->B)
    return false;
  const Sym *K = skipCasts(Step->B.get());
  return K->Op == SymOp::Const && (K->Value == 1 || K->Value == -1);
}

/// A loop whose variable starts at a thread index and steps by a uniform stride, with a
/// bounds-guard condition (grid- and block-stride loops).
bool isStrideLoop(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Step || !L.Cond || !mentionsThreadIdx(*L.Init))
    return false;
  const Sym *Step = skipCasts(L.Step.get());
  if (Step->Op != SymOp::Add || mentionsThreadIdx(*Step->B) || mentionsVar(*Step->B, B.LoopVar))
    return false;
  // A step of one element is no stride: from a thread index each lane runs its own
  // triangle (`for (j2 = j1 + 1; j2 < M; j2++)`), trip counts differing in every warp.
  if (isPerLaneStart(B, Vars))
    return false;
  // The condition in terms of the loop variable: V < limit with a limit that is uniform,
  // or the same for the lanes of a warp (a warp-stride loop over a row chosen per warp).
  const Sym *C = skipCasts(L.Cond.get());
  if (C->Op != SymOp::Lt && C->Op != SymOp::Le && C->Op != SymOp::Gt && C->Op != SymOp::Ge)
    return false;
  return isWarpUniformForm(C->A.get()) && isWarpUniformForm(C->B.get());
}

/// A loop over a uniform range whose condition also holds a bounds guard of a thread index
/// that does not involve the loop variable (`for (k = 0; k < K && i < n; k++)`): the lanes
/// past the grid's tail run no trip, the others all K. The thread-dependent part is a
/// bounds guard, not a per-lane trip count.
bool isTailGuardedLoop(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  if (!L.Init || !L.Cond || mentionsThreadIdx(*L.Init) || (L.Step && mentionsThreadIdx(*L.Step)))
    return false;
  std::vector<const Sym *> Parts;
  conjuncts(L.Cond.get(), Parts);
  bool Guard = false;
  for (const Sym *P : Parts) {
    if (!mentionsThreadIdx(*P))
      continue;
    if (mentionsVar(*P, unsigned(B.LoopVar)) || !isBoundsGuard(P, Vars))
      return false;
    Guard = true;
  }
  return Guard;
}

/// A loop whose variable starts at a uniform value and runs up to a thread-dependent bound
/// (`for (k = 0; k <= t; ++k)`): each lane has its own trip count, not a tail guard.
bool isPerLaneTripCount(const BranchSite &B, const std::vector<SymVarInfo> &Vars) {
  if (B.Kind != BranchSite::Loop || B.LoopVar < 0)
    return false;
  const SymVarInfo &L = Vars[B.LoopVar];
  return L.Init && !mentionsThreadIdx(*L.Init) && L.LoopVariance != Variance::Uniform &&
         !isTailGuardedLoop(B, Vars);
}

/// `tid % (2 * s) == 0` with s growing: the interleaved tree reduction.
bool isInterleavedReduction(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  S = skipCasts(S);
  if (!S || (S->Op != SymOp::Eq && S->Op != SymOp::Ne))
    return false;
  const Sym *Rem = skipCasts(S->A.get());
  if (!Rem || Rem->Op != SymOp::Rem || !mentionsThreadIdx(*Rem->A))
    return false;
  std::vector<unsigned> Used;
  collectVars(*Rem->B, Used);
  for (unsigned V : Used)
    if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop && Vars[V].Growing)
      return true;
  return false;
}

/// Path without the enclosing conditions that depend on run-time values only (sampled
/// unknowns and no thread index): a branch nested under `if (count == blockDim.x)` is
/// analysed as if that condition may hold; a sample in which it is false says nothing
/// about the inner branch. Conditions on the thread, and on loop counters and
/// compile-time values alone, stay.
SymRef pathWithoutRuntimeConditions(const SymRef &Path, const std::vector<SymVarInfo> &Vars) {
  if (!Path)
    return Path;
  std::vector<SymRef> Kept;
  bool Dropped = false;
  std::function<void(const SymRef &)> Split = [&](const SymRef &C) {
    const Sym *T = skipCasts(C.get());
    // truth(X) is X != 0; a conjunction splits into its operands.
    if (T->Op == SymOp::Ne && T->B && skipCasts(T->B.get())->Op == SymOp::Const &&
        skipCasts(T->B.get())->Value == 0 && skipCasts(T->A.get())->Op == SymOp::LAnd) {
      Split(skipCasts(T->A.get())->A);
      Split(skipCasts(T->A.get())->B);
      return;
    }
    if (T->Op == SymOp::LAnd) {
      Split(T->A);
      Split(T->B);
      return;
    }
    if (!mentionsThreadIdx(*C) && mentionsSampledVar(C.get(), Vars)) {
      bool PerLane = false;
      std::vector<unsigned> Used;
      collectVars(*C, Used);
      for (unsigned V : Used)
        PerLane |= V < Vars.size() && (Vars[V].Kind == SymVarInfo::Iteration ||
                                       (Vars[V].Kind == SymVarInfo::Loop &&
                                        Vars[V].LoopVariance != Variance::Uniform));
      if (!PerLane) {
        Dropped = true;
        return;
      }
    }
    Kept.push_back(C);
  };
  Split(Path);
  if (!Dropped)
    return Path;
  SymRef Out;
  for (const SymRef &C : Kept) {
    SymRef T = makeBinary(SymOp::Ne, C, makeConst(0, C->Bits, C->Unsigned), 8, true);
    Out = Out ? makeBinary(SymOp::LAnd, Out, T, 8, true) : T;
  }
  return Out;
}

/// Arms short enough that nvcc may turn the branch into predicated instructions: at most
/// two plain statements (assignments, increments, declarations) in each arm, with no call,
/// loop, nested branch, barrier or return.
bool isSimpleStmt(const Stmt *S) {
  if (!S || isa<PseudoObjectExpr>(S)) // threadIdx.x and friends: a register read
    return true;
  if (isa<CallExpr, ConditionalOperator, BinaryConditionalOperator, StmtExpr, LambdaExpr>(S))
    return false;
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isLogicalOp())
      return false;
  for (const Stmt *C : S->children())
    if (!isSimpleStmt(C))
      return false;
  return true;
}

namespace {

/// Count(S) summed over a compound statement's body, or -1 when it is -1 for one of them.
template <typename CountFn> int sumOverBody(const CompoundStmt &CS, CountFn &&Count) {
  int N = 0;
  for (const Stmt *C : CS.body()) {
    int K = Count(C);
    if (K < 0)
      return -1;
    N += K;
  }
  return N;
}

} // namespace

int armStatements(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return 0;
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    return sumOverBody(*CS, armStatements);
  if (isa<Expr, DeclStmt>(S))
    return isSimpleStmt(S) ? 1 : -1;
  return -1;
}

bool hasShortArms(const BranchSite &B) {
  if (B.Kind == BranchSite::Conditional) {
    auto *CO = dyn_cast<ConditionalOperator>(B.Branch);
    return CO && isSimpleStmt(CO->getTrueExpr()) && isSimpleStmt(CO->getFalseExpr());
  }
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  if (!If)
    return false;
  int Then = armStatements(If->getThen()), Else = armStatements(If->getElse());
  return Then >= 0 && Else >= 0 && Then <= 2 && Else <= 2 && Then + Else > 0;
}

/// A local reference bound to the thread's own storage: `T &x = a[i]` or `T &x = y` with
/// a and y thread-local, or the variable of a range-for over a local array (`for (auto
/// &sum : p_hist)`, bound to `*__begin`, which starts at the array).
static bool bindsThreadLocal(const VarDecl *V, unsigned Hops = 0) {
  if (!V || Hops > 4 || !V->getType()->isReferenceType() || isa<ParmVarDecl>(V) ||
      !V->hasLocalStorage() || !V->getInit())
    return false;
  const Expr *Init = V->getInit()->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnaryOperator>(Init); U && U->getOpcode() == UO_Deref) {
    // `*__begin1`: the range-for's iterator, a local pointer from the range's start.
    auto *DR = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts());
    auto *It = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!It || !It->isImplicit() || !It->getType()->isPointerType() || !It->getInit())
      return false;
    Init = It->getInit()->IgnoreParenImpCasts();
  }
  if (isThreadLocal(Init, 0) || isThreadLocalElement(Init))
    return true;
  auto *DR = dyn_cast<DeclRefExpr>(Init);
  auto *W = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!W || !W->hasLocalStorage() || W->hasAttr<CUDASharedAttr>())
    return false;
  if (W->getType()->isArrayType()) // the range's start: a local array itself
    return true;
  return bindsThreadLocal(W, Hops + 1); // `__range1`, bound to the array
}

/// A local of the thread (a register candidate): not static, `__shared__` or a reference,
/// or a local reference bound to such storage (bindsThreadLocal), or, inside a callee
/// (Depth > 0), one of its reference parameters, bound to such locals at the call.
bool isThreadLocal(const Expr *E, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (auto *M = dyn_cast<MemberExpr>(E))
    return !M->isArrow() && isThreadLocal(M->getBase(), Depth);
  auto *DR = dyn_cast<DeclRefExpr>(E);
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
    return false;
  if (V->getType()->isReferenceType())
    return (Depth > 0 && isa<ParmVarDecl>(V)) || bindsThreadLocal(V);
  return !V->getType()->isArrayType();
}

/// The variable an element expression (`a[i]`, `tile[y][x]`) subscripts; null for
/// anything else (a pointer expression, a member).
static const VarDecl *subscriptedVar(const Expr *E) {
  auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return nullptr;
  const Expr *Base = A->getBase()->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(Base))
    return subscriptedVar(Base);
  auto *DR = dyn_cast<DeclRefExpr>(Base);
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

/// An element of one of the thread's own arrays (`rA[i]`, a register array indexed by an
/// unrolled counter): thread-private, in registers once unrolled, and a value no other
/// lane waits for.
bool isThreadLocalElement(const Expr *E) {
  const VarDecl *V = subscriptedVar(E);
  return V && V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>() &&
         V->getType()->isArrayType();
}

/// The most trips of a constant loop that code moving registers only may hold: a
/// 16-wide register array updated element by element, unrolled.
constexpr int64_t MaxUnrolledRegisterTrips = 16;

/// Code that only moves values between registers: reads and writes of the thread's own
/// locals and arithmetic on them, with no memory access (subscript, dereference, `->`),
/// no barrier, atomic or other call (except to a function of the TU whose body is such
/// code, its reference parameters bound to locals: `swap(a, b)`), no loop but one of at
/// most 16 constant trips (unrolled), no return or jump. The compiler turns an `if` whose arms are such code into selects, as it does a
/// `?:` of two values.
bool movesRegistersOnly(const Stmt *S, unsigned Depth, bool Loads) {
  if (!S)
    return true;
  if (isa<PseudoObjectExpr>(S)) // threadIdx and friends
    return true;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(S))
    return Loads ? movesRegistersOnly(A->getBase(), Depth, Loads) &&
                       movesRegistersOnly(A->getIdx(), Depth, Loads)
                 : isThreadLocalElement(A) && movesRegistersOnly(A->getIdx(), Depth, Loads);
  // A loop of at most MaxUnrolledRegisterTrips constant trips over the thread's own
  // locals (`for (k = 0; k < 16; ++k) result[k] += n`, opencv's shuffle scan) is unrolled
  // into as many register moves: straight-line code like the rest.
  if (auto *F = dyn_cast<ForStmt>(S)) {
    std::optional<ForHead> H = forHead(F);
    if (!H || !H->V || !H->V->hasLocalStorage() || H->V->hasAttr<CUDASharedAttr>())
      return false;
    std::optional<int64_t> Span = constantTripSpan(F, H->V->getASTContext());
    if (!Span || *Span > MaxUnrolledRegisterTrips)
      return false;
    for (const Stmt *Child : F->children())
      if (!movesRegistersOnly(Child, Depth, Loads))
        return false;
    return true;
  }
  if (isa<WhileStmt, DoStmt, CXXForRangeStmt, GotoStmt, BreakStmt, ContinueStmt,
          AsmStmt, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, LambdaExpr, StmtExpr, SwitchStmt>(S))
    return false;
  if (isa<ReturnStmt>(S) && Depth == 0)
    return false;
  if (auto *U = dyn_cast<UnaryOperator>(S)) {
    if ((U->getOpcode() == UO_Deref && !Loads) || U->getOpcode() == UO_AddrOf)
      return false;
    if (U->isIncrementDecrementOp() && !isThreadLocal(U->getSubExpr(), Depth))
      return false;
  }
  if (auto *M = dyn_cast<MemberExpr>(S))
    if (M->isArrow() && !Loads)
      return false;
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp() && !isThreadLocal(B->getLHS(), Depth) &&
        !isThreadLocalElement(B->getLHS()))
      return false;
  if (auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D))
        if (!V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
          return false;
  if (auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    // A builtin without side effects (`__builtin_huge_valf` of INFINITY, `__builtin_fabsf`)
    // and libdevice's math (`__nv_expf`, what `expf` calls in device code) compute a value
    // in registers.
    if (F && !F->hasBody()) {
      unsigned Id = F->getBuiltinID();
      const Builtin::Context &BI = F->getASTContext().BuiltinInfo;
      bool Pure = (Id && (BI.isConst(Id) || BI.isPure(Id))) ||
                  (F->getName().starts_with("__nv_") &&
                   F->getASTContext().getSourceManager().isInSystemHeader(F->getLocation()));
      if (!Pure)
        return false;
      for (const Expr *A : C->arguments())
        if (!movesRegistersOnly(A, Depth, Loads))
          return false;
      return true;
    }
    // The trivial assignment of a struct of registers (`quot = make_cuDoubleComplex(..)`
    // inside cuCdiv) copies registers; it has no body to look into.
    if (auto *MD = dyn_cast_or_null<CXXMethodDecl>(F))
      if (MD->isTrivial() && (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator())) {
        if (C->getNumArgs() != 2 || !isThreadLocal(C->getArg(0), Depth))
          return false;
        return movesRegistersOnly(C->getArg(1), Depth, Loads);
      }
    if (!F || !F->hasBody(Def) || !Def || Depth >= 3)
      return false;
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C))
      if (OC->isAssignmentOp() && !isThreadLocal(OC->getArg(0), Depth))
        return false;
    for (unsigned I = 0; I < C->getNumArgs() && I < Def->getNumParams(); ++I)
      if (Def->getParamDecl(I)->getType()->isReferenceType() &&
          !Def->getParamDecl(I)->getType().getNonReferenceType().isConstQualified() &&
          !isThreadLocal(C->getArg(I), Depth))
        return false;
    if (isa<CXXMemberCallExpr>(C) && !(Loads && isa<CXXMethodDecl>(Def) &&
                                       cast<CXXMethodDecl>(Def)->isConst()))
      return false; // a method may write its object's memory (a const one reads it)
    // A select's arm calls accessors only (`return data_[pos];`, ginkgo's
    // uninitialized_array::operator[]): a longer computation is work the masked lanes wait
    // for, not a value to select.
    if (auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
        Loads && !(Body && Body->size() == 1 && isa<ReturnStmt>(*Body->body_begin())))
      return false;
    if (!movesRegistersOnly(Def->getBody(), Depth + 1, Loads))
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!movesRegistersOnly(Child, Depth, Loads))
      return false;
  return true;
}

/// A `?:` whose arms compute values without side effects: loads, arithmetic and calls
/// of functions that do no more (`c ? s[i] : identity`).
bool hasLoadingSelectArms(const BranchSite &B) {
  if (B.Kind != BranchSite::Conditional)
    return false;
  auto *C = dyn_cast_or_null<ConditionalOperator>(B.Branch);
  return C && movesRegistersOnly(C->getTrueExpr(), 0, /*Loads=*/true) &&
         movesRegistersOnly(C->getFalseExpr(), 0, /*Loads=*/true);
}

/// An `if` (not an early exit) or a `?:` whose arms only move registers.
bool hasRegisterArms(const BranchSite &B) {
  if (B.Kind == BranchSite::Conditional)
    if (auto *C = dyn_cast_or_null<ConditionalOperator>(B.Branch))
      return movesRegistersOnly(C->getTrueExpr()) && movesRegistersOnly(C->getFalseExpr());
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  return If && !If->getConditionVariable() && movesRegistersOnly(If->getThen()) &&
         movesRegistersOnly(If->getElse());
}

/// `blockIdx.d == constant` among the conjuncts: the dimensions pinned to one block.
unsigned pinnedBlockDims(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  std::vector<const Sym *> Parts;
  conjuncts(S, Parts);
  unsigned Dims = 0;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (P && P->Op == SymOp::Ne && skipCasts(P->B.get())->Op == SymOp::Const &&
        skipCasts(P->B.get())->Value == 0) {
      // A path condition `c != 0` (the form in which enclosing conditions are kept).
      Dims |= pinnedBlockDims(P->A.get(), Vars);
      continue;
    }
    if (!P || P->Op != SymOp::Eq)
      continue;
    const Sym *A = skipCasts(P->A.get()), *B = skipCasts(P->B.get());
    if (A->Op == SymOp::Const)
      std::swap(A, B);
    if (A->Op != SymOp::Var || B->Op != SymOp::Const || A->Value < 0 ||
        size_t(A->Value) >= Vars.size() || Vars[A->Value].Kind != SymVarInfo::BlockIdx)
      continue;
    const std::string &N = Vars[A->Value].Name; // blockIdx.x
    Dims |= 1u << (N.back() == 'x' ? 0 : N.back() == 'y' ? 1 : 2);
  }
  return Dims;
}

/// `x == v` (or `!=`) with x thread-dependent and v a uniform value that is not a
/// compile-time constant (a pivot, a loop counter, a parameter): picks the lanes whose x
/// is v, a leader test when those lanes lie in one warp.
bool isUniformPick(const Sym *S) {
  auto Sides = threadSidedEquality(S);
  if (!Sides)
    return false;
  std::vector<unsigned> Used;
  collectVars(*Sides->second, Used);
  return !Used.empty();
}

bool isGridZeroPick(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  auto Sides = threadSidedEquality(S);
  if (!Sides)
    return false;
  const Sym *Zero = skipCasts(Sides->second);
  if (!Zero || Zero->Op != SymOp::Const || Zero->Value != 0)
    return false;
  bool Block = false;
  std::function<bool(const Sym *)> NonNegative = [&](const Sym *X) {
    X = skipCasts(X);
    if (!X)
      return false;
    switch (X->Op) {
    case SymOp::Const:
      return X->Value >= 0;
    case SymOp::ThreadIdx:
    case SymOp::BlockDim:
      return true;
    case SymOp::Var: {
      if (X->Value < 0 || size_t(X->Value) >= Vars.size())
        return false;
      const SymVarInfo &V = Vars[size_t(X->Value)];
      Block |= V.Kind == SymVarInfo::BlockIdx;
      return V.Kind == SymVarInfo::BlockIdx || V.Kind == SymVarInfo::GridDim ||
             V.Kind == SymVarInfo::Param || V.Kind == SymVarInfo::Iteration;
    }
    case SymOp::Add:
    case SymOp::Mul:
      return NonNegative(X->A.get()) && NonNegative(X->B.get());
    case SymOp::Div:
    case SymOp::Shr:
      // A quotient is 0 for more than the zero of its dividend (tid / 32 == 0 for a whole
      // warp): still one run of lanes at the grid's start, which the evaluation counts.
      return NonNegative(X->A.get()) && NonNegative(X->B.get());
    default:
      return false;
    }
  };
  return NonNegative(Sides->first) && Block && isMonotone(Sides->first, &Vars);
}

EdgeCells edgeCellEqualities(const Sym *S, const std::vector<SymVarInfo> &Vars,
                             const std::vector<const Sym *> &Siblings) {
  // `a == u || b == v || ...`, or its complement `a != u && b != v && ...` (the interior:
  // the same partition of the lanes, the arms swapped).
  std::vector<const Sym *> Parts;
  disjuncts(S, Parts);
  SymOp Want = SymOp::Eq;
  if (Parts.size() == 1) {
    std::vector<const Sym *> Conj;
    conjuncts(S, Conj);
    if (Conj.size() > 1) {
      Parts = std::move(Conj);
      Want = SymOp::Ne;
    }
  }
  // The equalities that name the far end of the same coordinate elsewhere in the test or
  // in its else-if chain (`if (j == 0) ... else if (j == my - 1)`, with my the block's
  // extent or a run-time size): a coordinate tested against both ends of its extent picks
  // the first and last rows of the domain (or of the block), O(perimeter) lanes.
  std::vector<const Sym *> Ends = Parts;
  for (const Sym *Sib : Siblings)
    disjuncts(Sib, Ends);
  auto RuntimeEnd = [&](const Sym *Coordinate) {
    for (const Sym *P : Ends) {
      auto Sides = P ? threadSidedEquality(P) : std::nullopt;
      if (!Sides || !sameUpToCasts(Sides->first, Coordinate))
        continue;
      const Sym *Value = skipCasts(Sides->second);
      if (Value && Value->Op != SymOp::Const)
        return true;
    }
    return false;
  };
  EdgeCells E;
  for (const Sym *P : Parts) {
    if (!P || !mentionsThreadIdx(*P))
      continue;
    auto Sides = threadSidedEquality(P);
    if (!Sides || skipCasts(P)->Op != Want)
      return {};
    if (const Sym *C = skipCasts(Sides->first);
        (C->Op == SymOp::Rem || C->Op == SymOp::Div) && C->A && C->B &&
        !mentionsThreadIdx(*C->B) && skipCasts(C->B.get())->Op != SymOp::Const &&
        mentionsSampledVar(C->B.get(), Vars)) {
      if (mentionsBlockIdx(C->A.get(), Vars) && isMonotone(C->A.get(), nullptr, /*Lanes=*/false)) {
        ++E.Flat;
        continue;
      }
    }
    if (!isMonotone(Sides->first))
      return {};
    unsigned Dims = 0;
    std::vector<bool> Seen(Vars.size(), false);
    collectTidDims(Sides->first, Vars, Dims, Seen);
    if (Dims & 1u) {
      ++E.Columns;
      continue;
    }
    bool Global = mentionsBlockIdx(Sides->first, Vars);
    const Sym *Value = skipCasts(Sides->second);
    if (!Global && (!Value || Value->Op == SymOp::Const) && !RuntimeEnd(Sides->first))
      return {};
    ++E.Rows;
  }
  return E;
}

/// Adds to Dims (bit D for threadIdx.D) the threadIdx dimensions S reads, directly or
/// through the start, condition and step of the loop variables it reads.
void collectTidDims(const Sym *S, const std::vector<SymVarInfo> &Vars, unsigned &Dims,
                    std::vector<bool> &SeenVars) {
  if (!S)
    return;
  if (S->Op == SymOp::ThreadIdx && S->Value >= 0 && S->Value < 3)
    Dims |= 1u << S->Value;
  if (S->Op == SymOp::Var && S->Value >= 0 && size_t(S->Value) < Vars.size() &&
      !SeenVars[S->Value]) {
    SeenVars[S->Value] = true;
    const SymVarInfo &V = Vars[S->Value];
    for (const SymRef &Part : {V.Init, V.Cond, V.Step})
      collectTidDims(Part.get(), Vars, Dims, SeenVars);
  }
  for (const SymRef &Child : {S->A, S->B, S->C})
    collectTidDims(Child.get(), Vars, Dims, SeenVars);
}



// --- Shapes of the data (issue 23) -----------------------------------------------------

/// A thread index of the warp's lanes: `t % K` with K dividing 32, `t & M` with M + 1 a
/// power of two up to 32 (the same lanes in every warp).
static bool isLaneForm(const Sym *A) {
  A = skipCasts(A);
  if (!A || !A->B || !mentionsThreadIdx(*A))
    return false;
  const Sym *K = skipCasts(A->B.get());
  if (K->Op != SymOp::Const || K->Value <= 0 || !isMonotone(A->A.get()))
    return false;
  return (A->Op == SymOp::Rem && 32 % K->Value == 0) ||
         (A->Op == SymOp::And && K->Value < 32 && ((K->Value + 1) & K->Value) == 0);
}

bool mentionsBlockIdx(const Sym *S, const std::vector<SymVarInfo> &Vars) {
  if (!S)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  return llvm::any_of(Used, [&](unsigned V) {
    return V < Vars.size() && Vars[V].Kind == SymVarInfo::BlockIdx;
  });
}

/// Two forms that are the same expression node for node, conversions aside.
bool sameUpToCasts(const Sym *A, const Sym *B) {
  A = skipCasts(A);
  B = skipCasts(B);
  if (A == B)
    return true;
  if (!A || !B || A->Op != B->Op || A->Value != B->Value)
    return false;
  return sameUpToCasts(A->A.get(), B->A.get()) && sameUpToCasts(A->B.get(), B->B.get()) &&
         sameUpToCasts(A->C.get(), B->C.get());
}

namespace {

/// S, a sum of one thread-dependent term with uniform terms: that term (else S).
const Sym *threadTerm(const Sym *S) {
  S = skipCasts(S);
  while (S && (S->Op == SymOp::Add || S->Op == SymOp::Sub) && S->A && S->B) {
    bool AT = mentionsThreadIdx(*S->A), BT = mentionsThreadIdx(*S->B);
    if (AT == BT || (S->Op == SymOp::Sub && BT))
      break;
    S = skipCasts(AT ? S->A.get() : S->B.get());
  }
  return S;
}

} // namespace

bool isRowColumnTest(const Sym *S) {
  std::vector<const Sym *> Parts;
  conjuncts(S, Parts);
  bool Any = false;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (!P || !mentionsThreadIdx(*P))
      continue;
    if ((P->Op != SymOp::Lt && P->Op != SymOp::Le && P->Op != SymOp::Gt &&
         P->Op != SymOp::Ge) || !P->A || !P->B)
      return false;
    const Sym *X = threadTerm(P->A.get()), *Y = threadTerm(P->B.get());
    if (!X || !Y)
      return false;
    // The row of a batch of square matrices, `(idx / n) % n` (a head's T x T scores
    // flattened over batch and head): the row within its matrix, constant along a row of
    // n threads as `idx / n` is. A residue by another count (`(idx / n) % 8`) is a band
    // of columns repeated in every row, not the diagonal.
    auto rowOf = [](const Sym *R) {
      const Sym *In = R->Op == SymOp::Rem && R->A && R->B && !mentionsThreadIdx(*R->B)
                          ? skipCasts(R->A.get())
                          : nullptr;
      return In && In->Op == SymOp::Div && In->B && sameUpToCasts(In->B.get(), R->B.get())
                 ? In
                 : R;
    };
    X = rowOf(X);
    Y = rowOf(Y);
    if (X->Op == SymOp::Rem)
      std::swap(X, Y);
    // The row `idx / n` and the column `idx % n` of one index by one uniform width.
    if (X->Op != SymOp::Div || Y->Op != SymOp::Rem || !X->B || !Y->B ||
        mentionsThreadIdx(*X->B) || !sameUpToCasts(X->A.get(), Y->A.get()) ||
        !sameUpToCasts(X->B.get(), Y->B.get()) || !mentionsThreadIdx(*X->A))
      return false;
    Any = true;
  }
  return Any;
}

bool isTurnTest(const Sym *S, const SymVars &Vars) {
  std::vector<const Sym *> Parts;
  conjuncts(S, Parts);
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (!P || P->Op != SymOp::Eq || !P->A || !P->B)
      continue;
    const Sym *X = skipCasts(P->A.get()), *C = skipCasts(P->B.get());
    if (C->Op != SymOp::Var)
      std::swap(X, C);
    if (C->Op != SymOp::Var || C->Value < 0 || size_t(C->Value) >= Vars.size())
      continue;
    const SymVarInfo &V = Vars[size_t(C->Value)];
    // A counter that takes each value once: a block-uniform loop's, stepping by addition.
    bool Counter = (V.Kind == SymVarInfo::Loop && V.LoopVariance == Variance::Uniform &&
                    !V.Growing && !V.Shrinking) ||
                   V.Kind == SymVarInfo::Iteration;
    if (Counter && mentionsThreadIdx(*X) && !mentionsVar(*X, unsigned(C->Value)))
      return true;
  }
  return false;
}

bool readsGroupLaneOnly(const Sym *S) {
  S = skipCasts(S);
  if (!S || !mentionsThreadIdx(*S))
    return true;
  if (S->Op == SymOp::Rem && isLaneForm(S))
    return true;
  switch (S->Op) {
  case SymOp::Add:
  case SymOp::LAnd:
  case SymOp::Lt:
  case SymOp::Le:
  case SymOp::Gt:
  case SymOp::Ge:
    return readsGroupLaneOnly(S->A.get()) && readsGroupLaneOnly(S->B.get());
  case SymOp::Mul:
    return (!mentionsThreadIdx(*S->A) && readsGroupLaneOnly(S->B.get())) ||
           (!mentionsThreadIdx(*S->B) && readsGroupLaneOnly(S->A.get()));
  case SymOp::Sub:
    return !mentionsThreadIdx(*S->B) && readsGroupLaneOnly(S->A.get());
  default:
    return false;
  }
}

/// S reads a lane index of the warp somewhere.
bool mentionsLaneForm(const Sym *S) {
  if (!S)
    return false;
  if (isLaneForm(S))
    return true;
  for (const SymRef &C : {S->A, S->B, S->C})
    if (mentionsLaneForm(C.get()))
      return true;
  return false;
}

/// An arm that does no work: nothing, a plain value (a local, a constant, an element of
/// the thread's own array), as the kept side of `x = c ? f(a) : x`.
bool isIdleArm(const Expr *E) {
  if (!E)
    return true;
  E = E->IgnoreParenImpCasts();
  if (auto *C = dyn_cast<CXXConstructExpr>(E))
    if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      return isIdleArm(C->getArg(0));
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral>(E))
    return true;
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DR->getDecl()))
      return true;
    auto *V = dyn_cast<VarDecl>(DR->getDecl());
    return V && V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>();
  }
  return isThreadLocalElement(E);
}

/// Straight-line work of a statement or two: assignments, increments, declarations whose
/// calls only compute in registers (`MAGMA_Z_MAKE`, `cuConj`), and a nested `if` of such
/// arms (`else if (i == tx) la[i][i] = ...`). A warp issues it in a few instructions,
/// masked where lanes disagree.
bool storesRegisterValue(const Stmt *S) {
  while (auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      return false;
    S = CS->body_front();
  }
  auto *E = dyn_cast_or_null<Expr>(S);
  auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!B || B->getOpcode() != BO_Assign)
    return false;
  // The stored value, and the address's indices: registers only (`s[256 + tid] = 0`).
  const Expr *Target = B->getLHS()->IgnoreParenImpCasts();
  const Expr *Index = nullptr;
  if (auto *A = dyn_cast<ArraySubscriptExpr>(Target))
    Index = A->getIdx();
  else if (!isa<MemberExpr, UnaryOperator>(Target))
    return false;
  return movesRegistersOnly(B->getRHS()) && (!Index || movesRegistersOnly(Index));
}

namespace {

/// A call that loads one value: a cache-hinted load intrinsic (`__ldg`, `__ldcg`, `__ldca`,
/// `__ldcs`, `__ldlu`, `__ldcv`), or a function whose body returns such a call, Depth
/// levels down.
bool isLoadCall(const CallExpr *C, unsigned Depth) {
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F)
    return false;
  if (F->getIdentifier() && isCacheHintedLoad(F->getName()))
    return true;
  const FunctionDecl *Def = nullptr;
  if (Depth == 0 || !F->hasBody(Def) || !Def)
    return false;
  auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  auto *R = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  auto *Inner = R && R->getRetValue()
                    ? dyn_cast<CallExpr>(R->getRetValue()->IgnoreParenImpCasts())
                    : nullptr;
  return Inner && isLoadCall(Inner, Depth - 1);
}

} // namespace

int lightStatements(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return 0;
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    return sumOverBody(*CS, lightStatements);
  if (auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable() || !movesRegistersOnly(If->getCond()))
      return -1;
    int T = lightStatements(If->getThen()), E = lightStatements(If->getElse());
    return T < 0 || E < 0 ? -1 : std::max(T, E);
  }
  if (!isa<Expr, DeclStmt>(S))
    return -1;
  // Memory may be read and written; calls must be register-only arithmetic.
  std::function<bool(const Stmt *)> Plain = [&](const Stmt *X) {
    if (!X)
      return true;
    if (isa<ConditionalOperator, BinaryConditionalOperator, StmtExpr, LambdaExpr>(X))
      return false;
    if (auto *C = dyn_cast<CallExpr>(X)) {
      // The trivial assignment of a struct (`sA(j, tx2) = cuConj(...)`) is a store.
      auto *MD = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
      bool TrivialAssign = MD && MD->isTrivial() &&
                           (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator());
      // An atomic (`atomicAdd(&c[i], v)`) is one read-modify-write of memory, a store; a
      // cache-hinted load (`__ldg(p)`, or a function that returns one: `__cachingLoad(p)`,
      // `Ld<LD_NC>::load(p)`) is a load.
      const FunctionDecl *Callee = C->getDirectCallee();
      bool Atomic = Callee && Callee->getIdentifier() &&
                    Callee->getName().starts_with("atomic") && C->getNumArgs() >= 2;
      if (!TrivialAssign && !Atomic && !isLoadCall(C, 2) && !movesRegistersOnly(C)) {
        // A call whose arguments read memory is register-only once they are loaded.
        const FunctionDecl *F = C->getDirectCallee();
        const FunctionDecl *Def = nullptr;
        if (!F || !F->hasBody(Def) || !Def || !movesRegistersOnly(Def->getBody(), 1))
          return false;
      }
    }
    for (const Stmt *Ch : X->children())
      if (!Plain(Ch))
        return false;
    return true;
  };
  return Plain(S) ? 1 : -1;
}

/// Both arms of an `if` are a statement or two of straight-line work.
bool hasLightArms(const BranchSite &B) {
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  if (!If)
    return false;
  int T = lightStatements(If->getThen()), E = lightStatements(If->getElse());
  return T >= 0 && E >= 0 && T <= 2 && E <= 2;
}

/// S lies inside a loop of its function.
const Stmt *enclosingLoop(const Stmt *S, ParentsOf ParentsFn) {
  DynTypedNodeList Parents = ParentsFn(DynTypedNode::create(*S));
  for (unsigned Depth = 0; Depth < 256 && !Parents.empty(); ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (auto *L = P.get<ForStmt>())
      return L;
    if (auto *L = P.get<WhileStmt>())
      return L;
    if (auto *L = P.get<DoStmt>())
      return L;
    if (auto *L = P.get<CXXForRangeStmt>())
      return L;
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return nullptr;
    Parents = ParentsFn(P);
  }
  return nullptr;
}

bool insideLoop(const Stmt *S, ParentsOf ParentsFn) { return enclosingLoop(S, ParentsFn); }

std::optional<BuiltinRead> builtinRead(const PseudoObjectExpr *POE) {
  // `(blockIdx.y)` keeps its parentheses inside the syntactic form.
  auto *PR = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!PR)
    return std::nullopt;
  const Expr *Base = PR->getBaseExpr()->IgnoreImpCasts();
  if (auto *OV = dyn_cast<OpaqueValueExpr>(Base))
    Base = OV->getSourceExpr()->IgnoreImpCasts();
  auto *DR = dyn_cast<DeclRefExpr>(Base);
  if (!DR)
    return std::nullopt;
  StringRef Prop = PR->getPropertyDecl()->getName();
  return BuiltinRead{DR->getDecl()->getName(), Prop == "x" ? 0u : Prop == "y" ? 1u : 2u};
}

namespace {
/// A barrier, fence, warp-synchronous call or atomic anywhere in S.
bool callsSyncOrAtomic(const Stmt *S) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee(); F && F->getIdentifier()) {
      StringRef N = F->getName();
      if (N.starts_with("atomic") || N.starts_with("__sync") || N.starts_with("__threadfence") ||
          N.contains("_sync") || N == "sync" || N.starts_with("__atomic") ||
          N.starts_with("__nvvm_atom"))
        return true;
    }
  for (const Stmt *Ch : S->children())
    if (callsSyncOrAtomic(Ch))
      return true;
  return false;
}



/// `threadIdx.d`, or a local whose initializer is one (`const int ltidx = threadIdx.x;`).
bool isBareThreadIndex(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->hasLocalStorage() && V->getInit() && V->getType().isConstQualified())
        return isBareThreadIndex(V->getInit());
  if (auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  // clang's CUDA builtins are properties (`threadIdx.x` a MSPropertyRefExpr); a mock
  // header's are fields.
  const Expr *Base = nullptr;
  if (auto *P = dyn_cast<MSPropertyRefExpr>(E))
    Base = P->getBaseExpr();
  else if (auto *M = dyn_cast<MemberExpr>(E))
    Base = M->getBase();
  if (Base)
    Base = Base->IgnoreParenImpCasts();
  if (auto *O = dyn_cast_or_null<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr() ? O->getSourceExpr()->IgnoreParenImpCasts() : nullptr;
  auto *DR = Base ? dyn_cast<DeclRefExpr>(Base) : nullptr;
  return DR && DR->getDecl()->getName() == "threadIdx";
}

/// The function whose body holds S.
const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Ps = Ctx.getParents(*S);
  for (unsigned Steps = 0; !Ps.empty() && Steps < 256; ++Steps) {
    if (auto *F = Ps[0].get<FunctionDecl>())
      return F;
    if (auto *St = Ps[0].get<Stmt>())
      Ps = Ctx.getParents(*St);
    else if (auto *D = Ps[0].get<Decl>())
      Ps = Ctx.getParents(*D);
    else
      break;
  }
  return nullptr;
}

/// The loops around S, as source ranges.
std::vector<SourceRange> enclosingLoops(const Stmt *S, ASTContext &Ctx) {
  std::vector<SourceRange> Out;
  DynTypedNodeList Ps = Ctx.getParents(*S);
  for (unsigned Steps = 0; !Ps.empty() && Steps < 256; ++Steps) {
    auto *P = Ps[0].get<Stmt>();
    if (!P)
      break;
    if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) || isa<CXXForRangeStmt>(P))
      Out.push_back(P->getSourceRange());
    Ps = Ctx.getParents(*P);
  }
  return Out;
}

/// The values of a local that may reach Use, read from Body: its initializer and the right
/// side of each plain assignment before Use in the source, or anywhere in a loop around
/// Use; with whether the assignment sits under `if (V)` (where it can only narrow a flag:
/// the lanes that reach it already hold it true). False when such a write is of another
/// kind (a compound assignment, an increment, the address taken).
bool valuesOf(const VarDecl *V, const Stmt *Body, const Stmt *Use, ASTContext &Ctx,
              std::vector<std::pair<const Expr *, bool>> &Out) {
  if (V->getInit())
    Out.push_back({V->getInit(), false});
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<SourceRange> Loops = enclosingLoops(Use, Ctx);
  SourceLocation At = Use->getBeginLoc();
  auto Reaches = [&](const Stmt *W) {
    SourceLocation L = W->getBeginLoc();
    if (SM.isBeforeInTranslationUnit(L, At))
      return true;
    for (const SourceRange &R : Loops)
      if (!SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
          !SM.isBeforeInTranslationUnit(R.getEnd(), L))
        return true;
    return false;
  };
  bool Ok = true;
  auto Names = [&](const Expr *E) {
    auto *DR = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return DR && DR->getDecl() == V;
  };
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S, bool Under) {
    if (!S || !Ok)
      return;
    if (auto *If = dyn_cast<IfStmt>(S)) {
      Walk(If->getCond(), Under);
      Walk(If->getThen(), Under || Names(If->getCond()));
      Walk(If->getElse(), Under);
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && Names(B->getLHS())) {
      if (Reaches(B)) {
        if (B->getOpcode() != BO_Assign)
          Ok = false;
        Out.push_back({B->getRHS(), Under});
      }
      Walk(B->getRHS(), Under);
      return;
    }
    if (auto *U = dyn_cast<UnaryOperator>(S);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        Names(U->getSubExpr()) && Reaches(U))
      Ok = false;
    for (const Stmt *C : S->children())
      Walk(C, Under);
  };
  Walk(Body, false);
  return Ok;
}

/// An integer constant expression (a literal, a macro's arithmetic, a constexpr).
static bool isIntConstant(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  return !E->isValueDependent() && E->EvaluateAsInt(R, Ctx);
}

/// A thread index of the block: `threadIdx.d`, a sum of such and constants, a thread index
/// times a constant (`tx + ty * BLOCK_X`, the flat index), or a local holding one in every
/// value it takes.
bool isThreadIndexForm(const Expr *E, const Stmt *Body, ASTContext &Ctx, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8)
    return false;
  if (isBareThreadIndex(E))
    return true;
  auto Constant = [&](const Expr *X) { return isIntConstant(X, Ctx); };
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = B->getLHS(), *R = B->getRHS();
    switch (B->getOpcode()) {
    case BO_Add:
      return (isThreadIndexForm(L, Body, Ctx, Depth + 1) || Constant(L)) &&
             (isThreadIndexForm(R, Body, Ctx, Depth + 1) || Constant(R)) &&
             !(Constant(L) && Constant(R));
    case BO_Mul:
      return (isThreadIndexForm(L, Body, Ctx, Depth + 1) && Constant(R)) ||
             (Constant(L) && isThreadIndexForm(R, Body, Ctx, Depth + 1));
    default:
      return false;
    }
  }
  auto *DR = dyn_cast<DeclRefExpr>(E);
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  std::vector<std::pair<const Expr *, bool>> Values;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !Body ||
      !valuesOf(V, Body, E, Ctx, Values) || Values.empty())
    return false;
  return llvm::all_of(Values, [&](const std::pair<const Expr *, bool> &X) {
    return isThreadIndexForm(X.first, Body, Ctx, Depth + 1);
  });
}

/// A thread index against a compile-time constant, or `&&` of such; or a flag set to such
/// a test and otherwise only narrowed under `if (flag)` (`halo = k < 84; if (halo) { ...
/// halo = i >= 0 && i < NX; }`, HeCBench's laplace3d).
bool isEdgeBandTest(const Expr *C, ASTContext &Ctx, const Stmt *Body, unsigned Depth = 0) {
  C = C->IgnoreParenImpCasts();
  if (Depth > 4)
    return false;
  if (auto *DR = dyn_cast<DeclRefExpr>(C)) {
    auto *V = dyn_cast<VarDecl>(DR->getDecl());
    std::vector<std::pair<const Expr *, bool>> Values;
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !Body ||
        !valuesOf(V, Body, C, Ctx, Values))
      return false;
    bool Band = false;
    for (const auto &[Value, Refined] : Values) {
      if (Refined)
        continue;
      if (!isEdgeBandTest(Value, Ctx, Body, Depth + 1))
        return false;
      Band = true;
    }
    return Band;
  }
  auto *B = dyn_cast<BinaryOperator>(C);
  if (!B)
    return false;
  if (B->getOpcode() == BO_LAnd)
    return isEdgeBandTest(B->getLHS(), Ctx, Body, Depth) &&
           isEdgeBandTest(B->getRHS(), Ctx, Body, Depth);
  if (!B->isComparisonOp() || B->getOpcode() == BO_NE)
    return false;
  auto Constant = [&](const Expr *E) { return isIntConstant(E, Ctx); };
  auto Index = [&](const Expr *E) {
    return isBareThreadIndex(E) || (Body && isThreadIndexForm(E, Body, Ctx, 0));
  };
  return (Index(B->getLHS()) && Constant(B->getRHS())) ||
         (Index(B->getRHS()) && Constant(B->getLHS()));
}

/// A `__shared__` array's element (`tile[ty][ltidx]`, `ss[f(x, y)]`).
bool isSharedElement(const Expr *E) {
  const VarDecl *V = subscriptedVar(E);
  return V && V->hasAttr<CUDASharedAttr>();
}

/// Statements that write only shared arrays and locals: assignments, declarations of
/// locals, nested `if`s of the same; no loop, jump, barrier or atomic (a call of either
/// anywhere in it).
bool fillsSharedOnly(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(CS->body(), fillsSharedOnly);
  if (auto *If = dyn_cast<IfStmt>(S))
    return !If->getInit() && fillsSharedOnly(If->getThen()) && fillsSharedOnly(If->getElse()) &&
           !callsSyncOrAtomic(If->getCond());
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D))
        if (!V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>() ||
            (V->getInit() && callsSyncOrAtomic(V->getInit())))
          return false;
    return true;
  }
  auto *B = dyn_cast<BinaryOperator>(S);
  if (!B || !B->isAssignmentOp() || callsSyncOrAtomic(B->getRHS()))
    return false;
  return isSharedElement(B->getLHS()) || isThreadLocal(B->getLHS(), 0);
}
} // namespace

bool isTileEdgeFill(const BranchSite &B, ASTContext &Ctx) {
  if (B.Kind != BranchSite::If || !isOneArmed(B))
    return false;
  auto *If = dyn_cast<IfStmt>(B.Branch);
  if (!If || If->getInit() || If->getConditionVariable() || !B.Cond)
    return false;
  const Stmt *Then = If->getThen();
  bool Shared = false;
  // At least one shared store: the tile's.
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *Bo = dyn_cast<BinaryOperator>(S))
      Shared |= Bo->isAssignmentOp() && isSharedElement(Bo->getLHS());
    for (const Stmt *C : S->children())
      Find(C);
  };
  Find(Then);
  const FunctionDecl *F = enclosingFunction(B.Branch, Ctx);
  return Shared && isEdgeBandTest(B.Cond, Ctx, F ? F->getBody() : nullptr) &&
         fillsSharedOnly(Then);
}

/// One side of the branch does no work, so that nothing is serialized: the lanes off the
/// path only wait. An `if` with no else (not an early exit, whose lanes skip the rest of
/// the kernel), a `?:` with an idle arm, a loop condition (the lanes that left wait for
/// the others' trips).
bool isOneArmed(const BranchSite &B) {
  switch (B.Kind) {
  case BranchSite::Loop:
    return true;
  case BranchSite::If: {
    auto *If = dyn_cast<IfStmt>(B.Branch);
    return If && !B.EarlyExit &&
           (!If->getElse() || isa<NullStmt>(If->getElse()) || isSelfStore(If->getElse()));
  }
  case BranchSite::Conditional: {
    auto *C = dyn_cast<ConditionalOperator>(B.Branch);
    return C && (isIdleArm(C->getTrueExpr()) || isIdleArm(C->getFalseExpr()));
  }
  default:
    return false;
  }
}

/// A lane role chosen by the programmer: a lane index of the warp (`t & 31`, `t % 32`,
/// `t % 16`: the same lanes in every warp) against a compile-time limit (`lane < 16`).
/// The same lanes of every warp idle whatever the data: the warp-synchronous tree of a
/// warp per row, which a shuffle reduction does with no branch.
bool isLaneRoleTest(const Sym *S) {
  std::vector<const Sym *> Parts;
  conjuncts(S, Parts);
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (!P || !P->A || !P->B ||
        (P->Op != SymOp::Lt && P->Op != SymOp::Le && P->Op != SymOp::Gt && P->Op != SymOp::Ge))
      continue;
    const Sym *A = skipCasts(P->A.get()), *B = skipCasts(P->B.get());
    if (mentionsThreadIdx(*B))
      std::swap(A, B);
    if (!mentionsThreadIdx(*B) && B->Op == SymOp::Const && isLaneForm(A))
      return true;
  }
  return false;
}

bool isLanePaddingTest(const Sym *S) {
  S = skipCasts(S);
  if (!S || !S->A || !S->B || (S->Op != SymOp::Ge && S->Op != SymOp::Gt && S->Op != SymOp::Lt &&
                               S->Op != SymOp::Le))
    return false;
  const Sym *A = skipCasts(S->A.get()), *B = skipCasts(S->B.get());
  bool Lane = isLaneForm(A) && B->Op == SymOp::Const;
  bool Flipped = isLaneForm(B) && A->Op == SymOp::Const;
  if (!Lane && !Flipped)
    return false;
  // The lanes past the count take the exit: `lane >= C` (or `C <= lane`), C inside the warp.
  int64_t C = Lane ? B->Value : A->Value;
  bool Past = Lane ? (S->Op == SymOp::Ge || S->Op == SymOp::Gt)
                   : (S->Op == SymOp::Le || S->Op == SymOp::Lt);
  return Past && C > 0 && C < 32;
}

/// The boundary of the split is set by the data: the condition (a loop's start and bound)
/// reads a run-time value (a size, blockIdx, a parameter, a loaded value) or a loop counter,
/// not only thread indices and compile-time values. A split of the thread index alone
/// (`tid % 2`, `threadIdx.y % 2` with rows of 16, `lane < 16`) is the programmer's choice of
/// lanes, the same in every warp, and a remapping of threads changes it; so is a split by
/// a counter that doubles or halves (the steps of a scan or a tree, `lane >= i` for i = 1,
/// 2, 4, ...).
bool isDataBoundary(const BranchSite &B, const Sym *CondS, const SymVars &Vars) {
  // A boundary is an ordered comparison (`i < tx`, `tx + k < partial`), or a conjunction,
  // disjunction or negation of such; a parity, modulo or equality test of the thread is a
  // pattern (`R % 2` over rows), not an edge.
  std::function<bool(const Sym *)> Ordered = [&](const Sym *S) -> bool {
    S = skipCasts(S);
    if (!S)
      return false;
    if (!mentionsThreadIdx(*S))
      return true;
    switch (S->Op) {
    case SymOp::Lt: case SymOp::Le: case SymOp::Gt: case SymOp::Ge:
      return true;
    case SymOp::LNot:
      return Ordered(S->A.get());
    case SymOp::LAnd: case SymOp::LOr:
      return Ordered(S->A.get()) && Ordered(S->B.get());
    case SymOp::And: case SymOp::Or:
      return isTruthAndOr(S) && Ordered(S->A.get()) && Ordered(S->B.get());
    case SymOp::Ne:
      return S->B && skipCasts(S->B.get())->Op == SymOp::Const &&
             skipCasts(S->B.get())->Value == 0 && Ordered(S->A.get());
    case SymOp::Select:
      return S->B && S->C && skipCasts(S->B.get())->Op == SymOp::Const &&
             skipCasts(S->C.get())->Op == SymOp::Const && Ordered(S->A.get());
    default:
      return false;
    }
  };
  std::vector<unsigned> Used;
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0) {
    const SymVarInfo &L = Vars[B.LoopVar];
    for (const SymRef *P : {&L.Init, &L.Cond, &L.Step})
      if (*P)
        collectVars(**P, Used);
  } else if (CondS && Ordered(CondS)) {
    collectVars(*CondS, Used);
  }
  for (unsigned V : Used)
    if (V < Vars.size() && int(V) != B.LoopVar &&
        ((Vars[V].Kind == SymVarInfo::Loop && !Vars[V].Growing && !Vars[V].Shrinking) ||
         Vars[V].Kind == SymVarInfo::Iteration || isSampledVar(V, Vars)))
      return true;
  return false;
}

/// A step of a block's tree reduction written out with constants: `if (tx < 16 && tx + 16
/// < M) s[tx] += s[tx + 16];`, the guard's limit C a power of two and the arm reading the
/// element C further on. The unrolled form of `for (s = blockDim.x / 2; s > 0; s >>= 1)
/// if (tid < s)`, on the block's thread index (a lane index `lane < 16` is a warp's own
/// tree, in every warp).
bool isUnrolledTreeStep(const BranchSite &B, const Sym *CondS, ASTContext &Ctx) {
  auto *If = B.Kind == BranchSite::If ? dyn_cast<IfStmt>(B.Branch) : nullptr;
  if (!If || If->getElse() || B.EarlyExit || !CondS || isLaneRoleTest(CondS))
    return false;
  std::vector<const Sym *> Parts;
  conjuncts(CondS, Parts);
  // A conjunct `threadIdx.x < K`, K uniform: the block's first threads (a lane or
  // group index, `lane < 16`, is every warp's own tree: not this idiom).
  bool ThreadBelow = false;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (P && P->Op == SymOp::Lt && P->A && P->B &&
        skipCasts(P->A.get())->Op == SymOp::ThreadIdx && !mentionsThreadIdx(*P->B))
      ThreadBelow = true;
  }
  if (!ThreadBelow)
    return false;
  // The limits as written: K of every conjunct `t < K` of the condition (a constant, or a
  // uniform expression such as hog's `patch_size / 2`).
  auto Key = [&](const Expr *E) {
    llvm::FoldingSetNodeID ID;
    E->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
    return ID;
  };
  std::vector<llvm::FoldingSetNodeID> Limits;
  std::vector<int64_t> ConstLimits;
  std::function<void(const Expr *)> Conj = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    auto *Bin = dyn_cast<BinaryOperator>(E);
    if (!Bin)
      return;
    if (Bin->getOpcode() == BO_LAnd) {
      Conj(Bin->getLHS());
      Conj(Bin->getRHS());
      return;
    }
    if (Bin->getOpcode() != BO_LT || Bin->getRHS()->isValueDependent())
      return;
    Limits.push_back(Key(Bin->getRHS()));
    Expr::EvalResult R;
    if (Bin->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.getInt().getExtValue() > 0)
      ConstLimits.push_back(R.Val.getInt().getExtValue());
  };
  Conj(If->getCond());
  if (Limits.empty())
    return false;
  auto IsLimit = [&](const Expr *E) {
    if (E->isValueDependent())
      return false;
    llvm::FoldingSetNodeID K = Key(E);
    if (std::find(Limits.begin(), Limits.end(), K) != Limits.end())
      return true;
    Expr::EvalResult R;
    return E->EvaluateAsInt(R, Ctx) &&
           std::find(ConstLimits.begin(), ConstLimits.end(), R.Val.getInt().getExtValue()) !=
               ConstLimits.end();
  };
  // The subscripts of the arm, by array and index: `s[v]` and `s[v + K]` (v any index
  // expression: a variable, threadIdx.x), or `p[0]` and `p[K]` with p a lane's own pointer.
  auto BaseOf = [](const Expr *E) -> const Decl * {
    E = E->IgnoreParenImpCasts();
    if (auto *DR = dyn_cast<DeclRefExpr>(E))
      return DR->getDecl();
    if (auto *M = dyn_cast<MemberExpr>(E))
      return M->getMemberDecl();
    return nullptr;
  };
  struct Sub {
    const Decl *Base;
    llvm::FoldingSetNodeID Index; // empty for a constant 0 index and its `p[K]`
    bool AtLimit;
  };
  std::vector<Sub> Subs;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
      const Decl *Base = BaseOf(A->getBase());
      const Expr *Idx = A->getIdx()->IgnoreParenImpCasts();
      Expr::EvalResult R;
      if (!Base || Idx->isValueDependent()) {
      } else if (Idx->EvaluateAsInt(R, Ctx) && R.Val.getInt().getExtValue() == 0) {
        Subs.push_back({Base, {}, false});
      } else if (IsLimit(Idx)) {
        Subs.push_back({Base, {}, true});
      } else if (auto *Add = dyn_cast<BinaryOperator>(Idx);
                 Add && Add->getOpcode() == BO_Add && IsLimit(Add->getRHS())) {
        Subs.push_back({Base, Key(Add->getLHS()), true});
      } else {
        Subs.push_back({Base, Key(Idx), false});
      }
    }
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(If->getThen());
  for (const Sub &Own : Subs)
    for (const Sub &Other : Subs)
      if (!Own.AtLimit && Other.AtLimit && Own.Base == Other.Base && Own.Index == Other.Index)
        return true;
  return false;
}

namespace {

/// The block that holds S as one of its statements, if any.
const CompoundStmt *enclosingBlock(const Stmt *S, ParentsOf Parents) {
  for (const DynTypedNode &P : Parents(DynTypedNode::create(*S)))
    if (auto *Block = P.get<CompoundStmt>())
      return Block;
  return nullptr;
}

bool hasWarpCollective(const Stmt *S, unsigned Depth);

} // namespace

bool isReductionFinalStep(const BranchSite &B, const Sym *CondS, ParentsOf Parents) {
  auto *If = B.Kind == BranchSite::If ? dyn_cast<IfStmt>(B.Branch) : nullptr;
  if (!If || If->getElse() || B.EarlyExit || !CondS)
    return false;
  // The first K threads: `threadIdx < K` among the conjuncts; or the first row (plane),
  // `threadIdx.y == 0`, which is `threadIdx.y < 1`.
  std::vector<const Sym *> Parts;
  conjuncts(CondS, Parts);
  bool Prefix = false;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    Prefix |= P && (P->Op == SymOp::Lt || P->Op == SymOp::Le) && P->A && P->B &&
              skipCasts(P->A.get())->Op == SymOp::ThreadIdx && !mentionsLaneForm(P->B.get());
    if (P && P->Op == SymOp::Eq && P->A && P->B) {
      const Sym *X = skipCasts(P->A.get()), *Y = skipCasts(P->B.get());
      if (X->Op == SymOp::Const)
        std::swap(X, Y);
      Prefix |= X->Op == SymOp::ThreadIdx && X->Value > 0 && Y->Op == SymOp::Const &&
                Y->Value == 0;
    }
  }
  if (!Prefix)
    return false;
  // After a barrier: the statements between it and the `if` only set locals.
  const CompoundStmt *Block = enclosingBlock(If, Parents);
  if (!Block)
    return false;
  auto IsBarrier = [](const Stmt *S) {
    if (auto *E = dyn_cast<Expr>(S))
      if (auto *C = dyn_cast<CallExpr>(E->IgnoreImplicit()))
        if (const FunctionDecl *FD = C->getDirectCallee())
          return FD->getIdentifier() && FD->getName() == "__syncthreads";
    return false;
  };
  auto SetsLocal = [](const Stmt *S) {
    if (isa<DeclStmt>(S))
      return true;
    auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    const Expr *LHS = nullptr;
    if (auto *A = dyn_cast<BinaryOperator>(E->IgnoreImplicit()); A && A->getOpcode() == BO_Assign)
      LHS = A->getLHS();
    // A class's assignment (`zsum = MAGMA_Z_ZERO` of a complex struct).
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit());
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      LHS = OC->getArg(0);
    if (!LHS)
      return false;
    auto *DR = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts());
    auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && V->hasLocalStorage();
  };
  bool AfterBarrier = false;
  const Stmt *Prev = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == If) {
      AfterBarrier = Prev && IsBarrier(Prev);
      break;
    }
    if (!(Prev && IsBarrier(Prev) && SetsLocal(S)))
      Prev = S; // keep the barrier as the previous statement across local settings
  }
  if (!AfterBarrier)
    return false;
  // The arm sums array elements in a loop: `acc += a[...]` inside a loop of the arm (or
  // keeps their maximum or minimum); or
  // it reads the block's partials from an array and sums them by a warp's shuffle tree
  // (`v = partial[threadIdx.x]; for (o = 8; o > 0; o /= 2) v += __shfl_down_sync(...)`).
  bool Sums = false, ShuffleSum = false, ReadsArray = false;
  std::function<void(const Stmt *)> FindRead = [&](const Stmt *S) {
    if (!S || ReadsArray)
      return;
    ReadsArray = isa<ArraySubscriptExpr>(S);
    for (const Stmt *C : S->children())
      FindRead(C);
  };
  FindRead(If->getThen());
  std::function<void(const Stmt *, bool)> Visit = [&](const Stmt *S, bool InLoop) {
    if (!S || Sums)
      return;
    bool Loop = InLoop || isa<ForStmt, WhileStmt, DoStmt>(S);
    const Expr *Added = nullptr;
    if (auto *CA = dyn_cast<CompoundAssignOperator>(S); CA && CA->getOpcode() == BO_AddAssign)
      Added = CA->getRHS();
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S); OC && OC->getOperator() == OO_PlusEqual &&
                                                    OC->getNumArgs() == 2)
      Added = OC->getArg(1);
    if (Added && InLoop && hasWarpCollective(Added, 0))
      ShuffleSum = true;
    std::function<bool(const Stmt *)> ReadsElement = [&](const Stmt *E) {
      if (!E)
        return false;
      if (isa<ArraySubscriptExpr>(E))
        return true;
      if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
        return true;
      for (const Stmt *C : E->children())
        if (ReadsElement(C))
          return true;
      return false;
    };
    if (Added && InLoop)
      Sums = ReadsElement(Added);
    // A running maximum or minimum (`if (s[y] > best) best = s[y];`, `best = fmaxf(best,
    // s[y])`): the same reduction with another operator.
    if (auto *RI = dyn_cast<IfStmt>(S); RI && InLoop && !RI->getElse()) {
      auto *Cmp = dyn_cast_or_null<BinaryOperator>(
          RI->getCond() ? RI->getCond()->IgnoreParenImpCasts() : nullptr);
      bool Takes = false;
      std::function<void(const Stmt *)> Assigns = [&](const Stmt *X) {
        if (!X || Takes)
          return;
        if (auto *A = dyn_cast<BinaryOperator>(X); A && A->getOpcode() == BO_Assign)
          if (auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts()))
            if (auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasLocalStorage())
              Takes = ReadsElement(A->getRHS());
        for (const Stmt *C : X->children())
          Assigns(C);
      };
      Assigns(RI->getThen());
      Sums |= Cmp && Cmp->isRelationalOp() && ReadsElement(Cmp) && Takes;
    }
    if (auto *A = dyn_cast<BinaryOperator>(S); A && InLoop && A->getOpcode() == BO_Assign)
      if (auto *C = dyn_cast<CallExpr>(A->getRHS()->IgnoreParenImpCasts()))
        if (const FunctionDecl *F = C->getDirectCallee(); F && F->getIdentifier()) {
          StringRef N = F->getName();
          Sums |= (N == "max" || N == "min" || N == "fmaxf" || N == "fminf" || N == "fmax" ||
                   N == "fmin") &&
                  ReadsElement(C);
        }
    for (const Stmt *C : S->children())
      Visit(C, Loop);
  };
  Visit(If->getThen(), false);
  return Sums || (ShuffleSum && ReadsArray);
}

namespace {

/// A call that leaves the warp's result in every lane: a warp-synchronous call that is no
/// barrier (isSyncCallee: a shuffle, vote, match or reduce, cooperative groups' too),
/// written in S or in a function S calls, two levels down (`warpReduceSum(v)` of a
/// shuffle loop).
bool hasWarpCollective(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee()) {
      if (isSyncCallee(F)) {
        StringRef N = F->getName();
        if (!N.starts_with("__syncthreads") && N != "__barrier_sync" && N != "__syncwarp" &&
            N != "sync" && N != "synchronize")
          return true;
      }
      const FunctionDecl *Def = nullptr;
      if (Depth < 2 && F->hasBody(Def) && Def && hasWarpCollective(Def->getBody(), Depth + 1))
        return true;
    }
  for (const Stmt *C : S->children())
    if (hasWarpCollective(C, Depth))
      return true;
  return false;
}

/// E reads no memory but the thread's own locals and arrays; a cooperative group's rank
/// or size (`warp.thread_rank()`) is a register read.
bool readsRegistersOnly(const Expr *E) {
  if (!E)
    return true;
  if (isa<PseudoObjectExpr>(E->IgnoreParenImpCasts())) // threadIdx and friends
    return true;
  // CUDA's header makes a tile's thread_rank() static: a plain call of a member.
  auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (auto *M = dyn_cast_or_null<CXXMethodDecl>(Call ? Call->getDirectCallee() : nullptr)) {
    return M->getParent() &&
           StringRef(M->getParent()->getQualifiedNameAsString()).contains("cooperative_groups") &&
           M->getIdentifier() &&
           (M->getName() == "thread_rank" || M->getName() == "size" ||
            M->getName() == "meta_group_rank" || M->getName() == "num_threads");
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
    return isThreadLocalElement(A) && readsRegistersOnly(A->getIdx());
  if (isa<CallExpr>(E->IgnoreParenImpCasts()))
    return movesRegistersOnly(E);
  if (auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts()))
    if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf ||
        U->isIncrementDecrementOp())
      return false;
  if (auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()); M && M->isArrow())
    return false;
  if (auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()); B && B->isAssignmentOp())
    return false;
  for (const Stmt *C : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(C); C && (!CE || !readsRegistersOnly(CE)))
      return false;
  return true;
}

/// The two sides of a plain assignment, built-in or a class's `operator=`; both null for
/// anything else.
void assignmentSides(const Stmt *S, const Expr *&LHS, const Expr *&RHS) {
  if (auto *B = dyn_cast_or_null<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
    LHS = B->getLHS();
    RHS = B->getRHS();
  } else if (auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    LHS = OC->getArg(0);
    RHS = OC->getArg(1);
  }
}

/// A store of a value held in registers: `out[...] = reg` (a plain assignment to memory,
/// the value and the address computed from the thread's own locals).
bool isRegisterStore(const Stmt *S) {
  const Expr *LHS = nullptr, *RHS = nullptr;
  assignmentSides(S, LHS, RHS);
  if (!LHS || isThreadLocal(LHS, 0) || isThreadLocalElement(LHS) || !readsRegistersOnly(RHS))
    return false;
  const Expr *Address = LHS->IgnoreParenImpCasts();
  if (auto *A = dyn_cast<ArraySubscriptExpr>(Address))
    return readsRegistersOnly(A->getIdx()) && isa<DeclRefExpr, MemberExpr>(
                                                   A->getBase()->IgnoreParenImpCasts());
  if (auto *U = dyn_cast<UnaryOperator>(Address); U && U->getOpcode() == UO_Deref)
    return readsRegistersOnly(U->getSubExpr());
  // An array class's element (`block_partial[i] = v`, ginkgo's uninitialized_array).
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(Address);
      OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return readsRegistersOnly(OC->getArg(1)) &&
           isa<DeclRefExpr, MemberExpr>(OC->getArg(0)->IgnoreParenImpCasts());
  return false;
}

} // namespace

const IfStmt *enclosingIf(const BranchSite &B, ParentsOf ParentsFn) {
  if (B.Kind == BranchSite::If)
    return dyn_cast_or_null<IfStmt>(B.Branch);
  if (B.Kind != BranchSite::ShortCircuit || !B.Branch)
    return nullptr;
  const Stmt *Cur = B.Branch;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    DynTypedNodeList Parents = ParentsFn(DynTypedNode::create(*Cur));
    if (Parents.empty())
      return nullptr;
    if (auto *If = Parents[0].get<IfStmt>())
      return If->getCond() && If->getCond()->IgnoreParenImpCasts() ==
                                  cast<Expr>(Cur)->IgnoreParenImpCasts()
                 ? If
                 : nullptr;
    auto *Op = Parents[0].get<BinaryOperator>();
    if (!Op || Op->getOpcode() != BO_LAnd)
      if (!Parents[0].get<ParenExpr>() && !Parents[0].get<ImplicitCastExpr>())
        return nullptr;
    Cur = Parents[0].get<Stmt>();
    if (!Cur)
      return nullptr;
  }
  return nullptr;
}

bool isValueShortCircuit(const BranchSite &B, ParentsOf ParentsFn) {
  auto *Op = B.Kind == BranchSite::ShortCircuit ? dyn_cast_or_null<BinaryOperator>(B.Branch)
                                                 : nullptr;
  if (!Op || !Op->isLogicalOp() || !movesRegistersOnly(Op->getRHS(), 0, /*Loads=*/true))
    return false;
  // Up through the logical operators, parentheses, conversions and `!` it is an operand
  // of, to what takes its value: a local's initialiser or an assignment to a local.
  const Stmt *Cur = Op;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    DynTypedNodeList Parents = ParentsFn(DynTypedNode::create(*Cur));
    if (Parents.empty())
      return false;
    if (auto *V = Parents[0].get<VarDecl>())
      return V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>() &&
             !V->getType()->isReferenceType() && V->getInit() &&
             V->getInit()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts();
    if (auto *P = Parents[0].get<BinaryOperator>()) {
      if (P->getOpcode() == BO_Assign)
        return P->getRHS()->IgnoreParenImpCasts() == cast<Expr>(Cur)->IgnoreParenImpCasts() &&
               isThreadLocal(P->getLHS(), 0);
      if (!P->isLogicalOp() || !movesRegistersOnly(P->getRHS(), 0, /*Loads=*/true))
        return false;
    } else if (auto *U = Parents[0].get<UnaryOperator>()) {
      if (U->getOpcode() != UO_LNot)
        return false;
    } else if (!Parents[0].get<ParenExpr>() && !Parents[0].get<ImplicitCastExpr>()) {
      return false;
    }
    Cur = Parents[0].get<Stmt>();
    if (!Cur)
      return false;
  }
  return false;
}

namespace {

/// `g == v` with g a thread index taken modulo a group's width (`t % W`, `t & (W - 1)`,
/// nested: `(t % 16) % 8`) and v uniform: the lane that leads each group of W lanes
/// (`thread_group_idx == 0`, `id_in_head % half == 0`), several groups in a warp.
bool isGroupLeaderTest(const Sym *P) {
  auto Sides = threadSidedEquality(P);
  if (!Sides)
    return false;
  const Sym *G = skipCasts(Sides->first);
  if (!((G->Op == SymOp::Rem || G->Op == SymOp::And) && G->A && G->B &&
        mentionsThreadIdx(*G->A) && !mentionsThreadIdx(*G->B)))
    return false;
  if (skipCasts(P)->Op == SymOp::Eq)
    return true;
  // In pairs, `!=` picks one lane of each as `==` does (`(lane & 1) != 0`: the odd lane).
  const Sym *W = skipCasts(G->B.get()), *V = skipCasts(Sides->second);
  bool Pairs = W->Op == SymOp::Const &&
               ((G->Op == SymOp::Rem && W->Value == 2) || (G->Op == SymOp::And && W->Value == 1));
  return Pairs && V->Op == SymOp::Const && (V->Value == 0 || V->Value == 1);
}

/// E computes a value, reading memory perhaps, with no side effect and no work of its
/// own: no assignment, increment, loop, or call other than one that computes in
/// registers (a math function of register values).
bool computesOnly(const Stmt *E) {
  if (!E)
    return true;
  if (isa<PseudoObjectExpr>(E))
    return true;
  if (isa<StmtExpr, LambdaExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(E))
    return false;
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return false;
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    return false;
  // A conversion of a value (`float(h)` of a `__half`: its const conversion operator).
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (auto *Conv = dyn_cast_or_null<CXXConversionDecl>(MC->getMethodDecl());
        Conv && Conv->isConst())
      return computesOnly(MC->getImplicitObjectArgument());
  if (auto *C = dyn_cast<CallExpr>(E)) {
    // A cache-hinted load (`__ldg(p)`, `__cachingLoad(p)`) reads memory, as a subscript.
    if (isLoadCall(C, 2))
      return std::all_of(C->arg_begin(), C->arg_end(),
                         [](const Expr *A) { return computesOnly(A); });
    return movesRegistersOnly(E);
  }
  for (const Stmt *C : E->children())
    if (!computesOnly(C))
      return false;
  return true;
}

/// A statement of a leader's write-out: a declaration of the thread's locals or a plain
/// store (`=`), whose values and addresses compute without side effects (they may read
/// memory: the head's scale, a per-group factor). A run of such statements is issued
/// once, masked to the leaders.
bool isStraightLineWrite(const Stmt *S) {
  // A choice among such writes (`if (other < mine) pick = 1;`, the better of a pair):
  // predicated, still issued once.
  if (auto *If = dyn_cast_or_null<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable() || !computesOnly(If->getCond()))
      return false;
    auto Arm = [](const Stmt *A) {
      if (!A || isa<NullStmt>(A))
        return true;
      if (auto *CS = dyn_cast<CompoundStmt>(A))
        return std::all_of(CS->body_begin(), CS->body_end(), isStraightLineWrite);
      return isStraightLineWrite(A);
    };
    return Arm(If->getThen()) && Arm(If->getElse());
  }
  if (auto *DS = dyn_cast_or_null<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>() ||
          !computesOnly(V->getInit()))
        return false;
    }
    return true;
  }
  if (auto *E = dyn_cast_or_null<Expr>(S))
    S = E->IgnoreImplicit(); // the cleanups of a class's assignment
  const Expr *LHS = nullptr, *RHS = nullptr;
  assignmentSides(S, LHS, RHS);
  // An update of one place (`x[r] += w * d`, `acc /= dia`): its read and its write.
  if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(S)) {
    LHS = CA->getLHS();
    RHS = CA->getRHS();
  }
  return LHS && computesOnly(LHS) && computesOnly(RHS);
}

} // namespace

bool isWarpResultWriteOut(const BranchSite &B, const Sym *CondS, ParentsOf Parents) {
  if (B.EarlyExit || !CondS)
    return false;
  const IfStmt *If = enclosingIf(B, Parents);
  if (!If || (If->getElse() && !isa<NullStmt>(If->getElse())) || If->getInit() ||
      If->getConditionVariable())
    return false;
  // The first K lanes of the warp, K a compile-time count up to the warp's width.
  std::vector<const Sym *> Parts;
  conjuncts(CondS, Parts);
  bool FirstLanes = false;
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (!P || !P->A || !P->B || (P->Op != SymOp::Lt && P->Op != SymOp::Le))
      continue;
    const Sym *K = skipCasts(P->B.get());
    FirstLanes |= isLaneForm(P->A.get()) && K->Op == SymOp::Const && K->Value > 0 &&
                  K->Value <= 32;
  }
  // `lane / S == 0` is `lane < S` (ginkgo's `local_subwarp_id == 0` with local_subwarp_id =
  // threadIdx.x % 32 / subwarp_size: the first subwarp of each warp).
  for (const Sym *P : Parts) {
    P = skipCasts(P);
    if (FirstLanes || !P || P->Op != SymOp::Eq || !P->A || !P->B)
      continue;
    const Sym *Zero = skipCasts(P->B.get()), *Q = skipCasts(P->A.get());
    if (Zero->Op != SymOp::Const || Zero->Value != 0 || !Q->A || !Q->B)
      continue;
    const Sym *S = skipCasts(Q->B.get());
    FirstLanes = S->Op == SymOp::Const && isLaneForm(Q->A.get()) &&
                 ((Q->Op == SymOp::Div && S->Value > 0 && S->Value <= 32) ||
                  (Q->Op == SymOp::Shr && S->Value >= 0 && S->Value <= 5));
  }
  // Or the lane that leads each group of lanes (`t % W == 0`, several groups in a warp)
  // after the groups' shuffle reduction: each leader writes its group's result.
  bool GroupLeader = false;
  if (!FirstLanes)
    for (const Sym *P : Parts)
      GroupLeader |= isGroupLeaderTest(P);
  if (!FirstLanes && !GroupLeader)
    return false;
  // The arm stores values held in registers, and nothing else; a group leader's arm may
  // also declare locals and read memory (the group's scale), straight-line code issued
  // once, masked to the leaders.
  const Stmt *Then = If->getThen();
  std::vector<const Stmt *> Arm;
  if (auto *CS = dyn_cast_or_null<CompoundStmt>(Then))
    Arm.assign(CS->body_begin(), CS->body_end());
  else
    Arm.push_back(Then);
  if (Arm.empty())
    return false;
  for (const Stmt *S : Arm)
    if (GroupLeader ? !isStraightLineWrite(S) : !isRegisterStore(S))
      return false;
  // Right after a warp collective: the statements between it and the `if` only set
  // the thread's locals. For a group's leader the exchange may go through shared memory
  // instead: every lane stores its value to a shared array the arm reads (`ibufs[i] =
  // code; __threadfence_block(); if ((lane & 1) != 0) out[...] = ibufs[i - 1] | ...`).
  std::set<const VarDecl *> ArmReads;
  if (GroupLeader) {
    std::function<void(const Stmt *)> Reads = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *A = dyn_cast<ArraySubscriptExpr>(S))
        if (auto *DR = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts()))
          if (auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->hasAttr<CUDASharedAttr>())
            ArmReads.insert(V);
      for (const Stmt *C : S->children())
        Reads(C);
    };
    Reads(Then);
  }
  auto SharedExchange = [&](const Stmt *S) {
    auto *E = dyn_cast<Expr>(S);
    auto *A = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
    if (!A || A->getOpcode() != BO_Assign)
      return false;
    auto *Sub = dyn_cast<ArraySubscriptExpr>(A->getLHS()->IgnoreParenImpCasts());
    auto *DR = Sub ? dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts()) : nullptr;
    auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && ArmReads.count(V) && !isa<IntegerLiteral>(Sub->getIdx()->IgnoreParenImpCasts());
  };
  auto Fence = [](const Stmt *S) {
    auto *E = dyn_cast<Expr>(S);
    auto *C = E ? dyn_cast<CallExpr>(E->IgnoreParenImpCasts()) : nullptr;
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    return F && F->getIdentifier() &&
           (F->getName() == "__threadfence_block" || F->getName() == "__syncwarp");
  };
  const CompoundStmt *Block = enclosingBlock(If, Parents);
  if (!Block)
    return false;
  const Stmt *const *At = std::find(Block->body_begin(), Block->body_end(), If);
  while (At != Block->body_begin()) {
    const Stmt *S = *--At;
    if (hasWarpCollective(S, 0) || (GroupLeader && SharedExchange(S)))
      return true;
    if (!movesRegistersOnly(S) && !(GroupLeader && Fence(S)))
      return false;
  }
  return false;
}

namespace {

/// A barrier or warp-synchronous call (isSyncCallee) in S or in a function it calls, down
/// to Depth levels.
bool hasSyncCall(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee()) {
      if (isSyncCallee(F))
        return true;
      const FunctionDecl *Def = nullptr;
      if (Depth > 0 && F->hasBody(Def) && Def && hasSyncCall(Def->getBody(), Depth - 1))
        return true;
    }
  for (const Stmt *C : S->children())
    if (hasSyncCall(C, Depth))
      return true;
  return false;
}

/// The source ranges of S and of the bodies of the functions it calls, down to Depth
/// levels: where a branch the arm runs may be written (Seen: those functions).
void armRanges(const Stmt *S, unsigned Depth, const SourceManager &SM,
               std::vector<SourceRange> &Out, std::set<const FunctionDecl *> &Seen) {
  if (!S)
    return;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *F = C->getDirectCallee()) {
      const FunctionDecl *Def = nullptr;
      if (Depth > 0 && F->hasBody(Def) && Def && Seen.insert(Def).second) {
        Out.push_back(Def->getBody()->getSourceRange());
        armRanges(Def->getBody(), Depth - 1, SM, Out, Seen);
      }
    }
  for (const Stmt *C : S->children())
    armRanges(C, Depth, SM, Out, Seen);
}

} // namespace

/// The head's variable, its start and its step on the variable (the condition apart).
static bool headParts(const ForStmt *F, ForHead &H) {
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
    H.V = dyn_cast<VarDecl>(DS->getSingleDecl());
    H.Init = H.V ? H.V->getInit() : nullptr;
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign) {
    if (auto *DR = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      H.V = dyn_cast<VarDecl>(DR->getDecl());
    H.Init = B->getRHS();
  }
  if (!H.V || !H.Init)
    return false;
  auto IsV = [&](const Expr *E) {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == H.V;
  };
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
    H.Inc = U;
  else if (auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc); B && IsV(B->getLHS()))
    H.Inc = B;
  return H.Inc != nullptr;
}

std::optional<ForHead> forHeadWithOffset(const ForStmt *F, const Expr *&Offset) {
  ForHead H;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                             : nullptr);
  if (!Cond || !Cond->isComparisonOp() || !headParts(F, H))
    return std::nullopt;
  for (bool Left : {true, false}) {
    auto *Sum =
        dyn_cast<BinaryOperator>((Left ? Cond->getLHS() : Cond->getRHS())->IgnoreParenImpCasts());
    if (!Sum || Sum->getOpcode() != BO_Add)
      continue;
    for (bool VFirst : {true, false}) {
      auto *DR = dyn_cast<DeclRefExpr>((VFirst ? Sum->getLHS() : Sum->getRHS())->IgnoreParenImpCasts());
      if (!DR || DR->getDecl() != H.V)
        continue;
      Offset = VFirst ? Sum->getRHS() : Sum->getLHS();
      H.Op = Left ? Cond->getOpcode() : BinaryOperator::reverseComparisonOp(Cond->getOpcode());
      H.Bound = Left ? Cond->getRHS() : Cond->getLHS();
      return H;
    }
  }
  return std::nullopt;
}

std::optional<ForHead> forHead(const ForStmt *F) {
  ForHead H;
  if (!headParts(F, H))
    return std::nullopt;
  auto IsV = [&](const Expr *E) {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == H.V;
  };
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                             : nullptr);
  if (!Cond || !Cond->isComparisonOp())
    return std::nullopt;
  H.Op = Cond->getOpcode();
  if (IsV(Cond->getLHS())) {
    H.Bound = Cond->getRHS();
  } else if (IsV(Cond->getRHS())) {
    H.Bound = Cond->getLHS();
    H.Op = BinaryOperator::reverseComparisonOp(H.Op);
  } else {
    return std::nullopt;
  }
  return H;
}

/// `for (V = A; V op B; V step)` with A, B and the step integer constants (in the
/// instantiation): a loop whose trips the code fixes (an unrolled vector's lanes).
bool hasConstantTrips(const ForStmt *F, const ASTContext &Ctx) {
  auto Const = [&](const Expr *E) {
    return E && !E->isValueDependent() && !E->isTypeDependent() &&
           E->getIntegerConstantExpr(Ctx).has_value();
  };
  std::optional<ForHead> H = forHead(F);
  if (!H || !Const(H->Init) || !Const(H->Bound))
    return false;
  auto *B = dyn_cast<CompoundAssignOperator>(H->Inc);
  return !B || Const(B->getRHS());
}

bool sameExprShape(const Expr *A, const Expr *B) {
  if (!A || !B)
    return A == B;
  // Conversions, a class value's implicit copy and temporaries aside.
  auto Bare = [](const Expr *X) {
    for (const Expr *Last = nullptr; X != Last;) {
      Last = X;
      X = X->IgnoreUnlessSpelledInSource()->IgnoreParens();
    }
    return X;
  };
  A = Bare(A);
  B = Bare(B);
  if (A->getStmtClass() != B->getStmtClass())
    return false;
  if (auto *DA = dyn_cast<DeclRefExpr>(A))
    return DA->getDecl() == cast<DeclRefExpr>(B)->getDecl();
  if (auto *IA = dyn_cast<IntegerLiteral>(A))
    return IA->getValue() == cast<IntegerLiteral>(B)->getValue();
  if (auto *SA = dyn_cast<ArraySubscriptExpr>(A)) {
    auto *SB = cast<ArraySubscriptExpr>(B);
    return sameExprShape(SA->getBase(), SB->getBase()) && sameExprShape(SA->getIdx(), SB->getIdx());
  }
  if (auto *MA = dyn_cast<MemberExpr>(A)) {
    auto *MB = cast<MemberExpr>(B);
    return MA->getMemberDecl() == MB->getMemberDecl() && MA->isArrow() == MB->isArrow() &&
           sameExprShape(MA->getBase(), MB->getBase());
  }
  if (auto *UA = dyn_cast<UnaryOperator>(A)) {
    auto *UB = cast<UnaryOperator>(B);
    return UA->getOpcode() == UB->getOpcode() && !UA->isIncrementDecrementOp() &&
           sameExprShape(UA->getSubExpr(), UB->getSubExpr());
  }
  if (auto *BA = dyn_cast<BinaryOperator>(A)) {
    auto *BB = cast<BinaryOperator>(B);
    return BA->getOpcode() == BB->getOpcode() && !BA->isAssignmentOp() &&
           sameExprShape(BA->getLHS(), BB->getLHS()) && sameExprShape(BA->getRHS(), BB->getRHS());
  }
  return false;
}

bool isSelfStore(const Stmt *S) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CompoundStmt>(S))
    return !C->body_empty() && llvm::all_of(C->body(), [](const Stmt *X) { return isSelfStore(X); });
  if (auto *B = dyn_cast<BinaryOperator>(S))
    return B->getOpcode() == BO_Assign && !B->getLHS()->getType().isVolatileQualified() &&
           sameExprShape(B->getLHS(), B->getRHS());
  // A class value's assignment (a complex number's struct): its implicit copy.
  if (auto *C = dyn_cast<CXXOperatorCallExpr>(S))
    if (C->getOperator() == OO_Equal && C->getNumArgs() == 2)
      if (auto *M = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
          M && M->isImplicit() && !C->getArg(0)->getType().isVolatileQualified())
        return sameExprShape(C->getArg(0), C->getArg(1));
  return false;
}

std::optional<int64_t> constantTripSpan(const ForStmt *F, const ASTContext &Ctx) {
  if (!F)
    return std::nullopt;
  // `for (j = s; j < s + K; ++j)`: K trips from a start that is the thread's own (KBLAS's
  // `for (j = tx; j < tx + bs / 2; j++)`, a row read from the lane's diagonal on).
  if (!hasConstantTrips(F, Ctx)) {
    std::optional<ForHead> H = forHead(F);
    auto *Sum = H ? dyn_cast<BinaryOperator>(H->Bound->IgnoreParenImpCasts()) : nullptr;
    if (!Sum || Sum->getOpcode() != BO_Add || H->Init->HasSideEffects(Ctx))
      return std::nullopt;
    auto *Step = dyn_cast<CompoundAssignOperator>(H->Inc);
    if (Step && !Step->getRHS()->getIntegerConstantExpr(Ctx))
      return std::nullopt;
    for (auto [Base, Count] : {std::pair(Sum->getLHS(), Sum->getRHS()),
                               std::pair(Sum->getRHS(), Sum->getLHS())})
      if (sameExprShape(Base, H->Init))
        if (std::optional<llvm::APSInt> K = Count->getIntegerConstantExpr(Ctx))
          return std::abs(K->getExtValue());
    return std::nullopt;
  }
  std::optional<ForHead> H = forHead(F);
  std::optional<llvm::APSInt> From = H->Init->getIntegerConstantExpr(Ctx),
                              To = H->Bound->getIntegerConstantExpr(Ctx);
  if (!From || !To)
    return std::nullopt;
  return std::abs(To->getExtValue() - From->getExtValue());
}

namespace {

/// Every loop in S is a for loop whose trips are constants (hasConstantTrips).
bool loopsHaveConstantTrips(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return true;
  if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return false;
  if (auto *F = dyn_cast<ForStmt>(S); F && !hasConstantTrips(F, Ctx))
    return false;
  for (const Stmt *C : S->children())
    if (!loopsHaveConstantTrips(C, Ctx))
      return false;
  return true;
}

} // namespace

bool isFinalGroupWriteOut(const BranchSite &B, const Sym *CondS, ParentsOf Parents,
                          const std::vector<BranchSite> &Sites, const FunctionDecl *Kernel,
                          ASTContext &Ctx, const SymVars &Vars) {
  if (B.EarlyExit || !CondS || !Kernel || !Kernel->hasBody())
    return false;
  const IfStmt *If = enclosingIf(B, Parents);
  if (!If || (If->getElse() && !isa<NullStmt>(If->getElse())) || If->getInit() ||
      If->getConditionVariable())
    return false;
  // The threads whose index (a group's, a lane's) equals a uniform value: a subset the
  // code picks by name, beside uniform terms only.
  std::vector<const Sym *> Parts;
  conjuncts(CondS, Parts);
  bool Pick = false;
  for (const Sym *P : Parts) {
    if (!P)
      return false;
    if (auto Sides = threadSidedEquality(P); Sides && skipCasts(P)->Op == SymOp::Eq)
      Pick = true;
    else if (mentionsThreadIdx(*P))
      return false;
  }
  if (!Pick)
    return false;
  // Nothing after it but the end of the kernel: the last statement of its block, and of
  // every block and arm around it up to the kernel's body (no loop around it).
  const Stmt *Body = Kernel->getBody();
  const Stmt *Cur = If;
  for (unsigned Depth = 0; Cur != Body; ++Depth) {
    DynTypedNodeList Ps = Parents(DynTypedNode::create(*Cur));
    const Stmt *Up = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (!Up || Depth > 32)
      return false;
    if (auto *CS = dyn_cast<CompoundStmt>(Up)) {
      const Stmt *const *At = std::find(CS->body_begin(), CS->body_end(), Cur);
      if (At == CS->body_end())
        return false;
      for (++At; At != CS->body_end(); ++At) {
        auto *R = dyn_cast<ReturnStmt>(*At);
        if (!isa<NullStmt>(*At) && !(R && !R->getRetValue()))
          return false;
      }
    } else if (!isa<IfStmt, AttributedStmt>(Up)) {
      return false; // a loop, a switch, a label: something may follow
    }
    Cur = Up;
  }
  // After the exchange that made the result: a barrier or warp collective before it.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(If->getBeginLoc());
  bool After = false;
  std::function<void(const Stmt *)> Before = [&](const Stmt *S) {
    if (!S || After || S == If)
      return;
    if (auto *C = dyn_cast<CallExpr>(S); C && hasSyncCall(C, 2)) {
      SourceLocation L = SM.getExpansionLoc(C->getBeginLoc());
      if (L.isValid() && SM.isBeforeInTranslationUnit(L, At)) {
        After = true;
        return;
      }
    }
    for (const Stmt *Child : S->children())
      Before(Child);
  };
  Before(Body);
  if (!After)
    return false;
  // Straight-line work: no barrier or collective in the arm, and no branch or loop that
  // splits the threads running it (every branch of the arm, and of the functions it
  // calls, on a block- or warp-uniform value: the analysis records no other).
  const Stmt *Arm = If->getThen();
  if (hasSyncCall(Arm, 4))
    return false;
  std::vector<SourceRange> Ranges{Arm->getSourceRange()};
  std::set<const FunctionDecl *> Seen;
  armRanges(Arm, 4, SM, Ranges, Seen);
  // A bounded few instructions: a loop whose trips the code does not fix (a uniform but
  // run-time count) is work the idle lanes could have shared.
  if (!loopsHaveConstantTrips(Arm, Ctx))
    return false;
  for (const FunctionDecl *F : Seen)
    if (!loopsHaveConstantTrips(F->getBody(), Ctx))
      return false;
  for (const BranchSite &S : Sites) {
    if (!S.Branch || S.CondVal.V == Variance::WarpUniform)
      continue;
    // A test of the leaders' own data (`if (is_finite(v)) store(...)`, ginkgo's sweeps):
    // a split among the leaders alone of the bounded work above, not of the lanes that
    // idle. A test of the thread index picks other lanes and stays.
    if (S.CondVal.V == Variance::Data && !(S.CondVal.S && mentionsThreadIdx(*S.CondVal.S)))
      continue;
    // A bounds guard among the leaders (`lower = sub_id < l_nnz`: the subwarps of the
    // lower triangle, ginkgo's ILUT sweep) splits the warp that holds the limit only.
    if (S.CondVal.S && isBoundsGuard(S.CondVal.S.get(), Vars))
      continue;
    SourceLocation L = SM.getExpansionLoc(S.Branch->getBeginLoc());
    for (const SourceRange &R : Ranges)
      if (L.isValid() && SM.isPointWithin(L, SM.getExpansionLoc(R.getBegin()),
                                          SM.getExpansionLoc(R.getEnd())))
        return false;
  }
  return true;
}

namespace {

/// The memory reads of E (subscripts, dereferences, `->` members), each by its canonical
/// profile, sorted: the loads its value needs.
std::vector<llvm::FoldingSetNodeID> loadsOf(const Expr *E, ASTContext &Ctx) {
  std::vector<llvm::FoldingSetNodeID> Out;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    auto *X = dyn_cast<Expr>(S);
    const Expr *Bare = X ? X->IgnoreParenImpCasts() : nullptr;
    auto *U = dyn_cast_or_null<UnaryOperator>(Bare);
    auto *M = dyn_cast_or_null<MemberExpr>(Bare);
    if (Bare && (isa<ArraySubscriptExpr>(Bare) || (U && U->getOpcode() == UO_Deref) ||
                 (M && M->isArrow()))) {
      llvm::FoldingSetNodeID Id;
      Bare->Profile(Id, Ctx, /*Canonical=*/true);
      Out.push_back(std::move(Id));
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(E);
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace

bool isPairSwap(const BranchSite &B) {
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast_or_null<IfStmt>(B.Branch);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return false;
  auto *C = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
  if (!C || (C->getOpcode() != BO_LT && C->getOpcode() != BO_GT))
    return false;
  auto Local = [](const Expr *E) -> const VarDecl * {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && V->hasLocalStorage() ? V : nullptr;
  };
  const VarDecl *I = Local(C->getLHS()), *P = Local(C->getRHS());
  if (!I || !P || I == P)
    return false;
  // A partner at a fixed offset or bit of the index (a bitonic step's `ixj = i ^ j`,
  // `i + half`): the pairs are regular, and a thread per pair (an index with that bit
  // inserted) gives the idle half work. Not this idiom: that stays a warning.
  auto Regular = [&](const VarDecl *Partner, const VarDecl *Of) {
    auto *B = Partner->getInit()
                  ? dyn_cast<BinaryOperator>(Partner->getInit()->IgnoreParenImpCasts())
                  : nullptr;
    if (!B || (B->getOpcode() != BO_Xor && B->getOpcode() != BO_Add &&
               B->getOpcode() != BO_Sub && B->getOpcode() != BO_Or))
      return false;
    return Local(B->getLHS()) == Of || Local(B->getRHS()) == Of;
  };
  if (Regular(P, I) || Regular(I, P))
    return false;
  std::function<bool(const Stmt *, const VarDecl *)> Names = [&](const Stmt *S,
                                                                 const VarDecl *V) {
    if (!S)
      return false;
    if (auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
      return true;
    for (const Stmt *Child : S->children())
      if (Names(Child, V))
        return true;
    return false;
  };
  // The arm: declarations, assignments and `if`s only (no loop, call, barrier or exit);
  // among its stores, one to an element at an index of i (not of v) and one, to the same
  // array, at an index of v (not of i).
  std::map<const Decl *, unsigned> Sides; // array -> 1 (i's), 2 (v's)
  bool Bad = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Bad)
      return;
    // A struct's assignment is a call of its trivial operator= (ViennaCL's float2
    // elements): the assignment of its two operands.
    const Expr *Stored = nullptr;
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (!MD || !MD->isTrivial()) {
        Bad = true;
        return;
      }
      Stored = OC->getArg(0);
    } else if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CallExpr>(S) ||
               isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
               isa<GotoStmt>(S) || isa<SwitchStmt>(S)) {
      Bad = true;
      return;
    }
    if (auto *A = dyn_cast<BinaryOperator>(S); A && A->getOpcode() == BO_Assign)
      Stored = A->getLHS();
    if (Stored)
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(Stored->IgnoreParenImpCasts())) {
        auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
        bool OfI = Names(AS->getIdx(), I), OfP = Names(AS->getIdx(), P);
        if (Base && OfI != OfP)
          Sides[Base->getDecl()] |= OfI ? 1 : 2;
      }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(If->getThen());
  if (Bad)
    return false;
  for (const auto &[Array, Side] : Sides)
    if (Side == 3)
      return true;
  return false;
}

bool storesOnePlace(const BranchSite &B, ASTContext &Ctx) {
  if (B.Kind != BranchSite::If || B.EarlyExit)
    return false;
  auto *If = dyn_cast_or_null<IfStmt>(B.Branch);
  if (!If || !If->getElse() || If->getInit() || If->getConditionVariable())
    return false;
  // Each arm: plain stores, their addresses computed without side effects, the arms'
  // stores to the same places in the same order, and each pair of values either read
  // from no memory (a value in registers: `(T)1.0f`, `a * b`) or read from the same
  // places (`out[i] = in[i]` against `out[i] = -in[i]`: the loads are common to both
  // arms and issued once), so that the arms differ in register arithmetic alone. A value
  // loaded in one arm only is that arm's work.
  auto Stores = [](const Stmt *S) {
    std::vector<const BinaryOperator *> Out;
    std::vector<const Stmt *> Body;
    if (auto *CS = dyn_cast_or_null<CompoundStmt>(S))
      Body.assign(CS->body_begin(), CS->body_end());
    else if (S)
      Body.push_back(S);
    for (const Stmt *X : Body) {
      while (auto *CS = dyn_cast_or_null<CompoundStmt>(X)) {
        if (CS->size() != 1)
          return std::vector<const BinaryOperator *>{};
        X = CS->body_front();
      }
      auto *E = dyn_cast_or_null<Expr>(X);
      auto *A = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
      if (!A || A->getOpcode() != BO_Assign || !computesOnly(A->getLHS()) ||
          !computesOnly(A->getRHS()))
        return std::vector<const BinaryOperator *>{};
      Out.push_back(A);
    }
    return Out;
  };
  std::vector<const BinaryOperator *> Then = Stores(If->getThen()), Else = Stores(If->getElse());
  if (Then.empty() || Then.size() != Else.size() || Then.size() > 4)
    return false;
  for (size_t I = 0; I < Then.size(); ++I) {
    // The same place: the two addresses written alike (the same variables and constants).
    llvm::FoldingSetNodeID L, R;
    Then[I]->getLHS()->IgnoreParenImpCasts()->Profile(L, Ctx, /*Canonical=*/true);
    Else[I]->getLHS()->IgnoreParenImpCasts()->Profile(R, Ctx, /*Canonical=*/true);
    if (L != R)
      return false;
    bool Registers =
        movesRegistersOnly(Then[I]->getRHS()) && movesRegistersOnly(Else[I]->getRHS());
    if (!Registers && loadsOf(Then[I]->getRHS(), Ctx) != loadsOf(Else[I]->getRHS(), Ctx))
      return false;
  }
  return true;
}

bool isPaddingGuard(const Expr *E, ASTContext &Ctx) {
  auto *Or = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!Or || Or->getOpcode() != BO_LOr || Or->isValueDependent())
    return false;
  // `P == Q`: two compile-time sizes, neither written as a number (template parameters,
  // constexpr values), unequal in this instantiation.
  auto *Eq = dyn_cast<BinaryOperator>(Or->getLHS()->IgnoreParenImpCasts());
  if (!Eq || Eq->getOpcode() != BO_EQ)
    return false;
  const Expr *P = Eq->getLHS(), *Q = Eq->getRHS();
  // A size by its name: a template parameter put in, or a constant variable.
  auto Named = [](const Expr *X) {
    while (true) {
      if (auto *Pa = dyn_cast<ParenExpr>(X))
        X = Pa->getSubExpr();
      else if (auto *C = dyn_cast<ImplicitCastExpr>(X))
        X = C->getSubExpr();
      else
        break;
    }
    if (isa<SubstNonTypeTemplateParmExpr>(X))
      return true;
    auto *DR = dyn_cast<DeclRefExpr>(X);
    return DR && isa<VarDecl, NonTypeTemplateParmDecl>(DR->getDecl());
  };
  if (!Named(P) || !Named(Q))
    return false;
  std::optional<llvm::APSInt> PV = P->getIntegerConstantExpr(Ctx),
                              QV = Q->getIntegerConstantExpr(Ctx);
  if (!PV || !QV || llvm::APSInt::isSameValue(*PV, *QV))
    return false;
  // `i < P` (or `<=`, or `P > i`): an index that is no constant against one of them.
  auto *Cmp = dyn_cast<BinaryOperator>(Or->getRHS()->IgnoreParenImpCasts());
  if (!Cmp || !Cmp->isRelationalOp())
    return false;
  const Expr *Index = Cmp->getLHS(), *Limit = Cmp->getRHS();
  if (Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE)
    std::swap(Index, Limit);
  else if (Cmp->getOpcode() != BO_LT && Cmp->getOpcode() != BO_LE)
    return false;
  std::optional<llvm::APSInt> LV = Limit->getIntegerConstantExpr(Ctx);
  if (!LV || Index->isIntegerConstantExpr(Ctx))
    return false;
  return llvm::APSInt::isSameValue(*LV, *PV) || llvm::APSInt::isSameValue(*LV, *QV);
}

/// The condition's boundary moves with the counter of an enclosing loop that sweeps the
/// block (`for (m...) if (tx <= m)`, a halo shrinking with the step `i`): the split recurs
/// at every step of that loop.
bool isSweptCondition(const Sym *S, const SymVars &Vars) {
  if (!S)
    return false;
  std::vector<unsigned> Used;
  collectVars(*S, Used);
  for (unsigned V : Used)
    if (isSweepingCounter(V, Vars))
      return true;
  return false;
}

} // namespace warplint
