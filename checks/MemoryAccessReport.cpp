//===- MemoryAccessReport.cpp - what the two memory-access checks share -===//
#include "checks/MemoryAccessReport.h"

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

} // namespace clang::tidy::warplint
