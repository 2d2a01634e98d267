//===- ResourceOptions.h - register-source options shared by the occupancy checks -*- C++ -*-===//
#pragma once

#include "model/Facts.h"
#include "resources/Resources.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::warplint {

/// The options that choose where register counts come from, read as text:
/// RegisterSource (auto|ptxas-log|objects|nvcc|none), PtxasLog (files, ';'-separated),
/// Objects (files, ';'-separated), CacheDir, Nvcc (the nvcc to run), NvccFlags (extra
/// flags for it, e.g. the build's -maxrregcount).
struct ResourceOptions {
  std::string Source = "auto";
  std::string PtxasLog, Objects, CacheDir, Nvcc, NvccFlags;

  void read(const ClangTidyCheck::OptionsView &Options);
  void store(const ClangTidyCheck::OptionsView &Options, ClangTidyOptions::OptionMap &Opts) const;
};

/// One kernel launch evaluated for one arch.
struct ArchEvaluation {
  const ::warplint::GpuArch *Arch = nullptr;
  ::warplint::KernelResources Resources;
  /// The compiler's figures; null when no source knew this kernel (registers unknown).
  const KernelFigures *Figures = nullptr;
  bool ByBaseName = false;
};

/// Loads the register source once per translation unit and evaluates launches with it.
class ResourceProvider {
public:
  explicit ResourceProvider(ResourceOptions Opts) : Opts(std::move(Opts)) {}

  /// Loads the source for this TU (nvcc runs here, or its cache answers). Problems are
  /// returned as messages for configurationDiag; a failed source leaves the table empty.
  std::vector<std::string> load(ASTContext &Ctx, const Preprocessor *PP,
                                llvm::StringRef TUArch);

  /// Every arch that has figures for the kernel; without any, the TU's own arch (or
  /// \p FallbackArch) with the registers unknown (RegistersPerThread = 0).
  std::vector<ArchEvaluation> evaluate(const KernelInfo *K, llvm::StringRef Mangled,
                                       llvm::StringRef FallbackArch,
                                       std::string *MatchNote) const;

  /// "ptxas-log", "objects", "nvcc" or "none": what the table was loaded from.
  ResourceSource source() const { return Loaded; }
  const ResourceTable &table() const { return Table; }

private:
  ResourceOptions Opts;
  ResourceTable Table;
  ResourceSource Loaded = ResourceSource::None;
};

/// "registers from the ptxas log 'x.log'" / "registers unknown (no register source)".
std::string describeSource(const ArchEvaluation &E);

/// Formats 0.375 as "37.5%" and 0.5 as "50%".
std::string percent(double Fraction);

} // namespace clang::tidy::warplint
