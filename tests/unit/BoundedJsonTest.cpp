//===- BoundedJsonTest.cpp - the nesting limit in front of llvm::json::parse ===//
#include "driver/formats/BoundedJson.h"

#include <gtest/gtest.h>

#include <string>

using namespace warplint::driver;

namespace {

std::string nested(unsigned Depth, char Open = '[', char Close = ']') {
  return std::string(Depth, Open) + std::string(Depth, Close);
}

TEST(BoundedJson, DepthAtTheLimitParses) {
  EXPECT_EQ(jsonNestingError(nested(MaxJsonNesting)), "");
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(nested(MaxJsonNesting));
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(jsonNestingError(nested(3, '{', '}'), 3), "");
}

TEST(BoundedJson, OneLevelOverIsRefusedWithItsPosition) {
  EXPECT_EQ(jsonNestingError(nested(MaxJsonNesting + 1)),
            "nesting deeper than 256 levels at byte 257");
  EXPECT_EQ(jsonNestingError("{\"a\": [{\"b\": []}]}", 3),
            "nesting deeper than 3 levels at byte 14");
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(std::string(100000, '['));
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(llvm::toString(V.takeError()), "nesting deeper than 256 levels at byte 257");
}

TEST(BoundedJson, BracketsInStringsDoNotCount) {
  EXPECT_EQ(jsonNestingError("[\"" + std::string(1000, '[') + "\"]", 2), "");
  // An escaped quote does not end the string; an escaped backslash does not escape it.
  EXPECT_EQ(jsonNestingError(R"(["\"[[[", "x\\", []])", 2), "");
  EXPECT_NE(jsonNestingError(R"(["x\\", [[]]])", 2), "");
}

TEST(BoundedJson, SiblingsDoNotAddUp) {
  std::string Many;
  for (int I = 0; I < 1000; ++I)
    Many += (I ? "," : "") + nested(10);
  EXPECT_EQ(jsonNestingError("[" + Many + "]", 11), "");
}

TEST(BoundedJson, MalformedInputIsLeftToTheParser) {
  for (const char *Bad : {"]]]][", "[\"unterminated", "{\"a\": [}"}) {
    EXPECT_EQ(jsonNestingError(Bad, 2), "") << Bad;
    llvm::Expected<llvm::json::Value> V = parseBoundedJson(Bad, 2);
    ASSERT_FALSE(bool(V)) << Bad;
    EXPECT_NE(llvm::toString(V.takeError()).find("["), std::string::npos)
        << Bad; // llvm's [line:col]
  }
}

} // namespace
