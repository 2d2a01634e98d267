//===- WarpAccess.h - one warp's memory access: sectors and shared-memory wavefronts -*- C++ -*-===//
#pragma once

// No clang or LLVM headers: the lanes' addresses of one warp-wide load or store, counted
// as the memory pipeline serves them (32-byte sectors for global memory, 4-byte banks and
// wavefronts for shared memory), and the evaluation of a symbolic byte offset for the
// warps of a block (warplint/core/LaneEval.h).

#include "warplint/core/Arch.h"
#include "warplint/core/LaneEval.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace warplint::memory {

/// Lanes of the widest wave: AMD GCN/CDNA wavefronts (NVIDIA warps use the first 32).
constexpr unsigned MaxLanes = 64;

/// The byte offsets of the lanes of one warp (wavefront) from the base of the accessed
/// object; nullopt: the lane does not take part (past the block, its path is not taken,
/// or past the wave's width).
using LaneOffsets = std::array<std::optional<int64_t>, MaxLanes>;

/// How one architecture's memory pipeline is counted. NVIDIA: 32-lane warps, 32-byte
/// sectors. AMD (an assumption, docs/checks/warplint-uncoalesced-access.md): the
/// wavefront (64 lanes on GCN/CDNA, 32 on RDNA unless wave64) is the unit, global
/// accesses count the vector L1 cache lines they touch (64 bytes on GCN, gfx908 and
/// gfx90a; 128 bytes on gfx942 and RDNA). Shared memory (LDS) is 32 banks of 4 bytes on
/// both, served 32 lanes at a time for 4-byte accesses (a wave64 in two halves).
struct MemoryModel {
  unsigned Lanes = 32;
  unsigned SegmentBytes = 32;
  bool Amd = false;
};
MemoryModel memoryModelFor(const GpuArch &Arch);

/// One warp's global access as the L1/TEX unit counts it.
struct SectorCount {
  unsigned ActiveLanes = 0;
  uint64_t BytesRequested = 0; ///< distinct bytes the active lanes read or write
  unsigned Sectors = 0;        ///< distinct sectors (segments) touched
  unsigned IdealSectors = 0;   ///< ceil(BytesRequested / segment): the fewest that can hold them
};

/// Counts the sectors of one warp's access of AccessBytes per lane (1 to 16 bytes); the
/// object's base is taken as 32-byte aligned (cudaMalloc gives 256), so the offsets
/// decide the sectors.
SectorCount countSectors(const LaneOffsets &Offsets, unsigned AccessBytes,
                         unsigned SegmentBytes = 32);

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
WavefrontCount countWavefronts(const LaneOffsets &Offsets, unsigned AccessBytes,
                               unsigned Lanes = 32);

/// The lanes of warp Warp of a block of Shape: each lane's threadIdx in Base (Tid), its
/// offset (nullopt where Active, when given, is false, or past the block). False when a
/// lane's offset or condition cannot be evaluated.
bool laneOffsets(const divergence::Sym &Offset, const divergence::Sym *Active,
                 const divergence::BlockShape &Shape, unsigned Warp,
                 const divergence::Env &Base, LaneOffsets &Out, unsigned Lanes = 32);

/// The warps of a block of Shape sampled for an access: the first two, the middle and the
/// last (each once; every warp of blocks of at most four warps).
std::vector<unsigned> sampledWarps(const divergence::BlockShape &Shape, unsigned Lanes = 32);

} // namespace warplint::memory
