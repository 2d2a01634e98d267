//===- NvccTranslate.cpp - nvcc compile commands as clang CUDA commands ---===//
#include "driver/compdb/NvccTranslate.h"
#include "warplint/core/Arch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

namespace warplint::driver {

std::string_view baseName(std::string_view Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

size_t compilerIndex(const std::vector<std::string> &Args) {
  if (Args.size() < 2)
    return 0;
  std::string_view Launcher = baseName(Args[0]);
  return Launcher == "ccache" || Launcher == "sccache" ? 1 : 0;
}

namespace {

/// GCC's own header directory (`/usr/lib/gcc/x86_64-linux-gnu/12/include`, or its
/// include-fixed): intrinsics written for GCC's builtins, which CMake lists among nvcc's
/// implicit system includes when a project adds its toolchain's directories to the
/// command (instant-ngp's). clang has its own in its resource directory; reading GCC's
/// mmintrin.h instead stops the parse of any file that reaches it.
bool isGccBuiltinDir(std::string_view D) {
  while (D.size() > 1 && D.back() == '/')
    D.remove_suffix(1);
  auto EndsWith = [&](std::string_view Tail) {
    return D.size() >= Tail.size() && D.substr(D.size() - Tail.size()) == Tail;
  };
  return D.find("/lib/gcc/") != std::string_view::npos &&
         (EndsWith("/include") || EndsWith("/include-fixed"));
}

template <size_t N> bool contains(const std::string_view (&Set)[N], std::string_view S) {
  return std::find(std::begin(Set), std::end(Set), S) != std::end(Set);
}

// nvcc options that take a value and mean nothing to a clang parse.
constexpr std::string_view DroppedWithValue[] = {
    "ccbin", "compiler-bindir", "Xptxas", "ptxas-options", "Xnvlink", "nvlink-options",
    "Xfatbin", "fatbin-options", "Xarchive", "archive-options", "Xcudafe", "Xlinker",
    "linker-options", "maxrregcount", "default-stream", "diag-suppress", "diag_suppress",
    "diag-warn", "diag_warn", "diag-error", "diag_error", "diag-default", "threads", "t",
    "keep-dir", "cudart", "cudadevrt", "split-compile", "odir", "output-directory",
    "run-args", "dependency-target-name", "libdevice-directory", "ldir", "target-directory",
    "time", "optix-ir", "dopt", "ftz", "prec-div", "prec-sqrt", "fmad",
    "static-global-template-stub", "device-stack-protector", "frandom-seed", "jump-table-density",
    "split-compile-extended", "Xnvcc", "nvcc-options", "compress-mode",
    "allow-expensive-optimizations", "aggressive-opt"};

// nvcc flags with no value that clang does not know.
constexpr std::string_view DroppedFlags[] = {
    "expt-relaxed-constexpr", "expt-extended-lambda", "extended-lambda",
    "forward-unknown-to-host-compiler", "forward-unknown-to-host-linker",
    "forward-unknown-opts", "lineinfo", "generate-line-info", "G", "device-debug",
    "use_fast_math", "use-fast-math", "resource-usage", "keep", "allow-unsupported-compiler",
    "Wno-deprecated-gpu-targets", "Wno-deprecated-declarations-nvcc", "restrict", "dlink",
    "device-link", "display-error-number", "no-display-error-number",
    "no-host-device-move-forward", "no-host-device-initializer-list",
    "extra-device-vectorization", "source-in-ptx", "ptx", "cubin", "fatbin", "dw",
    "device-w", "Wext-lambda-captures-this", "Wdefault-stream-launch",
    "Wmissing-launch-bounds", "Wreorder", "Wno-deprecated-gpu-targets", "expt-relaxed",
    "disable-warnings", "dryrun", "verbose", "v", "list-gpu-arch", "list-gpu-code",
    "qpp-config", "no-compress", "compress-all", "hdr-only-trace", "objdir-as-tempdir",
    "save-temps", "keep-device-functions", "dlto", "lto", "gen-opt-lto", "Wno-exit-code",
    "generate-dependencies-with-compile", "generate-nonsystem-dependencies-with-compile",
    "extensible-whole-program", "ewp", "jobserver"};

/// "sm_80" for "sm_80", "compute_80", "lto_80", "sm_90a"; empty for virtual targets that
/// name no number ("native", "all", "all-major").
std::string realArch(std::string_view A) {
  for (std::string_view Prefix : {"sm_", "compute_", "lto_"})
    if (A.substr(0, Prefix.size()) == Prefix) {
      // nvcc's spellings clang lacks: an upper-case variant letter (sm_90A) and the family
      // variants (sm_100f: code for the family, the base's limits) are the base's target.
      std::string Rest(A.substr(Prefix.size()));
      for (char &C : Rest)
        C = char(std::tolower(static_cast<unsigned char>(C)));
      if (Rest.size() > 1 && Rest.back() == 'f' && std::isdigit(static_cast<unsigned char>(Rest[Rest.size() - 2])))
        Rest.pop_back();
      return "sm_" + Rest;
    }
  return {};
}

void addArch(std::vector<std::string> &Archs, std::string_view A) {
  std::string R = realArch(A);
  if (!R.empty() && std::find(Archs.begin(), Archs.end(), R) == Archs.end())
    Archs.push_back(R);
}

/// -gencode's "arch=compute_80,code=[compute_80,sm_80]" or "arch=compute_80,code=sm_80".
void addGencode(std::vector<std::string> &Archs, std::string_view V) {
  std::string Codes, Arch;
  size_t CodeAt = V.find("code=");
  if (CodeAt != std::string_view::npos) {
    std::string_view C = V.substr(CodeAt + 5);
    if (!C.empty() && C.front() == '[') {
      C.remove_prefix(1);
      C = C.substr(0, C.find(']'));
    }
    Codes = std::string(C);
  }
  size_t ArchAt = V.find("arch=");
  if (ArchAt != std::string_view::npos) {
    std::string_view A = V.substr(ArchAt + 5);
    Arch = std::string(A.substr(0, A.find(',')));
  }
  bool Any = false;
  size_t Start = 0;
  while (Start <= Codes.size() && !Codes.empty()) {
    size_t Comma = Codes.find(',', Start);
    std::string Code = Codes.substr(Start, Comma == std::string::npos ? std::string::npos
                                                                      : Comma - Start);
    if (Code.rfind("sm_", 0) == 0) {
      addArch(Archs, Code);
      Any = true;
    }
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
  if (!Any)
    addArch(Archs, Arch);
}

/// The toolkit directory above a .../bin/nvcc path, or empty.
std::string aboveBin(const std::filesystem::path &Nvcc) {
  std::filesystem::path Bin = Nvcc.parent_path();
  if (Bin.filename() != "bin")
    return {};
  return Bin.parent_path().string();
}

/// The CUDA toolkit an nvcc command uses. The directory above its bin/, as written; but
/// when that directory is here and holds no toolkit (a wrapper such as /usr/local/bin/nvcc
/// or a symlink in /usr/bin), the toolkit the link resolves to, then $CUDA_PATH, then
/// /usr/local/cuda. A path that does not exist on this machine is kept as written.
std::string cudaPathOf(std::string_view NvccArg) {
  namespace fs = std::filesystem;
  fs::path Nvcc{std::string(NvccArg)};
  std::string Written = NvccArg.find('/') == std::string_view::npos ? "" : aboveBin(Nvcc);
  std::error_code EC;
  if (!Written.empty() && (isCudaToolkit(Written) || !fs::exists(Written, EC)))
    return Written;
  if (NvccArg.find('/') != std::string_view::npos) {
    fs::path Real = fs::canonical(Nvcc, EC);
    if (!EC) {
      std::string Resolved = aboveBin(Real);
      if (!Resolved.empty() && isCudaToolkit(Resolved))
        return Resolved;
    }
  }
  std::string Default = defaultCudaToolkit();
  if (!Default.empty())
    return Default;
  return Written.empty() ? "/usr/local/cuda" : Written;
}

std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P);
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

/// "13.0.88" -> 13, 0, 88 (a missing part is 0); false when it does not start with a number.
bool parseVersion(const std::string &Text, NvccVersion &V) {
  std::smatch M;
  if (!std::regex_search(Text, M, std::regex(R"(^(\d+)(?:\.(\d+))?(?:\.(\d+))?)")))
    return false;
  V.Major = std::stoi(M[1]);
  V.Minor = M[2].matched ? std::stoi(M[2]) : 0;
  V.Build = M[3].matched ? std::stoi(M[3]) : 0;
  return true;
}

NvccVersion readNvccVersion(const std::string &CudaPath) {
  namespace fs = std::filesystem;
  NvccVersion V;
  std::error_code EC;
  if (!CudaPath.empty()) {
    // version.json (the runfile and package installers): "cuda_nvcc": {"name": ...,
    // "version": "13.0.88"}.
    std::string Json = readFile(fs::path(CudaPath) / "version.json");
    std::smatch M;
    if (std::regex_search(Json, M,
                          std::regex(R"re("cuda_nvcc"\s*:\s*\{[^}]*"version"\s*:\s*"([^"]+)")re")) &&
        parseVersion(M[1], V)) {
      V.From = "version.json";
      return V;
    }
    // A toolkit installed from pip wheels: dist-info/nvidia_cuda_nvcc-13.0.88.dist-info.
    for (const fs::directory_entry &E : fs::directory_iterator(fs::path(CudaPath) / "dist-info", EC)) {
      std::string Name = E.path().filename().string();
      const std::string Prefix = "nvidia_cuda_nvcc-";
      if (Name.rfind(Prefix, 0) == 0 && parseVersion(Name.substr(Prefix.size()), V)) {
        V.From = "dist-info";
        return V;
      }
    }
    // cuda.h: #define CUDA_VERSION 13000 (major * 1000 + minor * 10; no build number).
    std::string CudaH = readFile(fs::path(CudaPath) / "include" / "cuda.h");
    const std::string Define = "#define CUDA_VERSION ";
    size_t At = CudaH.find(Define);
    size_t Digits = At == std::string::npos ? At : CudaH.find_first_not_of(' ', At + Define.size());
    if (Digits != std::string::npos && Digits < CudaH.size() && std::isdigit(CudaH[Digits])) {
      int N = std::atoi(CudaH.c_str() + Digits);
      V.Major = N / 1000;
      V.Minor = N % 1000 / 10;
      V.Build = 0;
      V.From = "cuda.h";
      return V;
    }
  }
  V.Major = 13;
  V.Minor = 0;
  V.Build = 0;
  V.From = "assumed";
  return V;
}

} // namespace

NvccVersion nvccVersionOf(const std::string &CudaPath) {
  static std::mutex Lock;
  static std::map<std::string, NvccVersion> Seen;
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Seen.find(CudaPath);
  if (It == Seen.end())
    It = Seen.emplace(CudaPath, readNvccVersion(CudaPath)).first;
  return It->second;
}

std::vector<std::string> nvccCompatArgs(const NvccVersion &V, const NvccModes &Modes) {
  std::vector<std::string> Args = {"-D__NVCC__=1",
                                   "-D__CUDACC_VER_MAJOR__=" + std::to_string(V.Major),
                                   "-D__CUDACC_VER_MINOR__=" + std::to_string(V.Minor),
                                   "-D__CUDACC_VER_BUILD__=" + std::to_string(V.Build)};
  if (Modes.Rdc)
    Args.push_back("-D__CUDACC_RDC__=1");
  // Not __CUDACC_EXTENDED_LAMBDA__ itself: the toolkit's cuda_runtime.h includes
  // <functional> under it, and read there (from clang's runtime wrapper, before the
  // wrapper declares the device malloc and free) clang's <new> wrapper binds the host
  // ones in its device operator new, an error in any file that uses new in device code
  // (cuda-samples' newdelete.cu). warplint_cuda_compat.h, read after the wrapper, and
  // warplint's own CUDA header define it from this.
  if (Modes.ExtendedLambda)
    Args.push_back("-D__WARPLINT_CUDACC_EXTENDED_LAMBDA__=1");
  if (Modes.RelaxedConstexpr)
    Args.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
  Args.insert(Args.end(),
              {"-Wno-register", "-Wno-c++11-narrowing", "-Wno-reserved-user-defined-literal",
               "-Wno-missing-template-arg-list-after-template-kw"});
  return Args;
}

bool isCudaToolkit(const std::string &Dir) {
  std::error_code EC;
  return std::filesystem::exists(std::filesystem::path(Dir) / "include" / "cuda_runtime.h", EC);
}

std::string defaultCudaToolkit() {
  const char *Env = std::getenv("CUDA_PATH");
  std::string Cuda = Env && *Env ? Env : "/usr/local/cuda";
  return isCudaToolkit(Cuda) ? Cuda : "";
}

bool isNvccCommand(const std::vector<std::string> &Args) {
  if (Args.empty())
    return false;
  std::string_view Tool = baseName(Args[compilerIndex(Args)]);
  return Tool == "nvcc" || Tool == "nvcc.exe";
}

std::vector<std::string> mpiIncludeDirs(const std::string &Wrapper) {
  std::string_view Base = baseName(Wrapper);
  if (Base.substr(0, 3) != "mpi")
    return {};
  static std::mutex Lock;
  static std::map<std::string, std::vector<std::string>> Seen;
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto It = Seen.find(Wrapper); It != Seen.end())
    return It->second;
  std::vector<std::string> &Dirs = Seen[Wrapper];
  std::string Program = Wrapper;
  if (Wrapper.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Wrapper);
    if (!Found)
      return Dirs;
    Program = *Found;
  }
  // The wrapper's output, run with an argument vector and a time limit.
  auto Output = [&](llvm::StringRef Option, std::string &Out) {
    llvm::SmallString<128> Tmp;
    if (llvm::sys::fs::createTemporaryFile("warplint-mpi", "txt", Tmp))
      return false;
    llvm::StringRef Args[] = {Program, Option};
    std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Tmp),
                                                  llvm::StringRef("")};
    bool Failed = false;
    int Rc = llvm::sys::ExecuteAndWait(Program, Args, std::nullopt, Redirects,
                                       /*SecondsToWait=*/30, 0, nullptr, &Failed);
    Out = readFile(std::string(Tmp));
    llvm::sys::fs::remove(Tmp);
    return !Failed && Rc == 0;
  };
  std::string Text;
  // Open MPI: the directories, space-separated.
  if (Output("--showme:incdirs", Text)) {
    std::istringstream In(Text);
    for (std::string D; In >> D;)
      Dirs.push_back(D);
    return Dirs;
  }
  // MPICH, Intel MPI: the compile command the wrapper runs; its -I options.
  if (Output("-show", Text)) {
    std::istringstream In(Text);
    for (std::string W, Prev; In >> W; Prev = W) {
      if (W.size() > 2 && W.compare(0, 2, "-I") == 0)
        Dirs.push_back(W.substr(2));
      else if (Prev == "-I")
        Dirs.push_back(W);
    }
  }
  return Dirs;
}

NvccTranslation translateNvccCommand(const std::vector<std::string> &In) {
  NvccTranslation T;
  size_t I = compilerIndex(In);
  std::string CudaPath = I < In.size() ? cudaPathOf(In[I]) : "/usr/local/cuda";
  T.Args.push_back("clang++");
  bool Rdc = false;
  NvccModes Modes;
  // Everything after "--" is an input file (commands that clang's tooling inferred for a
  // file the database does not list end in "-- FILE"); the options made below go before it.
  std::vector<std::string> AfterDashDash;
  std::string HostCompiler;
  for (++I; I < In.size(); ++I) {
    const std::string &Arg = In[I];
    if (Arg == "--") {
      AfterDashDash.assign(In.begin() + I, In.end());
      break;
    }
    if (Arg.size() < 2 || Arg[0] != '-') {
      T.Args.push_back(Arg); // an input file
      continue;
    }
    // nvcc spells long options with one dash or two; a value follows '=' or comes next.
    std::string_view Body = std::string_view(Arg).substr(Arg[1] == '-' ? 2 : 1);
    size_t Eq = Body.find('=');
    std::string_view Name = Body.substr(0, Eq);
    bool HasInline = Eq != std::string_view::npos;
    std::string Inline = HasInline ? std::string(Body.substr(Eq + 1)) : std::string();
    auto value = [&]() -> std::string {
      if (HasInline)
        return Inline;
      if (I + 1 < In.size())
        return In[++I];
      return {};
    };

    if (Name == "arch" || Name == "gpu-architecture") {
      addArch(T.GpuArchs, value());
    } else if (Name == "code" || Name == "gpu-code") {
      std::string V = value();
      size_t Start = 0;
      while (true) {
        size_t Comma = V.find(',', Start);
        std::string Code = V.substr(Start, Comma == std::string::npos ? std::string::npos
                                                                      : Comma - Start);
        if (Code.rfind("sm_", 0) == 0)
          addArch(T.GpuArchs, Code);
        if (Comma == std::string::npos)
          break;
        Start = Comma + 1;
      }
    } else if (Name == "gencode" || Name == "generate-code") {
      addGencode(T.GpuArchs, value());
    } else if (Name == "rdc" || Name == "relocatable-device-code") {
      Rdc = value() == "true";
    } else if (Name == "dc" || Name == "device-c") {
      Rdc = true;
      T.Args.push_back("-c");
    } else if (Name == "Xcompiler" || Name == "compiler-options") {
      // Host compiler options: keep what changes the parse, leave gcc's others out.
      // nvcc splits the value at commas and pastes the pieces into the host compiler's
      // command line unquoted, where the shell splits them at blanks: a Makefile's
      // `-Xcompiler "$(flags)"` arrives as one argument holding every flag (Lidar_AI_Solution).
      std::string V = value(), Opt;
      std::vector<std::string> Opts;
      for (size_t S = 0;;) {
        size_t Comma = V.find(',', S);
        std::string Piece =
            V.substr(S, Comma == std::string::npos ? std::string::npos : Comma - S);
        for (size_t B = 0; B < Piece.size();) {
          size_t Start = Piece.find_first_not_of(" \t\n", B);
          if (Start == std::string::npos)
            break;
          size_t End = Piece.find_first_of(" \t\n", Start);
          Opts.push_back(Piece.substr(Start, End == std::string::npos ? std::string::npos
                                                                      : End - Start));
          B = End == std::string::npos ? Piece.size() : End;
        }
        if (Comma == std::string::npos)
          break;
        S = Comma + 1;
      }
      for (const std::string &O : Opts) {
        bool Keep = false;
        for (std::string_view P : {"-D", "-U", "-I", "-isystem", "-include", "-std="})
          Keep |= O.rfind(P, 0) == 0;
        if (Keep)
          T.Args.push_back(O);
        else if (!O.empty())
          T.Dropped.push_back("-Xcompiler " + O);
      }
    } else if (Name == "x" && Arg[1] != '-') {
      std::string V = value();
      T.Args.push_back("-x");
      T.Args.push_back(V == "cu" ? "cuda" : V);
    } else if (Name == "std") {
      T.Args.push_back("-std=" + value());
    } else if (Name == "include-path") {
      T.Args.push_back("-I" + value());
    } else if (Name == "system-include" || (Name == "isystem" && Arg[1] != '-')) {
      // CMake writes nvcc's SYSTEM includes as "-isystem=DIR"; clang would read "=DIR"
      // as relative to a sysroot.
      std::string V = value();
      if (isGccBuiltinDir(V)) {
        T.Dropped.push_back("-isystem " + V);
      } else {
        T.Args.push_back("-isystem");
        T.Args.push_back(V);
      }
    } else if (Name == "define-macro") {
      T.Args.push_back("-D" + value());
    } else if (Name == "undefine-macro") {
      T.Args.push_back("-U" + value());
    } else if (Name == "pre-include") {
      T.Args.push_back("-include");
      T.Args.push_back(value());
    } else if (Name == "output-file") {
      T.Args.push_back("-o");
      T.Args.push_back(value());
    } else if (Name == "compile") {
      T.Args.push_back("-c");
    } else if (Name == "Werror") {
      // nvcc's "-Werror all-warnings" (a kind list, not a file); clang would fail the
      // parse on any warning with a plain -Werror, so it goes too.
      if (!HasInline && I + 1 < In.size() && !In[I + 1].empty() && In[I + 1][0] != '-')
        T.Dropped.push_back(Arg + " " + In[++I]);
      else
        T.Dropped.push_back(Arg);
    } else if (contains(DroppedWithValue, Name)) {
      std::string V = value();
      T.Dropped.push_back(Arg + (HasInline ? "" : " " + V));
      if (Name == "ccbin" || Name == "compiler-bindir")
        HostCompiler = V;
    } else if (Name.size() > 1 && Name[0] == 't' && Arg[1] != '-' &&
               Name.find_first_not_of("0123456789", 1) == std::string_view::npos) {
      // nvcc's `-t0`: the thread count joined to its short option (PhysX's flags).
      T.Dropped.push_back(Arg);
    } else if (contains(DroppedFlags, Name)) {
      // Left out, but what nvcc predefines for them is defined below.
      Modes.ExtendedLambda |= Name == "expt-extended-lambda" || Name == "extended-lambda";
      Modes.RelaxedConstexpr |= Name == "expt-relaxed-constexpr";
      T.Dropped.push_back(Arg);
    } else if (Name == "optimize" || Name == "O" || Name == "m" || Name == "machine") {
      // "--optimize 3", "-m64": harmless to leave out of a parse.
      if (!HasInline && Arg.rfind("--", 0) == 0)
        value();
      T.Dropped.push_back(Arg);
    } else {
      T.Args.push_back(Arg); // -I, -D, -isystem, -O2, -g, -W..., -M..., -c, -o: clang's too
    }
  }
  if (T.GpuArchs.empty())
    T.GpuArchs.push_back(std::string(warplint::NvccDefaultArch));
  Modes.Rdc = Rdc;
  std::vector<std::string> Compat = nvccCompatArgs(nvccVersionOf(CudaPath), Modes);
  T.Args.insert(T.Args.end(), Compat.begin(), Compat.end());
  T.Args.push_back("--cuda-path=" + CudaPath);
  // An MPI wrapper as nvcc's host compiler adds MPI's headers to every compile, the
  // device pass's preprocessing included (TeaLeaf_CUDA's `-ccbin mpicxx`).
  for (const std::string &Dir : mpiIncludeDirs(HostCompiler)) {
    T.Args.push_back("-isystem");
    T.Args.push_back(Dir);
  }
  T.Args.push_back("-isystem");
  T.Args.push_back(CudaPath + "/include/cccl");
  T.Args.push_back("--cuda-device-only");
  T.Args.push_back("--cuda-gpu-arch=" + T.GpuArchs.front());
  if (Rdc)
    T.Args.push_back("-fgpu-rdc");
  T.Args.insert(T.Args.end(), AfterDashDash.begin(), AfterDashDash.end());
  return T;
}

} // namespace warplint::driver
