//===- RegisterSpillCheck.h - warplint-register-spill ---------------*- C++ -*-===//
#pragma once

#include "checks/LaunchCheck.h"
#include "checks/AnalysisNames.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::warplint {

/// Finds kernels that ptxas made spill registers to local memory, with the bytes, the
/// architecture and, where the source shows it, the cap that forces the spills.
class RegisterSpillCheck final : public LaunchCheck {
public:
  RegisterSpillCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkTu(TuModel &M, ASTContext &Ctx) override;
  /// The model of the TU being checked (set by checkTu): the launches' uncapped figures.
  TuModel *Model_ = nullptr;
  void report(SourceLocation Loc, const KernelInfo *K, const std::string &Name,
              const KernelArchFigures &F);
  void reportAmd(SourceLocation Loc, const KernelInfo *K, const std::string &Name,
                 const KernelArchFigures &F);

  uint64_t MinSpillBytes = 1; ///< stores + loads per thread, bytes
};

} // namespace clang::tidy::warplint
