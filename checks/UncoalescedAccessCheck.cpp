//===- UncoalescedAccessCheck.cpp - warplint-uncoalesced-access ------------===//
#include "checks/UncoalescedAccessCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/MemoryAccessReport.h"
#include "model/TuModel.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace wl = ::warplint;

namespace clang::tidy::warplint {

namespace {

/// Why the lanes of the quoted warp touch the sectors they do.
std::string reasonAt(const MemoryAccessSite &S, const WarpExecution &X);

/// The reason of the typical execution; a stride that changes with the sampled run-time
/// values is said to be theirs, not the sample's.
std::string reason(const MemoryAccessSite &S, const WarpExecution &X, const AccessFigures &F) {
  if (&X == &F.Typical && X.LaneStride && F.ByValue.size() > 1)
    for (const ValueFigure &V : F.ByValue)
      if (V.Typical.LaneStride != X.LaneStride)
        return "a stride between lanes that " + F.SampledNames + " decides (" + reasonAt(S, X) +
               " with " + X.Values + ")";
  return reasonAt(S, X);
}

std::string reasonAt(const MemoryAccessSite &S, const WarpExecution &X) {
  if (!X.LaneStride)
    return "the lanes' addresses do not follow one stride";
  int64_t Stride = *X.LaneStride;
  if (!S.ElementName.empty())
    return "lanes " + std::to_string(Stride) + " bytes apart, each reading " +
           (S.Bytes == 1 ? std::string("1 byte") : std::to_string(S.Bytes) + " bytes") + " of a " +
           std::to_string(S.ElementBytes) + "-byte '" + S.ElementName +
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

/// The trip count of a loop whose count is not a compile-time constant, in the traffic
/// share: small, so that one access in such a loop does not outweigh one outside it
/// sixteenfold by itself (1 + 8 accesses: a share of one in nine).
constexpr unsigned UnknownTrips = 8;

/// `for (V = A; V op B; V step)` with A, B and the step compile-time constants (in the
/// instantiation): its trip count (at least 1).
std::optional<double> constantTrips(const ForStmt *F, const ASTContext &C) {
  const VarDecl *V = nullptr;
  const Expr *Init = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
    V = dyn_cast<VarDecl>(DS->getSingleDecl());
    Init = V ? V->getInit() : nullptr;
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign) {
    if (auto *DR = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      V = dyn_cast<VarDecl>(DR->getDecl());
    Init = B->getRHS();
  }
  if (!V || !Init)
    return std::nullopt;
  auto Const = [&](const Expr *E) -> std::optional<int64_t> {
    if (!E || E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    if (std::optional<llvm::APSInt> R = E->getIntegerConstantExpr(C))
      return R->getExtValue();
    return std::nullopt;
  };
  auto IsV = [&](const Expr *E) {
    auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  };
  std::optional<int64_t> Start = Const(Init);
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                             : nullptr);
  if (!Start || !Cond)
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> Bound;
  if (IsV(Cond->getLHS())) {
    Bound = Const(Cond->getRHS());
  } else if (IsV(Cond->getRHS())) {
    Bound = Const(Cond->getLHS());
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Bound)
    return std::nullopt;
  std::optional<int64_t> Step;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && IsV(U->getSubExpr()))
    Step = U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : std::optional<int64_t>();
  else if (auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc); B && IsV(B->getLHS())) {
    if (std::optional<int64_t> K = Const(B->getRHS()))
      Step = B->getOpcode() == BO_AddAssign   ? *K
             : B->getOpcode() == BO_SubAssign ? -*K
                                              : std::optional<int64_t>();
  }
  if (!Step || *Step == 0)
    return std::nullopt;
  double Span = 0;
  switch (Op) {
  case BO_LT: Span = double(*Bound - *Start); break;
  case BO_LE: Span = double(*Bound - *Start + 1); break;
  case BO_GT: Span = double(*Start - *Bound); break;
  case BO_GE: Span = double(*Start - *Bound + 1); break;
  case BO_NE: Span = double(*Bound - *Start); break;
  default: return std::nullopt;
  }
  double S = double(*Step);
  if ((Op == BO_GT || Op == BO_GE) == (S > 0) && Op != BO_NE)
    return std::nullopt; // a step away from the bound
  if (Op == BO_NE && Span / S < 0)
    return std::nullopt;
  return std::max(1.0, std::ceil(std::fabs(Span / S)));
}

/// Whether a pointer or array expression reaches global memory: not a __shared__ or
/// __constant__ object, a local array, or a struct passed by value; a kernel's pointer
/// parameters, pointers loaded from memory and __device__ arrays do.
bool reachesGlobal(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return true;
  E = E->IgnoreParenCasts();
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(DR->getDecl());
    if (!VD || VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<CUDAConstantAttr>())
      return false;
    QualType T = VD->getType();
    if (T->isArrayType())
      return VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>();
    if (T->isPointerType()) {
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
        return reachesGlobal(VD->getInit(), Depth + 1);
      return true;
    }
    return !VD->hasLocalStorage(); // a local struct or scalar: not memory the check counts
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return reachesGlobal(B->getRHS(), Depth + 1);
    return reachesGlobal(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS(),
                         Depth + 1);
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->isIncrementDecrementOp())
      return reachesGlobal(U->getSubExpr(), Depth + 1);
    if (U->getOpcode() == UO_AddrOf) {
      const Expr *Sub = U->getSubExpr()->IgnoreParens();
      if (auto *A = dyn_cast<ArraySubscriptExpr>(Sub))
        return reachesGlobal(A->getBase(), Depth + 1);
      if (auto *M = dyn_cast<MemberExpr>(Sub))
        return reachesGlobal(M->getBase(), Depth + 1);
      if (auto *D = dyn_cast<UnaryOperator>(Sub); D && D->getOpcode() == UO_Deref)
        return reachesGlobal(D->getSubExpr(), Depth + 1);
      return false; // the address of a local
    }
    return true;
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) // a row of an array; else a loaded pointer
    return A->getType()->isArrayType() ? reachesGlobal(A->getBase(), Depth + 1) : true;
  if (auto *M = dyn_cast<MemberExpr>(E)) // an array field where its struct is; else a pointer
    return M->getType()->isArrayType() ? M->isArrow() || reachesGlobal(M->getBase(), Depth + 1)
                                       : true;
  if (auto *CO = dyn_cast<ConditionalOperator>(E))
    return reachesGlobal(CO->getTrueExpr(), Depth + 1);
  return true;
}

