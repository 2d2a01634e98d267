//===- DivergentBranchCheck.h - warplint-divergent-branch ----------*- C++ -*-===//
#pragma once

#include "warplint/core/LaneEval.h"
#include "divergence/ThreadDependence.h"

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::warplint {

/// Finds branches whose condition splits the lanes of a warp, evaluated lane by lane for
/// every warp of the kernel's block shape, and stays quiet on the usual idioms.
class DivergentBranchCheck final : public ClangTidyCheck {
public:
  DivergentBranchCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A boolean option, checked (checks/OptionParsing.h), false by default.
  bool readFlag(StringRef Key);
  struct Launch {
    const FunctionDecl *Kernel;
    SourceLocation Loc;
    ::warplint::divergence::BlockShape Block;
    bool BlockKnown = true; ///< false: a launch whose block is computed at run time
    const Expr *Call = nullptr;                          ///< its arguments
    std::optional<std::array<uint64_t, 3>> Grid;         ///< when a compile-time fact
    const FunctionDecl *Enclosing = nullptr;             ///< the launching function
  };
  /// The value of a launch argument: a compile-time constant, or a parameter of the
  /// launching function that every call of it in the TU passes as one (one level).
  std::vector<int64_t> argumentValues(const Expr *Arg, const FunctionDecl *Enclosing,
                                      ASTContext &Ctx);
  void analyzeKernel(const FunctionDecl *Kernel, ASTContext &Ctx);
  /// A finding before grouping (defined in DivergentBranchCheck.cpp).
  struct Finding;
  /// Reports this TU's findings: one per root cause (kernel, condition, figures), the
  /// same place of several instantiations of a template once.
  void emitFindings(const SourceManager &SM);
  std::vector<std::shared_ptr<Finding>> Findings;

  ModelOptions Model; ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  const bool ReportBoundsGuards;
  const bool ReportLeaderPatterns;
  const bool ReportTreeReductionTails;
  const bool ReportDataDependent;
  const bool ReportGridStrideLoops;
  std::string AssumedBlockSize; ///< the per-check alias as written (empty: unset)
  /// The block assumed for a kernel without a launch of known block (checks/AssumedShape.h).
  ::warplint::divergence::BlockShape AssumedBlock;
  /// Lanes per warp or wavefront of the TU's target, and whether it is an AMD one.
  unsigned WaveSize = 32;
  bool Amd = false;

  std::vector<const FunctionDecl *> Kernels;
  std::vector<Launch> Launches;
  /// Launches by kernel (canonical declaration), built from Launches on first use.
  llvm::DenseMap<const FunctionDecl *, std::vector<const Launch *>> LaunchesOf;
  /// The thread-dependence analysis of this TU's kernels, made on first use.
  std::optional<ThreadDependence> Dependence;
  /// The calls of each function of the TU (canonical declaration), made on first use.
  std::optional<llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>>> CallsOf;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::warplint
