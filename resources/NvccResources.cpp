//===- NvccResources.cpp - nvcc runs for ptxas reports, cached on disk -----===//
#include "resources/NvccResources.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::warplint {

namespace {

std::optional<std::string> readFile(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B = llvm::MemoryBuffer::getFile(Path);
  if (!B)
    return std::nullopt;
  return (*B)->getBuffer().str();
}

// Runs Argv and captures stderr (or stdout) through a temp file in Dir; the other
// stream is discarded.
bool run(llvm::ArrayRef<std::string> Argv, llvm::StringRef Dir, std::string &Captured,
         std::string &Error, bool CaptureStdout = false, int *ExitCode = nullptr) {
  llvm::SmallString<256> Tmp;
  std::error_code EC =
      Dir.empty() ? llvm::sys::fs::createTemporaryFile("warplint-nvcc", "log", Tmp)
                  : llvm::sys::fs::createUniqueFile(Dir + "/run-%%%%%%%%.stderr", Tmp);
  if (EC) {
    Error = "cannot create a temporary file: " + EC.message();
    return false;
  }
  std::vector<llvm::StringRef> Args(Argv.begin(), Argv.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), CaptureStdout ? llvm::StringRef(Tmp) : llvm::StringRef(""),
      CaptureStdout ? llvm::StringRef("") : llvm::StringRef(Tmp)};
  std::string ExecErr;
  bool Failed = false;
  int Rc = llvm::sys::ExecuteAndWait(Argv.front(), Args, std::nullopt, Redirects,
                                     /*SecondsToWait=*/600, 0, &ExecErr, &Failed);
  Captured = readFile(Tmp).value_or("");
  llvm::sys::fs::remove(Tmp);
  if (ExitCode)
    *ExitCode = Failed ? -1 : Rc;
  if (Failed || Rc != 0) {
    Error = Failed ? "cannot run " + Argv.front() + ": " + ExecErr
                   : Argv.front() + " exited with " + std::to_string(Rc);
    return false;
  }
  return true;
}

// Atomic: a unique temp file in the same directory, renamed over the entry. Parallel
// runs write identical contents, so whichever rename lands last is right.
// Returns the error's text, empty on success.
std::string writeAtomically(const std::string &Path, llvm::StringRef Text) {
  llvm::SmallString<256> Tmp;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".%%%%%%%%.tmp", FD, Tmp))
    return EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return "write failed";
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return EC.message();
  }
  return "";
}

// Whether files can be created in Dir (created if missing); the reason when not.
std::string cacheDirProblem(const std::string &Dir) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return "cannot create the cache directory '" + Dir + "': " + EC.message();
  llvm::SmallString<256> Probe;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Dir + "/probe-%%%%%%%%", FD, Probe))
    return "cannot write to the cache directory '" + Dir + "': " + EC.message();
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  llvm::sys::fs::remove(Probe);
  return "";
}

// The cache entry of a compile nvcc refused, beside the log entry of the same key.
std::string failureFile(const std::string &LogEntry) {
  llvm::StringRef Base(LogEntry);
  Base.consume_back(".ptxas.log");
  return Base.str() + ".nvcc-error.txt";
}

} // namespace

std::vector<std::string> nvccArgv(const NvccRequest &R) {
  std::vector<std::string> Argv = {R.Nvcc};
  Argv.insert(Argv.end(), R.Args.begin(), R.Args.end());
  for (const char *A : {"-Xptxas", "-v", "-cubin", "-o"})
    Argv.emplace_back(A);
  Argv.emplace_back(llvm::sys::path::get_separator() == "/" ? "/dev/null" : "NUL");
  Argv.push_back("-arch=" + R.Arch);
  Argv.push_back(R.Source);
  return Argv;
}

std::string nvccCacheKey(const NvccRequest &R, const std::string &NvccVersion) {
  llvm::SHA256 H;
  auto Add = [&H](llvm::StringRef S) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  };
  Add("warplint-nvcc-resources-v1");
  Add(NvccVersion);
  for (const std::string &A : nvccArgv(R))
    Add(A);
  Add(R.ContentKey);
  std::array<uint8_t, 32> Digest = H.final();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

