// workflow/mskb_floor.cpp — see mskb_floor.h.
#include "workflow/mskb_floor.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ucut {
namespace {

std::string floor_text(const sol::Calibration& c) {
  auto us = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f} µs", *v) : "not measured"; };
  return fmt::format(
      "`ucutlass calibrate` of {} on {} ({}): GPU busy floor {:.2f} µs (empty kernel {}, cold 4 KiB "
      "read {}); MSKB-compatible empty launch+sync {}",
      c.date, c.gpu_name, c.gpu_uuid, *c.latency_floor_us(), us(c.launch_floor_us), us(c.cold_read_us),
      us(c.launch_sync_us));
}

}  // namespace

void apply_latency_floor(MskbPairReport& p, const sol::Calibration* c, const std::string& why_none) {
  std::optional<double> floor_us = c ? c->latency_floor_us() : std::nullopt;
  p.latency_floor_ms = floor_us ? *floor_us * 1e-3 : 0;
  p.floor_source = floor_us ? floor_text(*c) : c ? c->floor_note() : why_none;
  for (MskbCaseRow& row : p.cases) {
    row.sol_eff_ms = floor_us ? std::max(row.sol_ms, p.latency_floor_ms) : 0;
    row.latency_bound = floor_us && row.sol_ms < p.latency_floor_ms;
  }
}

MskbFloorSource::MskbFloorSource(const MskbBenchOptions& o, const sol::GpuTable* table,
                                 const sol::GpuSpec* fallback)
    : o_(o), table_(table), fallback_(fallback) {
  if (o.no_calibration || o.calibration.empty()) return;
  std::string error;
  file_ = sol::load_calibration(o.calibration, &error);
  if (!file_) throw std::invalid_argument("--calibration: " + error);
}

void MskbFloorSource::apply(MskbPairReport& p) {
  if (o_.no_calibration) return apply_latency_floor(p, nullptr, "none: --no-calibration");
  if (!o_.calibration.empty()) {
    if (!p.gpu_name.empty() && p.gpu_name != file_->gpu_name)
      return apply_latency_floor(p, nullptr,
                                 fmt::format("none: {} is a calibration of {}, and this pair ran on {}",
                                             o_.calibration, file_->gpu_name, p.gpu_name));
    return apply_latency_floor(p, &*file_, "");
  }
  auto it = by_gpu_.find(p.gpu_name);
  if (it == by_gpu_.end()) it = by_gpu_.emplace(p.gpu_name, lookup(p.gpu_name)).first;
  apply_latency_floor(p, it->second.calibration ? &*it->second.calibration : nullptr, it->second.why_none);
}

MskbFloorSource::Found MskbFloorSource::lookup(const std::string& gpu_name) {
  Found f;
  const sol::GpuSpec* gpu = gpu_name.empty() ? fallback_ : table_ ? table_->find_device(gpu_name) : nullptr;
  std::string what = gpu_name.empty() ? (gpu ? gpu->name : "no GPU") : gpu_name;
  if (!gpu || !table_) {
    f.why_none =
        fmt::format("none: {} is not in the GPU table, so no calibration can be matched to it", what);
    return f;
  }
  std::string dir = sol::default_state_dir();
  f.calibration = sol::find_calibration(*table_, *gpu, dir);
  if (!f.calibration)
    f.why_none = fmt::format("none: no calibration of {} in {}/calibration (run `ucutlass calibrate` on it)",
                             what, dir);
  return f;
}

}  // namespace ucut
