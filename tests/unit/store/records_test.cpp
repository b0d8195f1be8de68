// tests/unit/store/records_test.cpp — the attempt status names (store/records.h) round-trip and reject
// unknown text.
#include "store/records.h"

#include <gtest/gtest.h>

namespace ucut::store {
namespace {

TEST(WorkspaceRecords, StatusNamesRoundTrip) {
  const AttemptStatus all[] = {
      AttemptStatus::pending, AttemptStatus::build_failed, AttemptStatus::check_failed, AttemptStatus::wrong,
      AttemptStatus::crashed, AttemptStatus::timed_out,    AttemptStatus::measured};
  for (AttemptStatus s : all) EXPECT_EQ(parse_enum<AttemptStatus>(enum_name(s)), s);
  EXPECT_EQ(enum_name(AttemptStatus::timed_out), "timed_out");
  EXPECT_FALSE(parse_enum<AttemptStatus>("Measured"));
  EXPECT_FALSE(parse_enum<AttemptStatus>(""));
}

TEST(WorkspaceRecords, CountsNeedsMeasuredCorrectUnflaggedTimed) {
  AttemptRow a;
  a.status = AttemptStatus::measured;
  a.correct = true;
  a.time_ms = 1.0;
  EXPECT_TRUE(a.counts());
  AttemptRow flagged = a;
  flagged.flagged = true;
  EXPECT_FALSE(flagged.counts());
  AttemptRow untimed = a;
  untimed.time_ms.reset();
  EXPECT_FALSE(untimed.counts());
}

}  // namespace
}  // namespace ucut::store
