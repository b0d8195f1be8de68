// engine/profile/bottleneck.h — the bottleneck classes a profiled kernel falls into, and their names.
#pragma once

#include <optional>
#include <string_view>

namespace ucut::profile {

enum class Bottleneck { compute, memory_bandwidth, memory_latency, unknown };

/// "compute" | "memory_bandwidth" | "memory_latency" | "unknown"
std::string_view bottleneck_name(Bottleneck b);
std::optional<Bottleneck> parse_bottleneck(std::string_view name);

}  // namespace ucut::profile
