// report/repeats.h — the spread of repeated runs of one configuration: the same problems optimized several times
// into separate workspaces (another `--seed`, or an ablation run again). Per repeat its integrity-filtered geomean,
// fast_1 and attempts; across the repeats their mean, standard deviation and coefficient of variation, for the
// whole set and per problem, so an ablation's difference can be told from run-to-run noise.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/stats.h"
#include "report/workspace_report.h"

namespace ucut::report {

struct RepeatRow {
  std::string workspace;
  double geomean = 1;  // integrity-filtered, over the problems with a baseline
  double fast_1 = 0;
  int attempts = 0;
};

struct ProblemSpread {
  std::string id;
  std::vector<std::optional<double>> speedups;  // one per repeat; none where it had no counting attempt
  Stats stats;                                  // over the repeats that have a speedup
};

struct RepeatSummary {
  std::vector<RepeatRow> repeats;
  Stats geomean, fast_1, attempts;
  std::vector<ProblemSpread> problems;  // every problem with a baseline in any repeat, in first-seen order
};

/// `reports` pairs each workspace's path with its report, in the order given.
RepeatSummary summarize_repeats(const std::vector<std::pair<std::string, WorkspaceReport>>& reports);
std::string repeats_markdown(const RepeatSummary& s);
nlohmann::json repeats_json(const RepeatSummary& s);

}  // namespace ucut::report
