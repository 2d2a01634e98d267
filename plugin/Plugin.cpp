//===- Plugin.cpp - registers warplint's module in a loading clang-tidy ---===//
#include "checks/WarplintTidyModule.h"

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy {
static ClangTidyModuleRegistry::Add<warplint::WarplintModule>
    X("warplint-module", "Occupancy, launch-shape and divergence checks for CUDA.");
} // namespace clang::tidy
