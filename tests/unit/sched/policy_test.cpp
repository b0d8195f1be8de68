// tests/unit/sched/policy_test.cpp — scheduler policies (engine/sched/policy.h): print/parse round trip,
// defaults, and the text of every parse and validation error.
#include "engine/sched/policy.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ucut::sched {
namespace {

std::string parse_error(std::string_view text, int budget = 40) {
  std::string error;
  EXPECT_FALSE(parse_policy(text, budget, &error)) << text;
  return error;
}

TEST(SchedPolicy, Prints) {
  EXPECT_EQ(print_policy(fixed_policy(40)), "fixed");
  EXPECT_EQ(print_policy(sol_policy(0.1, 8, 40)), "sol:eps=0.1,window=8");
  EXPECT_EQ(print_policy(sol_policy(0, 1, 5)), "sol:eps=0,window=1");
  EXPECT_EQ(print_policy(sol_policy(0.025, 16, 5)), "sol:eps=0.025,window=16");
}

TEST(SchedPolicy, ParsePrintRoundTrip) {
  for (const Policy& p : {fixed_policy(40), sol_policy(0.1, 8, 40), sol_policy(0, 1, 1),
                          sol_policy(0.3333, 3, 12), sol_policy(1e-9, 100, 7)}) {
    std::string error;
    std::optional<Policy> back = parse_policy(print_policy(p), p.budget, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(*back, p) << print_policy(p);
  }
  for (std::string_view text :
       {"fixed", "sol:eps=0.1,window=8", "sol:eps=0,window=1", "sol:eps=0.05,window=16"}) {
    std::string error;
    std::optional<Policy> p = parse_policy(text, 40, &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(print_policy(*p), text);
  }
}

TEST(SchedPolicy, ParseTakesBudgetKeysInAnyOrderAndDefaults) {
  std::string error;
  std::optional<Policy> p = parse_policy("sol:window=3,eps=0.2", 12, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(*p, sol_policy(0.2, 3, 12));

  p = parse_policy("sol", 40, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(*p, sol_policy(0.1, 8, 40));

  p = parse_policy("sol:eps=0.5", 40, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(*p, sol_policy(0.5, 8, 40));

  p = parse_policy("fixed", 9, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->kind, Policy::Kind::fixed);
  EXPECT_EQ(p->budget, 9);
}

TEST(SchedPolicy, ParseErrors) {
  EXPECT_EQ(parse_error("greedy"), "unknown policy `greedy`; expected `fixed` or `sol:eps=E,window=W`");
  EXPECT_EQ(parse_error(""), "unknown policy ``; expected `fixed` or `sol:eps=E,window=W`");
  EXPECT_EQ(parse_error("fixed:eps=1"), "policy `fixed:eps=1`: `fixed` takes no parameters");
  EXPECT_EQ(parse_error("sol:"), "policy `sol:`: expected `key=value` after `:`");
  EXPECT_EQ(parse_error("sol:eps"), "policy `sol:eps`: expected `key=value`, got `eps`");
  EXPECT_EQ(parse_error("sol:eps=abc"), "policy `sol:eps=abc`: `eps` must be a number, got `abc`");
  EXPECT_EQ(parse_error("sol:eps="), "policy `sol:eps=`: `eps` must be a number, got ``");
  EXPECT_EQ(parse_error("sol:window=2.5"), "policy `sol:window=2.5`: `window` must be an integer, got `2.5`");
  EXPECT_EQ(parse_error("sol:foo=1"), "policy `sol:foo=1`: unknown key `foo`; expected `eps` or `window`");
  EXPECT_EQ(parse_error("sol:eps=0.1,eps=0.2"), "policy `sol:eps=0.1,eps=0.2`: `eps` given twice");
  EXPECT_EQ(parse_error("sol:window=1,window=2"), "policy `sol:window=1,window=2`: `window` given twice");
  EXPECT_EQ(parse_error("sol:eps=0.1,"), "policy `sol:eps=0.1,`: trailing `,`");
}

TEST(SchedPolicy, ValidationErrors) {
  EXPECT_EQ(parse_error("sol:eps=-0.1"), "policy `eps` must be a finite number ≥ 0, got `-0.1`");
  EXPECT_EQ(parse_error("sol:eps=inf"), "policy `eps` must be a finite number ≥ 0, got `inf`");
  EXPECT_EQ(parse_error("sol:window=0"), "policy `window` must be at least 1, got `0`");
  EXPECT_EQ(parse_error("fixed", 0), "policy budget must be at least 1, got `0`");
  EXPECT_EQ(parse_error("sol", -3), "policy budget must be at least 1, got `-3`");

  std::string error;
  EXPECT_FALSE(validate_policy(sol_policy(NAN, 8, 40), &error));
  EXPECT_EQ(error, "policy `eps` must be a finite number ≥ 0, got `nan`");
  EXPECT_TRUE(validate_policy(sol_policy(0, 1, 1), &error));
  // eps and window mean nothing to a fixed policy.
  Policy fixed = fixed_policy(3);
  fixed.eps = -1;
  fixed.window = 0;
  EXPECT_TRUE(validate_policy(fixed, &error));
}

}  // namespace
}  // namespace ucut::sched
