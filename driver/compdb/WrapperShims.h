//===- WrapperShims.h - clang's CUDA wrappers get the toolkit's headers -*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm::vfs {
class FileSystem;
} // namespace llvm::vfs

namespace warplint::driver {

/// A file to add, in memory, to the parse's file system.
struct ShimFile {
  std::string Path; ///< absolute, in clang's resource include directory
  std::string Text;
};

/// The toolkit headers that clang's CUDA wrappers (`__clang_cuda_*.h` in the resource
/// include directory) include with quotes, `#include "cuda.h"` first. A quoted include
/// is looked up in the includer's directory, then in the -iquote and -I directories,
/// which come before the toolkit's: a project header of the same name on -I (Rodinia's
/// util/cuda/cuda.h) is taken for the toolkit's, and the wrapper stops on "cuda.h did not
/// define CUDA_VERSION". nvcc includes no cuda.h of its own accord, so nvcc compiles such
/// a project.
///
/// For each such name that ToolkitIncludeDir has and ResourceIncludeDir does not, a shim
/// in ResourceIncludeDir (the wrapper's own directory, looked up first) that includes the
/// toolkit's file by its absolute path. Only the wrappers' includes change: any other
/// `#include "cuda.h"` still searches -I first and finds the project's; an angled
/// `<cuda.h>` that reaches the resource directory (searched before the toolkit's) gets the
/// toolkit's file, as it would have. Names are read from the wrappers through FS.
std::vector<ShimFile> wrapperIncludeShims(llvm::vfs::FileSystem &FS,
                                          llvm::StringRef ResourceIncludeDir,
                                          llvm::StringRef ToolkitIncludeDir);

} // namespace warplint::driver
