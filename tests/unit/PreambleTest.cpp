//===- PreambleTest.cpp - the bounds of a file's precompiled preamble --------===//
#include "driver/run/Preamble.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace warplint::driver {
namespace {

clang::LangOptions cuda() {
  clang::LangOptions L;
  L.CPlusPlus = L.CPlusPlus11 = L.CPlusPlus14 = L.CPlusPlus17 = true;
  L.CUDA = true;
  return L;
}

/// The text of Text's extended preamble.
std::string extended(const std::string &Text) {
  clang::PreambleBounds B = extendedPreambleBounds(cuda(), Text);
  return Text.substr(0, B.Size);
}

/// The text of clang's own preamble of Text.
std::string directives(const std::string &Text) {
  return Text.substr(0, clang::Lexer::ComputePreamble(Text, cuda()).Size);
}

TEST(PreambleBounds, ReachesPastANamespaceAliasToTheLastInclude) {
  // cuda-samples' transpose.cu and histogram*.cu: the alias between the includes.
  std::string Head = "// comment\n#include <cooperative_groups.h>\n\n"
                     "namespace cg = cooperative_groups;\n\n"
                     "#include <helper_cuda.h>   // error checks\n"
                     "#include \"histogram_common.h\"\n";
  std::string Text = Head + "\n#define TILE 32\n__global__ void k(float *p) { p[0] = 1; }\n";
  EXPECT_EQ(extended(Text), Head);
  clang::PreambleBounds B = extendedPreambleBounds(cuda(), Text);
  EXPECT_TRUE(B.PreambleEndsAtStartOfLine);
  // Clang's ends before the alias.
  EXPECT_EQ(directives(Text), "// comment\n#include <cooperative_groups.h>\n\n");
}

TEST(PreambleBounds, ReachesPastDeclarationsCompleteInThemselves) {
  std::string Head = "#include <a.h>\n"
                     "using namespace std;\n"
                     "using ::size_t;\n"
                     "using real = float;\n"
                     "typedef unsigned int uint;\n"
                     "struct Forward;\n"
                     "template <typename T, int N = 4> class Later;\n"
                     "#define FOO 1\n"
                     "#include \"b.h\"\n";
  std::string Text = Head + "typedef float later_t;\nint main() { return 0; }\n";
  EXPECT_EQ(extended(Text), Head);
}

TEST(PreambleBounds, KeepsClangsBoundsWhenSomethingElseComesBetween) {
  const char *Between[] = {
      "__global__ void k(int *p) { *p = 1; }\n",         // a function
      "struct S { int a; };\n",                           // a class definition
      "typedef struct { int a; } S;\n",                   // a typedef with a body
      "int Global = 3;\n",                                // a variable
      "__device__ float f(float x);\n",                   // a prototype (or a variable)
      "extern \"C\" {\n",                                 // an open brace
      "template struct Later<int>;\n",                    // an explicit instantiation
      "static_assert(sizeof(int) == 4, \"int\");\n",      // neither
  };
  for (const char *B : Between) {
    std::string Text = std::string("#include <a.h>\nnamespace cg = x;\n") + B +
                       "#include <b.h>\nint main() { return 0; }\n";
    EXPECT_EQ(extended(Text), directives(Text)) << B;
    EXPECT_EQ(extended(Text), "#include <a.h>\n") << B;
  }
  // No #include after the declarations: nothing to gain.
  std::string NoInclude = "#include <a.h>\nnamespace cg = x;\n#define N 4\nint main() {}\n";
  EXPECT_EQ(extended(NoInclude), directives(NoInclude));
  // A block comment that runs on from the #include's line: it cannot end there.
  std::string Comment = "#include <a.h>\nnamespace cg = x;\n#include <b.h> /* one\n"
                        "two */\nint main() {}\n";
  EXPECT_EQ(extended(Comment), directives(Comment));
  // #error and #line are not taken past.
  std::string Error = "#include <a.h>\nnamespace cg = x;\n#line 40\n#include <b.h>\nint y;\n";
  EXPECT_EQ(extended(Error), directives(Error));
}

TEST(PreambleBounds, FollowsConditionals) {
  // A whole-file include guard (reduction_kernel.cu): the extension stays inside it.
  std::string Guarded = "#ifndef K_H\n#define K_H\n#include <a.h>\nnamespace cg = x;\n"
                        "#include <b.h>\n";
  EXPECT_EQ(extended(Guarded + "int f() { return 1; }\n#endif\n"), Guarded);
  // An #include inside a conditional after the declarations: to its #endif's line.
  std::string Inside = "#include <a.h>\nnamespace cg = x;\n#ifdef _WIN32\n"
                       "#include <windows.h>\n#endif\n";
  EXPECT_EQ(extended(Inside + "int f() { return 1; }\n"), Inside);
  // The extension would close a conditional opened before the first declaration.
  std::string Closes = "#if A\n#include <a.h>\nnamespace cg = x;\n#endif\n#include <b.h>\n"
                       "int f() { return 1; }\n";
  EXPECT_EQ(extended(Closes), directives(Closes));
  std::string Switches = "#if A\n#include <a.h>\nnamespace cg = x;\n#else\n#include <b.h>\n"
                         "#endif\nint f() { return 1; }\n";
  EXPECT_EQ(extended(Switches), directives(Switches));
}

TEST(PreambleBounds, ClangsBoundsWithoutDeclarations) {
  std::string Text = "#include <a.h>\n#include <b.h>\n__global__ void k() {}\n";
  clang::PreambleBounds E = extendedPreambleBounds(cuda(), Text);
  clang::PreambleBounds C = clang::Lexer::ComputePreamble(Text, cuda());
  EXPECT_EQ(E.Size, C.Size);
  EXPECT_EQ(E.PreambleEndsAtStartOfLine, C.PreambleEndsAtStartOfLine);
  EXPECT_EQ(extendedPreambleBounds(cuda(), "").Size, 0u);
}

/// The functions named Name in Unit's translation unit (a template's specializations
/// included), in order.
std::vector<const clang::FunctionDecl *> functionsNamed(clang::ASTUnit &Unit,
                                                        llvm::StringRef Name) {
  std::vector<const clang::FunctionDecl *> Out;
  for (const clang::Decl *D : Unit.getASTContext().getTranslationUnitDecl()->decls()) {
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D); FD && FD->getName() == Name)
      Out.push_back(FD);
    if (const auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(D);
        FT && FT->getName() == Name)
      for (const clang::FunctionDecl *S : FT->specializations())
        Out.push_back(S);
  }
  return Out;
}

