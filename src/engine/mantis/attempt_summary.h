// engine/mantis/attempt_summary.h — what the stages say about attempts: the brief a stage stores, and the
// best of a list (the loop's, and a model's iteration's view of the attempts made before it began).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "store/records.h"

namespace ucut::mantis {

/// {attempt, status, config_hash} and, when set, time_ms and flags.
nlohmann::json attempt_brief(const store::AttemptRow& a);

/// The fastest counting attempt (AttemptRow::counts), the earliest on a tie: Workspace::best_attempt over a
/// list.
std::optional<store::AttemptRow> best_of(const std::vector<store::AttemptRow>& attempts);

/// best_of's time.
std::optional<double> best_time(const std::vector<store::AttemptRow>& attempts);

}  // namespace ucut::mantis
