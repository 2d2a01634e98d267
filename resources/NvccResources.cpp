//===- NvccResources.cpp - nvcc runs for ptxas reports, cached on disk -----===//
#include "resources/NvccResources.h"

#include "warplint/core/PtxasLog.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

namespace warplint {

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
         std::string &Error, bool CaptureStdout = false, std::string *Stderr = nullptr,
         int *ExitCode = nullptr) {
  llvm::SmallString<256> Tmp, ErrTmp;
  std::error_code EC =
      Dir.empty() ? llvm::sys::fs::createTemporaryFile("warplint-nvcc", "log", Tmp)
                  : llvm::sys::fs::createUniqueFile(Dir + "/run-%%%%%%%%.stderr", Tmp);
  if (!EC && Stderr && CaptureStdout)
    EC = llvm::sys::fs::createTemporaryFile("warplint-clang", "err", ErrTmp);
  if (EC) {
    Error = "cannot create a temporary file: " + EC.message();
    return false;
  }
  std::vector<llvm::StringRef> Args(Argv.begin(), Argv.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), CaptureStdout ? llvm::StringRef(Tmp) : llvm::StringRef(""),
      CaptureStdout ? llvm::StringRef(ErrTmp) : llvm::StringRef(Tmp)};
  std::string ExecErr;
  bool Failed = false;
  int Rc = llvm::sys::ExecuteAndWait(Argv.front(), Args, std::nullopt, Redirects,
                                     /*SecondsToWait=*/600, 0, &ExecErr, &Failed);
  Captured = readFile(Tmp).value_or("");
  llvm::sys::fs::remove(Tmp);
  if (!ErrTmp.empty()) {
    *Stderr = readFile(ErrTmp).value_or("");
    llvm::sys::fs::remove(ErrTmp);
  }
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

// A cache entry is its contents behind one header line with their SHA-256 and size:
// an entry cut short, overwritten or edited no longer matches and is a miss, not a
// report (a log truncated to 50 bytes read as "no kernels": every figure silently lost).
constexpr llvm::StringLiteral EntryMagic = "warplint-cache-entry-v1";

std::string sha256Hex(llvm::StringRef Text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Text)), /*LowerCase=*/true);
}

std::string framedEntry(llvm::StringRef Contents) {
  return (EntryMagic + " " + sha256Hex(Contents) + " " + std::to_string(Contents.size()) + "\n" +
          Contents)
      .str();
}

// The contents of a framed entry, or nullopt when the header or the digest does not match.
std::optional<std::string> unframeEntry(llvm::StringRef Entry) {
  auto [Header, Body] = Entry.split('\n');
  if (Header.size() == Entry.size())
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Header.split(Parts, ' ');
  size_t Size = 0;
  if (Parts.size() != 3 || Parts[0] != EntryMagic || Parts[2].getAsInteger(10, Size) ||
      Size != Body.size() || Parts[1] != sha256Hex(Body))
    return std::nullopt;
  return Body.str();
}

// A cache entry, framed, written atomically.
std::string writeEntry(const std::string &Path, llvm::StringRef Contents) {
  return writeAtomically(Path, framedEntry(Contents));
}

} // namespace

CacheRead readCacheEntry(const std::string &Path, std::string &Contents, std::string &Problem) {
  std::optional<std::string> Raw = readFile(Path);
  if (!Raw)
    return CacheRead::Missing;
  if (std::optional<std::string> Body = unframeEntry(*Raw)) {
    Contents = std::move(*Body);
    return CacheRead::Hit;
  }
  // Damaged: removed, so that the run that follows writes it anew; said once by the caller.
  std::error_code EC = llvm::sys::fs::remove(Path);
  Problem = "the cache entry '" + Path + "' was damaged (" + std::to_string(Raw->size()) +
            " bytes that do not match their digest)" +
            (EC ? "; it could not be removed: " + EC.message() : "; it was removed");
  return CacheRead::Damaged;
}

namespace {

/// A cache key: SHA-256 over the parts, each framed by its length ("N:part", so no two
/// lists of parts hash alike), as lowercase hex. Every cache key of a compiler run here
/// (nvcc's figures, clang's AMDGPU assembly and IR) is one.
std::string framedDigest(llvm::ArrayRef<std::string> Parts) {
  llvm::SHA256 H;
  for (const std::string &S : Parts) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  }
  return llvm::toHex(H.final(), /*LowerCase=*/true);
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
  std::vector<std::string> Parts{"warplint-nvcc-resources-v2", // v2: framed entries
                                 NvccVersion};                 // (readCacheEntry)
  llvm::append_range(Parts, nvccArgv(R));
  Parts.push_back(R.ContentKey);
  return framedDigest(Parts);
}

