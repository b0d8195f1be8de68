// suite/score.h — KernelBench-style scores of a suite run: fast_p (the share of ALL problems that are correct and
// more than p times faster than the baseline; a problem without a correct result counts as a failure, never as
// skipped) and the geometric mean speedup over the correct ones, with and without integrity filtering.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ucut::suite {

struct ProblemOutcome {
  std::string problem;
  bool correct = false;   // the harness verified every output
  bool flagged = false;   // an integrity flag disqualifies the result (faster than SOL, constant output, ...)
  bool weak = false;      // the problem's own correctness check is weak (its file's `weak_check`)
  std::optional<double> speedup;  // baseline time / our time, same run
};

inline const std::vector<double> kFastP = {0, 1, 1.5, 2, 5};

struct Score {
  int problems = 0;  // the denominator of fast_p
  int correct = 0;
  std::vector<double> fast_p;      // one per kFastP
  std::optional<double> geomean;   // over correct problems with a speedup (filtered: see score())
};

/// Unfiltered: every problem, a correct result counts even when flagged (what a naive harness reports).
/// Filtered: a flagged result and a result on a problem with a weak check count as failures; the denominator
/// stays, and in the geomean such a result stays too, capped at 1x (so no filtered figure is ever above the
/// unfiltered one: dropping slow flagged results from a mean over the rest would raise it).
Score score(const std::vector<ProblemOutcome>& outcomes, bool filtered);

}  // namespace ucut::suite
