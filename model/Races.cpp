//===- Races.cpp - the data races of the TU's kernels, and the correctness records -===//
//
// TuModel::races: the one race evaluation of a kernel (divergence/DataRace.h) grouped into
// findings, each with its RaceRecord (the two accesses, the two threads, the word, the
// barrier that would separate them, how sure it is), which warplint-data-race words and
// every output reads. TuModel::correctnessRecords: records()'s part for the correctness
// checks (the reported races, and the impacts of sync and race findings).
//
//===----------------------------------------------------------------------------===//
#include "model/TuModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace wl = ::warplint;

namespace warplint {
using namespace clang;
namespace {

using wl::divergence::BlockShape;

std::string accessText(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  std::string T = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  if (T.size() > 60)
    T = T.substr(0, 57) + "...";
  return T;
}

wl::RaceAccessRecord accessRecord(const MemoryAccessSite &S, const ASTContext &Ctx) {
  return {sourcePos(Ctx.getSourceManager(), S.Access->getBeginLoc()), accessText(S.Access, Ctx),
          S.Load && S.Store ? "update" : S.Store ? "write" : "read"};
}

wl::RaceThreadRecord threadRecord(const RaceThread &T) {
  return {{T.Tid[0], T.Tid[1], T.Tid[2]}, T.Block, T.Linear};
}

unsigned smVersion(llvm::StringRef Arch) {
  unsigned V = 0;
  if (Arch.consume_front("sm_") || Arch.consume_front("compute_")) {
    Arch = Arch.take_while([](char C) { return C >= '0' && C <= '9'; });
    if (!Arch.getAsInteger(10, V))
      return V;
  }
  return 0;
}

bool sameShape(const BlockShape &A, const BlockShape &B) {
  return A.X == B.X && A.Y == B.Y && A.Z == B.Z;
}

/// The barrier that would separate the two accesses and the advice note that says where
/// it goes (or why none can).
void barrierAdvice(wl::RaceRecord &R, const RaceFinding &F, const MemoryAccessSite &A,
                   bool Legacy) {
  unsigned LA = R.First.Pos.Line, LB = R.Second.Pos.Line;
  bool Same = F.First == F.Second;
  if (F.SameWarp)
    R.ArchNote =
        Legacy ? "on " + R.Arch + " the warp runs in lockstep; from sm_70 on (independent "
                                  "thread scheduling) this is a race: put a __syncwarp() "
                                  "between the accesses"
               : "since sm_70 (independent thread scheduling) the lanes of a warp are not "
                 "in lockstep: a __syncwarp() between the accesses separates them";
  if (F.CrossBlock || F.CrossBlockToo) {
    R.Fix = "write the result to a separate array, or split the kernel where the blocks must "
            "see each other's writes";
    return;
  }
  if (F.SameWarp) {
    R.Barrier = "__syncwarp()";
    R.Fix = R.ArchNote;
    return;
  }
  R.Barrier = "__syncthreads()";
  if (Same && A.Store && !A.Load)
    R.Fix = "let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before "
            "it is read";
  else if (LA == LB && !F.Loop)
    R.Fix = "read it into a local first, then __syncthreads(), then write: no barrier fits "
            "inside one statement";
  else if (F.Loop)
    R.Fix = "a __syncthreads() in the loop at line " + std::to_string(R.LoopLine) +
            ", between the accesses, separates them";
  else
    R.Fix = "a __syncthreads() between line " + std::to_string(LA) + " and line " +
            std::to_string(LB) + " separates them";
}

} // namespace

const KernelRaces &TuModel::races(const FunctionDecl *Kernel, const BlockShape &AssumedBlock,
                                  bool ReportBenign) {
  const KernelAnalysis &KA = kernelAnalysis(Kernel);
  auto [It, New] = Races.try_emplace(
      {KA.Kernel->getCanonicalDecl(), {AssumedBlock.X, AssumedBlock.Y, AssumedBlock.Z},
       ReportBenign});
  KernelRaces &Out = It->second;
  if (!New)
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<BlockShape> Shapes;
  for (const KernelShape &S : KA.Shapes)
    Shapes.push_back(S.Shape);
  // The assumed block keeps the dimensions every launch fixes at 1 (fitUnitDims).
  const BlockShape Assumed = fitUnitDims(AssumedBlock, KA);
  if (KA.AssumedShape)
    Shapes.push_back(Assumed);
  Out.AssumedShape = KA.AssumedShape;
  // The grid: the first known grid of its launches, else the run's assumed grid
  // (warplint.AssumedGrid, --assume-grid); unknown otherwise (blocks are then not
  // compared).
  std::optional<std::array<uint64_t, 3>> Grid = Opts.AssumedGrid;
  for (const KernelLaunch &L : KA.Launches)
    if (L.Site->Grid.known()) {
      Grid = *L.Site->Grid.Dims;
      break;
    }
  RaceOptions RO;
  RO.ReportBenign = ReportBenign;
  std::string Arch = arch();
  if (unsigned V = smVersion(Arch))
    RO.SmVersion = V;
  RaceAnalysis R = analyzeRaces(KA.Kernel, KA.TD, Ctx, Shapes, Grid, RO, &KA.Known);
  Out.StoppedAt = R.StoppedAt;
  Out.StoppedCallee = R.StoppedCallee;
  Out.WorkCapped = R.WorkCapped;
  // An assumed block: a finding stays a warning only when every block at least a warp
  // wide in x (assumedAlternatives) races on the same two accesses too.
  std::vector<std::pair<BlockShape, RaceAnalysis>> Alternatives;
  auto AlternativeWithout = [&](const RaceFinding &F) -> const BlockShape * {
    if (Alternatives.empty())
      for (const BlockShape &Alt : assumedAlternatives(KA, AssumedBlock))
        Alternatives.push_back(
            {Alt, analyzeRaces(KA.Kernel, KA.TD, Ctx, {Alt}, Grid, RO, &KA.Known)});
    for (const auto &[Alt, AR] : Alternatives)
      if (std::none_of(AR.Findings.begin(), AR.Findings.end(), [&](const RaceFinding &G) {
            return G.First == F.First && G.Second == F.Second;
          }))
        return &Alt;
    return nullptr;
  };
  // One finding per object and interval: the first pair found, the others counted.
  // A race only a block that skips a conditional barrier has is a group of its own.
  std::map<std::tuple<std::string, unsigned, bool, bool>, std::vector<const RaceFinding *>> Groups;
  for (const RaceFinding &F : R.Findings) {
    const RaceSite &A = R.Sites[F.First];
    Groups[{A.Site.Object, F.CrossBlock ? ~0u : A.Interval, F.SameWarp, F.Skip.has_value()}]
        .push_back(&F);
  }
  bool Legacy = RO.SmVersion && RO.SmVersion < 70;
  for (auto &[Key, Fs] : Groups) {
    const RaceFinding &F = *Fs.front();
    const MemoryAccessSite &A = R.Sites[F.First].Site, &B = R.Sites[F.Second].Site;
    RaceModel M;
    M.First = A.Access;
    M.Second = B.Access;
    wl::RaceRecord &Rec = M.Record;
    Rec.Kernel = KA.Info ? KA.Info->Name : KA.Kernel->getQualifiedNameAsString();
    Rec.Space = A.Space == MemorySpace::Shared ? "shared" : "global";
    Rec.Object = A.Object;
    Rec.Word = F.Word;
    Rec.First = accessRecord(A, Ctx);
    Rec.Second = accessRecord(B, Ctx);
    Rec.Pos = Rec.Second.Pos;
    Rec.Thread1 = threadRecord(F.T1);
    Rec.Thread2 = threadRecord(F.T2);
    Rec.CrossBlock = F.CrossBlock;
    if (F.CrossBlockToo)
      Rec.CrossBlockToo = std::array<wl::RaceThreadRecord, 2>{
          threadRecord(F.CrossBlockToo->first), threadRecord(F.CrossBlockToo->second)};
    Rec.SameWarp = F.SameWarp;
    Rec.Block = {F.Shape.X, F.Shape.Y, F.Shape.Z};
    Rec.BlockAssumed = KA.AssumedShape;
    if (F.Loop)
      Rec.LoopLine = SM.getPresumedLoc(SM.getExpansionLoc(F.Loop->getBeginLoc())).getLine();
    Rec.LoopCarried = F.LoopCarried;
    if (F.ZeroTripLoop)
      Rec.ZeroTripLine =
          SM.getPresumedLoc(SM.getExpansionLoc(F.ZeroTripLoop->getBeginLoc())).getLine();
    Rec.Arch = Arch;
    Rec.Values = F.Values;
    Rec.ValuesSampled = F.Sampled;
    Rec.Samples = F.Samples;
    Rec.Benign = F.Benign;
    Rec.ClampWriteBack = F.ClampWriteBack;
    Rec.Volatile = A.Access->getType().isVolatileQualified() ||
                   B.Access->getType().isVolatileQualified() ||
                   (A.ObjectDecl && A.ObjectDecl->getType().isVolatileQualified());
    Rec.MorePairs = unsigned(Fs.size() - 1);
    if (F.Skip) {
      wl::RaceSkipRecord S;
      S.Line = sourcePos(SM, F.Skip->Barrier->getBeginLoc()).Line;
      S.Barrier = accessText(F.Skip->Barrier, Ctx);
      S.Condition = accessText(F.Skip->If->getCond(), Ctx);
      S.Blocks = F.Skip->Blocks;
      S.BlockCount = F.Skip->BlockCount;
      S.GridBlocks = F.Skip->GridBlocks;
      S.Values = F.Skip->Values;
      S.Sampled = F.Skip->Sampled;
      Rec.Skip = std::move(S);
    }
    Rec.Certainty = F.ValueDependent    ? "depends-on-value"
                    : KA.AssumedShape ? "assumed-shape"
                                      : "certain";
    barrierAdvice(Rec, F, A, Legacy);
    if (Rec.Skip)
      Rec.Fix = "the " + Rec.Skip->Barrier + " on line " + std::to_string(Rec.Skip->Line) +
                " separates them only in the blocks that take it: let every block reach it "
                "(outside the `if`), or keep the accesses on both sides of it in the same arm";
    // A warning only for what holds for the launches' shapes and real values: a race
    // that a sampled run-time value decides, or that another block than the assumed one
    // would not have, is a note that says so (real values before sampled ones).
    if (F.Skip && F.Skip->Sampled)
      Rec.NoteReason = "only a sampled value makes a block skip the " + Rec.Skip->Barrier +
                       " on line " + std::to_string(Rec.Skip->Line) + ": " + F.Skip->SampledWhat;
    else if (F.Sampled && F.ValueDependent)
      Rec.NoteReason = "whether it races depends on run-time values no launch in this file "
                       "fixes (sampled " + F.Samples + "): it races for " + F.Values +
                       ", not for every sampled value";
    else if (Rec.ZeroTripLine)
      Rec.NoteReason = "a barrier in every trip of the loop at line " +
                       std::to_string(Rec.ZeroTripLine) +
                       " orders the two accesses, so they race only when that loop runs no "
                       "trip (its trip count is a run-time value no launch in this file fixes)";
    else if (KA.AssumedShape && sameShape(F.Shape, Assumed))
      if (const BlockShape *Alt = AlternativeWithout(F))
        Rec.NoteReason = "no launch in this file gives the block shape, and with a block of " +
                         Alt->str() + " these two accesses do not collide";
    Rec.Severity = (F.SameWarp && Legacy) || !Rec.NoteReason.empty() ? "note" : "warning";
    Rec.FindingImpact = wl::raceImpact(Rec);
    Out.Findings.push_back(std::move(M));
  }
  return Out;
}

void TuModel::correctnessRecords(wl::ModelRecords &Out) {
  // The sync findings' impacts, from their records (at the call, where the finding is).
  for (const wl::SyncRecord &S : Out.Syncs)
    if (std::optional<wl::Impact> I = wl::syncImpact(S))
      Out.Impacts.push_back({S.Check, S.Pos, "", "", *I});
  for (const RaceModel *R : RacesReported) {
    Out.Races.push_back(R->Record);
    if (R->Record.FindingImpact)
      Out.Impacts.push_back({R->Record.Check, R->Record.Pos, "", "", *R->Record.FindingImpact,
                             "(" + R->Record.First.Access + ", line " +
                                 std::to_string(R->Record.First.Pos.Line) + ")"});
  }
}

} // namespace warplint
