//===- UncoalescedAccessCheck.cpp - warplint-uncoalesced-access ------------===//
#include "checks/UncoalescedAccessCheck.h"
#include "checks/AnalysisNames.h"

#include "checks/MemoryAccessReport.h"
#include "checks/TrafficShare.h"
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
      if (V.Typical.hasLanePairs() && V.Typical.LaneStride != X.LaneStride)
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

} // namespace

/// The layout rule: every place's addresses, over the block's threads, its loops' trips
/// and the blocks that share its object, lie a whole number of strides apart with the
/// stride at least a segment (AccessFigures::FootprintStride), in every evaluated shape:
/// the data the kernel touches through them is itself sparse, so each element costs a
/// segment whatever thread touches it; and that stride is a run-time value's (a leading
/// dimension no launch here fixes: the caller's layout). Or the stride is under a segment
/// and more than an element, a kernel parameter decides it (one no launch fixes, or one
/// the launches pass: a convolution's stride), and each warp touches no more sectors than
/// its elements span at that spacing (one more for alignment): the data is that sparse
/// whatever thread reads which. The note says the stride; empty when not so.
static std::string layoutDemotion(const std::vector<const AccessModel *> &Places) {
  std::optional<int64_t> Stride;
  std::string Names;
  bool PerBlock = true;
  // Sparse under a segment (one element in every few, a spacing a kernel parameter
  // decides, a passed one too: vol2col's stride and dilation): a note only where the
  // sectors a warp touches are no more than its elements need at that spacing.
  std::optional<bool> Sparse;
  std::optional<int64_t> Gap; ///< the places' offset modulo the spacing, when under a segment
  for (const AccessModel *A : Places) {
    bool Any = false;
    for (const AccessShape &S : A->PerShape) {
      const AccessFigures &F = S.Figures;
      if (!F.Evaluated || F.Typical.ratio() <= 1.0)
        continue;
      int64_t Seg = F.Model.SegmentBytes ? F.Model.SegmentBytes : 32;
      if (!F.FootprintStride || *F.FootprintStride <= int64_t(A->Site.Bytes) ||
          F.FootprintNames.empty())
        return "";
      const bool Under = *F.FootprintStride < Seg;
      if (Sparse && *Sparse != Under)
        return "";
      Sparse = Under;
      if (Under) {
        // The places of one finding must leave the same gaps (the same offset modulo the
        // spacing): channels read in statements of their own (`in[4 * x + 0]`, `in[4 * x +
        // 1]`, ...) fill each other's gaps, a dense footprint that a vector load serves.
        int64_t Residue = ((F.Typical.FirstOffset % *F.FootprintStride) + *F.FootprintStride) %
                          *F.FootprintStride;
        if (Gap && *Gap != Residue)
          return "";
        Gap = Residue;
        const auto &X = F.Typical.Sectors;
        uint64_t Spanned = X.BytesRequested * uint64_t(*F.FootprintStride) / A->Site.Bytes;
        if (X.Sectors > (Spanned + Seg - 1) / Seg + 1)
          return "";
      }
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
  std::string Over = PerBlock ? "a block's threads and loop trips (each block reaches an "
                                "object of its own)"
                              : "the block's threads, the loop trips and the blocks";
  if (*Sparse)
    return "every address " + std::string(Places.size() == 1 ? "it touches" : "they touch") +
           ", over " + Over + ", is a multiple of " + std::to_string(*Stride) +
           " bytes from the others" + Elements + ", a spacing the parameter" +
           (Names.find(',') != std::string::npos ? "s " : " ") + Names +
           " decide" + (Names.find(',') != std::string::npos ? "" : "s") +
           " (the problem's stride, not the kernel's layout): the data read is itself that "
           "sparse, so no thread mapping touches fewer " + Unit +
           "s for it than each warp does: the spacing, not the thread mapping, sets the cost";
  return "every address " + std::string(Places.size() == 1 ? "it touches" : "they touch") +
         ", over " + Over + ", is a multiple of " + std::to_string(*Stride) +
         " bytes from the others" + Elements +
         ", a stride the run-time " + Names +
         " decides (the caller's layout): no thread mapping puts two of its elements in one " + Unit +
         ", so it already costs one " + Unit +
         " per element, the least for that data: the layout, not the thread mapping, sets "
         "the cost";
}

/// The places of one finding as pieces of each lane's own contiguous chunk, one statement
/// a piece: in every evaluated shape their typical executions are of one warp with one
/// stride between lanes, the pieces within one stride. Span: the chunk's bytes (from the
/// lowest piece's first byte to the highest's last); Tiled: the pieces cover it with no
/// gap; Aligned: it starts at a multiple of its size (object bases taken as aligned);
/// Sectors and Ideal: what the warp's pieces touch together, and what their bytes need.
struct ChunkFacts {
  int64_t Span = 0, Stride = 0, Start = 0;
  unsigned Sectors = 0, Ideal = 0;
  bool Tiled = true, Aligned = true;
};
static std::optional<ChunkFacts> chunkOf(const std::vector<const AccessModel *> &Places) {
  if (Places.size() < 2)
    return std::nullopt;
  std::optional<ChunkFacts> Out;
  const size_t Shapes = Places.front()->PerShape.size();
  for (size_t W = 0; W < Shapes; ++W) {
    const AccessFigures &F0 = Places.front()->PerShape[W].Figures;
    if (!F0.Evaluated || F0.Typical.ratio() <= 1.0)
      continue;
    const WarpExecution &X0 = F0.Typical;
    if (!X0.LaneStride || F0.Model.Amd || *X0.LaneStride <= 0)
      return std::nullopt;
    const int64_t S = *X0.LaneStride;
    const int64_t Seg = F0.Model.SegmentBytes ? F0.Model.SegmentBytes : 32;
    // Every piece's bytes for lanes 0-31, as offsets from the first piece's first lane.
    std::set<int64_t> Touched, Bytes, Lane0;
    int64_t Lo = 0, Hi = 0;
    for (const AccessModel *A : Places) {
      if (A->PerShape.size() != Shapes)
        return std::nullopt;
      const AccessFigures &F = A->PerShape[W].Figures;
      const WarpExecution &X = F.Typical;
      if (!F.Evaluated || !X.LaneStride || *X.LaneStride != S || X.Warp != X0.Warp ||
          X.Values != X0.Values || X.Sectors.BytesRequested != 32 * A->Site.Bytes)
        return std::nullopt;
      int64_t Off = X.FirstOffset - X0.FirstOffset;
      Lo = std::min(Lo, Off);
      Hi = std::max(Hi, Off + int64_t(A->Site.Bytes));
      for (int64_t B = 0; B < int64_t(A->Site.Bytes); ++B)
        Lane0.insert(Off + B);
      for (int64_t L = 0; L < 32; ++L)
        for (int64_t B = 0; B < int64_t(A->Site.Bytes); ++B) {
          int64_t At = X0.FirstOffset + Off + L * S + B;
          Bytes.insert(At);
          Touched.insert(At >= 0 ? At / Seg : (At - Seg + 1) / Seg);
        }
    }
    // A lane's pieces within one stride: one chunk per lane.
    if (Hi - Lo > S)
      return std::nullopt;
    ChunkFacts C;
    C.Span = Hi - Lo;
    C.Stride = S;
    C.Sectors = unsigned(Touched.size());
    C.Ideal = unsigned((Bytes.size() + Seg - 1) / Seg);
    C.Tiled = int64_t(Lane0.size()) == C.Span;
    C.Start = X0.FirstOffset + Lo;
    // Every lane's chunk, not lane 0's alone (lanes 12 bytes apart put odd lanes' 8-byte
    // chunks off an 8-byte boundary).
    C.Aligned = C.Span > 0 && C.Start % C.Span == 0 && C.Stride % C.Span == 0;
    if (Out && (Out->Span != C.Span || Out->Stride != C.Stride || Out->Start != C.Start))
      return std::nullopt;
    if (Out) {
      C.Tiled &= Out->Tiled;
      C.Aligned &= Out->Aligned;
      C.Sectors = std::max(C.Sectors, Out->Sectors);
      C.Ideal = std::min(C.Ideal, Out->Ideal);
    }
    Out = C;
  }
  return Out;
}

/// The chunk rule: the places of one finding are pieces of each lane's own contiguous
/// chunk (chunkOf) that together touch no more sectors than their bytes need (each sector
/// one piece leaves, another uses): the memory traffic over all of them is what the bytes
/// need, and what is left is instructions. Such a finding is a note when no access the
/// code could use instead is wider than its pieces:
/// - pieces of 16 bytes each, a chunk over 16 bytes (ccminer's merge kernels copy a
///   64-byte hash per thread as four uint4s);
/// - narrower pieces that cover every byte of a chunk no vector access serves (a point's
///   x, y and z in an xyz array of floats or doubles: 12 or 24 bytes, which no aligned
///   8- or 16-byte access tiles; deepmd-kit, specfem3d): only a change of layout helps.
/// Pieces a wider access serves (a 16-byte pixel read as four floats, a 64-byte hash
/// stored as eight uint64s, a complex double's halves) stay warnings: the vector access is
/// the fix, and chunkAdvice names it. Pieces that leave bytes of their chunk unread (a
/// 64-byte structure read a field at a time, HeCBench's interleave benchmark) stay
/// warnings too. The note says why; empty when not so.
static std::string chunkDemotion(const std::vector<const AccessModel *> &Places) {
  unsigned Widest = 0;
  for (const AccessModel *A : Places)
    Widest = std::max(Widest, A->Site.Bytes);
  std::optional<ChunkFacts> C = chunkOf(Places);
  if (!C || C->Sectors > C->Ideal + 1)
    return "";
  const std::string Head = "together, the " + std::to_string(Places.size()) +
                           " places are pieces of each lane's own " + std::to_string(C->Span) +
                           "-byte chunk (lanes " + std::to_string(C->Stride) +
                           " bytes apart): they touch " + std::to_string(C->Sectors) +
                           " sectors for their " + std::to_string(32 * C->Span) +
                           " bytes per warp (ideal " + std::to_string(C->Ideal) + "): ";
  const bool AllWide = llvm::all_of(Places, [](const AccessModel *A) { return A->Site.Bytes >= 16; });
  if (AllWide && C->Span > 16)
    return Head + "the sectors one piece touches are those the others use, so the memory "
                  "traffic over all of them is what the bytes need; each instruction still "
                  "makes more L1 requests than a coalesced one, and no single access is wider "
                  "than 16 bytes: staging the chunks through shared memory, or lanes copying "
                  "them together, would coalesce each instruction";
  if (AllWide || !C->Tiled)
    return "";
  // A wider access that tiles the chunk from an aligned start would serve it.
  for (int64_t W : {int64_t(8), int64_t(16)})
    if (W > int64_t(Widest) && C->Span % W == 0 && C->Start % W == 0 && C->Stride % W == 0)
      return "";
  return Head + "every byte of the chunk is read or written by the same thread, so the "
                "pieces use each other's sectors and the memory traffic over all of them is "
                "what the bytes need; no aligned 8- or 16-byte access tiles a " +
         std::to_string(C->Span) +
         "-byte chunk, so only another layout (one array per component) would coalesce "
         "each instruction";
}

/// The pieces of a lane's 8- or 16-byte chunk, aligned to its size and covered with no
/// gap (HeCBench's tonemapping reads an RGBA pixel as `in[4 * x + 0]` .. `+ 3`): one
/// vector access of the chunk does their work in one instruction. Empty otherwise.
static std::string chunkAdvice(const std::vector<const AccessModel *> &Places) {
  std::optional<ChunkFacts> C = chunkOf(Places);
  if (!C || (C->Span != 8 && C->Span != 16) || !C->Tiled || !C->Aligned)
    return "";
  const MemoryAccessSite &S = Places.front()->Site;
  return "together, the " + std::to_string(Places.size()) + " " +
         (S.Store && !S.Load ? std::string("stores") : std::string("loads")) +
         " move each lane's " + std::to_string(C->Span) +
         " contiguous bytes: one " + std::to_string(C->Span) +
         "-byte vector access of the chunk (" +
         (C->Span == 16 ? "float4, int4 or uint4" : "float2, int2 or uint2") +
         ", through a pointer cast to it) would do it in one instruction";
}

std::string UncoalescedAccessCheck::groupAdvice(const std::vector<const AccessModel *> &Places) {
  return chunkAdvice(Places);
}

std::string UncoalescedAccessCheck::groupDemotion(const std::vector<const AccessModel *> &Places,
                                                  const FunctionDecl *Kernel, ASTContext &C) {
  if (std::string Why = layoutDemotion(Places); !Why.empty())
    return Why;
  if (std::string Why = chunkDemotion(Places); !Why.empty())
    return Why;
  if (std::string Why = dataMatchDemotion(Places, C); !Why.empty())
    return Why;
  if (MinTrafficShare <= 0 || !Kernel || !Kernel->hasBody())
    return "";
  return trafficShareDemotion(Places, Kernel, C, MemorySpace::Global, MinTrafficShare,
                              MinTrafficShareText, {}, /*NeedsMain=*/false,
                              Tu ? &Tu->kernelAnalysis(Kernel).Known : nullptr);
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
  // Lanes whose bytes together are one gapless run (a small table read by groups of
  // lanes) waste at most the sector where the run starts: misalignment, not a stride.
  bool Uncoalesced = X.ratio() >= MinRatio && !X.Contiguous && !X.Gapless &&
                     !(X.LaneStride && *X.LaneStride == 0);
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
  // Lanes whose bytes together are one gapless run (a small table read by groups of
  // lanes) waste at most the sector where the run starts: misalignment, not a stride.
  bool Uncoalesced = X.ratio() >= MinRatio && !X.Contiguous && !X.Gapless &&
                     !(X.LaneStride && *X.LaneStride == 0);
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
