//===- Analysis.cpp - clang-tidy's engine + launch facts per translation unit ===//
#include "driver/run/Analysis.h"
#include "driver/compdb/CompileDatabaseCheck.h"
#include "driver/formats/Formats.h"
#include "driver/compdb/HipTranslate.h"
#include "driver/compdb/Includers.h"
#include "driver/run/Isolated.h"
#include "driver/compdb/NvccTranslate.h"
#include "driver/run/NvccDevicePass.h"
#include "driver/run/Preamble.h"
#include "driver/cache/ResultCache.h"
#include "driver/compdb/SourceRewrite.h"
#include "driver/compdb/WrapperShims.h"

#include "checks/WarplintTidyModule.h"
#include "model/ModelOptions.h"
#include "model/TuModel.h"
#include "resources/NvccResources.h"
#include "resources/Resources.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearchOptions.h"
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
#include "llvm/Support/SourceMgr.h"
#include <fmt/format.h>
#include "llvm/Support/raw_ostream.h"
#include "warplint/core/Occupancy.h"
#include "warplint/core/Version.h"
#include "warplint/core/Arch.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <map>
#include <set>
#include <tuple>
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
  /// Unsaved: texts that replace files on disk (AnalysisOptions::Unsaved).
  explicit LineTable(const std::map<std::string, std::string> &Unsaved) : Unsaved(Unsaved) {}
  SourcePos at(const std::string &File, unsigned Offset) {
    SourcePos P{File, 0, 0};
    if (File.empty())
      return P;
    auto It = Starts.find(File);
    if (It == Starts.end()) {
      std::vector<unsigned> Lines{0};
      auto Count = [&](llvm::StringRef Text) {
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            Lines.push_back(static_cast<unsigned>(I + 1));
      };
      if (auto U = Unsaved.find(File); U != Unsaved.end())
        Count(U->second);
      else if (auto Buf = llvm::MemoryBuffer::getFile(File))
        Count((*Buf)->getBuffer());
      It = Starts.emplace(File, std::move(Lines)).first;
    }
    const std::vector<unsigned> &L = It->second;
    auto Next = std::upper_bound(L.begin(), L.end(), Offset);
    P.Line = static_cast<unsigned>(Next - L.begin());
    P.Column = Offset - *(Next - 1) + 1;
    return P;
  }

private:
  const std::map<std::string, std::string> &Unsaved;
  std::map<std::string, std::vector<unsigned>> Starts;
};

/// What the model consumer of one translation unit gives.
struct TUResult {
  /// The model's records (launches with their figures, kernels) when launches are
  /// collected; otherwise only the register-source line below.
  std::optional<::warplint::ModelRecords> Records;
  /// The findings' impacts, from the model's records, whether launches are collected or
  /// not (`warplint launch` ranks its findings as `check` does).
  std::vector<::warplint::ImpactRecord> Impacts;
  /// Why registers are not counted, when the checks loaded a register source with none.
  std::string RegistersMissing;
  /// A cache-only register load missed (LoadedRegisters::NotCached).
  bool RegistersNotCached = false;
  bool RegisterCacheRepaired = false; ///< LoadedRegisters::CacheRepaired
  ::warplint::ResourceSource RegisterSource = ::warplint::ResourceSource::None;
  bool RegistersLoaded = false;
  /// Every file the front end read, absolute (for the result cache).
  std::vector<std::string> FilesRead;
  /// clang gave the AST to the consumers (it does, with the code it recovered, after
  /// errors it could recover from)...
  bool Built = false;
  /// ... unless it stopped: a fatal error (a missing header, too many errors) leaves the
  /// rest of the file unparsed.
  bool Stopped = false;
};

/// After a parse with a preamble whose PCH lacks some deferred CUDA diagnostics: sets
/// PreambleStore::Reached when the device code reaches one of them.
struct UnsaidCheck : clang::ASTConsumer {
  clang::CompilerInstance &CI;
  PreambleStore &Store;
  UnsaidCheck(clang::CompilerInstance &CI, PreambleStore &Store) : CI(CI), Store(Store) {}
  void HandleTranslationUnit(clang::ASTContext &) override {
    Store.Reached = !CI.hasSema() || reachesUnsaidDeferred(CI.getSema(), Store.unsaid());
  }
};

/// Reads the one per-TU model the checks used (model/TuModel.h) after them: its records
/// when launches are collected, else only what the register source said.
struct ModelConsumer : clang::ASTConsumer {
  TUResult &Out;
  const clang::Preprocessor &PP;
  ::warplint::ModelOptions Opts;
  bool Records;
  ModelConsumer(TUResult &Out, const clang::Preprocessor &PP,
                ::warplint::ModelOptions Opts, bool Records)
      : Out(Out), PP(PP), Opts(std::move(Opts)), Records(Records) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Out.Built = true;
    Out.Stopped = PP.getDiagnostics().hasFatalErrorOccurred();
    if (Out.Stopped)
      return;
    ::warplint::TuModel &M = ::warplint::TuModel::of(Ctx, &PP, Opts);
    const clang::SourceManager &SM = Ctx.getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      llvm::SmallString<256> Path(It->first.getName());
      SM.getFileManager().makeAbsolutePath(Path);
      Out.FilesRead.push_back(std::string(Path));
    }
    if (Records) {
      Out.Records = M.records();
      Out.Impacts = std::move(Out.Records->Impacts);
      Out.RegistersLoaded = true;
      Out.RegistersMissing = M.registers().Missing;
      Out.RegisterSource = M.registers().Source;
      Out.RegistersNotCached = M.registers().NotCached;
      Out.RegisterCacheRepaired = M.registers().CacheRepaired;
      return;
    }
    // No launch records, but each finding still gets its impact from the one record the
    // model makes of it: the records are made and their impacts alone kept.
    Out.Impacts = M.records().Impacts;
    if (const ::warplint::LoadedRegisters *R = M.loadedRegisters()) {
      Out.RegistersLoaded = true;
      Out.RegistersMissing = R->Missing;
      Out.RegisterSource = R->Source;
      Out.RegistersNotCached = R->NotCached;
      Out.RegisterCacheRepaired = R->CacheRepaired;
    }
  }
};

bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) { return S.starts_with(Prefix); }

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
::warplint::RegisterOptions registerOptions(const AnalysisOptions &Opts) {
  ::warplint::RegisterOptions R;
  R.Source = ::warplint::parseRegisterSourceChoice(Opts.RegistersFrom)
                 .value_or(::warplint::RegisterSourceChoice::Auto);
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
                    std::vector<clang::tidy::ClangTidyError> &Errors,
                    PreambleStore *Preambles = nullptr, bool PreambleOnly = false) {
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
  ::warplint::ModelOptions ModelOpts = ::warplint::ModelOptions::read(
      Context.getOptionsForFile(File).CheckOptions);

  class Factory : public clang::tooling::FrontendActionFactory {
  public:
    Factory(clang::tidy::ClangTidyContext &Context,
            llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
            ::warplint::ModelOptions Opts, bool Records, TUResult &Model,
            PreambleStore *Preambles, bool PreambleOnly)
        : Tidy(Context, BaseFS), BaseFS(std::move(BaseFS)), Opts(std::move(Opts)),
          Records(Records), Model(Model), Preambles(Preambles), PreambleOnly(PreambleOnly) {}
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
      // A child of runIsolated exits right after sending its result: the AST, the
      // preprocessor and the model are left for the exit to reclaim (clang's
      // -disable-free) instead of being destroyed node by node. Not when the model is
      // asked to count its analyses, which it says as it is destroyed.
      if (inIsolatedChild() && !std::getenv("WARPLINT_DEBUG_ANALYSES"))
        Invocation->getFrontendOpts().DisableFree = true;
      addWrapperShims(*Invocation);
      // The preamble is built from, and checked against, the invocation as parsed.
      if (Preambles && PreambleOnly) {
        Preambles->Note = Preambles->build(*Invocation, Files->getVirtualFileSystemPtr(), PCH);
        return true;
      }
      if (Preambles)
        Preambles->use(*Invocation, Files->getVirtualFileSystemPtr());
      // A file nvcc compiles: its device-side parse does not hold a host function's calls
      // to the execution spaces, as nvcc's device pass does not.
      if (Diags && Invocation->getLangOpts().CUDAIsDevice &&
          llvm::any_of(Invocation->getPreprocessorOpts().Macros,
                        [](const std::pair<std::string, bool> &M) {
                          return !M.second && llvm::StringRef(M.first).starts_with("__NVCC__");
                        })) {
        NvccDevicePassFilter Filter(*Diags, Invocation->getDiagnosticOpts().ErrorLimit);
        return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                    std::move(PCH), &Filter);
      }
      return FrontendActionFactory::runInvocation(std::move(Invocation), Files, std::move(PCH),
                                                  Diags);
    }

  private:
    /// clang's CUDA wrapper includes "cuda.h" and other toolkit headers with quotes: they
    /// resolve to the toolkit's even when a project header of the same name is on -I
    /// (driver/compdb/WrapperShims.h).
    void addWrapperShims(const clang::CompilerInvocation &Invocation) {
      const std::vector<std::string> &Includes = Invocation.getPreprocessorOpts().Includes;
      if (!llvm::is_contained(Includes, "__clang_cuda_runtime_wrapper.h"))
        return;
      const clang::HeaderSearchOptions &HS = Invocation.getHeaderSearchOpts();
      // The toolkit's include directory: the first system directory (clang's driver adds
      // the toolkit's as one) with cuda_runtime.h.
      std::string Toolkit;
      for (const clang::HeaderSearchOptions::Entry &E : HS.UserEntries) {
        llvm::SmallString<256> P(E.Path);
        llvm::sys::path::append(P, "cuda_runtime.h");
        if (E.Group == clang::frontend::System && !E.IsFramework && BaseFS->exists(P)) {
          Toolkit = E.Path;
          break;
        }
      }
      if (Toolkit.empty() || HS.ResourceDir.empty())
        return;
      llvm::SmallString<256> ToolkitDir(Toolkit), ResourceInclude(HS.ResourceDir);
      BaseFS->makeAbsolute(ToolkitDir);
      BaseFS->makeAbsolute(ResourceInclude);
      llvm::sys::path::append(ResourceInclude, "include");
      std::vector<ShimFile> Shims = wrapperIncludeShims(*BaseFS, ResourceInclude, ToolkitDir);
      if (Shims.empty())
        return;
      auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
      for (const ShimFile &S : Shims)
        Memory->addFile(S.Path, 0, llvm::MemoryBuffer::getMemBufferCopy(S.Text, S.Path));
      BaseFS->pushOverlay(Memory);
    }

    class Action : public clang::ASTFrontendAction {
    public:
      explicit Action(Factory &F) : F(F) {}
      std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                            llvm::StringRef InFile) override {
        std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
        Consumers.push_back(F.Tidy.createASTConsumer(CI, InFile));
        Consumers.push_back(
            std::make_unique<ModelConsumer>(F.Model, CI.getPreprocessor(), F.Opts, F.Records));
        // A preamble whose PCH lacks deferred diagnostics: whether the parse reaches
        // them (then it is done again without the preamble; driver/run/Preamble.h). Last,
        // after the checks and the records: the walk it may run looks up destructors,
        // which can declare them.
        if (F.Preambles && F.Preambles->Used && !F.Preambles->unsaid().empty())
          Consumers.push_back(std::make_unique<UnsaidCheck>(CI, *F.Preambles));
        return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
      }

    private:
      Factory &F;
    };
    clang::tidy::ClangTidyASTConsumerFactory Tidy;
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
    ::warplint::ModelOptions Opts;
    bool Records;
    TUResult &Model;
    PreambleStore *Preambles;
    bool PreambleOnly;
  };

  Factory F(Context, std::move(BaseFS), std::move(ModelOpts), Records, Model, Preambles,
            PreambleOnly);
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
    Out.Nvcc = ::warplint::findNvcc();
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

