//===- ArgParserTest.cpp - the subcommands' one command-line parser -------===//
#include "driver/commands/ArgParser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warplint::driver;
using Result = ArgParser::Result;

namespace {

struct Parsed {
  std::string Out, Arch;
  std::vector<std::string> Logs, Files, Rest;
  bool Mock = false, DashDash = false;
  std::string Error;
  Result R = Result::Error;
};

/// A command with the shapes every subcommand uses.
Parsed parse(std::vector<std::string> Args, bool PassUnknown = false) {
  Parsed P;
  ArgParser A("demo");
  A.option("-o", P.Out, "a file name")
      .option("--arch",
              [&P](llvm::StringRef V, std::string &E) {
                if (!V.starts_with("sm_")) {
                  E = "--arch: '" + V.str() + "' is not sm_XX";
                  return false;
                }
                P.Arch = V.str();
                return true;
              })
      .list("--ptxas-log", P.Logs)
      .flag("--mock-cuda", P.Mock)
      .positional(P.Files)
      .rest(P.Rest, &P.DashDash);
  if (PassUnknown)
    A.passUnknownOptions();
  P.R = A.parse(Args, P.Error);
  return P;
}

TEST(ArgParser, EverySpellingOfAValue) {
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"-o", "x"}, {"-o=x"}, {"-ox"}, {"-o", "y", "-o", "x"}}) {
    Parsed P = parse(Args);
    EXPECT_EQ(P.R, Result::Ok) << P.Error;
    EXPECT_EQ(P.Out, "x");
  }
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"--arch", "sm_90"}, {"--arch=sm_90"}}) {
    Parsed P = parse(Args);
    EXPECT_EQ(P.R, Result::Ok) << P.Error;
    EXPECT_EQ(P.Arch, "sm_90");
  }
  // A value may start with '-'; a long option has no joined form.
  EXPECT_EQ(parse({"-o", "-weird"}).Out, "-weird");
  EXPECT_EQ(parse({"--archsm_90"}).Error,
            "unknown option '--archsm_90' (see 'warplint demo --help')");
}

TEST(ArgParser, RepeatedListsFlagsPositionalsAndRest) {
  Parsed P = parse({"a.cu", "--ptxas-log", "1.log", "--mock-cuda", "--ptxas-log=2.log", "-", "b.cu",
                    "--", "-x", "cuda", "--help"});
  ASSERT_EQ(P.R, Result::Ok) << P.Error;
  EXPECT_EQ(P.Logs, (std::vector<std::string>{"1.log", "2.log"}));
  EXPECT_TRUE(P.Mock);
  EXPECT_EQ(P.Files, (std::vector<std::string>{"a.cu", "-", "b.cu"}));
  EXPECT_TRUE(P.DashDash);
  EXPECT_EQ(P.Rest, (std::vector<std::string>{"-x", "cuda", "--help"}));
  EXPECT_FALSE(parse({"a.cu"}).DashDash);
}

TEST(ArgParser, HelpBeforeDashDashWins) {
  EXPECT_EQ(parse({"--bogus", "--help"}).R, Result::Help);
  EXPECT_EQ(parse({"-h"}).R, Result::Help);
  EXPECT_EQ(parse({"a.cu", "--", "-h"}).R, Result::Ok);
}

TEST(ArgParser, ErrorsNameTheOptionAndTheCommand) {
  EXPECT_EQ(parse({"-o"}).Error, "-o needs a file name");
  EXPECT_EQ(parse({"--ptxas-log"}).Error, "--ptxas-log needs a value");
  EXPECT_EQ(parse({"--mock-cuda=1"}).Error, "--mock-cuda takes no value");
  EXPECT_EQ(parse({"--arch", "gfx906"}).Error, "--arch: 'gfx906' is not sm_XX");
  Parsed P = parse({"-q", "a.cu"});
  EXPECT_EQ(P.R, Result::Error);
  EXPECT_EQ(P.Error, "unknown option '-q' (see 'warplint demo --help')");
  // Parsing stops at the first error.
  P = parse({"--arch", "bad", "-o", "x"});
  EXPECT_EQ(P.Out, "");
}

TEST(ArgParser, UnknownOptionsPassedOnInOrder) {
  Parsed P = parse({"-p", "build", "-o", "r.html", "--files=src", "a.cu", "--", "-DX"}, true);
  ASSERT_EQ(P.R, Result::Ok) << P.Error;
  EXPECT_EQ(P.Out, "r.html");
  EXPECT_EQ(P.Files, (std::vector<std::string>{"-p", "build", "--files=src", "a.cu"}));
  EXPECT_EQ(P.Rest, (std::vector<std::string>{"-DX"}));
}

TEST(ArgParser, WithoutSinksPositionalsAndDashDashAreErrors) {
  std::string Out, Error;
  ArgParser A("compdb");
  A.option("-o", Out);
  EXPECT_EQ(A.parse(std::vector<std::string>{"x"}, Error), Result::Error);
  EXPECT_EQ(Error, "unexpected argument 'x' (see 'warplint compdb --help')");
  EXPECT_EQ(A.parse(std::vector<std::string>{"--"}, Error), Result::Error);
  EXPECT_EQ(Error, "unexpected argument '--' (see 'warplint compdb --help')");
}

} // namespace
