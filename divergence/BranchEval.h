//===- BranchEval.h - a branch evaluated lane by lane for a block shape -*- C++ -*-===//
//
// One thread-dependent branch (divergence/ThreadDependence) evaluated for one block shape:
// the warps it splits in the worst sample of the run-time values, its predicted branch
// efficiency over them, and the lanes on each side. The model (model/Branches.cpp) calls
// it for every block shape of a kernel's launches.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/ThreadDependence.h"

#include "warplint/core/LaneEval.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warplint {

/// A branch's evaluation for one block shape.
struct Tally {
  bool Evaluated = false;
  uint64_t Divergent = 0, Total = 0;
  unsigned MaxMinority = 0;
  unsigned MaxMinorityPerRow = 0;
  /// The block's row width (threads in x) this tally was evaluated for.
  unsigned RowWidth = 0;
  bool Varies = false; ///< the count depends on sampled unknowns
  /// Some sample of the run-time values splits no warp while warps with two or more lanes
  /// reach the branch (a sample that leaves one lane per warp says nothing of a split).
  bool UniformSample = false;
  /// Among the sampled unknowns, a kernel parameter or a loaded value that no launch
  /// passes (not only block indices, whose every value some block takes).
  bool RuntimeSampled = false;
  /// In some sample, every warp (warp execution) that reaches the branch splits.
  bool EveryWarpSplits = false;
  unsigned LoopValues = 1;
  std::string LoopName;
  std::vector<int64_t> TrueLanesPerEnv;
  /// Most warps that diverge in one environment (one block, one set of values).
  unsigned MaxDivergentPerEnv = 0;
  /// A loop with per-lane trip counts: its condition's evaluations by the warps (the
  /// worst sample's), of which divergent; the efficiency is then over the loop's trips.
  bool Trips = false;
  uint64_t CondEvals = 0, DivergentCondEvals = 0;
  /// A loop: the most that two lanes of one warp differ in trip count, over every
  /// evaluated sample (LaneEval's WarpSplit::MaxTripSpread).
  int64_t MaxTripSpread = 0;
  /// The predicted branch efficiency over the samples of the run-time values: the worst
  /// and the best (equal when no run-time value changes it), and those values' names.
  double WorstEfficiency = 1, BestEfficiency = 0;
  std::vector<std::string> Sampled;
  /// The shape of the split in the divergent warps of every sample: the most runs of
  /// equal values along a row's active lanes, and whether a loop's lanes leave in lane
  /// order (LaneEval's WarpSplit).
  unsigned MaxRunsPerRow = 0;
  bool InLaneOrder = true;
  /// An `if` or `&&` operand (not a loop, not a switch): within each sample of the
  /// run-time values, every lane stays on one side through all the values of the uniform
  /// loop variables (the trips of the loops around the branch). The lanes that take it
  /// are a role fixed to them, a leader or the first N of a group, not a set that moves
  /// with the loop, as a tree's or a wavefront's does.
  bool LanesFixed = false;
};

/// Values of kernel parameters (environment variables) that every launch of the kernel in
/// the TU passes as compile-time constants: the distinct values passed.
using PassedValues = std::map<unsigned, std::vector<int64_t>>;

/// Environments (a block each, evaluated lane by lane) one branch may cost per shape.
constexpr size_t EnvBudget = 1024;

/// E with the variables of Values replaced by their constants (shared nodes stay shared
/// through Memo, so a node found by identity in one tree is found in the other).
::warplint::divergence::SymRef
substituteVars(const ::warplint::divergence::SymRef &E, const std::map<unsigned, int64_t> &Values,
               std::map<const ::warplint::divergence::Sym *, ::warplint::divergence::SymRef> &Memo);

/// Builds the environments in which to evaluate: sampled values of uniform unknowns
/// (groups), and within each group every value of the uniform loop variables.
std::vector<std::vector<::warplint::divergence::Env>>
buildEnvs(const std::vector<unsigned> &Needed, const std::vector<SymVarInfo> &Vars, bool &Ok,
          std::string &LoopName, unsigned &LoopValues,
          const ::warplint::divergence::BlockShape &Shape, const PassedValues &Known,
          std::vector<std::string> &Sampled);

/// The environments built for one branch and block shape, kept for a second condition
/// over the same unknowns (the remapping note), and the splitter that evaluated the first
/// (it knows which lanes reach the branch in each environment).
struct EnvSet {
  bool Built = false;
  std::vector<unsigned> Needed;
  bool Ok = false;
  std::vector<std::vector<::warplint::divergence::Env>> Groups;
  std::string LoopName;
  unsigned LoopValues = 1;
  std::vector<std::string> Sampled;
  std::unique_ptr<::warplint::divergence::WarpSplitter> Splitter;
};

/// Evaluates a branch for one block shape; Cache (when given) holds the environments of
/// an earlier call for the same branch and shape, or gets this call's.

/// Evaluates a branch for one block shape; Cache (when given) holds the environments of
/// an earlier call for the same branch and shape, or gets this call's. CondOverride
/// evaluates another condition in its place (a remapping, the terms beside a guard).
Tally evaluateBranch(const BranchSite &B, const std::vector<SymVarInfo> &Vars,
                     const ::warplint::divergence::BlockShape &Shape, unsigned WaveSize,
                     const PassedValues &Known,
                     const ::warplint::divergence::SymRef &CondOverride = nullptr,
                     EnvSet *Cache = nullptr);

/// How the runs of RunThreads consecutive threads (a row of blockDim.x threads, or a plane
/// of blockDim.x * blockDim.y) fall on the warps of a block of Threads threads.
struct RunsPerWarp {
  unsigned Most = 0; ///< most runs that one warp holds part of
  bool Same = true;  ///< every warp holds part of the same number of runs
};

RunsPerWarp runsPerWarp(unsigned RunThreads, unsigned Threads, unsigned WaveSize);

/// The block shapes at least a warp wide in x that a kernel launched from elsewhere may
/// have: 1-D blocks of 1 to 32 warps and 2-D blocks of 2 to 8 rows (an assumed-shape
/// branch is a warning only when it holds for all of them).
std::vector<::warplint::divergence::BlockShape> branchAlternatives(unsigned WaveSize);

} // namespace warplint