namespace {

// The cache entry of a compile nvcc refused, beside its report's entry.
std::string failureFile(const std::string &LogEntry) {
  llvm::StringRef Base(LogEntry);
  Base.consume_back(".ptxas.log");
  return Base.str() + ".nvcc-error.txt";
}

// A compiler's --version (Name: "nvcc", "clang"), cached in CacheDir under the tool's path,
// size and time: the warm path then starts no process at all. Empty with Error set when
// the tool cannot be run.
std::string toolVersion(llvm::StringRef Name, const std::string &Tool,
                        const std::string &CacheDir, std::string &Error) {
  std::string Version;
  llvm::sys::fs::file_status St;
  std::string VersionFile;
  if (!CacheDir.empty() && !llvm::sys::fs::status(Tool, St)) {
    llvm::SHA256 H;
    H.update(Tool);
    H.update(std::to_string(St.getSize()));
    H.update(std::to_string(St.getLastModificationTime().time_since_epoch().count()));
    VersionFile = CacheDir + "/" + Name.str() + "-version-" +
                  llvm::toHex(H.final(), true).substr(0, 32) + ".txt";
    std::string Ignored;
    readCacheEntry(VersionFile, Version, Ignored); // a damaged one is asked again
  }
  if (Version.empty()) {
    if (!run({Tool, "--version"}, "", Version, Error, /*CaptureStdout=*/true))
      return "";
    if (!VersionFile.empty())
      writeEntry(VersionFile, Version);
  }
  return Version;
}

std::string nvccVersion(const NvccRequest &R, std::string &Error) {
  return toolVersion("nvcc", R.Nvcc, R.CacheDir, Error);
}

// The cache protocol shared by both runs: the entry under Tag + the request's key, else
// Produce (which fills Out.Log or Out.Error), stored on success.
template <typename ProduceFn>
NvccResult cachedRun(const NvccRequest &Request, llvm::StringRef Tag, ProduceFn Produce) {
  NvccResult Out;
  NvccRequest R = Request;
  // An unusable cache is said once and nvcc runs without it: the registers are not lost.
  if (!R.CacheDir.empty()) {
    if (std::string Problem = cacheDirProblem(R.CacheDir); !Problem.empty()) {
      Out.Warning = Problem + "; nvcc runs uncached";
      R.CacheDir.clear();
    }
  }
  std::string Err;
  std::string Version = nvccVersion(R, Err);
  if (Version.empty()) {
    Out.Error = Err;
    return Out;
  }
  // "Cuda compilation tools, release 13.0, V13.0.88": the release the notes name.
  if (size_t At = Version.find("release "); At != std::string::npos)
    Out.Release = llvm::StringRef(Version).substr(At + 8).split(',').first.trim().str();
  std::string Key = nvccCacheKey(R, Tag.empty() ? Version : Version + "\n" + Tag.str());
  if (!R.CacheDir.empty()) {
    Out.CacheFile = R.CacheDir + "/" + Key + ".ptxas.log";
    // A damaged entry is a miss: removed, nvcc runs again and writes it anew, and the
    // run says so once (Out.Repaired; the next run finds the new entry).
    std::string Damage;
    CacheRead Got = readCacheEntry(Out.CacheFile, Out.Log, Damage);
    if (Got == CacheRead::Hit) {
      Out.FromCache = true;
      return Out;
    }
    // A compile nvcc refused, with the same nvcc, arguments and file contents, is refused
    // again: its message is cached too, so a file nvcc rejects costs one nvcc run, not one
    // per check (same words warm and cold).
    if (Got == CacheRead::Missing) {
      Got = readCacheEntry(failureFile(Out.CacheFile), Out.Error, Damage);
      if (Got == CacheRead::Hit) {
        Out.FromCache = true;
        return Out;
      }
    }
    if (Got == CacheRead::Damaged)
      Out.Repaired = Damage + (R.CacheOnly ? "" : "; nvcc ran again");
  }
  if (R.CacheOnly) {
    Out.Error = NvccNotCached;
    return Out;
  }
  int ExitCode = 0;
  Produce(R, Out, ExitCode);
  if (!Out.Error.empty()) {
    // Only an exit status nvcc chose (its compile errors) is kept: a crash, a signal, a
    // time-out or a failure to start may not repeat.
    if (ExitCode > 0 && !R.CacheDir.empty())
      if (std::string WErr = writeEntry(failureFile(Out.CacheFile), Out.Error); !WErr.empty())
        Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + WErr;
    return Out;
  }
  if (!R.CacheDir.empty())
    if (std::string Err = writeEntry(Out.CacheFile, Out.Log); !Err.empty())
      Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + Err;
  return Out;
}

// A unique temp file for nvcc's intermediate output, in Dir or the system's temp dir.
std::string tempPath(llvm::StringRef Dir, llvm::StringRef Suffix, std::string &Error) {
  llvm::SmallString<256> Tmp;
  int FD = -1;
  std::error_code EC =
      Dir.empty() ? llvm::sys::fs::createTemporaryFile("warplint-uncapped", Suffix, FD, Tmp)
                  : llvm::sys::fs::createUniqueFile(Dir + "/uncapped-%%%%%%%%." + Suffix, FD, Tmp);
  if (EC) {
    Error = "cannot create a temporary file: " + EC.message();
    return "";
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return std::string(Tmp);
}

} // namespace

NvccResult runNvccForResources(const NvccRequest &Request) {
  return cachedRun(Request, "", [](const NvccRequest &R, NvccResult &Out, int &ExitCode) {
    std::string Err;
    if (!run(nvccArgv(R), R.CacheDir, Out.Log, Err, /*CaptureStdout=*/false, nullptr,
             &ExitCode)) {
      Out.Error = Err;
      llvm::StringRef Tail(Out.Log);
      if (!Tail.trim().empty())
        Out.Error += ": " + Tail.trim().take_back(600).str();
    }
  });
}

std::string uncapPtx(llvm::StringRef Ptx) {
  // The directives and their integer operands ("maxntid 1024, 1, 1"); PTX has no other
  // token starting with these names.
  static const llvm::Regex Cap(
      "\\.(maxnreg|maxntid|minnctapersm)[ \t]+[0-9]+([ \t]*,[ \t]*[0-9]+)*");
  std::string Out;
  Out.reserve(Ptx.size());
  llvm::StringRef Rest = Ptx;
  llvm::SmallVector<llvm::StringRef, 3> M;
  while (Cap.match(Rest, &M)) {
    size_t At = M[0].data() - Rest.data();
    Out += Rest.take_front(At);
    Rest = Rest.drop_front(At + M[0].size());
  }
  Out += Rest;
  return Out;
}

std::vector<std::string> withoutRegisterCap(const std::vector<std::string> &Args) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-maxrregcount" || A == "--maxrregcount") {
      ++I; // and its value
      continue;
    }
    if (A.starts_with("-maxrregcount=") || A.starts_with("--maxrregcount="))
      continue;
    Out.push_back(Args[I]);
  }
  return Out;
}

