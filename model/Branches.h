//===- Branches.h - every thread-dependent branch of a TU with its verdict -*- C++ -*-===//
//
// The model's branch records (TuModel::branches): each thread-dependent branch of each
// kernel, evaluated lane by lane (divergence/BranchEval) for every block shape of the
// kernel's launches (or an assumed one), with the verdict the divergent-branch check
// reports: a warning, a note (and why), or silent (and the idiom or reason that keeps it
// so), and the places grouped into one finding. The check words the records; JSON, the
// report, the language server and `report --ncu` export them (records()).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "divergence/BranchEval.h"
#include "divergence/ThreadDependence.h"
#include "model/Records.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceLocation.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace warplint {
using namespace clang;

struct KernelInfo;

/// The divergent-branch check's options that decide a verdict (warplint-divergent-branch.*).
struct BranchOptions {
  bool ReportBoundsGuards = false;
  bool ReportLeaderPatterns = false;
  bool ReportTreeReductionTails = false;
  bool ReportDataDependent = false;
  bool ReportGridStrideLoops = false;
  /// The block assumed for a kernel with no launch of a known block (checks/AssumedShape.h:
  /// the check's AssumedBlockSize, else warplint.AssumedBlock, else 256 threads).
  ::warplint::divergence::BlockShape AssumedBlock{256, 1, 1};
  std::string IgnoredKernels; ///< the IgnoredKernels option (model/KernelFilter.h)
  bool operator==(const BranchOptions &O) const;
};

enum class BranchSeverity { Warning, Note, Silent };
const char *branchSeverityName(BranchSeverity S); ///< "warning", "note", "silent"

/// A branch evaluated for one block shape: the tally of the worst sample of the run-time
/// values (divergence/BranchEval.h), and the lanes of a block that take the branch.
struct BranchShape {
  ::warplint::divergence::BlockShape Shape;
  /// The first launch of the kernel with this block (invalid when the block is assumed).
  SourceLocation Launch;
  Tally Figures; ///< TrueLanesPerEnv emptied (summarised below)
  /// Lanes of a block that take the branch (the condition is true), fewest and most over
  /// the evaluated environments; -1 when none was evaluated.
  int64_t TrueLanesMin = -1, TrueLanesMax = -1;
};

/// One thread-dependent branch of one kernel (one instantiation of a template) at one
/// place, with its verdict.
struct BranchModel {
  const KernelInfo *Kernel = nullptr;
  const FunctionDecl *KernelDecl = nullptr;
  std::string KernelName; ///< as the finding names it (unqualified)
  BranchSite::KindT Kind = BranchSite::If;
  const BranchSite *Site = nullptr; ///< in the kernel's analysis (TuModel::kernelAnalysis)
  SourceLocation Loc;               ///< the condition's expansion location
  SourceRange Range;                ///< the condition as written
  std::string Condition;            ///< the condition's text
  /// The thread-dependent term the figures are of: the first one, or the terms beside a
  /// bounds guard (`ixj > i` of `ixj > i && i < n`).
  std::string Term;

  BranchSeverity Severity = BranchSeverity::Silent;
  /// Silent: the idiom or reason ("bounds guard", "tree-reduction tail", "grid-stride
  /// loop", "leader", "warp-uniform", "data-dependent", "not evaluable", ...).
  std::string Idiom;
  /// The condition depends on data loaded at a thread-dependent address: not evaluated;
  /// a warning only with ReportDataDependent (worded apart).
  bool DataDependent = false;
  /// DataDependent by a lane's bit of a loaded word (`mask & (1 << lane)`).
  bool LaneBits = false;
  /// Note: why it is a note rather than a warning (each a reason, unworded prefix).
  std::vector<std::string> NoteReasons;

