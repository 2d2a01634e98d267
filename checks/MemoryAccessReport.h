//===- MemoryAccessReport.h - what the two memory-access checks share -*- C++ -*-===//
#pragma once

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"
#include "model/TuModel.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>

namespace clang::tidy::warplint {

/// A Severity option: "warning" or "note" (a clang remark, shown as a note by the driver),
/// and "none" where Off is allowed; nullopt for any other text.
std::optional<std::optional<DiagnosticIDs::Level>> parseSeverity(llvm::StringRef Text,
                                                                 bool AllowNone);

/// A ratio option (a number of at least 1); nullopt when not one.
std::optional<double> parseRatio(llvm::StringRef Text);

/// A ratio as an option or a message writes it: "2", "1.5".
std::string ratioText(double V);

/// "load", "store" or "load and store" (a compound assignment).
const char *accessVerb(const MemoryAccessSite &S);

/// The access as written ("in[i * 32]").
std::string accessText(const MemoryAccessSite &S, const ASTContext &Ctx);

/// "block 32x8x1" or "block 256x1x1 assumed", with the sampled unknowns of the quoted
/// warp ("n = 1000").
std::string shapeText(const AccessModel &A, const AccessShape &S, const WarpExecution &X);

/// The plural of a type's name in a message: "floats", "'Particle's".
std::string plural(const std::string &Type, int64_t N);

/// What the two memory-access checks share: the options IgnoredKernels, Severity,
/// AssumedBlockSize and a threshold ratio (named by the check), read and checked once; the
/// matcher that tells the check its TU; and, at the TU's end, the walk over the model's
/// accesses of the check's memory space, each source place reported once.
class MemoryAccessCheck : public ClangTidyCheck {
public:
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

protected:
  MemoryAccessCheck(StringRef Name, ClangTidyContext *Context, MemorySpace Space,
                    StringRef RatioOption);
  /// One evaluable access of the check's space at Loc (its worst block shape: Worst);
  /// false when it is not reported.
  virtual bool report(const AccessModel &A, size_t Worst, SourceLocation Loc, ASTContext &C,
                      TuModel &M) = 0;
  /// The note, once per kernel, that its block shape was assumed.
  void noteAssumedShape(const AccessModel &A);

  double MinRatio;            ///< the ratio option's value
  DiagnosticIDs::Level Level; ///< Severity
  unsigned AssumedBlockSize;

private:
  MemorySpace Space;
  std::string RatioOption, SeverityText;
  ModelOptions Model; ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored;
  ASTContext *Ctx = nullptr;
  std::set<const FunctionDecl *> AssumedSaid;
};

} // namespace clang::tidy::warplint
