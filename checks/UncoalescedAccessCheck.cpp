//===- UncoalescedAccessCheck.cpp - warplint-uncoalesced-access ------------===//
#include "checks/UncoalescedAccessCheck.h"

#include "checks/MemoryAccessReport.h"
#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"


#include <set>

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {

/// Why the lanes of the quoted warp touch the sectors they do.
std::string reason(const MemoryAccessSite &S, const WarpExecution &X) {
  if (!X.LaneStride)
    return "the lanes' addresses do not follow one stride";
  int64_t Stride = *X.LaneStride;
  if (!S.ElementName.empty())
    return "lanes " + std::to_string(Stride) + " bytes apart, each reading " +
           (S.Bytes == 1 ? std::string("1 byte") : std::to_string(S.Bytes) + " bytes") +
           " of a " + std::to_string(S.ElementBytes) + "-byte '" + S.ElementName +
           "' (an array of structures)";
  if (Stride < 0)
    Stride = -Stride;
  // Most neighbours adjacent, yet not one run: runs of lanes with gaps between them.
  if (Stride == int64_t(S.Bytes) && !X.Contiguous)
    return "runs of adjacent lanes with gaps between the runs";
  if (Stride % S.Bytes == 0)
    return "stride of " + std::to_string(Stride / S.Bytes) + " " +
           plural(S.TypeName, Stride / S.Bytes) + " between lanes";
  return "lanes " + std::to_string(Stride) + " bytes apart";
}

} // namespace

UncoalescedAccessCheck::UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), Model(ModelOptions::read(Context->getOptions().CheckOptions)),
      Ignored(Options.get("IgnoredKernels", "")), MinSectorRatio(2.0),
      Level(DiagnosticIDs::Warning), MisalignmentLevel(DiagnosticIDs::Remark),
      SeverityText(Options.get("Severity", "warning")),
      MisalignmentText(Options.get("MisalignmentSeverity", "note")),
      AssumedBlockSize(Options.get("AssumedBlockSize", 256U)) {
  std::string Ratio = Options.get("MinSectorRatio", "2").str();
  if (std::optional<double> R = parseRatio(Ratio)) {
    MinSectorRatio = *R;
  } else {
    configurationDiag("invalid MinSectorRatio '%0': must be a number from 1 to 1024; using 2")
        << Ratio;
    Ratio = "2";
  }
  if (auto L = parseSeverity(SeverityText, false)) {
    Level = **L;
  } else {
    configurationDiag("invalid Severity '%0': must be 'warning' or 'note'; using 'warning'")
        << SeverityText;
    SeverityText = "warning";
  }
  if (auto L = parseSeverity(MisalignmentText, true)) {
    MisalignmentLevel = *L;
  } else {
    configurationDiag("invalid MisalignmentSeverity '%0': must be 'warning', 'note' or "
                      "'none'; using 'note'")
        << MisalignmentText;
    MisalignmentText = "note";
  }
  if (AssumedBlockSize == 0 || AssumedBlockSize % 32 != 0 || AssumedBlockSize > 1024) {
    configurationDiag("invalid AssumedBlockSize %0: must be a multiple of 32 from 32 to 1024; "
                      "using 256")
        << AssumedBlockSize;
    AssumedBlockSize = 256;
  }
}

void UncoalescedAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, "MinSectorRatio", ratioText(MinSectorRatio));
  Options.store(Opts, "Severity", SeverityText);
  Options.store(Opts, "MisalignmentSeverity", MisalignmentText);
  Options.store(Opts, "AssumedBlockSize", AssumedBlockSize);
}

void UncoalescedAccessCheck::registerMatchers(MatchFinder *Finder) {
  // The model finds the kernels; one match tells the check which TU it is in.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                     this);
}

void UncoalescedAccessCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

void UncoalescedAccessCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  ASTContext &C = *Ctx;
  Ctx = nullptr;
  const SourceManager &SM = C.getSourceManager();
  TuModel &M = TuModel::of(C, nullptr, Model);
  std::set<SourceLocation> Reported;
  std::set<const FunctionDecl *> AssumedSaid;
  for (const AccessModel &A : M.accesses(AssumedBlockSize)) {
    const MemoryAccessSite &S = A.Site;
    if (S.Space != MemorySpace::Global || Ignored.ignores(A.Kernel->Name))
      continue;
    std::optional<size_t> W = A.worst();
    if (!W)
      continue; // not evaluable: never guessed
    const AccessShape &Shape = A.PerShape[*W];
    const AccessFigures &F = Shape.Figures;
    const WarpExecution &X = F.Typical;
    SourceLocation Loc = SM.getExpansionLoc(S.Access->getBeginLoc());
    if (Loc.isInvalid() || Reported.count(Loc))
      continue;
    // Contiguous lanes with gaps only where lanes take no part (a divergent branch): the
    // layout is right, the divergence is warplint-divergent-branch's finding.
    // Lanes that mostly share an address (one value per row of a 2-D block: a halo
    // column) are broadcasts per row: nothing to coalesce.
    bool Uncoalesced = X.ratio() >= MinSectorRatio && !X.Contiguous &&
                       !(X.LaneStride && *X.LaneStride == 0);
    if (!Uncoalesced && !(F.Misalignment && MisalignmentLevel))
      continue;
    Reported.insert(Loc);
    std::string Text = accessText(S, C);
    M.reportAccess(A, *W, std::string(getID()), Text, !Uncoalesced);
    const wl::memory::MemoryModel &MM = F.Model;
    if (MM.Amd) {
      // AMD: the wavefront and the vector L1 cache line, both named.
      if (Uncoalesced) {
        diag(Loc, "each wavefront's (%0 lanes) %1 of '%2' touches %3 %4-byte cache lines for "
                  "%5 bytes (ideal %6): %7 (%8)",
             Level)
            << MM.Lanes << accessVerb(S) << Text << X.Sectors.Sectors << MM.SegmentBytes
            << unsigned(X.Sectors.BytesRequested) << X.Sectors.IdealSectors << reason(S, X)
            << shapeText(A, Shape, X) << S.Access->getSourceRange();
      } else {
        diag(Loc, "each wavefront's (%0 lanes) %1 of '%2' touches %3 %4-byte cache lines for "
                  "%5 bytes (ideal %6): the lanes start %7 bytes past a cache-line boundary "
                  "(%8)",
             *MisalignmentLevel)
            << MM.Lanes << accessVerb(S) << Text << X.Sectors.Sectors << MM.SegmentBytes
            << unsigned(X.Sectors.BytesRequested) << X.Sectors.IdealSectors
            << unsigned(*F.Misalignment) << shapeText(A, Shape, X)
            << S.Access->getSourceRange();
        diag(S.ObjectDecl->getLocation(),
             "assuming '%0' is %1-byte aligned (hipMalloc returns 256-byte aligned memory); "
             "only its base alignment is not known here",
             DiagnosticIDs::Note)
            << S.Object << MM.SegmentBytes;
        continue;
      }
    } else if (Uncoalesced) {
      diag(Loc, "each warp's %0 of '%1' touches %2 sectors for %3 bytes (ideal %4): %5 (%6)",
           Level)
          << accessVerb(S) << Text << X.Sectors.Sectors << unsigned(X.Sectors.BytesRequested)
          << X.Sectors.IdealSectors << reason(S, X) << shapeText(A, Shape, X)
          << S.Access->getSourceRange();
    } else {
      diag(Loc, "each warp's %0 of '%1' touches %2 sectors for %3 bytes (ideal %4): the lanes "
                "start %5 bytes past a 32-byte sector boundary (%6)",
           *MisalignmentLevel)
          << accessVerb(S) << Text << X.Sectors.Sectors << unsigned(X.Sectors.BytesRequested)
          << X.Sectors.IdealSectors << unsigned(*F.Misalignment) << shapeText(A, Shape, X)
          << S.Access->getSourceRange();
      diag(S.ObjectDecl->getLocation(),
           "assuming '%0' is 32-byte aligned (cudaMalloc returns 256-byte aligned memory); "
           "only its base alignment is not known here",
           DiagnosticIDs::Note)
          << S.Object;
      continue;
    }
    if (F.Worst.Sectors.Sectors > X.Sectors.Sectors)
      diag(Loc, "up to %0 %select{sectors|cache lines}4 for %1 bytes in %select{warp|wavefront}4 %2 (%3)", DiagnosticIDs::Note)
          << F.Worst.Sectors.Sectors << unsigned(F.Worst.Sectors.BytesRequested) << F.Worst.Warp
          << shapeText(A, Shape, F.Worst) << unsigned(MM.Amd);
    if (A.AssumedShape && AssumedSaid.insert(A.Kernel->Decl).second)
      diag(A.Kernel->Decl->getLocation(),
           "no launch of '%0' with a known block shape in this translation unit; assumed a "
           "1-D block of %1 threads",
           DiagnosticIDs::Note)
          << A.Kernel->Name << AssumedBlockSize;
    for (const AccessShape &Other : A.PerShape)
      if (&Other != &Shape && Other.Figures.Evaluated && Other.Launch.isValid() &&
          Other.Figures.Typical.ratio() < MinSectorRatio)
        diag(Other.Launch, "with the block %0 of this launch the access touches %1 "
                           "%select{sectors|cache lines}3 for %2 bytes",
             DiagnosticIDs::Note)
            << Other.Shape.str() << Other.Figures.Typical.Sectors.Sectors
            << unsigned(Other.Figures.Typical.Sectors.BytesRequested) << unsigned(MM.Amd);
  }
}

} // namespace clang::tidy::warplint
