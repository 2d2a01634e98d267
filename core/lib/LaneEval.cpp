//===- LaneEval.cpp - symbolic thread-index expressions, evaluated lane by lane -===//
#include "warplint/core/LaneEval.h"

#include <optional>
#include <unordered_map>

#include <algorithm>

namespace warplint::divergence {

namespace {

SymRef make(SymOp Op, int64_t Value, unsigned Bits, bool Unsigned, SymRef A = nullptr,
            SymRef B = nullptr, SymRef C = nullptr) {
  auto S = std::make_shared<Sym>();
  S->Op = Op;
  S->Value = Value;
  S->Bits = Bits == 0 ? 64 : std::min(Bits, 64u);
  S->Unsigned = Unsigned;
  S->A = std::move(A);
  S->B = std::move(B);
  S->C = std::move(C);
  return S;
}

int64_t normalize(int64_t V, unsigned Bits, bool Unsigned) {
  if (Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Unsigned)
    return int64_t(U);
  uint64_t Sign = uint64_t(1) << (Bits - 1);
  return int64_t((U ^ Sign) - Sign);
}

} // namespace

SymRef makeConst(int64_t Value, unsigned Bits, bool Unsigned) {
  return make(SymOp::Const, normalize(Value, Bits, Unsigned), Bits, Unsigned);
}
SymRef makeThreadIdx(unsigned Dim) { return make(SymOp::ThreadIdx, Dim, 32, true); }
SymRef makeBlockDim(unsigned Dim) { return make(SymOp::BlockDim, Dim, 32, true); }
SymRef makeVar(unsigned Index, unsigned Bits, bool Unsigned) {
  return make(SymOp::Var, Index, Bits, Unsigned);
}
SymRef makeCast(SymRef A, unsigned Bits, bool Unsigned) {
  if (A && A->Bits == Bits && A->Unsigned == Unsigned)
    return A;
  return make(SymOp::Cast, 0, Bits, Unsigned, std::move(A));
}
SymRef makeUnary(SymOp Op, SymRef A, unsigned Bits, bool Unsigned) {
  return make(Op, 0, Bits, Unsigned, std::move(A));
}
SymRef makeBinary(SymOp Op, SymRef A, SymRef B, unsigned Bits, bool Unsigned) {
  return make(Op, 0, Bits, Unsigned, std::move(A), std::move(B));
}
SymRef makeSelect(SymRef Cond, SymRef A, SymRef B, unsigned Bits, bool Unsigned) {
  return make(SymOp::Select, 0, Bits, Unsigned, std::move(Cond), std::move(A), std::move(B));
}

namespace {

/// The bit pattern of V in a Bits-wide operand.
uint64_t operandBits(int64_t V, unsigned Bits) {
  return Bits >= 64 ? uint64_t(V) : uint64_t(V) & ((uint64_t(1) << Bits) - 1);
}

/// The models of SymOp::Log2, Ffs, Clz, Popc on an operand of width Bits; nullopt where
/// the function has no integer value (log2 of a value <= 0).
std::optional<int64_t> bitFunction(SymOp Op, int64_t V, unsigned Bits) {
  uint64_t U = operandBits(V, Bits);
  switch (Op) {
  case SymOp::Log2:
    if (V <= 0)
      return std::nullopt;
    return int64_t(63 - __builtin_clzll(uint64_t(V)));
  case SymOp::Ffs:
    return U ? int64_t(__builtin_ctzll(U) + 1) : 0;
  case SymOp::Clz:
    return U ? int64_t(__builtin_clzll(U)) - int64_t(64 - std::min(Bits, 64u)) : int64_t(Bits);
  case SymOp::Popc:
    return int64_t(__builtin_popcountll(U));
  default:
    return std::nullopt;
  }
}

/// SymOp::Pow: Base^Exp as an integer-valued float converted to an integer; nullopt past
/// 2^62 in magnitude.
std::optional<int64_t> power(int64_t Base, int64_t Exp) {
  if (Exp < 0) {
    if (Base == 1)
      return 1;
    if (Base == -1)
      return (-Exp) % 2 ? -1 : 1;
    if (Base == 0)
      return std::nullopt; // infinity
    return 0;
  }
  __int128 R = 1;
  for (int64_t K = 0; K < Exp; ++K) {
    R *= Base;
    if (R > (__int128(1) << 62) || R < -(__int128(1) << 62))
      return std::nullopt;
    if (R == 0 || R == 1)
      break;
  }
  if (R == 1 && Base == -1 && Exp % 2)
    R = -1;
  return int64_t(R);
}

} // namespace

std::optional<int64_t> evaluate(const Sym &E, const Env &Values) {
  auto Norm = [&](int64_t V) { return normalize(V, E.Bits, E.Unsigned); };
  switch (E.Op) {
  case SymOp::Const:
    return E.Value;
  case SymOp::ThreadIdx:
    return Values.Tid[E.Value];
  case SymOp::BlockDim:
    return Values.BlockDim[E.Value];
  case SymOp::Var:
    if (E.Value < 0 || size_t(E.Value) >= Values.Vars.size())
      return std::nullopt;
    return Values.Vars[E.Value];
  case SymOp::Select: {
    auto C = evaluate(*E.A, Values);
    if (!C)
      return std::nullopt;
    auto V = evaluate(*C ? *E.B : *E.C, Values);
    if (!V)
      return std::nullopt;
    return Norm(*V);
  }
  case SymOp::LAnd: {
    auto L = evaluate(*E.A, Values);
    if (!L)
      return std::nullopt;
    if (!*L)
      return 0;
    auto R = evaluate(*E.B, Values);
    if (!R)
      return std::nullopt;
    return *R != 0;
  }
  case SymOp::LOr: {
    auto L = evaluate(*E.A, Values);
    if (!L)
      return std::nullopt;
    if (*L)
      return 1;
    auto R = evaluate(*E.B, Values);
    if (!R)
      return std::nullopt;
    return *R != 0;
  }
  default:
    break;
  }
  auto L = evaluate(*E.A, Values);
  if (!L)
    return std::nullopt;
  switch (E.Op) {
  case SymOp::Cast:
    return Norm(*L);
  case SymOp::Neg:
    return Norm(int64_t(0 - uint64_t(*L)));
  case SymOp::BitNot:
    return Norm(~*L);
  case SymOp::LNot:
    return *L == 0;
  case SymOp::Log2:
  case SymOp::Ffs:
  case SymOp::Clz:
  case SymOp::Popc: {
    auto V = bitFunction(E.Op, *L, E.A->Bits);
    if (!V)
      return std::nullopt;
    return Norm(*V);
  }
  default:
    break;
  }
  auto R = evaluate(*E.B, Values);
  if (!R)
    return std::nullopt;
  // Operands were converted to a common type by the front end: compare and divide in the
  // signedness of the operands (the A side), which for comparisons differs from the
  // node's own (int) type.
  bool OpUnsigned = E.A->Unsigned && E.A->Bits >= 32;
  int64_t A = *L, B = *R;
  switch (E.Op) {
  case SymOp::Add:
    return Norm(int64_t(uint64_t(A) + uint64_t(B)));
  case SymOp::Sub:
    return Norm(int64_t(uint64_t(A) - uint64_t(B)));
  case SymOp::Mul:
    return Norm(int64_t(uint64_t(A) * uint64_t(B)));
  case SymOp::Div:
  case SymOp::Rem: {
    if (B == 0)
      return std::nullopt;
    if (OpUnsigned || E.Unsigned) {
      uint64_t UA = uint64_t(A), UB = uint64_t(B);
      return Norm(int64_t(E.Op == SymOp::Div ? UA / UB : UA % UB));
    }
    if (A == INT64_MIN && B == -1)
      return std::nullopt;
    return Norm(E.Op == SymOp::Div ? A / B : A % B);
  }
  case SymOp::Shl:
    if (B < 0 || B >= 64)
      return std::nullopt;
    return Norm(int64_t(uint64_t(A) << B));
  case SymOp::Shr:
    if (B < 0 || B >= 64)
      return std::nullopt;
    return Norm(E.Unsigned || OpUnsigned ? int64_t(uint64_t(A) >> B) : A >> B);
  case SymOp::And:
    return Norm(A & B);
  case SymOp::Or:
    return Norm(A | B);
  case SymOp::Xor:
    return Norm(A ^ B);
  case SymOp::Lt:
    return OpUnsigned ? uint64_t(A) < uint64_t(B) : A < B;
  case SymOp::Gt:
    return OpUnsigned ? uint64_t(A) > uint64_t(B) : A > B;
  case SymOp::Le:
    return OpUnsigned ? uint64_t(A) <= uint64_t(B) : A <= B;
  case SymOp::Ge:
    return OpUnsigned ? uint64_t(A) >= uint64_t(B) : A >= B;
  case SymOp::Eq:
    return A == B;
  case SymOp::Ne:
    return A != B;
  case SymOp::Min:
    return Norm(OpUnsigned ? int64_t(std::min(uint64_t(A), uint64_t(B))) : std::min(A, B));
  case SymOp::Max:
    return Norm(OpUnsigned ? int64_t(std::max(uint64_t(A), uint64_t(B))) : std::max(A, B));
  case SymOp::Pow: {
    auto V = power(A, B);
    if (!V)
      return std::nullopt;
    return Norm(*V);
  }
  default:
    return std::nullopt;
  }
}

bool mentionsThreadIdx(const Sym &E) {
  if (E.Op == SymOp::ThreadIdx)
    return true;
  return (E.A && mentionsThreadIdx(*E.A)) || (E.B && mentionsThreadIdx(*E.B)) ||
         (E.C && mentionsThreadIdx(*E.C));
}

bool mentionsVar(const Sym &E, unsigned Index) {
  if (E.Op == SymOp::Var && E.Value == int64_t(Index))
    return true;
  return (E.A && mentionsVar(*E.A, Index)) || (E.B && mentionsVar(*E.B, Index)) ||
         (E.C && mentionsVar(*E.C, Index));
}

static void collectVarsRec(const Sym &E, std::vector<unsigned> &Out) {
  if (E.Op == SymOp::Var)
    Out.push_back(unsigned(E.Value));
  for (const SymRef *Child : {&E.A, &E.B, &E.C})
    if (*Child)
      collectVarsRec(**Child, Out);
}

void collectVars(const Sym &E, std::vector<unsigned> &Out) {
  collectVarsRec(E, Out);
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
}

SymRef replaceNode(const SymRef &E, const Sym *Target, const SymRef &Replacement) {
  if (!E)
    return E;
  if (E.get() == Target)
    return Replacement;
  SymRef A = replaceNode(E->A, Target, Replacement);
  SymRef B = replaceNode(E->B, Target, Replacement);
  SymRef C = replaceNode(E->C, Target, Replacement);
  if (A == E->A && B == E->B && C == E->C)
    return E;
  return make(E->Op, E->Value, E->Bits, E->Unsigned, A, B, C);
}

namespace {

/// FoldUniform's walk: Memo holds each shared node's result once.
SymRef foldRec(const SymRef &E, const Env &Values, int64_t LaneVar, bool &Varies,
               std::unordered_map<const Sym *, std::pair<SymRef, bool>> &Memo) {
  if (!E) {
    Varies = false;
    return E;
  }
  auto Hit = Memo.find(E.get());
  if (Hit != Memo.end()) {
    Varies = Hit->second.second;
    return Hit->second.first;
  }
  SymRef Out = E;
  switch (E->Op) {
  case SymOp::Const:
    Varies = false;
    break;
  case SymOp::ThreadIdx:
    Varies = true;
    break;
  case SymOp::Var:
    if (E->Value == LaneVar) {
      Varies = true;
      break;
    }
    [[fallthrough]];
  case SymOp::BlockDim: {
    Varies = false;
    if (std::optional<int64_t> V = evaluate(*E, Values))
      Out = makeConst(*V, E->Bits, E->Unsigned);
    break;
  }
  default: {
    bool VA = false, VB = false, VC = false;
    SymRef A = foldRec(E->A, Values, LaneVar, VA, Memo);
    SymRef B = foldRec(E->B, Values, LaneVar, VB, Memo);
    SymRef C = foldRec(E->C, Values, LaneVar, VC, Memo);
    Varies = VA || VB || VC;
    if (A != E->A || B != E->B || C != E->C)
      Out = make(E->Op, E->Value, E->Bits, E->Unsigned, A, B, C);
    // A uniform subtree is evaluated once, here; one that cannot be (an unbound variable,
    // a division by zero in an arm that may not be taken) is left for the lanes.
    if (!Varies)
      if (std::optional<int64_t> V = evaluate(*Out, Values))
        Out = makeConst(*V, E->Bits, E->Unsigned);
    break;
  }
  }
  Memo.emplace(E.get(), std::make_pair(Out, Varies));
  return Out;
}

} // namespace

SymRef foldUniform(const SymRef &E, const Env &Values, int64_t LaneVar) {
  std::unordered_map<const Sym *, std::pair<SymRef, bool>> Memo;
  bool Varies = false;
  return foldRec(E, Values, LaneVar, Varies, Memo);
}

std::string BlockShape::str() const {
  return std::to_string(X) + "x" + std::to_string(Y) + "x" + std::to_string(Z);
}

namespace {

constexpr unsigned WarpLanes = 32;
constexpr uint32_t AllLanes = ~uint32_t(0);

/// One node of a flattened expression; A, B, C index earlier instructions (-1: none).
struct Instr {
  SymOp Op = SymOp::Const;
  bool Varies = false;     ///< reads threadIdx or the lane variable, directly or not
  bool Unsigned = false;   ///< the node's own signedness
  bool OpUnsigned = false; ///< compare, divide and shift as unsigned (evaluate's rule)
  unsigned Bits = 64;
  unsigned ABits = 64; ///< the width of operand A (the bit intrinsics count in it)
  int64_t Value = 0;
  int A = -1, B = -1, C = -1;
};

/// A vector whose storage comes from, and goes back to, a per-thread pool of at most
/// PoolSize spare buffers (of at most 64 KiB each). A program is flattened for every
/// access and branch evaluated, and its 32-lane rows, warp cache and thread table are
/// kilobytes each: past malloc's fast bins, every such request consolidated them (a
/// tenth of the CPU samples of a file of 20,000 kernels in malloc's slow paths). Moving
/// one leaves the source empty.
template <typename T> class Pooled : public std::vector<T> {
public:
  Pooled() {
    std::vector<std::vector<T>> &P = pool();
    if (!P.empty()) {
      std::vector<T>::swap(P.back());
      P.pop_back();
    }
  }
  ~Pooled() {
    std::vector<std::vector<T>> &P = pool();
    if (this->capacity() && this->capacity() <= MaxKept && P.size() < PoolSize) {
      this->clear();
      P.push_back(std::move(static_cast<std::vector<T> &>(*this)));
    }
  }
  Pooled(Pooled &&) = default;
  Pooled &operator=(Pooled &&) = default;
  Pooled &operator=(const std::vector<T> &V) {
    std::vector<T>::operator=(V);
    return *this;
  }

private:
  static constexpr size_t PoolSize = 64, MaxKept = (size_t(64) << 10) / sizeof(T);
  static std::vector<std::vector<T>> &pool() {
    static thread_local std::vector<std::vector<T>> P;
    return P;
  }
};

/// normalize() with its mask computed once.
struct Normalizer {
  uint64_t Mask = ~uint64_t(0), Sign = 0;
  bool Full = true, Unsigned = false;
  Normalizer(unsigned Bits, bool U) : Full(Bits >= 64), Unsigned(U) {
    if (!Full) {
      Mask = (uint64_t(1) << Bits) - 1;
      Sign = uint64_t(1) << (Bits - 1);
    }
  }
  int64_t operator()(int64_t V) const {
    if (Full)
      return V;
    uint64_t U = uint64_t(V) & Mask;
    return Unsigned ? int64_t(U) : int64_t((U ^ Sign) - Sign);
  }
};

/// The lanes 0..N-1 for which Pred(lane) holds.
template <typename Pred> uint32_t laneMask(unsigned N, Pred P) {
  uint32_t M = 0;
  for (unsigned L = 0; L < N; ++L)
    M |= uint32_t(P(L) ? 1 : 0) << L;
  return M;
}

uint32_t firstLanes(unsigned N) { return N >= WarpLanes ? AllLanes : (uint32_t(1) << N) - 1; }

unsigned countLanes(uint32_t M) {
  unsigned N = 0;
  for (; M; M &= M - 1)
    ++N;
  return N;
}

/// Applies an operator node to N lanes of operands (A, B, C with their valid lanes MA,
/// MB, MC) with evaluate()'s rules; returns the lanes that have a value. Every lane is
/// computed (with a harmless operand where evaluate would fail) and masked afterwards:
/// evaluate has no side effects, so evaluating an arm that is not taken changes nothing.
uint32_t execute(const Instr &I, const int64_t *A, uint32_t MA, const int64_t *B, uint32_t MB,
                 const int64_t *C, uint32_t MC, int64_t *R, unsigned N) {
  const Normalizer Norm(I.Bits, I.Unsigned);
  const bool OpU = I.OpUnsigned;
  auto Each = [&](auto F) {
    for (unsigned L = 0; L < N; ++L)
      R[L] = F(L);
  };
  switch (I.Op) {
  case SymOp::Select: {
    uint32_t NZ = laneMask(N, [&](unsigned L) { return A[L] != 0; });
    Each([&](unsigned L) { return Norm(A[L] ? B[L] : C[L]); });
    return MA & ((NZ & MB) | (~NZ & MC));
  }
  case SymOp::LAnd: {
    uint32_t NZ = laneMask(N, [&](unsigned L) { return A[L] != 0; });
    Each([&](unsigned L) { return int64_t(A[L] != 0 && B[L] != 0); });
    return MA & (~NZ | MB);
  }
  case SymOp::LOr: {
    uint32_t NZ = laneMask(N, [&](unsigned L) { return A[L] != 0; });
    Each([&](unsigned L) { return int64_t(A[L] != 0 || B[L] != 0); });
    return MA & (NZ | MB);
  }
  case SymOp::Cast:
    Each([&](unsigned L) { return Norm(A[L]); });
    return MA;
  case SymOp::Neg:
    Each([&](unsigned L) { return Norm(int64_t(0 - uint64_t(A[L]))); });
    return MA;
  case SymOp::BitNot:
    Each([&](unsigned L) { return Norm(~A[L]); });
    return MA;
  case SymOp::LNot:
    Each([&](unsigned L) { return int64_t(A[L] == 0); });
    return MA;
  case SymOp::Log2:
  case SymOp::Ffs:
  case SymOp::Clz:
  case SymOp::Popc: {
    uint32_t Bad = laneMask(N, [&](unsigned L) { return !bitFunction(I.Op, A[L], I.ABits); });
    Each([&](unsigned L) { return Norm(bitFunction(I.Op, A[L], I.ABits).value_or(0)); });
    return MA & ~Bad;
  }
  default:
    break;
  }
  uint32_t M = MA & MB;
  switch (I.Op) {
  case SymOp::Add:
    Each([&](unsigned L) { return Norm(int64_t(uint64_t(A[L]) + uint64_t(B[L]))); });
    return M;
  case SymOp::Sub:
    Each([&](unsigned L) { return Norm(int64_t(uint64_t(A[L]) - uint64_t(B[L]))); });
    return M;
  case SymOp::Mul:
    Each([&](unsigned L) { return Norm(int64_t(uint64_t(A[L]) * uint64_t(B[L]))); });
    return M;
  case SymOp::Div:
  case SymOp::Rem: {
    bool Div = I.Op == SymOp::Div;
    if (OpU || I.Unsigned) {
      uint32_t Bad = laneMask(N, [&](unsigned L) { return B[L] == 0; });
      Each([&](unsigned L) {
        uint64_t UA = uint64_t(A[L]), UB = B[L] ? uint64_t(B[L]) : 1;
        return Norm(int64_t(Div ? UA / UB : UA % UB));
      });
      return M & ~Bad;
    }
    uint32_t Bad = laneMask(
        N, [&](unsigned L) { return B[L] == 0 || (A[L] == INT64_MIN && B[L] == -1); });
    Each([&](unsigned L) {
      int64_t D = (B[L] == 0 || (A[L] == INT64_MIN && B[L] == -1)) ? 1 : B[L];
      return Norm(Div ? A[L] / D : A[L] % D);
    });
    return M & ~Bad;
  }
  case SymOp::Shl:
  case SymOp::Shr: {
    uint32_t Bad = laneMask(N, [&](unsigned L) { return B[L] < 0 || B[L] >= 64; });
    if (I.Op == SymOp::Shl)
      Each([&](unsigned L) { return Norm(int64_t(uint64_t(A[L]) << (B[L] & 63))); });
    else if (I.Unsigned || OpU)
      Each([&](unsigned L) { return Norm(int64_t(uint64_t(A[L]) >> (B[L] & 63))); });
    else
      Each([&](unsigned L) { return Norm(A[L] >> (B[L] & 63)); });
    return M & ~Bad;
  }
  case SymOp::And:
    Each([&](unsigned L) { return Norm(A[L] & B[L]); });
    return M;
  case SymOp::Or:
    Each([&](unsigned L) { return Norm(A[L] | B[L]); });
    return M;
  case SymOp::Xor:
    Each([&](unsigned L) { return Norm(A[L] ^ B[L]); });
    return M;
  case SymOp::Lt:
    Each([&](unsigned L) {
      return int64_t(OpU ? uint64_t(A[L]) < uint64_t(B[L]) : A[L] < B[L]);
    });
    return M;
  case SymOp::Gt:
    Each([&](unsigned L) {
      return int64_t(OpU ? uint64_t(A[L]) > uint64_t(B[L]) : A[L] > B[L]);
    });
    return M;
  case SymOp::Le:
    Each([&](unsigned L) {
      return int64_t(OpU ? uint64_t(A[L]) <= uint64_t(B[L]) : A[L] <= B[L]);
    });
    return M;
  case SymOp::Ge:
    Each([&](unsigned L) {
      return int64_t(OpU ? uint64_t(A[L]) >= uint64_t(B[L]) : A[L] >= B[L]);
    });
    return M;
  case SymOp::Eq:
    Each([&](unsigned L) { return int64_t(A[L] == B[L]); });
    return M;
  case SymOp::Ne:
    Each([&](unsigned L) { return int64_t(A[L] != B[L]); });
    return M;
  case SymOp::Min:
    Each([&](unsigned L) {
      return Norm(OpU ? int64_t(std::min(uint64_t(A[L]), uint64_t(B[L])))
                      : std::min(A[L], B[L]));
    });
    return M;
  case SymOp::Max:
    Each([&](unsigned L) {
      return Norm(OpU ? int64_t(std::max(uint64_t(A[L]), uint64_t(B[L])))
                      : std::max(A[L], B[L]));
    });
    return M;
  case SymOp::Pow: {
    uint32_t Bad = laneMask(N, [&](unsigned L) { return !power(A[L], B[L]); });
    Each([&](unsigned L) { return Norm(power(A[L], B[L]).value_or(0)); });
    return M & ~Bad;
  }
  default:
    return 0;
  }
}

/// Base with the block shape in BlockDim.
Env withShape(Env E, const BlockShape &Shape) {
  E.BlockDim[0] = Shape.X;
  E.BlockDim[1] = Shape.Y;
  E.BlockDim[2] = Shape.Z;
  return E;
}

/// The thread indices of a block, warp by warp in the order of the linear index: for warp
/// W, 32 values of threadIdx.x, then .y, then .z (lanes past the block get 0).
class ThreadTable {
public:
  void build(const BlockShape &S) {
    if (Built && S.X == Shape.X && S.Y == Shape.Y && S.Z == Shape.Z)
      return;
    Built = true;
    Shape = S;
    unsigned Threads = S.threads();
    Tid.assign(size_t(S.warps()) * 3 * WarpLanes, 0);
    Lanes.assign(S.warps(), 0);
    unsigned X = 0, Y = 0, Z = 0;
    for (unsigned T = 0; T < Threads; ++T) {
      int64_t *W = &Tid[size_t(T / WarpLanes) * 3 * WarpLanes];
      W[T % WarpLanes] = X;
      W[WarpLanes + T % WarpLanes] = Y;
      W[2 * WarpLanes + T % WarpLanes] = Z;
      ++Lanes[T / WarpLanes];
      if (++X == S.X) {
        X = 0;
        if (++Y == S.Y) {
          Y = 0;
          ++Z;
        }
      }
    }
  }
  const int64_t *warp(unsigned W) const { return &Tid[size_t(W) * 3 * WarpLanes]; }
  uint32_t lanes(unsigned W) const { return firstLanes(Lanes[W]); }

private:
  bool Built = false;
  BlockShape Shape;
  Pooled<int64_t> Tid;
  std::vector<unsigned> Lanes;
};

/// Adds one warp's values (V, with valid lanes Valid) to Out; Live are the lanes that
/// reach the branch. With Truth the values are compared as truth values. False when a
/// live lane has no value.
bool tallyWarp(WarpSplit &Out, unsigned W, uint32_t Live, const int64_t *V, uint32_t Valid,
               bool Truth, const BlockShape &Shape) {
  if (!Live)
    return true;
  if (Live & ~Valid)
    return false;
  int64_t Val[WarpLanes];
  for (unsigned L = 0; L < WarpLanes; ++L)
    Val[L] = Truth ? int64_t(V[L] != 0) : V[L];
  unsigned First = 0;
  while (!(Live >> First & 1))
    ++First;
  int64_t V0 = Val[First];
  ++Out.Warps;
  if (W < Out.WarpLiveMask.size()) {
    Out.WarpLiveMask[W] = Live;
    Out.WarpTrueMask[W] = laneMask(WarpLanes, [&](unsigned L) { return Val[L] != 0; }) & Live;
  }
  if ((laneMask(WarpLanes, [&](unsigned L) { return Val[L] == V0; }) & Live) == Live) {
    if (V0 != 0)
      Out.TrueLanes += countLanes(Live);
    Out.WarpTrue[W] = V0 != 0;
    if (W < Out.WarpValue.size()) {
      Out.WarpValue[W] = V0;
      Out.WarpLive[W] = countLanes(Live);
    }
    return true;
  }
  // Per value taken, in the order of the lanes: (value, lanes).
  std::pair<int64_t, unsigned> Counts[WarpLanes];
  unsigned NumCounts = 0;
  for (unsigned L = 0; L < WarpLanes; ++L) {
    if (!(Live >> L & 1))
      continue;
    unsigned K = 0;
    while (K < NumCounts && Counts[K].first != Val[L])
      ++K;
    if (K == NumCounts)
      Counts[NumCounts++] = {Val[L], 0};
    ++Counts[K].second;
  }
  ++Out.DivergentWarps;
  unsigned Largest = 0, Total = 0;
  int64_t Majority = 0;
  // The majority value: the most lanes, the smallest value on a tie.
  for (unsigned K = 0; K < NumCounts; ++K) {
    const auto &KV = Counts[K];
    if (KV.second > Largest || (KV.second == Largest && KV.first < Majority))
      Majority = KV.first;
    Largest = std::max(Largest, KV.second);
    Total += KV.second;
  }
  Out.MaxMinorityLanes = std::max(Out.MaxMinorityLanes, Total - Largest);
  // Rows (threadIdx.y and .z) of one warp are at most 32 consecutive row numbers.
  unsigned PerRow[WarpLanes] = {};
  unsigned FirstRow = (W * WarpLanes) / Shape.X;
  for (unsigned L = 0; L < WarpLanes; ++L)
    if ((Live >> L & 1) && Val[L] != Majority)
      Out.MaxMinorityLanesPerRow = std::max(
          Out.MaxMinorityLanesPerRow, ++PerRow[(W * WarpLanes + L) / Shape.X - FirstRow]);
  // Runs of equal values and their order along each row's active lanes.
  {
    unsigned Runs = 0, PrevRow = ~0u;
    int Dir = 0;
    int64_t Prev = 0;
    for (unsigned L = 0; L < WarpLanes; ++L) {
      if (!(Live >> L & 1))
        continue;
      unsigned Row = (W * WarpLanes + L) / Shape.X;
      if (Row != PrevRow) {
        Out.MaxRunsPerRow = std::max(Out.MaxRunsPerRow, Runs);
        Runs = 1;
        Dir = 0;
        PrevRow = Row;
      } else if (Val[L] != Prev) {
        ++Runs;
        int D = Val[L] > Prev ? 1 : -1;
        if (Dir && D != Dir)
          Out.InLaneOrder = false;
        Dir = D;
      }
      Prev = Val[L];
    }
    Out.MaxRunsPerRow = std::max(Out.MaxRunsPerRow, Runs);
  }
  for (unsigned K = 0; K < NumCounts; ++K)
    if (Counts[K].first != 0)
      Out.TrueLanes += Counts[K].second;
  Out.WarpTrue[W] = false;
  if (W < Out.WarpValue.size()) {
    Out.WarpDivergent[W] = true;
    Out.WarpLive[W] = countLanes(Live);
  }
  return true;
}

/// Out made the split of a block of Shape before any warp is counted, its per-warp
/// vectors' storage kept (a splitter reuses one WarpSplit for every environment).
void resetSplit(WarpSplit &Out, const BlockShape &Shape) {
  WarpSplit Fresh;
  Fresh.WarpTrue.swap(Out.WarpTrue);
  Fresh.WarpDivergent.swap(Out.WarpDivergent);
  Fresh.WarpValue.swap(Out.WarpValue);
  Fresh.WarpLive.swap(Out.WarpLive);
  Fresh.WarpLiveMask.swap(Out.WarpLiveMask);
  Fresh.WarpTrueMask.swap(Out.WarpTrueMask);
  Out = std::move(Fresh);
  Out.Evaluated = true;
  Out.WarpTrue.assign(Shape.warps(), false);
  Out.WarpDivergent.assign(Shape.warps(), false);
  Out.WarpValue.assign(Shape.warps(), 0);
  Out.WarpLive.assign(Shape.warps(), 0);
  Out.WarpLiveMask.assign(Shape.warps(), 0);
  Out.WarpTrueMask.assign(Shape.warps(), 0);
}

/// Which instruction each node of an expression became (a node shared in the expression
/// is flattened once): open addressing over one array, where a std::unordered_map
/// allocated a node per entry for every expression flattened.
class NodeMemo {
public:
  int find(const Sym *E) const {
    for (size_t K = slot(E);; K = (K + 1) & (Slots.size() - 1)) {
      if (!Slots[K].first)
        return -1;
      if (Slots[K].first == E)
        return Slots[K].second;
    }
  }
  void insert(const Sym *E, int Index) {
    if (2 * (Used + 1) > Slots.size()) {
      std::vector<std::pair<const Sym *, int>> Old(Slots.size() * 2, {nullptr, -1});
      Old.swap(Slots);
      Used = 0;
      for (const auto &[Key, Value] : Old)
        if (Key)
          insert(Key, Value);
    }
    size_t K = slot(E);
    while (Slots[K].first)
      K = (K + 1) & (Slots.size() - 1);
    Slots[K] = {E, Index};
    ++Used;
  }

private:
  size_t slot(const Sym *E) const {
    uint64_t H = uint64_t(reinterpret_cast<uintptr_t>(E)) * 0x9E3779B97F4A7C15ull;
    return size_t(H ^ (H >> 32)) & (Slots.size() - 1);
  }
  std::vector<std::pair<const Sym *, int>> Slots =
      std::vector<std::pair<const Sym *, int>>(32, {nullptr, -1});
  size_t Used = 0;
};

/// A symbolic expression flattened into instructions (each shared node once) and
/// evaluated for a warp's 32 lanes at a time. The instructions that read neither threadIdx
/// nor the lane variable are evaluated once per environment by bind(), with foldUniform's
/// rules (a value folded to the node's width, or kept for the lanes when there is none);
/// the others lane by lane with evaluate()'s rules.
class WarpProgram {
public:
  WarpProgram(const Sym &Root, int64_t LaneVar) : LaneVar(LaneVar) {
    NodeMemo Memo;
    add(Root, Memo);
    Vals.assign(Code.size() * WarpLanes, 0);
    Valid.assign(Code.size(), 0);
    Folded.assign(Code.size(), 0);
    FoldedOk.assign(Code.size(), false);
    std::vector<bool> IsInput(Code.size(), false);
    for (unsigned K = 0; K < Code.size(); ++K) {
      const Instr &I = Code[K];
      if (!I.Varies)
        continue;
      Varying.push_back(K);
      Cacheable &= I.Op != SymOp::Var;
      for (int Child : {I.A, I.B, I.C})
        if (Child >= 0 && !Code[Child].Varies && !IsInput[Child]) {
          IsInput[Child] = true;
          Inputs.push_back(unsigned(Child));
        }
    }
    // A lane-independent root is its own input.
    if (!Code.back().Varies)
      Inputs.push_back(unsigned(Code.size() - 1));
  }

