//===- LaneEval.cpp - symbolic thread-index expressions, evaluated lane by lane -===//
#include "warplint/core/LaneEval.h"

#include <unordered_map>

#include <algorithm>
#include <map>

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

/// Base with the block shape in BlockDim.
Env withShape(Env E, const BlockShape &Shape) {
  E.BlockDim[0] = Shape.X;
  E.BlockDim[1] = Shape.Y;
  E.BlockDim[2] = Shape.Z;
  return E;
}

/// A non-owning reference to S, for foldUniform (which may return it unchanged).
SymRef borrow(const Sym *S) { return SymRef(SymRef(), S); }

// Walks the threads of a block in warp order, calling Lane(env) -> optional<int64_t>.
template <typename LaneFn>
WarpSplit splitWith(const BlockShape &Shape, const Env &Base, LaneFn Lane, const Sym *Active) {
  WarpSplit Out;
  Out.Warps = 0;
  Out.Evaluated = true;
  Out.WarpTrue.assign(Shape.warps(), false);
  Env E = withShape(Base, Shape);
  unsigned Threads = Shape.threads();
  // Per warp: (value, lanes) of each value taken, (value, row) of each active lane.
  std::vector<std::pair<int64_t, unsigned>> Counts, LaneValues;
  Counts.reserve(32);
  LaneValues.reserve(32);
  for (unsigned W = 0; W < Shape.warps(); ++W) {
    Counts.clear();
    LaneValues.clear();
    for (unsigned L = W * 32; L < std::min(Threads, W * 32 + 32); ++L) {
      E.Tid[0] = L % Shape.X;
      E.Tid[1] = (L / Shape.X) % Shape.Y;
      E.Tid[2] = L / (Shape.X * Shape.Y);
      if (Active) {
        std::optional<int64_t> A = evaluate(*Active, E);
        if (A && *A == 0)
          continue;
      }
      std::optional<int64_t> V = Lane(E);
      if (!V) {
        Out.Evaluated = false;
        return Out;
      }
      auto It = std::find_if(Counts.begin(), Counts.end(),
                             [&](const std::pair<int64_t, unsigned> &P) { return P.first == *V; });
      if (It == Counts.end())
        Counts.emplace_back(*V, 1);
      else
        ++It->second;
      LaneValues.push_back({*V, L / Shape.X});
    }
    if (Counts.empty())
      continue;
    ++Out.Warps;
    if (Counts.size() > 1) {
      ++Out.DivergentWarps;
      unsigned Largest = 0, Total = 0;
      int64_t Majority = 0;
      // The majority value: the most lanes, the smallest value on a tie.
      for (auto &KV : Counts) {
        if (KV.second > Largest || (KV.second == Largest && KV.first < Majority))
          Majority = KV.first;
        Largest = std::max(Largest, KV.second);
        Total += KV.second;
      }
      Out.MaxMinorityLanes = std::max(Out.MaxMinorityLanes, Total - Largest);
      std::map<unsigned, unsigned> PerRow;
      for (auto &[Value, Row] : LaneValues)
        if (Value != Majority)
          Out.MaxMinorityLanesPerRow = std::max(Out.MaxMinorityLanesPerRow, ++PerRow[Row]);
    }
    for (auto &KV : Counts)
      if (KV.first != 0)
        Out.TrueLanes += KV.second;
    Out.WarpTrue[W] = Counts.size() == 1 && Counts.front().first != 0;
  }
  return Out;
}

} // namespace

WarpSplit splitByWarp(const Sym &Cond, const BlockShape &Shape, const Env &Base,
                      bool CompareValues, const Sym *Active) {
  // What does not depend on the lane is computed once for the block, not per lane.
  Env Block = withShape(Base, Shape);
  SymRef C = foldUniform(borrow(&Cond), Block);
  SymRef A = Active ? foldUniform(borrow(Active), Block) : nullptr;
  return splitWith(
      Shape, Base,
      [&](const Env &E) -> std::optional<int64_t> {
        auto V = evaluate(*C, E);
        if (!V || CompareValues)
          return V;
        return int64_t(*V != 0);
      },
      A.get());
}

WarpSplit splitLoopByWarp(const Sym &Init, const Sym &Cond, const Sym &Step, unsigned VarIndex,
                          const BlockShape &Shape, const Env &Base, unsigned MaxTrips,
                          const Sym *Active) {
  Env Copy = Base;
  if (Copy.Vars.size() <= VarIndex)
    Copy.Vars.resize(VarIndex + 1);
  // The lane-independent parts once per block (the loop variable varies per trip).
  Env Block = withShape(Copy, Shape);
  Block.Vars[VarIndex] = std::nullopt;
  SymRef In = foldUniform(borrow(&Init), Block, VarIndex);
  SymRef Co = foldUniform(borrow(&Cond), Block, VarIndex);
  SymRef St = foldUniform(borrow(&Step), Block, VarIndex);
  SymRef Ac = Active ? foldUniform(borrow(Active), Block) : nullptr;
  return splitWith(Shape, Copy, [&](const Env &E0) -> std::optional<int64_t> {
    Env E = E0;
    auto V = evaluate(*In, E);
    if (!V)
      return std::nullopt;
    for (unsigned Trip = 0; Trip <= MaxTrips; ++Trip) {
      E.Vars[VarIndex] = *V;
      auto C = evaluate(*Co, E);
      if (!C)
        return std::nullopt;
      if (!*C)
        return int64_t(Trip);
      V = evaluate(*St, E);
      if (!V)
        return std::nullopt;
    }
    return std::nullopt;
  }, Ac.get());
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

} // namespace warplint::divergence
