// store/records.cpp — the attempt status names stored in the workspace, and what an attempt's stored report says
// about where it ran (store/records.h).
#include "store/records.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>

namespace ucut::store {
namespace {

constexpr std::array<const char*, 7> kStatusNames = {"pending", "build_failed", "check_failed", "wrong",
                                                     "crashed", "timed_out",    "measured"};

}  // namespace

const char* attempt_status_name(AttemptStatus s) { return kStatusNames[static_cast<size_t>(s)]; }

std::optional<AttemptStatus> parse_attempt_status(const std::string& s) {
  for (size_t i = 0; i < kStatusNames.size(); ++i)
    if (s == kStatusNames[i]) return static_cast<AttemptStatus>(i);
  return std::nullopt;
}

std::string AttemptRow::measured_on() const {
  nlohmann::json j = nlohmann::json::parse(result_json, nullptr, false);
  if (!j.is_object() || !j.contains("environment") || !j["environment"].is_object()) return "";
  const nlohmann::json& env = j["environment"];
  if (env.value("gpu_name", "").empty()) return "";
  return fmt::format("{} (driver {})", env.value("gpu_name", ""), env.value("driver_version", "?"));
}

}  // namespace ucut::store