/// A kernel's global loads and stores, each with the times a thread runs it: the product
/// of the trip counts of the loops around it in the kernel (a constant count where the
/// loop has one, UnknownTrips otherwise). Calls are not followed: the accesses of device
/// functions the kernel calls are not counted (the shares are upper bounds then).
class TrafficCount {
public:
  explicit TrafficCount(const ASTContext &C) : C(C) {}
  void walk(const Stmt *S, double Times, bool AddressOnly = false) {
    if (!S)
      return;
    if (isa<LambdaExpr>(S))
      return;
    if (auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit(), Times);
      double T = Times * constantTrips(F, C).value_or(UnknownTrips);
      walk(F->getCond(), T);
      walk(F->getInc(), T);
      walk(F->getBody(), T);
      return;
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      for (const Stmt *Child : S->children())
        walk(Child, Times * UnknownTrips);
      return;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E) {
      for (const Stmt *Child : S->children())
        walk(Child, Times);
      return;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      walk(U->getSubExpr(), Times, /*AddressOnly=*/true);
      return;
    }
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (!AddressOnly && !A->getType()->isArrayType())
        count(E, A->getBase(), Times);
      walk(A->getBase(), Times, /*AddressOnly=*/true);
      walk(A->getIdx(), Times);
      return;
    }
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow()) {
        if (!AddressOnly && !M->getType()->isArrayType())
          count(E, M->getBase(), Times);
        walk(M->getBase(), Times);
        return;
      }
      // `a[i].x`, `p->s.x`, `(*p).x`: a field of an element in memory.
      const Expr *Base = M->getBase()->IgnoreParens();
      for (auto *Inner = dyn_cast<MemberExpr>(Base); Inner && !Inner->isArrow();
           Inner = dyn_cast<MemberExpr>(Base))
        Base = Inner->getBase()->IgnoreParens();
      if (!AddressOnly && !M->getType()->isArrayType()) {
        if (auto *A = dyn_cast<ArraySubscriptExpr>(Base))
          count(E, A->getBase(), Times);
        else if (auto *P = dyn_cast<MemberExpr>(Base); P && P->isArrow())
          count(E, P->getBase(), Times);
        else if (auto *D = dyn_cast<UnaryOperator>(Base); D && D->getOpcode() == UO_Deref)
          count(E, D->getSubExpr(), Times);
      }
      walk(M->getBase(), Times, /*AddressOnly=*/true);
      return;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
      if (!AddressOnly && !U->getType()->isArrayType() && !U->getType()->isFunctionType())
        count(E, U->getSubExpr(), Times);
      walk(U->getSubExpr(), Times);
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child, Times);
  }

  /// Times a thread runs each access expression walked (global or not).
  std::map<const Expr *, double> TimesOf;
  std::set<const Expr *> Global; ///< the accesses that reach global memory
  double Total = 0;              ///< their runs per thread, all together
  double Most = 0;               ///< the runs per thread of the most repeated one

