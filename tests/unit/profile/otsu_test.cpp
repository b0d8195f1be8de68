// tests/unit/profile/otsu_test.cpp — engine/profile/otsu.h: the threshold lands between the modes of bimodal
// and 3-mode samples, and the edge cases (identical values, two values, non-finite values).
#include "engine/profile/otsu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ucut::profile {
namespace {

// `count` values spread evenly over [center - spread, center + spread].
std::vector<double> mode(double center, double spread, int count) {
  std::vector<double> v;
  for (int i = 0; i < count; ++i) v.push_back(center - spread + 2 * spread * i / (count - 1));
  return v;
}

std::vector<double> join(std::initializer_list<std::vector<double>> parts) {
  std::vector<double> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

TEST(Otsu, BimodalThresholdFallsBetweenTheModes) {
  auto t = otsu_threshold(join({mode(10, 4, 25), mode(70, 6, 15)}));
  ASSERT_TRUE(t);
  EXPECT_GT(*t, 14);
  EXPECT_LT(*t, 64);
}

TEST(Otsu, ExactOnASmallSample) {
  // Between-class variance of the cuts after 1, 2, 3, 10, 11: 6.05, 12.5, 20.25, 12.5, 6.05.
  EXPECT_DOUBLE_EQ(*otsu_threshold({12, 1, 11, 2, 10, 3}), 6.5);
}

TEST(Otsu, ThreeModesCutAtTheGapThatSeparatesMost) {
  // Modes near 10, 20 and 90, ten values each. Cut A|BC: (1/3)(2/3)(10-55)^2 = 450;
  // cut AB|C: (2/3)(1/3)(15-90)^2 = 1250, so the threshold is between the 20 and 90 modes.
  auto t = otsu_threshold(join({mode(10, 1, 10), mode(20, 1, 10), mode(90, 1, 10)}));
  ASSERT_TRUE(t);
  EXPECT_GT(*t, 21);
  EXPECT_LT(*t, 89);
}

TEST(Otsu, IdenticalValuesHaveNoThreshold) {
  EXPECT_FALSE(otsu_threshold({42, 42, 42, 42}));
  EXPECT_FALSE(otsu_threshold({}));
  EXPECT_FALSE(otsu_threshold({7}));
}

TEST(Otsu, TwoValuesSplitHalfway) {
  EXPECT_DOUBLE_EQ(*otsu_threshold({3, 7}), 5);
  EXPECT_DOUBLE_EQ(*otsu_threshold({3, 3, 3, 7}), 5);
}

TEST(Otsu, IgnoresNonFiniteValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(*otsu_threshold({3, nan, 7, inf}), 5);
  EXPECT_FALSE(otsu_threshold({nan, 1, inf}));
  EXPECT_EQ(distinct_count({1, 1, 2, nan, 3, 3}), 3);
}

TEST(Otsu, TiesGoToTheLowestCut) {
  // 0 0 | 5 5 | 10 10: both cuts give (1/3)(2/3)(7.5)^2 = 12.5.
  EXPECT_DOUBLE_EQ(*otsu_threshold({0, 0, 5, 5, 10, 10}), 2.5);
}

}  // namespace
}  // namespace ucut::profile
