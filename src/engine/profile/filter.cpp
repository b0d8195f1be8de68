// engine/profile/filter.cpp — choosing the metrics for a class, the degraded report, and both renderings.
#include "engine/profile/filter.h"

#include <fmt/format.h>

#include "engine/profile/metrics.h"

namespace ucut::profile {
namespace {

ShownMetric shown(const MetricInfo& m, double value) {
  return {std::string(m.name), std::string(m.label), value, std::string(m.unit), std::string(m.meaning)};
}

// Global-load sectors per request: 4 is a fully coalesced warp of 4-byte loads; much more means scattered
// access.
std::optional<ShownMetric> sectors_per_request(const KernelProfile& p) {
  auto sectors = p.get(metric::global_load_sectors);
  auto requests = p.get(metric::global_load_requests);
  if (!sectors || !requests || *requests <= 0) return std::nullopt;
  return ShownMetric{
      fmt::format("derived: {} / {}", metric::global_load_sectors, metric::global_load_requests),
      "Global Load Sectors/Request", *sectors / *requests, "sector/request",
      "32-byte sectors per warp-wide global load; 4 is coalesced 4-byte access, much more means "
      "scattered or strided loads"};
}

std::string format_value(double v, const std::string& unit) {
  if (unit == "%") return fmt::format("{:.1f}%", v);
  if (unit == "byte/s") return fmt::format("{:.1f} GB/s", v / 1e9);
  return fmt::format("{:.4g} {}", v, unit);
}

std::string format_duration(double ns) {
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.2f} us", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

}  // namespace

FilteredProfile filter(const KernelProfile& p, const Classification& c) {
  FilteredProfile f;
  f.kernel = p.kernel;
  f.classification = c;
  f.duration_ns = p.get(metric::duration);
  const unsigned want = class_bit(c.bottleneck);
  bool derived_done = false;
  for (const MetricInfo& m : metric_table()) {
    if (f.metrics.size() >= kMaxShownMetrics) break;
    if (m.role == MetricRole::headline || !(m.classes & want)) continue;
    if (m.role == MetricRole::counter) {
      if (derived_done) continue;
      derived_done = true;
      if (auto d = sectors_per_request(p)) f.metrics.push_back(*d);
      continue;
    }
    if (auto v = p.get(m.name)) f.metrics.push_back(shown(m, *v));
  }
  return f;
}

FilteredProfile degraded(const DegradedInput& in, const Thresholds& t) {
  FilteredProfile f;
  f.kernel = in.kernel;
  f.duration_ns = in.duration_ns;
  f.sol_pct = in.sol_pct;
  f.degraded = in.reason;
  Classification& c = f.classification;
  const auto& sol = in.sol_pct;
  if (sol && in.roofline_bound == sol::BoundKind::memory && *sol >= t.dram_pct) {
    c.bottleneck = Bottleneck::memory_bandwidth;
    c.reason = fmt::format(
        "memory-bandwidth-bound from SOL alone: a memory-bound problem at {:.1f}% of SOL keeps DRAM at least "
        "that "
        "busy, >= τ {:.1f}%",
        *sol, t.dram_pct);
  } else if (sol && in.roofline_bound == sol::BoundKind::compute && *sol >= t.sm_pct) {
    c.bottleneck = Bottleneck::compute;
    c.reason = fmt::format(
        "compute-bound from SOL alone: a compute-bound problem at {:.1f}% of SOL keeps its math pipe at "
        "least "
        "that busy, >= τ {:.1f}%",
        *sol, t.sm_pct);
  } else if (sol && in.roofline_bound) {
    c.reason = fmt::format(
        "unknown: a {}-bound problem at {:.1f}% of SOL, below τ; latency or wasted work cannot be told apart "
        "without counters",
        enum_name(*in.roofline_bound), *sol);
  } else if (sol) {
    c.reason = fmt::format("unknown: {:.1f}% of SOL, but the roofline side is not known", *sol);
  } else {
    c.reason = "unknown: no counters and no analytic SOL";
  }
  return f;
}

std::string render_text(const FilteredProfile& f) {
  std::string out =
      fmt::format("{}: {} — {}\n", f.kernel, enum_name(f.classification.bottleneck), f.classification.reason);
  if (f.degraded) out += fmt::format("  no counters: {}\n", *f.degraded);
  std::string timing;
  if (f.duration_ns) timing += "duration " + format_duration(*f.duration_ns);
  if (f.sol_pct)
    timing +=
        fmt::format("{}analytic SOL {:.1f}% (t_SOL/t_measured)", timing.empty() ? "" : "; ", *f.sol_pct);
  if (!timing.empty()) out += "  " + timing + "\n";
  for (const ShownMetric& m : f.metrics)
    out += fmt::format("  {}: {} — {}\n", m.label, format_value(m.value, m.unit), m.meaning);
  return out;
}

nlohmann::json render_json(const FilteredProfile& f) {
  using nlohmann::json;
  auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  const Classification& c = f.classification;
  json metrics = json::array();
  for (const ShownMetric& m : f.metrics)
    metrics.push_back(
        {{"name", m.name}, {"label", m.label}, {"value", m.value}, {"unit", m.unit}, {"meaning", m.meaning}});
  return json{{"kernel", f.kernel},
              {"bottleneck", c.bottleneck},
              {"reason", c.reason},
              {"sm_pct", optional(c.sm_pct)},
              {"dram_pct", optional(c.dram_pct)},
              {"mem_pct", optional(c.mem_pct)},
              {"duration_ns", optional(f.duration_ns)},
              {"sol_pct", optional(f.sol_pct)},
              {"degraded", f.degraded ? json(*f.degraded) : json(nullptr)},
              {"metrics", metrics}};
}

std::optional<FilteredProfile> filtered_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("bottleneck") || !j.contains("metrics") || !j["metrics"].is_array())
    return std::nullopt;
  auto optional = [&](const char* key) {
    return j.contains(key) && j[key].is_number() ? std::optional<double>(j[key].get<double>()) : std::nullopt;
  };
  FilteredProfile f;
  f.kernel = j.value("kernel", "");
  f.classification.bottleneck = j.value("bottleneck", Bottleneck::unknown);
  f.classification.reason = j.value("reason", "");
  f.classification.sm_pct = optional("sm_pct");
  f.classification.dram_pct = optional("dram_pct");
  f.classification.mem_pct = optional("mem_pct");
  f.duration_ns = optional("duration_ns");
  f.sol_pct = optional("sol_pct");
  if (j.contains("degraded") && j["degraded"].is_string()) f.degraded = j["degraded"].get<std::string>();
  for (const nlohmann::json& m : j["metrics"])
    f.metrics.push_back({m.value("name", ""), m.value("label", ""), m.value("value", 0.0),
                         m.value("unit", ""), m.value("meaning", "")});
  return f;
}

