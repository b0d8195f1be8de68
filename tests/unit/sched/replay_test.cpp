// tests/unit/sched/replay_test.cpp — replaying recorded runs (engine/sched/replay.h): fixed replays the whole
// recording, SOL policies stop early, and the scoring rules (no counting attempt, no baseline, fast share).
#include "engine/sched/replay.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ucut::sched {
namespace {

Outcome ok(double ms, double cost = 1) { return Outcome{true, ms, cost}; }
Outcome failed(double cost = 1) { return Outcome{false, 0, cost}; }

std::vector<RecordedProblem> recording() {
  return {
      {"gemm", 1.0, 4.0, {ok(2.0, 3), ok(1.05, 2), ok(1.04, 1), ok(1.03, 5)}},  // near SOL at the 2nd
      {"conv", 1.0, 2.0, {ok(1.5), ok(1.6), failed(), ok(1.4)}},                // stalls after the 1st
      {"softmax", 1.0, std::nullopt, {ok(3.0), ok(2.5)}},                       // no baseline
      {"broken", 1.0, 2.0, {failed(4), failed(4)}},                             // nothing ever counts
  };
}

const ReplayProblem& find(const ReplayResult& r, const std::string& id) {
  for (const ReplayProblem& p : r.problems)
    if (p.id == id) return p;
  throw std::runtime_error("no problem " + id);
}

TEST(SchedReplay, FixedReplaysTheWholeRecording) {
  std::vector<RecordedProblem> rec = recording();
  ReplayResult r = replay(rec, fixed_policy(40));
  double cost = 0;
  int attempts = 0;
  for (const RecordedProblem& p : rec) {
    attempts += static_cast<int>(p.attempts.size());
    for (const Outcome& o : p.attempts) cost += o.cost;
  }
  EXPECT_DOUBLE_EQ(r.cost, cost);
  EXPECT_EQ(r.attempts, attempts);
  ASSERT_EQ(r.problems.size(), rec.size());
  for (std::size_t i = 0; i < rec.size(); ++i) {
    EXPECT_EQ(r.problems[i].id, rec[i].id);
    EXPECT_EQ(r.problems[i].attempts, static_cast<int>(rec[i].attempts.size()));
    EXPECT_EQ(r.problems[i].left, LeaveReason::exhausted);
  }
  EXPECT_EQ(find(r, "gemm").best_ms, 1.03);
  EXPECT_EQ(find(r, "conv").best_ms, 1.4);
  EXPECT_DOUBLE_EQ(*find(r, "gemm").speedup, 4.0 / 1.03);
  EXPECT_DOUBLE_EQ(*find(r, "conv").speedup, 2.0 / 1.4);
}

TEST(SchedReplay, FixedStopsAtTheBudget) {
  ReplayResult r = replay(recording(), fixed_policy(2));
  EXPECT_EQ(r.attempts, 8);
  EXPECT_DOUBLE_EQ(r.cost, 5 + 2 + 2 + 8);
  for (const ReplayProblem& p : r.problems) EXPECT_EQ(p.left, LeaveReason::budget) << p.id;
  EXPECT_EQ(find(r, "gemm").best_ms, 1.05);
}

TEST(SchedReplay, SolPolicyStopsEarlyAndScores) {
  ReplayResult r = replay(recording(), sol_policy(0.1, 2, 40));
  const ReplayProblem& gemm = find(r, "gemm");
  EXPECT_EQ(gemm.left, LeaveReason::near_sol);
  EXPECT_EQ(gemm.attempts, 2);
  EXPECT_DOUBLE_EQ(gemm.cost, 5);
  EXPECT_DOUBLE_EQ(*gemm.speedup, 4.0 / 1.05);

  const ReplayProblem& conv = find(r, "conv");
  EXPECT_EQ(conv.left, LeaveReason::no_progress);
  EXPECT_EQ(conv.attempts, 3);
  EXPECT_DOUBLE_EQ(*conv.speedup, 2.0 / 1.5);

  const ReplayProblem& softmax = find(r, "softmax");  // no baseline: runs until its recording ends
  EXPECT_EQ(softmax.left, LeaveReason::exhausted);
  EXPECT_EQ(softmax.best_ms, 2.5);
  EXPECT_FALSE(softmax.speedup);

  const ReplayProblem& broken = find(r, "broken");  // no counting attempt: keeps the baseline
  EXPECT_EQ(broken.left, LeaveReason::exhausted);
  EXPECT_FALSE(broken.best_ms);
  EXPECT_DOUBLE_EQ(*broken.speedup, 1.0);

  EXPECT_EQ(r.attempts, 2 + 3 + 2 + 2);
  EXPECT_DOUBLE_EQ(r.cost, 5 + 3 + 2 + 8);
  EXPECT_EQ(r.scored, 3);
  EXPECT_DOUBLE_EQ(r.geomean_speedup, std::cbrt(4.0 / 1.05 * (2.0 / 1.5) * 1.0));
  EXPECT_DOUBLE_EQ(r.fast_share, 2.0 / 3.0);
  EXPECT_EQ(r.no_baseline, std::vector<std::string>{"softmax"});
  EXPECT_EQ(r.policy, sol_policy(0.1, 2, 40));
}

TEST(SchedReplay, SlowerThanBaselineCountsBelowOne) {
  ReplayResult r = replay({{"p", 1.0, 2.0, {ok(4.0)}}, {"q", 1.0, 2.0, {ok(1.0)}}}, fixed_policy(5));
  EXPECT_DOUBLE_EQ(*r.problems[0].speedup, 0.5);
  EXPECT_DOUBLE_EQ(r.geomean_speedup, 1.0);
  EXPECT_DOUBLE_EQ(r.fast_share, 0.5);
}

TEST(SchedReplay, FlaggedAttemptsNeverImproveBest) {
  // Flagged attempts carry their (too good to be true) time; none of it may reach t_best.
  ReplayResult r = replay({{"p", 1.0, 2.0, {Outcome{false, 0.01, 1}, ok(1.8), Outcome{false, 0.5, 1}}}},
                          sol_policy(0.1, 8, 40));
  EXPECT_EQ(r.problems[0].best_ms, 1.8);
  EXPECT_DOUBLE_EQ(*r.problems[0].speedup, 2.0 / 1.8);
}

TEST(SchedReplay, EmptyRecordingsAndEmptyWorkspace) {
  ReplayResult r = replay({{"p", 1.0, 2.0, {}}}, sol_policy(0.1, 8, 40));
  EXPECT_EQ(r.problems[0].left, LeaveReason::exhausted);
  EXPECT_EQ(r.problems[0].attempts, 0);
  EXPECT_DOUBLE_EQ(*r.problems[0].speedup, 1.0);

  ReplayResult none = replay({}, fixed_policy(3));
  EXPECT_EQ(none.scored, 0);
  EXPECT_DOUBLE_EQ(none.geomean_speedup, 1.0);
  EXPECT_DOUBLE_EQ(none.fast_share, 0.0);
}

TEST(SchedReplay, RejectsWhatTheSchedulerRejects) {
  EXPECT_THROW(replay(recording(), sol_policy(0.1, 0, 40)), std::invalid_argument);
  EXPECT_THROW(replay({{"p", 0.0, 2.0, {ok(1)}}}, fixed_policy(3)), std::invalid_argument);
}

}  // namespace
}  // namespace ucut::sched
