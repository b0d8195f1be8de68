// tests/unit/eval/stats_test.cpp — eval/stats.h: median, mean, sample stddev, extremes and interpolated
// percentiles on hand-computed samples.
#include "eval/stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ucut {
namespace {

TEST(Stats, OddCount) {
  Stats s = summarize({5, 1, 3});  // sorted 1 3 5
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.stddev, 2);  // sqrt((4 + 0 + 4) / (3 - 1)): the sample (n-1) estimate
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.p10, 1.4);   // position 0.2 between 1 and 3
  EXPECT_DOUBLE_EQ(s.p90, 4.6);   // position 1.8 between 3 and 5
  EXPECT_DOUBLE_EQ(s.cv(), 2.0 / 3.0);
}

TEST(Stats, EvenCountInterpolatesTheMedian) {
  Stats s = summarize({4, 1, 3, 2});  // sorted 1 2 3 4
  EXPECT_EQ(s.n, 4);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));  // (2.25 + 0.25 + 0.25 + 2.25) / 3
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_NEAR(s.p10, 1.3, 1e-12);  // position 0.3
  EXPECT_NEAR(s.p90, 3.7, 1e-12);  // position 2.7
}

TEST(Stats, MedianIsRobustToAnOutlier) {
  Stats s = summarize({1.0, 1.1, 0.9, 1.0, 50.0});
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_DOUBLE_EQ(s.mean, 54.0 / 5.0);
  EXPECT_DOUBLE_EQ(s.max, 50.0);
  EXPECT_DOUBLE_EQ(s.min, 0.9);
}

TEST(Stats, ElevenSamplesHitOrderStatisticsExactly) {
  Stats s = summarize({10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  EXPECT_DOUBLE_EQ(s.median, 5);
  EXPECT_DOUBLE_EQ(s.p10, 1);
  EXPECT_DOUBLE_EQ(s.p90, 9);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(110.0 / 10.0));  // sum of squared deviations 110
}

TEST(Stats, OneSample) {
  Stats s = summarize({0.25});
  EXPECT_EQ(s.n, 1);
  EXPECT_DOUBLE_EQ(s.median, 0.25);
  EXPECT_DOUBLE_EQ(s.mean, 0.25);
  EXPECT_DOUBLE_EQ(s.min, 0.25);
  EXPECT_DOUBLE_EQ(s.max, 0.25);
  EXPECT_DOUBLE_EQ(s.p10, 0.25);
  EXPECT_DOUBLE_EQ(s.p90, 0.25);
  EXPECT_EQ(s.stddev, 0);  // not NaN from dividing by n - 1 = 0
  EXPECT_EQ(s.cv(), 0);
}

TEST(Stats, EmptyIsAllZero) {
  Stats s = summarize({});
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.median, 0);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 0);
  EXPECT_EQ(s.p10, 0);
  EXPECT_EQ(s.p90, 0);
  EXPECT_EQ(s.cv(), 0);
}

TEST(Stats, IdenticalSamplesHaveNoSpread) {
  Stats s = summarize({2, 2, 2, 2});
  EXPECT_DOUBLE_EQ(s.median, 2);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.cv(), 0);
}

}  // namespace
}  // namespace ucut
