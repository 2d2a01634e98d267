//===- BranchEval.cpp - a branch evaluated lane by lane for a block shape ------===//
//
// The environments a branch's condition is evaluated in (sampled run-time values, the
// values launches pass, every value of the uniform loops), and the tally of the warps it
// splits, for one block shape, by core's lane evaluator (warplint/core/LaneEval.h).
//
//===----------------------------------------------------------------------------===//
#include "divergence/BranchEval.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace ::warplint::divergence;

namespace warplint {

/// E with the variables of Values replaced by their constants (shared nodes stay shared
/// through Memo, so a node found by identity in one tree is found in the other).
SymRef substituteVars(const SymRef &E, const std::map<unsigned, int64_t> &Values,
                      std::map<const Sym *, SymRef> &Memo) {
  if (!E || Values.empty())
    return E;
  auto It = Memo.find(E.get());
  if (It != Memo.end())
    return It->second;
  SymRef Out = E;
  if (E->Op == SymOp::Var) {
    auto V = Values.find(unsigned(E->Value));
    if (V != Values.end())
      Out = makeConst(V->second, E->Bits, E->Unsigned);
  } else {
    SymRef A = substituteVars(E->A, Values, Memo), B = substituteVars(E->B, Values, Memo),
           C = substituteVars(E->C, Values, Memo);
    if (A != E->A || B != E->B || C != E->C) {
      auto N = std::make_shared<Sym>(*E);
      N->A = A;
      N->B = B;
      N->C = C;
      Out = N;
    }
  }
  Memo[E.get()] = Out;
  return Out;
}

/// Builds the environments in which to evaluate: sampled values of uniform unknowns
/// (groups), and within each group every value of the uniform loop variables.
std::vector<std::vector<Env>> buildEnvs(const std::vector<unsigned> &Needed,
                                        const std::vector<SymVarInfo> &Vars, bool &Ok,
                                        std::string &LoopName, unsigned &LoopValues,
                                        const BlockShape &Shape, const PassedValues &Known,
                                        std::vector<std::string> &Sampled) {
  Ok = true;
  std::vector<unsigned> Plain, Loops;
  orderUnknowns(Needed, Vars, Plain, Loops);
  auto Samples = [&](unsigned V, bool Few) -> std::vector<int64_t> {
    // Real values before sampled ones: what the launches pass.
    auto K = Known.find(V);
    if (K != Known.end())
      return K->second;
    const SymVarInfo &I = Vars[V];
    switch (I.Kind) {
    case SymVarInfo::BlockIdx:
      return Few ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0, 1, 2, 5};
    case SymVarInfo::GridDim:
      return Few ? std::vector<int64_t>{2} : std::vector<int64_t>{1, 2, 8};
    case SymVarInfo::Iteration:
      return Few ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0, 1, 2, 3};
    default:
      return Few ? std::vector<int64_t>{3, 32} : std::vector<int64_t>{1, 2, 3, 16, 32, 33, 100, 1000, 100003};
    }
  };
  // Products saturate: forty unknowns with nine samples each do not fit in 64 bits.
  constexpr size_t Cap = size_t(1) << 40;
  auto productOf = [&](bool Few) {
    size_t P = 1;
    for (unsigned V : Plain)
      P = std::min(Cap, P * Samples(V, Few).size());
    return P;
  };
  bool Few = productOf(false) > 256;
  size_t Size = Vars.size();
  Env First;
  First.Vars.resize(Size);
  First.BlockDim[0] = Shape.X;
  First.BlockDim[1] = Shape.Y;
  First.BlockDim[2] = Shape.Z;
  // Many unknowns multiply into many groups (ten kernel parameters with two samples each
  // are 1024): at most MaxGroups of them, evenly spaced over the combinations (the first
  // and the last included), each decoded from its index digit by digit. The finding is a
  // sampled worst case either way.
  constexpr size_t MaxGroups = 64;
  size_t Total = productOf(Few);
  size_t Count = std::min(Total, MaxGroups);
  std::vector<std::vector<int64_t>> Choices;
  Sampled.clear();
  for (unsigned V : Plain) {
    Choices.push_back(Samples(V, Few));
    if (Choices.back().size() > 1 && Vars[V].Kind != SymVarInfo::Iteration)
      Sampled.push_back(Vars[V].Name);
  }
  // Groups are visited in bit-reversed order of their index (0, 32, 16, 48, ...), so that
  // when the budget below stops early the groups seen are spread over the samples.
  unsigned Bits = 0;
  while ((size_t(1) << Bits) < Count)
    ++Bits;
  std::vector<Env> Groups;
  Groups.reserve(Count);
  for (size_t I = 0; I < (size_t(1) << Bits); ++I) {
    size_t G = 0;
    for (unsigned B = 0; B < Bits; ++B)
      if (I & (size_t(1) << B))
        G |= size_t(1) << (Bits - 1 - B);
    if (G >= Count)
      continue;
    size_t Index = Count == 1 ? 0 : size_t((unsigned __int128)G * (Total - 1) / (Count - 1));
    Env E = First;
    for (size_t K = 0; K < Plain.size(); ++K) {
      const std::vector<int64_t> &C = Choices[K];
      if (Total < Cap) {
        E.Vars[Plain[K]] = C[Index % C.size()];
        Index /= C.size();
      } else {
        // Too many combinations to index: a fixed pseudo-random choice per group and
        // unknown (the same on every run).
        uint64_t H = (uint64_t(G) + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t(K) + 1) * 0xC2B2AE3D27D4EB4Full;
        H ^= H >> 29;
        E.Vars[Plain[K]] = C[H % C.size()];
      }
    }
    Groups.push_back(std::move(E));
  }
  // At most EnvBudget environments (each a whole block, evaluated lane by lane) per branch
  // and shape: a group whose loops alone exceed it is left out, and groups stop once the
  // budget is spent (at least one is kept).
  std::vector<std::vector<Env>> Out;
  Out.reserve(Groups.size());
  size_t Spent = 0;
  for (Env &G : Groups) {
    std::vector<Env> Envs;
    Envs.push_back(std::move(G)); // each group read once: moved, not copied
    bool TooMany = false;
    for (unsigned V : Loops) {
      std::vector<Env> Next;
      for (const Env &E : Envs) {
        const SymVarInfo &I = Vars[V];
        if (!I.Init || !I.Cond || !I.Step) {
          Ok = false;
          return {};
        }
        auto Values = enumerateLoop(*I.Init, *I.Cond, *I.Step, V, E);
        if (!Values) {
          // Not countable in this sample (over 256 values, or not evaluable): the sample
          // is left out, the others still count.
          TooMany = true;
          break;
        }
        if (LoopName.empty()) {
          LoopName = I.Name;
          LoopValues = unsigned(Values->size());
        }
        for (int64_t Value : *Values) {
          Env C = E;
          C.Vars[V] = Value;
          Next.push_back(std::move(C));
        }
        if (Next.size() > EnvBudget) {
          TooMany = true;
          break;
        }
      }
      if (TooMany)
        break;
      Envs = std::move(Next);
    }
    // A sample in which the loops run zero times has nothing to evaluate.
    if (TooMany || Envs.empty())
      continue;
    if (Spent + Envs.size() > EnvBudget && !Out.empty())
      break;
    Spent += Envs.size();
    Out.push_back(std::move(Envs));
  }
  if (Out.empty()) {
    Ok = false;
    return {};
  }
  return Out;
}

