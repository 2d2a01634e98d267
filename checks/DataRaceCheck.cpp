//===- DataRaceCheck.cpp - warplint-data-race -===//
#include "checks/DataRaceCheck.h"

#include "checks/AssumedShape.h"
#include "checks/OptionParsing.h"
#include "divergence/DataRace.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warplint {

using ::warplint::divergence::BlockShape;

DataRaceCheck::DataRaceCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Ignored(Options.get("IgnoredKernels", "")),
      AssumedBlockSize(readAssumedBlockSize(Options)),
      Model(ModelOptions::read(Context->getOptions().CheckOptions)) {
  ReportBenign = readBoolOption(Options, "ReportBenign", false, getID(),
                                [&](StringRef M) { return configurationDiag(M); });
  // The assumed block of every check: warplint.AssumedBlock (--assume-block), or this
  // check's AssumedBlockSize alias, else 256 threads; the grid: warplint.AssumedGrid.
  AssumedBlock = readAssumedBlock(AssumedBlockSize, Model,
                                  [&](StringRef M) { return configurationDiag(M); });
}

void DataRaceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, "ReportBenign", ReportBenign ? "true" : "false");
  Options.store(Opts, "AssumedBlockSize", assumedBlockSizeText(AssumedBlockSize));
}

void DataRaceCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  using namespace ast_matchers;
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"), this);
}

namespace {

std::string threadText(const RaceThread &T, const BlockShape &S, bool WithBlock) {
  std::string Out = "thread ";
  if (S.Y == 1 && S.Z == 1)
    Out += std::to_string(T.Tid[0]);
  else if (S.Z == 1)
    Out += "(" + std::to_string(T.Tid[0]) + ", " + std::to_string(T.Tid[1]) + ")";
  else
    Out += "(" + std::to_string(T.Tid[0]) + ", " + std::to_string(T.Tid[1]) + ", " +
           std::to_string(T.Tid[2]) + ")";
  if (WithBlock)
    Out += " of block " + std::to_string(T.Block);
  return Out;
}

const char *verb(const MemoryAccessSite &S) {
  return S.Load && S.Store ? "updates" : S.Store ? "writes" : "reads";
}

std::string text(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  std::string T = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  if (T.size() > 60)
    T = T.substr(0, 57) + "...";
  return T;
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

/// "offset, n" from "offset: 1, 32, 33, 1000; n: 1, 32, 33, 1000".
std::string sampledNames(llvm::StringRef Samples) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Samples.split(Parts, "; ");
  for (llvm::StringRef P : Parts)
    Out += (Out.empty() ? "'" : ", '") + P.split(':').first.str() + "'";
  return Out;
}

} // namespace

