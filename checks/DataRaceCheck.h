//===- DataRaceCheck.h - warplint-data-race -----------------------*- C++ -*-===//
#pragma once

#include "checks/AnalysisNames.h"

#include "model/KernelFilter.h"
#include "divergence/MemoryAccess.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::warplint {

/// Finds a shared or global word that one thread writes and another thread reads or
/// writes between the same two barriers, evaluated lane by lane for the block shapes of
/// the kernel's launches (or an assumed shape), with the two accesses, two threads that
/// collide, the word and the barrier that would separate them.
class DataRaceCheck final : public ClangTidyCheck {
public:
  DataRaceCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// Says one finding, worded from its record (the model's RaceRecord), with the other
  /// instantiations of the same kernel template whose race on the same object it stands
  /// for (Others: where each is written and its kernel).
  void report(const RaceModel &M,
              const std::vector<std::pair<SourceLocation, std::string>> &Others = {});

  /// A kernel's findings and notes, said at the TU's end so that the instantiations of
  /// one kernel template that race on the same object are one finding (issue 23: one
  /// root cause, one finding; cudpp's reduce<T, Op, blockSize> gave 50 warnings at one
  /// line). The JSON's data_races keeps each.
  struct Pending {
    const FunctionDecl *Kernel = nullptr;
    std::vector<RaceModel> Races;
    bool AssumedShape = false;
    const Stmt *StoppedAt = nullptr;
    std::string StoppedCallee;
    bool WorkCapped = false;
  };
  std::vector<Pending> Kernels;

  KernelFilter Ignored;
  bool ReportBenign = false;
  /// The per-check alias of warplint.AssumedBlock as written (empty: unset).
  std::optional<unsigned> AssumedBlockSize; ///< the per-check alias (nullopt: unset)
  /// The block assumed for a kernel with no launch of a known block (checks/AssumedShape.h).
  ::warplint::divergence::BlockShape AssumedBlock{256, 1, 1};
  ModelOptions Model;
};

} // namespace clang::tidy::warplint
