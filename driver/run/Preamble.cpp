//===- Preamble.cpp - precompiled preambles kept across parses of a file ----===//
#include "driver/run/Preamble.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaCUDA.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <fmt/format.h>

#include <optional>

namespace warplint::driver {
namespace {

/// The store's key of an invocation: its main file (absolute) and its target CPU, so that
/// a file analysed for several architectures keeps one preamble for each.
std::string mainFile(const clang::CompilerInvocation &CI) {
  const auto &Inputs = CI.getFrontendOpts().Inputs;
  if (Inputs.size() != 1 || !Inputs[0].isFile())
    return "";
  llvm::SmallString<256> P(Inputs[0].getFile());
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P) + "\n" + CI.getTargetOpts().CPU;
}

/// Whether T is the raw identifier (or keyword) Name.
bool isWord(const clang::Token &T, llvm::StringRef Name) {
  return T.is(clang::tok::raw_identifier) && T.getRawIdentifier() == Name;
}

/// Whether Decl, the tokens of one top-level declaration up to its `;` (no braces), is
/// complete in itself and declares nothing an analysis reads: a namespace alias, a
/// using-directive, -declaration or alias, a typedef, or a forward declaration of a class
/// (templated or not). A function prototype is not taken: `T f(a);` may be a variable.
bool completeInItself(llvm::ArrayRef<clang::Token> Decl) {
  if (Decl.size() < 3)
    return false;
  const clang::Token &First = Decl.front();
  if (isWord(First, "namespace"))
    return Decl[1].is(clang::tok::raw_identifier) && Decl[2].is(clang::tok::equal);
  if (isWord(First, "using") || isWord(First, "typedef"))
    return true;
  auto IsClassKey = [](const clang::Token &T) {
    return isWord(T, "struct") || isWord(T, "class") || isWord(T, "union");
  };
  // `struct S;` or `template <...> struct S;`.
  size_t N = Decl.size();
  bool Forward = IsClassKey(Decl[N - 3]) && Decl[N - 2].is(clang::tok::raw_identifier) &&
                 Decl[N - 1].is(clang::tok::semi);
  if (IsClassKey(First))
    return Forward && N == 3;
  return Forward && isWord(First, "template") && Decl[1].is(clang::tok::less);
}

} // namespace

