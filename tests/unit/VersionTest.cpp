//===- VersionTest.cpp - the version string has three numeric parts ------===//
#include "warplint/core/Version.h"

#include <gtest/gtest.h>

#include <regex>

TEST(Version, IsMajorMinorPatch) {
  EXPECT_TRUE(std::regex_match(warplint::versionString(), std::regex(R"(\d+\.\d+\.\d+)")));
}

// The commit `warplint --version` names: `git describe` of the source tree at configure
// time (a v* tag, else the abbreviated hash, "-dirty" with local changes), or "unknown".
TEST(Version, CommitIsDescribedOrUnknown) {
  EXPECT_TRUE(std::regex_match(warplint::commitString(),
                               std::regex(R"(unknown|(v\d+\.\d+\.\d+(-\d+-g)?)?[0-9a-f]{7,}(-dirty)?|v\d+\.\d+\.\d+(-dirty)?)")))
      << warplint::commitString();
}
