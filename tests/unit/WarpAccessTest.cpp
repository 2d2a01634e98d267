//===- WarpAccessTest.cpp - sectors and shared-memory wavefronts of one warp -===//
#include "warplint/core/WarpAccess.h"

#include <gtest/gtest.h>

using namespace warplint::memory;
using namespace warplint::divergence;

namespace {

/// Lane L at Start + L * Stride bytes; lanes from Active on (0: all).
LaneOffsets strided(int64_t Start, int64_t Stride, unsigned ActiveLanes = 32) {
  LaneOffsets O;
  for (unsigned L = 0; L < ActiveLanes; ++L)
    O[L] = Start + int64_t(L) * Stride;
  return O;
}

struct SectorCase {
  const char *Name;
  int64_t Start, Stride;
  unsigned Bytes, ActiveLanes;
  unsigned Sectors, Ideal;
  uint64_t BytesRequested;
};

TEST(WarpAccess, SectorsOfGlobalAccesses) {
  const SectorCase Cases[] = {
      {"floats, contiguous", 0, 4, 4, 32, 4, 4, 128},
      {"floats, stride 2", 0, 8, 4, 32, 8, 4, 128},
      {"floats, stride 8 (one sector each)", 0, 32, 4, 32, 32, 4, 128},
      {"floats, stride 32", 0, 128, 4, 32, 32, 4, 128},
      {"floats, 4 bytes past a boundary", 4, 4, 4, 32, 5, 4, 128},
      {"floats, one lane", 0, 4, 4, 1, 1, 1, 4},
      {"broadcast: every lane one float", 64, 0, 4, 32, 1, 1, 4},
      {"doubles, contiguous", 0, 8, 8, 32, 8, 8, 256},
      {"float4, contiguous", 0, 16, 16, 32, 16, 16, 512},
      {"float4, stride 2", 0, 32, 16, 32, 32, 16, 512},
      {"float4 straddling sectors (8 past)", 8, 16, 16, 32, 17, 16, 512},
      {"struct of 12 bytes, one float field", 0, 12, 4, 32, 12, 4, 128},
      {"bytes, contiguous", 0, 1, 1, 32, 1, 1, 32},
      {"negative offsets", -128, 4, 4, 32, 4, 4, 128},
      {"half warp", 0, 4, 4, 16, 2, 2, 64},
  };
  for (const SectorCase &C : Cases) {
    SectorCount S = countSectors(strided(C.Start, C.Stride, C.ActiveLanes), C.Bytes);
    EXPECT_EQ(S.Sectors, C.Sectors) << C.Name;
    EXPECT_EQ(S.IdealSectors, C.Ideal) << C.Name;
    EXPECT_EQ(S.BytesRequested, C.BytesRequested) << C.Name;
    EXPECT_EQ(S.ActiveLanes, C.ActiveLanes) << C.Name;
  }
}

struct WaveCase {
  const char *Name;
  int64_t Stride;
  unsigned Bytes;
  unsigned Wavefronts, Ideal, Ways;
  bool Broadcast;
};

TEST(WarpAccess, WavefrontsOfSharedAccesses) {
  const WaveCase Cases[] = {
      {"floats, contiguous", 4, 4, 1, 1, 1, false},
      {"floats, stride 2: 2-way", 8, 4, 2, 1, 2, false},
      {"floats, stride 32 (a column of float[32][32]): 32-way", 128, 4, 32, 1, 32, false},
      {"floats, stride 33 (the padded column): conflict-free", 132, 4, 1, 1, 1, false},
      {"floats, stride 16: 16-way", 64, 4, 16, 1, 16, false},
      {"broadcast", 0, 4, 1, 1, 1, true},
      {"bytes, contiguous (8 words)", 1, 1, 1, 1, 1, false},
      {"doubles, contiguous: two half-warps", 8, 8, 2, 2, 1, false},
      {"doubles, stride 2: 2-way in each half-warp", 16, 8, 4, 2, 2, false},
      {"float4, contiguous: four quarter-warps", 16, 16, 4, 4, 1, false},
      {"float4, stride 2: 2-way in each quarter", 32, 16, 8, 4, 2, false},
      {"float4 broadcast", 0, 16, 4, 4, 1, true},
  };
  for (const WaveCase &C : Cases) {
    WavefrontCount W = countWavefronts(strided(0, C.Stride), C.Bytes);
    EXPECT_EQ(W.Wavefronts, C.Wavefronts) << C.Name;
    EXPECT_EQ(W.IdealWavefronts, C.Ideal) << C.Name;
    EXPECT_EQ(W.Ways, C.Ways) << C.Name;
    EXPECT_EQ(W.Broadcast, C.Broadcast) << C.Name;
  }
}

TEST(WarpAccess, LanesOfABlock) {
  // tile[threadIdx.x][threadIdx.y] of float tile[32][32] with a 32x8 block: warp 3 is row
  // y = 3, every lane in bank 3.
  SymRef X = makeCast(makeThreadIdx(0), 64, false), Y = makeCast(makeThreadIdx(1), 64, false);
  SymRef Offset = makeBinary(
      SymOp::Add, makeBinary(SymOp::Mul, X, makeConst(128, 64, false), 64, false),
      makeBinary(SymOp::Mul, Y, makeConst(4, 64, false), 64, false), 64, false);
  LaneOffsets O;
  ASSERT_TRUE(laneOffsets(*Offset, nullptr, BlockShape{32, 8, 1}, 3, Env{}, O));
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(O[L], int64_t(L) * 128 + 12);
  EXPECT_EQ(countWavefronts(O, 4).Ways, 32u);
  // Lanes past the block (a 40-thread block's second warp) and lanes whose condition is
  // false take no part.
  SymRef Cond = makeBinary(SymOp::Lt, makeThreadIdx(0), makeConst(36, 32, true), 8, true);
  ASSERT_TRUE(laneOffsets(*Offset, Cond.get(), BlockShape{40, 1, 1}, 1, Env{}, O));
  unsigned Active = 0;
  for (const auto &V : O)
    Active += V.has_value();
  EXPECT_EQ(Active, 4u);
  // An unbound variable: not evaluable.
  SymRef Unknown = makeBinary(SymOp::Add, X, makeCast(makeVar(0), 64, false), 64, false);
  EXPECT_FALSE(laneOffsets(*Unknown, nullptr, BlockShape{32, 1, 1}, 0, Env{}, O));
  EXPECT_EQ(sampledWarps(BlockShape{256, 1, 1}), (std::vector<unsigned>{0, 1, 4, 7}));
  EXPECT_EQ(sampledWarps(BlockShape{32, 1, 1}), (std::vector<unsigned>{0}));
}

} // namespace