clang::PreambleBounds extendedPreambleBounds(const clang::LangOptions &LangOpts,
                                             llvm::StringRef Text) {
  clang::PreambleBounds Clang = clang::Lexer::ComputePreamble(Text, LangOpts);
  // A lexer at the fake file offset 1, as clang's own: a token's offset is its raw
  // location less one.
  clang::Lexer L(clang::SourceLocation::getFromRawEncoding(1), LangOpts, Text.begin(),
                 Text.begin(), Text.end());
  L.SetCommentRetentionState(false);
  auto Offset = [](const clang::Token &T) { return size_t(T.getLocation().getRawEncoding() - 1); };
  // The end of the line whose last token ends at At: after its newline, when only blanks
  // or a line comment (not continued) come before it; 0 when the line cannot end there.
  auto LineEnd = [&](size_t At) -> size_t {
    size_t I = At;
    while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
      ++I;
    if (Text.substr(I).starts_with("//"))
      I = Text.find('\n', I);
    if (I >= Text.size() || Text[I] != '\n' && !Text.substr(I).starts_with("\r\n"))
      return 0;
    if (I > 0 && Text[I - 1] == '\\')
      return 0; // a line comment continued on the next line
    return I + (Text[I] == '\r' ? 2 : 1);
  };
  size_t End = Clang.Size;
  int Depth = 0, Base = -1; // conditional depth; at the first declaration
  bool Include = false;     // an #include since the last end taken
  clang::Token T;
  bool Have = false;        // T is lexed and not yet consumed
  for (;;) {
    if (!Have)
      L.LexFromRawLexer(T);
    Have = false;
    if (T.is(clang::tok::eof))
      break;
    if (T.isAtStartOfLine() && T.is(clang::tok::hash)) {
      // A directive: its name, then its tokens to the end of its line.
      clang::Token Last = T;
      L.LexFromRawLexer(T);
      llvm::StringRef Name;
      if (!T.isAtStartOfLine() && T.isNot(clang::tok::eof)) {
        if (T.is(clang::tok::raw_identifier))
          Name = T.getRawIdentifier();
        Last = T;
        while (true) {
          L.LexFromRawLexer(T);
          if (T.isAtStartOfLine() || T.is(clang::tok::eof))
            break;
          Last = T;
        }
      }
      Have = true; // T starts the next line
      if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
        ++Depth;
      } else if (Name == "endif") {
        if (--Depth < Base && Base >= 0)
          break; // it closes a conditional opened before the declarations
      } else if (Name == "else" || Name.starts_with("elif")) {
        if (Base >= 0 && Depth == Base)
          break;
      } else if (Name == "include" || Name == "include_next" || Name == "import") {
        Include = true;
      } else if (!Name.empty() && Name != "define" && Name != "undef" && Name != "pragma") {
        break; // #error, #warning, #line, ...: kept out
      }
      if (Base >= 0 && Depth == Base && Include) {
        size_t At = LineEnd(Offset(Last) + Last.getLength());
        if (!At)
          break;
        End = std::max(End, At);
        Include = false;
      }
      continue;
    }
    // A declaration: its tokens to its `;`, with no brace and no directive among them.
    if (Base < 0) {
      Base = Depth;
      Include = false; // those before are clang's preamble already
    }
    llvm::SmallVector<clang::Token, 16> Decl{T};
    while (Decl.back().isNot(clang::tok::semi)) {
      L.LexFromRawLexer(T);
      if (T.isOneOf(clang::tok::eof, clang::tok::l_brace, clang::tok::r_brace) ||
          (T.isAtStartOfLine() && T.is(clang::tok::hash)))
        break;
      Decl.push_back(T);
    }
    if (Decl.back().isNot(clang::tok::semi) || !completeInItself(Decl))
      break;
  }
  if (End <= Clang.Size)
    return Clang;
  return clang::PreambleBounds(unsigned(End), /*PreambleEndsAtStartOfLine=*/true);
}

std::string UnsaidDeferred::place(const clang::FunctionDecl &FD,
                                  const clang::SourceManager &SM) {
  clang::SourceLocation L = SM.getExpansionLoc(FD.getCanonicalDecl()->getLocation());
  clang::PresumedLoc P = SM.getPresumedLoc(L, /*UseLineDirectives=*/false);
  if (P.isInvalid())
    return "?";
  // The file's name without its directory: two spellings of one header's path give one
  // key (two headers of one name at one line and column give one too: more doubt only).
  return fmt::format("{}:{}:{}", llvm::sys::path::filename(P.getFilename()).str(), P.getLine(),
                     P.getColumn());
}

void UnsaidDeferred::add(const clang::FunctionDecl &FD, const clang::SourceManager &SM) {
  std::string Name = FD.getNameAsString();
  Keys.insert(Name + "@" + place(FD, SM));
  Names.insert(std::move(Name));
}

bool UnsaidDeferred::has(const clang::FunctionDecl &FD, const clang::SourceManager &SM) const {
  // A plain identifier is looked up without making a string (thousands of functions).
  if (const clang::IdentifierInfo *Id = FD.getIdentifier()) {
    if (!Names.count(Id->getName()))
      return false;
  }
  std::string Name = FD.getNameAsString();
  return Names.count(Name) && Keys.count(Name + "@" + place(FD, SM));
}