namespace {

// Whether nvcc flags Args compile relocatable device code (-rdc=true, -rdc true,
// --relocatable-device-code=true, -dc, --device-c; the last -rdc wins).
bool relocatableDeviceCode(const std::vector<std::string> &Args) {
  bool Rdc = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-dc" || A == "--device-c")
      Rdc = true;
    for (llvm::StringRef Name : {"-rdc", "--relocatable-device-code"}) {
      if (A == Name && I + 1 < Args.size())
        Rdc = Args[I + 1] == "true";
      else if (A.starts_with(Name) && A.substr(Name.size()).starts_with("="))
        Rdc = A.substr(Name.size() + 1) == "true";
    }
  }
  return Rdc;
}

// nvcc -cubin -Xptxas -v on PTX text (written to a temp file beside the cache): ptxas's
// report in Out.Log, or Out.Error. The build's relocatable device code (-rdc=true, -dc)
// is assembled relocatable too, as the register run compiles it: PTX that calls an extern
// device function (dynamic parallelism's launches, a function of another file) does not
// assemble as a whole program ("Unresolved extern function").
void assemblePtx(const NvccRequest &R, llvm::StringRef Text, NvccResult &Out, int &ExitCode) {
  std::string Err;
  std::string Path = tempPath(R.CacheDir, "ptx", Err);
  if (Path.empty()) {
    Out.Error = Err;
    return;
  }
  Err = writeAtomically(Path, Text);
  if (Err.empty()) {
    std::vector<std::string> Assemble = {
        R.Nvcc, "-cubin", "-Xptxas", "-v", "-o",
        llvm::sys::path::get_separator() == "/" ? "/dev/null" : "NUL", "-arch=" + R.Arch, Path};
    if (relocatableDeviceCode(R.Args))
      Assemble.insert(Assemble.begin() + 1, "-rdc=true");
    if (!run(Assemble, R.CacheDir, Out.Log, Err, /*CaptureStdout=*/false, nullptr, &ExitCode)) {
      // ptxas's refusal ("ptxas error   : Entry function ... with max regcount of 48 calls
      // function ... with regcount of 70") says why; its report of the other kernels
      // follows it, so the log's tail alone would not.
      llvm::StringRef Log(Out.Log), Why;
      llvm::SmallVector<llvm::StringRef, 0> Lines;
      Log.split(Lines, '\n');
      for (llvm::StringRef L : Lines)
        if (L.starts_with("ptxas error") || L.starts_with("ptxas fatal")) {
          Why = L.trim();
          break;
        }
      if (!Why.empty())
        Err += ": " + Why.take_front(600).str();
      else if (!Log.trim().empty())
        Err += ": " + Log.trim().take_back(600).str();
    }
  }
  if (!Err.empty())
    Out.Error = Err;
  llvm::sys::fs::remove(Path);
}

