//===- Analysis.cpp - clang-tidy's engine + launch facts per translation unit ===//
#include "driver/Analysis.h"
#include "driver/CompileDatabaseCheck.h"
#include "driver/formats/Formats.h"
#include "driver/NvccTranslate.h"

#include "model/Facts.h"
#include "resources/NvccResources.h"
#include "resources/ResourceOptions.h"
#include "resources/Resources.h"
#include "checks/WarplintTidyModule.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "warplint/core/Occupancy.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <map>
#include <memory>

// The driver hosts the module itself, as the plugin does for a loading clang-tidy.
namespace clang::tidy {
static ClangTidyModuleRegistry::Add<warplint::WarplintModule>
    WarplintModuleInDriver("warplint-module",
                           "Occupancy, launch-shape and divergence checks for CUDA.");
} // namespace clang::tidy

namespace warplint::driver {
namespace {

using clang::tooling::CommandLineArguments;

/// Line and column (1-based, bytes) of byte offsets in files, read once per file.
class LineTable {
public:
  SourcePos at(const std::string &File, unsigned Offset) {
    SourcePos P{File, 0, 0};
    if (File.empty())
      return P;
    auto It = Starts.find(File);
    if (It == Starts.end()) {
      std::vector<unsigned> Lines{0};
      if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
        llvm::StringRef Text = (*Buf)->getBuffer();
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            Lines.push_back(static_cast<unsigned>(I + 1));
      }
      It = Starts.emplace(File, std::move(Lines)).first;
    }
    const std::vector<unsigned> &L = It->second;
    auto Next = std::upper_bound(L.begin(), L.end(), Offset);
    P.Line = static_cast<unsigned>(Next - L.begin());
    P.Column = Offset - *(Next - 1) + 1;
    return P;
  }

private:
  std::map<std::string, std::vector<unsigned>> Starts;
};

/// What the facts pass of one translation unit gives.
struct TUResult {
  clang::tidy::warplint::PlainFacts Facts;
  std::vector<KernelRecord> Kernels;
  /// --registers-from nvcc: the figures of this TU (the checks' cache entry, reused).
  std::optional<clang::tidy::warplint::ResourceTable> NvccFigures;
  /// Set by the caller: the options of the nvcc source, when it is the chosen one.
  const clang::tidy::warplint::ResourceOptions *Nvcc = nullptr;
};

/// Collects model/Facts' plain facts of the one translation unit it sees, and the line
/// extents of the kernels defined in it.
struct FactsConsumer : clang::ASTConsumer {
  TUResult &Out;
  const clang::Preprocessor &PP;
  FactsConsumer(TUResult &Out, const clang::Preprocessor &PP) : Out(Out), PP(PP) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    clang::tidy::warplint::TUFacts TU = clang::tidy::warplint::collectFacts(Ctx);
    Out.Facts = clang::tidy::warplint::exportFacts(TU, Ctx);
    if (Out.Nvcc) {
      // Same TU, same key: the entry the checks' nvcc run just cached.
      clang::tidy::warplint::ResourceProvider P(*Out.Nvcc);
      P.load(Ctx, &PP, TU.Arch);
      Out.NvccFigures = P.table();
    }
    const clang::SourceManager &SM = Ctx.getSourceManager();
    for (const clang::tidy::warplint::KernelInfo &K : TU.Kernels) {
      if (!K.Decl || !K.Decl->hasBody())
        continue;
      clang::SourceRange R = K.Decl->getSourceRange();
      clang::PresumedLoc B = SM.getPresumedLoc(SM.getExpansionLoc(R.getBegin()));
      clang::PresumedLoc E = SM.getPresumedLoc(SM.getExpansionLoc(R.getEnd()));
      if (B.isInvalid() || E.isInvalid())
        continue;
      Out.Kernels.push_back({K.Name, B.getFilename(), B.getLine(), E.getLine()});
    }
  }
};

bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) { return S.starts_with(Prefix); }

/// clang's resource directory (its builtin headers, the CUDA wrappers): the
/// WARPLINT_CLANG_RESOURCE_DIR environment variable, else the one of the clang we were
/// built against.
std::string clangResourceDir() {
  const char *Env = std::getenv("WARPLINT_CLANG_RESOURCE_DIR");
  return Env && *Env ? std::string(Env) : std::string(WARPLINT_CLANG_RESOURCE_DIR);
}