bool reachesUnsaidDeferred(clang::Sema &S, const UnsaidDeferred &Unsaid) {
  if (Unsaid.empty() || S.DeclsToCheckForDeferredDiags.empty())
    return false; // clang's walk starts from nothing: no deferred diagnostic is said
  // clang walks only when the parse deferred something of its own (it then already
  // filled DeviceKnownEmittedFns); else the walk is run with one entry that says nothing
  // (an empty list), so that nothing is said twice and no diagnostic is added.
  if (S.DeviceDeferredDiags.empty()) {
    const clang::FunctionDecl *Any = nullptr;
    for (clang::Decl *D : S.DeclsToCheckForDeferredDiags)
      if ((Any = llvm::dyn_cast<clang::FunctionDecl>(D)))
        break;
    if (!Any)
      return true; // no function to key the silent entry on: in doubt
    S.DeviceDeferredDiags[Any];
    S.emitDeferredDiags();
    S.DeviceDeferredDiags.clear();
  }
  const clang::SourceManager &SM = S.getSourceManager();
  // Every function the walk reached from a root that is emitted...
  for (const auto &[Callee, Caller] : S.CUDA().DeviceKnownEmittedFns)
    if (Unsaid.has(*Callee, SM))
      return true;
  // ... and the roots that are emitted themselves.
  for (clang::Decl *D : S.DeclsToCheckForDeferredDiags)
    if (auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (Unsaid.has(*FD, SM) &&
          S.getEmissionStatus(FD, /*Final=*/true) == clang::Sema::FunctionEmissionStatus::Emitted)
        return true;
  return false;
}

PreambleStore::PreambleStore() = default;
PreambleStore::~PreambleStore() = default;

clang::PreambleBounds PreambleStore::boundsFor(const Entry &E,
                                               const clang::LangOptions &LangOpts,
                                               llvm::StringRef Text) {
  return E.Extended ? extendedPreambleBounds(LangOpts, Text)
                    : clang::Lexer::ComputePreamble(Text, LangOpts);
}

bool PreambleStore::use(clang::CompilerInvocation &CI,
                        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS) {
  std::string File = mainFile(CI);
  auto It = Files.find(File);
  if (File.empty() || It == Files.end() || !It->second.Preamble)
    return false;
  auto Buf = VFS->getBufferForFile(CI.getFrontendOpts().Inputs[0].getFile());
  if (!Buf)
    return false;
  clang::PreambleBounds Bounds = boundsFor(It->second, CI.getLangOpts(), (*Buf)->getBuffer());
  const clang::PrecompiledPreamble &P = *It->second.Preamble;
  if (!P.CanReuse(CI, (*Buf)->getMemBufferRef(), Bounds, *VFS))
    return false;
  Main = std::move(*Buf);
  UsedUnsaid = It->second.Unsaid;
  // The PCH is a file on disk, which the parse's file system reaches: AddImplicitPreamble
  // leaves it as it is (it overlays only a PCH held in memory).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Same = VFS;
  P.AddImplicitPreamble(CI, Same, Main.get());
  // The main file's text stays ours (the parse would free a remapped buffer it owns).
  CI.getPreprocessorOpts().RetainRemappedFileBuffers = true;
  Used = true;
  return true;
}

namespace {

/// Counts the diagnostics of a preamble's build that come from its main file at or past
/// Offset, or from a header included there: what the preamble would keep from the parse.
class PastOffset : public clang::DiagnosticConsumer {
public:
  explicit PastOffset(unsigned Offset) : Offset(Offset) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= clang::DiagnosticsEngine::Warning)
      ++Warnings;
    if (Level < clang::DiagnosticsEngine::Warning || !Info.hasSourceManager())
      return;
    const clang::SourceManager &SM = Info.getSourceManager();
    clang::SourceLocation L = Info.getLocation();
    if (L.isValid())
      L = SM.getExpansionLoc(L);
    while (L.isValid()) {
      clang::FileID F = SM.getFileID(L);
      if (F == SM.getMainFileID()) {
        Said += SM.getFileOffset(L) >= Offset;
        return;
      }
      L = SM.getIncludeLoc(F);
    }
  }
  unsigned Offset;
  unsigned Said = 0;
  unsigned Warnings = 0; ///< every warning and error, wherever it is
};

