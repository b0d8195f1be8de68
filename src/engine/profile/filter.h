// engine/profile/filter.h — the filtered profile an LLM prompt sees: the class, its reason, and only the 3–6
// metrics that matter for that class; or, without counters, a degraded report from timing and analytic SOL.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/profile/classify.h"
#include "engine/profile/kernel_profile.h"
#include "engine/profile/thresholds.h"
#include "sol/roofline.h"

namespace ucut::profile {

/// At most this many metrics are kept for a class.
inline constexpr size_t kMaxShownMetrics = 6;

struct ShownMetric {
  std::string name;  // raw ncu name, or "derived: a / b"
  std::string label;
  double value = 0;
  std::string unit;
  std::string meaning;
};

struct FilteredProfile {
  std::string kernel;
  Classification classification;
  std::optional<double> duration_ns;
  std::optional<double> sol_pct;  // analytic 100·t_SOL/t_measured (sol/roofline.h), set by the caller
  std::vector<ShownMetric> metrics;
  std::optional<std::string> degraded;  // why there are no counters, when there are none
};

/// The class's present detail metrics in table order (metrics.h), with global-load sectors/request derived
/// where both counters exist, capped at kMaxShownMetrics. An unknown class keeps the first present of any
/// class.
FilteredProfile filter(const KernelProfile& p, const Classification& c);

/// What is known when no counters could be read.
struct DegradedInput {
  std::string kernel;
  std::string reason;                            // e.g. NcuOutcome::reason
  std::optional<double> duration_ns;             // the measured time
  std::optional<double> sol_pct;                 // 100·t_SOL/t_measured
  std::optional<sol::BoundKind> roofline_bound;  // the side of the ridge the problem sits on
};

/// A report without counters. The class comes from SOL only when decisive: at SOL% >= τ on the bounding unit,
/// that unit runs at least that busy (actual bytes and FLOPs are at least the minimum), so a memory-bound
/// problem is memory_bandwidth when SOL% >= τ_dram and a compute-bound one compute when SOL% >= τ_sm; a low
/// SOL% could be latency or wasted work, so it stays unknown.
FilteredProfile degraded(const DegradedInput& in, const Thresholds& t);

/// A few lines: the class and reason, the timing and SOL, one line per metric with its meaning.
std::string render_text(const FilteredProfile& f);
nlohmann::json render_json(const FilteredProfile& f);
/// render_json's object read back (a profile stored in the workspace); nullopt when `j` is not one.
std::optional<FilteredProfile> filtered_from_json(const nlohmann::json& j);

/// Every metric of the table (metrics.h), unfiltered: label, value ("n/a" when ncu gave none), raw name, meaning.
std::string render_all_text(const KernelProfile& p);
/// The same as [{name, label, unit, value (null when absent), meaning}], in table order.
nlohmann::json render_all_json(const KernelProfile& p);
/// render_all_json's rows (a profile stored in the workspace) as render_all_text prints them, under `kernel`.
std::string render_all_text(const std::string& kernel, const nlohmann::json& rows);

}  // namespace ucut::profile
