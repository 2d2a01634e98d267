//===- OutputFile.cpp - output files: replaced atomically, or written through ===//
#include "driver/formats/Formats.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cerrno>
#include <optional>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace warplint::driver {
namespace {

/// What an output path names once its symbolic links are followed.
struct OutputTarget {
  enum KindT {
    Missing,    ///< nothing there yet: created through a temporary file and a rename
    Regular,    ///< a regular file: replaced through a temporary file and a rename
    Through,    ///< a FIFO, a device, a socket: opened and written, never replaced
    Descriptor, ///< one of this process's descriptors (/dev/stdout, /dev/fd/N)
  } Kind = Missing;
  std::string Path;        ///< the file itself (a symlink's final target)
  int Fd = -1;             ///< Descriptor only
  struct stat Status = {}; ///< Regular only
};

std::string errnoMessage(int E) { return std::error_code(E, std::generic_category()).message(); }

/// The descriptor N when Canonical is /proc/<this process>/fd/N (what /dev/stdout,
/// /dev/stderr and /dev/fd/N lead to).
std::optional<int> ownDescriptor(llvm::StringRef Canonical) {
  std::string Prefix = "/proc/" + std::to_string(::getpid()) + "/fd/";
  if (!Canonical.consume_front(Prefix))
    return std::nullopt;
  unsigned N = 0;
  if (Canonical.getAsInteger(10, N))
    return std::nullopt;
  return static_cast<int>(N);
}

/// Follows Path's symbolic links (a dangling one leads to the file it would create).
bool resolveOutput(const std::string &Path, OutputTarget &T, std::string &Error) {
  std::string Current = Path;
  for (int Hop = 0; Hop < 40; ++Hop) {
    llvm::StringRef Dir = llvm::sys::path::parent_path(Current);
    llvm::SmallString<256> Canonical;
    if (std::error_code EC = llvm::sys::fs::real_path(Dir.empty() ? "." : Dir, Canonical)) {
      Error =
          fmt::format("cannot write {}: {}: {}", Path, Dir.empty() ? "." : Dir.str(), EC.message());
      return false;
    }
    llvm::sys::path::append(Canonical, llvm::sys::path::filename(Current));
    T.Path = std::string(Canonical);
    if (llvm::StringRef(T.Path).starts_with("/proc/")) {
      // /proc's descriptor links are not paths: write to the descriptor itself (keeping
      // its offset and append mode), or open what the kernel resolves.
      if (std::optional<int> Fd = ownDescriptor(T.Path)) {
        T.Kind = OutputTarget::Descriptor;
        T.Fd = *Fd;
      } else {
        T.Kind = OutputTarget::Through;
      }
      return true;
    }
    struct stat St;
    if (::lstat(T.Path.c_str(), &St) != 0) {
      if (errno == ENOENT) {
        T.Kind = OutputTarget::Missing;
        return true;
      }
      Error = fmt::format("cannot write {}: {}", Path, errnoMessage(errno));
      return false;
    }
    if (S_ISLNK(St.st_mode)) {
      char Buf[4096];
      ssize_t N = ::readlink(T.Path.c_str(), Buf, sizeof(Buf) - 1);
      if (N < 0) {
        Error = fmt::format("cannot write {}: {}", Path, errnoMessage(errno));
        return false;
      }
      llvm::StringRef Link(Buf, static_cast<size_t>(N));
      if (llvm::sys::path::is_absolute(Link)) {
        Current = Link.str();
      } else {
        llvm::SmallString<256> Next(llvm::sys::path::parent_path(T.Path));
        llvm::sys::path::append(Next, Link);
        Current = std::string(Next);
      }
      continue;
    }
    if (S_ISDIR(St.st_mode)) {
      Error = fmt::format("cannot write {}: it is a directory", Path);
      return false;
    }
    T.Kind = S_ISREG(St.st_mode) ? OutputTarget::Regular : OutputTarget::Through;
    T.Status = St;
    return true;
  }
  Error = fmt::format("cannot write {}: {}", Path, errnoMessage(ELOOP));
  return false;
}

/// Writes Text to an open descriptor; Error names Path.
bool writeAll(int Fd, bool Close, const std::string &Path, std::string_view Text,
              std::string &Error) {
  llvm::raw_fd_ostream OS(Fd, Close);
  OS << Text;
  OS.flush();
  if (OS.has_error()) {
    Error = fmt::format("cannot write {}: {}", Path, OS.error().message());
    OS.clear_error();
    return false;
  }
  return true;
}

/// Creates or replaces the regular file T.Path: a temporary file beside it (removed on
/// SIGINT/SIGTERM), an existing file's mode (and, where allowed, owner) on it, a rename.
bool replaceAtomically(const std::string &Path, const OutputTarget &T, std::string_view Text,
                       std::string &Error) {
  if (T.Kind == OutputTarget::Regular &&
      ((T.Status.st_mode & 0222) == 0 || ::access(T.Path.c_str(), W_OK) != 0)) {
    Error = fmt::format("cannot write {}: the file is read-only (mode {:04o}); it was not "
                        "replaced",
                        Path, T.Status.st_mode & 07777);
    return false;
  }
  int Fd;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(T.Path + ".tmp-%%%%%%", Fd, Tmp)) {
    Error = fmt::format("cannot write {}: {}", Path, EC.message());
    return false;
  }
  llvm::sys::RemoveFileOnSignal(Tmp);
  auto Discard = [&] {
    llvm::sys::fs::remove(Tmp);
    llvm::sys::DontRemoveFileOnSignal(Tmp);
  };
  if (T.Kind == OutputTarget::Regular) {
    ::fchmod(Fd, T.Status.st_mode & 07777);
    if (T.Status.st_uid != ::geteuid() || T.Status.st_gid != ::getegid())
      (void)!::fchown(Fd, T.Status.st_uid, T.Status.st_gid); // best effort
  }
  if (!writeAll(Fd, /*Close=*/true, Path, Text, Error)) {
    Discard();
    return false;
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, T.Path)) {
    Error = fmt::format("cannot write {}: {}", Path, EC.message());
    Discard();
    return false;
  }
  llvm::sys::DontRemoveFileOnSignal(Tmp);
  return true;
}

} // namespace

bool writeFileAtomically(const std::string &Path, std::string_view Text, std::string &Error) {
  OutputTarget T;
  if (!resolveOutput(Path, T, Error))
    return false;
  switch (T.Kind) {
  case OutputTarget::Missing:
  case OutputTarget::Regular:
    return replaceAtomically(Path, T, Text, Error);
  case OutputTarget::Descriptor:
    llvm::outs().flush();
    llvm::errs().flush();
    return writeAll(T.Fd, /*Close=*/false, Path, Text, Error);
  case OutputTarget::Through: {
    int Fd = ::open(T.Path.c_str(), O_WRONLY | O_CLOEXEC);
    if (Fd < 0) {
      Error = fmt::format("cannot write {}: {}", Path, errnoMessage(errno));
      return false;
    }
    return writeAll(Fd, /*Close=*/true, Path, Text, Error);
  }
  }
  return false;
}

} // namespace warplint::driver
