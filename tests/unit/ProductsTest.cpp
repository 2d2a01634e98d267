//===- ProductsTest.cpp - GPU product lookup and SM counts ----------------===//
#include "warplint/core/Products.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace warplint;

TEST(Products, SmCountsOfTheWorkedExamples) {
  struct Row {
    const char *Key;
    const char *Arch;
    unsigned Sms;
  } Rows[] = {{"rtx3080", "sm_86", 68},
              {"a100", "sm_80", 108},
              {"h100", "sm_90", 132},
              {"rtx4090", "sm_89", 128},
              {"h100pcie", "sm_90", 114}};
  for (const Row &R : Rows) {
    const GpuProduct *P = findProduct(R.Key);
    ASSERT_NE(P, nullptr) << R.Key;
    EXPECT_STREQ(P->Arch, R.Arch) << R.Key;
    EXPECT_EQ(P->SmCount, R.Sms) << R.Key;
  }
}

TEST(Products, LookupIgnoresCaseAndSeparators) {
  EXPECT_EQ(findProduct("RTX-3080"), findProduct("rtx3080"));
  EXPECT_EQ(findProduct("H100_PCIe"), findProduct("h100pcie"));
  EXPECT_EQ(findProduct("rtx 4090"), findProduct("rtx4090"));
  EXPECT_EQ(findProduct("gtx480"), nullptr);
  EXPECT_EQ(findProduct(""), nullptr);
}

TEST(Products, KeysUniqueAndEveryRowHasASource) {
  std::set<std::string> Keys;
  for (const GpuProduct *P = productsBegin(); P != productsEnd(); ++P) {
    EXPECT_TRUE(Keys.insert(P->Key).second) << P->Key;
    EXPECT_GT(P->SmCount, 0u);
    EXPECT_GT(std::string(P->Source).size(), 10u);
  }
  EXPECT_NE(knownProductList().find("h100 (132 SMs)"), std::string::npos);
}
