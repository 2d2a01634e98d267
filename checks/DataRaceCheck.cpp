//===- DataRaceCheck.cpp - warplint-data-race -===//
#include "checks/DataRaceCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/AssumedShape.h"
#include "checks/OptionParsing.h"
#include "divergence/DataRace.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <tuple>

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

void DataRaceCheck::report(const RaceModel &M,
                           const std::vector<std::pair<SourceLocation, std::string>> &Others) {
  const RaceRecord &R = M.Record;
  SourceLocation At = M.Second->getBeginLoc();
  std::string Msg = raceMessage(R);
  if (!Others.empty())
    Msg += "; the same race on '" + R.Object + "' in " + std::to_string(Others.size()) +
           " more instantiation" + (Others.size() > 1 ? "s" : "") + " of the kernel";
  diag(At, "%0", R.Severity == "note" ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
      << Msg;
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
  std::set<std::pair<SourceLocation, std::string>> Said;
  for (const auto &[Loc, Kernel] : Others)
    if (Said.insert({Loc, Kernel}).second)
      diag(Loc, "the same race in '%0'", DiagnosticIDs::Note) << Kernel;
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
  Pending P;
  P.Kernel = Kernel;
  P.Races = Races.Findings;
  P.AssumedShape = Races.AssumedShape;
  P.StoppedAt = Races.StoppedAt;
  P.StoppedCallee = Races.StoppedCallee;
  P.WorkCapped = Races.WorkCapped;
  for (const RaceModel &R : Races.Findings)
    M.reportRace(R);
  Kernels.push_back(std::move(P));
}

void DataRaceCheck::onEndOfTranslationUnit() {
  // The k-th race on an object in an instantiation of a kernel template, with the same
  // severity and kind: one finding for every instantiation (the first written stands for
  // them, the others are notes).
  using Key = std::tuple<const Decl *, std::string, std::string, bool, bool, unsigned>;
  std::map<Key, std::vector<std::pair<const Pending *, const RaceModel *>>> Groups;
  std::map<const RaceModel *, Key> KeyOf;
  for (const Pending &P : Kernels) {
    const Decl *Pattern = P.Kernel->getTemplateInstantiationPattern()
                              ? P.Kernel->getTemplateInstantiationPattern()->getCanonicalDecl()
                              : P.Kernel->getCanonicalDecl();
    std::map<std::string, unsigned> Ordinal;
    for (const RaceModel &R : P.Races) {
      const RaceRecord &Rec = R.Record;
      Key K{Pattern, Rec.Object, Rec.Severity, Rec.SameWarp, Rec.CrossBlock,
            Ordinal[Rec.Object + "/" + Rec.Severity]++};
      Groups[K].push_back({&P, &R});
      KeyOf[&R] = K;
    }
  }
  for (const Pending &P : Kernels) {
    const FunctionDecl *Kernel = P.Kernel;
    bool AssumedSaid = false;
    for (const RaceModel &R : P.Races) {
      auto &G = Groups[KeyOf[&R]];
      if (G.front().second != &R)
        continue; // said with the group's first
      std::vector<std::pair<SourceLocation, std::string>> Others;
      for (size_t I = 1; I < G.size(); ++I) {
        std::string Name;
        llvm::raw_string_ostream OS(Name);
        G[I].first->Kernel->getNameForDiagnostic(OS, G[I].first->Kernel->getASTContext().getPrintingPolicy(), true);
        Others.push_back({G[I].second->Second->getBeginLoc(), OS.str()});
      }
      report(R, Others);
      if (P.AssumedShape && !AssumedSaid) {
        AssumedSaid = true;
        diag(Kernel->getLocation(),
             "no launch of '%0' with a known block shape in this translation unit; assumed "
             "%1",
             DiagnosticIDs::Note)
            << Kernel->getName() << assumedBlockText(AssumedBlock);
      }
    }
    if (P.StoppedAt)
      diag(P.StoppedAt->getBeginLoc(),
           "the race check stops at the call to %0 in '%1' (its body is not in this file)",
           DiagnosticIDs::Note)
          << P.StoppedCallee << Kernel->getName();
    if (P.WorkCapped)
      diag(Kernel->getLocation(), "the race check stopped early in '%0': too many accesses",
           DiagnosticIDs::Note)
          << Kernel->getName();
  }
  Kernels.clear();
}

} // namespace clang::tidy::warplint