private:
  void count(const Expr *E, const Expr *Pointer, double Times) {
    TimesOf[E] = Times;
    if (!reachesGlobal(Pointer))
      return;
    Global.insert(E);
    Total += Times;
    Most = std::max(Most, Times);
  }
  const ASTContext &C;
};

/// A count of runs per thread as the message writes it: "2", "16.5".
std::string timesText(double V) {
  if (V == std::floor(V) && V < 1e15)
    return std::to_string(int64_t(V));
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f", V);
  return Buf;
}

/// A share as a percentage with one decimal: "4.3%".
std::string percentText(double Fraction) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", Fraction * 100);
  return Buf;
}

} // namespace

/// The layout rule: every place's addresses, over the block's threads, its loops' trips
/// and the blocks that share its object, lie a whole number of strides apart with the
/// stride at least a segment (AccessFigures::FootprintStride), in every evaluated shape:
/// the data the kernel touches through them is itself sparse, so each element costs a
/// segment whatever thread touches it; and that stride is a run-time value's (a leading
/// dimension no launch here fixes: the caller's layout). The note says the stride; empty
/// when not so.
static std::string layoutDemotion(const std::vector<const AccessModel *> &Places) {
  std::optional<int64_t> Stride;
  std::string Names;
  bool PerBlock = true;
  for (const AccessModel *A : Places) {
    bool Any = false;
    for (const AccessShape &S : A->PerShape) {
      const AccessFigures &F = S.Figures;
      if (!F.Evaluated || F.Typical.ratio() <= 1.0)
        continue;
      int64_t Seg = F.Model.SegmentBytes ? F.Model.SegmentBytes : 32;
      if (!F.FootprintStride || *F.FootprintStride < Seg ||
          *F.FootprintStride <= int64_t(A->Site.Bytes))
        return "";
      Stride = Stride ? std::min(*Stride, *F.FootprintStride) : *F.FootprintStride;
      if (Names.empty())
        Names = F.FootprintNames;
      Any = true;
    }
    if (!Any)
      return "";
    PerBlock &= A->Site.BlockObject;
  }
  if (!Stride)
    return "";
  const AccessModel &First = *Places.front();
  const AccessFigures &F = First.PerShape.front().Figures;
  std::string Unit = F.Model.Amd ? "cache line" : "sector";
  std::string Elements;
  if (*Stride % First.Site.Bytes == 0)
    Elements = " (one " + plural(First.Site.TypeName, 1) + " in every " +
               std::to_string(*Stride / First.Site.Bytes) + ")";
  return "every address " + std::string(Places.size() == 1 ? "it touches" : "they touch") +
         ", over " + (PerBlock ? "a block's threads and loop trips (each block reaches an "
                                 "object of its own)"
                               : "the block's threads, the loop trips and the blocks") +
         ", is a multiple of " + std::to_string(*Stride) + " bytes from the others" + Elements +
         ", a stride the run-time " + Names +
         " decides (the caller's layout): no thread mapping puts two of its elements in one " + Unit +
         ", so it already costs one " + Unit +
         " per element, the least for that data: the layout, not the thread mapping, sets "
         "the cost";
}

