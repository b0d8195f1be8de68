// tests/unit/eval/integrity_test.cpp — eval/integrity.h: each flag rule on a synthetic ShapeResult, the
// off-stream wall-clock cross-check on side-stream-like and honest timings, the SOL floor, and counts().
#include "eval/integrity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ucut {
namespace {

Stats stats_at(double median, int n = 100) {
  Stats s;
  s.n = n;
  s.median = s.mean = s.min = s.max = s.p10 = s.p90 = median;
  return s;
}

TimingResult timing(double event_ms, double wall_ms) {
  TimingResult t;
  t.measured = true;
  t.event_ms = stats_at(event_ms);
  t.wall_ms = stats_at(wall_ms);
  return t;
}

Comparison passing() {
  Comparison c;
  c.checked = 1 << 20;
  c.pass = true;
  c.max_rel_err = 1e-3;
  c.rel_l2 = 1e-4;
  return c;
}

/// A correct kernel measured honestly: events 1.0 ms, wall 1.03 ms to a device sync, empty launch 0.02 ms.
ShapeResult honest() {
  ShapeResult r;
  r.shape.m = r.shape.n = r.shape.k = 4096;
  r.status = ShapeStatus::ok;
  r.verify = passing();
  r.reverify = passing();
  r.candidate = timing(1.0, 1.03);
  r.cublas = timing(1.1, 1.13);
  r.integrity.empty_launch_wall_ms = 0.02;
  return r;
}

std::vector<std::string> ids(const std::vector<IntegrityFlag>& flags) {
  std::vector<std::string> v;
  for (const IntegrityFlag& f : flags) v.push_back(std::string(enum_name(f.id)));
  return v;
}

const IntegrityFlag* find(const std::vector<IntegrityFlag>& flags, const std::string& id) {
  auto it =
      std::find_if(flags.begin(), flags.end(), [&](const IntegrityFlag& f) { return enum_name(f.id) == id; });
  return it == flags.end() ? nullptr : &*it;
}

/// Exactly one flag, `id`, and it disqualifies.
void expect_only(const ShapeResult& r, const std::string& id, const IntegrityContext& ctx = {}) {
  auto flags = integrity_flags(r, ctx);
  ASSERT_EQ(flags.size(), 1u) << ::testing::PrintToString(ids(flags));
  EXPECT_EQ(enum_name(flags[0].id), id);
  EXPECT_TRUE(disqualifies(flags[0].id));
  EXPECT_FALSE(flags[0].reason.empty());
  EXPECT_FALSE(counts(flags));
}

TEST(Integrity, HonestResultHasNoFlags) {
  auto flags = integrity_flags(honest(), {.sol_floor_ms = 0.5});
  EXPECT_TRUE(flags.empty()) << ::testing::PrintToString(ids(flags));
  EXPECT_TRUE(counts(flags));
}

TEST(Integrity, StatusOtherThanOkIsNotVerifiedOnly) {
  ShapeResult r = honest();
  r.status = ShapeStatus::launch_failed;
  r.error = "cudaErrorLaunchOutOfResources";
  // Everything else is also wrong, yet only the status is reported: the rest was never measured.
  r.verify.pass = false;
  r.integrity.input_mutated = true;
  r.integrity.incomplete_at_stream_sync = true;
  auto flags = integrity_flags(r, {.sol_floor_ms = 10, .precision_change = true});
  ASSERT_EQ(flags.size(), 1u) << ::testing::PrintToString(ids(flags));
  EXPECT_EQ(flags[0].id, FlagId::not_verified);
  EXPECT_TRUE(disqualifies(flags[0].id));
  EXPECT_NE(flags[0].reason.find("launch_failed"), std::string::npos) << flags[0].reason;
  EXPECT_NE(flags[0].reason.find("cudaErrorLaunchOutOfResources"), std::string::npos) << flags[0].reason;
  EXPECT_FALSE(counts(flags));

  for (ShapeStatus status : {ShapeStatus::crashed, ShapeStatus::timed_out, ShapeStatus::cannot_implement,
                             ShapeStatus::cuda_error}) {
    ShapeResult s = honest();
    s.status = status;
    expect_only(s, "not_verified");
  }
}

TEST(Integrity, VerifyFailureIsNotVerified) {
  ShapeResult r = honest();
  r.verify.pass = false;
  r.verify.mismatches = 17;
  r.verify.nonfinite = 3;
  expect_only(r, "not_verified");
  auto flags = integrity_flags(r, {});
  EXPECT_NE(flags[0].reason.find("17"), std::string::npos) << flags[0].reason;
}

TEST(Integrity, ReverifyFailure) {
  ShapeResult r = honest();
  r.reverify.pass = false;
  r.reverify.mismatches = 5;
  expect_only(r, "reverify_failed");
  EXPECT_NE(integrity_flags(r, {})[0].reason.find("5 mismatches"), std::string::npos);

  // Without timed runs there is no re-verification to fail.
  r.candidate.measured = false;
  EXPECT_TRUE(integrity_flags(r, {}).empty());
}

TEST(Integrity, InputMutated) {
  ShapeResult r = honest();
  r.integrity.input_mutated = true;
  expect_only(r, "input_mutated");
}

TEST(Integrity, VendorKernelsAreAHandOffNamedInTheReason) {
  ShapeResult r = honest();
  r.integrity.library_kernels = {"cuBLAS: nvjet_sm90_tst_128x64_64x8_1x2_h_bz_coopA_TNT"};
  expect_only(r, "library_kernels");
  EXPECT_NE(integrity_flags(r, {})[0].reason.find("cuBLAS: nvjet_sm90_tst_128x64"), std::string::npos);
}

TEST(Integrity, OutputConstant) {
  ShapeResult r = honest();
  r.integrity.output_constant = true;
  expect_only(r, "output_constant");
}

TEST(Integrity, OutputInputIndependent) {
  ShapeResult r = honest();
  r.integrity.output_input_independent = true;
  expect_only(r, "output_input_independent");
}

TEST(Integrity, IncompleteAtStreamSyncIsOffStream) {
  ShapeResult r = honest();
  r.integrity.incomplete_at_stream_sync = true;
  expect_only(r, "off_stream");
}

TEST(Integrity, OffStreamIsReportedOnceWhenBothChecksFire) {
  ShapeResult r = honest();
  r.integrity.incomplete_at_stream_sync = true;
  r.candidate = timing(0.005, 2.0);
  expect_only(r, "off_stream");
}

TEST(Integrity, WallClockCrossCheckCatchesSideStreamWork) {
  // The launch stream's events saw 5 us; the device-wide sync took 2 ms with a 10 us empty launch.
  EXPECT_TRUE(wall_clock_exceeds_events(timing(0.005, 2.0), 0.01));
  ShapeResult r = honest();
  r.candidate = timing(0.005, 2.0);
  r.integrity.empty_launch_wall_ms = 0.01;
  expect_only(r, "off_stream");
  EXPECT_NE(integrity_flags(r, {})[0].reason.find("2.0000"), std::string::npos)
      << integrity_flags(r, {})[0].reason;
}

TEST(Integrity, WallClockCrossCheckAcceptsHonestTimings) {
  EXPECT_FALSE(wall_clock_exceeds_events(timing(1.0, 1.03), 0.02));
  // A tiny kernel: wall time is mostly launch overhead, and 6 us of it is above the events' 4 us.
  EXPECT_FALSE(wall_clock_exceeds_events(timing(0.004, 0.018), 0.012));
  ShapeResult r = honest();
  r.candidate = timing(0.004, 0.018);
  r.integrity.empty_launch_wall_ms = 0.012;
  EXPECT_TRUE(integrity_flags(r, {}).empty());
}

TEST(Integrity, WallClockCrossCheckNeedsAMeasurement) {
  TimingResult t = timing(0.005, 2.0);
  t.measured = false;
  EXPECT_FALSE(wall_clock_exceeds_events(t, 0.01));
}

TEST(Integrity, WallClockCrossCheckScalesWithTheKernel) {
  // A 10 ms kernel with 12 ms of wall time is within 1.25x; 13 ms (a quarter of the work unseen) is not.
  EXPECT_FALSE(wall_clock_exceeds_events(timing(10.0, 12.0), 0.02));
  EXPECT_TRUE(wall_clock_exceeds_events(timing(10.0, 13.0), 0.02));
  // A third of the work on a side stream (wall 1.5x the events) passed the old 1.5x rule; it fails this one.
  EXPECT_TRUE(wall_clock_exceeds_events(timing(0.667, 1.02), 0.02));
}

TEST(Integrity, OffStreamRecordsFromCupti) {
  ShapeResult r = honest();
  r.integrity.device_activity = true;
  r.integrity.off_stream_records = 4;
  r.integrity.off_stream_example = "_Z11side_kernelv";
  expect_only(r, "off_stream");
  std::string reason = integrity_flags(r, {})[0].reason;
  EXPECT_NE(reason.find("4 piece(s)"), std::string::npos) << reason;
  EXPECT_NE(reason.find("_Z11side_kernelv"), std::string::npos) << reason;
}

TEST(Integrity, DeviceBusyCrossCheck) {
  // Events saw 1.0 ms; the device was busy 1.5 ms per call on every stream: a third of the work unseen.
  EXPECT_TRUE(device_busy_exceeds_events(timing(1.0, 1.03), 1.5));
  EXPECT_FALSE(device_busy_exceeds_events(timing(1.0, 1.03), 1.08));
  // A 4 us kernel: 5 us of slack absorbs what the records add around tiny kernels.
  EXPECT_FALSE(device_busy_exceeds_events(timing(0.004, 0.02), 0.0088));
  EXPECT_FALSE(device_busy_exceeds_events(TimingResult{}, 5.0));  // not measured
  ShapeResult r = honest();
  r.integrity.device_activity = true;
  r.integrity.device_busy_ms = 1.5;
  expect_only(r, "off_stream");
  EXPECT_NE(integrity_flags(r, {})[0].reason.find("1.5000"), std::string::npos);
  // Without CUPTI's records the busy time is not evidence.
  r.integrity.device_activity = false;
  EXPECT_TRUE(integrity_flags(r, {}).empty());
}

TEST(Integrity, RandomlyCheckedTimedRunThatFailsIsReverifyFailed) {
  ShapeResult r = honest();
  r.integrity.timed_checks = 10;
  r.integrity.timed_check_failures = 3;
  r.integrity.first_failed_check = 41;
  expect_only(r, "reverify_failed");
  std::string reason = integrity_flags(r, {})[0].reason;
  EXPECT_NE(reason.find("3 of 10"), std::string::npos) << reason;
  EXPECT_NE(reason.find("41"), std::string::npos) << reason;
}

TEST(Integrity, L2PersistenceDisqualifies) {
  ShapeResult r = honest();
  r.integrity.l2_persistence = "an access-policy window was set on the launch stream";
  expect_only(r, "l2_persistence");
  EXPECT_EQ(integrity_flags(r, {})[0].reason, r.integrity.l2_persistence);
}

TEST(Integrity, FasterThanSol) {
  ShapeResult r = honest();  // median 1.0 ms
  expect_only(r, "faster_than_sol", {.sol_floor_ms = 1.2});
  auto flags = integrity_flags(r, {.sol_floor_ms = 1.2});
  EXPECT_NE(flags[0].reason.find("1.2000"), std::string::npos) << flags[0].reason;
  EXPECT_TRUE(integrity_flags(r, {.sol_floor_ms = 0.8}).empty());
  EXPECT_TRUE(integrity_flags(r, {.sol_floor_ms = 0}).empty());  // 0: the floor is unknown
  r.candidate.measured = false;
  EXPECT_TRUE(integrity_flags(r, {.sol_floor_ms = 1.2}).empty());
}

TEST(Integrity, PrecisionChangeIsALabelNotADisqualification) {
  auto flags = integrity_flags(honest(), {.precision_change = true});
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].id, FlagId::precision_change);
  EXPECT_FALSE(disqualifies(flags[0].id));
  EXPECT_TRUE(counts(flags));

  // Beside a disqualifying flag it is still reported, and the result does not count.
  ShapeResult r = honest();
  r.integrity.output_constant = true;
  auto both = integrity_flags(r, {.precision_change = true});
  EXPECT_NE(find(both, "precision_change"), nullptr);
  EXPECT_NE(find(both, "output_constant"), nullptr);
  EXPECT_FALSE(counts(both));
}

