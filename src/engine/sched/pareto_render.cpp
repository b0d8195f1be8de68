// engine/sched/pareto_render.cpp — a GridResult as JSON (for tools) and as a Markdown table (for people).
#include <fmt/format.h>

#include <algorithm>

#include "engine/sched/pareto.h"

namespace ucut::sched {
namespace {

bool on_frontier(const GridResult& grid, std::size_t i) {
  return std::find(grid.frontier.begin(), grid.frontier.end(), i) != grid.frontier.end();
}

}  // namespace

nlohmann::json grid_to_json(const GridResult& grid) {
  nlohmann::json points = nlohmann::json::array();
  for (std::size_t i = 0; i < grid.points.size(); ++i) {
    const GridPoint& p = grid.points[i];
    nlohmann::json j = {{"policy", print_policy(p.policy)}};
    j["kind"] = p.policy.kind == Policy::Kind::fixed ? "fixed" : "sol";
    if (p.policy.kind == Policy::Kind::sol) {
      j["eps"] = p.policy.eps;
      j["window"] = p.policy.window;
    }
    j["cost"] = p.cost;
    j["attempts"] = p.attempts;
    j["geomean_speedup"] = p.geomean;
    j["fast_share"] = p.fast_share;
    j["pareto"] = on_frontier(grid, i);
    points.push_back(std::move(j));
  }
  nlohmann::json frontier = nlohmann::json::array();
  for (std::size_t i : grid.frontier) frontier.push_back(print_policy(grid.points[i].policy));
  nlohmann::json best = nullptr;
  if (grid.best)
    best = {{"policy", print_policy(grid.points[grid.best->point].policy)},
            {"gain", grid.best->gain},
            {"cost_saved_pct", grid.best->cost_saved_pct},
            {"retention", grid.best->retention}};
  nlohmann::json out;
  out["budget"] = grid.points.empty() ? 0 : grid.points.front().policy.budget;
  out["min_retention"] = grid.min_retention;
  out["points"] = std::move(points);
  out["frontier"] = std::move(frontier);
  out["best"] = std::move(best);
  return out;
}

std::string grid_to_markdown(const GridResult& grid) {
  std::string out = "| policy | cost | attempts | geomean speedup | fast_1 | Pareto |\n";
  out += "|---|---:|---:|---:|---:|:-:|\n";
  for (std::size_t i = 0; i < grid.points.size(); ++i) {
    const GridPoint& p = grid.points[i];
    out += fmt::format("| `{}` | {:.6g} | {} | {:.3f} | {:.1f}% | {} |\n", print_policy(p.policy), p.cost,
                       p.attempts, p.geomean, 100 * p.fast_share, on_frontier(grid, i) ? "✓" : "");
  }
  out += "\n";
  if (grid.best)
    out += fmt::format(
        "Best efficiency gain at ≥ {:.0f}% geomean retention: {:.2f}× with `{}` ({:.1f}% of the cost "
        "saved, {:.1f}% retained).\n",
        100 * grid.min_retention, grid.best->gain, print_policy(grid.points[grid.best->point].policy),
        grid.best->cost_saved_pct, 100 * grid.best->retention);
  else
    out += fmt::format("No SOL policy keeps ≥ {:.0f}% of the fixed policy's geomean speedup.\n",
                       100 * grid.min_retention);
  return out;
}

}  // namespace ucut::sched