// The kept PTX for a run that needs it; false (Out.Error or Out's NvccNotCached set, a
// repaired entry said in Out.Repaired) when there is none.
bool ptxFor(const NvccRequest &R, NvccResult &Out, std::string &Ptx) {
  NvccResult P = keptPtx(R);
  if (!P.Repaired.empty())
    Out.Repaired = P.Repaired;
  if (!P.Error.empty()) {
    Out.Error = P.Error;
    Out.FromCache = P.FromCache; // a refusal cached with the PTX: no nvcc ran
    return false;
  }
  Ptx = std::move(P.Log);
  return true;
}

} // namespace

NvccResult keptPtx(const NvccRequest &Request) {
  return cachedRun(Request, "ptx-v1", [](const NvccRequest &R, NvccResult &Out, int &ExitCode) {
    std::string Err;
    std::string Ptx = tempPath(R.CacheDir, "ptx", Err);
    if (Ptx.empty()) {
      Out.Error = Err;
      return;
    }
    std::vector<std::string> ToPtx = {R.Nvcc};
    for (const std::string &A : withoutRegisterCap(R.Args))
      ToPtx.push_back(A);
    for (const char *A : {"-ptx", "-o"})
      ToPtx.emplace_back(A);
    ToPtx.push_back(Ptx);
    ToPtx.push_back("-arch=" + R.Arch);
    ToPtx.push_back(R.Source);
    std::string Log;
    bool Ok = run(ToPtx, R.CacheDir, Log, Err, /*CaptureStdout=*/false, nullptr, &ExitCode);
    std::optional<std::string> Text = Ok ? readFile(Ptx) : std::nullopt;
    llvm::sys::fs::remove(Ptx);
    if (Ok && !Text)
      Err = "nvcc -ptx wrote no PTX";
    if (!Text) {
      Out.Error = Err;
      llvm::StringRef Tail(Log);
      if (!Tail.trim().empty())
        Out.Error += ": " + Tail.trim().take_back(600).str();
      return;
    }
    Out.Log = uncapPtx(*Text);
  });
}

NvccResult runUncappedNvcc(const NvccRequest &Request) {
  // v2: relocatable device code assembled with -rdc=true, a refusal said by ptxas's error
  // line (a failure cached by v1 is not read back).
  return cachedRun(Request, "uncapped-v2", [](const NvccRequest &R, NvccResult &Out,
                                               int &ExitCode) {
    std::string Ptx;
    if (ptxFor(R, Out, Ptx))
      assemblePtx(R, Ptx, Out, ExitCode);
  });
}

std::string PtxBound::key() const {
  return Kernel + ":" +
         (MaxRegisters ? "maxnreg " + std::to_string(MaxRegisters)
                       : std::to_string(Threads) + "," + std::to_string(MinBlocks));
}