  /// Evaluates the lane-independent instructions for a block of Shape: folded in Fold
  /// where they have a value there, else in Lane (where foldUniform keeps the subtree for
  /// the lanes to evaluate). blockDim is read from Shape, not from the environments.
  void bind(const Env &Fold, const Env &Lane, const BlockShape &Shape) {
    for (unsigned K = 0; K < Code.size(); ++K)
      if (!Code[K].Varies)
        bindOne(K, Fold, Lane, Shape);
    if (!Cacheable)
      return;
    // A warp's values are remembered per shape and inputs (the lane-independent values
    // the lanes read): the same inputs again, in any later environment, give them back.
    Key.clear();
    Key.insert(Key.end(), {Shape.X, Shape.Y, Shape.Z});
    for (unsigned K : Inputs) {
      Key.push_back(Valid[K]);
      Key.push_back(Vals[K * WarpLanes]);
    }
    uint64_t Hash = 0xcbf29ce484222325ull;
    for (int64_t V : Key)
      Hash = (Hash ^ uint64_t(V)) * 0x100000001b3ull;
    const unsigned NWarps = Shape.warps();
    for (const auto &[H, At] : Entries)
      if (H == Hash && std::equal(Key.begin(), Key.end(), Store.begin() + At)) {
        point(At, NWarps);
        return;
      }
    size_t At;
    if (Entries.size() < MaxKeys) {
      // A new entry at the end of Store: the key, then per warp Done and Valid, then the
      // warps' values.
      At = Store.size();
      Store.resize(At + Key.size() + size_t(NWarps) * (2 + WarpLanes));
      Entries.push_back({Hash, At});
    } else {
      // Past MaxKeys sets of inputs, only the last one is remembered.
      if (ScratchKey != Key) {
        ScratchKey = Key;
        Scratch.assign(Key.size() + size_t(NWarps) * (2 + WarpLanes), 0);
      }
      point(0, NWarps, &Scratch);
      return;
    }
    std::copy(Key.begin(), Key.end(), Store.begin() + At);
    point(At, NWarps);
  }

