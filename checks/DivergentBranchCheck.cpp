//===- DivergentBranchCheck.cpp - warplint-divergent-branch --------------===//
//
// Words the model's branch records (TuModel::branches, model/Branches.h): each finding
// with its figures, the reasons that make it a note, its notes, and the other places it
// groups. The evaluation and the verdicts are the model's (model/Branches.cpp, with
// divergence/Idioms and divergence/BranchEval).
//
//===----------------------------------------------------------------------------===//
#include "checks/DivergentBranchCheck.h"
#include "checks/AnalysisNames.h"
#include "checks/AssumedShape.h"
#include "checks/OptionParsing.h"

#include "model/Facts.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::warplint {

namespace {

std::string plural(const std::string &What) {
  if (What == "branch on")
    return "branches on";
  if (What == "switch on")
    return "switches on";
  if (What == "'?:' on")
    return "'?:' operators on";
  if (What == "loop condition on")
    return "loop conditions on";
  return "short-circuit operands on";
}

} // namespace

bool DivergentBranchCheck::readFlag(StringRef Key) {
  return readBoolOption(Options, Key, false, getID(),
                        [&](StringRef M) { return configurationDiag(M); });
}

DivergentBranchCheck::DivergentBranchCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      Model(ModelOptions::read(Context->getOptions().CheckOptions)),
      Ignored(Options.get("IgnoredKernels", "")) {
  Branches.ReportBoundsGuards = readFlag("ReportBoundsGuards");
  Branches.ReportLeaderPatterns = readFlag("ReportLeaderPatterns");
  Branches.ReportTreeReductionTails = readFlag("ReportTreeReductionTails");
  Branches.ReportDataDependent = readFlag("ReportDataDependent");
  Branches.ReportGridStrideLoops = readFlag("ReportGridStrideLoops");
  AssumedBlockSize = readAssumedBlockSize(Options);
  Branches.AssumedBlock = readAssumedBlock(AssumedBlockSize, Model,
                                           [&](StringRef M) { return configurationDiag(M); });
  Branches.IgnoredKernels = Ignored.text();
}

void DivergentBranchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  auto Flag = [](bool B) { return B ? "true" : "false"; };
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, "ReportBoundsGuards", Flag(Branches.ReportBoundsGuards));
  Options.store(Opts, "ReportLeaderPatterns", Flag(Branches.ReportLeaderPatterns));
  Options.store(Opts, "ReportTreeReductionTails", Flag(Branches.ReportTreeReductionTails));
  Options.store(Opts, "ReportDataDependent", Flag(Branches.ReportDataDependent));
  Options.store(Opts, "ReportGridStrideLoops", Flag(Branches.ReportGridStrideLoops));
  Options.store(Opts, "AssumedBlockSize", assumedBlockSizeText(AssumedBlockSize));
}

void DivergentBranchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                     this);
}

void DivergentBranchCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *K = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
    if (!K->isDependentContext() && K->hasBody() && !Ignored.ignores(functionName(K)))
      AnyKernel = true;
}

void DivergentBranchCheck::onEndOfTranslationUnit() {
  if (!Ctx || !AnyKernel)
    return;
  AnyKernel = false;
  const std::vector<BranchModel> &Records =
      TuModel::of(*Ctx, nullptr, Model).branches(Branches);
  const SourceManager &SM = Ctx->getSourceManager();
  for (const BranchModel &R : Records)
    if (R.DataDependent && R.Severity == BranchSeverity::Warning)
      diag(R.Loc, R.LaneBits
                      ? "branch in kernel '%0' depends on data: each lane tests its own bit "
                        "of a word loaded from memory; it diverges where the bits differ "
                        "between lanes"
                      : "branch in kernel '%0' depends on data loaded at a thread-dependent "
                        "address; it diverges where the data differs between lanes")
          << R.KernelName << R.Range;
  for (const BranchModel &F : Records) {
    if (!F.finding())
      continue;
    const std::string What = branchKindText(F.Kind);
    const size_t Places = F.Places.size();
    std::string Message = Places == 1 ? What + " '" + F.Term + "' " + F.Figures
                                      : std::to_string(Places) + " " + plural(What) + " '" +
                                            F.Term + "' with the same figures: each " +
                                            F.Figures;
    diag(F.Loc, "%0",
         F.Severity == BranchSeverity::Note ? DiagnosticIDs::Remark : DiagnosticIDs::Warning)
        << Message << F.Range;
    for (const std::string &Why : F.NoteReasons)
      diag(F.Loc, "%0", DiagnosticIDs::Note) << "a note, not a warning: " + Why;
    for (const auto &[NoteLoc, Text] : F.Notes)
      diag(NoteLoc, "%0", DiagnosticIDs::Note) << Text;
    PresumedLoc First = SM.getPresumedLoc(F.Loc);
    for (size_t K = 1; K < Places; ++K)
      diag(Records[F.Places[K]].Loc,
           "%0 '%1' here too (%2 of %3), grouped in the finding at line %4",
           DiagnosticIDs::Note)
          << What << F.Term << unsigned(K + 1) << unsigned(Places)
          << (First.isValid() ? First.getLine() : 0u);
  }
}

} // namespace clang::tidy::warplint
