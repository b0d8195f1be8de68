// tests/unit/sched/scheduler_test.cpp — the live scheduler (engine/sched/scheduler.h): round-robin turns,
// every leave rule, the budget cap, flagged attempts, input checks and resuming from recorded outcomes.
#include "engine/sched/scheduler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>

namespace ucut::sched {
namespace {

Outcome ok(double ms, double cost = 1) { return Outcome{true, ms, cost}; }
Outcome failed(double cost = 1) { return Outcome{false, 0, cost}; }

std::vector<ProblemBounds> abc() { return {{"a", 1.0, 10.0}, {"b", 1.0, 10.0}, {"c", 1.0, 10.0}}; }

// Calls next() and records `outcome` for it until done; returns the ids in turn order.
template <typename F>
std::vector<std::string> run_all(Scheduler& s, F outcome) {
  std::vector<std::string> order;
  while (std::optional<std::string> id = s.next()) {
    order.push_back(*id);
    s.record(*id, outcome(*id, s.state(*id).attempts));
  }
  return order;
}

TEST(SchedScheduler, RoundRobinInConstructionOrder) {
  Scheduler s(fixed_policy(2), abc());
  EXPECT_EQ(run_all(s, [](const std::string&, int) { return ok(5); }),
            (std::vector<std::string>{"a", "b", "c", "a", "b", "c"}));
  EXPECT_TRUE(s.done());
  EXPECT_FALSE(s.next());
  EXPECT_EQ(s.total_attempts(), 6);
  EXPECT_DOUBLE_EQ(s.total_cost(), 6);
}

TEST(SchedScheduler, NextNamesTheTurnWithoutTakingIt) {
  Scheduler s(fixed_policy(2), abc());
  EXPECT_EQ(s.next(), "a");
  EXPECT_EQ(s.next(), "a");
  s.record("a", ok(5));
  EXPECT_EQ(s.next(), "b");
  // Recording out of turn passes the turn to the problem after the one recorded.
  s.record("c", ok(5));
  EXPECT_EQ(s.next(), "a");
}

TEST(SchedScheduler, SkipsProblemsThatLeft) {
  Scheduler s(sol_policy(0.1, 8, 3), abc());
  std::vector<std::string> order =
      run_all(s, [](const std::string& id, int) { return ok(id == "b" ? 1.05 : 5); });
  EXPECT_EQ(order, (std::vector<std::string>{"a", "b", "c", "a", "c", "a", "c"}));
  EXPECT_EQ(s.state("b").left, LeaveReason::near_sol);
  EXPECT_EQ(s.state("a").left, LeaveReason::budget);
  EXPECT_EQ(s.state("c").left, LeaveReason::budget);
}

TEST(SchedScheduler, LastActiveProblemKeepsTheTurn) {
  Scheduler s(fixed_policy(3), {{"a", 1.0, 10.0}, {"b", 1.0, 10.0}});
  s.exhaust("a");
  EXPECT_EQ(s.next(), "b");
  s.record("b", ok(5));
  EXPECT_EQ(s.next(), "b");
}

TEST(SchedScheduler, LeavesNearSol) {
  Scheduler s(sol_policy(0.1, 8, 40), {{"p", 1.0, 2.0}});
  s.record("p", ok(1.5));  // beats the baseline, not within 10% of SOL
  EXPECT_TRUE(s.state("p").active());
  s.record("p", ok(1.1));  // exactly (1+eps)·t_SOL
  EXPECT_EQ(s.state("p").left, LeaveReason::near_sol);
  EXPECT_EQ(s.state("p").attempts, 2);
  EXPECT_EQ(s.state("p").best_ms, 1.1);
}

TEST(SchedScheduler, NearSolAlsoNeedsToBeatTheBaseline) {
  // The baseline is already within 20% of SOL: reaching SOL territory without beating it is not enough.
  Scheduler s(sol_policy(0.2, 8, 3), {{"p", 1.0, 1.0}});
  s.record("p", ok(1.05));
  s.record("p", ok(1.0));  // equal to the baseline does not beat it
  EXPECT_TRUE(s.state("p").active());
  s.record("p", ok(1.02));
  EXPECT_EQ(s.state("p").left, LeaveReason::budget);
}

TEST(SchedScheduler, LeavesNoProgressAfterWindowOnceBaselineIsBeaten) {
  Scheduler s(sol_policy(0.1, 3, 40), {{"p", 1.0, 2.0}});
  s.record("p", ok(3.0));
  for (int i = 0; i < 5; ++i) s.record("p", ok(3.5));  // no progress, but the baseline is not beaten yet
  EXPECT_TRUE(s.state("p").active());
  EXPECT_EQ(s.state("p").since_improvement, 5);
  s.record("p", ok(1.5));  // beats the baseline: the window starts here
  EXPECT_EQ(s.state("p").since_improvement, 0);
  s.record("p", ok(1.6));
  s.record("p", failed());
  EXPECT_TRUE(s.state("p").active());
  s.record("p", ok(1.5));  // equal is no improvement
  EXPECT_EQ(s.state("p").left, LeaveReason::no_progress);
  EXPECT_EQ(s.state("p").attempts, 10);
  EXPECT_EQ(s.state("p").best_ms, 1.5);
}

TEST(SchedScheduler, ImprovementRestartsTheWindow) {
  Scheduler s(sol_policy(0.0, 2, 40), {{"p", 1.0, 2.0}});
  for (double ms : {1.9, 2.5, 1.8, 2.5, 1.7}) s.record("p", ok(ms));
  EXPECT_TRUE(s.state("p").active());
  s.record("p", ok(2.5));
  s.record("p", ok(2.5));
  EXPECT_EQ(s.state("p").left, LeaveReason::no_progress);
}

TEST(SchedScheduler, BudgetCapsEveryPolicy) {
  for (const Policy& policy : {fixed_policy(3), sol_policy(0.1, 2, 3)}) {
    // Never beats the baseline, so only the budget can stop it.
    Scheduler s(policy, {{"p", 1.0, 2.0}});
    std::vector<std::string> order = run_all(s, [](const std::string&, int k) { return ok(5.0 - k, 0.5); });
    EXPECT_EQ(order.size(), 3u) << print_policy(policy);
    EXPECT_EQ(s.state("p").left, LeaveReason::budget);
    EXPECT_DOUBLE_EQ(s.state("p").cost, 1.5);
    EXPECT_EQ(s.state("p").best_ms, 3.0);
  }
}

TEST(SchedScheduler, FixedSpendsTheBudgetEvenAtSol) {
  Scheduler s(fixed_policy(4), {{"p", 1.0, 2.0}});
  EXPECT_EQ(run_all(s, [](const std::string&, int) { return ok(1.0); }).size(), 4u);
  EXPECT_EQ(s.state("p").left, LeaveReason::budget);
}

TEST(SchedScheduler, NearSolWinsOverBudgetOnTheLastAttempt) {
  Scheduler s(sol_policy(0.1, 8, 2), {{"p", 1.0, 2.0}});
  s.record("p", ok(1.5));
  s.record("p", ok(1.05));
  EXPECT_EQ(s.state("p").left, LeaveReason::near_sol);
}

TEST(SchedScheduler, WithoutBaselineLeavesOnlyByBudgetOrExhausted) {
  Scheduler s(sol_policy(0.5, 1, 5), {{"p", 1.0, std::nullopt}, {"q", 1.0, std::nullopt}});
  run_all(s, [](const std::string&, int) { return ok(1.0); });  // at SOL, never improving after the first
  EXPECT_EQ(s.state("p").left, LeaveReason::budget);
  EXPECT_EQ(s.state("p").attempts, 5);
  EXPECT_FALSE(s.state("p").beats_baseline());

  Scheduler t(sol_policy(0.5, 1, 5), {{"p", 1.0, std::nullopt}});
  t.record("p", ok(1.0));
  t.exhaust("p");
  EXPECT_EQ(t.state("p").left, LeaveReason::exhausted);
}

TEST(SchedScheduler, FailedAttemptsNeverImproveBest) {
  Scheduler s(sol_policy(0.1, 8, 40), {{"p", 1.0, 2.0}});
  s.record("p", Outcome{false, 0.001, 2});  // flagged: faster than SOL, must not count
  EXPECT_FALSE(s.state("p").best_ms);
  EXPECT_TRUE(s.state("p").active());
  s.record("p", ok(1.8));
  s.record("p", Outcome{false, 1.0, 2});
  EXPECT_EQ(s.state("p").best_ms, 1.8);
  EXPECT_EQ(s.state("p").attempts, 3);
  EXPECT_DOUBLE_EQ(s.state("p").cost, 5);
  EXPECT_EQ(s.state("p").since_improvement, 1);
  EXPECT_TRUE(s.state("p").active());
}

TEST(SchedScheduler, RejectsBadInput) {
  EXPECT_THROW(Scheduler(sol_policy(-1, 8, 40), abc()), std::invalid_argument);
  EXPECT_THROW(Scheduler(fixed_policy(0), abc()), std::invalid_argument);
  EXPECT_THROW(Scheduler(fixed_policy(1), {{"a", 1.0, 2.0}, {"a", 1.0, 2.0}}), std::invalid_argument);
  EXPECT_THROW(Scheduler(fixed_policy(1), {{"", 1.0, 2.0}}), std::invalid_argument);
  EXPECT_THROW(Scheduler(fixed_policy(1), {{"a", 0.0, 2.0}}), std::invalid_argument);
  EXPECT_THROW(Scheduler(fixed_policy(1), {{"a", 1.0, -2.0}}), std::invalid_argument);

  Scheduler s(fixed_policy(1), abc());
  EXPECT_THROW(s.record("z", ok(1)), std::invalid_argument);
  EXPECT_THROW(s.state("z"), std::invalid_argument);
  EXPECT_THROW(s.record("a", ok(0)), std::invalid_argument);
  EXPECT_THROW(s.record("a", ok(NAN)), std::invalid_argument);
  EXPECT_THROW(s.record("a", ok(1, -1)), std::invalid_argument);
  EXPECT_EQ(s.state("a").attempts, 0);  // rejected outcomes change nothing
  s.record("a", ok(1));
  try {
    s.record("a", ok(1));
    FAIL() << "recorded an attempt for a problem that left";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "scheduler: cannot record an attempt for problem `a`: it has left (budget)");
  }
  EXPECT_THROW(s.exhaust("a"), std::invalid_argument);
}

// A deterministic stream of outcomes that exercises every leave rule.
Outcome scripted(const std::string& id, int k) {
  if (id == "fast") return ok(k < 2 ? 3.0 - k : 1.05);             // near_sol on attempt 3
  if (id == "stuck") return k % 3 == 2 ? failed(2) : ok(1.5 + k);  // beats 2.0 once, then no progress
  if (id == "nobase") return ok(1.0 + 1.0 / (k + 1));              // improves every time: budget
  return ok(9.0);                                                  // "slow": never beats, budget
}

TEST(SchedScheduler, ResumingFromRecordedOutcomesReproducesStateAndContinuesIdentically) {
  const std::vector<ProblemBounds> problems = {
      {"fast", 1.0, 4.0}, {"stuck", 1.0, 2.0}, {"nobase", 1.0, std::nullopt}, {"slow", 1.0, 3.0}};
  const Policy policy = sol_policy(0.1, 2, 6);

  Scheduler live(policy, problems);
  std::vector<std::pair<std::string, Outcome>> log;  // what the workspace would have stored
  for (int step = 0; step < 7; ++step) {
    std::string id = *live.next();
    Outcome o = scripted(id, live.state(id).attempts);
    live.record(id, o);
    log.emplace_back(id, o);
  }

  Scheduler resumed(policy, problems);
  for (const auto& [id, o] : log) resumed.record(id, o);
  EXPECT_EQ(resumed.problems(), live.problems());
  EXPECT_EQ(resumed.next(), live.next());

  std::vector<std::string> rest_live = run_all(live, scripted);
  std::vector<std::string> rest_resumed = run_all(resumed, scripted);
  EXPECT_EQ(rest_resumed, rest_live);
  EXPECT_EQ(resumed.problems(), live.problems());
  EXPECT_EQ(live.state("fast").left, LeaveReason::near_sol);
  EXPECT_EQ(live.state("stuck").left, LeaveReason::no_progress);
  EXPECT_EQ(live.state("nobase").left, LeaveReason::budget);
  EXPECT_EQ(live.state("slow").left, LeaveReason::budget);
}

TEST(SchedScheduler, LeaveReasonNames) {
  EXPECT_EQ(leave_reason_name(LeaveReason::budget), "budget");
  EXPECT_EQ(leave_reason_name(LeaveReason::near_sol), "near_sol");
  EXPECT_EQ(leave_reason_name(LeaveReason::no_progress), "no_progress");
  EXPECT_EQ(leave_reason_name(LeaveReason::exhausted), "exhausted");
}

}  // namespace
}  // namespace ucut::sched
