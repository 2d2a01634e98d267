//===- MemoryAccessReport.cpp - what the two memory-access checks share -===//
#include "checks/MemoryAccessReport.h"
#include "checks/AnalysisNames.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

#include <map>

namespace clang::tidy::warplint {

std::string ratioText(double V) {
  if (V == double(int64_t(V)))
    return std::to_string(int64_t(V));
  std::string S = std::to_string(V); // 6 decimals: trim the zeros
  while (!S.empty() && S.back() == '0')
    S.pop_back();
  return S;
}

const char *accessVerb(const MemoryAccessSite &S) {
  return S.Load && S.Store ? "load and store" : S.Store ? "store" : "load";
}

std::string accessText(const MemoryAccessSite &S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S.Access->getSourceRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (Text.empty() || Text.size() > 60)
    Text = S.Object + "[...]";
  return Text;
}

std::string shapeText(const AccessModel &A, const AccessShape &S, const WarpExecution &X,
                      double MinRatio) {
  std::string T = "block " + S.Shape.str() + (A.AssumedShape ? " assumed" : "");
  // Sampled values that all give this figure are named together: none of them is the
  // finding (a value that changes the figure makes the finding a note instead).
  const std::vector<ValueFigure> &ByValue = S.Figures.ByValue;
  auto List = [&](bool SkipQuoted) {
    std::vector<std::string> Names;
    for (const ValueFigure &V : ByValue)
      if (!SkipQuoted || (V.Values != X.Values && V.Typical.hasLanePairs()))
        Names.push_back(V.Values);
    std::string L;
    for (size_t K = 0; K < Names.size(); ++K)
      L += (K ? K + 1 == Names.size() ? " and " : ", " : "") + Names[K];
    return L;
  };
  if (ByValue.size() > 1 && &X == &S.Figures.Typical && S.Figures.sameForAllValues())
    T += "; alike for " + List(false);
  else if (ByValue.size() > 1 && &X == &S.Figures.Typical && !S.Figures.valueDependent(MinRatio))
    T += ", " + X.Values + "; a finding for " + List(true) + " too";
  else if (!X.Values.empty())
    T += ", " + X.Values;
  return T;
}

std::string plural(const std::string &Type, int64_t N) {
  bool Word = !Type.empty() && Type.find_first_of(" :<") == std::string::npos;
  std::string Name = Word ? Type : "'" + Type + "'";
  return N == 1 ? Name : Name + "s";
}

MemoryAccessCheck::MemoryAccessCheck(StringRef Name, ClangTidyContext *Context, MemorySpace Space,
                                     StringRef RatioOption)
    : KernelModelCheck(Name, Context), MinRatio(2.0), Level(DiagnosticIDs::Warning),
      Space(Space), RatioOption(RatioOption.str()),
      Severity(Options.get<FindingSeverity>("Severity", FindingSeverity::Warning)) {
  MinRatio = readCheckedOption(Options, RatioOption, "2", parseRatio,
                               "invalid %0 '%1': must be a number from 1 to 1024; using %3",
                               getID(), [&](StringRef M) { return configurationDiag(M); });
  if (Severity == FindingSeverity::None) {
    configurationDiag("invalid Severity 'none': must be 'warning' or 'note'; using 'warning'");
    Severity = FindingSeverity::Warning;
  }
  Level = *severityLevel(Severity);
}

void MemoryAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  KernelModelCheck::storeOptions(Opts);
  Options.store(Opts, RatioOption, ratioText(MinRatio));
  Options.store(Opts, "Severity", Severity);
}

namespace {

/// "loads", "stores" or "loads and stores".
std::string pluralVerb(const MemoryAccessSite &S) {
  return S.Load && S.Store ? "loads and stores" : S.Store ? "stores" : "loads";
}

} // namespace

