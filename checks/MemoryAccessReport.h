//===- MemoryAccessReport.h - what the two memory-access checks share -*- C++ -*-===//
#pragma once

#include "checks/KernelModelCheck.h"
#include "checks/AnalysisNames.h"
#include "checks/OptionParsing.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>

namespace clang::tidy::warplint {

/// A ratio as an option or a message writes it: "2", "1.5".
std::string ratioText(double V);

/// "load", "store" or "load and store" (a compound assignment).
const char *accessVerb(const MemoryAccessSite &S);

/// The access as written ("in[i * 32]").
std::string accessText(const MemoryAccessSite &S, const ASTContext &Ctx);

/// "block 32x8x1" or "block 256x1x1 assumed", with the sampled unknowns of the quoted
/// warp ("n = 1000").
/// Sampled values that all give a finding (a ratio of at least MinRatio) are named
/// together.
std::string shapeText(const AccessModel &A, const AccessShape &S, const WarpExecution &X,
                      double MinRatio);

/// The plural of a type's name in a message: "floats", "'Particle's".
std::string plural(const std::string &Type, int64_t N);

/// What the two memory-access checks share beyond KernelModelCheck: the options Severity
/// and a threshold ratio (named by the check), read and checked once; and, at the TU's end,
/// the walk over the model's accesses of the check's memory space, each source place
/// reported once.
class MemoryAccessCheck : public KernelModelCheck {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  MemoryAccessCheck(StringRef Name, ClangTidyContext *Context, MemorySpace Space,
                    StringRef RatioOption);

  /// What the check makes of one evaluable access (at its worst block shape).
  struct Verdict {
    bool Report = false;
    DiagnosticIDs::Level Level = DiagnosticIDs::Warning; ///< the check's level for it
    bool Misaligned = false;  ///< a misalignment finding (contiguous lanes off a boundary)
    std::string Cause;        ///< the figures that make two places of one kernel alike
  };
  virtual Verdict judge(const AccessModel &A, size_t Worst, ASTContext &C) = 0;

  /// One finding: the first place of a group of places of one kernel and object with the
  /// same cause, said at Level, with the rest of the group in More.
  struct Group {
    DiagnosticIDs::Level Level = DiagnosticIDs::Warning;
    unsigned Places = 1;
    /// "; the same for 11 more loads of 'a' in 'k'" (empty for one place).
    std::string More;
  };
  /// Says the finding of access A (its worst shape Worst) at Loc.
  virtual void report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
                      const Group &G) = 0;
  /// The notes every finding ends with: once per kernel, that its block shape was
  /// assumed; then, through NoteLaunch, each other launch (than Quoted, the shape the
  /// finding quotes) whose evaluated block keeps the access below the threshold (its
  /// typical warp's ratio under MinRatio): its figure there.
  void noteShapes(const AccessModel &A, const AccessShape &Quoted,
                  llvm::function_ref<void(const AccessShape &Other)> NoteLaunch) {
    if (A.AssumedShape)
      noteAssumedBlock(*A.Kernel);
    for (const AccessShape &Other : A.PerShape)
      if (&Other != &Quoted && Other.Figures.Evaluated && Other.Launch.isValid() &&
          Other.Figures.Typical.ratio() < MinRatio)
        NoteLaunch(Other);
  }
  /// Why a finding that would be a warning (the places of one group, all said at the
  /// check's level for their figures alone) overstates its weight, or "" when it does
  /// not; nothing by default. Kernel is the kernel the places are in.
  virtual std::string groupDemotion(const std::vector<const AccessModel *> &Places,
                                    const FunctionDecl *Kernel, ASTContext &C) {
    return "";
  }
  /// A fix the places of one finding share (a note after the finding), or "": nothing by
  /// default.
  virtual std::string groupAdvice(const std::vector<const AccessModel *> &Places) { return ""; }
  void reportTu(TuModel &M, ASTContext &C) override;
  /// The figure of one evaluation in a note: "32 sectors for 128 bytes".
  virtual std::string figureText(const WarpExecution &X, const AccessFigures &F) const = 0;

  double MinRatio;            ///< the ratio option's value
  DiagnosticIDs::Level Level; ///< Severity

private:
  /// Why a warning of the check would overstate what is known, or "" when it does not:
  /// the figure holds only for the assumed block shape, or for a sampled run-time value,
  /// or the access is a few lanes' edge work.
  std::string demotion(const AccessModel &A, size_t Worst) const;

  MemorySpace Space;
  std::string RatioOption;
  FindingSeverity Severity = FindingSeverity::Warning; ///< warning or note
};

} // namespace clang::tidy::warplint