/// The device-side flags of a HIP command for the clang register source: the command as
/// the analysis parses it (clangCommand), without the compiler and the input, with
/// relative paths made absolute against the command's directory; shell-quoted.
std::string buildHipFlags(const clang::tooling::CompileCommand &C, const AnalysisOptions &Opts) {
  std::vector<std::string> Args = clangCommand(
      C.CommandLine, Opts.Arch, Opts.BuildDir.empty() ? std::vector<std::string>() : Opts.ExtraArgs);
  auto Abs = [&](llvm::StringRef Path) {
    if (llvm::sys::path::is_absolute(Path) || C.Directory.empty())
      return Path.str();
    llvm::SmallString<256> P(C.Directory);
    llvm::sys::path::append(P, Path);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  };
  auto Quote = [](llvm::StringRef S) {
    std::string Q = "'";
    for (char Ch : S)
      Q += Ch == '\'' ? std::string("'\\''") : std::string(1, Ch);
    return Q + "'";
  };
  const llvm::StringRef PathWithValue[] = {"-I", "-isystem", "-include", "-iquote", "-idirafter"};
  std::vector<std::string> Flags;
  for (size_t J = 1; J < Args.size(); ++J) {
    llvm::StringRef A = Args[J];
    if (A == "--" || Abs(A) == Abs(C.Filename))
      continue;
    if (llvm::is_contained(PathWithValue, A) && J + 1 < Args.size()) {
      Flags.push_back(A.str());
      // "-include hip/hip_runtime.h" is found on the include path, not a file here.
      Flags.push_back(A == "-include" && !llvm::sys::fs::exists(Abs(Args[J + 1]))
                          ? Args[J + 1]
                          : Abs(Args[J + 1]));
      ++J;
      continue;
    }
    if (A.starts_with("-I") && A.size() > 2) {
      Flags.push_back("-I" + Abs(A.drop_front(2)));
      continue;
    }
    Flags.push_back(A.str());
  }
  std::vector<std::string> Quoted;
  for (const std::string &F : Flags)
    Quoted.push_back(Quote(F));
  return llvm::join(Quoted, " ");
}