/// The argument adjusters every command gets: clangCommand, then clang's resource
/// directory (a standalone tool does not find it next to its own binary).
clang::tooling::ArgumentsAdjuster commandAdjuster(const AnalysisOptions &Opts) {
  return [Opts](const CommandLineArguments &Original, llvm::StringRef) {
    CommandLineArguments Out = clangCommand(
        Original, Opts.Arch, Opts.BuildDir.empty() ? std::vector<std::string>() : Opts.ExtraArgs);
    bool HasResourceDir = std::any_of(Out.begin(), Out.end(), [](const std::string &A) {
      return startsWith(A, "-resource-dir");
    });
    if (!HasResourceDir && !Out.empty())
      Out.insert(Out.begin() + 1, "-resource-dir=" + clangResourceDir());
    return Out;
  };
}

std::string absolute(const std::string &Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// The occupancy checks' register-source options from the command line.
clang::tidy::warplint::ResourceOptions registerSources(const AnalysisOptions &Opts) {
  clang::tidy::warplint::ResourceOptions S;
  S.Source = Opts.RegistersFrom;
  std::vector<std::string> Logs, Objs;
  for (const std::string &L : Opts.PtxasLogs)
    Logs.push_back(absolute(L));
  for (const std::string &O : Opts.Objects)
    Objs.push_back(absolute(O));
  S.PtxasLog = llvm::join(Logs, ";");
  S.Objects = llvm::join(Objs, ";");
  S.CacheDir = Opts.CacheDir.empty() ? "" : absolute(Opts.CacheDir);
  if (Opts.RegistersFrom == "nvcc")
    S.Nvcc = clang::tidy::warplint::findNvcc();
  return S;
}

/// Blocks per SM, occupancy and limiters of a launch whose shape and registers are known.
void fillOccupancy(LaunchRecord &L, const clang::tidy::warplint::PlainLaunch &P) {
  const ::warplint::GpuArch *A = ::warplint::findArch(L.Arch);
  if (!A || !L.Registers || !L.Block || !L.DynamicSmemBytes)
    return;
  ::warplint::KernelResources Res;
  Res.RegistersPerThread = static_cast<int>(*L.Registers);
  Res.StaticSharedBytes = L.StaticSmemBytes.value_or(0);
  Res.LaunchBoundsMaxThreads = static_cast<int>(P.LaunchBoundsMaxThreads.value_or(0));
  Res.LaunchBoundsMinBlocks = static_cast<int>(P.LaunchBoundsMinBlocks.value_or(0));
  Res.OptinDynamicSharedBytes = P.OptinDynamicSmemBytes.value_or(0);
  const auto &B = *L.Block;
  ::warplint::OccupancyResult R = ::warplint::computeOccupancy(
      *A, Res,
      ::warplint::LaunchShape::block(
          ::warplint::Dim3{int64_t(B[0]), int64_t(B[1]), int64_t(B[2])}, *L.DynamicSmemBytes));
  if (!R.canLaunch()) {
    L.LaunchError = R.Failure->Message;
    L.BlocksPerSm = 0;
    L.Occupancy = 0.0;
    return;
  }
  L.BlocksPerSm = static_cast<unsigned>(R.BlocksPerSm);
  L.Occupancy = R.Occupancy;
  for (unsigned I = 0; I < ::warplint::NumResources; ++I)
    if (R.isLimitedBy(static_cast<::warplint::Resource>(I)))
      L.Limiters.push_back(::warplint::resourceName(static_cast<::warplint::Resource>(I)));
}

/// Parses File once with clang-tidy's AST consumers (the enabled checks) and, when Facts is
/// set, the facts consumer beside them; the checks' diagnostics and clang's own go to
/// Errors. Returns ClangTool::run's status (non-zero when the compile had errors).
int runTidyAndFacts(clang::tidy::ClangTidyContext &Context,
                    const clang::tooling::CompilationDatabase &Db, const std::string &File,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                    TUResult *Facts, std::vector<clang::tidy::ClangTidyError> &Errors) {
  clang::tooling::ClangTool Tool(Db, {File}, std::make_shared<clang::PCHContainerOperations>(),
                                 BaseFS);
  Tool.setPrintErrorMessage(false);
  // .clang-tidy's ExtraArgsBefore/ExtraArgs, as clang-tidy applies them.
  Tool.appendArgumentsAdjuster([&Context](const CommandLineArguments &Args,
                                          llvm::StringRef Filename) {
    clang::tidy::ClangTidyOptions O = Context.getOptionsForFile(Filename);
    CommandLineArguments Out = Args;
    if (O.ExtraArgsBefore) {
      auto I = Out.begin();
      if (I != Out.end() && !llvm::StringRef(*I).starts_with("-"))
        ++I;
      Out.insert(I, O.ExtraArgsBefore->begin(), O.ExtraArgsBefore->end());
    }
    if (O.ExtraArgs)
      Out.insert(Out.end(), O.ExtraArgs->begin(), O.ExtraArgs->end());
    return Out;
  });
  Tool.appendArgumentsAdjuster(clang::tooling::getStripPluginsAdjuster());

  clang::tidy::ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr,
                                                        /*RemoveIncompatibleErrors=*/true,
                                                        /*GetFixesFromNotes=*/false);
  auto DiagOpts = std::make_unique<clang::DiagnosticOptions>();
  clang::DiagnosticsEngine DE(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), *DiagOpts,
                              &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  class Factory : public clang::tooling::FrontendActionFactory {
  public:
    Factory(clang::tidy::ClangTidyContext &Context,
            llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, TUResult *Facts)
        : Tidy(Context, std::move(BaseFS)), Facts(Facts) {}
    std::unique_ptr<clang::FrontendAction> create() override {
      return std::make_unique<Action>(Tidy, Facts);
    }
    bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                       clang::FileManager *Files,
                       std::shared_ptr<clang::PCHContainerOperations> PCH,
                       clang::DiagnosticConsumer *Diags) override {
      // As clang-tidy does: __clang_analyzer__ is defined. No "N warnings generated"
      // line: the findings are printed by the driver's formats.
      Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
      Invocation->getDiagnosticOpts().ShowCarets = false;
      return FrontendActionFactory::runInvocation(std::move(Invocation), Files, std::move(PCH),
                                                  Diags);
    }

  private:
    class Action : public clang::ASTFrontendAction {
    public:
      Action(clang::tidy::ClangTidyASTConsumerFactory &Tidy, TUResult *Facts)
          : Tidy(Tidy), Facts(Facts) {}
      std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                            llvm::StringRef InFile) override {
        std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
        Consumers.push_back(Tidy.createASTConsumer(CI, InFile));
        if (Facts)
          Consumers.push_back(std::make_unique<FactsConsumer>(*Facts, CI.getPreprocessor()));
        return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
      }

    private:
      clang::tidy::ClangTidyASTConsumerFactory &Tidy;
      TUResult *Facts;
    };
    clang::tidy::ClangTidyASTConsumerFactory Tidy;
    TUResult *Facts;
  };

  Factory F(Context, std::move(BaseFS), Facts);
  int Rc = Tool.run(&F);
  Errors = DiagConsumer.take();
  return Rc;
}

