// engine/sched/pareto.cpp — the policy grid replay, its Pareto frontier and the best efficiency gain.
#include "engine/sched/pareto.h"

#include <algorithm>
#include <stdexcept>

namespace ucut::sched {
namespace {

GridPoint point_of(const ReplayResult& r) {
  return GridPoint{r.policy, r.cost, r.attempts, r.geomean_speedup, r.fast_share};
}

bool dominates(const GridPoint& a, const GridPoint& b) {
  return a.cost <= b.cost && a.geomean >= b.geomean && (a.cost < b.cost || a.geomean > b.geomean);
}

}  // namespace

GridResult replay_grid(const std::vector<RecordedProblem>& recording, const std::vector<double>& eps_values,
                       const std::vector<int>& windows, int budget) {
  GridResult grid;
  grid.points.push_back(point_of(replay(recording, fixed_policy(budget))));
  for (double eps : eps_values)
    for (int window : windows)
      grid.points.push_back(point_of(replay(recording, sol_policy(eps, window, budget))));
  grid.frontier = pareto_frontier(grid.points);
  grid.best = best_efficiency_gain(grid.points, 0, grid.min_retention);
  return grid;
}

std::vector<std::size_t> pareto_frontier(const std::vector<GridPoint>& points) {
  std::vector<std::size_t> frontier;
  for (std::size_t i = 0; i < points.size(); ++i) {
    bool dominated = std::any_of(points.begin(), points.end(),
                                 [&](const GridPoint& q) { return dominates(q, points[i]); });
    if (!dominated) frontier.push_back(i);
  }
  std::stable_sort(frontier.begin(), frontier.end(),
                   [&](std::size_t a, std::size_t b) { return points[a].cost < points[b].cost; });
  return frontier;
}

std::optional<EfficiencyGain> best_efficiency_gain(const std::vector<GridPoint>& points, std::size_t fixed,
                                                   double min_retention) {
  if (fixed >= points.size()) throw std::invalid_argument("best_efficiency_gain: fixed index out of range");
  const GridPoint& f = points[fixed];
  std::optional<EfficiencyGain> best;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const GridPoint& p = points[i];
    if (i == fixed || p.cost <= 0 || p.geomean < min_retention * f.geomean) continue;
    double retention = p.geomean / f.geomean;
    EfficiencyGain g{i, retention * (f.cost / p.cost), 100 * (1 - p.cost / f.cost), retention};
    if (!best || g.gain > best->gain || (g.gain == best->gain && p.cost < points[best->point].cost)) best = g;
  }
  return best;
}

}  // namespace ucut::sched
