// engine/mantis/profile_stage.h — Measure's Nsight Compute profile of the best attempt and Analyze's bottleneck from
// it. Each best attempt is profiled once: a profile of the same config stored in an earlier measure stage is read
// back instead, from any run when it read counters, from this run when it did not (another run may be on a machine
// that can profile). Without counters Analyze keeps the roofline position and stores why.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/executor.h"
#include "engine/mantis/loop.h"
#include "store/workspace.h"

namespace ucut::mantis {

/// The profile a measure stage stores under "profile".
struct BestProfile {
  int64_t attempt = 0;
  std::string config_hash;
  int64_t run_id = 0;   // the run that profiled it
  bool reused = false;  // read back from an earlier measure stage, not profiled again
  engine::ProfileOutcome outcome;
};

nlohmann::json best_profile_json(const BestProfile& p);

/// The profile of `best` on `s`: an earlier stored one when it may be reused, else a fresh one from `executor`,
/// whose time is charged to the attempt (profile_seconds and gpu_seconds, written to the workspace).
BestProfile profile_best(store::Workspace& ws, engine::Executor& executor, int64_t run_id, const Subject& s,
                         store::AttemptRow& best);

/// Analyze's class: {"bottleneck", "bottleneck_source": "ncu"} from a profile with counters, else the roofline
/// position with "bottleneck_source": "roofline" and, when a profile was tried, "profile_degraded": its reason.
nlohmann::json analyzed_bottleneck(const std::optional<BestProfile>& p, sol::Bottleneck roofline_bottleneck);

}  // namespace ucut::mantis