/// The build's own nvcc and flags for the nvcc register source (auto mode on an nvcc
/// compile command): the output, dependency-file and architecture options are dropped
/// (warplint adds -arch for the analysed arch, -cubin and -o /dev/null), relative include
/// paths are made absolute against the command's directory. Empty Nvcc if none is found.
struct BuildNvcc {
  std::string Nvcc;
  std::string Flags; ///< quoted for the NvccFlags option
};

BuildNvcc buildNvcc(const clang::tooling::CompileCommand &C) {
  BuildNvcc Out;
  const std::vector<std::string> &A = C.CommandLine;
  size_t I = 0;
  for (; I < A.size(); ++I) {
    llvm::StringRef Stem = llvm::sys::path::stem(A[I]);
    if (Stem == "nvcc")
      break;
  }
  if (I == A.size())
    return Out;
  if (llvm::sys::path::has_parent_path(A[I])) {
    llvm::SmallString<256> P(A[I]);
    if (!llvm::sys::path::is_absolute(P)) {
      P = C.Directory;
      llvm::sys::path::append(P, A[I]);
    }
    Out.Nvcc = std::string(P);
  } else if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(A[I])) {
    Out.Nvcc = *P;
  } else {
    Out.Nvcc = clang::tidy::warplint::findNvcc();
  }
  auto Quote = [](llvm::StringRef S) {
    std::string Q = "'";
    for (char Ch : S)
      Q += Ch == '\'' ? std::string("'\\''") : std::string(1, Ch);
    return Q + "'";
  };
  auto Abs = [&](llvm::StringRef Path) {
    if (llvm::sys::path::is_absolute(Path))
      return Path.str();
    llvm::SmallString<256> P(C.Directory);
    llvm::sys::path::append(P, Path);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  };
  std::vector<std::string> Flags;
  // Options whose value is the next argument and that warplint replaces.
  const llvm::StringRef DropWithValue[] = {"-o", "--output-file", "-MF", "-MT", "-MQ",
                                           "--dependency-output", "-arch", "--gpu-architecture",
                                           "-gencode", "--generate-code", "-code", "--gpu-code"};
  const llvm::StringRef DropJoined[] = {"-arch=", "--gpu-architecture=", "-gencode=",
                                        "--generate-code=", "-code=", "--gpu-code=",
                                        "--output-file=", "-o"};
  const llvm::StringRef PathWithValue[] = {"-I", "-isystem", "-include", "--include-path",
                                           "-iquote", "--pre-include"};
  for (size_t J = I + 1; J < A.size(); ++J) {
    llvm::StringRef Arg = A[J];
    if (Arg == "-c" || Arg == "--compile" || Arg == "-MD" || Arg == "-MMD" || Arg == "-M" ||
        Arg == "--generate-dependencies-with-compile" || Arg == "-cubin" || Arg == "--cubin" ||
        Arg == "--" || Abs(Arg) == Abs(C.Filename))
      continue;
    if (Arg == "-dc" || Arg == "--device-c") {
      Flags.push_back("-rdc=true");
      continue;
    }
    if (llvm::is_contained(DropWithValue, Arg)) {
      ++J;
      continue;
    }
    if (llvm::any_of(DropJoined, [&](llvm::StringRef P) { return Arg.starts_with(P); }))
      continue;
    if (llvm::is_contained(PathWithValue, Arg) && J + 1 < A.size()) {
      Flags.push_back(Arg.str());
      Flags.push_back(Abs(A[++J]));
      continue;
    }
    if (Arg.starts_with("-I") && Arg.size() > 2) {
      Flags.push_back("-I" + Abs(Arg.drop_front(2)));
      continue;
    }
    Flags.push_back(Arg.str());
  }
  std::vector<std::string> Quoted;
  for (const std::string &F : Flags)
    Quoted.push_back(Quote(F));
  Out.Flags = llvm::join(Quoted, " ");
  return Out;
}

