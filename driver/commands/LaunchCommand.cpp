//===- LaunchCommand.cpp - `warplint launch`: a compiler launcher that also checks -===//
//
// CMake's <LANG>_COMPILER_LAUNCHER runs `warplint launch -- nvcc ARGS...` for each compile.
// The compile runs as given (its argument vector, its output and its exit status
// untouched). The same translation unit is analysed from the same command, translated as
// `check -p` translates a database command, with the registers of the object the compile
// writes. The analysis runs in a child process (a crash there cannot fail a build that
// compiled), started beside the compile when a core is free: the child parses and runs
// the checks while the compiler runs, and waits for the compile's end only where it reads
// the object (the register source and the result cache's object digest wait on a gate,
// resources/Resources.h). Its output is held until the compile has ended and printed
// after the compiler's; after a failed compile it is discarded and the child ended.
//
//===----------------------------------------------------------------------------===//
#include "driver/run/Analysis.h"
#include "driver/run/LaunchPlan.h"
#include "driver/commands/ArgParser.h"
#include "driver/commands/Commands.h"
#include "driver/formats/Formats.h"
#include "resources/Resources.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace warplint::driver {
namespace {

constexpr const char *Usage =
    R"(usage: warplint launch [options] -- COMPILER ARGS...

A compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER, CMAKE_HIP_COMPILER_LAUNCHER,
CMAKE_CXX_COMPILER_LAUNCHER for clang CUDA): runs the compile exactly as given and
analyses the same CUDA or HIP translation unit from the same command (nvcc, hipcc or
clang), beside the compile when a core is free; after a successful compile it prints the
findings on stderr as compiler diagnostics.
Registers come from the object the compile just wrote (no second nvcc); for a compile
that writes no device code (-E, -M, --cuda-host-only) from the register cache.
Other launchers go after `--`: warplint launch -- ccache nvcc ... (see
docs/build-integration.md). The `--` may be left out when COMPILER does not start with '-'.

options:
  --warnings-as-errors GLOBS   matching warnings become errors (clang-tidy's syntax) and
                           fail the compile step (exit 1 after a successful compile);
                           an analysis that could not run fails it too
  --sarif-dir DIR          write one SARIF log per translation unit into DIR (created,
                           written atomically), for `warplint sarif-merge DIR/*.sarif`
  --source-root DIR        SARIF locations relative to DIR (default: absolute paths)
  --checks GLOBS           clang-tidy check globs (default '-*,warplint-*'; .clang-tidy
                           files apply too)
  --arch sm_XX|gfxNNN      analyse the device side for this architecture instead of the
                           command's own
  --gpu NAME               a GPU product (h100, a100, ...) for the grid-level figures
  --assume-block X[xYxZ]   the block assumed for kernels with no launch of a known
                           block (warplint.AssumedBlock; default 256)
  --assume-grid X[xYxZ]    the grid assumed for kernels with no launch of a known grid
  --no-cache               analyse afresh (no result cache)
  --cache-dir DIR          the register and result cache (default $XDG_CACHE_HOME/warplint
                           or ~/.cache/warplint)
  --overlap auto|always|never
                           start the analysis beside the compile (always), after it
                           (never), or beside it while the load average leaves a core
                           free (auto, the default)

exit status: the compile's own when it failed or could not start (127); else 0, or 1
when a finding is an error (--warnings-as-errors, or WarningsAsErrors in .clang-tidy),
or 2 for bad launcher options (the compile still runs). An analysis that fails or
crashes is said on stderr and does not change the status without --warnings-as-errors.
)";

struct LaunchConfig {
  std::string WarningsAsErrors;
  std::string SarifDir;
  std::string SourceRoot;
  std::string Checks = "-*,warplint-*";
  std::string Arch;
  std::string Gpu;
  std::string AssumeBlock, AssumeGrid;
  std::string CacheDir;
  bool NoCache = false;
  std::string Overlap = "auto";
};

/// Launcher options that take their value as the next argument.
bool takesValue(llvm::StringRef Arg) {
  return Arg == "--warnings-as-errors" || Arg == "--sarif-dir" || Arg == "--source-root" ||
         Arg == "--checks" || Arg == "--arch" || Arg == "--gpu" || Arg == "--cache-dir" ||
         Arg == "--assume-block" || Arg == "--assume-grid" || Arg == "--overlap";
}