void DataRaceCheck::check(const ast_matchers::MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  ASTContext &Ctx = *Result.Context;
  if (!Kernel || Kernel->isDependentContext() || !Kernel->hasBody() ||
      Ignored.ignores(Kernel->getQualifiedNameAsString()))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(Kernel->getLocation()))
    return;
  TuModel &M = TuModel::of(Ctx, nullptr, Model);
  // The model's one analysis of the kernel: its thread dependence, launchable block
  // shapes and the constants its launches pass.
  const KernelAnalysis &KA = M.kernelAnalysis(Kernel);
  std::vector<BlockShape> Shapes;
  for (const KernelShape &S : KA.Shapes)
    Shapes.push_back(S.Shape);
  // The assumed block keeps the dimensions every launch fixes at 1 (fitUnitDims).
  const BlockShape Assumed = fitUnitDims(AssumedBlock, KA);
  if (KA.AssumedShape)
    Shapes.push_back(Assumed);
  // The grid: the first known grid of its launches, else the run's assumed grid
  // (warplint.AssumedGrid, --assume-grid); unknown otherwise (blocks are then not
  // compared).
  std::optional<std::array<uint64_t, 3>> Grid = Model.AssumedGrid;
  for (const KernelLaunch &L : KA.Launches)
    if (L.Site->Grid.known()) {
      Grid = *L.Site->Grid.Dims;
      break;
    }
  RaceOptions Opts;
  Opts.ReportBenign = ReportBenign;
  std::string Arch = M.arch();
  if (unsigned V = smVersion(Arch))
    Opts.SmVersion = V;
  RaceAnalysis R = analyzeRaces(KA.Kernel, KA.TD, Ctx, Shapes, Grid, Opts, &KA.Known);
  // An assumed block: a finding stays a warning only when every block at least a warp
  // wide in x (assumedAlternatives) races on the same two accesses too.
  std::vector<std::pair<BlockShape, RaceAnalysis>> Alternatives;
  auto AlternativeWithout = [&](const RaceFinding &F) -> const BlockShape * {
    if (Alternatives.empty())
      for (const BlockShape &Alt : assumedAlternatives(KA, AssumedBlock))
        Alternatives.push_back(
            {Alt, analyzeRaces(KA.Kernel, KA.TD, Ctx, {Alt}, Grid, Opts, &KA.Known)});
    for (const auto &[Alt, AR] : Alternatives)
      if (std::none_of(AR.Findings.begin(), AR.Findings.end(), [&](const RaceFinding &G) {
            return G.First == F.First && G.Second == F.Second;
          }))
        return &Alt;
    return nullptr;
  };

  // One finding per object and interval: the first pair found, the others counted.
  std::map<std::tuple<std::string, unsigned, bool>, std::vector<const RaceFinding *>> Groups;
  for (const RaceFinding &F : R.Findings) {
    const RaceSite &A = R.Sites[F.First];
    Groups[{A.Site.Object, F.CrossBlock ? ~0u : A.Interval, F.SameWarp}].push_back(&F);
  }
  bool Legacy = Opts.SmVersion && Opts.SmVersion < 70;
  unsigned AssumedSaid = 0;
  for (auto &[Key, Fs] : Groups) {
    const RaceFinding &F = *Fs.front();
    const RaceSite &A = R.Sites[F.First], &B = R.Sites[F.Second];
    bool Same = F.First == F.Second;
    unsigned LA = SM.getSpellingLineNumber(A.Site.Access->getBeginLoc());
    unsigned LB = SM.getSpellingLineNumber(B.Site.Access->getBeginLoc());
    std::string Space = A.Site.Space == MemorySpace::Shared ? "shared" : "global";
    std::string Msg = "data race on " + Space + " '" + F.Word + "': " +
                      threadText(F.T1, F.Shape, F.CrossBlock) + " " + verb(A.Site) + " it (" +
                      text(A.Site.Access, Ctx) + ", line " + std::to_string(LA) + ") and " +
                      threadText(F.T2, F.Shape, F.CrossBlock) + " " + verb(B.Site) + " it (" +
                      text(B.Site.Access, Ctx) + ", line " + std::to_string(LB) + ")";
    if (F.CrossBlock)
      Msg += " in different blocks, which no __syncthreads() orders";
    else if (F.SameWarp)
      Msg += " in the same warp with no __syncwarp() between";
    else
      Msg += " with no barrier between";
    if (F.Loop)
      Msg += F.LoopCarried ? " (one iteration's end and the next one's start)"
                           : " (within the loop at line " +
                                 std::to_string(SM.getSpellingLineNumber(F.Loop->getBeginLoc())) +
                                 ", which has no barrier)";
    if (F.Benign)
      Msg += "; both write the same value";
    Msg += " (block " + F.Shape.str() + (KA.AssumedShape ? " assumed" : "");
    if (F.Sampled && !F.ValueDependent)
      Msg += ", every sampled value of " + sampledNames(F.Samples);
    else if (!F.Values.empty())
      Msg += ", " + F.Values + (F.Sampled ? " sampled" : "");
    Msg += ")";
    if (Fs.size() > 1)
      Msg += "; " + std::to_string(Fs.size() - 1) + " more pair" + (Fs.size() > 2 ? "s" : "") +
             " of accesses to '" + A.Site.Object + "' race in the same interval";
    // A warning only for what holds for the launches' shapes and real values: a race
    // that a sampled run-time value decides, or that another block than the assumed one
    // would not have, is a note that says so (real values before sampled ones).
    std::string Demotion;
    if (F.Sampled && F.ValueDependent)
      Demotion = "whether it races depends on run-time values no launch in this file fixes "
                 "(sampled " + F.Samples + "): it races for " + F.Values +
                 ", not for every sampled value";
    else if (KA.AssumedShape && F.Shape.X == Assumed.X && F.Shape.Y == Assumed.Y &&
             F.Shape.Z == Assumed.Z)
      if (const BlockShape *Alt = AlternativeWithout(F))
        Demotion = "no launch in this file gives the block shape, and with a block of " +
                   Alt->str() + " these two accesses do not collide";
    DiagnosticIDs::Level Level = DiagnosticIDs::Warning;
    if ((F.SameWarp && Legacy) || !Demotion.empty())
      Level = DiagnosticIDs::Note;
    diag(B.Site.Access->getBeginLoc(), "%0", Level) << Msg;
    if (!Demotion.empty())
      diag(B.Site.Access->getBeginLoc(), "a note, not a warning: %0", DiagnosticIDs::Note)
          << Demotion;
    if (!Same)
      diag(A.Site.Access->getBeginLoc(), "the other access to '%0'", DiagnosticIDs::Note)
          << F.Word;
    bool OneStatement = LA == LB && !F.Loop;
    if (F.CrossBlockToo)
      diag(B.Site.Access->getBeginLoc(),
           "%0 and %1 collide too: no __syncthreads() orders threads of different blocks",
           DiagnosticIDs::Note)
          << threadText(F.CrossBlockToo->first, F.Shape, true)
          << threadText(F.CrossBlockToo->second, F.Shape, true);
    if (F.CrossBlock || F.CrossBlockToo)
      diag(B.Site.Access->getBeginLoc(),
           "write the result to a separate array, or split the kernel where the blocks must "
           "see each other's writes",
           DiagnosticIDs::Note);
    else if (F.SameWarp)
      diag(B.Site.Access->getBeginLoc(),
           Legacy ? "on " + Arch + " the warp runs in lockstep; from sm_70 on (independent "
                    "thread scheduling) this is a race: put a __syncwarp() between the accesses"
                  : "since sm_70 (independent thread scheduling) the lanes of a warp are not "
                    "in lockstep: a __syncwarp() between the accesses separates them",
           DiagnosticIDs::Note);
    else if (Same && A.Site.Store && !A.Site.Load)
      diag(B.Site.Access->getBeginLoc(),
           "let one thread write it (`if (threadIdx.x == 0)`), then __syncthreads() before "
           "it is read",
           DiagnosticIDs::Note);
    else if (OneStatement)
      diag(B.Site.Access->getBeginLoc(),
           "read it into a local first, then __syncthreads(), then write: no barrier fits "
           "inside one statement",
           DiagnosticIDs::Note);
    else
      diag(B.Site.Access->getBeginLoc(),
           F.Loop ? "a __syncthreads() in the loop at line " +
                        std::to_string(SM.getSpellingLineNumber(F.Loop->getBeginLoc())) +
                        ", between the accesses, separates them"
                  : "a __syncthreads() between line " + std::to_string(LA) + " and line " +
                        std::to_string(LB) + " separates them",
           DiagnosticIDs::Note);
    if (A.Site.Access->getType().isVolatileQualified() ||
        B.Site.Access->getType().isVolatileQualified() ||
        (A.Site.ObjectDecl && A.Site.ObjectDecl->getType().isVolatileQualified()))
      diag(B.Site.Access->getBeginLoc(),
           "'volatile' makes each access reach memory but does not order the accesses of "
           "different threads",
           DiagnosticIDs::Note);
    if (F.ValueDependent && !F.Sampled)
      diag(B.Site.Access->getBeginLoc(),
           "it races when %0 (a value a launch in this file passes); the other values "
           "its launches pass do not",
           DiagnosticIDs::Note)
          << F.Values;
    if (KA.AssumedShape && !AssumedSaid++)
      diag(Kernel->getLocation(),
           "no launch of '%0' with a known block shape in this translation unit; assumed "
           "%1",
           DiagnosticIDs::Note)
          << Kernel->getName() << assumedBlockText(AssumedBlock);
  }
  if (R.StoppedAt)
    diag(R.StoppedAt->getBeginLoc(),
         "the race check stops at the call to %0 in '%1' (its body is not in this file)",
         DiagnosticIDs::Note)
        << R.StoppedCallee << Kernel->getName();
  if (R.WorkCapped)
    diag(Kernel->getLocation(), "the race check stopped early in '%0': too many accesses",
         DiagnosticIDs::Note)
        << Kernel->getName();
}

} // namespace clang::tidy::warplint
