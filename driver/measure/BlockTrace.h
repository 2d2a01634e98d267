//===- BlockTrace.h - per-block traces (warplint/trace.cuh) read and measured -*- C++ -*-===//
//
// The JSON lines warplint/trace.cuh writes, one per block, read back into launches, and
// what they measure: blocks resident at once on each SM, the waves of the grid, the tail
// of the last wave and the SMs that ran nothing. `warplint timeline` draws and prints
// these; the model's blocks per SM is held against the measured maximum.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warplint::driver {

/// One block of a traced launch.
struct TracedBlock {
  std::array<uint64_t, 3> Index = {0, 0, 0}; ///< blockIdx
  unsigned Sm = 0;                           ///< %smid
  uint64_t StartNs = 0, EndNs = 0;           ///< %globaltimer
  std::optional<uint64_t> StartClock, EndClock;
  /// Set by measureLaunch: the block's row in its SM's lane (how many ran beside it) and
  /// its wave (the how-manieth block of that row, from 0).
  unsigned Slot = 0;
  unsigned Wave = 0;
};

/// The blocks of one launch (same "kernel" and "launch" fields), in file order.
struct TracedLaunch {
  std::string Kernel;
  uint64_t Launch = 0;
  std::vector<TracedBlock> Blocks;
};

/// Reads JSON lines: {"kernel": ..., "launch": N (optional, 0), "block": [x, y, z],
/// "sm": N, "start_ns": N, "end_ns": N, "start_clock"/"end_clock" (optional)}. Blank lines
/// are skipped. Launches in order of first appearance. False with Error naming the line
/// on anything else (a line that is not an object, a missing or negative field, an end
/// before the start, the same block twice in one launch, no block at all).
bool readBlockTrace(llvm::StringRef Text, std::vector<TracedLaunch> &Out, std::string &Error);

/// One SM's lane.
struct SmLane {
  unsigned Sm = 0;
  size_t Blocks = 0;        ///< blocks it ran
  /// Most blocks running on it together in the steady state: the most blocks running at
  /// the midpoint of one of its blocks. A block that starts while the last warps of the
  /// block it replaces still run (the SM frees a block's registers and warp slots warp by
  /// warp) overlaps it briefly; that overlap is not residency.
  unsigned MaxResident = 0;
  unsigned Rows = 0;            ///< most blocks running at any one instant (rows drawn)
  uint64_t OverlapNs = 0;       ///< longest time over MaxResident blocks ran at once
  uint64_t BusyNs = 0;      ///< time with at least one block running
  uint64_t LastEndNs = 0;   ///< when its last block ended (0: idle)
};

/// What a launch's trace measures. Times are relative to the launch's first block start.
struct LaunchMeasure {
  uint64_t StartNs = 0;    ///< first block start (absolute %globaltimer)
  uint64_t DurationNs = 0; ///< last block end - first block start
  size_t Blocks = 0;
  /// Every SM from 0 to SmCount-1 (the given count, or the highest %smid seen + 1).
  std::vector<SmLane> Lanes;
  unsigned SmCount = 0;
  std::vector<unsigned> IdleSms; ///< SMs that ran no block
  unsigned MaxResident = 0;      ///< the most blocks resident on one SM (SmLane::MaxResident)
  unsigned MaxResidentSm = 0;    ///< the first SM where that was measured
  unsigned PeakRows = 0;         ///< the most blocks on one SM at any one instant
  uint64_t MaxOverlapNs = 0;     ///< the longest brief overlap beyond residency (SmLane)
  unsigned ResidentSlots = 0;    ///< sum over SMs of their MaxResident: a measured wave
  unsigned Waves = 0;            ///< the most blocks one row of a lane ran in turn
  uint64_t TailStartNs = 0;      ///< when the first SM that ran blocks went idle for good
  unsigned TailStartSm = 0;      ///< that SM
  /// Time from TailStartNs to the end (SMs finishing one after another, the last wave's
  /// tail), as a fraction of the launch.
  double TailFraction = 0;
  /// SM-time with at least one block running over SmCount x duration.
  double BusyFraction = 0;
};

/// Measures a launch and sets each block's Slot and Wave. SmCount 0: from the trace.
/// Blocks that end exactly when another starts on the same SM are not counted as
/// resident together; neither are blocks that overlap only around a handover (a block
/// counts the blocks running at its own midpoint).
LaunchMeasure measureLaunch(TracedLaunch &L, unsigned SmCount);

} // namespace warplint::driver
