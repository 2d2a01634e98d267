//===- SharedBankConflictCheck.cpp - warplint-shared-bank-conflict --------===//
#include "checks/SharedBankConflictCheck.h"

#include "checks/MemoryAccessReport.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"


#include <set>

using namespace clang::ast_matchers;

namespace clang::tidy::warplint {

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Model(ModelOptions::read(Context->getOptions().CheckOptions)),
      Ignored(Options.get("IgnoredKernels", "")), MinConflictWays(2.0),
      Level(DiagnosticIDs::Warning), SeverityText(Options.get("Severity", "warning")),
      AssumedBlockSize(Options.get("AssumedBlockSize", 256U)) {
  std::string Ways = Options.get("MinConflictWays", "2").str();
  if (std::optional<double> R = parseRatio(Ways))
    MinConflictWays = *R;
  else
    configurationDiag("invalid MinConflictWays '%0': must be a number from 1 to 1024; using 2")
        << Ways;
  if (auto L = parseSeverity(SeverityText, false)) {
    Level = **L;
  } else {
    configurationDiag("invalid Severity '%0': must be 'warning' or 'note'; using 'warning'")
        << SeverityText;
    SeverityText = "warning";
  }
  if (AssumedBlockSize == 0 || AssumedBlockSize % 32 != 0 || AssumedBlockSize > 1024) {
    configurationDiag("invalid AssumedBlockSize %0: must be a multiple of 32 from 32 to 1024; "
                      "using 256")
        << AssumedBlockSize;
    AssumedBlockSize = 256;
  }
}

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, "MinConflictWays", ratioText(MinConflictWays));
  Options.store(Opts, "Severity", SeverityText);
  Options.store(Opts, "AssumedBlockSize", AssumedBlockSize);
}

void SharedBankConflictCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                     this);
}

void SharedBankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

void SharedBankConflictCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  ASTContext &C = *Ctx;
  Ctx = nullptr;
  const SourceManager &SM = C.getSourceManager();
  TuModel &M = TuModel::of(C, nullptr, Model);
  std::set<SourceLocation> Reported;
  std::set<const FunctionDecl *> AssumedSaid; ///< kernels whose assumed shape was said
  for (const AccessModel &A : M.accesses(AssumedBlockSize)) {
    const MemoryAccessSite &S = A.Site;
    if (S.Space != MemorySpace::Shared || Ignored.ignores(A.Kernel->Name))
      continue;
    std::optional<size_t> W = A.worst();
    if (!W)
      continue;
    const AccessShape &Shape = A.PerShape[*W];
    const AccessFigures &F = Shape.Figures;
    const WarpExecution &X = F.Typical;
    if (X.ratio() < MinConflictWays)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(S.Access->getBeginLoc());
    if (Loc.isInvalid() || !Reported.insert(Loc).second)
      continue;
    M.reportAccess(A, *W, std::string(getID()), accessText(S, C), false);
    const char *Phases = S.Bytes > 8   ? " (16-byte accesses, served per quarter-warp)"
                         : S.Bytes > 4 ? " (8-byte accesses, served per half-warp)"
                                       : "";
    const bool Amd = F.Model.Amd;
    if (Amd) {
      // AMD: the LDS's 32 banks of 4 bytes serve 32 lanes at a time (16 for 8-byte, 8 for
      // 16-byte accesses); "wavefront" is the AMD wave, so the LDS cycles are passes.
      unsigned PhaseLanes = S.Bytes > 8 ? 8 : S.Bytes > 4 ? 16 : 32;
      diag(Loc, "each wavefront's (%0 lanes) %1 of '%2' needs %3 LDS passes of %4 lanes "
                "(ideal %5) over 32 banks of 4 bytes: a %6-way bank conflict (%7)",
           Level)
          << F.Model.Lanes << accessVerb(S) << accessText(S, C) << X.Waves.Wavefronts
          << PhaseLanes << X.Waves.IdealWavefronts << X.Waves.Ways << shapeText(A, Shape, X)
          << S.Access->getSourceRange();
    } else
    diag(Loc, "each warp's %0 of '%1' needs %2 shared-memory wavefronts (ideal %3): a %4-way "
              "bank conflict%5 (%6)",
         Level)
        << accessVerb(S) << accessText(S, C) << X.Waves.Wavefronts << X.Waves.IdealWavefronts
        << X.Waves.Ways << Phases << shapeText(A, Shape, X) << S.Access->getSourceRange();
    if (X.LaneStride && *X.LaneStride % 4 == 0 && *X.LaneStride != 0) {
      int64_t Bytes = *X.LaneStride < 0 ? -*X.LaneStride : *X.LaneStride;
      unsigned Words = unsigned(Bytes / 4 % 32), Period = 32;
      for (unsigned G = Words; G;) { // 32 / gcd(words, 32)
        unsigned T = Period % G;
        Period = G;
        G = T;
      }
      Period = Words ? 32 / Period : 1;
      diag(Loc, "consecutive lanes are %0 bytes apart: %select{every lane's word is in the "
                "same bank|the same bank comes back every %2 lanes}1",
           DiagnosticIDs::Note)
          << unsigned(Bytes) << unsigned(Period > 1) << Period;
    }
    if (F.Worst.Waves.Wavefronts * X.Waves.IdealWavefronts >
        X.Waves.Wavefronts * F.Worst.Waves.IdealWavefronts)
      diag(Loc, "up to %0 %select{wavefronts|LDS passes}5 (ideal %1, a %2-way conflict) in "
                "%select{warp|wavefront}5 %3 (%4)",
           DiagnosticIDs::Note)
          << F.Worst.Waves.Wavefronts << F.Worst.Waves.IdealWavefronts << F.Worst.Waves.Ways
          << F.Worst.Warp << shapeText(A, Shape, F.Worst) << unsigned(Amd);
    if (F.PaddedRatio && *F.PaddedRatio < X.ratio())
      diag(S.ObjectDecl->getLocation(),
           "padding each row by one element ('%0') %select{makes the access conflict-free|"
           "reduces it to %2 %select{wavefronts|LDS passes}3 per ideal one}1",
           DiagnosticIDs::Note)
          << S.PaddedDecl << unsigned(*F.PaddedRatio > 1.0) << ratioText(*F.PaddedRatio)
          << unsigned(Amd);
    if (A.AssumedShape && AssumedSaid.insert(A.Kernel->Decl).second)
      diag(A.Kernel->Decl->getLocation(),
           "no launch of '%0' with a known block shape in this translation unit; assumed a "
           "1-D block of %1 threads",
           DiagnosticIDs::Note)
          << A.Kernel->Name << AssumedBlockSize;
    for (const AccessShape &Other : A.PerShape)
      if (&Other != &Shape && Other.Figures.Evaluated && Other.Launch.isValid() &&
          Other.Figures.Typical.ratio() < MinConflictWays)
        diag(Other.Launch, "with the block %0 of this launch the access needs %1 "
                           "%select{wavefronts|LDS passes}3 (ideal %2)",
             DiagnosticIDs::Note)
            << Other.Shape.str() << Other.Figures.Typical.Waves.Wavefronts
            << Other.Figures.Typical.Waves.IdealWavefronts << unsigned(Amd);
  }
}

} // namespace clang::tidy::warplint