std::string UncoalescedAccessCheck::groupDemotion(const std::vector<const AccessModel *> &Places,
                                                  const FunctionDecl *Kernel, ASTContext &C) {
  if (std::string Why = layoutDemotion(Places); !Why.empty())
    return Why;
  if (MinTrafficShare <= 0 || !Kernel || !Kernel->hasBody())
    return "";
  TrafficCount T(C);
  T.walk(Kernel->getBody(), 1);
  double Own = 0, OwnMost = 0, Total = T.Total;
  for (const AccessModel *A : Places) {
    auto It = T.TimesOf.find(A->Site.Access);
    if (It == T.TimesOf.end())
      return ""; // not a place the count knows: no share to say
    Own += It->second;
    OwnMost = std::max(OwnMost, It->second);
    if (!T.Global.count(A->Site.Access))
      Total += It->second;
  }
  // The places must run less often than the kernel's most repeated access (a kernel of
  // straight-line accesses has no main work to set them beside), and make a small share.
  if (Total <= 0 || !(OwnMost < T.Most) || Own / Total >= MinTrafficShare)
    return "";
  std::string Runs = OwnMost == 1 ? std::string("once per thread, outside every loop")
                                  : "at most " + timesText(OwnMost) + " times per thread";
  return std::string(Places.size() == 1 ? "it runs " : "they run ") + Runs +
         (Places.size() == 1 ? ", and makes " : ", and make ") +
         timesText(Own) + " of the kernel's " + timesText(Total) +
         " global accesses per thread (" + percentText(Own / Total) + ", under MinTrafficShare " +
         MinTrafficShareText + "%; loops counted by their trip counts, " +
         std::to_string(UnknownTrips) +
         " trips where a count is not a constant): a small share of the kernel's memory "
         "traffic beside the accesses in its loops";
}

UncoalescedAccessCheck::UncoalescedAccessCheck(StringRef Name, ClangTidyContext *Context)
    : MemoryAccessCheck(Name, Context, MemorySpace::Global, "MinSectorRatio"),
      MinTrafficShareText("6.25"), MinTrafficShare(readCheckedOption(
          Options, "MinTrafficShare", "6.25", parsePercent,
          "invalid %0 '%1' for %2: a percentage 0-100; using %3", getID(),
          [&](StringRef M) { return configurationDiag(M); }, &MinTrafficShareText)),
      Misalignment(Options.get<FindingSeverity>("MisalignmentSeverity", FindingSeverity::Note)),
      MisalignmentLevel(severityLevel(Misalignment)) {}

void UncoalescedAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  MemoryAccessCheck::storeOptions(Opts);
  Options.store(Opts, "MinTrafficShare", MinTrafficShareText);
  Options.store(Opts, "MisalignmentSeverity", Misalignment);
}

MemoryAccessCheck::Verdict UncoalescedAccessCheck::judge(const AccessModel &A, size_t W,
                                                          ASTContext &) {
  const AccessFigures &F = A.PerShape[W].Figures;
  const WarpExecution &X = F.Typical;
  Verdict V;
  // Contiguous lanes with gaps only where lanes take no part (a divergent branch): the
  // layout is right, the divergence is warplint-divergent-branch's finding.
  // Lanes that mostly share an address (one value per row of a 2-D block: a halo
  // column) are broadcasts per row: nothing to coalesce.
  bool Uncoalesced =
      X.ratio() >= MinRatio && !X.Contiguous && !(X.LaneStride && *X.LaneStride == 0);
  if (Uncoalesced) {
    V.Report = true;
    V.Level = Level;
  } else if (F.Misalignment && MisalignmentLevel) {
    V.Report = true;
    V.Level = *MisalignmentLevel;
    V.Misaligned = true;
  }
  V.Cause = std::to_string(X.Sectors.Sectors) + "/" + std::to_string(X.Sectors.BytesRequested) +
            "/" + std::to_string(X.Sectors.IdealSectors) + "/" + reason(A.Site, X, F) + "/" +
            A.PerShape[W].Shape.str() + "/" + std::to_string(A.Site.Bytes) +
            (V.Misaligned ? "/misaligned " + std::to_string(*F.Misalignment) : "");
  return V;
}

std::string UncoalescedAccessCheck::figureText(const WarpExecution &X,
                                               const AccessFigures &F) const {
  return std::to_string(X.Sectors.Sectors) + (F.Model.Amd ? " cache lines" : " sectors") +
         " for " + std::to_string(X.Sectors.BytesRequested) + " bytes (ideal " +
         std::to_string(X.Sectors.IdealSectors) + ")";
}