std::string boundPtx(llvm::StringRef Ptx, const std::vector<PtxBound> &Bounds,
                     std::vector<std::string> &Missing) {
  // Where each entry's parameter list closes: ".entry NAME(" ... ")" (parameters hold no
  // parentheses), then the directives, then the body's "{".
  // The bound names a kernel as the register table does, without the
  // `__nv_static_<N>__<hash>_` prefix that -rdc gives a kernel of internal linkage (a
  // static __global__): the entry is matched with or without it.
  std::vector<std::pair<size_t, std::string>> Inserts;
  for (const PtxBound &B : Bounds) {
    size_t At = llvm::StringRef::npos;
    for (size_t From = 0;;) {
      size_t E = Ptx.find(".entry ", From);
      if (E == llvm::StringRef::npos)
        break;
      size_t Start = E + 7;
      llvm::StringRef Name = Ptx.drop_front(Start).take_until(
          [](char C) { return C == '(' || C == ' ' || C == '\t' || C == '\n' || C == '\r'; });
      size_t After = Start + Name.size();
      llvm::StringRef Rest = Ptx.drop_front(After).ltrim(" \t");
      if ((Name == B.Kernel ||
           ::warplint::stripNvStaticPrefix(std::string_view(Name.data(), Name.size())) ==
               B.Kernel) &&
          Rest.starts_with("(")) {
        size_t Close = Ptx.find(')', After);
        if (Close != llvm::StringRef::npos)
          At = Close + 1;
        break;
      }
      From = After;
    }
    if (At == llvm::StringRef::npos) {
      Missing.push_back(B.Kernel);
      continue;
    }
    std::string D = B.MaxRegisters ? "\n.maxnreg " + std::to_string(B.MaxRegisters)
                                   : "\n.maxntid " + std::to_string(B.Threads) +
                                         ", 1, 1\n.minnctapersm " + std::to_string(B.MinBlocks);
    Inserts.emplace_back(At, D);
  }
  std::sort(Inserts.begin(), Inserts.end());
  std::string Out;
  size_t Last = 0;
  for (auto &[At, D] : Inserts) {
    Out += Ptx.slice(Last, At);
    Out += D;
    Last = At;
  }
  Out += Ptx.drop_front(Last);
  return Out;
}

NvccResult runBoundedPtxas(const NvccRequest &Request, const std::vector<PtxBound> &Bounds) {
  std::string Tag = "bounded-v2"; // v2: as uncapped-v2
  for (const PtxBound &B : Bounds)
    Tag += "\n" + B.key();
  return cachedRun(Request, Tag, [&Bounds](const NvccRequest &R, NvccResult &Out,
                                           int &ExitCode) {
    std::string Ptx;
    if (!ptxFor(R, Out, Ptx))
      return;
    std::vector<std::string> Missing;
    std::string Bounded = boundPtx(Ptx, Bounds, Missing);
    if (!Missing.empty()) {
      Out.Error = "no entry in the PTX for " + llvm::join(Missing, ", ");
      return;
    }
    assemblePtx(R, Bounded, Out, ExitCode);
  });
}

std::vector<std::string> clangDeviceArgv(const ClangDeviceRequest &R) {
  std::vector<std::string> Argv = {R.Clang};
  Argv.insert(Argv.end(), R.Args.begin(), R.Args.end());
  for (const char *A : {"-S", "-o", "-"})
    Argv.emplace_back(A);
  Argv.push_back(R.Source);
  return Argv;
}

namespace {

/// What parseAmdgpuAssembly reads: the target, the function symbols with their
/// occupancy comments, and the metadata document.
std::string reduceAssembly(llvm::StringRef Asm) {
  std::string Out;
  bool InMeta = false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Asm.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    if (T.starts_with(".amdgpu_metadata"))
      InMeta = true;
    if (InMeta || T.starts_with(".amdgcn_target") || T.starts_with("; Occupancy:") ||
        (T.starts_with(".type") && T.contains("@function")))
      Out += Line.str() + "\n";
    if (T.starts_with(".end_amdgpu_metadata"))
      InMeta = false;
  }
  return Out;
}

/// What both clang runs do first: a cache directory that cannot be used is said once and
/// dropped (the run goes uncached); clang's `--version` names the release and keys the
/// cache. The request's Version when it has one (the what-if is given the register run's),
/// else the cached answer for this clang binary (as nvcc's), else clang is asked. False
/// (Out.Error set) when clang cannot run.
bool startClangRun(ClangDeviceRequest &R, ClangDeviceResult &Out, std::string &Version) {
  if (!R.CacheDir.empty()) {
    if (std::string Problem = cacheDirProblem(R.CacheDir); !Problem.empty()) {
      Out.Warning = Problem + "; clang runs uncached";
      R.CacheDir.clear();
    }
  }
  Version = R.Version;
  std::string Err;
  if (Version.empty())
    Version = toolVersion("clang", R.Clang, R.CacheDir, Err);
  if (Version.empty()) {
    Out.Error = Err;
    return false;
  }
  Out.Release = clangRelease(Version);
  Out.Version = Version;
  return true;
}

