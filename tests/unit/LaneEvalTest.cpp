//===- LaneEvalTest.cpp - the lane-by-lane evaluator of warplint-divergent-branch -===//
#include "warplint/core/LaneEval.h"

#include <gtest/gtest.h>

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
}

} // namespace