NvccResult runNvccForResources(const NvccRequest &Request) {
  NvccResult Out;
  NvccRequest R = Request;
  // An unusable cache is said once and nvcc runs without it: the registers are not lost.
  if (!R.CacheDir.empty()) {
    if (std::string Problem = cacheDirProblem(R.CacheDir); !Problem.empty()) {
      Out.Warning = Problem + "; nvcc runs uncached";
      R.CacheDir.clear();
    }
  }
  std::string Version, Err;
  // nvcc --version, cached beside the reports under nvcc's path, size and time: the
  // warm path then starts no process at all.
  llvm::sys::fs::file_status St;
  std::string VersionFile;
  if (!R.CacheDir.empty() && !llvm::sys::fs::status(R.Nvcc, St)) {
    llvm::SHA256 H;
    H.update(R.Nvcc);
    H.update(std::to_string(St.getSize()));
    H.update(std::to_string(
        St.getLastModificationTime().time_since_epoch().count()));
    VersionFile = R.CacheDir + "/nvcc-version-" +
                  llvm::toHex(H.final(), true).substr(0, 32) + ".txt";
    if (std::optional<std::string> V = readFile(VersionFile))
      Version = std::move(*V);
  }
  if (Version.empty()) {
    if (!run({R.Nvcc, "--version"}, "", Version, Err, /*CaptureStdout=*/true)) {
      Out.Error = Err;
      return Out;
    }
    if (!VersionFile.empty())
      writeAtomically(VersionFile, Version);
  }
  std::string Key = nvccCacheKey(R, Version);
  if (!R.CacheDir.empty()) {
    Out.CacheFile = R.CacheDir + "/" + Key + ".ptxas.log";
    if (std::optional<std::string> Cached = readFile(Out.CacheFile)) {
      Out.Log = std::move(*Cached);
      Out.FromCache = true;
      return Out;
    }
    // A compile nvcc refused, with the same nvcc, arguments and file contents, is refused
    // again: its message is cached too, so a file nvcc rejects costs one nvcc run, not one
    // per check (same words warm and cold).
    if (std::optional<std::string> Failed = readFile(failureFile(Out.CacheFile))) {
      Out.Error = std::move(*Failed);
      Out.FromCache = true;
      return Out;
    }
  }
  int ExitCode = 0;
  if (!run(nvccArgv(R), R.CacheDir, Out.Log, Err, /*CaptureStdout=*/false, &ExitCode)) {
    Out.Error = Err;
    llvm::StringRef Tail(Out.Log);
    if (!Tail.trim().empty())
      Out.Error += ": " + Tail.trim().take_back(600).str();
    // Only an exit status nvcc chose (its compile errors) is kept: a crash, a signal, a
    // time-out or a failure to start may not repeat.
    if (ExitCode > 0 && !R.CacheDir.empty())
      if (std::string WErr = writeAtomically(failureFile(Out.CacheFile), Out.Error);
          !WErr.empty())
        Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + WErr;
    return Out;
  }
  if (!R.CacheDir.empty())
    if (std::string Err = writeAtomically(Out.CacheFile, Out.Log); !Err.empty())
      Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + Err;
  return Out;
}

std::string defaultCacheDir() {
  if (std::optional<std::string> X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    if (!X->empty())
      return *X + "/warplint";
  llvm::SmallString<256> Home;
  if (llvm::sys::path::home_directory(Home))
    return std::string(Home) + "/.cache/warplint";
  return "";
}

std::string findNvcc() {
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("nvcc"))
    return *P;
  std::vector<std::string> Dirs = {"/usr/local/cuda/bin"};
  if (std::optional<std::string> C = llvm::sys::Process::GetEnv("CUDA_PATH"))
    Dirs.insert(Dirs.begin(), *C + "/bin");
  for (const std::string &D : Dirs) {
    std::string P = D + "/nvcc";
    if (llvm::sys::fs::can_execute(P))
      return P;
  }
  return "";
}

} // namespace clang::tidy::warplint
