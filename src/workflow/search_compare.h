// workflow/search_compare.h — `ucutlass search-compare`: the built-in proposer against random and exhaustive search,
// on the measurements of a recorded exhaustive run (`ucutlass optimize --search exhaustive --knobs ...`).
//
// For each problem of the recording, the best-known time is the fastest counting attempt of the whole space. A
// search "reaches" the problem when one of its attempts is within `target` of the best-known speedup
// (t ≤ t_best / target). Every search starts from the recorded starting spec (attempt 1):
//   - exhaustive: the space in its enumeration order; its cost is the whole space;
//   - random: the space's other valid configs in a uniformly random order, over many seeds (and the exact
//     expectation (V + 1) / (G + 1) for G good configs among V, drawn without replacement);
//   - proposer: `optimize` itself (MANTIS and the scheduler, with the recorded run's knobs and tolerance) in a
//     fresh workspace, its candidates answered by engine::RecordedExecutor.
// So the comparison costs no GPU time, and every searcher sees the same measurements.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ucut {

namespace store {
class Workspace;
}

struct SearchCompareOptions {
  std::string recorded;         // the workspace of the exhaustive run
  int budget = 40;              // attempts per problem for the proposer; random's "within budget" is at this budget too
  int random_seeds = 200;
  double target = 0.95;         // fraction of the best-known speedup that counts as reached
  std::string workdir;          // where the proposer's replay workspace goes ("" = a temporary folder)
  std::string baseline = "bench/results/kernelbench/baseline.json";  // recorded eager times for the replay workspace,
                                // so `ucutlass report` on it can replay scheduler policies ("" = none)
  std::string gpu = "h200";
};

struct SearchCompareRow {
  std::string problem;
  std::string skipped;            // why the problem is not compared, or ""
  size_t space = 0;               // valid configs in the space (the exhaustive cost)
  size_t good = 0;                // configs within the target
  double best_ms = 0, seed_ms = 0;
  int exhaustive_attempts = 0;    // attempts to reach the target in enumeration order
  double random_mean = 0, random_median = 0, random_p90 = 0, random_expected = 0;
  double random_within_budget = 0;  // share of seeds reaching the target within `budget`
  double random_best_fraction = 0;  // mean over seeds of t_best_known / t_best_within_budget
  std::optional<int> proposer_attempts;  // nullopt: not reached within the budget
  int proposer_used = 0;                 // attempts the proposer made (≤ budget)
  double proposer_best_fraction = 0;     // t_best_known / the proposer's best
  int proposer_misses = 0;               // proposer candidates the recording lacks (0 when the space matches)
};

struct SearchCompareReport {
  std::vector<SearchCompareRow> rows;
  std::string knobs, tolerance, recorded_on, command, date;
  int budget = 0, random_seeds = 0;
  double target = 0;
  std::string error;  // the proposer's replay failed: its columns are empty

  /// True when at least one problem was compared (not every row skipped).
  bool compared_any() const;
};

/// What `recorded` (the workspace `o.recorded`, opened read-only) lacks for a comparison, in words with the
/// command that records it: an exhaustive run, attempts it measured; or what is wrong with `o` (an unknown
/// --gpu). "" when search_compare can run.
std::string search_compare_unready(const SearchCompareOptions& o, store::Workspace& recorded);

/// Compares the searches on `recorded`, which search_compare_unready accepted; a problem that cannot be
/// compared is a skipped row that says why.
SearchCompareReport search_compare(const SearchCompareOptions& o, store::Workspace& recorded);
nlohmann::json search_compare_json(const SearchCompareReport& r);
std::string search_compare_markdown(const SearchCompareReport& r);

}  // namespace ucut
