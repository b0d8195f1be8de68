// engine/cudamaster/history.cpp — see history.h.
#include "engine/cudamaster/history.h"

#include <fmt/format.h>

namespace ucut::engine::cudamaster {
namespace {

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

std::optional<double> optional_double(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::nullopt : std::optional<double>(it->get<double>());
}

std::string outcome_text(const RoundRecord& r) {
  std::string before = r.best_before ? fmt::format("{:.2f}", *r.best_before) : "untimed";
  switch (r.outcome) {
    case Outcome::faster:
      return fmt::format(
          "verified and faster: P {:.2f} over the naive launcher (the best was {}); it became the "
          "best",
          r.score.value_or(0), before);
    case Outcome::not_faster:
      return fmt::format("verified but not faster: P {:.2f} over the naive launcher against the best's {}",
                         r.score.value_or(0), before);
    case Outcome::failed:
      return fmt::format(
          "failed{}: {}",
          r.debug_tries ? fmt::format(" after {} debug tr{}", r.debug_tries, r.debug_tries == 1 ? "y" : "ies")
                        : "",
          r.why);
  }
  return "";
}

}  // namespace

nlohmann::json to_json(const RoundRecord& r) {
  return {{"round", r.round},
          {"scheme", r.scheme},
          {"outcome", r.outcome},
          {"why", r.why},
          {"score", optional_json(r.score)},
          {"best_before", optional_json(r.best_before)},
          {"attempt_id", r.attempt_id ? nlohmann::json(*r.attempt_id) : nlohmann::json()},
          {"attempts", r.attempts},
          {"debug_tries", r.debug_tries}};
}

RoundRecord round_from_json(const nlohmann::json& j) {
  RoundRecord r;
  r.round = j.at("round");
  r.scheme = j.at("scheme");
  r.outcome = j.at("outcome");
  r.why = j.value("why", "");
  r.score = optional_double(j, "score");
  r.best_before = optional_double(j, "best_before");
  if (j.contains("attempt_id") && !j["attempt_id"].is_null()) r.attempt_id = j["attempt_id"].get<int64_t>();
  r.attempts = j.value("attempts", std::vector<int64_t>{});
  r.debug_tries = j.value("debug_tries", 0);
  return r;
}

std::string former_plans_text(const std::vector<RoundRecord>& rounds) {
  if (rounds.empty()) return "None yet: this is the first round.";
  std::string out;
  for (const RoundRecord& r : rounds)
    out += fmt::format("#### Round {}\n\n{}\n\n**Outcome:** {}.\n\n", r.round, r.scheme, outcome_text(r));
  return out.substr(0, out.size() - 1);
}

}  // namespace ucut::engine::cudamaster