void UncoalescedAccessCheck::report(const AccessModel &A, size_t W, SourceLocation Loc,
                                    ASTContext &C, const Group &G) {
  const MemoryAccessSite &S = A.Site;
  const AccessShape &Shape = A.PerShape[W];
  const AccessFigures &F = Shape.Figures;
  const WarpExecution &X = F.Typical;
  bool Uncoalesced =
      X.ratio() >= MinRatio && !X.Contiguous && !(X.LaneStride && *X.LaneStride == 0);
  std::string Text = accessText(S, C);
  const wl::memory::MemoryModel &MM = F.Model;
  if (MM.Amd) {
    // AMD: the wavefront and the vector L1 cache line, both named.
    if (Uncoalesced) {
      diag(Loc,
           "each wavefront's (%0 lanes) %1 of '%2' touches %3 %4-byte cache lines for "
           "%5 bytes (ideal %6): %7 (%8)%9",
           G.Level)
          << MM.Lanes << accessVerb(S) << Text << X.Sectors.Sectors << MM.SegmentBytes
          << unsigned(X.Sectors.BytesRequested) << X.Sectors.IdealSectors << reason(S, X, F)
          << shapeText(A, Shape, X, MinRatio) << G.More << S.Access->getSourceRange();
    } else {
      diag(Loc,
           "each wavefront's (%0 lanes) %1 of '%2' touches %3 %4-byte cache lines for "
           "%5 bytes (ideal %6): the lanes start %7 bytes past a cache-line boundary "
           "(%8)%9",
           G.Level)
          << MM.Lanes << accessVerb(S) << Text << X.Sectors.Sectors << MM.SegmentBytes
          << unsigned(X.Sectors.BytesRequested) << X.Sectors.IdealSectors
          << unsigned(*F.Misalignment) << shapeText(A, Shape, X, MinRatio) << G.More
          << S.Access->getSourceRange();
      diag(S.ObjectDecl->getLocation(),
           "assuming '%0' is %1-byte aligned (hipMalloc returns 256-byte aligned memory); "
           "only its base alignment is not known here",
           DiagnosticIDs::Note)
          << S.Object << MM.SegmentBytes;
      return;
    }
  } else if (Uncoalesced) {
    diag(Loc, "each warp's %0 of '%1' touches %2 sectors for %3 bytes (ideal %4): %5 (%6)%7",
         G.Level)
        << accessVerb(S) << Text << X.Sectors.Sectors << unsigned(X.Sectors.BytesRequested)
        << X.Sectors.IdealSectors << reason(S, X, F) << shapeText(A, Shape, X, MinRatio) << G.More
        << S.Access->getSourceRange();
  } else {
    diag(Loc,
         "each warp's %0 of '%1' touches %2 sectors for %3 bytes (ideal %4): the lanes "
         "start %5 bytes past a 32-byte sector boundary (%6)%7",
         G.Level)
        << accessVerb(S) << Text << X.Sectors.Sectors << unsigned(X.Sectors.BytesRequested)
        << X.Sectors.IdealSectors << unsigned(*F.Misalignment) << shapeText(A, Shape, X, MinRatio)
        << G.More << S.Access->getSourceRange();
    diag(S.ObjectDecl->getLocation(),
         "assuming '%0' is 32-byte aligned (cudaMalloc returns 256-byte aligned memory); "
         "only its base alignment is not known here",
         DiagnosticIDs::Note)
        << S.Object;
    return;
  }
  if (F.Worst.Sectors.Sectors > X.Sectors.Sectors)
    diag(Loc,
         "up to %0 %select{sectors|cache lines}4 for %1 bytes in %select{warp|wavefront}4 %2 (%3)",
         DiagnosticIDs::Note)
        << F.Worst.Sectors.Sectors << unsigned(F.Worst.Sectors.BytesRequested) << F.Worst.Warp
        << shapeText(A, Shape, F.Worst, MinRatio) << unsigned(MM.Amd);
  noteShapes(A, Shape, [&](const AccessShape &Other) {
    diag(Other.Launch,
         "with the block %0 of this launch the access touches %1 "
         "%select{sectors|cache lines}3 for %2 bytes",
         DiagnosticIDs::Note)
        << Other.Shape.str() << Other.Figures.Typical.Sectors.Sectors
        << unsigned(Other.Figures.Typical.Sectors.BytesRequested) << unsigned(MM.Amd);
  });
}

} // namespace clang::tidy::warplint