/// The finding for a file the database has no command for.
RunResult noCommand(const std::string &File, const AnalysisOptions &Opts) {
  return failedFile(File, "no compile command for this file in " + Opts.BuildDir +
                              "/compile_commands.json");
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
  ::warplint::RegisterOptions R = registerOptions(Opts);
  bool Explicit = Opts.RegistersFrom != "auto" || !R.PtxasLogs.empty() || !R.Objects.empty();
  // auto on an nvcc compile command: the registers come from that nvcc, with the build's
  // flags (docs/registers.md); cached, so a second run compiles nothing.
  // A HIP command: the clang register source compiles its device side (auto picks it for
  // a gfx arch; --registers-from clang asks for it).
  if (Original && (Opts.RegistersFrom == "auto" || Opts.RegistersFrom == "clang")) {
    std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
    if (!Cmds.empty() && (isHipCommand(Cmds.front().CommandLine) || isAmdArch(Opts.Arch)))
      R.HipFlags = buildHipFlags(Cmds.front(), Opts);
  }
  // auto or nvcc on an nvcc compile command: the registers come from that nvcc, with the
  // build's flags (docs/registers.md); cached, so a second run compiles nothing. Named
  // nvcc took the TU's -I/-D/-std only: ggml's fattn.cu (a __device__ lambda, which needs
  // the build's -extended-lambda) failed in nvcc on every run, and -use_fast_math or
  // -maxrregcount were left out of the counts.
  bool NvccWanted = (Opts.RegistersFrom == "auto" || Opts.RegistersFrom == "nvcc") &&
                    R.PtxasLogs.empty() && R.Objects.empty();
  if (NvccWanted && Original) {
    std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
    if (!Cmds.empty() && isNvccCommand(Cmds.front().CommandLine)) {
      BuildNvcc B = buildNvcc(Cmds.front());
      if (!B.Nvcc.empty()) {
        R.Source = ::warplint::RegisterSourceChoice::Nvcc;
        R.Nvcc = B.Nvcc;
        R.NvccFlags = B.Flags;
        Explicit = true;
      }
    }
  }
  auto Set = [&](llvm::StringRef Name, const std::string &Value) {
    Override.CheckOptions[::warplint::modelOptionKey(Name)] =
        clang::tidy::ClangTidyOptions::ClangTidyValue(Value);
  };
  if (Explicit)
    Set("RegisterSource", ::warplint::registerSourceChoiceName(R.Source));
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
  if (Opts.NvccCacheOnly)
    Set("NvccCacheOnly", "true");
  if (!Opts.VerifyAdvice)
    Set("VerifyAdvice", "false");
  if (!Opts.Gpu.empty())
    Set("Gpu", Opts.Gpu);
  if (!Opts.AssumeBlock.empty())
    Set("AssumedBlock", Opts.AssumeBlock);
  if (!Opts.AssumeGrid.empty())
    Set("AssumedGrid", Opts.AssumeGrid);
  if (!R.HipFlags.empty())
    Set("HipFlags", R.HipFlags);
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

/// The model's race records whose finding is among R's (one silenced by NOLINT is not
/// exported), with their paths made absolute as the findings' are.
void keepReportedRaces(std::vector<RaceRecord> &Races, const CommandDir &InDir, RunResult &R) {
  for (RaceRecord &X : Races) {
    X.Pos.File = InDir(X.Pos.File);
    X.First.Pos.File = InDir(X.First.Pos.File);
    X.Second.Pos.File = InDir(X.Second.Pos.File);
    if (std::any_of(R.Findings.begin(), R.Findings.end(), [&](const Finding &F) {
          return F.Check == X.Check && F.Pos.File == X.Pos.File && F.Pos.Line == X.Pos.Line &&
                 F.Pos.Column == X.Pos.Column;
        }))
      R.Races.push_back(std::move(X));
  }
}

/// clang-tidy's diagnostics of one file as findings; those with no location
/// (configuration diagnostics: an invalid option, a register source that could not be
/// loaded) as run messages. Returns whether clang could not compile the file.
bool convertDiagnostics(const std::vector<clang::tidy::ClangTidyError> &Errors,
                        const CommandDir &InDir, const std::string &Arch, RunResult &R,
                        const std::string &File,
                        const std::map<std::string, std::string> &Unsaved) {
  LineTable Lines(Unsaved);
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
    // clang's driver errors (an unknown argument) have no place in a file: they are the
    // analysed file's command's, and named so.
    F.Pos = E.Message.FilePath.empty()
                ? SourcePos{File, 0, 0}
                : Lines.at(InDir(E.Message.FilePath), E.Message.FileOffset);
    if (E.Message.FilePath.empty())
      F.Message += " (in the compile command of this file)";
    for (const clang::tooling::DiagnosticMessage &N : E.Notes)
      F.Notes.push_back({Lines.at(InDir(N.FilePath), N.FileOffset), N.Message});
    // The fix-it, as clang-tidy's --export-fixes writes it (the checks' FixItHints).
    for (const auto &Entry : E.Message.Fix)
      for (const clang::tooling::Replacement &Rep : Entry.second) {
        FixEdit Edit;
        Edit.File = InDir(Rep.getFilePath().str());
        Edit.Offset = Rep.getOffset();
        Edit.Length = Rep.getLength();
        Edit.Text = Rep.getReplacementText().str();
        Edit.Begin = Lines.at(Edit.File, Edit.Offset);
        Edit.End = Lines.at(Edit.File, Edit.Offset + Edit.Length);
        F.Fixes.push_back(std::move(Edit));
      }
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
    else if (llvm::StringRef(A).starts_with("--offload-arch="))
      Arch = A.substr(15, A.find(':') == std::string::npos ? std::string::npos
                                                             : A.find(':') - 15);
  return Arch;
}

/// Everything a file's result depends on besides the files it reads: warplint's own
/// binary, the command and its directory, the effective clang-tidy options, the nvcc a
/// register source would run, and whether records are collected.
std::vector<std::string> resultKeyParts(const clang::tooling::CompileCommand &Command,
                                        const clang::tidy::ClangTidyOptions &O,
                                        const AnalysisOptions &Opts) {
  auto Identity = [](const std::string &Path) {
    llvm::sys::fs::file_status St;
    if (Path.empty() || llvm::sys::fs::status(Path, St))
      return Path + "|none";
    return Path + "|" + std::to_string(St.getSize()) + "|" +
           std::to_string(St.getLastModificationTime().time_since_epoch().count());
  };
  static int Anchor;
  std::vector<std::string> Parts;
  Parts.push_back(std::string(::warplint::versionString()) + "|" +
                  Identity(llvm::sys::fs::getMainExecutable("warplint", &Anchor)));
  Parts.push_back(Command.Directory);
  Parts.push_back(llvm::join(Command.CommandLine, std::string(1, '\0')));
  std::string Options = O.Checks.value_or("") + "\n" + O.WarningsAsErrors.value_or("") + "\n" +
                        O.HeaderFilterRegex.value_or("") + "\n";
  for (const auto *Args : {&O.ExtraArgsBefore, &O.ExtraArgs})
    if (*Args)
      Options += llvm::join(**Args, std::string(1, '\0')) + "\n";
  std::vector<std::string> Keys;
  // Not NvccCacheOnly: a cache-only run whose registers were cached gives the same result
  // as a full one (one that missed is never stored), so the two share entries.
  for (const auto &E : O.CheckOptions)
    if (E.getKey() != ::warplint::modelOptionKey("NvccCacheOnly"))
      Keys.push_back(E.getKey().str() + "=" + E.getValue().Value);
  std::sort(Keys.begin(), Keys.end());
  Parts.push_back(Options + llvm::join(Keys, "\n"));
  Parts.push_back(Identity(::warplint::findNvcc()));
  Parts.push_back(Identity(::warplint::findHipClang()));
  Parts.push_back(Opts.CollectLaunches ? "records" : "findings");
  return Parts;
}

/// The result cache's directory: CacheDir/results, or the default cache's.
std::string resultCacheDir(const AnalysisOptions &Opts) {
  if (!Opts.ResultCache)
    return "";
  return Opts.CacheDir.empty() ? ::warplint::defaultCacheDir() : absolute(Opts.CacheDir);
}

/// Why --arch cannot apply to File's command: an AMD architecture for a CUDA command, an
/// NVIDIA one for a HIP command (empty when it can).
std::string archConflict(const std::string &File, const AnalysisOptions &Opts,
                         const clang::tooling::CompilationDatabase *Original) {
  if (Opts.Arch.empty() || !Original || Opts.BuildDir.empty())
    return "";
  std::vector<clang::tooling::CompileCommand> Cmds = Original->getCompileCommands(File);
  if (Cmds.empty())
    return "";
  bool Hip = isHipCommand(Cmds.front().CommandLine);
  if (isAmdArch(Opts.Arch) && !Hip)
    return "--arch " + Opts.Arch + " is an AMD architecture and this file's compile command "
           "is CUDA: AMD architectures apply to HIP commands (hipcc, clang++ -x hip)";
  if (!isAmdArch(Opts.Arch) && Hip)
    return "--arch " + Opts.Arch + " is an NVIDIA architecture and this file's compile command "
           "is HIP: give an AMD one (--arch gfx90a)";
  return "";
}

/// The failed result of a command that cannot run at all, none when it can: a directory
/// that does not exist, or an --arch of the other vendor than the command's language.
std::optional<RunResult> commandCannotRun(const std::string &File,
                                          const clang::tooling::CompileCommand &Command,
                                          const AnalysisOptions &Opts,
                                          const clang::tooling::CompilationDatabase *Original) {
  // A command whose directory does not exist cannot run (ClangTool would abort the whole
  // process on it): this file fails, named, and the others are analysed.
  if (!Command.Directory.empty() && !llvm::sys::fs::is_directory(Command.Directory)) {
    return failedFile(File, "the compile command's directory '" + Command.Directory +
                "' does not exist");
  }

  // --arch of the other vendor than the command's language: nothing to parse.
  if (std::string Why = archConflict(File, Opts, Original); !Why.empty()) {
    return failedFile(File, Why);
  }
  return std::nullopt;
}

/// The files one analysis reads: the disk, under an editor's unsaved texts.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
analysisFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Physical,
                   const AnalysisOptions &Opts) {
  // The files on disk with spaced launch chevrons joined, in headers too (the file itself
  // again in joinSpacedChevronsOf, for an editor's unsaved text).
  auto BaseFS =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(chevronJoiningFileSystem(Physical));
  // An editor's unsaved texts over the files on disk.
  if (!Opts.Unsaved.empty()) {
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const auto &[Path, Text] : Opts.Unsaved)
      Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
    BaseFS->pushOverlay(Memory);
  }
  return BaseFS;
}

/// Launch chevrons written with spaces (`k << < g, b >> > (...)`), which nvcc accepts and
/// clang does not: the file is parsed joined, every column where it was.
void joinSpacedChevronsOf(const std::string &File, llvm::vfs::OverlayFileSystem &BaseFS) {
  if (auto Buffer = BaseFS.getBufferForFile(File)) {
    if (std::optional<std::string> Joined = joinSpacedChevrons((*Buffer)->getBuffer())) {
      auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
      Memory->addFile(File, 0, llvm::MemoryBuffer::getMemBufferCopy(*Joined, File));
      BaseFS.pushOverlay(Memory);
    }
  }
}

/// Where one analysis's result is cached: the cache's directory and the entry's key
/// (both empty when it is not cached), and why a damaged entry was not read.
struct CacheSlot {
  std::string Dir, Key, Damage;
};

/// The same command, options and files as a cached run: its result, byte for byte.
/// Not for unsaved text: the cache's digests are of the files on disk.
std::optional<RunResult> cachedResult(const std::string &File,
                                      const clang::tooling::CompileCommand &Command,
                                      clang::tidy::ClangTidyContext &Context,
                                      const AnalysisOptions &Opts, CacheSlot &Slot) {
  Slot.Dir = Opts.Unsaved.empty() && !Opts.PreambleOnly ? resultCacheDir(Opts) : "";
  if (!Slot.Dir.empty()) {
    Slot.Key = resultKey(resultKeyParts(Command, Context.getOptionsForFile(File), Opts));
    if (std::optional<RunResult> Hit = lookupResult(Slot.Dir, Slot.Key, &Slot.Damage)) {
      Hit->FromCache = 1;
      return Hit;
    }
  }
  return std::nullopt;
}

/// Sorts the file into analysed, analysed with errors or failed from clang's verdict on
/// its parse (ClangErrors: clang could not compile it; ToolRc: the tool's exit status).
/// Returns whether it failed; R then keeps only clang's errors.
bool settleParse(RunResult &R, const std::string &File, const TUResult &TU, bool ClangErrors,
                 int ToolRc) {
  bool AnyError = ClangErrors || std::any_of(R.Findings.begin(), R.Findings.end(), [](const Finding &F) {
                    return F.Level == Severity::Error;
                  });
  // clang's errors fail the file when clang built no AST or stopped early (a missing
  // header): the rest of it was never seen. After errors it recovered from (a construct
  // nvcc accepts and clang refuses), the checks ran on the AST it built, and the file is
  // analysed with errors: its findings and launch records are kept, with the errors.
  bool Failed = ClangErrors && (!TU.Built || TU.Stopped);
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
    return true;
  }
  R.FilesAnalysed.push_back(File);
  if (ClangErrors)
    R.FilesWithErrors.push_back(File);
  return false;
}