/// Splits `warplint launch`'s arguments into its own options and the compile command:
/// everything after `--`, or from the first argument that is not an option.
void splitArgs(const std::vector<std::string> &Args, std::vector<std::string> &Own,
               std::vector<std::string> &Compile) {
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      Compile.assign(Args.begin() + I + 1, Args.end());
      return;
    }
    if (Args[I].empty() || Args[I][0] != '-') {
      Compile.assign(Args.begin() + I, Args.end());
      return;
    }
    Own.push_back(Args[I]);
    if (takesValue(Args[I]) && I + 1 < Args.size())
      Own.push_back(Args[++I]);
  }
}

ArgParser::Result parseLaunchArgs(const std::vector<std::string> &Own, LaunchConfig &C,
                                  std::string &Err) {
  ArgParser P("launch");
  P.option("--warnings-as-errors", C.WarningsAsErrors)
      .option("--sarif-dir", C.SarifDir, "a directory")
      .option("--source-root", C.SourceRoot, "a directory")
      .option("--checks", C.Checks)
      .option("--arch", gpuArchOption(C.Arch, "warplint launch"))
      .option("--gpu", gpuOption(C.Gpu))
      .option("--assume-block", shapeOption("--assume-block", false, C.AssumeBlock))
      .option("--assume-grid", shapeOption("--assume-grid", true, C.AssumeGrid))
      .option("--cache-dir", C.CacheDir, "a directory")
      .option("--overlap",
              [&C](llvm::StringRef V, std::string &E) {
                if (V != "auto" && V != "always" && V != "never") {
                  E = "--overlap takes auto, always or never, not '" + V.str() + "'";
                  return false;
                }
                C.Overlap = V.str();
                return true;
              },
              "auto, always or never")
      .flag("--no-cache", C.NoCache);
  ArgParser::Result R = P.parse(Own, Err);
  if (R == ArgParser::Result::Ok && !C.SourceRoot.empty()) {
    llvm::SmallString<256> Root(C.SourceRoot);
    llvm::sys::fs::make_absolute(Root);
    C.SourceRoot = std::string(Root);
  }
  return R;
}

/// The exit status of a finished child as a shell gives it (128 + signal when killed).
int statusOf(int WaitStatus) {
  if (WIFEXITED(WaitStatus))
    return WEXITSTATUS(WaitStatus);
  if (WIFSIGNALED(WaitStatus))
    return 128 + WTERMSIG(WaitStatus);
  return 1;
}

std::vector<char *> argvOf(const std::vector<std::string> &Args) {
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  return Argv;
}

/// Runs the compile with the launcher's stdin, stdout and stderr (no shell); its exit
/// status, or 127 with a message when it cannot start.
int runCompile(const std::vector<std::string> &Compile) {
  std::vector<char *> Argv = argvOf(Compile);
  pid_t Pid;
  int Err = posix_spawnp(&Pid, Argv[0], nullptr, nullptr, Argv.data(), environ);
  if (Err != 0) {
    llvm::errs() << "warplint launch: cannot run '" << Compile[0] << "': " << std::strerror(Err)
                 << "\n";
    return 127;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR)
      return 1;
  return statusOf(Status);
}

/// The launcher's one compile command as a compile database: each source gets the
/// command without the other sources (clang's tooling parses one input per command).
class OneCommandDatabase : public clang::tooling::CompilationDatabase {
public:
  OneCommandDatabase(std::string Dir, std::vector<std::string> Command,
                     std::vector<std::string> Written, std::vector<std::string> Absolute)
      : Dir(std::move(Dir)), Command(std::move(Command)), Written(std::move(Written)),
        Absolute(std::move(Absolute)) {}

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    for (size_t I = 0; I < Absolute.size(); ++I) {
      if (Absolute[I] != File && !llvm::sys::fs::equivalent(Absolute[I], File))
        continue;
      std::vector<std::string> Line;
      for (const std::string &A : Command)
        if (A == Written[I] || !llvm::is_contained(Written, A))
          Line.push_back(A);
      return {clang::tooling::CompileCommand(Dir, Absolute[I], std::move(Line), "")};
    }
    return {};
  }
  std::vector<std::string> getAllFiles() const override { return Absolute; }

private:
  std::string Dir;
  std::vector<std::string> Command, Written, Absolute;
};

