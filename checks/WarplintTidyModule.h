//===- WarplintTidyModule.h - the clang-tidy module of warplint -*- C++ -*-===//
#pragma once

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::warplint {

/// Registers every warplint-* check with clang-tidy's check factories.
class WarplintModule final : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override;
  ClangTidyOptions getModuleOptions() override;
};

} // namespace clang::tidy::warplint
