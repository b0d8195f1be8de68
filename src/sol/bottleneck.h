// sol/bottleneck.h — the bottleneck classes a kernel falls into (what bounds its time), and what a class was
// read from: its problem's position on the roofline (the engine's fallback) or a profile's counters
// (engine/profile). Here, below the workspace, so that a stored hypothesis (store/records.h), the engine and
// the reports hold the enum.
#pragma once

#include "support/enum_json.h"

namespace ucut::sol {

enum class Bottleneck { compute, memory_bandwidth, memory_latency, unknown };

constexpr auto enum_names(Bottleneck) {
  using B = Bottleneck;
  return name_table<B>("bottleneck class", {{B::compute, "compute"},
                                            {B::memory_bandwidth, "memory_bandwidth"},
                                            {B::memory_latency, "memory_latency"},
                                            {B::unknown, "unknown"}});
}
UCUT_ENUM_JSON(Bottleneck)

/// Where a bottleneck class came from: the roofline, a profile's counters, or a model's Analyze answer
/// (engine/mantis/model_phases.h) to the profile and bounds it was shown.
enum class BottleneckSource { roofline, ncu, model };

constexpr auto enum_names(BottleneckSource) {
  using S = BottleneckSource;
  return name_table<S>("bottleneck source",
                       {{S::roofline, "roofline"}, {S::ncu, "ncu"}, {S::model, "model"}});
}
UCUT_ENUM_JSON(BottleneckSource)

}  // namespace ucut::sol
