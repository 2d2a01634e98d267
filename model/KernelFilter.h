//===- KernelFilter.h - the IgnoredKernels option every check has -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace warplint {

/// Kernels a check stays silent on, at every launch and in the body: the check option
/// `IgnoredKernels`, ';'-separated. A name matches a kernel's qualified name with
/// template arguments ("ns::scale<128>"), without them ("ns::scale"), or its base name
/// ("scale"). One setting instead of a NOLINT at every launch.
class KernelFilter {
public:
  KernelFilter() = default;
  explicit KernelFilter(llvm::StringRef Option);
  bool ignores(llvm::StringRef KernelName) const;
  /// The option's value as read, for storeOptions.
  const std::string &text() const { return Text; }

private:
  std::string Text;
  std::vector<std::string> Names;
};

} // namespace warplint