  bool AssumedShape = false; ///< no launch with a known block: AssumedBlock
  unsigned WaveSize = 32;
  bool Amd = false;
  /// Every distinct block shape evaluated (empty when an idiom or the data kept it from
  /// evaluation).
  std::vector<BranchShape> PerShape;
  std::optional<size_t> Worst; ///< the shape the figures are of (into PerShape)
  /// Warning or note: from "diverges in" to the efficiency, as the finding says it.
  std::string Figures;
  /// Notes of the finding besides NoteReasons: the assumed block, launches where it is
  /// warp-uniform, a remapping, rows that straddle warps, predication, other
  /// instantiations' figures.
  std::vector<std::pair<SourceLocation, std::string>> Notes;

  /// One root cause, one finding: a warning or note record either carries the finding
  /// (Places: the records of its places, itself first) or is folded into the record
  /// FoldedInto (another instantiation at the same place, or a place of the same group).
  std::vector<size_t> Places;
  std::optional<size_t> FoldedInto;
  std::string GroupKey; ///< kernel, condition without white space, kind, figures, level
  /// A finding with an evaluated worst shape: what it stands to cost, the share of warps
  /// (warp executions) that split at the branch (::warplint::divergenceImpact). Set by
  /// the model when it groups the findings; records() exports it, no check computes it.
  std::optional<::warplint::Impact> Impact;

  bool finding() const { return Severity != BranchSeverity::Silent && !DataDependent && !FoldedInto; }
  const BranchShape *worst() const { return Worst ? &PerShape[*Worst] : nullptr; }
};

/// The parents of the nodes of one function at a time, with getParents' answers (the
/// walks up from a branch or a launch: insideLoop and the other idioms), from a parent map
/// over that function alone: the AST's traversal scope is set to it, so that clang's own
/// ParentMapContext makes the map as for the whole TU, over less. That gives the whole
/// map's answers for every node that only the function holds, not for a node the map also
/// reaches from elsewhere: the root of a default argument or of a default member
/// initializer (reached from each use, through CXXDefaultArgExpr and CXXDefaultInitExpr,
/// and from its declaration), and, in a template instantiation, a node of the template's
/// own body that the instantiation kept (clang keeps literals and references to
/// non-dependent declarations: the whole map's first parent is then the template's).
/// For such a node, one of a template's body, and one the function does not hold, the map
/// over the declarations outside
/// system headers answers (model/Facts skips system headers), as it answered every walk
/// before, and goes on answering until the end. That map is built over every function of
/// the main file and its project headers with their template instantiations, after a
/// walk over the TU's declarations that reads the preamble's back from a PCH: 2.5% of an
/// edit of reduction_kernel.cu (213 kernel instantiations, perf), where the kernels' own
/// maps cost what their bodies hold. The traversal scope is put back at the end.
class FunctionParents {
public:
  explicit FunctionParents(ASTContext &Ctx);
  ~FunctionParents();
  FunctionParents(const FunctionParents &) = delete;
  FunctionParents &operator=(const FunctionParents &) = delete;
  /// Node's parents, Node being a node of Fn's (its definition's) body.
  DynTypedNodeList of(const FunctionDecl *Fn, const DynTypedNode &Node);
  /// Whether the map over the file answered (a shared node, or one Fn does not hold).
  bool usedWholeMap() const { return Whole; }

private:
  /// The map over the declarations outside system headers when the scope was the whole
  /// TU, else over the scope a caller set.
  void useWhole();
  /// Whether S is also a node of Fn's template's body (Fn an instantiation).
  bool inPattern(const FunctionDecl *Fn, const Stmt *S);
  ASTContext &Ctx;
  /// The statements of each template body asked about (RecursiveASTVisitor's, implicit
  /// code included, as the parent map's).
  std::map<const FunctionDecl *, llvm::DenseSet<const Stmt *>> PatternNodes;
  std::vector<Decl *> Saved;
  const FunctionDecl *Scope = nullptr;
  bool Whole = false, Changed = false;
};

/// "branch on", "switch on", "'?:' on", "loop condition on", "short-circuit operand on".
const char *branchKindText(BranchSite::KindT Kind);

} // namespace warplint