std::string absolutePath(const std::string &P) {
  llvm::SmallString<256> Abs(P);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

bool isClangDiagnostic(const Finding &F) {
  return llvm::StringRef(F.Check).starts_with("clang-diagnostic-");
}

/// The first of clang's errors in File, as "file:line:col: message", or "".
std::string firstClangError(const RunResult &R) {
  for (const Finding &F : R.Findings)
    if (isClangDiagnostic(F) && F.Level == Severity::Error)
      return F.Pos.Line ? fmt::format("{}:{}:{}: {}", F.Pos.File, F.Pos.Line, F.Pos.Column,
                                      F.Message)
                        : F.Message;
  return "";
}

/// Where the SARIF log of this compile goes: DIR/<source stem>-<hash of the source and
/// the object>.sarif, one name per translation unit of the build.
std::string sarifPath(const std::string &Dir, const LaunchPlan &Plan) {
  std::string Key = absolutePath(Plan.Sources.front()) + '\0' +
                    (Plan.Output.empty() ? "" : absolutePath(Plan.Output));
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, fmt::format("{}-{:016x}.sarif",
                                            llvm::sys::path::stem(Plan.Sources.front()).str(),
                                            llvm::xxh3_64bits(llvm::StringRef(Key))));
  return std::string(Path);
}

// What the analysis child tells the parent through its exit status.
constexpr int AnalysedClean = 0;
constexpr int AnalysedErrors = 1; // a finding is an error: fail the step
constexpr int NotAnalysed = 3;    // the analysis could not run (said on stderr)
constexpr int AnalyseAfter = 4;   // beside the compile: the object it wrote is not one
                                  // warplint reads; analyse again after the compile

/// Analyses the compile's translation units, prints the findings on stderr and writes
/// the SARIF log; one of the codes above. Beside: the compile is still running (the
/// object's readers wait on the gate the caller set).
int analyseAndReport(const LaunchConfig &C, const LaunchPlan &Plan, bool Beside) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::vector<std::string> Absolute;
  for (const std::string &S : Plan.Sources)
    Absolute.push_back(absolutePath(S));
  OneCommandDatabase Db(std::string(Cwd), Plan.Command, Plan.Sources, Absolute);

  AnalysisOptions A;
  A.Database = &Db;
  A.Files = Absolute;
  A.Checks = C.Checks;
  A.WarningsAsErrors = C.WarningsAsErrors;
  A.Arch = C.Arch;
  A.Gpu = C.Gpu;
  A.AssumeBlock = C.AssumeBlock;
  A.AssumeGrid = C.AssumeGrid;
  A.CacheDir = C.CacheDir;
  A.ResultCache = !C.NoCache;
  A.CollectLaunches = false;
  A.Jobs = 1;
  uint64_t Size = 0;
  // Beside the compile the object is not written yet: the gate checks it once it is.
  if (Plan.DeviceCode &&
      (Beside || (!llvm::sys::fs::file_size(Plan.Output, Size) && Size > 0)))
    A.Objects.push_back(Plan.Output);
  else
    A.NvccCacheOnly = true; // no device code written: nvcc's figures from the cache only

  std::string Err;
  RunResult R = analyse(A, Err);
  if (!Err.empty() && !A.Objects.empty()) {
    // An object warplint cannot read registers from: the register cache instead.
    A.Objects.clear();
    A.NvccCacheOnly = true;
    Err.clear();
    R = analyse(A, Err);
  }
  if (!Err.empty()) {
    llvm::errs() << "warplint launch: " << Plan.Sources.front() << " not analysed: " << Err
                 << "\n";
    return NotAnalysed;
  }

  // The checks' findings, as the compiler's own diagnostics are written; clang's errors
  // (code nvcc accepts and clang does not) are summed up, not printed as the build's.
  RunResult Shown;
  for (const Finding &F : R.Findings)
    if (!isClangDiagnostic(F))
      Shown.Findings.push_back(F);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeText(Shown, LocationOptions{}, llvm::sys::Process::StandardErrIsDisplayed(), OS);
  llvm::errs() << Text;
  for (const RunMessage &M : R.Messages)
    if (M.Level != Severity::Note)
      llvm::errs() << "warplint launch: " << severityName(M.Level) << ": " << M.Text << "\n";
  for (const std::string &F : R.FilesFailed)
    llvm::errs() << "warplint launch: " << F << " not analysed: clang could not parse it ("
                 << firstClangError(R) << "); 'warplint check' on it shows every error\n";
  for (const std::string &F : R.FilesWithErrors)
    llvm::errs() << "warplint launch: " << F
                 << " analysed with errors clang gives and the compiler did not (first: "
                 << firstClangError(R) << "): the findings cover the code clang could build\n";

  int Code = R.FilesFailed.empty() ? AnalysedClean : NotAnalysed;
  if (!C.SarifDir.empty()) {
    std::string Sarif;
    llvm::raw_string_ostream SOS(Sarif);
    writeSarif(R, LocationOptions{C.SourceRoot}, SOS);
    std::string Path = sarifPath(C.SarifDir, Plan);
    if (std::error_code EC = llvm::sys::fs::create_directories(C.SarifDir)) {
      llvm::errs() << "warplint launch: --sarif-dir " << C.SarifDir << ": " << EC.message()
                   << "\n";
      Code = NotAnalysed;
    } else if (!writeFileAtomically(Path, Sarif, Err)) {
      llvm::errs() << "warplint launch: " << Err << "\n";
      Code = NotAnalysed;
    }
  }
  size_t AsErrors = llvm::count_if(R.Findings, [](const Finding &F) {
    return !isClangDiagnostic(F) && F.Level == Severity::Error;
  });
  if (AsErrors) {
    llvm::errs() << fmt::format("warplint launch: {} warning{} treated as error{}{}\n", AsErrors,
                                AsErrors == 1 ? "" : "s", AsErrors == 1 ? "" : "s",
                                C.WarningsAsErrors.empty()
                                    ? " (WarningsAsErrors in .clang-tidy)"
                                    : " (--warnings-as-errors '" + C.WarningsAsErrors + "')");
    return AnalysedErrors;
  }
  return Code;
}