/// Runs one of clang's steps (Argv) with its output on stdout into Stdout. False when it
/// fails, with Out.Error saying why and quoting clang's first error ("HIP is not
/// supported on GFX10 with wavefront size 64"); clang's diagnostics are not kept.
bool runClangStep(const std::vector<std::string> &Argv, const ClangDeviceRequest &R,
                  std::string &Stdout, ClangDeviceResult &Out) {
  std::string Err, Diagnostics;
  if (run(Argv, R.CacheDir, Stdout, Err, /*CaptureStdout=*/true, &Diagnostics))
    return true;
  Out.Error = Err;
  llvm::StringRef D(Diagnostics);
  if (size_t At = D.find("error: "); At != llvm::StringRef::npos)
    Out.Error += ": " + D.substr(At + 7).split('\n').first.trim().take_front(300).str();
  return false;
}

} // namespace

ClangDeviceResult runClangForAmdgpuResources(const ClangDeviceRequest &Request) {
  ClangDeviceResult Out;
  ClangDeviceRequest R = Request;
  std::string Version;
  if (!startClangRun(R, Out, Version))
    return Out;
  std::vector<std::string> Parts{"warplint-clang-amdgpu-resources-v2", Version};
  llvm::append_range(Parts, clangDeviceArgv(R));
  Parts.push_back(R.ContentKey);
  std::string Key = framedDigest(Parts);
  std::string CacheFile;
  if (!R.CacheDir.empty()) {
    CacheFile = R.CacheDir + "/" + Key + ".amdgpu.s";
    std::string Damage;
    CacheRead Got = readCacheEntry(CacheFile, Out.Assembly, Damage);
    if (Got == CacheRead::Hit) {
      Out.FromCache = true;
      return Out;
    }
    if (Got == CacheRead::Damaged)
      Out.Repaired = Damage + "; clang ran again";
  }
  std::string Asm;
  if (!runClangStep(clangDeviceArgv(R), R, Asm, Out))
    return Out;
  Out.Assembly = reduceAssembly(Asm);
  if (!CacheFile.empty())
    if (std::string Err = writeEntry(CacheFile, Out.Assembly); !Err.empty())
      Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + Err;
  return Out;
}

std::string clangRelease(llvm::StringRef VersionText) {
  size_t At = VersionText.find("clang version ");
  if (At == llvm::StringRef::npos)
    return "";
  llvm::StringRef V = VersionText.substr(At + 14).split(' ').first.split('\n').first;
  // "22.1.8" -> "22.1", as nvcc's release is named.
  auto [Major, Rest] = V.split('.');
  llvm::StringRef Minor = Rest.split('.').first;
  return Minor.empty() ? Major.str() : (Major + "." + Minor).str();
}

std::string AmdgpuBound::key() const {
  if (MaxVgprs)
    return Kernel + ":num-vgpr " + std::to_string(MaxVgprs);
  return Kernel + ":" + std::to_string(Threads) + "," + std::to_string(WavesPerEu);
}

namespace {

/// Where a `define` line refers to its attribute group ("#3", before the body's brace
/// and any "!dbg !7"): the offset of the '#' and the number, or npos.
std::pair<size_t, long> defineGroup(llvm::StringRef Line) {
  size_t Brace = Line.rfind('{');
  if (Brace == llvm::StringRef::npos)
    return {llvm::StringRef::npos, -1};
  llvm::StringRef Head = Line.take_front(Brace);
  for (size_t Hash = Head.rfind('#'); Hash != llvm::StringRef::npos && Hash > 0;
       Hash = Head.take_front(Hash).rfind('#')) {
    llvm::StringRef Digits = Head.substr(Hash + 1).take_while(llvm::isDigit);
    long N = -1;
    llvm::StringRef After = Head.substr(Hash + 1 + Digits.size());
    if (Head[Hash - 1] == ' ' && !Digits.empty() && !Digits.getAsInteger(10, N) &&
        (After.empty() || After.front() == ' '))
      return {Hash, N};
  }
  return {llvm::StringRef::npos, -1};
}

/// The name of the function a `define` line defines ("@_Z1kPf(" -> "_Z1kPf"; a quoted
/// name unquoted).
llvm::StringRef defineName(llvm::StringRef Line) {
  size_t At = Line.find(" @");
  if (At == llvm::StringRef::npos)
    return "";
  llvm::StringRef N = Line.substr(At + 2);
  if (N.starts_with("\""))
    return N.drop_front().split('"').first;
  return N.take_until([](char C) { return C == '('; });
}

/// Sets (replaces or adds) the string attribute Key="Value" in an attribute group's body.
std::string setAttribute(llvm::StringRef Body, llvm::StringRef Key, llvm::StringRef Value) {
  std::string Quoted = ("\"" + Key + "\"").str();
  std::string New = Quoted + "=\"" + Value.str() + "\"";
  size_t At = Body.find(Quoted);
  if (At == llvm::StringRef::npos) {
    size_t Close = Body.rfind('}');
    if (Close == llvm::StringRef::npos)
      return Body.str();
    return (Body.take_front(Close).rtrim() + " " + New + " " + Body.substr(Close)).str();
  }
  size_t End = At + Quoted.size();
  if (Body.substr(End).starts_with("=\"")) {
    size_t Q = Body.find('"', End + 2);
    End = Q == llvm::StringRef::npos ? Body.size() : Q + 1;
  }
  return (Body.take_front(At) + New + Body.substr(End)).str();
}

} // namespace