  /// The root's values for warp W of the bound block, whose thread indices are Tid (32
  /// of threadIdx.x, .y, .z), with the lane variable's values LaneVals (valid lanes
  /// LaneValid); Valid gets the lanes that have a value.
  const int64_t *warp(unsigned W, const int64_t *Tid, uint32_t &ValidOut,
                      const int64_t *LaneVals = nullptr, uint32_t LaneValid = 0) {
    if (Cacheable && CurDone[W]) {
      ValidOut = uint32_t(CurValid[W]);
      return &CurVals[size_t(W) * WarpLanes];
    }
    run(Tid, LaneVals, LaneValid);
    ValidOut = Valid.back();
    const int64_t *Root = &Vals[(Code.size() - 1) * WarpLanes];
    if (!Cacheable)
      return Root;
    CurDone[W] = 1;
    CurValid[W] = ValidOut;
    return std::copy_n(Root, WarpLanes, &CurVals[size_t(W) * WarpLanes]) - WarpLanes;
  }

  /// Every variable the expression reads is unbound in E or holds a value that its node's
  /// width and signedness represent.
  bool varsInRange(const Env &E) const {
    for (const Instr &I : Code)
      if (I.Op == SymOp::Var && I.Value >= 0 && size_t(I.Value) < E.Vars.size() &&
          E.Vars[I.Value] && normalize(*E.Vars[I.Value], I.Bits, I.Unsigned) != *E.Vars[I.Value])
        return false;
    return true;
  }