RunResult analyseOne(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                     const AnalysisOptions &Opts,
                     const clang::tidy::warplint::ResourceTable &Resources,
                     const clang::tooling::CompilationDatabase *Original) {
  RunResult R;
  if (Db.getCompileCommands(File).empty()) {
    R.FilesFailed.push_back(File);
    Finding F;
    F.Check = "clang-diagnostic-error";
    F.Level = Severity::Error;
    F.Pos = {File, 0, 0};
    F.Message = "no compile command for this file in " + Opts.BuildDir + "/compile_commands.json";
    R.Findings.push_back(std::move(F));
    return R;
  }

  // The checks, through clang-tidy's engine: .clang-tidy files apply as usual; the
  // command line's --checks and --warnings-as-errors override them.
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,warplint-*";
  clang::tidy::ClangTidyOptions Override;
  if (Opts.Checks != "-*,warplint-*")
    Override.Checks = Opts.Checks;
  if (!Opts.WarningsAsErrors.empty())
    Override.WarningsAsErrors = Opts.WarningsAsErrors;
  // The register source of the occupancy checks (--registers-from, --ptxas-log,
  // --objects, --cache-dir) overrides what .clang-tidy files say.
  clang::tidy::warplint::ResourceOptions Sources = registerSources(Opts);
  // auto on an nvcc compile command: the registers come from that nvcc, with the build's
  // flags (docs/registers.md); cached, so a second run compiles nothing.
  bool UseNvcc = Opts.RegistersFrom == "nvcc";
  if (Opts.RegistersFrom == "auto" && Opts.PtxasLogs.empty() && Opts.Objects.empty() &&
      Original) {
    std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
    if (!Cmds.empty() && isNvccCommand(Cmds.front().CommandLine)) {
      BuildNvcc B = buildNvcc(Cmds.front());
      if (!B.Nvcc.empty()) {
        Sources.Source = "nvcc";
        Sources.Nvcc = B.Nvcc;
        Sources.NvccFlags = B.Flags;
        UseNvcc = true;
      }
    }
  }
  for (const char *Check :
       {"warplint-occupancy", "warplint-occupancy-cliff", "warplint-launch-config-invalid"}) {
    auto Set = [&](const char *Key, const std::string &Value) {
      Override.CheckOptions[std::string(Check) + "." + Key] =
          clang::tidy::ClangTidyOptions::ClangTidyValue(Value);
    };
    if (Sources.Source != "auto" || !Opts.PtxasLogs.empty() || !Opts.Objects.empty())
      Set("RegisterSource", Sources.Source);
    if (!Sources.NvccFlags.empty())
      Set("NvccFlags", Sources.NvccFlags);
    if (!Sources.PtxasLog.empty())
      Set("PtxasLog", Sources.PtxasLog);
    if (!Sources.Objects.empty())
      Set("Objects", Sources.Objects);
    if (!Sources.CacheDir.empty())
      Set("CacheDir", Sources.CacheDir);
    if (!Sources.Nvcc.empty())
      Set("Nvcc", Sources.Nvcc);
  }
  // Each analysis gets a file system with its own working directory: ClangTool moves to
  // the command's directory, and on the process-wide real file system that is a chdir,
  // which races between -j workers (a relative -I or include then resolves in another
  // command's directory, and a relative -o lands there).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  clang::tidy::ClangTidyContext Context(std::make_unique<clang::tidy::FileOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults, Override, Physical));
  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  // One parse serves both the checks and the launch facts (two AST consumers).
  TUResult TU;
  if (UseNvcc)
    TU.Nvcc = &Sources;
  clang::tidy::warplint::PlainFacts &Facts = TU.Facts;
  std::vector<clang::tidy::ClangTidyError> Errors;
  int ToolRc = runTidyAndFacts(Context, Db, File, BaseFS, Opts.CollectLaunches ? &TU : nullptr,
                               Errors);
  if (!Opts.CollectLaunches) {
    // The analysed arch from the (adjusted) command: its last --cuda-gpu-arch.
    std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(File);
    for (const std::string &A : Commands.front().CommandLine)
      if (llvm::StringRef(A).starts_with("--cuda-gpu-arch="))
        Facts.Arch = A.substr(16);
  }

  // Paths as the compile saw them are relative to the command's directory (the process
  // never moves there): made absolute before any file is read or reported.
  std::string CommandDir = Db.getCompileCommands(File).front().Directory;
  auto inCommandDir = [&CommandDir](const std::string &P) {
    if (P.empty() || llvm::sys::path::is_absolute(P) || CommandDir.empty())
      return P;
    llvm::SmallString<256> Abs(CommandDir);
    llvm::sys::path::append(Abs, P);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    return std::string(Abs);
  };
  LineTable Lines;
  bool Failed = false;
  bool AnyError = false;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    Finding F;
    F.Check = E.DiagnosticName;
    F.Level = E.DiagLevel == clang::tooling::Diagnostic::Error || E.IsWarningAsError
                  ? Severity::Error
              : E.DiagLevel == clang::tooling::Diagnostic::Remark ? Severity::Note
                                                                  : Severity::Warning;
    F.Message = E.Message.Message;
    F.Pos = Lines.at(inCommandDir(E.Message.FilePath), E.Message.FileOffset);
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back({Lines.at(inCommandDir(N.FilePath), N.FileOffset), N.Message});
    F.Arch = Facts.Arch;
    if (E.DiagLevel == clang::tooling::Diagnostic::Error) {
      AnyError = true;
      // Error-level findings of warplint's checks (launch-config-invalid) fail the
      // compile for clang's engine but not the analysis.
      if (llvm::StringRef(F.Check).starts_with("clang-diagnostic-"))
        Failed = true;
    }
    R.Findings.push_back(std::move(F));
  }
  if (ToolRc != 0 && !AnyError) {
    // The tool failed without saying why (no diagnostic reached the consumer).
    Finding F;
    F.Check = "clang-diagnostic-error";
    F.Level = Severity::Error;
    F.Pos = {File, 0, 0};
    F.Message = "clang could not run on this file";
    R.Findings.push_back(std::move(F));
    Failed = true;
  }
  if (Failed) {
    R.FilesFailed.push_back(File);
    return R;
  }
  R.FilesAnalysed.push_back(File);
  for (const clang::tidy::warplint::PlainLaunch &P : Facts.Launches) {
    LaunchRecord L;
    L.Pos = {inCommandDir(P.File), P.Line, P.Column};
    L.Kernel = P.Kernel ? P.Kernel : std::optional<std::string>(P.KernelText);
    L.MangledKernel = P.MangledKernel;
    L.Api = P.Api;
    L.Block = P.Block;
    L.Grid = P.Grid;
    L.DynamicSmemBytes = P.DynamicSmemBytes;
    L.DynamicSmemExpr = P.DynamicSmemExpr;
    L.StaticSmemBytes = P.StaticSmemBytes;
    L.Arch = Facts.Arch;
    // The compiler's figures for this kernel on this arch, when a log or object has them.
    const clang::tidy::warplint::ResourceTable &Figures =
        TU.NvccFigures ? *TU.NvccFigures : Resources;
    if (!Figures.empty() && L.MangledKernel && Opts.RegistersFrom != "none")
      for (const clang::tidy::warplint::KernelFigures *K :
           Figures.match(*L.MangledKernel).PerArch)
        if (K && K->Arch == L.Arch) {
          L.Registers = static_cast<unsigned>(K->Registers);
          if (K->StaticSharedBytes)
            L.StaticSmemBytes = K->StaticSharedBytes;
        }
    fillOccupancy(L, P);
    R.Launches.push_back(std::move(L));
  }
  R.Kernels = std::move(TU.Kernels);
  for (KernelRecord &K : R.Kernels)
    K.File = inCommandDir(K.File);
  return R;
}

} // namespace