/// Stores a finished result under Slot's key, with every file it depends on (the sources
/// read, the ptxas logs and objects of the register source); not when one of them cannot
/// be read again.
void storeAnalysed(const RunResult &Done, const CacheSlot &Slot, const TUResult &TU,
                   const AnalysisOptions &Opts, llvm::vfs::FileSystem &BaseFS) {
  std::vector<std::string> Paths = TU.FilesRead;
  for (const auto *List : {&Opts.PtxasLogs, &Opts.Objects})
    for (const std::string &P : *List)
      Paths.push_back(absolute(P));
  FileDigests Files;
  for (const std::string &P : Paths) {
    // An object (a register source) by its code, not its debug sections, which differ
    // on each nvcc compile: a rebuild through `warplint launch` hits the cache.
    bool Object = llvm::any_of(Opts.Objects, [&](const std::string &O) { return absolute(O) == P; });
    if (Object) // `warplint launch` beside the compile: the object is written by then
      ::warplint::waitForObjectWriters();
    auto Contents = llvm::MemoryBuffer::getFile(P);
    if (Contents) {
      llvm::StringRef Text = (*Contents)->getBuffer();
      Files.emplace_back(P, Object ? objectDigest(std::string_view(Text.data(), Text.size()))
                                   : contentDigest(Text));
    } else if (BaseFS.exists(P)) {
      // warplint's own in-memory file (a wrapper shim), made from the command and the
      // toolkit's files, which are in the list themselves.
      Files.emplace_back(P, VirtualFileDigest);
    } else {
      return; // a file that cannot be read again: do not cache
    }
  }
  storeResult(Slot.Dir, Slot.Key, Done, Files);
}

/// Each finding's impact: the model's record at its place (check, position, arch). Of
/// several launches at one place (a template's instantiations), the record of the kernel
/// the message quotes; the largest when the message names none of them.
void attachImpacts(std::vector<Finding> &Findings, std::vector<ImpactRecord> &Impacts,
                   const CommandDir &InDir) {
  // The records by line and column (a scan of every record per finding was quadratic:
  // a third of the analysis of 20,000 generated kernels).
  std::map<std::pair<unsigned, unsigned>, std::vector<const ImpactRecord *>> ImpactsAt;
  for (ImpactRecord &I : Impacts) {
    I.Pos.File = InDir(I.Pos.File);
    ImpactsAt[{I.Pos.Line, I.Pos.Column}].push_back(&I);
  }
  for (Finding &F : Findings) {
    std::vector<const ImpactRecord *> At;
    bool Named = false;
    static const std::vector<const ImpactRecord *> None;
    auto Here = ImpactsAt.find({F.Pos.Line, F.Pos.Column});
    for (const ImpactRecord *IP : Here == ImpactsAt.end() ? None : Here->second) {
      const ImpactRecord &I = *IP;
      if (F.Check == I.Check && F.Pos.File == I.Pos.File && F.Pos.Line == I.Pos.Line &&
          F.Pos.Column == I.Pos.Column && (I.Arch.empty() || F.Arch.empty() || I.Arch == F.Arch) &&
          (I.Quote.empty() || F.Message.find(I.Quote) != std::string::npos)) {
        At.push_back(&I);
        Named |= !I.Kernel.empty() && F.Message.find("'" + I.Kernel + "'") != std::string::npos;
      }
    }
    for (const ImpactRecord *I : At)
      if ((!Named || F.Message.find("'" + I->Kernel + "'") != std::string::npos) &&
          (!F.Impact || F.Impact->Rank < I->Figure.Rank ||
           (F.Impact->Rank == I->Figure.Rank && F.Impact->Value < I->Figure.Value)))
        F.Impact = I->Figure;
  }
}

/// The model's records into R, their paths made absolute: launches and kernels, and the
/// access, sync and branch records that go with R's findings.
void exportRecords(RunResult &R, ModelRecords &Records, const CommandDir &InDir) {
  for (const std::string &P : Records.Problems)
    R.Messages.push_back({Severity::Warning, P});
  for (LaunchRecord &L : Records.Launches) {
    L.Pos.File = InDir(L.Pos.File);
    R.Launches.push_back(std::move(L));
  }
  for (KernelRecord &K : Records.Kernels) {
    if (!K.BeginLine)
      continue; // declared here, defined elsewhere: no body to tie findings to
    K.File = InDir(K.File);
    R.Kernels.push_back(std::move(K));
  }
  // The findings by check and place, for the records below (a scan of the findings per
  // record was quadratic: 40,000 branch records x 14,286 findings on a generated file).
  std::set<std::tuple<llvm::StringRef, llvm::StringRef, unsigned, unsigned>> FindingAt;
  for (const Finding &F : R.Findings)
    FindingAt.insert({F.Check, F.Pos.File, F.Pos.Line, F.Pos.Column});
  auto HasFinding = [&](llvm::StringRef Check, llvm::StringRef File, unsigned Line,
                        unsigned Column) {
    return FindingAt.count({Check, File, Line, Column}) != 0;
  };
  // An access record goes with its finding: one silenced by NOLINT is not exported. The
  // places a finding stands for (grouped by cause) go with the finding at its first place.
  for (AccessRecord &A : Records.Accesses) {
    A.Pos.File = InDir(A.Pos.File);
    unsigned Line = A.FindingLine ? A.FindingLine : A.Pos.Line;
    unsigned Column = A.FindingLine ? A.FindingColumn : A.Pos.Column;
    if (HasFinding(A.Check, A.Pos.File, Line, Column))
      R.Accesses.push_back(std::move(A));
  }
  for (SyncRecord &S : Records.Syncs) {
    S.Pos.File = InDir(S.Pos.File);
    if (HasFinding(S.Check, S.Pos.File, S.Pos.Line, S.Pos.Column))
      R.Syncs.push_back(std::move(S));
  }
  keepReportedRaces(Records.Races, InDir, R);
  // A branch whose finding was silenced (NOLINT, a line filter) is silent in the records
  // too: every output says what the findings say.
  for (BranchRecord &B : Records.Branches) {
    B.Pos.File = InDir(B.Pos.File);
    if (B.FindingLine &&
        !HasFinding("warplint-divergent-branch", B.Pos.File, B.FindingLine, B.FindingColumn)) {
      B.Severity = "silent";
      B.Idiom = "suppressed";
      B.NoteReasons.clear();
      B.FindingLine = B.FindingColumn = B.Places = 0;
      B.FindingImpact.reset();
    }
    R.Branches.push_back(std::move(B));
  }
}

/// The problems found in .clang-tidy files while one analysis read its options.
std::vector<std::string> &configProblems() {
  static std::vector<std::string> Problems;
  return Problems;
}

