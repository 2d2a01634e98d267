//===- OutputFile.cpp - output files written atomically ------------------===//
#include "driver/formats/Formats.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint::driver {

/// Writes Text to Path through a temporary file in the same directory and a rename.
bool writeFileAtomically(const std::string &Path, std::string_view Text, std::string &Error) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  int Fd;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, Fd, Tmp)) {
    Error = "cannot write " + Path + ": " + EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Error = "cannot write " + Path + ": " + OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    Error = "cannot write " + Path + ": " + EC.message();
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

} // namespace warplint::driver