namespace {

std::string metric_line(std::string_view label, std::optional<double> value, const std::string& unit,
                        std::string_view name, std::string_view meaning) {
  return fmt::format("  {}: {} ({}) — {}\n", label, value ? format_value(*value, unit) : "n/a", name,
                     meaning);
}

}  // namespace

std::string render_all_text(const KernelProfile& p) {
  std::string out = fmt::format("{}: every metric read\n", p.kernel);
  for (const MetricInfo& m : metric_table())
    out += metric_line(m.label, p.get(m.name), std::string(m.unit), m.name, m.meaning);
  return out;
}

std::string render_all_text(const std::string& kernel, const nlohmann::json& rows) {
  std::string out = fmt::format("{}: every metric read\n", kernel);
  for (const nlohmann::json& m : rows) {
    std::optional<double> value;
    if (m.contains("value") && m["value"].is_number()) value = m["value"].get<double>();
    out += metric_line(m.value("label", ""), value, m.value("unit", ""), m.value("name", ""),
                       m.value("meaning", ""));
  }
  return out;
}

nlohmann::json render_all_json(const KernelProfile& p) {
  nlohmann::json out = nlohmann::json::array();
  for (const MetricInfo& m : metric_table()) {
    auto v = p.get(m.name);
    out.push_back({{"name", std::string(m.name)},
                   {"label", std::string(m.label)},
                   {"unit", std::string(m.unit)},
                   {"value", v ? nlohmann::json(*v) : nlohmann::json(nullptr)},
                   {"meaning", std::string(m.meaning)}});
  }
  return out;
}

}  // namespace ucut::profile
