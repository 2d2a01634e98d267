//===- VersionTest.cpp - the version string has three numeric parts ------===//
#include "warplint/core/Version.h"

#include <gtest/gtest.h>

#include <regex>

TEST(Version, IsMajorMinorPatch) {
  EXPECT_TRUE(std::regex_match(warplint::versionString(), std::regex(R"(\d+\.\d+\.\d+)")));
}