std::string boundAmdgpuIr(llvm::StringRef Ir, const std::vector<AmdgpuBound> &Bounds,
                          std::vector<std::string> &Missing) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Ir.split(Lines, '\n');
  // The attribute groups by number, and the largest number in use.
  std::map<long, llvm::StringRef> Groups;
  long Next = 0;
  for (llvm::StringRef L : Lines)
    if (L.starts_with("attributes #")) {
      long N = -1;
      llvm::StringRef Num = L.drop_front(12).take_while(llvm::isDigit);
      if (!Num.getAsInteger(10, N)) {
        Groups[N] = L.substr(L.find('=') + 1).trim();
        Next = std::max(Next, N + 1);
      }
    }
  std::string Out, Added;
  std::vector<bool> Found(Bounds.size(), false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I];
    std::string Line = L.str();
    if (L.starts_with("define ")) {
      llvm::StringRef Name = defineName(L);
      auto [Hash, G] = defineGroup(L);
      for (size_t B = 0; B < Bounds.size(); ++B) {
        if (Found[B] || Bounds[B].Kernel != Name || G < 0 || !Groups.count(G))
          continue;
        Found[B] = true;
        std::string Body = Groups[G].str();
        const AmdgpuBound &Bd = Bounds[B];
        if (Bd.MaxVgprs) {
          Body = setAttribute(Body, "amdgpu-num-vgpr", std::to_string(Bd.MaxVgprs));
        } else {
          Body = setAttribute(Body, "amdgpu-flat-work-group-size",
                              "1," + std::to_string(Bd.Threads));
          Body = setAttribute(Body, "amdgpu-waves-per-eu", std::to_string(Bd.WavesPerEu));
        }
        size_t End = Hash + 1 + L.substr(Hash + 1).take_while(llvm::isDigit).size();
        Line = (L.take_front(Hash) + "#" + std::to_string(Next) + L.substr(End)).str();
        Added += "attributes #" + std::to_string(Next) + " = " + Body + "\n";
        ++Next;
      }
    }
    Out += Line;
    if (I + 1 < Lines.size())
      Out += "\n";
  }
  for (size_t B = 0; B < Bounds.size(); ++B)
    if (!Found[B])
      Missing.push_back(Bounds[B].Kernel);
  if (!Out.empty() && Out.back() != '\n')
    Out += "\n";
  return Out + Added;
}

