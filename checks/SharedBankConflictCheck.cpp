//===- SharedBankConflictCheck.cpp - warplint-shared-bank-conflict --------===//
#include "checks/SharedBankConflictCheck.h"

#include "checks/MemoryAccessReport.h"
#include "model/TuModel.h"

namespace clang::tidy::warplint {

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context)
    : MemoryAccessCheck(Name, Context, MemorySpace::Shared, "MinConflictWays") {}

MemoryAccessCheck::Verdict SharedBankConflictCheck::judge(const AccessModel &A, size_t W,
                                                           ASTContext &) {
  const WarpExecution &X = A.PerShape[W].Figures.Typical;
  Verdict V;
  V.Report = X.ratio() >= MinRatio;
  V.Level = Level;
  V.Cause = std::to_string(X.Waves.Wavefronts) + "/" + std::to_string(X.Waves.IdealWavefronts) +
            "/" + std::to_string(X.Waves.Ways) + "/" +
            (X.LaneStride ? std::to_string(*X.LaneStride) : "-") + "/" +
            A.PerShape[W].Shape.str() + "/" + std::to_string(A.Site.Bytes);
  return V;
}

std::string SharedBankConflictCheck::figureText(const WarpExecution &X,
                                                const AccessFigures &F) const {
  return std::to_string(X.Waves.Wavefronts) +
         (F.Model.Amd ? " LDS passes (ideal " : " wavefronts (ideal ") +
         std::to_string(X.Waves.IdealWavefronts) + ")";
}

void SharedBankConflictCheck::report(const AccessModel &A, size_t W, SourceLocation Loc,
                                     ASTContext &C, const Group &G) {
  const MemoryAccessSite &S = A.Site;
  const AccessShape &Shape = A.PerShape[W];
  const AccessFigures &F = Shape.Figures;
  const WarpExecution &X = F.Typical;
  const char *Phases = S.Bytes > 8   ? " (16-byte accesses, served per quarter-warp)"
                       : S.Bytes > 4 ? " (8-byte accesses, served per half-warp)"
                                     : "";
  const bool Amd = F.Model.Amd;
  if (Amd) {
    // AMD: the LDS's 32 banks of 4 bytes serve 32 lanes at a time (16 for 8-byte, 8 for
    // 16-byte accesses); "wavefront" is the AMD wave, so the LDS cycles are passes.
    unsigned PhaseLanes = S.Bytes > 8 ? 8 : S.Bytes > 4 ? 16 : 32;
    diag(Loc,
         "each wavefront's (%0 lanes) %1 of '%2' needs %3 LDS passes of %4 lanes "
         "(ideal %5) over 32 banks of 4 bytes: a %6-way bank conflict (%7)%8",
         G.Level)
        << F.Model.Lanes << accessVerb(S) << accessText(S, C) << X.Waves.Wavefronts << PhaseLanes
        << X.Waves.IdealWavefronts << X.Waves.Ways << shapeText(A, Shape, X, MinRatio) << G.More
        << S.Access->getSourceRange();
  } else
    diag(Loc,
         "each warp's %0 of '%1' needs %2 shared-memory wavefronts (ideal %3): a %4-way "
         "bank conflict%5 (%6)%7",
         G.Level)
        << accessVerb(S) << accessText(S, C) << X.Waves.Wavefronts << X.Waves.IdealWavefronts
        << X.Waves.Ways << Phases << shapeText(A, Shape, X, MinRatio) << G.More
        << S.Access->getSourceRange();
  if (X.LaneStride && *X.LaneStride % 4 == 0 && *X.LaneStride != 0) {
    int64_t Bytes = *X.LaneStride < 0 ? -*X.LaneStride : *X.LaneStride;
    unsigned Words = unsigned(Bytes / 4 % 32), Period = 32;
    for (unsigned G = Words; G;) { // 32 / gcd(words, 32)
      unsigned T = Period % G;
      Period = G;
      G = T;
    }
    Period = Words ? 32 / Period : 1;
    diag(Loc,
         "consecutive lanes are %0 bytes apart: %select{every lane's word is in the "
         "same bank|the same bank comes back every %2 lanes}1",
         DiagnosticIDs::Note)
        << unsigned(Bytes) << unsigned(Period > 1) << Period;
  }
  if (F.Worst.Waves.Wavefronts * X.Waves.IdealWavefronts >
      X.Waves.Wavefronts * F.Worst.Waves.IdealWavefronts)
    diag(Loc,
         "up to %0 %select{wavefronts|LDS passes}5 (ideal %1, a %2-way conflict) in "
         "%select{warp|wavefront}5 %3 (%4)",
         DiagnosticIDs::Note)
        << F.Worst.Waves.Wavefronts << F.Worst.Waves.IdealWavefronts << F.Worst.Waves.Ways
        << F.Worst.Warp << shapeText(A, Shape, F.Worst, MinRatio) << unsigned(Amd);
  if (F.PaddedRatio && *F.PaddedRatio < X.ratio())
    diag(S.ObjectDecl->getLocation(),
         "padding each row by one element ('%0') %select{makes the access conflict-free|"
         "reduces it to %2 %select{wavefronts|LDS passes}3 per ideal one}1",
         DiagnosticIDs::Note)
        << S.PaddedDecl << unsigned(*F.PaddedRatio > 1.0) << ratioText(*F.PaddedRatio)
        << unsigned(Amd);
  noteAssumedShape(A);
  for (const AccessShape &Other : A.PerShape)
    if (&Other != &Shape && Other.Figures.Evaluated && Other.Launch.isValid() &&
        Other.Figures.Typical.ratio() < MinRatio)
      diag(Other.Launch,
           "with the block %0 of this launch the access needs %1 "
           "%select{wavefronts|LDS passes}3 (ideal %2)",
           DiagnosticIDs::Note)
          << Other.Shape.str() << Other.Figures.Typical.Waves.Wavefronts
          << Other.Figures.Typical.Waves.IdealWavefronts << unsigned(Amd);
}

} // namespace clang::tidy::warplint