/// clang-tidy's search for .clang-tidy files, whose parse errors are kept for the run's
/// messages (said once per run, however many files a broken configuration covers) instead
/// of printed by every analysis. A file that does not parse (a key that LLVM 22 no longer
/// knows, `AnalyzeTemporaryDtors`) is passed over as clang-tidy passes over it: the files
/// of the directories above apply.
class ReportingOptionsProvider : public clang::tidy::FileOptionsProvider {
public:
  ReportingOptionsProvider(clang::tidy::ClangTidyGlobalOptions Global,
                           clang::tidy::ClangTidyOptions Defaults,
                           clang::tidy::ClangTidyOptions Overrides,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : FileOptionsProvider(std::move(Global), std::move(Defaults), std::move(Overrides),
                            std::move(FS)) {
    ConfigHandlers.clear();
    ConfigHandlers.emplace_back(
        ".clang-tidy",
        [](llvm::MemoryBufferRef Config) -> llvm::ErrorOr<clang::tidy::ClangTidyOptions> {
          std::string First;
          llvm::ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
              clang::tidy::parseConfigurationWithDiags(Config, [&](const llvm::SMDiagnostic &D) {
                if (First.empty())
                  First = fmt::format("{}:{}:{}: {}", D.getFilename().str(), D.getLineNo(),
                                      D.getColumnNo() + 1, D.getMessage().str());
              });
          if (Parsed)
            return Parsed;
          if (First.empty())
            First = fmt::format("{}: {}", Config.getBufferIdentifier().str(),
                                Parsed.getError().message());
          configProblems().push_back(
              First + ": clang-tidy does not read this .clang-tidy file, and neither does "
                      "warplint: its checks and options do not apply (those of the "
                      "directories above do); fix or remove what it names");
          clang::tidy::ClangTidyOptions Inherit;
          Inherit.InheritParentConfig = true;
          return Inherit;
        });
  }
};

RunResult analyseOneFile(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                         const AnalysisOptions &Opts,
                         const clang::tooling::CompilationDatabase *Original);

RunResult analyseOne(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                     const AnalysisOptions &Opts,
                     const clang::tooling::CompilationDatabase *Original) {
  configProblems().clear();
  RunResult R = analyseOneFile(File, Db, Opts, Original);
  for (std::string &P : configProblems())
    if (llvm::none_of(R.Messages, [&](const RunMessage &M) { return M.Text == P; }))
      R.Messages.push_back({Severity::Warning, std::move(P)});
  configProblems().clear();
  return R;
}

RunResult analyseOneFile(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                         const AnalysisOptions &Opts,
                         const clang::tooling::CompilationDatabase *Original) {
  std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(File);
  if (Commands.empty())
    return noCommand(File, Opts);
  if (std::optional<RunResult> Cannot = commandCannotRun(File, Commands.front(), Opts, Original))
    return std::move(*Cannot);

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
  clang::tidy::ClangTidyContext Context(std::make_unique<ReportingOptionsProvider>(
      clang::tidy::ClangTidyGlobalOptions(), Defaults,
      commandLineOverrides(File, Opts, Original), Physical));
  auto BaseFS = analysisFileSystem(Physical, Opts);
  // A run-wide option whose value leaves the analysis without the meaning asked for (an
  // assumed block that cannot launch, in .clang-tidy): the file fails, saying why.
  {
    ::warplint::ModelOptions M =
        ::warplint::ModelOptions::read(Context.getOptionsForFile(File).CheckOptions);
    if (!M.Errors.empty())
      return failedFile(File, M.Errors.front());
  }
  CacheSlot Slot;
  if (std::optional<RunResult> Hit = cachedResult(File, Commands.front(), Context, Opts, Slot))
    return std::move(*Hit);
  joinSpacedChevronsOf(File, *BaseFS);
  // One parse serves the checks and the records: both read the TU's one model.
  TUResult TU;
  std::vector<clang::tidy::ClangTidyError> Errors;
  if (Opts.Preambles)
    Opts.Preambles->Used = Opts.Preambles->Reached = false;
  int ToolRc = runTidyAndModel(Context, Db, File, BaseFS, Opts.CollectLaunches, TU, Errors,
                               Opts.Preambles, Opts.PreambleOnly);
  if (Opts.Preambles && Opts.Preambles->Used && Opts.Preambles->Reached) {
    // The device code reaches a function whose deferred diagnostics the preamble's PCH
    // does not keep: the parse without the preamble says them.
    TU = TUResult();
    Errors.clear();
    Opts.Preambles->Used = false;
    ToolRc = runTidyAndModel(Context, Db, File, BaseFS, Opts.CollectLaunches, TU, Errors);
  }
  // A parse with a preamble lists only the headers it read again: not a cache entry.
  bool WithPreamble = Opts.Preambles && Opts.Preambles->Used;
  std::string Arch = TU.Records ? TU.Records->Arch : commandArch(Db, File);

  RunResult R;
  if (!Slot.Damage.empty()) // said once: this result is not stored (see the end)
    R.Messages.push_back({Severity::Warning, Slot.Damage});
  CommandDir InDir{Db.getCompileCommands(File).front().Directory};
  bool ClangErrors = convertDiagnostics(Errors, InDir, Arch, R, File, Opts.Unsaved);
  if (settleParse(R, File, TU, ClangErrors, ToolRc))
    return R;
  bool NotCached = TU.RegistersLoaded && TU.RegistersNotCached;
  if (NotCached)
    R.RegistersNotCached.push_back(File);
  if (TU.RegistersLoaded && TU.RegisterSource == ::warplint::ResourceSource::None &&
      Opts.RegistersFrom != "none" && !TU.RegistersMissing.empty() && !NotCached)
    R.Messages.push_back({Severity::Note, "registers not counted: " + TU.RegistersMissing +
                                              "; occupancy figures leave the register "
                                              "limit out"});
  attachImpacts(R.Findings, TU.Impacts, InDir);
  if (TU.Records)
    exportRecords(R, *TU.Records, InDir);
  // Stored at the end, with every file the result depends on. A file analysed with errors
  // is cached too: its errors (findings of their own, kept in the entry) repeat while
  // nothing it read changes, as its other findings do. Before, such files were parsed on
  // every run: on 69 real TUs (llm.c, Rodinia) the 11 of them were the whole cost of a
  // warm re-run (16% of the cold run). A file that failed is not stored (it returned
  // above): its cause may be a file it could not find, which no digest covers. A result
  // without nvcc's figures (the language server's cache-only first answer) is not stored
  // either, nor one whose cache entry was repaired (said once: the next run stores it).
  if (!Slot.Key.empty() && !NotCached && !WithPreamble && Slot.Damage.empty() &&
      !TU.RegisterCacheRepaired)
    storeAnalysed(R, Slot, TU, Opts, *BaseFS);
  return R;
}

} // namespace

std::string clangResourceDir() {
  const char *Env = std::getenv("WARPLINT_CLANG_RESOURCE_DIR");
  return Env && *Env ? std::string(Env) : std::string(WARPLINT_CLANG_RESOURCE_DIR);
}

std::vector<std::string> clangCommand(const std::vector<std::string> &Original,
                                      const std::string &Arch,
                                      const std::vector<std::string> &ExtraArgs) {
  // HIP commands (hipcc, amdclang++, clang++ -x hip, a .hip file), or any command with an
  // AMD --arch: the device side of one gfx target, ROCm's headers or warplint's own.
  if (isHipCommand(Original) || isAmdArch(Arch)) {
    HipTranslation T = translateHipCommand(Original, Arch, !findRocm().empty(), ownHipHeaders());
    if (T.OwnHeader)
      sayOwnHipHeader(ownHipHeaders());
    else if (!llvm::is_contained(T.Args, "-nogpuinc") && !rocmCompatHeader().empty())
      T.Args.insert(std::find(T.Args.begin(), T.Args.end(), "--"),
                    {"-include", rocmCompatHeader()});
    std::vector<std::string> Added(ExtraArgs.begin(), ExtraArgs.end());
    T.Args.insert(std::find(T.Args.begin(), T.Args.end(), "--"), Added.begin(), Added.end());
    return T.Args;
  }
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
  // A legacy arch (sm_20 to sm_37): clang refuses it against a CUDA 12+ toolkit ("GPU arch
  // sm_35 is supported by CUDA versions between 7.0 and 11.8"), and without the check
  // it takes the toolkit for a pre-9.2 one (cudaConfigureCall launches) and looks for a
  // per-arch libdevice. The parse is for analysis only: no version check, no libdevice,
  // and the toolkit's launch API (any SDK version from 9.2 on selects it).
  auto LegacyArch = [](llvm::StringRef A) {
    llvm::StringRef Name = A;
    if (!Name.consume_front("--cuda-gpu-arch=") && !Name.consume_front("--offload-arch="))
      return false;
    const ::warplint::GpuArch *G = ::warplint::findArch(Name.str());
    return G && G->Legacy;
  };
  if (llvm::any_of(Out, LegacyArch) || llvm::any_of(Added, LegacyArch))
    Added.insert(Added.end(), {"--no-cuda-version-check", "-nocudalib", "-Xclang",
                               "-target-sdk-version=12.0"});
  // A parse against a real CUDA toolkit gets the compatibility header (what clang-22's
  // CUDA wrappers lack and nvcc users rely on); one with -nocudainc has its own headers.
  bool RealToolkit = std::find(Out.begin(), Out.end(), "-nocudainc") == Out.end() &&
                     std::find(Added.begin(), Added.end(), "-nocudainc") == Added.end();
  bool IsCuda = !Arch.empty() || std::any_of(Out.begin(), Out.end(), [](const std::string &A) {
    llvm::StringRef R = A;
    return R == "cuda" || R == "-xcuda" || R.starts_with("--cuda-") || R.ends_with(".cu");
  });
  // Headers a CUDA program's host code includes that clang may lack (omp.h), searched
  // after every other directory, so an installed one always wins.
  std::string Fallback = fallbackHeaderDir();
  if (IsCuda && !Fallback.empty() && std::find(Out.begin(), Out.end(), Fallback) == Out.end()) {
    Added.push_back("-idirafter");
    Added.push_back(Fallback);
  }
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

std::string ownHipHeaders() {
  static const std::string Dir =
      sharedFile({"hip", "hip", "hip_runtime.h"}).empty() ? "" : sharedFile({"hip"});
  return Dir;
}

void sayOwnHipHeader(const std::string &Dir) {
  static std::once_flag Said;
  std::call_once(Said, [&] {
    llvm::errs() << "warplint: no ROCm found ($ROCM_PATH, /opt/rocm, /usr); parsing HIP with "
                    "warplint's own minimal HIP header in "
                 << Dir << "\n";
  });
}

bool isAmdArch(const std::string &Arch) {
  const ::warplint::GpuArch *A = Arch.empty() ? nullptr : ::warplint::findArch(Arch);
  return A ? A->isAmd() : ::warplint::isAmdArchName(Arch);
}

std::vector<std::string> defaultHipArgs(const std::string &Arch, bool OwnHeader) {
  std::string Target = isAmdArch(Arch) ? Arch : std::string(::warplint::DefaultHipArch);
  std::vector<std::string> Args = {"-x", "hip", "--cuda-device-only", "--offload-arch=" + Target,
                                   "-nogpulib", "-std=c++17"};
  std::string Own = ownHipHeaders();
  if ((OwnHeader || findRocm().empty()) && !Own.empty()) {
    if (!OwnHeader)
      sayOwnHipHeader(Own);
    Args.insert(Args.end(), {"-nogpuinc", "-isystem", Own, "-include", "hip/hip_runtime.h"});
  } else if (!rocmCompatHeader().empty()) {
    Args.insert(Args.end(), {"-include", rocmCompatHeader()});
  }
  return Args;
}

std::string rocmCompatHeader() {
  static const std::string Path = sharedFile({"include", "warplint_rocm5_compat.h"});
  return Path;
}

std::string cudaCompatHeader() {
  static const std::string Path = sharedFile({"include", "warplint_cuda_compat.h"});
  return Path;
}

std::string fallbackHeaderDir() {
  static const std::string Path = sharedFile({"fallback"});
  return Path;
}

std::vector<std::string> defaultCudaArgs(const std::string &Arch, const std::string &CudaPath,
                                         bool MockCuda) {
  std::string GpuArch = "--cuda-gpu-arch=" + (Arch.empty() ? std::string(::warplint::DefaultCudaArch) : Arch);
  std::string Cuda = MockCuda ? "" : !CudaPath.empty() ? CudaPath : defaultCudaToolkit();
  // A lone .cu is a file nvcc builds: nvcc's predefined macros for the toolkit's nvcc, and
  // its leniencies (driver/compdb/NvccTranslate.h).
  if (!Cuda.empty()) {
    std::vector<std::string> Args = {"-x",       "cuda",   "--cuda-device-only",
                                     GpuArch,    "--cuda-path=" + Cuda,
                                     "-isystem", Cuda + "/include/cccl", "-std=c++17"};
    std::vector<std::string> Nvcc = nvccCompatArgs(nvccVersionOf(Cuda));
    Args.insert(Args.end(), Nvcc.begin(), Nvcc.end());
    return Args;
  }
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
                 << "; __NVCC__ defined, nvcc 13.0.0 assumed for __CUDACC_VER_*__\n";
  });
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only", GpuArch, "-nocudainc",
                                   "-nocudalib", "-std=c++17"};
  // No clang wrapper defines __CUDACC__ here: nvcc's 1.
  std::vector<std::string> Nvcc = nvccCompatArgs(nvccVersionOf(""));
  Args.insert(Args.end(), Nvcc.begin(), Nvcc.end());
  Args.push_back("-D__CUDACC__=1");
  if (!Own.empty()) {
    Args.insert(Args.end(), {"-isystem", Own, "-include", "cuda_runtime.h"});
  }
  return Args;
}

