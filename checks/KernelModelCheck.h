//===- KernelModelCheck.h - what the memory and sync checks share -*- C++ -*-===//
//
// The four checks that report the model's per-kernel records at the end of a translation
// unit (uncoalesced-access and shared-bank-conflict through MemoryAccessCheck,
// barrier-divergence and warp-sync-mask through SyncCheck) share their setup: CUDA (and
// HIP) only, the run's model options (warplint.*), IgnoredKernels and AssumedBlockSize
// read typed and stored back, the matcher that tells the check its TU, and the notes that
// name an assumed block once per kernel. The launch checks share LaunchCheck the same way.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "checks/AssumedShape.h"
#include "checks/AnalysisNames.h"
#include "model/KernelFilter.h"
#include "model/ModelOptions.h"
#include "model/TuModel.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>
#include <set>

namespace clang::tidy::warplint {

class KernelModelCheck : public ClangTidyCheck {
public:
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  /// Stores IgnoredKernels and AssumedBlockSize; a check with options of its own stores
  /// them after calling this.
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "IgnoredKernels", Ignored.text());
    Options.store(Opts, "AssumedBlockSize", assumedBlockSizeText(AssumedBlockSize));
  }
  /// The model finds the kernels; one match tells the check which TU it is in.
  void registerMatchers(ast_matchers::MatchFinder *Finder) final {
    using namespace ast_matchers;
    Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"),
                       this);
  }
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final { Ctx = Result.Context; }
  /// The TU's model, given to reportTu (Tu is set while it reports).
  void onEndOfTranslationUnit() final {
    if (!Ctx)
      return;
    ASTContext &C = *Ctx;
    Ctx = nullptr;
    AssumedSaid.clear();
    Tu = &TuModel::of(C, nullptr, Model);
    reportTu(*Tu, C);
    Tu = nullptr;
  }

protected:
  KernelModelCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context),
        Model(ModelOptions::read(Context->getOptions().CheckOptions)),
        Ignored(Options.get("IgnoredKernels", "")),
        AssumedBlockSize(readAssumedBlockSize(Options)) {
    AssumedBlock = readAssumedBlock(AssumedBlockSize, Model,
                                    [&](StringRef M) { return configurationDiag(M); });
  }

  /// The check's findings on the TU's model.
  virtual void reportTu(TuModel &M, ASTContext &C) = 0;

  /// The note, once per kernel, that its block shape was assumed.
  void noteAssumedBlock(const KernelInfo &K) {
    if (AssumedSaid.insert(K.Decl).second)
      diag(K.Decl->getLocation(),
           "no launch of '%0' with a known block shape in this translation unit; assumed %1",
           DiagnosticIDs::Note)
          << K.Name << assumedBlockText(AssumedBlock);
  }

  ModelOptions Model;   ///< the run's options (warplint.*), for the shared model
  KernelFilter Ignored; ///< IgnoredKernels
  std::optional<unsigned> AssumedBlockSize; ///< the per-check alias (nullopt: unset)
  /// The block assumed for a kernel without a launch of known block (checks/AssumedShape.h).
  ::warplint::divergence::BlockShape AssumedBlock;
  /// The model of the TU being reported (during reportTu), for its records.
  TuModel *Tu = nullptr;

private:
  ASTContext *Ctx = nullptr;
  std::set<const FunctionDecl *> AssumedSaid;
};

} // namespace clang::tidy::warplint