TEST(Integrity, SeveralFlagsAtOnce) {
  ShapeResult r = honest();
  r.verify.pass = false;
  r.integrity.input_mutated = true;
  r.integrity.output_input_independent = true;
  auto flags = integrity_flags(r, {.sol_floor_ms = 2.0});
  for (const char* id : {"not_verified", "input_mutated", "output_input_independent", "faster_than_sol"})
    EXPECT_NE(find(flags, id), nullptr) << id;
  EXPECT_EQ(flags.size(), 4u) << ::testing::PrintToString(ids(flags));
}

TEST(Integrity, FasterThanSolFactors) {
  EXPECT_TRUE(faster_than_sol(0.99, 1.0, kEventTimeSolFactor));
  EXPECT_FALSE(faster_than_sol(1.0, 1.0, kEventTimeSolFactor));
  // The MSKB bench's CUPTI busy time is flagged only more than 5% below the floor.
  EXPECT_FALSE(faster_than_sol(0.96, 1.0, kBusyTimeSolFactor));
  EXPECT_TRUE(faster_than_sol(0.94, 1.0, kBusyTimeSolFactor));
  EXPECT_FALSE(faster_than_sol(0.5, 0, kEventTimeSolFactor));  // 0: the floor is unknown
}

TEST(Integrity, Counts) {
  EXPECT_TRUE(counts({}));
  EXPECT_TRUE(counts({{FlagId::precision_change, "r"}}));
  EXPECT_FALSE(counts({{FlagId::precision_change, "r"}, {FlagId::off_stream, "r"}}));
  EXPECT_FALSE(counts({{FlagId::not_verified, "r"}}));
}

}  // namespace
}  // namespace ucut
