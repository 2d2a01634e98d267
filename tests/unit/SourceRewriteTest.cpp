//===- SourceRewriteTest.cpp - launch chevrons written with spaces --------===//
#include "driver/compdb/SourceRewrite.h"

#include <gtest/gtest.h>

using warplint::driver::joinSpacedChevrons;

namespace {

TEST(SpacedChevrons, JoinedWithColumnsKept) {
  std::string In = "  k << < grid, block >> > (p, n);\n";
  std::optional<std::string> Out = joinSpacedChevrons(In);
  ASSERT_TRUE(Out);
  EXPECT_EQ(*Out, "  k <<<  grid, block >>>  (p, n);\n");
  EXPECT_EQ(Out->size(), In.size());
  EXPECT_EQ(Out->find("(p"), In.find("(p"));
}

TEST(SpacedChevrons, SeveralSpacesAndNewlines) {
  EXPECT_EQ(joinSpacedChevrons("k<<  <1, 32>>  >(p);"), "k<<<  1, 32>>>  (p);");
  EXPECT_EQ(joinSpacedChevrons("k<< <1,\n 32>> >\n(p);"), "k<<< 1,\n 32>>> \n(p);");
}

TEST(SpacedChevrons, AJoinedCloserIsLeftAlone) {
  EXPECT_EQ(joinSpacedChevrons("k<< <1, 32>>>(p);"), "k<<< 1, 32>>>(p);");
}

TEST(SpacedChevrons, TemplatesShiftsCommentsAndStringsAreNotLaunches) {
  EXPECT_FALSE(joinSpacedChevrons("std::vector<std::vector<int> > v;"));
  EXPECT_FALSE(joinSpacedChevrons("A<B<C<int>> > x; int y = a >> > b;"));
  EXPECT_FALSE(joinSpacedChevrons("x <<= 2; y = a << b; k<<<1, 32>>>(p);"));
  EXPECT_FALSE(joinSpacedChevrons("// k << < 1, 32 >> > (p);\n"));
  EXPECT_FALSE(joinSpacedChevrons("/* k << < 1 >> > () */ const char *s = \"<< <\";"));
}

TEST(SpacedChevrons, OnlyTheLaunchClosesTheLaunch) {
  // A template's `> >` inside the configuration is not the closer: `(` must follow it.
  EXPECT_EQ(joinSpacedChevrons("k<< <f<g<int> >(2), 32>> >(p);"),
            "k<<< f<g<int> >(2), 32>>> (p);");
}

using warplint::driver::escapePtxSpecialRegisters;

TEST(PtxSpecialRegisters, EscapedWithColumnsKept) {
  // tiny-cuda-nn's lane id: a space before the register gives way to the second `%`.
  std::string In = "  asm volatile(\"mov.u32 %0, %laneid;\" : \"=r\"(ret));\n";
  std::optional<std::string> Out = escapePtxSpecialRegisters(In);
  ASSERT_TRUE(Out);
  EXPECT_EQ(*Out, "  asm volatile(\"mov.u32 %0,%%laneid;\" : \"=r\"(ret));\n");
  EXPECT_EQ(Out->size(), In.size());
  EXPECT_EQ(escapePtxSpecialRegisters("asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));"),
            std::nullopt);
  // No space to give up: one column added (the opcode's space is PTX's).
  EXPECT_EQ(escapePtxSpecialRegisters("__asm__(\"mov.u32 %0,%smid;\" : \"=r\"(r));"),
            "__asm__(\"mov.u32 %0,%%smid;\" : \"=r\"(r));");
  EXPECT_EQ(escapePtxSpecialRegisters("asm(\"mov.u64 %0, %clock64;\" : \"=l\"(t));"),
            "asm(\"mov.u64 %0,%%clock64;\" : \"=l\"(t));");
}

TEST(PtxSpecialRegisters, RegistersTheStatementDeclares) {
  // CGBN's xmadll: `.reg .u16 %al, %ah, ...` declared in the asm's own PTX and used with
  // one `%`, which nvcc hands to PTX as written and clang refuses. Parameterised registers
  // (`%r<2>`) by their number; the operands (%0, %1) and `%%` stay.
  std::string In = "asm volatile (\"{\\n\\t\"\n"
                   "  \".reg .u16 %al, %ah;\\n\\t\"\n"
                   "  \".reg .u32 %r<2>;\\n\\t\"\n"
                   "  \"mov.b32 {%al,%ah},%1;\\n\\t\"\n"
                   "  \"add.u32 %r1, %0, %%laneid;\\n\\t\"\n"
                   "  \"}\" : \"=r\"(r) : \"r\"(a));\n";
  std::optional<std::string> Out = escapePtxSpecialRegisters(In);
  ASSERT_TRUE(Out);
  EXPECT_NE(Out->find(".reg .u16 %%al,%%ah;"), std::string::npos) << *Out;
  EXPECT_NE(Out->find(".reg .u32 %%r<2>;"), std::string::npos) << *Out;
  EXPECT_NE(Out->find("mov.b32 {%%al,%%ah},%1;"), std::string::npos) << *Out;
  EXPECT_NE(Out->find("add.u32 %%r1, %0, %%laneid;"), std::string::npos) << *Out;
  // A name no `.reg` of the statement declares is left (it may be an operand modifier).
  EXPECT_EQ(escapePtxSpecialRegisters("asm(\"mov.u32 %0, %ah;\" : \"=r\"(r));"), std::nullopt);
}

TEST(PtxSpecialRegisters, OnlyInAsmOperandsAndOnlyRegisters) {
  // Operands (`%0`, `%1`) and other strings are left alone, and so is printf's `%d`.
  EXPECT_FALSE(escapePtxSpecialRegisters("asm(\"add.u32 %0, %1, %2;\" : \"=r\"(a) : \"r\"(b), \"r\"(c));"));
  EXPECT_FALSE(escapePtxSpecialRegisters("printf(\"%laneid %d\\n\", x); // asm(\"%laneid\")"));
  EXPECT_FALSE(escapePtxSpecialRegisters("int basm = 1; const char *s = \"%laneid\";"));
  EXPECT_FALSE(escapePtxSpecialRegisters("asm(\"mov.u32 %0, %laneids;\" : \"=r\"(r));"));
}

} // namespace

namespace {

using warplint::driver::pragmaInMacroBodies;

TEST(PragmaInMacroBodies, ObjectLikeMacroBecomesPragmaOperator) {
  EXPECT_EQ(pragmaInMacroBodies("#ifdef __CUDA_ARCH__\n  #define PRAGMA_UNROLL #pragma unroll\n#endif\n"),
            "#ifdef __CUDA_ARCH__\n  #define PRAGMA_UNROLL _Pragma(\"unroll\")\n#endif\n");
  EXPECT_EQ(pragmaInMacroBodies("# define UNROLL_4 # pragma unroll 4\r\nint x;"),
            "# define UNROLL_4 _Pragma(\"unroll 4\")\r\nint x;");
}

TEST(PragmaInMacroBodies, OtherMacrosAreLeftAlone) {
  EXPECT_FALSE(pragmaInMacroBodies("#define STR(x) #x\n#define P _Pragma(\"unroll\")\n"));
  EXPECT_FALSE(pragmaInMacroBodies("#pragma unroll\nfor (;;) {}\n"));
  EXPECT_FALSE(pragmaInMacroBodies("#define F(x) #pragma x\n")); // function-like
  EXPECT_FALSE(pragmaInMacroBodies("#define P #pragma unroll \\\n  4\n")); // continued
}

} // namespace
