// store/records.cpp — what an attempt's stored report says about where it ran, and model-call totals
// (store/records.h).
#include "store/records.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ucut::store {

std::string AttemptRow::measured_on() const {
  nlohmann::json j = nlohmann::json::parse(result_json, nullptr, false);
  if (!j.is_object() || !j.contains("environment") || !j["environment"].is_object()) return "";
  const nlohmann::json& env = j["environment"];
  if (env.value("gpu_name", "").empty()) return "";
  return fmt::format("{} (driver {})", env.value("gpu_name", ""), env.value("driver_version", "?"));
}

LlmRoleUsage LlmUsage::total() const {
  LlmRoleUsage t;
  for (const LlmRoleUsage& r : roles) {
    t.calls += r.calls;
    t.failed += r.failed;
    t.pending += r.pending;
    t.prompt_tokens += r.prompt_tokens;
    t.completion_tokens += r.completion_tokens;
    t.cost_usd += r.cost_usd;
  }
  return t;
}

}  // namespace ucut::store