std::vector<std::string> clangCommand(const std::vector<std::string> &Original,
                                      const std::string &Arch,
                                      const std::vector<std::string> &ExtraArgs) {
  // nvcc commands (CMake's CUDA databases) become clang's first.
  std::vector<std::string> In =
      isNvccCommand(Original) ? translateNvccCommand(Original).Args : Original;
  std::vector<std::string> Out;
  for (const std::string &A : In) {
    llvm::StringRef R = A;
    if (!Arch.empty() && (R.starts_with("--cuda-gpu-arch") || R.starts_with("--offload-arch") ||
                          R == "--cuda-host-only" || R == "--cuda-device-only"))
      continue;
    Out.push_back(A);
  }
  // Options go before a "--" that separates the input files (inferred commands).
  std::vector<std::string> Added(ExtraArgs.begin(), ExtraArgs.end());
  if (!Arch.empty()) {
    Added.push_back("--cuda-device-only");
    Added.push_back("--cuda-gpu-arch=" + Arch);
  }
  Added.push_back("-Wno-unknown-cuda-version");
  // A parse against a real CUDA toolkit gets the compatibility header (what clang-22's
  // CUDA wrappers lack and nvcc users rely on); one with -nocudainc has its own headers.
  bool RealToolkit = std::find(Out.begin(), Out.end(), "-nocudainc") == Out.end() &&
                     std::find(Added.begin(), Added.end(), "-nocudainc") == Added.end();
  bool IsCuda = !Arch.empty() || std::any_of(Out.begin(), Out.end(), [](const std::string &A) {
    llvm::StringRef R = A;
    return R == "cuda" || R == "-xcuda" || R.starts_with("--cuda-") || R.ends_with(".cu");
  });
  std::string Compat = cudaCompatHeader();
  if (RealToolkit && IsCuda && !Compat.empty() &&
      std::find(Out.begin(), Out.end(), Compat) == Out.end()) {
    Added.push_back("-include");
    Added.push_back(Compat);
  }
  Out.insert(std::find(Out.begin(), Out.end(), "--"), Added.begin(), Added.end());
  return Out;
}

