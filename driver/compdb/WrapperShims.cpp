//===- WrapperShims.cpp - clang's CUDA wrappers get the toolkit's headers -===//
#include "driver/compdb/WrapperShims.h"
#include "driver/compdb/Includers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace warplint::driver {

std::vector<ShimFile> wrapperIncludeShims(llvm::vfs::FileSystem &FS,
                                          llvm::StringRef ResourceIncludeDir,
                                          llvm::StringRef ToolkitIncludeDir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::vfs::directory_iterator It = FS.dir_begin(ResourceIncludeDir, EC), End;
       !EC && It != End; It.increment(EC)) {
    llvm::StringRef File = llvm::sys::path::filename(It->path());
    if (!File.starts_with("__clang_cuda_") || !File.ends_with(".h"))
      continue;
    if (auto Buffer = FS.getBufferForFile(It->path()))
      for (SpelledInclude &Inc : spelledIncludes((*Buffer)->getBuffer().str()))
        if (Inc.Quoted && !llvm::is_contained(Names, Inc.Name))
          Names.push_back(std::move(Inc.Name));
  }
  std::vector<ShimFile> Shims;
  for (const std::string &N : Names) {
    llvm::SmallString<256> Own(ResourceIncludeDir), Toolkit(ToolkitIncludeDir);
    llvm::sys::path::append(Own, N);
    llvm::sys::path::append(Toolkit, N);
    if (FS.exists(Own) || !FS.exists(Toolkit))
      continue;
    Shims.push_back({std::string(Own), "// warplint: clang's CUDA wrapper gets the toolkit's " +
                                           N + ", not a project header of that name\n"
                                           "#include \"" +
                                           std::string(Toolkit) + "\"\n"});
  }
  return Shims;
}

} // namespace warplint::driver