  /// The lanes of warp W whose value is known to be zero.
  uint32_t zeroLanes(unsigned W, const int64_t *Tid) {
    uint32_t M;
    const int64_t *V = warp(W, Tid, M);
    return M & laneMask(WarpLanes, [&](unsigned L) { return V[L] == 0; });
  }

private:
  void bindOne(unsigned K, const Env &Fold, const Env &Lane, const BlockShape &Shape) {
    const Instr &I = Code[K];
    Normalizer Norm(I.Bits, I.Unsigned);
    int64_t FV = 0, LV = 0;
    bool FOk = false, LOk = false;
    switch (I.Op) {
    case SymOp::Const:
      FV = LV = I.Value;
      FOk = LOk = true;
      break;
    case SymOp::BlockDim:
      FV = LV = Norm(I.Value == 0 ? Shape.X : I.Value == 1 ? Shape.Y : Shape.Z);
      FOk = LOk = true;
      break;
    case SymOp::Var:
      if (I.Value >= 0 && size_t(I.Value) < Fold.Vars.size() && Fold.Vars[I.Value]) {
        FV = LV = Norm(*Fold.Vars[I.Value]);
        FOk = LOk = true;
      } else if (I.Value >= 0 && size_t(I.Value) < Lane.Vars.size() && Lane.Vars[I.Value]) {
        LV = *Lane.Vars[I.Value];
        LOk = true;
      }
      break;
    default: {
      int64_t A[3], R;
      bool M[3];
      const int Children[3] = {I.A, I.B, I.C};
      for (unsigned C = 0; C < 3; ++C) {
        A[C] = Children[C] < 0 ? 0 : Folded[Children[C]];
        M[C] = Children[C] >= 0 && FoldedOk[Children[C]];
      }
      if (execute(I, &A[0], M[0], &A[1], M[1], &A[2], M[2], &R, 1) & 1) {
        FV = LV = Norm(R);
        FOk = LOk = true;
        break;
      }
      // No value in Fold: the lanes evaluate the node from its children's lane values.
      for (unsigned C = 0; C < 3; ++C) {
        A[C] = Children[C] < 0 ? 0 : Vals[Children[C] * WarpLanes];
        M[C] = Children[C] >= 0 && (Valid[Children[C]] & 1);
      }
      LOk = execute(I, &A[0], M[0], &A[1], M[1], &A[2], M[2], &R, 1) & 1;
      LV = R;
      break;
    }
    }
    Folded[K] = FV;
    FoldedOk[K] = FOk;
    std::fill_n(&Vals[K * WarpLanes], WarpLanes, LV);
    Valid[K] = LOk ? AllLanes : 0;
  }