namespace {

/// A path under share/warplint beside the binary (bin/..), as the build tree and an
/// installation lay it out; empty when it does not exist.
std::string sharedFile(std::initializer_list<llvm::StringRef> Parts) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable("warplint", &Anchor);
  llvm::SmallString<256> P(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(P, "share", "warplint");
  for (llvm::StringRef Part : Parts)
    llvm::sys::path::append(P, Part);
  return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
}

/// warplint's own minimal CUDA header directory, share/warplint/cuda.
std::string findOwnCudaHeaders() {
  return sharedFile({"cuda", "cuda_runtime.h"}).empty() ? "" : sharedFile({"cuda"});
}

} // namespace

std::string cudaCompatHeader() {
  static const std::string Path = sharedFile({"include", "warplint_cuda_compat.h"});
  return Path;
}

std::vector<std::string> defaultCudaArgs(const std::string &Arch, const std::string &CudaPath,
                                         bool MockCuda) {
  std::string GpuArch = "--cuda-gpu-arch=" + (Arch.empty() ? std::string("sm_86") : Arch);
  std::string Cuda = MockCuda ? "" : !CudaPath.empty() ? CudaPath : defaultCudaToolkit();
  if (!Cuda.empty())
    return {"-x",          "cuda",   "--cuda-device-only", GpuArch, "--cuda-path=" + Cuda,
            "-isystem",    Cuda + "/include/cccl", "-std=c++17"};
  // No toolkit: our own header declares the launch API and the CUDA keywords, so launch
  // shapes, shared memory and divergence are still checked; toolkit headers beyond it
  // (cub, cooperative groups, the math API) are not there, so files that include them do
  // not parse and are reported as failed.
  std::string Own = findOwnCudaHeaders();
  static std::once_flag Said;
  std::call_once(Said, [&] {
    llvm::errs() << (MockCuda ? "warplint: --mock-cuda: "
                              : "warplint: no CUDA toolkit found ($CUDA_PATH or /usr/local/cuda); ")
                 << (Own.empty() ? "and warplint's own CUDA header is missing"
                                 : "parsing with warplint's own minimal CUDA header in " + Own)
                 << "\n";
  });
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only", GpuArch, "-nocudainc",
                                   "-nocudalib", "-std=c++17"};
  if (!Own.empty()) {
    Args.insert(Args.end(), {"-isystem", Own, "-include", "cuda_runtime.h"});
  }
  return Args;
}

