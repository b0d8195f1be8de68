// tests/unit/sched/pareto_test.cpp — the policy grid (engine/sched/pareto.h): Pareto frontier and efficiency
// gain on hand-computed points, a whole grid replay checked by hand, determinism and the two renderings.
#include "engine/sched/pareto.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ucut::sched {
namespace {

GridPoint point(double cost, double geomean, Policy policy = sol_policy(0.1, 8, 40)) {
  return GridPoint{policy, cost, 0, geomean, 0};
}

TEST(SchedPareto, FrontierOnHandComputedPoints) {
  std::vector<GridPoint> points = {
      point(100, 1.50, fixed_policy(40)),  // 0: the most expensive, the best geomean: on the frontier
      point(60, 1.48),                     // 1: frontier
      point(60, 1.40),                     // 2: same cost as 1, worse
      point(40, 1.30),                     // 3: frontier
      point(80, 1.45),                     // 4: dominated by 1 (cheaper and better)
      point(40, 1.30),                     // 5: equal to 3: neither dominates, both stay
      point(30, 1.10),                     // 6: frontier, the cheapest
      point(100, 1.49),                    // 7: same cost as 0, worse
  };
  EXPECT_EQ(pareto_frontier(points), (std::vector<std::size_t>{6, 3, 5, 1, 0}));
  EXPECT_TRUE(pareto_frontier({}).empty());
}

TEST(SchedPareto, EfficiencyGainFormulaAndRetentionCut) {
  std::vector<GridPoint> points = {
      point(100, 2.0, fixed_policy(40)),
      point(50, 1.898),  // would gain 1.898, but keeps only 94.9% of the geomean: cut
      point(70, 1.96),   // 0.98 · 100/70 = 1.4
      point(61, 1.902),  // 0.951 · 100/61 ≈ 1.559: the best
      point(80, 1.99),   // 0.995 · 100/80 = 1.24375
      point(0, 2.0),     // no cost: no gain defined
  };
  std::optional<EfficiencyGain> best = best_efficiency_gain(points, 0);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->point, 3u);
  EXPECT_DOUBLE_EQ(best->gain, (1.902 / 2.0) * (100.0 / 61.0));
  EXPECT_DOUBLE_EQ(best->cost_saved_pct, 39.0);
  EXPECT_DOUBLE_EQ(best->retention, 0.951);

  // A looser cut lets the cheaper point in.
  best = best_efficiency_gain(points, 0, 0.9);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->point, 1u);
  EXPECT_DOUBLE_EQ(best->gain, 1.898 / 2.0 * 2.0);

  // Nothing keeps 95%: no gain; the fixed point itself never counts.
  EXPECT_FALSE(best_efficiency_gain({point(100, 2.0, fixed_policy(40)), point(50, 1.8)}, 0));
  EXPECT_FALSE(best_efficiency_gain({point(100, 2.0, fixed_policy(40))}, 0));
}

TEST(SchedPareto, EqualGainsGoToTheCheaperPoint) {
  // Every point gains exactly 1.25 and keeps at least half of the geomean.
  std::vector<GridPoint> points = {point(100, 2.0, fixed_policy(40)), point(80, 2.0), point(40, 1.0),
                                   point(50, 1.25)};
  std::optional<EfficiencyGain> best = best_efficiency_gain(points, 0, 0.5);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->point, 2u);
  EXPECT_DOUBLE_EQ(best->gain, 1.25);
}

Outcome ok(double ms) { return Outcome{true, ms, 1}; }

// Hand-worked (budget 4, unit cost):
//   p1 (SOL 1, baseline 4): 2.0 1.05 1.04 1.03  — near SOL at the 2nd attempt when eps = 0.1, never when 0.01
//   p2 (SOL 1, baseline 2): 1.5 1.6 1.7 1.4     — no progress after the 3rd when window = 2, never when 4
std::vector<RecordedProblem> two_problems() {
  return {{"p1", 1.0, 4.0, {ok(2.0), ok(1.05), ok(1.04), ok(1.03)}},
          {"p2", 1.0, 2.0, {ok(1.5), ok(1.6), ok(1.7), ok(1.4)}}};
}

