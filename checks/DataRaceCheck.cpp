//===- DataRaceCheck.cpp - warplint-data-race -===//
#include "checks/DataRaceCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/AssumedShape.h"
#include "checks/OptionParsing.h"
#include "divergence/DataRace.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace clang::tidy::warplint {

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

using ::warplint::RaceRecord;
using ::warplint::RaceThreadRecord;

/// "thread 64", "thread (3, 1)", "thread 5 of block 1": as the block's rank needs.
std::string threadText(const RaceThreadRecord &T, const RaceRecord &R, bool WithBlock) {
  std::string Out = "thread ";
  if (R.Block[1] == 1 && R.Block[2] == 1)
    Out += std::to_string(T.Thread[0]);
  else if (R.Block[2] == 1)
    Out += "(" + std::to_string(T.Thread[0]) + ", " + std::to_string(T.Thread[1]) + ")";
  else
    Out += "(" + std::to_string(T.Thread[0]) + ", " + std::to_string(T.Thread[1]) + ", " +
           std::to_string(T.Thread[2]) + ")";
  if (WithBlock)
    Out += " of block " + std::to_string(T.Block);
  return Out;
}

std::string verb(const ::warplint::RaceAccessRecord &A) {
  return A.Kind == "update" ? "updates" : A.Kind == "write" ? "writes" : "reads";
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

/// The finding's message, worded from its record (model/TuModel::races): the word, the
/// two threads and accesses, what lies between them, the block and the values.
std::string raceMessage(const RaceRecord &R) {
  // A race in a block that skips a barrier names that block's threads.
  const bool WithBlock = R.CrossBlock || R.Skip.has_value();
  std::string Msg = "data race on " + R.Space + " '" + R.Word +
                    "': " + threadText(R.Thread1, R, WithBlock) + " " + verb(R.First) + " it (" +
                    R.First.Access + ", line " + std::to_string(R.First.Pos.Line) + ") and " +
                    threadText(R.Thread2, R, WithBlock) + " " + verb(R.Second) + " it (" +
                    R.Second.Access + ", line " + std::to_string(R.Second.Pos.Line) + ")";
  if (R.CrossBlock)
    Msg += " in different blocks, which no __syncthreads() orders";
  else if (R.SameWarp)
    Msg += " in the same warp with no __syncwarp() between";
  else
    Msg += " with no barrier between";
  if (R.LoopLine)
    Msg += R.LoopCarried ? " (one iteration's end and the next one's start)"
                         : " (within the loop at line " + std::to_string(R.LoopLine) +
                               ", which has no barrier)";
  if (R.ClampWriteBack)
    Msg += "; the store writes back the clamp every reader computes from the word, so "
           "either order gives each thread the same value";
  else if (R.Benign)
    Msg += "; both write the same value";
  ::warplint::divergence::BlockShape Shape{R.Block[0], R.Block[1], R.Block[2]};
  Msg += " (block " + Shape.str() + (R.BlockAssumed ? " assumed" : "");
  if (R.ValuesSampled && R.Certainty != "depends-on-value")
    Msg += ", every sampled value of " + sampledNames(R.Samples);
  else if (!R.Values.empty())
    Msg += ", " + R.Values + (R.ValuesSampled ? " sampled" : "");
  Msg += ")";
  if (R.Skip)
    Msg += "; " + ::warplint::raceSkipText(*R.Skip);
  if (R.MorePairs)
    Msg += "; " + std::to_string(R.MorePairs) + " more pair" + (R.MorePairs > 1 ? "s" : "") +
           " of accesses to '" + R.Object + "' race in the same interval";
  return Msg;
}

} // namespace

void DataRaceCheck::report(const RaceModel &M) {
  const RaceRecord &R = M.Record;
  SourceLocation At = M.Second->getBeginLoc();
  diag(At, "%0", R.Severity == "note" ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
      << raceMessage(R);
  if (!R.NoteReason.empty())
    diag(At, "a note, not a warning: %0", DiagnosticIDs::Note) << R.NoteReason;
  if (M.First != M.Second)
    diag(M.First->getBeginLoc(), "the other access to '%0'", DiagnosticIDs::Note) << R.Word;
  if (R.CrossBlockToo)
    diag(At, "%0 and %1 collide too: no __syncthreads() orders threads of different blocks",
         DiagnosticIDs::Note)
        << threadText((*R.CrossBlockToo)[0], R, true) << threadText((*R.CrossBlockToo)[1], R, true);
  diag(At, "%0", DiagnosticIDs::Note) << R.Fix;
  if (R.Volatile)
    diag(At,
         "'volatile' makes each access reach memory but does not order the accesses of "
         "different threads",
         DiagnosticIDs::Note);
  if (R.Certainty == "depends-on-value" && !R.ValuesSampled)
    diag(At,
         "it races when %0 (a value a launch in this file passes); the other values "
         "its launches pass do not",
         DiagnosticIDs::Note)
        << R.Values;
}

void DataRaceCheck::check(const ast_matchers::MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  ASTContext &Ctx = *Result.Context;
  if (!Kernel || Kernel->isDependentContext() || !Kernel->hasBody() ||
      Ignored.ignores(Kernel->getQualifiedNameAsString()))
    return;
  if (Ctx.getSourceManager().isInSystemHeader(Kernel->getLocation()))
    return;
  // The model's one race evaluation of the kernel (model/Races.cpp): each finding with
  // the record every output reads.
  TuModel &M = TuModel::of(Ctx, nullptr, Model);
  const KernelRaces &Races = M.races(Kernel, AssumedBlock, ReportBenign);
  bool AssumedSaid = false;
  for (const RaceModel &R : Races.Findings) {
    report(R);
    M.reportRace(R);
    if (Races.AssumedShape && !AssumedSaid) {
      AssumedSaid = true;
      diag(Kernel->getLocation(),
           "no launch of '%0' with a known block shape in this translation unit; assumed "
           "%1",
           DiagnosticIDs::Note)
          << Kernel->getName() << assumedBlockText(AssumedBlock);
    }
  }
  if (Races.StoppedAt)
    diag(Races.StoppedAt->getBeginLoc(),
         "the race check stops at the call to %0 in '%1' (its body is not in this file)",
         DiagnosticIDs::Note)
        << Races.StoppedCallee << Kernel->getName();
  if (Races.WorkCapped)
    diag(Kernel->getLocation(), "the race check stopped early in '%0': too many accesses",
         DiagnosticIDs::Note)
        << Kernel->getName();
}

} // namespace clang::tidy::warplint
