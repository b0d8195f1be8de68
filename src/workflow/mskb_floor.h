// workflow/mskb_floor.h — the measured latency floor under `bench mskb`'s % SOL (sol/calibration.h, schema
// 2): which calibration a pair takes it from, and per case the effective bound t_SOL_eff = max(t_SOL,
// t_floor) with the cases whose datasheet bound is below the floor marked latency-bound. The datasheet bound
// stays the integrity floor (faster_than_sol); the latency floor only changes what % SOL is measured against.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "sol/calibration.h"
#include "sol/gpu_table.h"
#include "workflow/mskb_bench.h"

namespace ucut {

/// Sets p's latency_floor_ms and floor_source and every case's sol_eff_ms and latency_bound from `c` (null:
/// no floor, and `why_none` is the pair's floor_source). A calibration without a floor (a /1 file) gives none
/// and says so.
void apply_latency_floor(MskbPairReport& p, const sol::Calibration* c, const std::string& why_none);

/// The calibration each pair's floor comes from: o.calibration (--calibration) when given, for pairs of its
/// GPU only; else the store's newest for the GPU that measured the pair, or for `fallback` (the --gpu entry)
/// when no GPU did; none with o.no_calibration (--no-calibration).
class MskbFloorSource {
 public:
  /// Throws std::invalid_argument naming the file when o.calibration cannot be read.
  MskbFloorSource(const MskbBenchOptions& o, const sol::GpuTable* table, const sol::GpuSpec* fallback);
  /// apply_latency_floor with the pair's calibration.
  void apply(MskbPairReport& p);

 private:
  struct Found {
    std::optional<sol::Calibration> calibration;
    std::string why_none;
  };
  Found lookup(const std::string& gpu_name);

  const MskbBenchOptions& o_;
  const sol::GpuTable* table_;
  const sol::GpuSpec* fallback_;
  std::optional<sol::Calibration> file_;
  std::map<std::string, Found> by_gpu_;  // by the measuring GPU's name ("" for none)
};

}  // namespace ucut
