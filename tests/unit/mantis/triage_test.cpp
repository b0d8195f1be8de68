// tests/unit/mantis/triage_test.cpp — engine/mantis/triage.h: the ROI formula and the order it gives.
#include "engine/mantis/triage.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ucut::mantis {
namespace {

store::HypothesisRow hypothesis(const char* name, double speedup, double risk_impl, double risk_perf) {
  store::HypothesisRow h;
  h.rationale = name;
  h.predicted_speedup = speedup;
  h.risk_impl = risk_impl;
  h.risk_perf = risk_perf;
  return h;
}

TEST(Triage, ExponentIsOneNearSolAndGrowsWithTheGap) {
  EXPECT_DOUBLE_EQ(roi_exponent(1.2), 1.0);
  EXPECT_DOUBLE_EQ(roi_exponent(5), 1.0);
  EXPECT_NEAR(roi_exponent(50), 2.0, 1e-12);
  EXPECT_NEAR(roi_exponent(500), 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(roi_exponent(0), 1.0);  // unknown gap, or SOL switched off
}

TEST(Triage, RoiIsTheRiskDiscountedPoweredSpeedup) {
  EXPECT_NEAR(roi(1.5, 2, 1, 1), 1.5, 1e-12);
  EXPECT_NEAR(roi(1.5, 2, 2, 1.5), 0.5, 1e-12);
  EXPECT_NEAR(roi(2, 50, 1, 2), 2.0, 1e-12);  // 2^2 / 2
  EXPECT_NEAR(roi(3, 5 * std::pow(10, 0.5), 1, 1), std::pow(3, 1.5), 1e-9);
  EXPECT_NEAR(roi(2, 1, 0.5, 0.5), 2.0, 1e-12);  // risks below 1 count as 1
}

TEST(Triage, FarFromSolABoldHypothesisOvertakesASafeOne) {
  // Safe: 1.3x at no risk. Bold: 2x at risk 1.5 x 1.2. Near SOL the safe one wins; at g = 100 the bold one does.
  std::vector<store::HypothesisRow> hs = {hypothesis("safe", 1.3, 1, 1), hypothesis("bold", 2.0, 1.5, 1.2)};
  EXPECT_EQ(triage(hs, 2).front().rationale, "safe");
  EXPECT_EQ(triage(hs, 100).front().rationale, "bold");
}

TEST(Triage, RanksBestFirstAndKeepsNominationOrderOnTies) {
  std::vector<store::HypothesisRow> hs = {hypothesis("a", 1.1, 1, 1), hypothesis("b", 1.4, 1, 1),
                                          hypothesis("c", 1.1, 1, 1), hypothesis("d", 1.4, 2, 1)};
  std::vector<store::HypothesisRow> ranked = triage(hs, 3);
  ASSERT_EQ(ranked.size(), 4u);
  EXPECT_EQ(ranked[0].rationale, "b");
  EXPECT_EQ(ranked[1].rationale, "a");
  EXPECT_EQ(ranked[2].rationale, "c");
  EXPECT_EQ(ranked[3].rationale, "d");
  EXPECT_NEAR(ranked[3].roi, 0.7, 1e-12);
}

TEST(Triage, WithoutRankingTheNominationOrderStaysButRoiIsRecorded) {
  std::vector<store::HypothesisRow> hs = {hypothesis("a", 1.1, 1, 1), hypothesis("b", 1.4, 1, 1)};
  std::vector<store::HypothesisRow> kept = triage(hs, 3, false);
  EXPECT_EQ(kept[0].rationale, "a");
  EXPECT_NEAR(kept[0].roi, 1.1, 1e-12);
  EXPECT_NEAR(kept[1].roi, 1.4, 1e-12);
}

}  // namespace
}  // namespace ucut::mantis