ClangDeviceResult runBoundedClang(const ClangDeviceRequest &Request,
                                  const std::vector<AmdgpuBound> &Bounds) {
  ClangDeviceResult Out;
  ClangDeviceRequest R = Request;
  std::string Version;
  if (!startClangRun(R, Out, Version))
    return Out;
  std::vector<std::string> IrArgv = clangDeviceArgv(R);
  IrArgv.insert(IrArgv.end() - 1, "-emit-llvm");
  auto KeyOf = [&](llvm::StringRef Tag, llvm::ArrayRef<std::string> Extra) {
    std::vector<std::string> Parts{Tag.str(), Version};
    llvm::append_range(Parts, IrArgv);
    Parts.push_back(R.ContentKey);
    llvm::append_range(Parts, Extra);
    return framedDigest(Parts);
  };
  // Read a cache entry (a damaged one is said and removed), or nothing.
  auto Cached = [&](const std::string &File, std::string &Contents) {
    if (R.CacheDir.empty())
      return false;
    std::string Damage;
    CacheRead Got = readCacheEntry(File, Contents, Damage);
    if (Got == CacheRead::Damaged)
      Out.Repaired = Damage + "; clang ran again";
    return Got == CacheRead::Hit;
  };
  auto Store = [&](const std::string &File, llvm::StringRef Contents) {
    if (!R.CacheDir.empty())
      if (std::string E = writeEntry(File, Contents); !E.empty())
        Out.Warning = "cannot write the cache entry in '" + R.CacheDir + "': " + E;
  };
  std::vector<std::string> BoundKeys;
  for (const AmdgpuBound &B : Bounds)
    BoundKeys.push_back(B.key());
  std::string WhatIfFile =
      R.CacheDir.empty()
          ? ""
          : R.CacheDir + "/" + KeyOf("warplint-clang-amdgpu-whatif-v1", BoundKeys) + ".amdgpu.s";
  if (Cached(WhatIfFile, Out.Assembly)) {
    Out.FromCache = true;
    return Out;
  }
  // The device IR, kept: the optimised module the backend reads in the register run.
  std::string IrFile =
      R.CacheDir.empty() ? "" : R.CacheDir + "/" + KeyOf("warplint-clang-amdgpu-ir-v1", {}) + ".amdgpu.ll";
  std::string Ir;
  if (!Cached(IrFile, Ir)) {
    if (!runClangStep(IrArgv, R, Ir, Out))
      return Out;
    Store(IrFile, Ir);
  }
  std::vector<std::string> Missing;
  std::string Bounded = boundAmdgpuIr(Ir, Bounds, Missing);
  if (!Missing.empty()) {
    Out.Error = "the kernel '" + Missing.front() + "' is not defined in the device IR";
    return Out;
  }
  // The target from the IR itself (its kernels' "target-cpu"), so that the backend sees
  // the processor the register run compiled for.
  llvm::StringRef IrRef(Bounded);
  std::string Cpu;
  if (size_t At = IrRef.find("\"target-cpu\"=\""); At != llvm::StringRef::npos)
    Cpu = IrRef.substr(At + 14).split('"').first.str();
  llvm::SmallString<256> Tmp;
  int FD = -1;
  std::error_code EC = R.CacheDir.empty()
                           ? llvm::sys::fs::createTemporaryFile("warplint-whatif", "ll", FD, Tmp)
                           : llvm::sys::fs::createUniqueFile(R.CacheDir + "/whatif-%%%%%%%%.ll",
                                                             FD, Tmp);
  if (EC) {
    Out.Error = "cannot write the bounded IR: " + EC.message();
    return Out;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bounded;
  }
  // The backend alone over the optimised IR (-disable-llvm-optzns): the IR's counts
  // without a bound are the register run's.
  std::vector<std::string> Argv = {R.Clang, "-x", "ir", "--target=amdgcn-amd-amdhsa"};
  if (!Cpu.empty())
    Argv.push_back("-mcpu=" + Cpu);
  for (const char *A : {"-nogpulib", "-O3", "-Xclang", "-disable-llvm-optzns", "-S", "-o", "-"})
    Argv.emplace_back(A);
  Argv.push_back(std::string(Tmp));
  std::string Asm;
  bool Ok = runClangStep(Argv, R, Asm, Out);
  llvm::sys::fs::remove(Tmp);
  if (!Ok)
    return Out;
  Out.Assembly = reduceAssembly(Asm);
  Store(WhatIfFile, Out.Assembly);
  return Out;
}

std::string findHipClang() {
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("clang++-22"))
    return *P;
  if (llvm::sys::fs::can_execute("/usr/lib/llvm-22/bin/clang++"))
    return "/usr/lib/llvm-22/bin/clang++";
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("clang++"))
    return *P;
  return "";
}

std::string findRocmDeviceLibs() {
  std::vector<std::string> Dirs;
  if (std::optional<std::string> R = llvm::sys::Process::GetEnv("ROCM_PATH"))
    if (!R->empty())
      Dirs.push_back(*R + "/amdgcn/bitcode");
  for (const char *D : {"/opt/rocm/amdgcn/bitcode", "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                        "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode"})
    Dirs.push_back(D);
  for (const std::string &D : Dirs)
    if (llvm::sys::fs::exists(D + "/ockl.bc"))
      return D;
  return "";
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

} // namespace warplint