std::string MemoryAccessCheck::demotion(const AccessModel &A, size_t W) const {
  const AccessShape &Shape = A.PerShape[W];
  const AccessFigures &F = Shape.Figures;
  const WarpExecution &X = F.Typical;
  unsigned Lanes = F.Model.Lanes ? F.Model.Lanes : 32;
  unsigned Active = Space == MemorySpace::Shared ? X.Waves.ActiveLanes : X.Sectors.ActiveLanes;
  // A few lanes under a thread-dependent condition: the edge or halo of a tile, O(n)
  // work beside the kernel's full-warp accesses. Not a switch's case: a switch on the
  // thread hands each case a share of the lanes (every lane takes one), a partition of the
  // work, not an edge beside it.
  if (A.Site.Active && !A.Site.UnderSwitchCase && Active * 4 <= Lanes)
    return "only " + std::to_string(Active) + " of the " + std::to_string(Lanes) +
           " lanes of the warp take part (an edge or halo access beside the kernel's "
           "full-warp ones)";
  // A run-time value that no launch in the TU fixes decides the figure.
  if (F.valueDependent(MinRatio)) {
    std::string T = "the run-time value of " + F.SampledNames +
                    " decides the figure and no launch in this file passes it as a constant (";
    for (size_t K = 0; K < F.ByValue.size(); ++K) {
      const WarpExecution &X = F.ByValue[K].Typical;
      T += std::string(K ? "; " : "") + "with " + F.ByValue[K].Values + ": " + figureText(X, F);
      if (X.LaneStride)
        T += ", lanes " + std::to_string(*X.LaneStride) + " bytes apart";
    }
    return T + ")";
  }
  // A one-shot of one block (ginkgo's search tree, built by `<<<1, 256>>>` once per
  // selection): the access moves a block's worth of bytes once per launch, whatever its
  // layout (as a branch of a one-block, one-warp launch costs one warp once). Global
  // memory: its sectors are the kernel's traffic; a bank conflict is the block's own time.
  if (A.OnceInOneBlock && Space == MemorySpace::Global)
    return "every launch of '" + A.Kernel->Name + "' in this file is one block of at most " +
           std::to_string(A.OneBlockThreads) +
           " threads, outside any loop, and the access is outside the kernel's loops: each "
           "thread makes it once per launch, " +
           std::to_string(uint64_t(A.OneBlockThreads) * A.Site.Bytes) +
           " bytes in all (a one-time cost)";
  // An assumed block: the finding must hold for every block at least a warp wide in x.
  if (A.AssumedShape)
    for (const AccessShape &Alt : A.Alternatives)
      if (Alt.Figures.Evaluated && Alt.Figures.Typical.ratio() < MinRatio)
        return "no launch in this file gives the block shape, and with a block of " +
               Alt.Shape.str() + " the access " +
               (Space == MemorySpace::Shared ? "needs " : "touches ") +
               figureText(Alt.Figures.Typical, Alt.Figures);
  return "";
}

