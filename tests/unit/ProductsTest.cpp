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

TEST(Products, LegacyPartsUseLegacyArchs) {
  EXPECT_STREQ(findProduct("gtx580")->Arch, "sm_20");
  EXPECT_STREQ(findProduct("K40")->Arch, "sm_35");
  EXPECT_EQ(findProduct("k80")->SmCount, 13u);
}

TEST(Products, GpcLayoutsAddUpToTheSmCount) {
  int WithLayout = 0;
  for (const GpuProduct *P = productsBegin(); P != productsEnd(); ++P) {
    if (!P->SmsPerGpc)
      continue;
    ++WithLayout;
    unsigned Sum = 0;
    for (int G = 0; G < P->GpcCount; ++G)
      Sum += unsigned(P->SmsPerGpc[G]);
    EXPECT_EQ(Sum, P->SmCount) << P->Key;
    EXPECT_NE(P->GpcSource, nullptr) << P->Key;
  }
  EXPECT_EQ(WithLayout, 2); // h100, h200
  const GpuProduct *H100 = findProduct("h100");
  EXPECT_EQ(H100->GpcCount, 12); // as measured: 8 GPCs and the 4 pairs that take clusters of 2
  EXPECT_EQ(gpcLayoutText(*H100), "2 GPCs of 18 SMs, 5 of 16, 1 of 8 and 4 of 2");
  EXPECT_EQ(gpcLayoutText(*findProduct("a100")), "");
}