namespace {

/// A database that answers with another one's commands (owned elsewhere).
class ForwardingDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit ForwardingDatabase(const clang::tooling::CompilationDatabase &Inner) : Inner(Inner) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    return Inner.getCompileCommands(File);
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const clang::tooling::CompilationDatabase &Inner;
};

/// The device side of Arch in place of the command's own architecture.
clang::tooling::ArgumentsAdjuster archAdjuster(const std::string &Arch) {
  return [Arch](const CommandLineArguments &Args, llvm::StringRef) {
    return clangCommand(Args, Arch, {});
  };
}

/// The architectures of File's nvcc command in the database (several with -gencode
/// lists) when --arch does not choose one; empty otherwise.
std::vector<std::string> commandArchs(const std::string &File, const AnalysisOptions &Opts,
                                      const clang::tooling::CompilationDatabase *Original) {
  if (!Opts.Arch.empty() || !Original)
    return {};
  std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
  if (Cmds.empty() || !isNvccCommand(Cmds.front().CommandLine))
    return {};
  std::vector<std::string> Archs = translateNvccCommand(Cmds.front().CommandLine).GpuArchs;
  std::vector<std::string> Unique;
  for (const std::string &A : Archs)
    if (std::find(Unique.begin(), Unique.end(), A) == Unique.end())
      Unique.push_back(A);
  return Unique;
}

/// The analyses of one file for several architectures as one result: the file counted
/// once (failed if any analysis failed), a finding that every architecture gives the same
/// way reported once (for the first architecture), launches per architecture.
RunResult combineArchs(std::vector<RunResult> PerArch) {
  RunResult Out;
  bool Failed = false;
  std::string File;
  for (RunResult &R : PerArch) {
    Failed |= !R.FilesFailed.empty();
    if (File.empty())
      File = !R.FilesAnalysed.empty() ? R.FilesAnalysed.front()
                                      : !R.FilesFailed.empty() ? R.FilesFailed.front() : "";
    for (Finding &F : R.Findings) {
      bool Seen = std::any_of(Out.Findings.begin(), Out.Findings.end(), [&](const Finding &G) {
        return G.Pos.File == F.Pos.File && G.Pos.Line == F.Pos.Line &&
               G.Pos.Column == F.Pos.Column && G.Check == F.Check && G.Message == F.Message;
      });
      if (!Seen)
        Out.Findings.push_back(std::move(F));
    }
    for (LaunchRecord &L : R.Launches)
      Out.Launches.push_back(std::move(L));
    for (KernelRecord &K : R.Kernels)
      Out.Kernels.push_back(std::move(K));
  }
  if (!File.empty())
    (Failed ? Out.FilesFailed : Out.FilesAnalysed).push_back(File);
  std::vector<RunResult> One;
  One.push_back(std::move(Out));
  return mergeResults(std::move(One));
}

} // namespace