void flushAll() {
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
}

/// The analysis child's code from its wait status; a crash is said (NotAnalysed). Held:
/// the child's output, printed first unless the child asks to be run again after the
/// compile (AnalyseAfter).
int childCode(pid_t Pid, const LaunchPlan &Plan, const std::string &Held = "") {
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR)
      return NotAnalysed;
  if (!(WIFEXITED(Status) && WEXITSTATUS(Status) == AnalyseAfter))
    llvm::errs() << Held;
  if (WIFSIGNALED(Status)) {
    llvm::errs() << "warplint launch: the analysis of " << Plan.Sources.front()
                 << " crashed (signal " << WTERMSIG(Status) << ", " << strsignal(WTERMSIG(Status))
                 << "); the compile itself succeeded\n";
    return NotAnalysed;
  }
  return statusOf(Status);
}

/// Runs analyseAndReport in a child process after the compile; its code, or NotAnalysed
/// (said) when the child crashed.
int analyseInChild(const LaunchConfig &C, const LaunchPlan &Plan) {
  flushAll();
  pid_t Pid = fork();
  if (Pid < 0)
    return analyseAndReport(C, Plan, false); // no child to be had: in this process
  if (Pid == 0) {
    int Code = analyseAndReport(C, Plan, false);
    flushAll();
    _exit(Code);
  }
  return childCode(Pid, Plan);
}

/// Whether to start the analysis beside the compile: --overlap always; with auto, while
/// the 1-minute load average is below the number of cores this process may use (a core
/// is free for it).
bool analyseBeside(const std::string &Overlap) {
  if (Overlap != "auto")
    return Overlap == "always";
  cpu_set_t Set;
  int Cores = sched_getaffinity(0, sizeof(Set), &Set) == 0 ? CPU_COUNT(&Set)
                                                             : int(sysconf(_SC_NPROCESSORS_ONLN));
  double Load = 0;
  return Cores > 1 && getloadavg(&Load, 1) == 1 && Load < Cores;
}

int closeBoth(int Fds[2]) {
  close(Fds[0]);
  close(Fds[1]);
  return 0;
}

