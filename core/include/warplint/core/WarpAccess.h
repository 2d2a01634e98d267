//===- WarpAccess.h - one warp's memory access: sectors and shared-memory wavefronts -*- C++ -*-===//
#pragma once

// No clang or LLVM headers: the lanes' addresses of one warp-wide load or store, counted
// as the memory pipeline serves them (32-byte sectors for global memory, 4-byte banks and
// wavefronts for shared memory), and the evaluation of a symbolic byte offset for the
// warps of a block (warplint/core/LaneEval.h).

#include "warplint/core/LaneEval.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace warplint::memory {

/// The byte offsets of the 32 lanes of one warp from the base of the accessed object;
/// nullopt: the lane does not take part (past the block, or its path is not taken).
using LaneOffsets = std::array<std::optional<int64_t>, 32>;

/// One warp's global access as the L1/TEX unit counts it.
struct SectorCount {
  unsigned ActiveLanes = 0;
  uint64_t BytesRequested = 0; ///< distinct bytes the active lanes read or write
  unsigned Sectors = 0;        ///< distinct 32-byte sectors touched
  unsigned IdealSectors = 0;   ///< ceil(BytesRequested / 32): the fewest that can hold them
};

/// Counts the sectors of one warp's access of AccessBytes per lane (1 to 16 bytes); the
/// object's base is taken as 32-byte aligned (cudaMalloc gives 256), so the offsets
/// decide the sectors.
SectorCount countSectors(const LaneOffsets &Offsets, unsigned AccessBytes);

/// One warp's shared-memory access as Nsight Compute counts wavefronts: 32 banks of
/// 4 bytes; accesses of 8 bytes are served per half-warp and of 16 bytes per quarter-warp
/// (each phase its own wavefronts); lanes reading the same 4-byte word share it (a
/// broadcast, free).
struct WavefrontCount {
  unsigned ActiveLanes = 0;
  unsigned Wavefronts = 0;      ///< summed over the phases
  unsigned IdealWavefronts = 0; ///< per phase ceil(distinct words / 32), at least 1
  unsigned Ways = 1;            ///< most distinct words in one bank of one phase
  bool Broadcast = false;       ///< every active lane accessed the same address
};

/// Counts the wavefronts of one warp's shared access of AccessBytes per lane.
WavefrontCount countWavefronts(const LaneOffsets &Offsets, unsigned AccessBytes);

/// The lanes of warp Warp of a block of Shape: each lane's threadIdx in Base (Tid), its
/// offset (nullopt where Active, when given, is false, or past the block). False when a
/// lane's offset or condition cannot be evaluated.
bool laneOffsets(const divergence::Sym &Offset, const divergence::Sym *Active,
                 const divergence::BlockShape &Shape, unsigned Warp,
                 const divergence::Env &Base, LaneOffsets &Out);

/// The warps of a block of Shape sampled for an access: the first two, the middle and the
/// last (each once; every warp of blocks of at most four warps).
std::vector<unsigned> sampledWarps(const divergence::BlockShape &Shape);

} // namespace warplint::memory
