//===- KernelFilter.cpp - the IgnoredKernels option every check has -------===//
#include "model/KernelFilter.h"

#include "llvm/ADT/SmallVector.h"

namespace warplint {

KernelFilter::KernelFilter(llvm::StringRef Option) : Text(Option.str()) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Option.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Names.push_back(P.trim().str());
}

bool KernelFilter::ignores(llvm::StringRef KernelName) const {
  if (Names.empty() || KernelName.empty())
    return false;
  llvm::StringRef NoArgs = KernelName.substr(0, KernelName.find('<'));
  size_t Colon = NoArgs.rfind("::");
  llvm::StringRef Base = Colon == llvm::StringRef::npos ? NoArgs : NoArgs.substr(Colon + 2);
  for (const std::string &N : Names)
    if (KernelName == N || NoArgs == N || Base == N)
      return true;
  return false;
}

} // namespace warplint