/// What a preamble's build says besides its PCH: the warnings and errors after the parser
/// reached the end of its text (the instantiations at its end, with
/// -fpch-instantiate-templates), and the functions whose deferred diagnostics the PCH does
/// not keep.
class BuildWatch : public clang::PreambleCallbacks {
public:
  explicit BuildWatch(const PastOffset &Counter) : Counter(Counter) {}
  void BeforeExecute(clang::CompilerInstance &CI) override {
    // The end of the text: the end-of-file token, which the parser reads before it acts on
    // the end of the translation unit. (The consumer's top-level declarations do not mark
    // it: the instantiations at the end are handed to it as such too.)
    CI.getPreprocessor().setTokenWatcher([this](const clang::Token &T) {
      if (T.is(clang::tok::eof) && !AtEnd)
        AtEnd = Counter.Warnings;
    });
  }
  void AfterExecute(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().setTokenWatcher(nullptr);
    if (!CI.hasSema())
      return;
    for (const auto &[FD, Diags] : CI.getSema().DeviceDeferredDiags)
      if (!Diags.empty())
        Unsaid.add(*FD, CI.getSourceManager());
  }
  /// The warnings and errors said after the end of the text (all of them if it was not
  /// seen: in doubt).
  unsigned saidAtTheEnd() const { return Counter.Warnings - AtEnd.value_or(0); }
  UnsaidDeferred Unsaid;

private:
  const PastOffset &Counter;
  std::optional<unsigned> AtEnd; ///< Counter.Warnings when the end of the text was read
};

} // namespace

