//===- BlockSizeWarpMultipleCheck.cpp - warplint-block-size-warp-multiple -===//
#include "checks/BlockSizeWarpMultipleCheck.h"
#include "checks/AnalysisNames.h"

#include "model/TuModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"

#include <map>
#include <string>
#include <vector>

using namespace clang::ast_matchers;
namespace wl = ::warplint;

namespace clang::tidy::warplint {

BlockSizeWarpMultipleCheck::BlockSizeWarpMultipleCheck(StringRef Name, ClangTidyContext *Context)
    : LaunchCheck(Name, Context),
      IgnoreSingleThreadBlocks(readFlag("IgnoreSingleThreadBlocks", true)) {
  MinIdleShare = readPercent("MinIdleShare", "5", InvalidPercent, MinIdleShareText);
}

void BlockSizeWarpMultipleCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  LaunchCheck::storeOptions(Opts);
  Options.store(Opts, "IgnoreSingleThreadBlocks", IgnoreSingleThreadBlocks ? "true" : "false");
  Options.store(Opts, "MinIdleShare", MinIdleShareText);
}

void BlockSizeWarpMultipleCheck::checkTu(TuModel &M, ASTContext &Ctx) {
  const TUFacts &Facts = M.facts();
  // Lanes per warp (32), or per wavefront on AMD (64 on GCN/CDNA, 32 or 64 on RDNA).
  const uint64_t WarpSize = Facts.WaveSize ? Facts.WaveSize : 32;
  const bool Amd = ::warplint::isAmdArchName(Facts.Arch);
  // One warning per launch site and shape; a template's instantiations that give the same
  // shape are named together in the note.
  struct Site {
    const LaunchSite *First;
    std::vector<std::string> Instantiations;
  };
  std::vector<Site> Sites;
  std::map<std::pair<unsigned, std::array<uint64_t, 3>>, size_t> Index;
  for (const LaunchSite &L : Facts.Launches) {
    if (!L.Block.known() || L.Loc.isInvalid() || Ignored.ignores(L.KernelName))
      continue;
    uint64_t Threads = L.Block.total();
    if (Threads == 0 || Threads % WarpSize == 0)
      continue; // a zero-sized block is warplint-launch-config-invalid's
    if (Threads == 1 && IgnoreSingleThreadBlocks)
      continue;
    auto Key = std::make_pair(L.Loc.getRawEncoding(), *L.Block.Dims);
    auto [It, New] = Index.emplace(Key, Sites.size());
    if (New)
      Sites.push_back({&L, {}});
    if (!L.Instantiation.empty())
      Sites[It->second].Instantiations.push_back(L.Instantiation);
  }
  for (const Site &S : Sites) {
    const LaunchSite &L = *S.First;
    uint64_t Threads = L.Block.total();
    uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    uint64_t Idle = Warps * WarpSize - Threads;
    // The whole launch smaller than one warp (one block of 16 threads for a solve of
    // n <= 16): the lanes are idle because the problem is that small, and nothing else
    // runs beside it; said as a note.
    bool OneBlock = L.Grid.known() && L.Grid.total() == 1 && Threads < WarpSize;
    // A few idle lanes in a block of many warps (dim3(16, 25): 16 of 416 lanes, 3.8%): the
    // shape follows the problem's tiles, and a whole number of warps would gain under
    // MinIdleShare of the issued lanes; said as a note with the share.
    double IdleShare = double(Idle) / double(Warps * WarpSize);
    bool SmallShare = !OneBlock && IdleShare + 1e-9 < MinIdleShare;
    auto Level = OneBlock || SmallShare ? DiagnosticIDs::Remark : DiagnosticIDs::Warning;
    if (Amd)
      diag(L.Loc, "block %0 is not a whole number of wavefronts: %1 thread%s1 in %2 "
                  "wavefront%s2 of %4 lanes, %3 lane%s3 idle",
           Level)
          << L.Block.str() << unsigned(Threads) << unsigned(Warps) << unsigned(Idle)
          << unsigned(WarpSize);
    else
      diag(L.Loc, "block %0 is not a whole number of warps: %1 thread%s1 in %2 warp%s2, %3 "
                  "lane%s3 idle",
           Level)
          << L.Block.str() << unsigned(Threads) << unsigned(Warps) << unsigned(Idle);
    // A launch helper's block read from its parameters: where the value comes from.
    if (L.FromCalls && L.Enclosing)
      diag(L.FromCallLoc,
           "the block '%0' is what every call of '%1' passes (%2 call%s2; the first here)",
           DiagnosticIDs::Note)
          << L.Block.Text << L.Enclosing->getNameAsString() << L.FromCalls;
    if (OneBlock)
      diag(L.Loc,
           "said as a note: the whole launch is one block smaller than a %select{warp|"
           "wavefront}0: its lanes are idle because the problem is that small",
           DiagnosticIDs::Note)
          << unsigned(Amd);
    if (SmallShare)
      diag(L.Loc,
           "said as a note: %0 of the %1 lanes issued per block (%2) are idle, under "
           "MinIdleShare (%3)",
           DiagnosticIDs::Note)
          << unsigned(Idle) << unsigned(Warps * WarpSize) << wl::percentText(IdleShare)
          << wl::percentText(MinIdleShare);
    if (S.Instantiations.size() == 1) {
      diag(L.Loc, "in instantiation '%0'", DiagnosticIDs::Note) << S.Instantiations[0];
    } else if (S.Instantiations.size() > 1) {
      std::string Names;
      for (size_t I = 0; I < S.Instantiations.size() && I < 3; ++I)
        Names += (I ? ", '" : "'") + S.Instantiations[I] + "'";
      if (S.Instantiations.size() > 3)
        Names += " and " + std::to_string(S.Instantiations.size() - 3) + " more";
      diag(L.Loc, "in instantiations %0", DiagnosticIDs::Note) << Names;
    }
  }
}

} // namespace clang::tidy::warplint
