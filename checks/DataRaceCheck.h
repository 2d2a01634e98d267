//===- DataRaceCheck.h - warplint-data-race -----------------------*- C++ -*-===//
#pragma once

#include "checks/KernelFilter.h"
#include "model/ModelOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <array>
#include <optional>

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

private:
  KernelFilter Ignored;
  bool ReportBenign = false;
  std::string BlockText, GridText;
  std::array<unsigned, 3> AssumedBlock{256, 1, 1};
  std::optional<std::array<uint64_t, 3>> AssumedGrid;
  ModelOptions Model;
};

/// "X[xY[xZ]]" as a block or grid shape (every component at least 1); nullopt otherwise.
std::optional<std::array<uint64_t, 3>> parseShapeOption(llvm::StringRef Text);

} // namespace clang::tidy::warplint
