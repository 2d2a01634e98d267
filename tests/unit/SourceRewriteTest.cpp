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

} // namespace
