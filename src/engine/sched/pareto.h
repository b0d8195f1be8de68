// engine/sched/pareto.h — replays a recording under the fixed policy and an (eps, window) grid of SOL
// policies: the cost-vs-geomean-speedup points, their Pareto frontier and the best efficiency gain.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/sched/policy.h"
#include "engine/sched/replay.h"

namespace ucut::sched {

/// The share of the fixed policy's geomean speedup a policy must keep to be considered for the best gain.
inline constexpr double kMinRetention = 0.95;

/// One policy's totals after replay.
struct GridPoint {
  Policy policy;
  double cost = 0;
  int attempts = 0;
  double geomean = 1;  // geomean speedup over problems with a baseline
  double fast_share = 0;
};

/// gain = (g_policy / g_fixed) · (cost_fixed / cost_policy) for one point.
struct EfficiencyGain {
  std::size_t point = 0;  // index into GridResult::points
  double gain = 1;
  double cost_saved_pct = 0;  // 100 · (1 − cost_policy / cost_fixed)
  double retention = 1;       // g_policy / g_fixed
};

struct GridResult {
  std::vector<GridPoint> points;       // points[0] is fixed, then eps-major: (eps0,w0), (eps0,w1), …
  std::vector<std::size_t> frontier;   // indices into points, by cost ascending
  std::optional<EfficiencyGain> best;  // absent when no SOL point keeps min_retention
  double min_retention = kMinRetention;
};

/// Replays `fixed` and `sol:eps=e,window=w` for every e and w, all with `budget`. Throws
/// std::invalid_argument for an invalid eps, window or budget, or a recording the Scheduler rejects.
GridResult replay_grid(const std::vector<RecordedProblem>& recording, const std::vector<double>& eps_values,
                       const std::vector<int>& windows, int budget);

/// The points no other point dominates (≤ cost and ≥ geomean, one of them strictly), by cost ascending
/// (ties by index). Equal points do not dominate each other: all of them stay.
std::vector<std::size_t> pareto_frontier(const std::vector<GridPoint>& points);

/// The highest gain among points other than `fixed` with geomean ≥ min_retention · g_fixed and a positive
/// cost; ties go to the lower cost, then the lower index. nullopt when none qualifies.
std::optional<EfficiencyGain> best_efficiency_gain(const std::vector<GridPoint>& points, std::size_t fixed,
                                                   double min_retention = kMinRetention);

/// {"budget", "min_retention", "points": [{policy, kind, eps?, window?, cost, attempts, geomean_speedup,
/// fast_share, pareto}], "frontier": [policy…], "best": {policy, gain, cost_saved_pct, retention} | null}.
nlohmann::json grid_to_json(const GridResult& grid);

/// A Markdown table of every point (frontier points marked) and a line on the best gain.
std::string grid_to_markdown(const GridResult& grid);

}  // namespace ucut::sched
