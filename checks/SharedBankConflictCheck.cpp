//===- SharedBankConflictCheck.cpp - warplint-shared-bank-conflict --------===//
#include "checks/SharedBankConflictCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/MemoryAccessReport.h"
#include "checks/TrafficShare.h"
#include "model/TuModel.h"

#include "warplint/core/Arch.h"

#include "clang/Lex/Lexer.h"

namespace clang::tidy::warplint {

namespace wl = ::warplint;

namespace {

/// The function a kernel specialization was instantiated from (itself when none).
const FunctionDecl *patternOf(const FunctionDecl *F) {
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    return P;
  return F;
}

/// The innermost dimension of a declaration's array type as written: its brackets.
std::optional<ArrayTypeLoc> innermostArray(const VarDecl *V) {
  const TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  std::optional<ArrayTypeLoc> Last;
  for (TypeLoc T = TSI->getTypeLoc(); !T.isNull();) {
    auto A = T.getAsAdjusted<ArrayTypeLoc>();
    if (!A)
      break;
    Last = A;
    T = A.getElementLoc();
  }
  return Last;
}

} // namespace

std::optional<FixItHint> SharedBankConflictCheck::paddingFix(const AccessModel &A, ASTContext &C,
                                                             std::string &Why) {
  const SourceManager &SM = C.getSourceManager();
  const VarDecl *VD = A.Site.ObjectDecl;
  if (!Tu || !VD || A.Site.PaddedDecl.empty() || A.Site.ExternShared)
    return std::nullopt;
  SourceLocation DeclLoc = SM.getExpansionLoc(VD->getLocation());
  if (!FixOffered.insert(DeclLoc).second)
    return std::nullopt; // decided at the array's first finding
  // Every specialization of the kernel declares the array at this place: each must have
  // its accesses evaluated padded, and every one conflict-free.
  const FunctionDecl *Pattern = patternOf(A.Kernel->Decl);
  std::set<const FunctionDecl *> Kernels, Covered;
  for (const KernelInfo &K : Tu->facts().Kernels)
    if (K.Decl && K.HasBody && K.Decl->hasBody() && !K.Decl->isDependentContext() &&
        patternOf(K.Decl) == Pattern)
      Kernels.insert(K.Decl);
  for (const AccessModel &X : Tu->accesses(AssumedBlock)) {
    if (!X.Site.ObjectDecl || SM.getExpansionLoc(X.Site.ObjectDecl->getLocation()) != DeclLoc)
      continue;
    if (!X.Site.PaddingCoversObject) {
      Why = "'" + A.Site.Object + "' is used in a way the padded layout is not evaluated "
            "for (an address or a row taken, a field access, or an index the model cannot "
            "evaluate)";
      return std::nullopt;
    }
    if (X.AssumedShape) {
      Why = "no launch of '" + X.Kernel->Name + "' gives its block shape";
      return std::nullopt;
    }
    for (const AccessShape &S : X.PerShape)
      if (!S.Figures.Evaluated || !S.Figures.PaddedRatio || *S.Figures.PaddedRatio > 1.0) {
        Why = "padded, '" + accessText(X.Site, C) + "' in '" + X.Kernel->Name + "' with block " +
              S.Shape.str() + " " +
              (S.Figures.PaddedRatio
                   ? "would need " + ratioText(*S.Figures.PaddedRatio) + " wavefronts per ideal one"
                   : std::string("could not be evaluated"));
        return std::nullopt;
      }
    Covered.insert(X.Kernel->Decl);
  }
  if (Covered != Kernels) {
    Why = "an instantiation of the kernel has no access of '" + A.Site.Object +
          "' the padded layout is evaluated for";
    return std::nullopt;
  }
  // The added bytes (one element per row) must not cost a block per SM at any launch:
  // with shared memory and the block alone (registers do not change).
  const wl::GpuArch *Arch = wl::findArch(Tu->arch(), Tu->waveSize(Tu->arch()));
  uint64_t Rows = 1, Elem = 0;
  {
    QualType T = VD->getType();
    while (const auto *CA = C.getAsConstantArrayType(T)) {
      T = CA->getElementType();
      if (C.getAsConstantArrayType(T))
        Rows *= CA->getSize().getZExtValue();
    }
    Elem = uint64_t(C.getTypeSizeInChars(T).getQuantity());
  }
  for (const KernelInfo &K : Tu->facts().Kernels) {
    if (!Kernels.count(K.Decl))
      continue;
    for (unsigned I : K.Launches) {
      const LaunchSite &L = Tu->facts().Launches[I];
      std::optional<wl::divergence::BlockShape> B = launchableBlock(L);
      if (!Arch || !B || !L.DynamicSmem.Bytes || !K.StaticSmemBytes) {
        Why = "the shared memory per block of a launch of '" + K.Name +
              "' is not known, so the cost of the padding in blocks per SM is not either";
        return std::nullopt;
      }
      wl::KernelResources Res;
      Res.StaticSharedBytes = *K.StaticSmemBytes;
      wl::LaunchShape Shape = wl::LaunchShape::threads(int64_t(B->X) * B->Y * B->Z,
                                                       *L.DynamicSmem.Bytes);
      int Before = wl::computeOccupancy(*Arch, Res, Shape).BlocksPerSm;
      Res.StaticSharedBytes += Rows * Elem;
      int After = wl::computeOccupancy(*Arch, Res, Shape).BlocksPerSm;
      if (After < Before) {
        Why = "the padding adds " + std::to_string(Rows * Elem) +
              " bytes per block, which lowers the blocks per SM of '" + K.Name + "' from " +
              std::to_string(Before) + " to " + std::to_string(After) + " on " + Arch->Name;
        return std::nullopt;
      }
    }
  }
  // The edit: the innermost extent as written, plus one.
  std::optional<ArrayTypeLoc> Inner = innermostArray(VD);
  if (!Inner)
    return std::nullopt;
  SourceLocation L = Inner->getLBracketLoc(), R = Inner->getRBracketLoc();
  if (L.isInvalid() || R.isInvalid() || L.isMacroID() || R.isMacroID() ||
      SM.isInSystemHeader(L))
    return std::nullopt;
  CharSourceRange Range = CharSourceRange::getCharRange(L.getLocWithOffset(1), R);
  StringRef Text = Lexer::getSourceText(Range, SM, C.getLangOpts()).trim();
  if (Text.empty())
    return std::nullopt;
  std::string New;
  uint64_t N = 0;
  if (!Text.getAsInteger(10, N))
    New = std::to_string(N + 1);
  else if (Text.find_first_not_of(
               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
           StringRef::npos)
    New = Text.str() + " + 1";
  else
    New = "(" + Text.str() + ") + 1";
  return FixItHint::CreateReplacement(Range, New);
}

SharedBankConflictCheck::SharedBankConflictCheck(StringRef Name, ClangTidyContext *Context)
    : MemoryAccessCheck(Name, Context, MemorySpace::Shared, "MinConflictWays"),
      MinTrafficShareText("6.25"), MinTrafficShare(readCheckedOption(
          Options, "MinTrafficShare", "6.25", parsePercent,
          "invalid %0 '%1' for %2: a percentage 0-100; using %3", getID(),
          [&](StringRef M) { return configurationDiag(M); }, &MinTrafficShareText)) {}

void SharedBankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MemoryAccessCheck::storeOptions(Opts);
  Options.store(Opts, "MinTrafficShare", MinTrafficShareText);
}

std::string SharedBankConflictCheck::groupDemotion(const std::vector<const AccessModel *> &Places,
                                                   const FunctionDecl *Kernel, ASTContext &C) {
  if (std::string Why = dataMatchDemotion(Places, C); !Why.empty())
    return Why;
  if (MinTrafficShare <= 0 || !Tu)
    return "";
  // The kernel's other conflicted accesses: a loop body's several conflicts weigh
  // together, and a one-time conflict is a note only beside a conflict of the kernel's
  // main work (a kernel whose one conflict is its tail keeps it a warning: the thing to
  // fix there).
  std::set<const Expr *> Flagged;
  for (const AccessModel &X : Tu->accesses(AssumedBlock))
    if (X.Kernel && X.Kernel->Decl == Kernel && X.Site.Space == MemorySpace::Shared)
      if (std::optional<size_t> W = X.worst(); W && judge(X, *W, C).Report)
        Flagged.insert(X.Site.Access);
  return trafficShareDemotion(Places, Kernel, C, MemorySpace::Shared, MinTrafficShare,
                              MinTrafficShareText, Flagged, /*NeedsMain=*/true,
                              &Tu->kernelAnalysis(Kernel).Known);
}

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
  std::string NoFix;
  std::optional<FixItHint> Fix = paddingFix(A, C, NoFix);
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
        << S.Access->getSourceRange() << (Fix ? *Fix : FixItHint());
  } else
    diag(Loc,
         "each warp's %0 of '%1' needs %2 shared-memory wavefronts (ideal %3): a %4-way "
         "bank conflict%5 (%6)%7",
         G.Level)
        << accessVerb(S) << accessText(S, C) << X.Waves.Wavefronts << X.Waves.IdealWavefronts
        << X.Waves.Ways << Phases << shapeText(A, Shape, X, MinRatio) << G.More
        << S.Access->getSourceRange() << (Fix ? *Fix : FixItHint());
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
  if (F.PaddedRatio && *F.PaddedRatio <= 1.0 && !Fix && !NoFix.empty())
    diag(S.ObjectDecl->getLocation(), "no fix-it: %0", DiagnosticIDs::Note) << NoFix;
  noteShapes(A, Shape, [&](const AccessShape &Other) {
    diag(Other.Launch,
         "with the block %0 of this launch the access needs %1 "
         "%select{wavefronts|LDS passes}3 (ideal %2)",
         DiagnosticIDs::Note)
        << Other.Shape.str() << Other.Figures.Typical.Waves.Wavefronts
        << Other.Figures.Typical.Waves.IdealWavefronts << unsigned(Amd);
  });
}

} // namespace clang::tidy::warplint