  void run(const int64_t *Tid, const int64_t *LaneVals, uint32_t LaneValid) {
    static const int64_t Zero[WarpLanes] = {};
    auto Row = [&](int K) { return K < 0 ? Zero : &Vals[K * WarpLanes]; };
    auto Mask = [&](int K) { return K < 0 ? 0 : Valid[K]; };
    for (unsigned K : Varying) {
      const Instr &I = Code[K];
      int64_t *R = &Vals[K * WarpLanes];
      if (I.Op == SymOp::ThreadIdx) {
        std::copy_n(Tid + I.Value * WarpLanes, WarpLanes, R);
        Valid[K] = AllLanes;
      } else if (I.Op == SymOp::Var) {
        std::copy_n(LaneVals, WarpLanes, R);
        Valid[K] = LaneValid;
      } else {
        Valid[K] = execute(I, Row(I.A), Mask(I.A), Row(I.B), Mask(I.B), Row(I.C), Mask(I.C), R,
                           WarpLanes);
      }
    }
  }

  int add(const Sym &E, NodeMemo &Memo) {
    if (int Seen = Memo.find(&E); Seen >= 0)
      return Seen;
    Instr I;
    I.Op = E.Op;
    I.Value = E.Value;
    I.Bits = E.Bits;
    I.Unsigned = E.Unsigned;
    I.OpUnsigned = E.A && E.A->Unsigned && E.A->Bits >= 32;
    I.ABits = E.A ? E.A->Bits : 64;
    switch (E.Op) {
    case SymOp::Const:
    case SymOp::BlockDim:
      break;
    case SymOp::ThreadIdx:
      I.Varies = true;
      break;
    case SymOp::Var:
      I.Varies = E.Value == LaneVar;
      break;
    default:
      if (E.A)
        I.A = add(*E.A, Memo);
      if (E.B)
        I.B = add(*E.B, Memo);
      if (E.C)
        I.C = add(*E.C, Memo);
      for (int Child : {I.A, I.B, I.C})
        I.Varies |= Child >= 0 && Code[Child].Varies;
      break;
    }
    Code.push_back(I);
    Memo.insert(&E, int(Code.size() - 1));
    return int(Code.size() - 1);
  }

