// tests/unit/eval/trial_schedule_test.cpp — eval/trial_schedule.h: every set verified, counts in their
// ranges, the verified timed calls spread over the pass with both synchronizations, a seed giving one
// schedule and different seeds different ones.
#include "eval/trial_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ucut {
namespace {

TEST(TrialSchedule, VerifiesEverySetThenAFewAgain) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    TrialSchedule s = draw_trial_schedule(seed, 3, 10, 100);
    ASSERT_GE(s.verify_sets.size(), 3u);
    ASSERT_LE(s.verify_sets.size(), 5u);
    std::set<int> first(s.verify_sets.begin(), s.verify_sets.begin() + 3);
    EXPECT_EQ(first, (std::set<int>{0, 1, 2})) << seed;
    for (int v : s.verify_sets) EXPECT_TRUE(v >= 0 && v < 3);
  }
}

TEST(TrialSchedule, CountsVaryWithinTheirRanges) {
  std::set<size_t> verify_counts;
  std::set<int> warmups, first_sets;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    TrialSchedule s = draw_trial_schedule(seed, 3, 10, 100);
    EXPECT_GE(s.warmup, 5);
    EXPECT_LE(s.warmup, 15);
    ASSERT_EQ(s.event_sets.size(), 100u);
    ASSERT_EQ(s.wall_sets.size(), 100u);
    ASSERT_EQ(s.event_checks.size(), 100u);
    EXPECT_EQ(s.checked_calls(), 10);
    verify_counts.insert(s.verify_sets.size());
    warmups.insert(s.warmup);
    first_sets.insert(s.verify_sets[0]);
  }
  EXPECT_EQ(verify_counts, (std::set<size_t>{3, 4, 5}));
  EXPECT_GT(warmups.size(), 5u);
  EXPECT_EQ(first_sets.size(), 3u);  // the order of the sets changes too
}

TEST(TrialSchedule, CheckedCallsSpreadOverThePassWithBothScopes) {
  std::set<int> positions;
  int stream = 0, device = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    TrialSchedule s = draw_trial_schedule(seed, 2, 10, 100);
    for (int t = 0; t < 100; ++t)
      if (s.event_checks[t]) {
        positions.insert(t);
        (*s.event_checks[t] == SyncScope::stream ? stream : device)++;
      }
  }
  EXPECT_GT(positions.size(), 90u);  // nearly every position is checked under some seed
  EXPECT_GT(stream, 300);
  EXPECT_GT(device, 300);
}

TEST(TrialSchedule, EverySetIsTimed) {
  TrialSchedule s = draw_trial_schedule(7, 3, 10, 100);
  for (int set = 0; set < 3; ++set) {
    EXPECT_NE(std::count(s.event_sets.begin(), s.event_sets.end(), set), 0) << set;
    EXPECT_NE(std::count(s.wall_sets.begin(), s.wall_sets.end(), set), 0) << set;
  }
}

TEST(TrialSchedule, FewTrialsAreAllChecked) {
  EXPECT_EQ(draw_trial_schedule(1, 2, 10, 2).checked_calls(), 2);
  EXPECT_EQ(draw_trial_schedule(1, 2, 10, 30).checked_calls(), 3);
  EXPECT_EQ(draw_trial_schedule(1, 2, 10, 0).checked_calls(), 0);
  EXPECT_EQ(draw_trial_schedule(1, 2, 0, 10).warmup, 0);
}

TEST(TrialSchedule, OneSeedOneSchedule) {
  TrialSchedule a = draw_trial_schedule(42, 3, 10, 100), b = draw_trial_schedule(42, 3, 10, 100),
                c = draw_trial_schedule(43, 3, 10, 100);
  EXPECT_EQ(a.verify_sets, b.verify_sets);
  EXPECT_EQ(a.event_sets, b.event_sets);
  EXPECT_EQ(a.event_checks, b.event_checks);
  EXPECT_EQ(a.warmup, b.warmup);
  EXPECT_NE(a.event_sets, c.event_sets);
}

}  // namespace
}  // namespace ucut
