// engine/profile/bottleneck.cpp — names of the bottleneck classes.
#include "engine/profile/bottleneck.h"

#include "support/error.h"

namespace ucut::profile {

std::string_view bottleneck_name(Bottleneck b) {
  switch (b) {
    case Bottleneck::compute:
      return "compute";
    case Bottleneck::memory_bandwidth:
      return "memory_bandwidth";
    case Bottleneck::memory_latency:
      return "memory_latency";
    case Bottleneck::unknown:
      return "unknown";
  }
  UC_UNREACHABLE() << "Bottleneck " << static_cast<int>(b);
}

std::optional<Bottleneck> parse_bottleneck(std::string_view name) {
  for (Bottleneck b :
       {Bottleneck::compute, Bottleneck::memory_bandwidth, Bottleneck::memory_latency, Bottleneck::unknown})
    if (bottleneck_name(b) == name) return b;
  return std::nullopt;
}

}  // namespace ucut::profile