  int64_t LaneVar;
  Pooled<Instr> Code;
  std::vector<unsigned> Varying;
  Pooled<int64_t> Vals; ///< per instruction, 32 lanes
  std::vector<uint32_t> Valid;
  std::vector<int64_t> Folded; ///< lane-independent instructions: foldUniform's value
  std::vector<bool> FoldedOk;
  /// Reuse of warps: only without a lane variable (its values come per call).
  bool Cacheable = true;
  /// Lane-independent operands of lane-dependent nodes, or the root when it is one.
  std::vector<unsigned> Inputs;
  /// The entry of the bound inputs: the warps done, their valid lanes and values (32 a
  /// warp), in Store (or Scratch) at At after the key.
  void point(size_t At, unsigned NWarps, std::vector<int64_t> *In = nullptr) {
    int64_t *Base = (In ? *In : Store).data() + At + Key.size();
    CurDone = Base;
    CurValid = Base + NWarps;
    CurVals = Base + 2 * size_t(NWarps);
  }
  /// Inputs (the shape, then valid mask and value of each input) remembered at most.
  static constexpr size_t MaxKeys = 64;
  std::vector<int64_t> Key, ScratchKey;
  /// The root's values of the warps evaluated so far, per shape and set of inputs: each
  /// entry (the hash of its key, where it starts) in one flat Store, where a std::map of
  /// vectors allocated five times for each new set of inputs.
  std::vector<std::pair<uint64_t, size_t>> Entries;
  Pooled<int64_t> Store, Scratch;
  int64_t *CurDone = nullptr, *CurValid = nullptr, *CurVals = nullptr;
};

} // namespace

struct WarpEvaluator::Impl {
  explicit Impl(const Sym &E) : Prog(E, -1) {}
  WarpProgram Prog;
  ThreadTable Threads;
};

WarpEvaluator::WarpEvaluator(const Sym &E) : P(std::make_unique<Impl>(E)) {}

WarpEvaluator::~WarpEvaluator() = default;

bool WarpEvaluator::bind(const BlockShape &Shape, const Env &Base) {
  P->Prog.bind(Base, Base, Shape);
  P->Threads.build(Shape);
  return P->Prog.varsInRange(Base);
}

const int64_t *WarpEvaluator::group(unsigned G, uint32_t &Valid) {
  return P->Prog.warp(G, P->Threads.warp(G), Valid);
}

uint32_t WarpEvaluator::threads(unsigned G) const { return P->Threads.lanes(G); }

const int64_t *WarpEvaluator::tid(unsigned G) const { return P->Threads.warp(G); }

struct WarpSplitter::Impl {
  Impl(const Sym &C, bool CompareValues, const Sym *A) : CompareValues(CompareValues) {
    Cond.emplace(C, -1);
    if (A)
      Active.emplace(*A, -1);
  }
  std::optional<WarpProgram> Cond;
  std::optional<WarpProgram> Active;
  bool CompareValues;
  ThreadTable Threads;
  WarpSplit Out; ///< the last split
};

WarpSplitter::WarpSplitter(const Sym &Cond, bool CompareValues, const Sym *Active)
    : P(std::make_unique<Impl>(Cond, CompareValues, Active)) {}

WarpSplitter::~WarpSplitter() = default;

void WarpSplitter::setCondition(const Sym &Cond) { P->Cond.emplace(Cond, -1); }

const WarpSplit &WarpSplitter::split(const BlockShape &Shape, const Env &Base) {
  // What does not depend on the lane is computed once for the block, not per lane.
  P->Cond->bind(Base, Base, Shape);
  if (P->Active)
    P->Active->bind(Base, Base, Shape);
  P->Threads.build(Shape);
  WarpSplit &Out = P->Out;
  resetSplit(Out, Shape);
  for (unsigned W = 0; W < Shape.warps(); ++W) {
    const int64_t *Tid = P->Threads.warp(W);
    uint32_t Live = P->Threads.lanes(W);
    if (P->Active)
      Live &= ~P->Active->zeroLanes(W, Tid);
    if (!Live)
      continue;
    uint32_t Valid;
    const int64_t *V = P->Cond->warp(W, Tid, Valid);
    if (!tallyWarp(Out, W, Live, V, Valid, !P->CompareValues, Shape)) {
      Out.Evaluated = false;
      return Out;
    }
  }
  return Out;
}

struct LoopSplitter::Impl {
  Impl(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex, unsigned MaxTrips,
       const Sym *Active)
      : Init(Init, VarIndex), Cond(Cond, VarIndex), Step(Step, VarIndex),
        Active(Active ? std::make_optional<WarpProgram>(*Active, -1) : std::nullopt),
        VarIndex(VarIndex), MaxTrips(MaxTrips) {}
  WarpProgram Init, Cond, Step;
  std::optional<WarpProgram> Active;
  unsigned VarIndex, MaxTrips;
  ThreadTable Threads;
  WarpSplit Out; ///< the last split
};

LoopSplitter::LoopSplitter(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex,
                           unsigned MaxTrips, const Sym *Active)
    : P(std::make_unique<Impl>(Init, Cond, Step, VarIndex, MaxTrips, Active)) {}

LoopSplitter::~LoopSplitter() = default;

const WarpSplit &LoopSplitter::split(const BlockShape &Shape, const Env &Base) {
  unsigned VarIndex = P->VarIndex;
  Env Lane = Base;
  if (Lane.Vars.size() <= VarIndex)
    Lane.Vars.resize(VarIndex + 1);
  Lane = withShape(std::move(Lane), Shape);
  // The lane-independent parts once per block (the loop variable varies per trip).
  Env Block = Lane;
  Block.Vars[VarIndex] = std::nullopt;
  P->Init.bind(Block, Lane, Shape);
  P->Cond.bind(Block, Lane, Shape);
  P->Step.bind(Block, Lane, Shape);
  if (P->Active)
    P->Active->bind(Block, Lane, Shape);
  P->Threads.build(Shape);
  WarpSplit &Out = P->Out;
  resetSplit(Out, Shape);
  // The loop variable before the loop is what the environment says (usually unbound).
  int64_t Before[WarpLanes];
  std::fill_n(Before, WarpLanes, Lane.Vars[VarIndex].value_or(0));
  uint32_t BeforeValid = Lane.Vars[VarIndex] ? AllLanes : 0;
  auto Fail = [&]() -> const WarpSplit & {
    Out.Evaluated = false;
    return Out;
  };
  for (unsigned W = 0; W < Shape.warps(); ++W) {
    const int64_t *Tid = P->Threads.warp(W);
    uint32_t Live = P->Threads.lanes(W);
    if (P->Active)
      Live &= ~P->Active->zeroLanes(W, Tid);
    if (!Live)
      continue;
    // All lanes of the warp trip by trip; a lane leaves when the condition fails.
    uint32_t Valid;
    const int64_t *V = P->Init.warp(W, Tid, Valid, Before, BeforeValid);
    if (Live & ~Valid)
      return Fail();
    int64_t Cur[WarpLanes], Trips[WarpLanes] = {};
    std::copy_n(V, WarpLanes, Cur);
    uint32_t Running = Live;
    for (unsigned Trip = 0; Trip <= P->MaxTrips && Running; ++Trip) {
      const int64_t *C = P->Cond.warp(W, Tid, Valid, Cur, AllLanes);
      if (Running & ~Valid)
        return Fail();
      uint32_t Leave = Running & laneMask(WarpLanes, [&](unsigned L) { return C[L] == 0; });
      for (unsigned L = 0; L < WarpLanes; ++L)
        if (Leave >> L & 1)
          Trips[L] = Trip;
      Running &= ~Leave;
      if (!Running)
        break;
      const int64_t *S = P->Step.warp(W, Tid, Valid, Cur, AllLanes);
      if (Running & ~Valid)
        return Fail();
      std::copy_n(S, WarpLanes, Cur);
    }
    if (Running)
      return Fail();
    int64_t Most = 0, Least = INT64_MAX;
    unsigned Distinct = 0;
    for (unsigned L = 0; L < WarpLanes; ++L) {
      if (!(Live >> L & 1))
        continue;
      Most = std::max(Most, Trips[L]);
      Least = std::min(Least, Trips[L]);
      bool Seen = false;
      for (unsigned K = 0; K < L && !Seen; ++K)
        Seen = (Live >> K & 1) && Trips[K] == Trips[L];
      Distinct += !Seen;
    }
    Out.CondEvals += uint64_t(Most) + 1;
    Out.DivergentCondEvals += Distinct - 1;
    Out.MaxTripSpread = std::max(Out.MaxTripSpread, Most - Least);
    if (!tallyWarp(Out, W, Live, Trips, AllLanes, /*Truth=*/false, Shape))
      return Fail();
  }
  return Out;
}

WarpSplit splitByWarp(const Sym &Cond, const BlockShape &Shape, const Env &Base,
                      bool CompareValues, const Sym *Active) {
  return WarpSplitter(Cond, CompareValues, Active).split(Shape, Base);
}

WarpSplit splitLoopByWarp(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex,
                          const BlockShape &Shape, const Env &Base, unsigned MaxTrips,
                          const Sym *Active) {
  return LoopSplitter(Init, Cond, Step, VarIndex, MaxTrips, Active).split(Shape, Base);
}

std::optional<std::vector<int64_t>> enumerateLoop(const Sym &Init, const Sym &Cond,
                                                  const Sym &Step, unsigned VarIndex,
                                                  const Env &Base, unsigned MaxValues) {
  Env E = Base;
  if (E.Vars.size() <= VarIndex)
    E.Vars.resize(VarIndex + 1);
  std::vector<int64_t> Values;
  auto V = evaluate(Init, E);
  if (!V)
    return std::nullopt;
  while (true) {
    E.Vars[VarIndex] = *V;
    auto C = evaluate(Cond, E);
    if (!C)
      return std::nullopt;
    if (!*C)
      return Values;
    if (Values.size() >= MaxValues)
      return std::nullopt;
    Values.push_back(*V);
    V = evaluate(Step, E);
    if (!V)
      return std::nullopt;
  }
}

WarpSplit WarpSplit::asWaves(unsigned LanesPerWave) const {
  if (LanesPerWave <= 32 || !Evaluated || WarpLive.size() != WarpTrue.size())
    return *this;
  const unsigned Per = LanesPerWave / 32;
  WarpSplit Out;
  Out.Evaluated = true;
  Out.TrueLanes = TrueLanes;
  Out.MaxMinorityLanes = MaxMinorityLanes;
  Out.MaxMinorityLanesPerRow = MaxMinorityLanesPerRow;
  Out.MaxRunsPerRow = MaxRunsPerRow;
  Out.InLaneOrder = InLaneOrder;
  // Loop evaluations stay counted per 32-lane group, not per wavefront.
  Out.CondEvals = CondEvals;
  Out.DivergentCondEvals = DivergentCondEvals;
  Out.MaxTripSpread = MaxTripSpread;
  Out.WarpLiveMask = WarpLiveMask; // per 32-lane group, as the lanes are
  Out.WarpTrueMask = WarpTrueMask;
  for (size_t First = 0; First < WarpLive.size(); First += Per) {
    // A wavefront is its Per consecutive 32-lane groups: divergent when one of them is,
    // or when the uniform ones with live lanes take different values.
    bool Any = false, Divergent = false, True = false, HalfDivergent = false;
    std::optional<int64_t> Value;
    unsigned Live = 0, Smallest = ~0u;
    for (size_t W = First; W < First + Per && W < WarpLive.size(); ++W) {
      if (!WarpLive[W])
        continue;
      Any = true;
      Live += WarpLive[W];
      Smallest = std::min(Smallest, WarpLive[W]);
      HalfDivergent |= bool(WarpDivergent[W]);
      if (WarpDivergent[W] || (Value && *Value != WarpValue[W]))
        Divergent = true;
      Value = WarpValue[W];
      True = WarpTrue[W];
    }
    Out.WarpTrue.push_back(Any && !Divergent && True);
    Out.WarpDivergent.push_back(Divergent);
    Out.WarpValue.push_back(Value.value_or(0));
    Out.WarpLive.push_back(Live);
    if (!Any)
      continue;
    // A loop's trip counts across the wavefront: uniform groups that disagree differ by
    // their values; a split group beside another is not known to stay within its own
    // spread (the groups' least and most trips are not kept), so counted as wide.
    if (Divergent && CondEvals) {
      int64_t Lo = INT64_MAX, Hi = INT64_MIN;
      unsigned Groups = 0;
      for (size_t W = First; W < First + Per && W < WarpLive.size(); ++W)
        if (WarpLive[W]) {
          ++Groups;
          Lo = std::min(Lo, WarpValue[W]);
          Hi = std::max(Hi, WarpValue[W]);
        }
      if (Groups > 1)
        Out.MaxTripSpread = std::max(Out.MaxTripSpread,
                                     HalfDivergent ? int64_t(1) << 30 : Hi - Lo);
    }
    ++Out.Warps;
    if (Divergent && HalfDivergent) {
      ++Out.DivergentWarps; // the 32-lane groups' own minorities count
    } else if (Divergent) {
      ++Out.DivergentWarps;
      // Halves that are each uniform but disagree: the smaller one is the minority, more
      // than one lane of a row (no leader pattern).
      unsigned Minority = Smallest == ~0u ? 0 : Smallest;
      Out.MaxMinorityLanes = std::max(Out.MaxMinorityLanes, Minority);
      Out.MaxMinorityLanesPerRow = std::max(Out.MaxMinorityLanesPerRow, std::min(Minority, 2u));
    }
  }
  return Out;
}

} // namespace warplint::divergence
