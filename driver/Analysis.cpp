//===- Analysis.cpp - clang-tidy's engine + launch facts per translation unit ===//
#include "driver/Analysis.h"
#include "driver/formats/Formats.h"
#include "driver/NvccTranslate.h"

#include "checks/WarplintTidyModule.h"
#include "model/ModelOptions.h"
#include "model/TuModel.h"
#include "resources/NvccResources.h"

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
#include "llvm/ADT/STLExtras.h"
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

/// What the model consumer of one translation unit gives.
struct TUResult {
  /// The model's records (launches with their figures, kernels) when launches are
  /// collected; otherwise only the register-source line below.
  std::optional<::warplint::ModelRecords> Records;
  /// Why registers are not counted, when the checks loaded a register source with none.
  std::string RegistersMissing;
  clang::tidy::warplint::ResourceSource RegisterSource = clang::tidy::warplint::ResourceSource::None;
  bool RegistersLoaded = false;
};

/// Reads the one per-TU model the checks used (model/TuModel.h) after them: its records
/// when launches are collected, else only what the register source said.
struct ModelConsumer : clang::ASTConsumer {
  TUResult &Out;
  const clang::Preprocessor &PP;
  clang::tidy::warplint::ModelOptions Opts;
  bool Records;
  ModelConsumer(TUResult &Out, const clang::Preprocessor &PP,
                clang::tidy::warplint::ModelOptions Opts, bool Records)
      : Out(Out), PP(PP), Opts(std::move(Opts)), Records(Records) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    clang::tidy::warplint::TuModel &M = clang::tidy::warplint::TuModel::of(Ctx, &PP, Opts);
    if (Records) {
      Out.Records = M.records();
      Out.RegistersLoaded = true;
      Out.RegistersMissing = M.registers().Missing;
      Out.RegisterSource = M.registers().Source;
    } else if (const clang::tidy::warplint::LoadedRegisters *R = M.loadedRegisters()) {
      Out.RegistersLoaded = true;
      Out.RegistersMissing = R->Missing;
      Out.RegisterSource = R->Source;
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

/// The run's register options from the command line: --registers-from, --ptxas-log,
/// --objects, --cache-dir; the paths as the user wrote them (the process never changes
/// directory, and the notes then name them as written).
clang::tidy::warplint::RegisterOptions registerOptions(const AnalysisOptions &Opts) {
  clang::tidy::warplint::RegisterOptions R;
  R.Source = clang::tidy::warplint::parseRegisterSourceChoice(Opts.RegistersFrom)
                 .value_or(clang::tidy::warplint::RegisterSourceChoice::Auto);
  R.PtxasLogs = Opts.PtxasLogs;
  R.Objects = Opts.Objects;
  R.CacheDir = Opts.CacheDir.empty() ? "" : absolute(Opts.CacheDir);
  return R;
}

/// Parses File once with clang-tidy's AST consumers (the enabled checks) and the model
/// consumer after them (records when Records is set); the checks' diagnostics and clang's
/// own go to Errors. Returns ClangTool::run's status (non-zero when the compile had errors).
int runTidyAndModel(clang::tidy::ClangTidyContext &Context,
                    const clang::tooling::CompilationDatabase &Db, const std::string &File,
                    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                    bool Records, TUResult &Model,
                    std::vector<clang::tidy::ClangTidyError> &Errors) {
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

  // The model's options as the checks read them: the same .clang-tidy and overrides.
  clang::tidy::warplint::ModelOptions ModelOpts = clang::tidy::warplint::ModelOptions::read(
      Context.getOptionsForFile(File).CheckOptions);

  class Factory : public clang::tooling::FrontendActionFactory {
  public:
    Factory(clang::tidy::ClangTidyContext &Context,
            llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
            clang::tidy::warplint::ModelOptions Opts, bool Records, TUResult &Model)
        : Tidy(Context, std::move(BaseFS)), Opts(std::move(Opts)), Records(Records),
          Model(Model) {}
    std::unique_ptr<clang::FrontendAction> create() override {
      return std::make_unique<Action>(*this);
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
      explicit Action(Factory &F) : F(F) {}
      std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                            llvm::StringRef InFile) override {
        std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
        Consumers.push_back(F.Tidy.createASTConsumer(CI, InFile));
        Consumers.push_back(
            std::make_unique<ModelConsumer>(F.Model, CI.getPreprocessor(), F.Opts, F.Records));
        return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
      }

    private:
      Factory &F;
    };
    clang::tidy::ClangTidyASTConsumerFactory Tidy;
    clang::tidy::warplint::ModelOptions Opts;
    bool Records;
    TUResult &Model;
  };

  Factory F(Context, std::move(BaseFS), std::move(ModelOpts), Records, Model);
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

/// The finding for a file the database has no command for.
RunResult noCommand(const std::string &File, const AnalysisOptions &Opts) {
  RunResult R;
  R.FilesFailed.push_back(File);
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.Level = Severity::Error;
  F.Pos = {File, 0, 0};
  F.Message = "no compile command for this file in " + Opts.BuildDir + "/compile_commands.json";
  R.Findings.push_back(std::move(F));
  return R;
}

/// What the command line overrides in .clang-tidy's options for File: --checks,
/// --warnings-as-errors, and the run-wide warplint.* options (register source, its files
/// and cache; for an nvcc compile command in auto mode, that nvcc with the build's flags).
clang::tidy::ClangTidyOptions commandLineOverrides(const std::string &File,
                                                   const AnalysisOptions &Opts,
                                                   const clang::tooling::CompilationDatabase *Original) {
  clang::tidy::ClangTidyOptions Override;
  if (Opts.Checks != "-*,warplint-*")
    Override.Checks = Opts.Checks;
  if (!Opts.WarningsAsErrors.empty())
    Override.WarningsAsErrors = Opts.WarningsAsErrors;
  clang::tidy::warplint::RegisterOptions R = registerOptions(Opts);
  bool Explicit = Opts.RegistersFrom != "auto" || !R.PtxasLogs.empty() || !R.Objects.empty();
  // auto on an nvcc compile command: the registers come from that nvcc, with the build's
  // flags (docs/registers.md); cached, so a second run compiles nothing.
  if (!Explicit && Original) {
    std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
    if (!Cmds.empty() && isNvccCommand(Cmds.front().CommandLine)) {
      BuildNvcc B = buildNvcc(Cmds.front());
      if (!B.Nvcc.empty()) {
        R.Source = clang::tidy::warplint::RegisterSourceChoice::Nvcc;
        R.Nvcc = B.Nvcc;
        R.NvccFlags = B.Flags;
        Explicit = true;
      }
    }
  }
  auto Set = [&](llvm::StringRef Name, const std::string &Value) {
    Override.CheckOptions[clang::tidy::warplint::modelOptionKey(Name)] =
        clang::tidy::ClangTidyOptions::ClangTidyValue(Value);
  };
  if (Explicit)
    Set("RegisterSource", clang::tidy::warplint::registerSourceChoiceName(R.Source));
  if (!R.PtxasLogs.empty())
    Set("PtxasLog", llvm::join(R.PtxasLogs, ";"));
  if (!R.Objects.empty())
    Set("Objects", llvm::join(R.Objects, ";"));
  if (!R.CacheDir.empty())
    Set("CacheDir", R.CacheDir);
  if (!R.Nvcc.empty())
    Set("Nvcc", R.Nvcc);
  if (!R.NvccFlags.empty())
    Set("NvccFlags", R.NvccFlags);
  return Override;
}

/// Makes a path of the compile (relative to the command's directory, where the process
/// never moves) absolute before any file is read or reported.
struct CommandDir {
  std::string Dir;
  std::string operator()(const std::string &P) const {
    if (P.empty() || llvm::sys::path::is_absolute(P) || Dir.empty())
      return P;
    llvm::SmallString<256> Abs(Dir);
    llvm::sys::path::append(Abs, P);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    return std::string(Abs);
  }
};

/// clang-tidy's diagnostics of one file as findings; those with no location
/// (configuration diagnostics: an invalid option, a register source that could not be
/// loaded) as run messages. Returns whether clang could not compile the file.
bool convertDiagnostics(const std::vector<clang::tidy::ClangTidyError> &Errors,
                        const CommandDir &InDir, const std::string &Arch, RunResult &R) {
  LineTable Lines;
  bool Failed = false;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    Severity Level = E.DiagLevel == clang::tooling::Diagnostic::Error || E.IsWarningAsError
                         ? Severity::Error
                     : E.DiagLevel == clang::tooling::Diagnostic::Remark ? Severity::Note
                                                                         : Severity::Warning;
    if (E.Message.FilePath.empty() &&
        !llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-")) {
      R.Messages.push_back({Level, E.Message.Message});
      continue;
    }
    Finding F;
    F.Check = E.DiagnosticName;
    F.Level = Level;
    F.Message = E.Message.Message;
    F.Pos = Lines.at(InDir(E.Message.FilePath), E.Message.FileOffset);
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back({Lines.at(InDir(N.FilePath), N.FileOffset), N.Message});
    F.Arch = Arch;
    if (E.DiagLevel == clang::tooling::Diagnostic::Error &&
        llvm::StringRef(F.Check).starts_with("clang-diagnostic-"))
      Failed = true;
    R.Findings.push_back(std::move(F));
  }
  return Failed;
}

/// The analysed arch of File's (adjusted) command: its last --cuda-gpu-arch.
std::string commandArch(const clang::tooling::CompilationDatabase &Db, const std::string &File) {
  std::string Arch;
  std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(File);
  for (const std::string &A : Commands.front().CommandLine)
    if (llvm::StringRef(A).starts_with("--cuda-gpu-arch="))
      Arch = A.substr(16);
  return Arch;
}

RunResult analyseOne(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                     const AnalysisOptions &Opts,
                     const clang::tooling::CompilationDatabase *Original) {
  if (Db.getCompileCommands(File).empty())
    return noCommand(File, Opts);

  // The checks, through clang-tidy's engine: .clang-tidy files apply as usual; the
  // command line's options override them.
  clang::tidy::ClangTidyOptions Defaults = clang::tidy::ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,warplint-*";
  // Each analysis gets a file system with its own working directory: ClangTool moves to
  // the command's directory, and on the process-wide real file system that is a chdir,
  // which races between -j workers (a relative -I or include then resolves in another
  // command's directory, and a relative -o lands there).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical(
      llvm::vfs::createPhysicalFileSystem().release());
  clang::tidy::ClangTidyContext Context(std::make_unique<clang::tidy::FileOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults,
      commandLineOverrides(File, Opts, Original), Physical));
  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Physical);
  // One parse serves the checks and the records: both read the TU's one model.
  TUResult TU;
  std::vector<clang::tidy::ClangTidyError> Errors;
  int ToolRc = runTidyAndModel(Context, Db, File, BaseFS, Opts.CollectLaunches, TU, Errors);
  std::string Arch = TU.Records ? TU.Records->Arch : commandArch(Db, File);

  RunResult R;
  CommandDir InDir{Db.getCompileCommands(File).front().Directory};
  bool Failed = convertDiagnostics(Errors, InDir, Arch, R);
  bool AnyError = Failed || std::any_of(R.Findings.begin(), R.Findings.end(), [](const Finding &F) {
                    return F.Level == Severity::Error;
                  });
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
    // A file that does not parse says why, and only that: its model was built on clang's
    // error recovery (an invalid declaration, such as a rejected __shared__ variable, is
    // dropped with its bytes), so its launches are not exported and the checks' findings,
    // which quote the same figures, are not either.
    llvm::erase_if(R.Findings, [](const Finding &F) {
      return !llvm::StringRef(F.Check).starts_with("clang-diagnostic-");
    });
    R.FilesFailed.push_back(File);
    return R;
  }
  R.FilesAnalysed.push_back(File);
  if (TU.RegistersLoaded && TU.RegisterSource == clang::tidy::warplint::ResourceSource::None &&
      Opts.RegistersFrom != "none" && !TU.RegistersMissing.empty())
    R.Messages.push_back({Severity::Note, "registers not counted: " + TU.RegistersMissing +
                                              "; occupancy figures leave the register "
                                              "limit out"});
  if (!TU.Records)
    return R;
  for (const std::string &P : TU.Records->Problems)
    R.Messages.push_back({Severity::Warning, P});
  for (LaunchRecord &L : TU.Records->Launches) {
    L.Pos.File = InDir(L.Pos.File);
    R.Launches.push_back(std::move(L));
  }
  for (KernelRecord &K : TU.Records->Kernels) {
    if (!K.BeginLine)
      continue; // declared here, defined elsewhere: no body to tie findings to
    K.File = InDir(K.File);
    R.Kernels.push_back(std::move(K));
  }
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
  Files = selectFiles(std::move(Files), Opts.Filter);
  if (Files.empty()) {
    Error = "no file left after --files/--exclude/--shard";
    return {};
  }

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
  // Unreadable logs and objects stop the run before any file is parsed (each TU's model
  // reads them again).
  clang::tidy::warplint::ResourceTable Resources;
  for (const std::string &Log : Opts.PtxasLogs)
    Resources.addPtxasLogFile(Log);
  for (const std::string &Obj : Opts.Objects)
    Resources.addObjectFile(Obj);
  if (!Resources.Errors.empty()) {
    Error = Resources.Errors.front();
    return {};
  }
  std::vector<RunResult> PerFile(Files.size());
  ProgressLine Progress(llvm::errs(), Opts.Progress, Files.size());
  runJobs(
      Files.size(), Opts.Jobs,
      [&](size_t I) {
        std::vector<std::string> Archs = commandArchs(Files[I], Opts, Original);
        if (Archs.size() <= 1) {
          PerFile[I] = analyseOne(Files[I], *Db, Opts, Original);
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
          PerArch.push_back(analyseOne(Files[I], ArchDb, ForArch, Original));
        }
        PerFile[I] = combineArchs(std::move(PerArch));
      },
      [&](size_t I, size_t Done) { Progress.update(Done, relativeToRoot(Files[I], Cwd)); });
  Progress.finish();
  return mergeResults(std::move(PerFile));
}

} // namespace warplint::driver
