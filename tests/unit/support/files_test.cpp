// tests/unit/support/files_test.cpp — the ISO 8601 stamps of utc_now() and the seconds between two of them (the
// report's wall-clock per run).
#include "support/files.h"

#include <gtest/gtest.h>

namespace ucut {
namespace {

TEST(SecondsBetween, CountsAcrossMinutesHoursAndDays) {
  EXPECT_EQ(seconds_between("2026-12-02T07:41:08Z", "2026-12-02T07:44:47Z"), 219.0);
  EXPECT_EQ(seconds_between("2026-12-01T23:59:30Z", "2026-12-02T00:00:30Z"), 60.0);
  EXPECT_EQ(seconds_between("2026-12-02T10:00:00Z", "2026-12-02T09:00:00Z"), -3600.0);
}

TEST(SecondsBetween, RoundTripsUtcNow) {
  std::string now = utc_now();
  EXPECT_EQ(seconds_between(now, now), 0.0);
}

TEST(SecondsBetween, RejectsWhatIsNotAStamp) {
  EXPECT_FALSE(seconds_between("", "2026-12-02T07:44:47Z"));
  EXPECT_FALSE(seconds_between("2026-12-02T07:41:08Z", "unfinished"));
  EXPECT_FALSE(seconds_between("yesterday", "today"));
}

}  // namespace
}  // namespace ucut