TEST(SchedPareto, GridReplayOnAHandComputedRecording) {
  GridResult grid = replay_grid(two_problems(), {0.1, 0.01}, {2, 4}, 4);
  ASSERT_EQ(grid.points.size(), 5u);
  const double g_fixed = std::sqrt(4 / 1.03 * (2 / 1.4));
  struct Expected {
    Policy policy;
    double cost, geomean;
  };
  const std::vector<Expected> expected = {
      {fixed_policy(4), 8, g_fixed},
      {sol_policy(0.1, 2, 4), 5, std::sqrt(4 / 1.05 * (2 / 1.5))},
      {sol_policy(0.1, 4, 4), 6, std::sqrt(4 / 1.05 * (2 / 1.4))},
      {sol_policy(0.01, 2, 4), 7, std::sqrt(4 / 1.03 * (2 / 1.5))},
      {sol_policy(0.01, 4, 4), 8, g_fixed},
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(grid.points[i].policy, expected[i].policy) << i;
    EXPECT_DOUBLE_EQ(grid.points[i].cost, expected[i].cost) << i;
    EXPECT_EQ(grid.points[i].attempts, static_cast<int>(expected[i].cost)) << i;
    EXPECT_DOUBLE_EQ(grid.points[i].geomean, expected[i].geomean) << i;
    EXPECT_DOUBLE_EQ(grid.points[i].fast_share, 1.0) << i;
  }
  // (0.01, 2) costs more than (0.1, 4) and keeps less; the fixed point and its equal (0.01, 4) both stay.
  EXPECT_EQ(grid.frontier, (std::vector<std::size_t>{1, 2, 0, 4}));
  ASSERT_TRUE(grid.best);
  EXPECT_EQ(grid.best->point, 1u);
  const double retention = expected[1].geomean / g_fixed;  // ≈ 0.957
  EXPECT_GE(retention, 0.95);
  EXPECT_DOUBLE_EQ(grid.best->retention, retention);
  EXPECT_DOUBLE_EQ(grid.best->gain, retention * 8 / 5);
  EXPECT_DOUBLE_EQ(grid.best->cost_saved_pct, 37.5);
}

TEST(SchedPareto, SameInputSameJson) {
  std::string first = grid_to_json(replay_grid(two_problems(), {0.1, 0.01, 0.3}, {1, 2, 4}, 4)).dump(2);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(grid_to_json(replay_grid(two_problems(), {0.1, 0.01, 0.3}, {1, 2, 4}, 4)).dump(2), first);
  EXPECT_EQ(grid_to_markdown(replay_grid(two_problems(), {0.1}, {2}, 4)),
            grid_to_markdown(replay_grid(two_problems(), {0.1}, {2}, 4)));
}

TEST(SchedPareto, Json) {
  nlohmann::json j = grid_to_json(replay_grid(two_problems(), {0.1}, {2}, 4));
  EXPECT_EQ(j["budget"], 4);
  EXPECT_DOUBLE_EQ(j["min_retention"].get<double>(), 0.95);
  ASSERT_EQ(j["points"].size(), 2u);
  EXPECT_EQ(j["points"][0]["policy"], "fixed");
  EXPECT_EQ(j["points"][0]["kind"], "fixed");
  EXPECT_FALSE(j["points"][0].contains("eps"));
  EXPECT_EQ(j["points"][1]["policy"], "sol:eps=0.1,window=2");
  EXPECT_EQ(j["points"][1]["eps"], 0.1);
  EXPECT_EQ(j["points"][1]["window"], 2);
  EXPECT_EQ(j["points"][1]["cost"], 5.0);
  EXPECT_EQ(j["points"][1]["attempts"], 5);
  EXPECT_EQ(j["points"][1]["pareto"], true);
  EXPECT_EQ(j["frontier"], (nlohmann::json{"sol:eps=0.1,window=2", "fixed"}));
  EXPECT_EQ(j["best"]["policy"], "sol:eps=0.1,window=2");
  EXPECT_DOUBLE_EQ(j["best"]["cost_saved_pct"].get<double>(), 37.5);

  EXPECT_TRUE(grid_to_json(replay_grid(two_problems(), {}, {}, 4))["best"].is_null());
}

TEST(SchedPareto, Markdown) {
  EXPECT_EQ(
      grid_to_markdown(replay_grid(two_problems(), {0.1}, {2}, 4)),
      "| policy | cost | attempts | geomean speedup | fast_1 | Pareto |\n"
      "|---|---:|---:|---:|---:|:-:|\n"
      "| `fixed` | 8 | 8 | 2.355 | 100.0% | ✓ |\n"
      "| `sol:eps=0.1,window=2` | 5 | 5 | 2.254 | 100.0% | ✓ |\n"
      "\n"
      "Best efficiency gain at ≥ 95% geomean retention: 1.53× with `sol:eps=0.1,window=2` (37.5% of the cost "
      "saved, 95.7% retained).\n");
  EXPECT_EQ(grid_to_markdown(replay_grid(two_problems(), {}, {}, 4)),
            "| policy | cost | attempts | geomean speedup | fast_1 | Pareto |\n"
            "|---|---:|---:|---:|---:|:-:|\n"
            "| `fixed` | 8 | 8 | 2.355 | 100.0% | ✓ |\n"
            "\n"
            "No SOL policy keeps ≥ 95% of the fixed policy's geomean speedup.\n");
}

TEST(SchedPareto, RejectsInvalidGridValues) {
  EXPECT_THROW(replay_grid(two_problems(), {-0.1}, {2}, 4), std::invalid_argument);
  EXPECT_THROW(replay_grid(two_problems(), {0.1}, {0}, 4), std::invalid_argument);
  EXPECT_THROW(replay_grid(two_problems(), {0.1}, {2}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace ucut::sched
