// engine/sched/replay.h — replays recorded optimization runs under a policy: the same Scheduler as a live
// run, fed the recorded outcomes instead of new attempts, so a policy can be judged without a GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/sched/policy.h"
#include "engine/sched/scheduler.h"

namespace ucut::sched {

/// One problem of a recorded run (typically a fixed-budget run), attempts in the order they were made.
struct RecordedProblem {
  std::string id;
  double sol_fp16_ms = 0;
  std::optional<double> baseline_ms;
  std::vector<Outcome> attempts;
};

/// One problem after replay.
struct ReplayProblem {
  std::string id;
  int attempts = 0;
  double cost = 0;
  std::optional<double> best_ms;
  // baseline / t_best; 1 without a counting attempt; absent without a baseline
  std::optional<double> speedup;
  LeaveReason left = LeaveReason::exhausted;
};

struct ReplayResult {
  Policy policy;
  std::vector<ReplayProblem> problems;  // in recording order
  double cost = 0;
  int attempts = 0;
  int scored = 0;              // problems with a baseline: those the two figures below are over
  double geomean_speedup = 1;  // 1 when no problem is scored
  double fast_share = 0;       // share of scored problems with speedup > 1 (fast_1); 0 when none is scored
  std::vector<std::string> no_baseline;  // ids left out of the figures above
};

/// Drives a Scheduler under `policy` over the recording. A problem whose recorded attempts run out before a
/// leave rule fires leaves as `exhausted`. Throws std::invalid_argument where the Scheduler would.
ReplayResult replay(const std::vector<RecordedProblem>& recording, const Policy& policy);

}  // namespace ucut::sched