namespace {

/// Whether arguments after `--` choose the language themselves (`-x cuda`, `-xhip`): then
/// they are the whole command, as clang-tidy takes them.
bool setsLanguage(const std::vector<std::string> &User) {
  for (const std::string &A : User)
    if (A == "-x" || (llvm::StringRef(A).starts_with("-x") && A.size() > 2) ||
        llvm::StringRef(A).starts_with("--language"))
      return true;
  return false;
}

/// The default arguments of a file named without a database, less those the user's
/// arguments after `--` set themselves, followed by the user's: an arch, a toolkit (or
/// -nocudainc), a standard, device or host side, each from the user when given.
std::vector<std::string> withUserArgs(std::vector<std::string> Defaults,
                                      const std::vector<std::string> &User) {
  auto UserSets = [&](std::initializer_list<llvm::StringRef> Prefixes) {
    for (const std::string &A : User)
      for (llvm::StringRef P : Prefixes)
        if (llvm::StringRef(A).starts_with(P))
          return true;
    return false;
  };
  bool Arch = UserSets({"--cuda-gpu-arch", "--offload-arch", "-arch", "--gpu-architecture"});
  bool Toolkit = UserSets({"--cuda-path", "-nocudainc", "-nogpuinc", "--rocm-path", "--hip-path"});
  bool Std = UserSets({"-std="});
  bool Side = UserSets({"--cuda-device-only", "--cuda-host-only", "--offload-device-only",
                        "--offload-host-only", "--cuda-compile-host-device"});
  std::vector<std::string> Out;
  for (size_t I = 0; I < Defaults.size(); ++I) {
    llvm::StringRef A = Defaults[I];
    bool TakesValue = A == "-isystem" || A == "-include" || A == "-x";
    llvm::StringRef Value = TakesValue && I + 1 < Defaults.size() ? llvm::StringRef(Defaults[I + 1])
                                                                 : llvm::StringRef();
    bool Drop = (Arch && (A.starts_with("--cuda-gpu-arch") || A.starts_with("--offload-arch"))) ||
                (Std && A.starts_with("-std=")) ||
                (Side && (A == "--cuda-device-only" || A == "--offload-device-only")) ||
                (Toolkit && (A.starts_with("--cuda-path") || A == "-nocudainc" ||
                             A == "-nocudalib" || A == "-nogpuinc" || A == "-nogpulib" ||
                             A.starts_with("--rocm-path") ||
                             ((A == "-isystem" || A == "-include") && !Value.empty())));
    if (Drop) {
      I += TakesValue ? 1 : 0;
      continue;
    }
    Out.push_back(Defaults[I]);
    if (TakesValue && I + 1 < Defaults.size())
      Out.push_back(Defaults[++I]);
  }
  Out.insert(Out.end(), User.begin(), User.end());
  return Out;
}

/// Whether a file named without a database is parsed as HIP: a .hip file, or any file
/// when the architecture is an AMD one.
bool isHipFileByDefault(const std::string &File, const std::string &Arch) {
  return llvm::StringRef(llvm::sys::path::extension(File)).equals_insensitive(".hip") ||
         isAmdArch(Arch);
}

/// The commands of files named without a database: the CUDA defaults or, for HIP files,
/// the HIP ones (as FixedCompilationDatabase lays a command out).
class DefaultArgsDatabase : public clang::tooling::CompilationDatabase {
public:
  DefaultArgsDatabase(std::string Dir, std::vector<std::string> Cuda,
                      std::vector<std::string> Hip, std::string Arch)
      : Dir(std::move(Dir)), Cuda(std::move(Cuda)), Hip(std::move(Hip)), Arch(std::move(Arch)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<std::string> Line = {"clang-tool"};
    const std::vector<std::string> &Args = isHipFileByDefault(File.str(), Arch) ? Hip : Cuda;
    Line.insert(Line.end(), Args.begin(), Args.end());
    Line.push_back(File.str());
    return {clang::tooling::CompileCommand(Dir, File, std::move(Line), "")};
  }

private:
  std::string Dir;
  std::vector<std::string> Cuda, Hip;
  std::string Arch;
};

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
  if (Cmds.empty())
    return {};
  std::vector<std::string> Archs;
  if (isNvccCommand(Cmds.front().CommandLine))
    Archs = translateNvccCommand(Cmds.front().CommandLine).GpuArchs;
  else if (isHipCommand(Cmds.front().CommandLine)) // --offload-arch lists
    Archs = translateHipCommand(Cmds.front().CommandLine, "", true, "").GpuArchs;
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
  bool Failed = false, WithErrors = false, AllCached = !PerArch.empty();
  std::string File;
  for (RunResult &R : PerArch) {
    Failed |= !R.FilesFailed.empty();
    WithErrors |= !R.FilesWithErrors.empty();
    // The file came from the result cache when every architecture's analysis did.
    AllCached &= R.FromCache > 0;
    for (RunMessage &M : R.Messages) // repeats are folded by mergeResults below
      Out.Messages.push_back(std::move(M));
    for (std::string &F : R.RegistersNotCached)
      Out.RegistersNotCached.push_back(std::move(F));
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
    appendRecords(Out, R);
  }
  if (!File.empty())
    (Failed ? Out.FilesFailed : Out.FilesAnalysed).push_back(File);
  if (!File.empty() && !Failed && WithErrors)
    Out.FilesWithErrors.push_back(File);
  Out.FromCache = AllCached ? 1 : 0;
  std::vector<RunResult> One;
  One.push_back(std::move(Out));
  return mergeResults(std::move(One));
}

/// One entry of a database: what Inner gives for File, only its Index-th command (clang's
/// tool runs every command of a file, one after the other, into one result).
class OneCommandDatabase : public clang::tooling::CompilationDatabase {
public:
  OneCommandDatabase(const clang::tooling::CompilationDatabase &Inner, size_t Index)
      : Inner(Inner), Index(Index) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<clang::tooling::CompileCommand> All = Inner.getCompileCommands(File);
    if (Index >= All.size())
      return All;
    return {All[Index]};
  }
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }

private:
  const clang::tooling::CompilationDatabase &Inner;
  size_t Index;
};

RunResult analyseEntry(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                       const AnalysisOptions &Opts,
                       const clang::tooling::CompilationDatabase *Original);

