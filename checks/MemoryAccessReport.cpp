//===- MemoryAccessReport.cpp - what the two memory-access checks share -===//
#include "checks/MemoryAccessReport.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::warplint {

std::optional<std::optional<DiagnosticIDs::Level>> parseSeverity(llvm::StringRef Text,
                                                                 bool AllowNone) {
  if (Text.equals_insensitive("warning"))
    return std::optional<DiagnosticIDs::Level>(DiagnosticIDs::Warning);
  if (Text.equals_insensitive("note"))
    return std::optional<DiagnosticIDs::Level>(DiagnosticIDs::Remark);
  if (AllowNone && Text.equals_insensitive("none"))
    return std::optional<DiagnosticIDs::Level>();
  return std::nullopt;
}

std::optional<double> parseRatio(llvm::StringRef Text) {
  double V = 0;
  if (Text.trim().getAsDouble(V) || !(V >= 1.0) || V > 1024)
    return std::nullopt;
  return V;
}

std::string ratioText(double V) {
  if (V == double(int64_t(V)))
    return std::to_string(int64_t(V));
  std::string S = std::to_string(V); // 6 decimals: trim the zeros
  while (!S.empty() && S.back() == '0')
    S.pop_back();
  return S;
}

const char *accessVerb(const MemoryAccessSite &S) {
  return S.Load && S.Store ? "load and store" : S.Store ? "store" : "load";
}

std::string accessText(const MemoryAccessSite &S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S.Access->getSourceRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  if (Text.empty() || Text.size() > 60)
    Text = S.Object + "[...]";
  return Text;
}

std::string shapeText(const AccessModel &A, const AccessShape &S, const WarpExecution &X) {
  std::string T = "block " + S.Shape.str() + (A.AssumedShape ? " assumed" : "");
  if (!X.Values.empty())
    T += ", " + X.Values;
  return T;
}

std::string plural(const std::string &Type, int64_t N) {
  bool Word = !Type.empty() && Type.find_first_of(" :<") == std::string::npos;
  std::string Name = Word ? Type : "'" + Type + "'";
  return N == 1 ? Name : Name + "s";
}

MemoryAccessCheck::MemoryAccessCheck(StringRef Name, ClangTidyContext *Context, MemorySpace Space,
                                     StringRef RatioOption)
    : ClangTidyCheck(Name, Context), MinRatio(2.0), Level(DiagnosticIDs::Warning),
      AssumedBlockSize(Options.get("AssumedBlockSize", 256U)), Space(Space),
      RatioOption(RatioOption.str()), SeverityText(Options.get("Severity", "warning")),
      Model(ModelOptions::read(Context->getOptions().CheckOptions)),
      Ignored(Options.get("IgnoredKernels", "")) {
  std::string Ratio = Options.get(RatioOption, "2").str();
  if (std::optional<double> R = parseRatio(Ratio))
    MinRatio = *R;
  else
    configurationDiag("invalid %0 '%1': must be a number from 1 to 1024; using 2")
        << RatioOption << Ratio;
  if (auto L = parseSeverity(SeverityText, false)) {
    Level = **L;
  } else {
    configurationDiag("invalid Severity '%0': must be 'warning' or 'note'; using 'warning'")
        << SeverityText;
    SeverityText = "warning";
  }
  if (AssumedBlockSize == 0 || AssumedBlockSize % 32 != 0 || AssumedBlockSize > 1024) {
    configurationDiag("invalid AssumedBlockSize %0: must be a multiple of 32 from 32 to 1024; "
                      "using 256")
        << AssumedBlockSize;
    AssumedBlockSize = 256;
  }
}

void MemoryAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "IgnoredKernels", Ignored.text());
  Options.store(Opts, RatioOption, ratioText(MinRatio));
  Options.store(Opts, "Severity", SeverityText);
  Options.store(Opts, "AssumedBlockSize", AssumedBlockSize);
}

void MemoryAccessCheck::registerMatchers(ast_matchers::MatchFinder *Finder) {
  using namespace ast_matchers;
  // The model finds the kernels; one match tells the check which TU it is in.
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel"), this);
}

void MemoryAccessCheck::check(const ast_matchers::MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
}

void MemoryAccessCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  ASTContext &C = *Ctx;
  Ctx = nullptr;
  AssumedSaid.clear();
  const SourceManager &SM = C.getSourceManager();
  TuModel &M = TuModel::of(C, nullptr, Model);
  std::set<SourceLocation> Reported;
  for (const AccessModel &A : M.accesses(AssumedBlockSize)) {
    if (A.Site.Space != Space || Ignored.ignores(A.Kernel->Name))
      continue;
    std::optional<size_t> W = A.worst();
    if (!W)
      continue; // not evaluable: never guessed
    SourceLocation Loc = SM.getExpansionLoc(A.Site.Access->getBeginLoc());
    if (Loc.isInvalid() || Reported.count(Loc))
      continue;
    if (report(A, *W, Loc, C, M))
      Reported.insert(Loc);
  }
}

void MemoryAccessCheck::noteAssumedShape(const AccessModel &A) {
  if (A.AssumedShape && AssumedSaid.insert(A.Kernel->Decl).second)
    diag(A.Kernel->Decl->getLocation(),
         "no launch of '%0' with a known block shape in this translation unit; assumed a "
         "1-D block of %1 threads",
         DiagnosticIDs::Note)
        << A.Kernel->Name << AssumedBlockSize;
}

} // namespace clang::tidy::warplint