void MemoryAccessCheck::reportTu(TuModel &M, ASTContext &C) {
  const SourceManager &SM = C.getSourceManager();
  // The places to report, each once, grouped by kernel, object, file and cause in the
  // order of their first place.
  struct Place {
    const AccessModel *A;
    size_t W;
    SourceLocation Loc;
    Verdict V;
  };
  struct Finding {
    std::vector<Place> Places;
    DiagnosticIDs::Level Level;
    std::string Why; ///< why a note, when the check made it one
  };
  std::vector<Finding> Findings;
  std::map<std::string, size_t> ByKey;
  std::set<SourceLocation> Seen;
  for (const AccessModel &A : M.accesses(AssumedBlock)) {
    if (A.Site.Space != Space || Ignored.ignores(A.Kernel->Name))
      continue;
    std::optional<size_t> W = A.worst();
    if (!W)
      continue; // not evaluable: never guessed
    SourceLocation Loc = SM.getExpansionLoc(A.Site.Access->getBeginLoc());
    if (Loc.isInvalid() || Seen.count(Loc))
      continue;
    Verdict V = judge(A, *W, C);
    if (!V.Report)
      continue;
    Seen.insert(Loc);
    DiagnosticIDs::Level L = V.Level;
    std::string Why;
    if (L == DiagnosticIDs::Warning && !V.Misaligned) {
      Why = demotion(A, *W);
      // A stride the probe found a run-time value's: the check's own reading of such a
      // stride (the caller's layout) says more, where it holds.
      if (!Why.empty() && A.PerShape[*W].Figures.Probed)
        if (std::string Own = groupDemotion({&A}, A.Kernel->Decl, C); !Own.empty())
          Why = Own;
      if (!Why.empty())
        L = DiagnosticIDs::Remark;
    }
    std::string Key = std::to_string(reinterpret_cast<uintptr_t>(A.Kernel->Decl)) + "|" +
                      std::to_string(reinterpret_cast<uintptr_t>(A.Site.ObjectDecl)) + "|" +
                      std::to_string(SM.getFileID(Loc).getHashValue()) + "|" + accessVerb(A.Site) +
                      "|" + std::to_string(unsigned(L)) + "|" + V.Cause + "|" + Why;
    auto [It, New] = ByKey.try_emplace(Key, Findings.size());
    if (New)
      Findings.push_back({{}, L, Why});
    Findings[It->second].Places.push_back({&A, *W, Loc, V});
  }
  // A finding that its figures make a warning may still carry too small a share of the
  // kernel's work to be one (the check's groupDemotion).
  for (Finding &F : Findings) {
    if (F.Level != DiagnosticIDs::Warning || !F.Why.empty() || F.Places.front().V.Misaligned)
      continue;
    std::vector<const AccessModel *> Places;
    for (const Place &P : F.Places)
      Places.push_back(P.A);
    F.Why = groupDemotion(Places, F.Places.front().A->Kernel->Decl, C);
    if (!F.Why.empty())
      F.Level = DiagnosticIDs::Remark;
  }
  for (const Finding &F : Findings) {
    const Place &First = F.Places.front();
    Group G;
    G.Level = F.Level;
    G.Places = unsigned(F.Places.size());
    if (G.Places > 1)
      G.More = "; the same for " + std::to_string(G.Places - 1) + " more " +
               (G.Places == 2 ? accessVerb(First.A->Site) : pluralVerb(First.A->Site)) +
               " of '" + First.A->Site.Object + "' in '" + First.A->Kernel->Name + "'";
    report(*First.A, First.W, First.Loc, C, G);
    if (!F.Why.empty())
      diag(First.Loc, "said as a note: %0", DiagnosticIDs::Note) << F.Why;
    const bool Fields = First.A->Site.SiblingFields > 1 && !First.A->Site.MergedFields;
    std::vector<const AccessModel *> Group;
    for (const Place &P : F.Places)
      Group.push_back(P.A);
    // The fix the places share; the fields of one element have their own note (below).
    if (std::string Advice = Fields ? "" : groupAdvice(Group); !Advice.empty())
      diag(First.Loc, "%0", DiagnosticIDs::Note) << Advice;
    if (Fields)
      diag(First.Loc,
           "%0 fields of each '%1' are accessed in separate %2: one access of the whole "
           "%3-byte element (a vector type such as float2/float4, or the struct aligned to "
           "its size) would move it at once",
           DiagnosticIDs::Note)
          << First.A->Site.SiblingFields << First.A->Site.ElementName
          << pluralVerb(First.A->Site) << First.A->Site.ElementBytes;
    for (size_t K = 1; K < F.Places.size(); ++K)
      diag(F.Places[K].Loc, "the same %0 here: '%1'", DiagnosticIDs::Note)
          << accessVerb(F.Places[K].A->Site) << accessText(F.Places[K].A->Site, C);
    AccessFinding As;
    As.Finding = First.Loc;
    As.Places = G.Places;
    As.Note = F.Level != DiagnosticIDs::Warning;
    As.NoteReason = F.Why;
    for (const Place &P : F.Places)
      M.reportAccess(*P.A, P.W, std::string(getID()), accessText(P.A->Site, C), P.V.Misaligned,
                     As);
  }
}

} // namespace clang::tidy::warplint