/// One file: each distinct command the database has for it (identical entries once), each
/// labelled with its own command's architecture, as clang-tidy analyses every entry.
RunResult analyseFile(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                      const AnalysisOptions &Opts,
                      const clang::tooling::CompilationDatabase *Original) {
  const clang::tooling::CompilationDatabase &Source = Original ? *Original : Db;
  std::vector<clang::tooling::CompileCommand> Cmds = Source.getCompileCommands(File);
  std::vector<size_t> Distinct;
  for (size_t I = 0; I < Cmds.size(); ++I)
    if (std::none_of(Distinct.begin(), Distinct.end(), [&](size_t J) {
          return Cmds[J].Directory == Cmds[I].Directory &&
                 Cmds[J].CommandLine == Cmds[I].CommandLine;
        }))
      Distinct.push_back(I);
  if (Cmds.size() <= 1 || Db.getCompileCommands(File).size() != Cmds.size())
    return analyseEntry(File, Db, Opts, Original);
  std::vector<RunResult> PerEntry;
  std::vector<std::string> Archs;
  for (size_t I : Distinct) {
    OneCommandDatabase EntryDb(Db, I), EntryOriginal(Source, I);
    PerEntry.push_back(analyseEntry(File, EntryDb, Opts, Original ? &EntryOriginal : nullptr));
    std::string Arch = Opts.Arch;
    for (const Finding &F : PerEntry.back().Findings)
      if (Arch.empty() && !F.Arch.empty())
        Arch = F.Arch;
    for (const LaunchRecord &L : PerEntry.back().Launches)
      if (Arch.empty() && !L.Arch.empty())
        Arch = L.Arch;
    Archs.push_back(Arch.empty() ? "?" : Arch);
  }
  RunResult Out = Distinct.size() == 1 ? std::move(PerEntry.front())
                                       : combineArchs(std::move(PerEntry));
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string Say = relativeToRoot(File, Cwd.str()) + ": " + std::to_string(Cmds.size()) +
                    " entries in the compile database";
  if (Distinct.size() == 1) {
    Say += ", all with the same command: analysed once";
  } else {
    Say += ", " + std::to_string(Distinct.size()) + " different commands: analysed with each (";
    for (size_t K = 0; K < Archs.size(); ++K)
      Say += (K ? ", " : "") + Archs[K];
    Say += ")";
  }
  Out.Messages.push_back({Severity::Note, Say});
  return Out;
}

/// One database entry: one analysis, or one per architecture of its nvcc command
/// (-gencode lists).
RunResult analyseEntry(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                       const AnalysisOptions &Opts,
                       const clang::tooling::CompilationDatabase *Original) {
  std::vector<std::string> Archs = commandArchs(File, Opts, Original);
  // An architecture no GPU has (a build that wrote `code=sm_sm_80` from an option given
  // as `sm_80`): nvcc rejects the command too; one line, not clang's flood.
  for (const std::string &A : Archs)
    if (!::warplint::findArch(A) && !isAmdArch(A)) {
      return failedFile(File, "the compile command names the architecture '" + A +
                  "', which no GPU has: nvcc rejects this command too (check how the build "
                  "spells its architecture option: 80, not sm_80, where it adds the prefix)");
    }
  if (Archs.size() <= 1)
    return analyseOne(File, Db, Opts, Original);
  std::vector<RunResult> PerArch;
  for (const std::string &A : Archs) {
    AnalysisOptions ForArch = Opts;
    ForArch.Arch = A;
    clang::tooling::ArgumentsAdjustingCompilations ArchDb(
        std::make_unique<ForwardingDatabase>(Db));
    ArchDb.appendArgumentsAdjuster(archAdjuster(A));
    PerArch.push_back(analyseOne(File, ArchDb, ForArch, Original));
  }
  return combineArchs(std::move(PerArch));
}

/// " through b.h and c.h": the headers between an includer and the file it reaches.
std::string through(const std::vector<std::string> &Via) {
  std::string Out;
  for (size_t I = 0; I < Via.size(); ++I)
    Out += (I == 0 ? " through " : I + 1 == Via.size() ? " and " : ", ") + Via[I];
  return Out;
}

/// The analysis of Includer's translation unit as the analysis of File, which it
/// #includes: File's findings, launches and kernels, and clang's errors wherever they are
/// (they decide whether the unit, and so File, was analysed, with errors, or failed).
RunResult focusOn(RunResult R, const std::string &File, const Includer &From,
                  const AnalysisOptions &Opts) {
  RunResult Out;
  auto InFile = [&](const std::string &P) {
    return P == File || (!P.empty() && llvm::sys::fs::equivalent(P, File));
  };
  for (Finding &F : R.Findings)
    if (InFile(F.Pos.File) ||
        (F.Level == Severity::Error && llvm::StringRef(F.Check).starts_with("clang-diagnostic-")))
      Out.Findings.push_back(std::move(F));
  appendRecords(Out, R, InFile);
  if (!R.FilesFailed.empty())
    Out.FilesFailed.push_back(File);
  else
    Out.FilesAnalysed.push_back(File);
  if (!R.FilesWithErrors.empty())
    Out.FilesWithErrors.push_back(File);
  if (!R.RegistersNotCached.empty())
    Out.RegistersNotCached.push_back(File);
  Out.FromCache = R.FromCache;
  Out.Messages = std::move(R.Messages);
  Out.Messages.push_back({Severity::Note, File + " is not in " + Opts.BuildDir +
                                              "/compile_commands.json: analysed in the "
                                              "translation unit of " +
                                              From.Source + ", which #includes it" +
                                              through(From.Via)});
  return Out;
}

/// Why a file the database does not list and no file of it #includes could not be
/// analysed well: it was parsed alone, with the command of a similar file.
std::string unlistedMessage(const std::string &File, const clang::tooling::CompilationDatabase &Db,
                            const AnalysisOptions &Opts) {
  std::string From;
  std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands(File);
  if (!Commands.empty() && !Commands.front().Heuristic.empty())
    From = " (" + Commands.front().Heuristic + ")";
  return File + " is not in " + Opts.BuildDir +
         "/compile_commands.json and no file there #includes it: it was parsed alone, "
         "with the command of a similar file" +
         From + "; add it to the build, or name the file that includes it";
}

/// The database of named files without -p or a language after `--`: CUDA files get the
/// CUDA defaults, HIP files (.hip, or any file with an AMD --arch) the HIP ones; each set
/// is made (and its header said) only when a file needs it. Null, with Error, for a HIP
/// file with an NVIDIA --arch.
std::unique_ptr<clang::tooling::CompilationDatabase>
defaultArgsDatabase(const AnalysisOptions &Opts, const std::string &Cwd, std::string &Error) {
  bool AnyCuda = false, AnyHip = false;
  for (const std::string &F : Opts.Files) {
    bool Hip = isHipFileByDefault(F, Opts.Arch);
    AnyHip |= Hip;
    AnyCuda |= !Hip;
    if (Hip && !Opts.Arch.empty() && !isAmdArch(Opts.Arch)) {
      Error = "--arch " + Opts.Arch + " is an NVIDIA architecture and " + F +
              " is a HIP file: give an AMD one (--arch gfx90a)";
      return nullptr;
    }
  }
  std::vector<std::string> Cuda, Hip;
  if (AnyCuda)
    Cuda = defaultCudaArgs(Opts.Arch, Opts.CudaPath, Opts.MockCuda);
  if (AnyHip)
    Hip = defaultHipArgs(Opts.Arch, Opts.MockCuda);
  if (Opts.HasDashDash) {
    Cuda = withUserArgs(std::move(Cuda), Opts.ExtraArgs);
    Hip = withUserArgs(std::move(Hip), Opts.ExtraArgs);
  }
  return std::make_unique<DefaultArgsDatabase>(Cwd, std::move(Cuda), std::move(Hip), Opts.Arch);
}

/// The compile database of the run: -p's (Listed is set to the files it lists, with
/// commands inferred for the others), or one that gives every named file the default
/// command or the one after `--`. Null, with Error, when there is none.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const AnalysisOptions &Opts, const clang::tooling::CompilationDatabase *&Listed,
             std::string &Error) {
  std::unique_ptr<clang::tooling::CompilationDatabase> Base;
  if (Opts.Database) {
    Base = std::make_unique<ForwardingDatabase>(*Opts.Database);
    Listed = Opts.Database;
  } else if (!Opts.BuildDir.empty()) {
    std::string Why;
    Base = clang::tooling::CompilationDatabase::loadFromDirectory(Opts.BuildDir, Why);
    if (!Base) {
      Error = "cannot load a compile database from " + Opts.BuildDir + ": " + Why;
      return nullptr;
    }
    Listed = Base.get(); // owned by the database below
    // Headers (a .cuh handed over by pre-commit) and new files get the command of the
    // closest file in the database, as clangd does.
    Base = clang::tooling::inferMissingCompileCommands(std::move(Base));
  } else {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    if (!Opts.HasDashDash && !Opts.MockCuda && !Opts.CudaPath.empty() &&
        !isCudaToolkit(Opts.CudaPath)) {
      Error = "--cuda-path " + Opts.CudaPath + ": no CUDA toolkit there (no include/cuda_runtime.h)";
      return nullptr;
    }
    // Arguments after `--` add to the defaults (the language, the arch, the toolkit and its
    // include/cccl, the standard) except those they set themselves: `-- -I.` alone lost
    // CUDA 13's libcu++ (cuda/std/type_traits not found) before.
    if (Opts.HasDashDash && setsLanguage(Opts.ExtraArgs))
      return std::make_unique<clang::tooling::FixedCompilationDatabase>(Cwd.str(), Opts.ExtraArgs);
    return defaultArgsDatabase(Opts, std::string(Cwd), Error);
  }
  return Base;
}

