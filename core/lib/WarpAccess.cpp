//===- WarpAccess.cpp - one warp's memory access: sectors and shared-memory wavefronts -===//
#include "warplint/core/WarpAccess.h"

#include <algorithm>
#include <cstdint>

namespace warplint::memory {

using divergence::BlockShape;
using divergence::Env;
using divergence::Sym;

namespace {

/// Floor division (offsets may be negative: a pointer moved back before its base).
int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}

/// Sorted, unique.
template <typename T> void uniq(std::vector<T> &V) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

} // namespace

MemoryModel memoryModelFor(const GpuArch &A) {
  MemoryModel M;
  if (!A.isAmd())
    return M;
  M.Amd = true;
  M.Lanes = unsigned(A.WarpSize);
  M.SegmentBytes = (A.Major == 9 && A.Minor < 40) ? 64 : 128;
  return M;
}

SectorCount countSectors(const LaneOffsets &Offsets, unsigned AccessBytes,
                         unsigned SegmentBytes) {
  const int64_t Seg = std::max(1u, SegmentBytes);
  SectorCount C;
  AccessBytes = std::max(1u, AccessBytes);
  // On the stack (a warp's count is made for every warp of every environment of every
  // access): each lane touches at most (AccessBytes - 1) / Seg + 2 sectors, which for an
  // access no wider than a sector is two; a wider one takes the heap.
  const size_t PerLane = size_t((int64_t(AccessBytes) - 1) / Seg + 2);
  std::array<int64_t, 2 * MaxLanes> Small;
  std::vector<int64_t> Large;
  int64_t *Sectors = Small.data();
  if (PerLane * MaxLanes > Small.size()) {
    Large.resize(PerLane * MaxLanes);
    Sectors = Large.data();
  }
  size_t NumSectors = 0, NumRanges = 0;
  std::array<std::pair<int64_t, int64_t>, MaxLanes> Ranges; // [begin, end) per lane
  for (const std::optional<int64_t> &O : Offsets) {
    if (!O)
      continue;
    ++C.ActiveLanes;
    Ranges[NumRanges++] = {*O, *O + AccessBytes};
    for (int64_t S = floorDiv(*O, Seg); S <= floorDiv(*O + AccessBytes - 1, Seg); ++S)
      Sectors[NumSectors++] = S;
  }
  std::sort(Sectors, Sectors + NumSectors);
  C.Sectors = unsigned(std::unique(Sectors, Sectors + NumSectors) - Sectors);
  // Distinct bytes: the union of the lanes' ranges.
  std::sort(Ranges.begin(), Ranges.begin() + NumRanges);
  int64_t End = INT64_MIN;
  for (size_t K = 0; K < NumRanges; ++K) {
    const auto &[B, E] = Ranges[K];
    int64_t From = std::max(B, End);
    if (E > From)
      C.BytesRequested += uint64_t(E - From);
    End = std::max(End, E);
  }
  C.IdealSectors = unsigned((C.BytesRequested + Seg - 1) / Seg);
  return C;
}

WavefrontCount countWavefronts(const LaneOffsets &Offsets, unsigned AccessBytes,
                               unsigned Lanes) {
  Lanes = std::min(std::max(Lanes, 1u), MaxLanes);
  WavefrontCount C;
  AccessBytes = std::max(1u, AccessBytes);
  unsigned Words = (AccessBytes + 3) / 4;
  // 8-byte accesses: two phases of 16 lanes; 16-byte: four of 8.
  unsigned PhaseLanes = Words >= 4 ? 8 : Words == 2 ? 16 : 32;
  std::vector<int64_t> Touched;
  Touched.reserve(size_t(PhaseLanes) * (Words + 1));
  for (unsigned First = 0; First < Lanes; First += PhaseLanes) {
    Touched.clear();
    for (unsigned L = First; L < First + PhaseLanes; ++L) {
      if (!Offsets[L])
        continue;
      ++C.ActiveLanes;
      int64_t W0 = floorDiv(*Offsets[L], 4);
      int64_t W1 = floorDiv(*Offsets[L] + AccessBytes - 1, 4);
      for (int64_t W = W0; W <= W1; ++W)
        Touched.push_back(W);
    }
    if (Touched.empty())
      continue;
    uniq(Touched);
    std::array<unsigned, 32> PerBank{};
    unsigned Most = 0;
    for (int64_t W : Touched) {
      unsigned Bank = unsigned(((W % 32) + 32) % 32);
      Most = std::max(Most, ++PerBank[Bank]);
    }
    C.Wavefronts += Most;
    C.IdealWavefronts += std::max<unsigned>(1, unsigned((Touched.size() + 31) / 32));
    C.Ways = std::max(C.Ways, Most);
  }
  std::optional<int64_t> Same;
  bool AllSame = true;
  for (const std::optional<int64_t> &O : Offsets)
    if (O) {
      AllSame &= !Same || *Same == *O;
      Same = O;
    }
  C.Broadcast = C.ActiveLanes > 1 && AllSame;
  return C;
}

bool laneOffsets(const Sym &Offset, const Sym *Active, const BlockShape &Shape, unsigned Warp,
                 const Env &Base, LaneOffsets &Out, unsigned Lanes) {
  Lanes = std::min(std::max(Lanes, 1u), MaxLanes);
  for (std::optional<int64_t> &O : Out)
    O.reset();
  Env E = Base;
  E.BlockDim[0] = Shape.X;
  E.BlockDim[1] = Shape.Y;
  E.BlockDim[2] = Shape.Z;
  unsigned Threads = Shape.threads();
  for (unsigned L = 0; L < Lanes; ++L) {
    unsigned T = Warp * Lanes + L;
    if (T >= Threads)
      continue;
    E.Tid[0] = T % Shape.X;
    E.Tid[1] = (T / Shape.X) % Shape.Y;
    E.Tid[2] = T / (Shape.X * Shape.Y);
    if (Active) {
      std::optional<int64_t> On = divergence::evaluate(*Active, E);
      if (!On)
        return false;
      if (!*On)
        continue;
    }
    std::optional<int64_t> V = divergence::evaluate(Offset, E);
    if (!V)
      return false;
    Out[L] = *V;
  }
  return true;
}

std::vector<unsigned> sampledWarps(const BlockShape &Shape, unsigned Lanes) {
  Lanes = std::max(Lanes, 1u);
  unsigned N = (Shape.threads() + Lanes - 1) / Lanes;
  std::vector<unsigned> W;
  for (unsigned K : {0u, 1u, N / 2, N ? N - 1 : 0u})
    if (K < N)
      W.push_back(K);
  uniq(W);
  return W;
}

} // namespace warplint::memory
