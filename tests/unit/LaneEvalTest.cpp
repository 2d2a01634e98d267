//===- LaneEvalTest.cpp - the lane-by-lane evaluator of warplint-divergent-branch -===//
#include "warplint/core/LaneEval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

using namespace warplint::divergence;

namespace {

SymRef c(int64_t V) { return makeConst(V, 32, true); }
SymRef bin(SymOp Op, SymRef A, SymRef B) { return makeBinary(Op, A, B, 32, true); }
SymRef cmp(SymOp Op, SymRef A, SymRef B) { return makeBinary(Op, A, B, 8, true); }

TEST(LaneEval, EvenOddSplitsEveryWarp) {
  SymRef Cond = cmp(SymOp::Eq, bin(SymOp::Rem, makeThreadIdx(0), c(2)), c(0));
  WarpSplit S = splitByWarp(*Cond, BlockShape{64, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  EXPECT_EQ(S.Warps, 2u);
  EXPECT_EQ(S.DivergentWarps, 2u);
  EXPECT_EQ(S.MaxMinorityLanes, 16u);
  EXPECT_EQ(S.TrueLanes, 32u);
}

TEST(LaneEval, SplitNamesTheLanesOfEachSide) {
  // Which lanes, not only how many: the even lanes of a 40-thread block, whose second warp
  // has 8 live lanes (a uniform warp keeps its lanes too).
  SymRef Even = cmp(SymOp::Eq, bin(SymOp::Rem, makeThreadIdx(0), c(2)), c(0));
  WarpSplit S = splitByWarp(*Even, BlockShape{40, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  ASSERT_EQ(S.WarpTrueMask.size(), 2u);
  EXPECT_EQ(S.WarpLiveMask[0], 0xffffffffu);
  EXPECT_EQ(S.WarpTrueMask[0], 0x55555555u);
  EXPECT_EQ(S.WarpLiveMask[1], 0xffu);
  EXPECT_EQ(S.WarpTrueMask[1], 0x55u);
  SymRef Low = cmp(SymOp::Lt, makeThreadIdx(0), c(32));
  WarpSplit U = splitByWarp(*Low, BlockShape{40, 1, 1}, Env{});
  EXPECT_EQ(U.DivergentWarps, 0u);
  EXPECT_EQ(U.WarpTrueMask[0], 0xffffffffu);
  EXPECT_EQ(U.WarpTrueMask[1], 0u);
}

TEST(LaneEval, RowLeaderHasOneMinorityLanePerRow) {
  // threadIdx.x == 0 in a 16x16 block: two rows per warp, one leader in each.
  SymRef Cond = cmp(SymOp::Eq, makeThreadIdx(0), c(0));
  WarpSplit S = splitByWarp(*Cond, BlockShape{16, 16, 1}, Env{});
  EXPECT_EQ(S.DivergentWarps, 8u);
  EXPECT_EQ(S.MaxMinorityLanes, 2u);
  EXPECT_EQ(S.MaxMinorityLanesPerRow, 1u);
  // threadIdx.y == 0 puts a whole row of warp 0 on the smaller side.
  SymRef Row = cmp(SymOp::Eq, makeThreadIdx(1), c(0));
  WarpSplit R = splitByWarp(*Row, BlockShape{16, 16, 1}, Env{});
  EXPECT_EQ(R.DivergentWarps, 1u);
  EXPECT_EQ(R.MaxMinorityLanesPerRow, 16u);
}

TEST(LaneEval, WarpIndexParityIsUniform) {
  SymRef Cond = cmp(SymOp::Eq, bin(SymOp::Rem, bin(SymOp::Div, makeThreadIdx(0), c(32)), c(2)),
                    c(0));
  WarpSplit S = splitByWarp(*Cond, BlockShape{256, 1, 1}, Env{});
  EXPECT_EQ(S.DivergentWarps, 0u);
  EXPECT_EQ(S.TrueLanes, 128u);
}

TEST(LaneEval, Mod64HalfIsUniformMod32HalfIsNot) {
  SymRef A = cmp(SymOp::Lt, bin(SymOp::Rem, makeThreadIdx(0), c(64)), c(32));
  SymRef B = cmp(SymOp::Lt, bin(SymOp::Rem, makeThreadIdx(0), c(32)), c(16));
  EXPECT_EQ(splitByWarp(*A, BlockShape{256, 1, 1}, Env{}).DivergentWarps, 0u);
  EXPECT_EQ(splitByWarp(*B, BlockShape{256, 1, 1}, Env{}).DivergentWarps, 8u);
}

TEST(LaneEval, RowParityDependsOnBlockShape) {
  SymRef Cond = bin(SymOp::Rem, makeThreadIdx(1), c(2));
  EXPECT_EQ(splitByWarp(*Cond, BlockShape{16, 16, 1}, Env{}).DivergentWarps, 8u);
  EXPECT_EQ(splitByWarp(*Cond, BlockShape{32, 8, 1}, Env{}).DivergentWarps, 0u);
}

TEST(LaneEval, PartialLastWarpCountsOnlyActiveLanes) {
  // 40 threads: the second warp has 8 active lanes, all with tid >= 32.
  SymRef Cond = cmp(SymOp::Lt, makeThreadIdx(0), c(32));
  WarpSplit S = splitByWarp(*Cond, BlockShape{40, 1, 1}, Env{});
  EXPECT_EQ(S.Warps, 2u);
  EXPECT_EQ(S.DivergentWarps, 0u);
}

TEST(LaneEval, UnsignedWrapAndSignedDivision) {
  Env E;
  // 0u - 1 wraps to 0xffffffff; in int it is -1 and -7 / 2 truncates to -3.
  EXPECT_EQ(*evaluate(*bin(SymOp::Sub, c(0), c(1)), E), 0xffffffffLL);
  SymRef S = makeBinary(SymOp::Div, makeConst(-7, 32, false), makeConst(2, 32, false), 32, false);
  EXPECT_EQ(*evaluate(*S, E), -3);
  EXPECT_FALSE(evaluate(*bin(SymOp::Rem, c(1), c(0)), E).has_value());
}

TEST(LaneEval, MathFunctionsAndBitIntrinsics) {
  Env E;
  auto i32 = [](int64_t V) { return makeConst(V, 32, false); };
  auto i64 = [](int64_t V) { return makeConst(V, 64, false); };
  auto un = [](SymOp Op, SymRef A) { return makeUnary(Op, A, 32, false); };
  auto pw = [](SymRef A, SymRef B) { return makeBinary(SymOp::Pow, A, B, 64, false); };
  // exp2f(k) and powf(b, e) converted to int: exact powers, truncated fractions.
  EXPECT_EQ(*evaluate(*pw(i64(2), i64(10)), E), 1024);
  EXPECT_EQ(*evaluate(*pw(i64(3), i64(4)), E), 81);
  EXPECT_EQ(*evaluate(*pw(i64(2), i64(0)), E), 1);
  EXPECT_EQ(*evaluate(*pw(i64(2), i64(-1)), E), 0);  // 0.5f -> 0
  EXPECT_EQ(*evaluate(*pw(i64(-1), i64(3)), E), -1);
  EXPECT_FALSE(evaluate(*pw(i64(2), i64(70)), E).has_value()); // past 2^62
  EXPECT_FALSE(evaluate(*pw(i64(0), i64(-1)), E).has_value()); // infinity
  // log2f(x) converted to int is floor(log2(x)); no value for x <= 0.
  EXPECT_EQ(*evaluate(*un(SymOp::Log2, i32(256)), E), 8);
  EXPECT_EQ(*evaluate(*un(SymOp::Log2, i32(320)), E), 8);
  EXPECT_EQ(*evaluate(*un(SymOp::Log2, i32(1)), E), 0);
  EXPECT_FALSE(evaluate(*un(SymOp::Log2, i32(0)), E).has_value());
  EXPECT_FALSE(evaluate(*un(SymOp::Log2, i32(-4)), E).has_value());
  // __ffs, __clz, __popc count in the operand's width (32 bits; 64 for the ll forms).
  EXPECT_EQ(*evaluate(*un(SymOp::Ffs, i32(0)), E), 0);
  EXPECT_EQ(*evaluate(*un(SymOp::Ffs, i32(8)), E), 4);
  EXPECT_EQ(*evaluate(*un(SymOp::Ffs, i32(-1)), E), 1);
  EXPECT_EQ(*evaluate(*un(SymOp::Clz, i32(1)), E), 31);
  EXPECT_EQ(*evaluate(*un(SymOp::Clz, i32(0)), E), 32);
  EXPECT_EQ(*evaluate(*un(SymOp::Clz, i32(-1)), E), 0);
  EXPECT_EQ(*evaluate(*un(SymOp::Clz, i64(1)), E), 63);
  EXPECT_EQ(*evaluate(*un(SymOp::Popc, i32(-1)), E), 32);
  EXPECT_EQ(*evaluate(*un(SymOp::Popc, i64(-1)), E), 64);
  EXPECT_EQ(*evaluate(*un(SymOp::Popc, i32(0x70)), E), 3);
  // Lane by lane: __popc(threadIdx.x) & 1 splits every warp, as evaluate says lane by lane.
  SymRef Parity = cmp(SymOp::Eq, bin(SymOp::And, un(SymOp::Popc, makeThreadIdx(0)), c(1)), c(0));
  WarpSplit S = splitByWarp(*Parity, BlockShape{64, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  EXPECT_EQ(S.DivergentWarps, 2u);
  // 32 - __clz(threadIdx.x) is warp-uniform nowhere in warp 0 (lanes 0, 1, 2-3, 4-7, ...).
  SymRef Width = cmp(SymOp::Lt, bin(SymOp::Sub, c(32), un(SymOp::Clz, makeThreadIdx(0))), c(3));
  S = splitByWarp(*Width, BlockShape{64, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  EXPECT_EQ(S.DivergentWarps, 1u);
}

TEST(LaneEval, DoublingLoopValues) {
  // for (s = 1; s < 256; s *= 2): 8 values.
  SymRef S = makeVar(0);
  auto Values = enumerateLoop(*c(1), *cmp(SymOp::Lt, S, c(256)), *bin(SymOp::Mul, S, c(2)), 0,
                              Env{});
  ASSERT_TRUE(Values.has_value());
  EXPECT_EQ(Values->size(), 8u);
  EXPECT_EQ(Values->back(), 128);
  // An endless loop gives no values rather than a truncated list.
  EXPECT_FALSE(enumerateLoop(*c(1), *cmp(SymOp::Gt, S, c(0)), *S, 0, Env{}).has_value());
}

TEST(LaneEval, TripCountsDifferByLane) {
  // for (k = 0; k < tid % 4; ++k): trip counts 0..3 in every warp.
  SymRef K = makeVar(0);
  SymRef Cond = cmp(SymOp::Lt, K, bin(SymOp::Rem, makeThreadIdx(0), c(4)));
  WarpSplit S = splitLoopByWarp(*c(0), *Cond, *bin(SymOp::Add, K, c(1)), 0,
                                BlockShape{128, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  EXPECT_EQ(S.DivergentWarps, 4u);
  // Each warp evaluates the condition 4 times (trips 0..3, then the exit); at 3 of them
  // some lanes leave while others stay.
  EXPECT_EQ(S.CondEvals, 16u);
  EXPECT_EQ(S.DivergentCondEvals, 12u);
  // Lanes of one warp run 0 to 3 trips.
  EXPECT_EQ(S.MaxTripSpread, 3);
}

TEST(LaneEval, EvenPartitionSpreadsTripsByOne) {
  // for (i = 100 * tid / 128; i < 100 * (tid + 1) / 128; ++i): 100 items over 128 lanes,
  // each lane 0 or 1 of them; 300 items, 2 or 3. Never more than one trip apart.
  SymRef I = makeVar(0);
  for (int64_t N : {100, 300}) {
    SymRef Start = bin(SymOp::Div, bin(SymOp::Mul, c(N), makeThreadIdx(0)), c(128));
    SymRef End = bin(SymOp::Div, bin(SymOp::Mul, c(N), bin(SymOp::Add, makeThreadIdx(0), c(1))),
                     c(128));
    WarpSplit S = splitLoopByWarp(*Start, *cmp(SymOp::Lt, I, End), *bin(SymOp::Add, I, c(1)), 0,
                                  BlockShape{128, 1, 1}, Env{});
    ASSERT_TRUE(S.Evaluated);
    EXPECT_GT(S.DivergentWarps, 0u);
    EXPECT_EQ(S.MaxTripSpread, 1);
    // Every 32-lane group splits by one trip: a 64-lane wavefront of two split groups is
    // not known to stay within one.
    EXPECT_GT(S.asWaves(64).MaxTripSpread, 1);
  }
  // Uniform 32-lane groups that run 1 and 2 trips: a wavefront of both spreads by one.
  SymRef Two = cmp(SymOp::Lt, I, bin(SymOp::Add, c(1), bin(SymOp::Div, makeThreadIdx(0), c(32))));
  WarpSplit G = splitLoopByWarp(*c(0), *Two, *bin(SymOp::Add, I, c(1)), 0, BlockShape{64, 1, 1},
                                Env{});
  ASSERT_TRUE(G.Evaluated);
  EXPECT_EQ(G.MaxTripSpread, 0);
  EXPECT_EQ(G.asWaves(64).MaxTripSpread, 1);
}

TEST(LaneEval, TriangularLoopDivergesInItsLastTrips) {
  // for (j = tid + 1; j < 100; ++j), one warp: lanes run 99 - tid trips (99..68); the warp
  // evaluates the condition 100 times, and lanes leave at 31 of them.
  SymRef J = makeVar(0);
  WarpSplit S = splitLoopByWarp(*bin(SymOp::Add, makeThreadIdx(0), c(1)),
                                *cmp(SymOp::Lt, J, c(100)), *bin(SymOp::Add, J, c(1)), 0,
                                BlockShape{32, 1, 1}, Env{});
  ASSERT_TRUE(S.Evaluated);
  EXPECT_EQ(S.DivergentWarps, 1u);
  EXPECT_EQ(S.CondEvals, 100u);
  EXPECT_EQ(S.DivergentCondEvals, 31u);
  EXPECT_EQ(S.MaxTripSpread, 31);
}

TEST(LaneEval, RunsAndLaneOrderOfASplit) {
  // tx < 16: one run of each side in every warp; tx % 2: 32 runs.
  SymRef Half = cmp(SymOp::Lt, makeThreadIdx(0), c(16));
  WarpSplit H = splitByWarp(*Half, BlockShape{32, 2, 1}, Env{});
  EXPECT_EQ(H.MaxRunsPerRow, 2u);
  SymRef Parity = cmp(SymOp::Eq, bin(SymOp::Rem, makeThreadIdx(0), c(2)), c(0));
  EXPECT_EQ(splitByWarp(*Parity, BlockShape{64, 1, 1}, Env{}).MaxRunsPerRow, 32u);
  // A halo 4 <= tx < 12: three runs in each row, whether a warp holds one row or two; a
  // test of the row alone leaves each row whole.
  SymRef Halo = makeBinary(SymOp::LAnd, cmp(SymOp::Ge, makeThreadIdx(0), c(4)),
                           cmp(SymOp::Lt, makeThreadIdx(0), c(12)), 8, true);
  EXPECT_EQ(splitByWarp(*Halo, BlockShape{32, 4, 1}, Env{}).MaxRunsPerRow, 3u);
  EXPECT_EQ(splitByWarp(*Halo, BlockShape{16, 16, 1}, Env{}).MaxRunsPerRow, 3u);
  SymRef RowParity = bin(SymOp::Rem, makeThreadIdx(1), c(2));
  EXPECT_EQ(splitByWarp(*RowParity, BlockShape{16, 16, 1}, Env{}).MaxRunsPerRow, 1u);
  // A triangular loop: the lanes leave in lane order; trip counts tid % 4 rise and fall
  // again (0 1 2 3 0 1 ...): not in lane order.
  SymRef J = makeVar(0);
  WarpSplit T = splitLoopByWarp(*bin(SymOp::Add, makeThreadIdx(0), c(1)),
                                *cmp(SymOp::Lt, J, c(100)), *bin(SymOp::Add, J, c(1)), 0,
                                BlockShape{32, 1, 1}, Env{});
  EXPECT_TRUE(T.InLaneOrder);
  SymRef K = makeVar(0);
  WarpSplit M = splitLoopByWarp(*c(0), *cmp(SymOp::Lt, K, bin(SymOp::Rem, makeThreadIdx(0), c(4))),
                                *bin(SymOp::Add, K, c(1)), 0, BlockShape{128, 1, 1}, Env{});
  EXPECT_FALSE(M.InLaneOrder);
}

// The lane-by-lane evaluation as it was before the warp-at-a-time evaluator: each lane
// through evaluate() on the folded expressions. The differential tests below hold the two
// to the same results.
namespace reference {

Env withShape(Env E, const BlockShape &Shape) {
  E.BlockDim[0] = Shape.X;
  E.BlockDim[1] = Shape.Y;
  E.BlockDim[2] = Shape.Z;
  return E;
}

SymRef borrow(const Sym *S) { return SymRef(SymRef(), S); }

template <typename LaneFn>
WarpSplit splitWith(const BlockShape &Shape, const Env &Base, LaneFn Lane, const Sym *Active) {
  WarpSplit Out;
  Out.Warps = 0;
  Out.Evaluated = true;
  Out.WarpTrue.assign(Shape.warps(), false);
  Env E = withShape(Base, Shape);
  unsigned Threads = Shape.threads();
  std::vector<std::pair<int64_t, unsigned>> Counts, LaneValues;
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

WarpSplit splitByWarp(const Sym &Cond, const BlockShape &Shape, const Env &Base,
                      bool CompareValues, const Sym *Active) {
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
  Env Block = withShape(Copy, Shape);
  Block.Vars[VarIndex] = std::nullopt;
  SymRef In = foldUniform(borrow(&Init), Block, VarIndex);
  SymRef Co = foldUniform(borrow(&Cond), Block, VarIndex);
  SymRef St = foldUniform(borrow(&Step), Block, VarIndex);
  SymRef Ac = Active ? foldUniform(borrow(Active), Block) : nullptr;
  return splitWith(
      Shape, Copy,
      [&](const Env &E0) -> std::optional<int64_t> {
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
      },
      Ac.get());
}

} // namespace reference

/// Random expressions over every operator, with widths, signs, constants and variables
/// chosen to reach the edges (division by zero, INT64_MIN / -1, wide shifts, narrow
/// variables holding wide values, unbound variables).
class RandomSym {
public:
  explicit RandomSym(unsigned Seed) : Rng(Seed) {}
  SymRef expr(unsigned Depth, unsigned LoopVar = ~0u) {
    unsigned Bits = pick({8u, 16u, 32u, 32u, 64u});
    bool Uns = coin();
    if (Depth == 0 || below(4) == 0) {
      switch (below(5)) {
      case 0:
        return makeThreadIdx(below(3));
      case 1:
        return makeBlockDim(below(3));
      case 2:
        if (LoopVar != ~0u && coin())
          return makeVar(LoopVar, Bits, Uns);
        return makeVar(below(4), Bits, Uns);
      default:
        return makeConst(pick<int64_t>({0, 1, 2, 3, 5, 16, 31, 32, 33, 63, 64, 65, -1, -2,
                                        INT64_MIN, INT64_MAX, 100003, 1 << 20}),
                         Bits, Uns);
      }
    }
    auto Sub = [&] { return expr(Depth - 1, LoopVar); };
    SymOp Op = SymOp(unsigned(SymOp::Cast) + below(unsigned(SymOp::Popc) - unsigned(SymOp::Cast) + 1));
    switch (Op) {
    case SymOp::Cast:
      return makeCast(Sub(), Bits, Uns);
    case SymOp::Neg:
    case SymOp::BitNot:
    case SymOp::LNot:
    case SymOp::Log2:
    case SymOp::Ffs:
    case SymOp::Clz:
    case SymOp::Popc:
      return makeUnary(Op, Sub(), Bits, Uns);
    case SymOp::Select:
      return makeSelect(Sub(), Sub(), Sub(), Bits, Uns);
    default: {
      // Shared subtrees, as the analysis builds them.
      SymRef A = Sub();
      SymRef B = coin() && below(4) == 0 ? A : Sub();
      return makeBinary(Op, A, B, Bits, Uns);
    }
    }
  }
  Env env() {
    Env E;
    E.Vars.resize(below(6));
    for (auto &V : E.Vars)
      if (below(5) != 0)
        V = pick<int64_t>({0, 1, 2, 3, 32, 33, 100, 1000, 100003, -1, -7, int64_t(1) << 40});
    return E;
  }
  BlockShape shape() {
    return pick<BlockShape>({{64, 1, 1}, {40, 1, 1}, {16, 16, 1}, {8, 4, 3}, {33, 3, 1},
                             {1, 1, 1}, {96, 1, 1}, {5, 7, 2}});
  }
  bool coin() { return below(2) == 0; }
  unsigned below(unsigned N) { return std::uniform_int_distribution<unsigned>(0, N - 1)(Rng); }
  template <typename T> T pick(std::initializer_list<T> L) { return *(L.begin() + below(L.size())); }

private:
  std::mt19937 Rng;
};

void expectSame(const WarpSplit &Want, const WarpSplit &Got, unsigned Case) {
  EXPECT_EQ(Want.Evaluated, Got.Evaluated) << "case " << Case;
  EXPECT_EQ(Want.Warps, Got.Warps) << "case " << Case;
  EXPECT_EQ(Want.DivergentWarps, Got.DivergentWarps) << "case " << Case;
  EXPECT_EQ(Want.MaxMinorityLanes, Got.MaxMinorityLanes) << "case " << Case;
  EXPECT_EQ(Want.MaxMinorityLanesPerRow, Got.MaxMinorityLanesPerRow) << "case " << Case;
  EXPECT_EQ(Want.TrueLanes, Got.TrueLanes) << "case " << Case;
  EXPECT_EQ(Want.WarpTrue, Got.WarpTrue) << "case " << Case;
}

TEST(LaneEval, WarpAtATimeMatchesLaneByLane) {
  RandomSym R(12345);
  unsigned Evaluated = 0, Divergent = 0;
  for (unsigned Case = 0; Case < 10000; ++Case) {
    SymRef Cond = R.expr(1 + R.below(5));
    SymRef Active = R.coin() ? R.expr(1 + R.below(4)) : nullptr;
    bool Values = R.below(4) == 0;
    WarpSplitter Splitter(*Cond, Values, Active.get());
    // Shapes and environments again and again, as the check asks for them: a warp is
    // reused only while the shape and what its lanes read stay the same.
    BlockShape Shapes[2] = {R.shape(), R.shape()};
    Env Envs[3] = {R.env(), R.env(), R.env()};
    for (unsigned E = 0; E < 6; ++E) {
      const BlockShape &Shape = Shapes[E % 2];
      const Env &Base = Envs[E % 3];
      WarpSplit Want = reference::splitByWarp(*Cond, Shape, Base, Values, Active.get());
      expectSame(Want, Splitter.split(Shape, Base), Case);
      Evaluated += Want.Evaluated;
      Divergent += Want.DivergentWarps > 0;
    }
    // Another condition under the same active lanes, in the same environments.
    SymRef Other = R.expr(1 + R.below(5));
    Splitter.setCondition(*Other);
    for (unsigned E = 0; E < 6; ++E)
      expectSame(reference::splitByWarp(*Other, Shapes[E % 2], Envs[E % 3], Values, Active.get()),
                 Splitter.split(Shapes[E % 2], Envs[E % 3]), Case);
    if (HasFailure())
      return;
  }
  // The cases reach both outcomes, not only failed evaluations.
  EXPECT_GT(Evaluated, 30000u) << Evaluated;
  EXPECT_GT(Divergent, 1000u) << Divergent;
}

std::string dumpSym(const Sym &S) {
  std::string O = "(" + std::to_string(int(S.Op)) + ":" + std::to_string(S.Value) + "/" +
                  std::to_string(S.Bits) + (S.Unsigned ? "u" : "s");
  for (const SymRef &C : {S.A, S.B, S.C})
    if (C)
      O += " " + dumpSym(*C);
  return O + ")";
}

// WarpEvaluator gives each thread what evaluate() gives it on the expression's uniform parts
// folded first, and on the expression itself when bind() says every variable is in its
// type's range (the memory and race checks read it in place of a lane-by-lane loop).
TEST(LaneEval, WarpEvaluatorMatchesEvaluate) {
  RandomSym R(777);
  unsigned Valued = 0, Missing = 0, InRangeBinds = 0, Differ = 0;
  for (unsigned Case = 0; Case < 4000; ++Case) {
    SymRef E = R.expr(1 + R.below(5));
    WarpEvaluator Eval(*E);
    BlockShape Shapes[2] = {R.shape(), R.shape()};
    Env Envs[3] = {R.env(), R.env(), R.env()};
    for (unsigned K = 0; K < 6; ++K) {
      const BlockShape &Shape = Shapes[K % 2];
      Env Base = reference::withShape(Envs[K % 3], Shape);
      SymRef Folded = foldUniform(E, Base);
      bool InRange = Eval.bind(Shape, Envs[K % 3]);
      InRangeBinds += InRange;
      for (unsigned G = 0; G < Shape.warps(); ++G) {
        uint32_t Valid = 0;
        const int64_t *V = Eval.group(G, Valid);
        uint32_t Threads = Eval.threads(G);
        for (unsigned L = 0; L < 32; ++L) {
          unsigned T = G * 32 + L;
          ASSERT_EQ(T < Shape.threads(), bool(Threads >> L & 1)) << "case " << Case;
          if (T >= Shape.threads())
            continue;
          Env X = Base;
          X.Tid[0] = T % Shape.X;
          X.Tid[1] = (T / Shape.X) % Shape.Y;
          X.Tid[2] = T / (Shape.X * Shape.Y);
          ASSERT_EQ(X.Tid[0], Eval.tid(G)[L]) << "case " << Case;
          ASSERT_EQ(X.Tid[1], Eval.tid(G)[32 + L]) << "case " << Case;
          ASSERT_EQ(X.Tid[2], Eval.tid(G)[64 + L]) << "case " << Case;
          std::optional<int64_t> Want = evaluate(*Folded, X), Plain = evaluate(*E, X);
          ASSERT_EQ(Want.has_value(), bool(Valid >> L & 1)) << "case " << Case;
          if (Want)
            ASSERT_EQ(*Want, V[L]) << "case " << Case;
          if (InRange)
            ASSERT_EQ(Want, Plain) << "case " << Case << " " << dumpSym(*E);
          Differ += Want != Plain;
          Valued += Want.has_value();
          Missing += !Want;
        }
      }
    }
  }
  EXPECT_GT(Valued, 100000u) << Valued;
  EXPECT_GT(Missing, 10000u) << Missing;
  // Both kinds of environment are reached: in range, and out of range where the two differ.
  EXPECT_GT(InRangeBinds, 8000u) << InRangeBinds;
  EXPECT_GT(Differ, 0u);
}

TEST(LaneEval, WarpAtATimeLoopsMatchLaneByLane) {
  RandomSym R(54321);
  const unsigned Var = 4;
  unsigned Evaluated = 0, Divergent = 0;
  for (unsigned Case = 0; Case < 5000; ++Case) {
    SymRef V = makeVar(Var, 32, R.coin());
    // Mostly counting loops up to a thread-dependent bound, sometimes anything at all.
    SymRef Init = R.coin() ? R.expr(2) : makeConst(R.below(3), 32, false);
    SymRef Cond = R.below(4) == 0
                      ? R.expr(3, Var)
                      : makeBinary(SymOp::Lt, V, R.expr(2), 8, true);
    SymRef Step = R.below(4) == 0 ? R.expr(2, Var)
                                  : makeBinary(SymOp::Add, V, makeConst(1 + R.below(3), 32, false),
                                               32, false);
    SymRef Active = R.coin() ? R.expr(2, Var) : nullptr;
    unsigned MaxTrips = 1 + R.below(40);
    LoopSplitter Splitter(*Init, *Cond, *Step, Var, MaxTrips, Active.get());
    BlockShape Shapes[2] = {R.shape(), R.shape()};
    Env Envs[3] = {R.env(), R.env(), R.env()};
    for (Env &Base : Envs)
      if (R.coin()) {
        Base.Vars.resize(Var + 1);
        Base.Vars[Var] = R.below(3);
      }
    for (unsigned E = 0; E < 6; ++E) {
      const BlockShape &Shape = Shapes[E % 2];
      const Env &Base = Envs[E % 3];
      WarpSplit Want =
          reference::splitLoopByWarp(*Init, *Cond, *Step, Var, Shape, Base, MaxTrips, Active.get());
      expectSame(Want, Splitter.split(Shape, Base), Case);
      Evaluated += Want.Evaluated;
      Divergent += Want.DivergentWarps > 0;
    }
    if (HasFailure())
      return;
  }
  EXPECT_GT(Evaluated, 10000u) << Evaluated;
  EXPECT_GT(Divergent, 300u) << Divergent;
}

} // namespace