std::string PreambleStore::build(const clang::CompilerInvocation &CI,
                                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
                                 std::shared_ptr<clang::PCHContainerOperations> PCH) {
  std::string File = mainFile(CI);
  if (File.empty())
    return "no preamble: not one input file";
  std::string Key = File;
  File = File.substr(0, File.find('\n'));
  auto Buf = VFS->getBufferForFile(CI.getFrontendOpts().Inputs[0].getFile());
  if (!Buf)
    return "no preamble: cannot read " + File;
  llvm::StringRef Text = (*Buf)->getBuffer();
  Entry &E = Files[Key];
  if (E.Preamble && E.Preamble->CanReuse(CI, (*Buf)->getMemBufferRef(),
                                         boundsFor(E, CI.getLangOpts(), Text), *VFS))
    return "kept";
  clang::PreambleBounds Clang = clang::Lexer::ComputePreamble(Text, CI.getLangOpts());
  clang::PreambleBounds Extended = extendedPreambleBounds(CI.getLangOpts(), Text);
  std::string Directives = Text.substr(0, Clang.Size).str();
  std::string Extension = Text.substr(0, Extended.Size).str();
  E.Preamble.reset();
  E.Unsaid = UnsaidDeferred();
  E.Instantiated = false;
  // One build to Bounds: the preamble, or the reason there is none. Instantiate: with
  // -fpch-instantiate-templates; E.Unsaid and E.Instantiated are set for the preamble.
  std::string Why;
  bool SaidAtTheEnd = false;
  auto TryOnce = [&](clang::PreambleBounds Bounds,
                     bool Instantiate) -> std::unique_ptr<clang::PrecompiledPreamble> {
    clang::DiagnosticOptions DiagOpts;
    PastOffset Counter(Clang.Size);
    auto Diags = llvm::makeIntrusiveRefCnt<clang::DiagnosticsEngine>(
        llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), DiagOpts, &Counter,
        /*ShouldOwnClient=*/false);
    BuildWatch Callbacks(Counter);
    clang::CompilerInvocation Invocation(CI);
    Invocation.getLangOpts().PCHInstantiateTemplates = Instantiate;
    llvm::ErrorOr<clang::PrecompiledPreamble> P = clang::PrecompiledPreamble::Build(
        Invocation, Buf->get(), Bounds, Diags, VFS, PCH, /*StoreInMemory=*/false, StorageDir,
        Callbacks);
    SaidAtTheEnd = Instantiate && Callbacks.saidAtTheEnd() > 0;
    if (!P) {
      Why = P.getError().message();
      return nullptr;
    }
    if (Diags->hasErrorOccurred()) {
      // Errors in the headers: the parse without a preamble reports them where they are.
      Why = "its headers had errors";
      return nullptr;
    }
    if (Counter.Said) {
      Why = "it said warnings";
      return nullptr;
    }
    E.Unsaid = std::move(Callbacks.Unsaid);
    E.Instantiated = Instantiate;
    return std::make_unique<clang::PrecompiledPreamble>(std::move(*P));
  };
  // The templates instantiated in the PCH, unless those instantiations say something
  // (which a parse with the preamble would not): then the preamble without them.
  auto Try = [&](clang::PreambleBounds Bounds) -> std::unique_ptr<clang::PrecompiledPreamble> {
    std::unique_ptr<clang::PrecompiledPreamble> P = TryOnce(Bounds, /*Instantiate=*/true);
    if (SaidAtTheEnd) {
      P.reset();
      P = TryOnce(Bounds, /*Instantiate=*/false);
    }
    return P;
  };
  auto Start = std::chrono::steady_clock::now();
  std::string Fallback;
  if (Extended.Size > Clang.Size && E.FailedExtension != Extension) {
    E.Preamble = Try(Extended);
    E.Extended = E.Preamble != nullptr;
    if (!E.Preamble) {
      E.FailedExtension = Extension;
      Fallback = ", the directives only: with the declarations after them " + Why;
    }
  }
  if (!E.Preamble) {
    if (!E.FailedDirectives.empty() && E.FailedDirectives == Directives)
      return "no preamble: its headers had errors";
    E.Preamble = Try(Clang);
    E.Extended = false;
  }
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  if (!E.Preamble) {
    E.FailedDirectives = Directives;
    return "no preamble: " + Why;
  }
  E.FailedDirectives.clear();
  if (E.Extended) {
    E.FailedExtension.clear();
    unsigned Line = unsigned(llvm::StringRef(Extension).count('\n'));
    return fmt::format("built ({:.1f} MB, to line {}, past the directives{}) in {} ms",
                       double(E.Preamble->getSize()) / 1e6, Line, instantiated(E), Ms);
  }
  return fmt::format("built ({:.1f} MB{}{}) in {} ms", double(E.Preamble->getSize()) / 1e6,
                     instantiated(E), Fallback, Ms);
}

std::string PreambleStore::instantiated(const Entry &E) {
  std::string S = E.Instantiated ? ", templates instantiated" : ", templates left to the parse";
  if (!E.Unsaid.empty())
    S += fmt::format(", {} with deferred diagnostics", E.Unsaid.size());
  return S;
}

bool PreambleStore::has(const std::string &File) const { return bytes(File) > 0; }

size_t PreambleStore::bytes(const std::string &File) const {
  size_t N = 0;
  for (auto It = Files.lower_bound(File + "\n");
       It != Files.end() && llvm::StringRef(It->first).starts_with(File + "\n"); ++It)
    if (It->second.Preamble)
      N += It->second.Preamble->getSize();
  return N;
}

size_t PreambleStore::totalBytes() const {
  size_t N = 0;
  for (const auto &[F, E] : Files)
    if (E.Preamble)
      N += E.Preamble->getSize();
  return N;
}

void PreambleStore::drop(const std::string &File) {
  auto It = Files.lower_bound(File + "\n");
  while (It != Files.end() && llvm::StringRef(It->first).starts_with(File + "\n"))
    It = Files.erase(It);
}

} // namespace warplint::driver