Tally evaluateBranch(const BranchSite &B, const std::vector<SymVarInfo> &Vars,
                     const BlockShape &Shape, unsigned WaveSize, const PassedValues &Known,
                     const SymRef &CondOverride, EnvSet *Cache) {
  Tally T;
  T.RowWidth = unsigned(Shape.X);
  const SymVarInfo *Loop = nullptr;
  if (B.Kind == BranchSite::Loop && B.LoopVar >= 0 && !CondOverride) {
    const SymVarInfo &L = Vars[B.LoopVar];
    if (L.LoopVariance != Variance::Uniform && L.Init && L.Cond && L.Step)
      Loop = &L;
  }
  SymRef Cond = CondOverride ? CondOverride : B.CondVal.S;
  if (!Loop && !Cond)
    return T;
  std::vector<unsigned> Needed;
  if (Loop) {
    for (const SymRef *P : {&Loop->Init, &Loop->Cond, &Loop->Step})
      collectVars(**P, Needed);
    Needed.erase(std::remove(Needed.begin(), Needed.end(), unsigned(B.LoopVar)), Needed.end());
  } else {
    collectVars(*Cond, Needed);
  }
  if (B.Path)
    collectVars(*B.Path, Needed);
  EnvSet Local;
  EnvSet &Envs = Cache ? *Cache : Local;
  if (!Envs.Built || Envs.Needed != Needed) {
    Envs.Built = true;
    Envs.Needed = Needed;
    Envs.LoopName.clear();
    Envs.LoopValues = 1;
    Envs.Groups = buildEnvs(Needed, Vars, Envs.Ok, Envs.LoopName, Envs.LoopValues, Shape,
                            Known, Envs.Sampled);
  }
  T.Sampled = Envs.Sampled;
  // The sampled run-time values: parameters and loaded values no launch passes.
  std::vector<unsigned> Runtime;
  {
    std::vector<unsigned> Plain, Loops;
    orderUnknowns(Needed, Vars, Plain, Loops);
    for (unsigned V : Plain)
      if ((Vars[V].Kind == SymVarInfo::Param || Vars[V].Kind == SymVarInfo::Opaque) &&
          !Known.count(V))
        Runtime.push_back(V);
    T.RuntimeSampled = !Runtime.empty();
  }
  T.LoopName = Envs.LoopName;
  T.LoopValues = Envs.LoopValues;
  if (!Envs.Ok)
    return T;
  const std::vector<std::vector<Env>> &Groups = Envs.Groups;
  // The condition is flattened once for all the environments.
  std::optional<LoopSplitter> LoopSplit;
  WarpSplitter *CondSplit = nullptr;
  if (Loop) {
    LoopSplit.emplace(*Loop->Init, *Loop->Cond, *Loop->Step, unsigned(B.LoopVar), 4096,
                      B.Path.get());
  } else if (Envs.Splitter) {
    Envs.Splitter->setCondition(*Cond);
    CondSplit = Envs.Splitter.get();
  } else {
    Envs.Splitter =
        std::make_unique<WarpSplitter>(*Cond, B.Kind == BranchSite::Switch, B.Path.get());
    CondSplit = Envs.Splitter.get();
  }
  double WorstRatio = -1;
  std::set<uint64_t> Counts;
  T.LanesFixed = CondSplit && B.Kind != BranchSite::Switch;
  std::vector<uint32_t> SeenTrue, SeenFalse;
  for (const auto &Group : Groups) {
    uint64_t D = 0, N = 0, Evals = 0, DivEvals = 0;
    unsigned Minority = 0, MinorityPerRow = 0, MostPerEnv = 0;
    int64_t Spread = 0;
    bool GroupOk = true, Lanes = false, AnyFull = false;
    SeenTrue.assign(Shape.warps(), 0);
    SeenFalse.assign(Shape.warps(), 0);
    for (const Env &E : Group) {
      // Lanes per wavefront: 64 on AMD GCN/CDNA, counted as that many 32-lane groups.
      const WarpSplit &Split = Loop ? LoopSplit->split(Shape, E) : CondSplit->split(Shape, E);
      WarpSplit Waves;
      if (WaveSize > 32) // asWaves of 32 lanes is a copy of the split itself
        Waves = Split.asWaves(WaveSize);
      const WarpSplit &S = WaveSize > 32 ? Waves : Split;
      if (!S.Evaluated) {
        GroupOk = false;
        break;
      }
      D += S.DivergentWarps;
      N += S.Warps;
      AnyFull |= S.Warps >= (Shape.threads() + (WaveSize > 32 ? WaveSize : 32) - 1) /
                                (WaveSize > 32 ? WaveSize : 32);
      Evals += S.CondEvals;
      DivEvals += S.DivergentCondEvals;
      MostPerEnv = std::max(MostPerEnv, S.DivergentWarps);
      Spread = std::max(Spread, S.MaxTripSpread);
      Minority = std::max(Minority, S.MaxMinorityLanes);
      MinorityPerRow = std::max(MinorityPerRow, S.MaxMinorityLanesPerRow);
      T.MaxRunsPerRow = std::max(T.MaxRunsPerRow, S.MaxRunsPerRow);
      T.InLaneOrder &= S.InLaneOrder;
      T.TrueLanesPerEnv.push_back(S.TrueLanes);
      for (unsigned Live : S.WarpLive)
        Lanes |= Live >= 2;
      // A lane on both sides in two trips of the loops around: the set moves.
      for (size_t W = 0; T.LanesFixed && W < Split.WarpTrueMask.size() && W < SeenTrue.size();
           ++W) {
        uint32_t True = Split.WarpTrueMask[W], False = Split.WarpLiveMask[W] & ~True;
        T.LanesFixed = !(True & SeenFalse[W]) && !(False & SeenTrue[W]);
        SeenTrue[W] |= True;
        SeenFalse[W] |= False;
      }
    }
    if (!GroupOk || N == 0)
      continue;
    T.Evaluated = true;
    // Every warp that reaches it splits, in an environment where every warp of the block
    // reaches it: a sampled size that leaves only the first warp in the loop around
    // (AutoDock-GPU's gene loop with 32 genes: `g < 3` then splits the one warp left) is
    // that value's, not the guard's.
    // (An `if` on a sampled path only: a structural limit, `if (tid < 32) { if (tid < 8)`,
    // and loops and '?:' keep their figures.)
    const bool NeedFull = !Loop && B.Kind == BranchSite::If && T.RuntimeSampled;
    T.EveryWarpSplits |= D == N && (AnyFull || !NeedFull);
    // A sample with a run-time value of 1 or less (a size of one, a unit stride) collapses
    // what that value sizes: its uniformity says nothing of the other values.
    bool Degenerate = false;
    if (!Group.empty())
      for (unsigned V : Runtime)
        Degenerate |= V < Group.front().Vars.size() && Group.front().Vars[V] &&
                      *Group.front().Vars[V] <= 1;
    T.UniformSample |= D == 0 && Lanes && !Degenerate;
    Counts.insert(D);
    T.MaxMinority = std::max(T.MaxMinority, Minority);
    T.MaxMinorityPerRow = std::max(T.MaxMinorityPerRow, MinorityPerRow);
    T.MaxDivergentPerEnv = std::max(T.MaxDivergentPerEnv, MostPerEnv);
    T.MaxTripSpread = std::max(T.MaxTripSpread, Spread);
    double Ratio = double(D) / double(N);
    // A loop with per-lane trip counts diverges at the trips where lanes leave: its
    // efficiency is over every evaluation of its condition, not per warp.
    double Efficiency = Loop && Evals ? 1.0 - double(DivEvals) / double(Evals) : 1.0 - Ratio;
    T.WorstEfficiency = std::min(T.WorstEfficiency, Efficiency);
    T.BestEfficiency = std::max(T.BestEfficiency, Efficiency);
    // The sample with the most divergent warps, then the most warps reaching the branch.
    if (D > T.Divergent || (D == T.Divergent && N > T.Total) || WorstRatio < 0) {
      WorstRatio = Ratio;
      T.Divergent = D;
      T.Total = N;
      T.LoopValues = unsigned(Group.size());
      T.Trips = Loop && Evals;
      T.CondEvals = Evals;
      T.DivergentCondEvals = DivEvals;
    }
  }
  T.Varies = Counts.size() > 1;
  return T;
}

RunsPerWarp runsPerWarp(unsigned RunThreads, unsigned Threads, unsigned WaveSize) {
  RunsPerWarp R;
  unsigned Least = ~0u;
  for (unsigned First = 0; First < Threads && RunThreads > 0; First += WaveSize) {
    unsigned Last = std::min(First + WaveSize - 1, Threads - 1);
    unsigned Runs = Last / RunThreads - First / RunThreads + 1;
    R.Most = std::max(R.Most, Runs);
    Least = std::min(Least, Runs);
  }
  R.Same = R.Most == Least;
  return R;
}


/// The block shapes at least a warp wide in x that a kernel launched from elsewhere may
/// have: 1-D blocks of 1 to 32 warps and 2-D blocks of 2 to 8 rows.
std::vector<BlockShape> branchAlternatives(unsigned WaveSize) {
  std::vector<BlockShape> Out;
  for (unsigned X : {32u, 64u, 96u, 128u, 256u, 512u, 1024u})
    for (unsigned Y : {1u, 2u, 4u, 8u})
      if (X >= WaveSize && X * Y <= 1024)
        Out.push_back(BlockShape{X, Y, 1});
  return Out;
}

} // namespace warplint
