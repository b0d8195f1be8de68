// tests/unit/sched/model_budget_test.cpp — the run's model budget in the scheduler
// (engine/sched/scheduler.h): spend() charges calls, not attempts; reaching the token or USD cap retires
// every active problem at once with `model_budget`, a left problem may still be charged, and the policy
// rejects a budget that is not positive.
#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/sched/scheduler.h"

namespace ucut::sched {
namespace {

std::vector<ProblemBounds> two() { return {{"a", 1.0, 10.0}, {"b", 1.0, 10.0}}; }

Policy capped(std::optional<int64_t> tokens, std::optional<double> usd) {
  Policy p = fixed_policy(5);
  p.token_budget = tokens;
  p.usd_budget = usd;
  return p;
}

TEST(SchedModelBudget, ReachingTheTokenBudgetRetiresEveryActiveProblem) {
  Scheduler s(capped(1000, std::nullopt), two());
  s.spend("a", 600, 0.01);
  EXPECT_EQ(s.model_budget_spent(), "");
  EXPECT_EQ(s.model_budget_spent(400), "the run's token budget is spent: 1000 of 1000 tokens");
  EXPECT_EQ(s.state("a").attempts, 0);  // spending is not an attempt
  s.record("b", {true, 5, 1});
  s.spend("b", 400, 0.01);
  EXPECT_EQ(s.state("a").left, LeaveReason::model_budget);
  EXPECT_EQ(s.state("b").left, LeaveReason::model_budget);
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.total_tokens(), 1000);
  EXPECT_EQ(s.state("b").tokens, 400);
  s.spend("a", 10, 0);  // a call made before it left
  EXPECT_EQ(s.model_budget_spent(), "the run's token budget is spent: 1010 of 1000 tokens");
  EXPECT_EQ(leave_reason_name(LeaveReason::model_budget), "model_budget");
}

TEST(SchedModelBudget, AProblemThatLeftEarlierKeepsItsReason) {
  Scheduler s(capped(std::nullopt, 0.5), two());
  s.exhaust("a");
  s.spend("b", 10, 0.5);
  EXPECT_EQ(s.state("a").left, LeaveReason::exhausted);
  EXPECT_EQ(s.state("b").left, LeaveReason::model_budget);
  EXPECT_EQ(s.model_budget_spent(), "the run's USD budget is spent: $0.5000 of $0.5000");
}

TEST(SchedModelBudget, WithoutABudgetSpendingNeverRetires) {
  Scheduler s(fixed_policy(5), two());
  s.spend("a", 1'000'000'000, 1e6);
  EXPECT_EQ(s.model_budget_spent(), "");
  EXPECT_TRUE(s.state("a").active());
  EXPECT_THROW(s.spend("a", -1, 0), std::invalid_argument);
  EXPECT_THROW(s.spend("c", 1, 0), std::invalid_argument);
}

TEST(SchedModelBudget, ThePolicyRejectsABudgetThatIsNotPositive) {
  std::string error;
  EXPECT_FALSE(validate_policy(capped(0, std::nullopt), &error));
  EXPECT_EQ(error, "token budget must be at least 1, got `0`");
  EXPECT_FALSE(validate_policy(capped(std::nullopt, 0.0), &error));
  EXPECT_EQ(error, "USD budget must be a finite number > 0, got `0`");
  EXPECT_TRUE(validate_policy(capped(1, 0.01), &error));
}

}  // namespace
}  // namespace ucut::sched
