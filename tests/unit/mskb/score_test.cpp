// mskb/score.h: the paper's complexity-weighted P, the log-weighted geometric G, failures, suite aggregates.
#include <gtest/gtest.h>

#include <cmath>

#include "mskb/score.h"

namespace ucut::mskb {
namespace {

TEST(MskbScore, WeightedMeanFollowsComplexityGeometricFollowsItsLog) {
  // T = 2 and 2^10: P is dominated by the big case, G weighs them 1 : 10 in log space.
  PairScore s = score_pair({{2, true, 1.0}, {1024, true, 4.0}});
  EXPECT_NEAR(s.weighted, (2 * 1.0 + 1024 * 4.0) / 1026, 1e-12);
  EXPECT_NEAR(s.log_geometric, std::exp((1 * std::log(1.0) + 10 * std::log(4.0)) / 11), 1e-12);
  EXPECT_TRUE(s.all_correct());
}

TEST(MskbScore, AFailedCaseScoresZeroNeverSkipped) {
  PairScore s = score_pair({{1024, true, 2.0}, {1024, false, 0}});
  EXPECT_DOUBLE_EQ(s.weighted, 1.0);  // (2 + 0) / 2
  EXPECT_EQ(s.log_geometric, 0);
  EXPECT_EQ(s.failed, 1);
  EXPECT_FALSE(s.all_correct());
}

TEST(MskbScore, SuiteCountsFailedPairsInTheSuccessRates) {
  PairScore fast = score_pair({{16, true, 10.0}});
  PairScore slow = score_pair({{16, true, 0.5}});
  PairScore failed = score_pair({{16, false, 0}});
  SuiteScore s = score_suite({fast, slow, failed});
  EXPECT_EQ(s.pairs, 3);
  EXPECT_EQ(s.failed_pairs, 1);
  ASSERT_TRUE(s.geomean);
  EXPECT_NEAR(*s.geomean, std::sqrt(10.0 * 0.5), 1e-12);  // failed pairs have no G
  ASSERT_EQ(s.success.size(), kSuccessTaus.size());
  EXPECT_NEAR(s.success[0], 2.0 / 3, 1e-12);  // τ = 0: correct
  EXPECT_NEAR(s.success[1], 1.0 / 3, 1e-12);  // τ = 1
  EXPECT_NEAR(s.success[3], 1.0 / 3, 1e-12);  // τ = 8
}

TEST(MskbScore, EmptySuiteHasNoGeomean) {
  SuiteScore s = score_suite({});
  EXPECT_FALSE(s.geomean);
  EXPECT_EQ(s.pairs, 0);
}

}  // namespace
}  // namespace ucut::mskb
