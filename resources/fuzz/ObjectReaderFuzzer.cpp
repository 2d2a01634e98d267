//===- ObjectReaderFuzzer.cpp - libFuzzer target for the cubin/fatbin reader ===//
#include "resources/Resources.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>

// Any bytes as a cubin image, and as an object file on disk (the host-object and fatbin
// paths, AMDGPU code objects and offload bundles): no crash, and every entry names an
// sm_ or gfx arch.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  ::warplint::ResourceTable T;
  T.addCubin(Bytes, "fuzz");
  static std::string Path = "/tmp/warplint-objfuzz-" + std::to_string(getpid()) + ".o";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      std::abort();
    OS << Bytes;
  }
  T.addObjectFile(Path);
  for (const ::warplint::KernelFigures &K : T.Entries)
    if (K.Arch.rfind("sm_", 0) != 0 && K.Arch.rfind("gfx", 0) != 0)
      std::abort();
  (void)T.match("_Z1kv");
  return 0;
}
