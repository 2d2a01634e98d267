//===- BlockSizeWarpMultipleCheck.cpp - warplint-block-size-warp-multiple -===//
#include "checks/BlockSizeWarpMultipleCheck.h"

#include "checks/Facts.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::warplint {

namespace {
constexpr uint64_t WarpSize = 32;

// Options are read as text: OptionsView's bool specialisations are mangled differently
// by g++ (this build) and clang (clang-tidy's build).
bool readBool(StringRef Value) { return Value.equals_insensitive("true") || Value == "1"; }
} // namespace

BlockSizeWarpMultipleCheck::BlockSizeWarpMultipleCheck(StringRef Name,
                                                       ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      IgnoreSingleThreadBlocks(readBool(Options.get("IgnoreSingleThreadBlocks", "true"))) {}

void BlockSizeWarpMultipleCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoreSingleThreadBlocks", IgnoreSingleThreadBlocks ? "true" : "false");
}

void BlockSizeWarpMultipleCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void BlockSizeWarpMultipleCheck::check(const MatchFinder::MatchResult &Result) {
  TUFacts Facts = collectFacts(*Result.Context);
  for (const LaunchSite &L : Facts.Launches) {
    if (!L.Block.known() || L.Loc.isInvalid())
      continue;
    uint64_t Threads = L.Block.total();
    if (Threads == 0 || Threads % WarpSize == 0)
      continue; // a zero-sized block is warplint-launch-config-invalid's
    if (Threads == 1 && IgnoreSingleThreadBlocks)
      continue;
    uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    uint64_t Idle = Warps * WarpSize - Threads;
    diag(L.Loc, "block %0 is not a whole number of warps: %1 thread%s1 in %2 warp%s2, %3 "
                "lane%s3 idle")
        << L.Block.str() << unsigned(Threads) << unsigned(Warps) << unsigned(Idle);
    if (!L.Instantiation.empty())
      diag(L.Loc, "in instantiation '%0'", DiagnosticIDs::Note) << L.Instantiation;
  }
}

} // namespace clang::tidy::warplint
