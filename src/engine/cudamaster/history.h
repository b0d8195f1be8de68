// engine/cudamaster/history.h — what became of each round's scheme (CUDAMaster keeps it so the Planner avoids
// what failed or did not help): stored as the round's summarize stage, read back on resume, and written into
// the Planner's `former_plans` slot.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/enum_json.h"

namespace ucut::engine::cudamaster {

enum class Outcome {
  faster,      // verified, unflagged and faster than the best: it became the best
  not_faster,  // verified and unflagged, but no faster than the best
  failed,      // no verified, unflagged candidate within the debug tries (or no file at all)
};

constexpr auto enum_names(Outcome) {
  using O = Outcome;
  return name_table<O>("round outcome",
                       {{O::faster, "faster"}, {O::not_faster, "not_faster"}, {O::failed, "failed"}});
}
UCUT_ENUM_JSON(Outcome)

struct RoundRecord {
  int round = 0;
  std::string scheme;  // the Planner's
  Outcome outcome = Outcome::failed;
  std::string why;                    // failed: the last try's stage and error, or why there was no file
  std::optional<double> score;        // the round's verified candidate's P, when there was one
  std::optional<double> best_before;  // the best's P when the round began (none: the baseline was not timed)
  std::optional<int64_t> attempt_id;  // the round's last candidate
  std::vector<int64_t> attempts;      // every candidate of the round, in order
  int debug_tries = 0;                // how many Debug calls the round made
};

nlohmann::json to_json(const RoundRecord& r);
RoundRecord round_from_json(const nlohmann::json& j);

/// The Planner's `former_plans` slot: each earlier round's scheme and what became of it; "none yet" for none.
std::string former_plans_text(const std::vector<RoundRecord>& rounds);

}  // namespace ucut::engine::cudamaster