RunResult analyse(const AnalysisOptions &Opts, std::string &Error) {
  std::unique_ptr<clang::tooling::CompilationDatabase> Base;
  if (!Opts.BuildDir.empty()) {
    std::string Why;
    Base = clang::tooling::CompilationDatabase::loadFromDirectory(Opts.BuildDir, Why);
    if (!Base) {
      Error = "cannot load a compile database from " + Opts.BuildDir + ": " + Why;
      return {};
    }
    // Headers (a .cuh handed over by pre-commit) and new files get the command of the
    // closest file in the database, as clangd does.
    Base = clang::tooling::inferMissingCompileCommands(std::move(Base));
  } else {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    if (!Opts.HasDashDash && !Opts.MockCuda && !Opts.CudaPath.empty() &&
        !isCudaToolkit(Opts.CudaPath)) {
      Error = "--cuda-path " + Opts.CudaPath + ": no CUDA toolkit there (no include/cuda_runtime.h)";
      return {};
    }
    std::vector<std::string> Args =
        Opts.HasDashDash ? Opts.ExtraArgs : defaultCudaArgs(Opts.Arch, Opts.CudaPath, Opts.MockCuda);
    Base = std::make_unique<clang::tooling::FixedCompilationDatabase>(Cwd.str(), Args);
  }
  const clang::tooling::CompilationDatabase *Original = Base.get();
  auto Db = std::make_unique<clang::tooling::ArgumentsAdjustingCompilations>(std::move(Base));
  Db->appendArgumentsAdjuster(commandAdjuster(Opts));

  std::vector<std::string> Files;
  for (const std::string &F : Opts.Files)
    Files.push_back(absolute(F));
  if (Files.empty() && !Opts.BuildDir.empty())
    Files = Db->getAllFiles();
  if (Files.empty()) {
    Error = Opts.BuildDir.empty() ? "no input files (name .cu files, or give -p BUILD)"
                                  : "the compile database in " + Opts.BuildDir + " has no files";
    return {};
  }
  // A filter that matches nothing is an error (a typo must not pass CI); a shard with no
  // file is not (a CI matrix may have more shards than the project has files).
  FileFilter Unsharded = Opts.Filter;
  Unsharded.Shard = ShardSpec();
  size_t Matching = selectFiles(Files, Unsharded).size();
  if (Matching == 0) {
    Error = "no file matches --files/--exclude";
    return {};
  }
  Files = selectFiles(std::move(Files), Opts.Filter);
  if (Files.empty())
    llvm::errs() << "warplint: shard " << Opts.Filter.Shard.Index << "/" << Opts.Filter.Shard.Count
                 << " has no file (" << Matching << " file" << (Matching == 1 ? "" : "s") << " for "
                 << Opts.Filter.Shard.Count << " shards)\n";

  llvm::SmallString<256> CwdBuf;
  llvm::sys::fs::current_path(CwdBuf);
  std::string Cwd(CwdBuf);
  if (Opts.RegistersFrom == "ptxas-log" && Opts.PtxasLogs.empty()) {
    Error = "--registers-from ptxas-log needs --ptxas-log FILE";
    return {};
  }
  if (Opts.RegistersFrom == "objects" && Opts.Objects.empty()) {
    Error = "--registers-from objects needs --objects FILE";
    return {};
  }
  if (Opts.RegistersFrom == "nvcc" && clang::tidy::warplint::findNvcc().empty()) {
    Error = "--registers-from nvcc: nvcc not found (PATH, /usr/local/cuda/bin, $CUDA_PATH)";
    return {};
  }
  clang::tidy::warplint::ResourceTable Resources;
  for (const std::string &Log : Opts.PtxasLogs)
    Resources.addPtxasLogFile(Log);
  for (const std::string &Obj : Opts.Objects)
    Resources.addObjectFile(Obj);
  if (!Resources.Errors.empty()) {
    Error = Resources.Errors.front();
    return {};
  }
  // Entries whose "command" clang would split wrongly (an unbalanced quote) fail with
  // the reason instead of a misleading clang error.
  std::vector<CompileCommandProblem> BadCommands = checkCompileDatabase(Opts.BuildDir);
  for (const std::string &F : Files)
    if (const CompileCommandProblem *P = findCompileCommandProblem(BadCommands, F))
      llvm::errs() << "warplint: " << P->Message << "\n";
  std::vector<RunResult> PerFile(Files.size());
  ProgressLine Progress(llvm::errs(), Opts.Progress, Files.size());
  runJobs(
      Files.size(), Opts.Jobs,
      [&](size_t I) {
        if (const CompileCommandProblem *P = findCompileCommandProblem(BadCommands, Files[I])) {
          PerFile[I] = failedCompileCommand(Files[I], *P);
          return;
        }
        std::vector<std::string> Archs = commandArchs(Files[I], Opts, Original);
        if (Archs.size() <= 1) {
          PerFile[I] = analyseOne(Files[I], *Db, Opts, Resources, Original);
          return;
        }
        // One analysis per architecture of the nvcc command (-gencode lists).
        std::vector<RunResult> PerArch;
        for (const std::string &A : Archs) {
          AnalysisOptions ForArch = Opts;
          ForArch.Arch = A;
          clang::tooling::ArgumentsAdjustingCompilations ArchDb(
              std::make_unique<ForwardingDatabase>(*Db));
          ArchDb.appendArgumentsAdjuster(archAdjuster(A));
          PerArch.push_back(analyseOne(Files[I], ArchDb, ForArch, Resources, Original));
        }
        PerFile[I] = combineArchs(std::move(PerArch));
      },
      [&](size_t I, size_t Done) { Progress.update(Done, relativeToRoot(Files[I], Cwd)); });
  Progress.finish();
  return mergeResults(std::move(PerFile));
}

} // namespace warplint::driver