// AMD: a 64-lane wavefront, 64-byte cache lines (gfx90a) and LDS served 32 lanes at a time.
TEST(WarpAccess, Wave64LinesAndLdsPasses) {
  const warplint::GpuArch *Cdna2 = warplint::findArch("gfx90a");
  ASSERT_NE(Cdna2, nullptr);
  MemoryModel M = memoryModelFor(*Cdna2);
  EXPECT_TRUE(M.Amd);
  EXPECT_EQ(M.Lanes, 64u);
  EXPECT_EQ(M.SegmentBytes, 64u);
  EXPECT_EQ(memoryModelFor(*warplint::findArch("gfx942")).SegmentBytes, 128u);
  EXPECT_EQ(memoryModelFor(*warplint::findArch("gfx1030")).Lanes, 32u);
  EXPECT_EQ(memoryModelFor(*warplint::findArch("sm_86")).SegmentBytes, 32u);
  // 64 contiguous floats: 256 bytes in 4 lines; every other float: 8 lines.
  SectorCount C = countSectors(strided(0, 4, 64), 4, 64);
  EXPECT_EQ(C.ActiveLanes, 64u);
  EXPECT_EQ(C.Sectors, 4u);
  EXPECT_EQ(C.IdealSectors, 4u);
  EXPECT_EQ(countSectors(strided(0, 8, 64), 4, 64).Sectors, 8u);
  // LDS: contiguous words take 2 passes (one per half), a stride of 2 words 4 (2-way).
  WavefrontCount W = countWavefronts(strided(0, 4, 64), 4, 64);
  EXPECT_EQ(W.Wavefronts, 2u);
  EXPECT_EQ(W.IdealWavefronts, 2u);
  WavefrontCount W2 = countWavefronts(strided(0, 8, 64), 4, 64);
  EXPECT_EQ(W2.Wavefronts, 4u);
  EXPECT_EQ(W2.Ways, 2u);
  // The lanes of wavefront 1 of a 256-thread block are threads 64 to 127.
  EXPECT_EQ(sampledWarps(BlockShape{256, 1, 1}, 64), (std::vector<unsigned>{0, 1, 2, 3}));
}
