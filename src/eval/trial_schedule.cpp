// eval/trial_schedule.cpp — see trial_schedule.h.
#include "eval/trial_schedule.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace ucut {

int TrialSchedule::checked_calls() const {
  return static_cast<int>(std::count_if(event_checks.begin(), event_checks.end(),
                                        [](const std::optional<SyncScope>& c) { return c.has_value(); }));
}

TrialSchedule draw_trial_schedule(uint64_t seed, int sets, int warmup, int trials) {
  sets = std::max(sets, 1);
  trials = std::max(trials, 0);
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  TrialSchedule s;
  s.seed = seed;
  s.verify_sets.resize(static_cast<size_t>(sets));
  std::iota(s.verify_sets.begin(), s.verify_sets.end(), 0);
  std::shuffle(s.verify_sets.begin(), s.verify_sets.end(), rng);
  for (int extra = uniform(0, 2); extra > 0; --extra) s.verify_sets.push_back(uniform(0, sets - 1));
  s.warmup = warmup <= 0 ? 0 : uniform(std::max(1, warmup / 2), warmup + warmup / 2);
  for (int t = 0; t < trials; ++t) s.event_sets.push_back(uniform(0, sets - 1));
  for (int t = 0; t < trials; ++t) s.wall_sets.push_back(uniform(0, sets - 1));
  std::vector<int> order(static_cast<size_t>(trials));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  s.event_checks.assign(static_cast<size_t>(trials), std::nullopt);
  int checks = std::min(trials, std::max(3, trials / 10));
  for (int i = 0; i < checks; ++i)
    s.event_checks[static_cast<size_t>(order[static_cast<size_t>(i)])] =
        uniform(0, 1) == 0 ? SyncScope::stream : SyncScope::device;
  return s;
}

}  // namespace ucut
