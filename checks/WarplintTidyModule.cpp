//===- WarplintTidyModule.cpp - the clang-tidy module of warplint ---------===//
#include "checks/WarplintTidyModule.h"

// One include per checks/*Check.h that names a check on its first line (checks/CMakeLists.txt).
#include "checks/CheckIncludes.inc"

namespace clang::tidy::warplint {

void WarplintModule::addCheckFactories(ClangTidyCheckFactories &Factories) {
  // Every check: WARPLINT_CHECK(FooCheck, "warplint-foo"), generated from the headers.
#define WARPLINT_CHECK(Class, Name) Factories.registerCheck<Class>(Name);
#include "checks/CheckList.inc"
#undef WARPLINT_CHECK
}

ClangTidyOptions WarplintModule::getModuleOptions() { return {}; }

} // namespace clang::tidy::warplint
