// engine/sched/replay.cpp — feeding recorded outcomes through the Scheduler and scoring what it kept.
#include "engine/sched/replay.h"

#include <cmath>
#include <map>

namespace ucut::sched {
namespace {

ReplayProblem score(const ProblemState& s) {
  ReplayProblem p{s.bounds.id, s.attempts, s.cost, s.best_ms, std::nullopt, *s.left};
  if (s.bounds.baseline_ms) p.speedup = s.best_ms ? *s.bounds.baseline_ms / *s.best_ms : 1.0;
  return p;
}

}  // namespace

ReplayResult replay(const std::vector<RecordedProblem>& recording, const Policy& policy) {
  std::vector<ProblemBounds> bounds;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const RecordedProblem& r : recording) {
    index.emplace(r.id, bounds.size());
    bounds.push_back({r.id, r.sol_fp16_ms, r.baseline_ms});
  }
  Scheduler scheduler(policy, std::move(bounds));

  std::vector<std::size_t> used(recording.size(), 0);  // recorded attempts consumed, per problem
  while (std::optional<std::string> id = scheduler.next()) {
    std::size_t i = index.at(*id);
    const std::vector<Outcome>& attempts = recording[i].attempts;
    if (used[i] == attempts.size()) {
      scheduler.exhaust(*id);
      continue;
    }
    scheduler.record(*id, attempts[used[i]++]);
    if (used[i] == attempts.size() && scheduler.state(*id).active()) scheduler.exhaust(*id);
  }

  ReplayResult result;
  result.policy = policy;
  double log_sum = 0;
  int fast = 0;
  for (const ProblemState& s : scheduler.problems()) {
    ReplayProblem p = score(s);
    result.cost += p.cost;
    result.attempts += p.attempts;
    if (p.speedup) {
      result.scored += 1;
      log_sum += std::log(*p.speedup);
      if (*p.speedup > 1) fast += 1;
    } else {
      result.no_baseline.push_back(p.id);
    }
    result.problems.push_back(std::move(p));
  }
  if (result.scored > 0) {
    result.geomean_speedup = std::exp(log_sum / result.scored);
    result.fast_share = static_cast<double>(fast) / result.scored;
  }
  return result;
}

}  // namespace ucut::sched