// UnsaidDeferred keys a function by its name and the place of its first declaration: the
// same function (a redeclaration too) is found, another is not, and a template's
// specializations share one key (more doubt, never less).
TEST(UnsaidDeferred, KeysByNameAndFirstDeclaration) {
  std::unique_ptr<clang::ASTUnit> Unit = clang::tooling::buildASTFromCodeWithArgs(
      "void f();\n"
      "void f() {}\n"
      "void g() {}\n"
      "namespace n { void f() {} }\n"
      "template <class T> T t(T X) { return X; }\n"
      "void u() { t(1); t(2.0); }\n",
      {"-std=c++17"}, "unsaid.cpp");
  ASSERT_TRUE(Unit);
  const clang::SourceManager &SM = Unit->getSourceManager();
  std::vector<const clang::FunctionDecl *> F = functionsNamed(*Unit, "f");
  std::vector<const clang::FunctionDecl *> G = functionsNamed(*Unit, "g");
  std::vector<const clang::FunctionDecl *> T = functionsNamed(*Unit, "t");
  ASSERT_EQ(F.size(), 2u);
  ASSERT_EQ(G.size(), 1u);
  ASSERT_EQ(T.size(), 2u); // t<int>, t<double>
  const clang::FunctionDecl *NF = nullptr;
  for (const clang::Decl *D : Unit->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D))
      for (const clang::Decl *M : NS->decls())
        NF = llvm::dyn_cast<clang::FunctionDecl>(M);
  ASSERT_TRUE(NF);

  UnsaidDeferred U;
  EXPECT_TRUE(U.empty());
  U.add(*F[1], SM); // the definition: keyed by the first declaration
  EXPECT_EQ(U.size(), 1u);
  EXPECT_TRUE(U.has(*F[0], SM));
  EXPECT_TRUE(U.has(*F[1], SM));
  EXPECT_FALSE(U.has(*G[0], SM));
  EXPECT_FALSE(U.has(*NF, SM)); // same name, another place
  EXPECT_FALSE(U.has(*T[0], SM));
  U.add(*T[0], SM);
  EXPECT_TRUE(U.has(*T[0], SM));
  EXPECT_TRUE(U.has(*T[1], SM)); // t<double> shares t<int>'s key
}

} // namespace
} // namespace warplint::driver