/// Runs the compile with the analysis beside it: a child analyses while the compiler runs
/// and waits, where it reads the object, until the parent says the compile succeeded
/// (one byte on a pipe). The child's stderr goes into a pipe that the parent copies to its
/// own after the compile, so the compiler's messages come first and the findings of a
/// failed compile are never shown (the child is then killed). Returns the compile's
/// status; Code is the analysis's (NotAnalysed when nothing could be started: the caller
/// analyses after the compile instead, Started false).
int compileWithAnalysisBeside(const LaunchConfig &C, const LaunchPlan &Plan,
                              const std::vector<std::string> &Compile, int &Code,
                              bool &Started) {
  Started = false;
  int Gate[2], Out[2];
  if (pipe2(Gate, O_CLOEXEC) != 0)
    return -1;
  if (pipe2(Out, O_CLOEXEC) != 0)
    return closeBoth(Gate) - 1;
  flushAll();
  pid_t Pid = fork();
  if (Pid < 0)
    return closeBoth(Gate) + closeBoth(Out) - 1;
  if (Pid == 0) {
    close(Gate[1]);
    close(Out[0]);
    dup2(Out[1], STDERR_FILENO);
    dup2(Out[1], STDOUT_FILENO);
    close(Out[1]);
    int GateFd = Gate[0];
    std::string Object = Plan.Output;
    ::warplint::setObjectReadGate([GateFd, Object] {
      char Byte = 0;
      ssize_t N;
      while ((N = read(GateFd, &Byte, 1)) < 0 && errno == EINTR) {
      }
      if (N != 1 || Byte != '1')
        _exit(NotAnalysed); // the compile failed: the parent shows nothing of this
      // The checks the launcher makes after a compile: an object with device code that
      // warplint reads, else the analysis runs again after the compile (cache only).
      uint64_t Size = 0;
      if (llvm::sys::fs::file_size(Object, Size) || Size == 0)
        _exit(AnalyseAfter);
      ::warplint::ResourceTable T;
      T.addObjectFile(Object);
      if (!T.Errors.empty())
        _exit(AnalyseAfter);
    });
    int Result = analyseAndReport(C, Plan, true);
    flushAll();
    _exit(Result);
  }
  Started = true;
  close(Gate[0]);
  close(Out[1]);
  int Rc = runCompile(Compile);
  if (Rc != 0) {
    kill(Pid, SIGKILL); // our own child: its analysis is of a unit that did not compile
    close(Gate[1]);
    close(Out[0]);
    int Status;
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    Code = NotAnalysed;
    return Rc;
  }
  // The child may have ended already (no object to wait for): no SIGPIPE for that.
  struct sigaction Ignore = {}, Old = {};
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &Ignore, &Old);
  (void)!write(Gate[1], "1", 1);
  close(Gate[1]);
  sigaction(SIGPIPE, &Old, nullptr);
  std::string Held;
  char Buf[8192];
  for (;;) {
    ssize_t N = read(Out[0], Buf, sizeof Buf);
    if (N > 0)
      Held.append(Buf, size_t(N));
    else if (N == 0 || errno != EINTR)
      break;
  }
  close(Out[0]);
  Code = childCode(Pid, Plan, Held);
  if (Code == AnalyseAfter) // what it printed is for the run after the compile to print
    Code = analyseInChild(C, Plan);
  return Rc;
}

} // namespace

int runLaunchCommand(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc), Own, Compile;
  splitArgs(Args, Own, Compile);
  LaunchConfig C;
  std::string Err;
  ArgParser::Result Parsed = parseLaunchArgs(Own, C, Err);
  if (Parsed == ArgParser::Result::Help) {
    llvm::outs() << Usage;
    return 0;
  }
  if (Compile.empty()) {
    llvm::errs() << "warplint launch: no compiler command: give it after '--' (warplint "
                    "launch [options] -- nvcc ARGS...; see 'warplint launch --help')\n";
    return 2;
  }
  if (Parsed == ArgParser::Result::Error) {
    // A mistyped option must not hide a CI gate: the compile runs, and the step fails.
    llvm::errs() << "warplint launch: " << Err << "; the compile runs without analysis\n";
    int Rc = runCompile(Compile);
    return Rc != 0 ? Rc : 2;
  }

  LaunchPlan Plan = planLaunch(Compile);
  if (!Plan.Skip.empty()) {
    if (!Plan.SkipQuietly)
      llvm::errs() << "warplint launch: not analysed: " << Plan.Skip << "\n";
    return runCompile(Compile);
  }
  int Code = NotAnalysed, Rc = 0;
  bool Started = false;
  if (analyseBeside(C.Overlap))
    Rc = compileWithAnalysisBeside(C, Plan, Compile, Code, Started);
  if (!Started) {
    Rc = runCompile(Compile);
    if (Rc == 0)
      Code = analyseInChild(C, Plan);
  }
  if (Rc != 0)
    return Rc; // the build's own failure, said by the compiler
  bool Fails = Code == AnalysedErrors;
  if (Code != AnalysedClean && Code != AnalysedErrors && !C.WarningsAsErrors.empty()) {
    llvm::errs() << "warplint launch: error: --warnings-as-errors is set and "
                 << Plan.Sources.front()
                 << " could not be analysed (above): the step fails although the compile "
                    "succeeded\n";
    Fails = true;
  }
  // A failed step leaves no object, as a compiler's error does: make would otherwise take
  // the object for up to date and skip the gate on the next run.
  if (Fails && !Plan.Output.empty() && Plan.Output != "-")
    llvm::sys::fs::remove(Plan.Output);
  return Fails ? 1 : 0;
}

} // namespace warplint::driver
