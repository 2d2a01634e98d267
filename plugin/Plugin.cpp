//===- Plugin.cpp - registers warplint's module in a loading clang-tidy ---===//
#include "checks/WarplintTidyModule.h"

#include "clang-tidy/ClangTidyModule.h"
#if WARPLINT_LLVM_MAJOR < 22
// The registry moved into ClangTidyModule.h in LLVM 22 (its own header is deprecated there).
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

#include <cstdio>
#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#endif

namespace clang::tidy {
namespace {

/// The LLVM major version of the process that loaded the plugin, from LLVM's C API
/// (LLVMGetVersion, stable across versions); 0 when it cannot be found.
unsigned hostLlvmMajor() {
#if defined(__unix__) || defined(__APPLE__)
  using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);
  void *Sym = dlsym(RTLD_DEFAULT, "LLVMGetVersion");
  if (!Sym)
    return 0;
  unsigned Major = 0, Minor = 0, Patch = 0;
  reinterpret_cast<GetVersionFn>(Sym)(&Major, &Minor, &Patch);
  return Major;
#else
  return 0;
#endif
}

/// Registers the module only in a clang-tidy of the major version it was built for: in
/// another one the module's classes do not match the host's (a crash, or checks that
/// silently report nothing), so the plugin says so and stays out of the way.
bool registerWarplint() {
  unsigned Host = hostLlvmMajor();
  if (Host != 0 && Host != WARPLINT_LLVM_MAJOR) {
    std::fprintf(stderr,
                 "warplint-tidy: this plugin was built for clang-tidy %d but was loaded by "
                 "clang-tidy %u; its checks are not registered. Run clang-tidy-%d, or "
                 "rebuild warplint against LLVM %u.\n",
                 WARPLINT_LLVM_MAJOR, Host, WARPLINT_LLVM_MAJOR, Host);
    return false;
  }
  static ClangTidyModuleRegistry::Add<warplint::WarplintModule> X(
      "warplint-module", "Occupancy, launch-shape and divergence checks for CUDA.");
  return true;
}

[[maybe_unused]] const bool Registered = registerWarplint();

} // namespace
} // namespace clang::tidy
