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

/// Where a bottleneck class came from.
enum class BottleneckSource { roofline, ncu };

constexpr auto enum_names(BottleneckSource) {
  using S = BottleneckSource;
  return name_table<S>("bottleneck source", {{S::roofline, "roofline"}, {S::ncu, "ncu"}});
}
UCUT_ENUM_JSON(BottleneckSource)

}  // namespace ucut::sol
