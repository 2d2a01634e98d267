//===- CompileDatabaseCheckTest.cpp - commands clang's database would misread ===//
#include "driver/compdb/CompileDatabaseCheck.h"

#include <gtest/gtest.h>

#include <string>

using namespace warplint::driver;

namespace {

TEST(CommandSplit, BalancedCommandsSplitCleanly) {
  for (const char *Ok :
       {"", "clang++ -c a.cu", "clang++ -DX=\"a b\" -c a.cu", "clang++ -DX='a \"b' -c a.cu",
        "clang++ -DX=\\\" -c a.cu", "clang++ \"-DX=\\\"q\\\"\" a.cu", "a\\ b", "''", "\"\""})
    EXPECT_EQ(commandSplitError(Ok), "") << Ok;
}

TEST(CommandSplit, UnterminatedQuotesAndTrailingBackslash) {
  EXPECT_EQ(commandSplitError("clang++ -DX=\"oops -c a.cu"),
            "the \"command\" has an unterminated \" (opened at character 13); clang would take "
            "the rest of it as one argument");
  EXPECT_EQ(commandSplitError("cc 'x"),
            "the \"command\" has an unterminated ' (opened at character 4); clang would take "
            "the rest of it as one argument");
  // Inside double quotes a backslash escapes the closing quote; inside single quotes not.
  EXPECT_NE(commandSplitError("cc \"x\\\""), "");
  EXPECT_EQ(commandSplitError("cc 'x\\'"), "");
  EXPECT_NE(commandSplitError("cc \"x\\"), "");
  EXPECT_EQ(commandSplitError("cc a\\"), "the \"command\" ends in a lone backslash");
}

TEST(CompileCommandsJson, NamesEachBadEntryByIndexAndFile) {
  std::string Db = R"([
    {"directory": "/p", "file": "ok.cu", "command": "cc -c ok.cu"},
    {"directory": "/p/b", "file": "../src/a.cu", "command": "cc -DX=\"oops -c a.cu"},
    {"directory": "/p", "file": "args.cu", "arguments": ["cc", "-DX=\"", "args.cu"],
     "command": "cc \""},
    {"directory": "/p", "file": "/abs/c.cu", "command": "cc 'c.cu"}
  ])";
  std::vector<CompileCommandProblem> P = checkCompileCommandsJson(Db, "b/compile_commands.json");
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Index, 1u);
  EXPECT_EQ(P[0].File, "/p/src/a.cu");
  EXPECT_EQ(P[0].Message.rfind("b/compile_commands.json[1] (../src/a.cu): the \"command\" has "
                               "an unterminated \" (opened at character 8)",
                               0),
            0u)
      << P[0].Message;
  EXPECT_EQ(P[1].Index, 3u);
  EXPECT_EQ(P[1].File, "/abs/c.cu");
  EXPECT_EQ(findCompileCommandProblem(P, "/p/b/../src/./a.cu"), &P[0]);
  EXPECT_EQ(findCompileCommandProblem(P, "/p/ok.cu"), nullptr);
  RunResult R = failedCompileCommand("/p/src/a.cu", P[0]);
  ASSERT_EQ(R.FilesFailed.size(), 1u);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].Message, P[0].Message);
  EXPECT_EQ(R.Findings[0].Level, Severity::Error);
}

TEST(CompileCommandsJson, WhatIsNoDatabaseIsLeftToClang) {
  for (const char *Text :
       {"", "{", "{}", "[1, \"x\", null]", "[{\"command\": 3}]", "[{\"file\": \"a.cu\"}]"})
    EXPECT_TRUE(checkCompileCommandsJson(Text, "db").empty()) << Text;
  EXPECT_TRUE(checkCompileCommandsJson(std::string(100000, '['), "db").empty());
  EXPECT_TRUE(checkCompileDatabase("").empty());
  EXPECT_TRUE(checkCompileDatabase("/nonexistent/build").empty());
}

} // namespace