/// The files to analyse, absolute: those named, else every C, C++, CUDA or HIP file of
/// the database (Skipped counts the others by extension), then --files/--exclude and the
/// shard. False, with Error, when nothing is left to analyse; a shard with no file is not
/// an error (a CI matrix may have more shards than the project has files).
bool inputFiles(const AnalysisOptions &Opts, const clang::tooling::CompilationDatabase &Db,
                std::vector<std::string> &Files, std::map<std::string, size_t> &Skipped,
                std::string &Error) {
  for (const std::string &F : Opts.Files)
    Files.push_back(absolute(F));
  // A database's entries in other languages (a CMake project's Fortran files) have no
  // kernels and clang cannot run on them: skipped, and counted.
  if (Files.empty() && !Opts.BuildDir.empty()) {
    for (std::string &F : Db.getAllFiles()) {
      std::string Ext = llvm::sys::path::extension(F).lower();
      static const char *const Kept[] = {".cu", ".cuh", ".hip", ".c", ".cc", ".cpp", ".cxx",
                                         ".c++", ".cp", ".h", ".hh", ".hpp", ".hxx", ".inl",
                                         ".ipp", ".tpp", ".txx", ".tcc", ""};
      if (std::find(std::begin(Kept), std::end(Kept), Ext) != std::end(Kept))
        Files.push_back(std::move(F));
      else
        ++Skipped[Ext];
    }
    if (Files.empty() && !Skipped.empty()) {
      Error = "the compile database in " + Opts.BuildDir +
              " has no C, C++, CUDA or HIP file";
      return false;
    }
  }
  if (Files.empty()) {
    Error = Opts.BuildDir.empty() ? "no input files (name .cu files, or give -p BUILD)"
                                  : "the compile database in " + Opts.BuildDir + " has no files";
    return false;
  }
  // A filter that matches nothing is an error (a typo must not pass CI); a shard with no
  // file is not.
  FileFilter Unsharded = Opts.Filter;
  Unsharded.Shard = ShardSpec();
  size_t Matching = selectFiles(Files, Unsharded).size();
  if (Matching == 0) {
    Error = "no file matches --files/--exclude";
    return false;
  }
  Files = selectFiles(std::move(Files), Opts.Filter);
  if (Files.empty())
    llvm::errs() << "warplint: shard " << Opts.Filter.Shard.Index << "/" << Opts.Filter.Shard.Count
                 << " has no file (" << Matching << " file" << (Matching == 1 ? "" : "s") << " for "
                 << Opts.Filter.Shard.Count << " shards)\n";
  return true;
}

/// Whether the register source asked for can be read: its logs, objects or nvcc are
/// there. Unreadable logs and objects stop the run before any file is parsed (each TU's
/// model reads them again). Not the objects `warplint launch` analyses beside the compile
/// that writes them (a read gate is set): they are read, and any error said, once written.
bool registerSourceReady(const AnalysisOptions &Opts, std::string &Error) {
  if (Opts.RegistersFrom == "ptxas-log" && Opts.PtxasLogs.empty()) {
    Error = "--registers-from ptxas-log needs --ptxas-log FILE";
    return false;
  }
  if (Opts.RegistersFrom == "objects" && Opts.Objects.empty()) {
    Error = "--registers-from objects needs --objects FILE";
    return false;
  }
  if (Opts.RegistersFrom == "nvcc" && ::warplint::findNvcc().empty()) {
    Error = "--registers-from nvcc: nvcc not found (PATH, /usr/local/cuda/bin, $CUDA_PATH)";
    return false;
  }
  ::warplint::ResourceTable Resources;
  for (const std::string &Log : Opts.PtxasLogs)
    Resources.addPtxasLogFile(Log);
  if (!::warplint::objectReadGateSet())
    for (const std::string &Obj : Opts.Objects)
      Resources.addObjectFile(Obj);
  if (!Resources.Errors.empty()) {
    Error = Resources.Errors.front();
    return false;
  }
  return true;
}

/// Named files the database does not list (clang's JSON database already infers a
/// command for such a file, and says so in the command's Heuristic).
std::vector<std::string> unlistedFiles(const std::vector<std::string> &Files,
                                       const clang::tooling::CompilationDatabase *Listed,
                                       const AnalysisOptions &Opts) {
  std::vector<std::string> Unlisted;
  if (Listed && !Opts.Files.empty())
    for (const std::string &F : Files) {
      std::vector<clang::tooling::CompileCommand> Commands = Listed->getCompileCommands(F);
      if (Commands.empty() || !Commands.front().Heuristic.empty())
        Unlisted.push_back(F);
    }
  return Unlisted;
}

/// "3 database entries skipped: not C, C++, CUDA or HIP (2 .f90, 1 .py)".
std::string skippedNote(const std::map<std::string, size_t> &Skipped) {
  size_t N = 0;
  std::string Kinds;
  for (const auto &[Ext, Count] : Skipped) {
    N += Count;
    Kinds += (Kinds.empty() ? "" : ", ") + std::to_string(Count) + " " + Ext;
  }
  return std::to_string(N) + " database entr" + (N == 1 ? "y" : "ies") +
         " skipped: not C, C++, CUDA or HIP (" + Kinds + ")";
}

} // namespace

RunResult analyse(const AnalysisOptions &Opts, std::string &Error) {
  // The database as loaded from -p: the files it lists (and, for others, commands it
  // infers, marked by their Heuristic).
  const clang::tooling::CompilationDatabase *Listed = nullptr;
  std::unique_ptr<clang::tooling::CompilationDatabase> Base = loadDatabase(Opts, Listed, Error);
  if (!Base)
    return {};
  const clang::tooling::CompilationDatabase *Original = Base.get();
  auto Db = std::make_unique<clang::tooling::ArgumentsAdjustingCompilations>(std::move(Base));
  Db->appendArgumentsAdjuster(commandAdjuster(Opts));

  std::vector<std::string> Files;
  std::map<std::string, size_t> Skipped;
  if (!inputFiles(Opts, *Db, Files, Skipped, Error))
    return {};

  llvm::SmallString<256> CwdBuf;
  llvm::sys::fs::current_path(CwdBuf);
  std::string Cwd(CwdBuf);
  if (!registerSourceReady(Opts, Error))
    return {};
  // Entries whose "command" clang would split wrongly (an unbalanced quote) fail with
  // the reason instead of a misleading clang error.
  std::vector<CompileCommandProblem> BadCommands = checkCompileDatabase(Opts.BuildDir);
  for (const std::string &F : Files)
    if (const CompileCommandProblem *P = findCompileCommandProblem(BadCommands, F))
      llvm::errs() << "warplint: " << P->Message << "\n";
  // Named files the database does not list: a file another translation unit #includes
  // (a kernel file) is analysed in that unit; another gets the command clang's tooling
  // infers from a similar file.
  std::vector<std::string> Unlisted = unlistedFiles(Files, Listed, Opts);
  std::map<std::string, Includer> Includers =
      Unlisted.empty() ? std::map<std::string, Includer>() : findIncluders(Unlisted, *Listed);
  std::vector<RunResult> PerFile(Files.size());
  ProgressLine Progress(llvm::errs(), Opts.Progress, Files.size());
  // Each file in a child process: a crash (clang's stack overflowing on a hostile file)
  // fails that file alone, and every other result is written. Not isolated (the language
  // server's worker, which keeps preambles): in this process, one file after another.
  auto AnalyseFile = [&](size_t I) -> RunResult {
    RunResult Out;
    const std::string &File = Files[I];
    auto Includer = Includers.find(File);
    const std::string &Source = Includer != Includers.end() ? Includer->second.Source : File;
    if (const CompileCommandProblem *P = findCompileCommandProblem(BadCommands, Source))
      return failedCompileCommand(File, *P);
    // A database entry that is a FIFO, socket or device would block the whole run
    // (the parse reads it to its end): that file fails, the others go on.
    llvm::sys::fs::file_status St;
    if (!llvm::sys::fs::status(Source, St) &&
        St.type() != llvm::sys::fs::file_type::regular_file &&
        St.type() != llvm::sys::fs::file_type::file_not_found) {
      return failedFile(File, Source + " is not a regular file (a FIFO, socket or "
                                       "device): warplint reads source files only");
    }
    if (Includer != Includers.end())
      return focusOn(analyseFile(Source, *Db, Opts, Original), File, Includer->second, Opts);
    Out = analyseFile(File, *Db, Opts, Original);
    if (llvm::is_contained(Unlisted, File) &&
        (!Out.FilesFailed.empty() || !Out.FilesWithErrors.empty()))
      Out.Messages.push_back({Severity::Warning, unlistedMessage(File, *Db, Opts)});
    return Out;
  };
  if (Opts.Isolate) {
    runIsolated(
        Files.size(), Opts.Jobs, AnalyseFile,
        [&](size_t I, RunResult R) { PerFile[I] = std::move(R); },
        [&](size_t I, const std::string &Why) { return crashedFile(Files[I], Why); },
        [&](size_t I, size_t Done) { Progress.update(Done, relativeToRoot(Files[I], Cwd)); });
  } else {
    for (size_t I = 0; I < Files.size(); ++I) {
      PerFile[I] = AnalyseFile(I);
      Progress.update(I + 1, relativeToRoot(Files[I], Cwd));
    }
  }
  Progress.finish();
  RunResult Out = mergeResults(std::move(PerFile));
  if (!Skipped.empty())
    Out.Messages.push_back({Severity::Note, skippedNote(Skipped)});
  return Out;
}

} // namespace warplint::driver
