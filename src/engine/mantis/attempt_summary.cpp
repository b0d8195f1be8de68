// engine/mantis/attempt_summary.cpp — see attempt_summary.h.
#include "engine/mantis/attempt_summary.h"

namespace ucut::mantis {

nlohmann::json attempt_brief(const store::AttemptRow& a) {
  nlohmann::json j = {{"attempt", a.id}, {"status", a.status}, {"config_hash", a.config_hash}};
  if (a.time_ms) j["time_ms"] = *a.time_ms;
  if (!a.flags.empty()) j["flags"] = a.flags;
  return j;
}

std::optional<store::AttemptRow> best_of(const std::vector<store::AttemptRow>& attempts) {
  std::optional<store::AttemptRow> best;
  for (const store::AttemptRow& a : attempts)
    if (a.counts() &&
        (!best || *a.time_ms < *best->time_ms || (*a.time_ms == *best->time_ms && a.id < best->id)))
      best = a;
  return best;
}

std::optional<double> best_time(const std::vector<store::AttemptRow>& attempts) {
  std::optional<store::AttemptRow> best = best_of(attempts);
  return best ? best->time_ms : std::nullopt;
}

}  // namespace ucut::mantis
