// engine/profile/classify.h — the CUDAMaster-style bottleneck rule over a profile's Speed-of-Light numbers
// (facts/peers.md §3): compute, memory bandwidth, or memory latency / under-utilized.
#pragma once

#include <optional>
#include <string>

#include "engine/profile/kernel_profile.h"
#include "engine/profile/thresholds.h"
#include "sol/bottleneck.h"

namespace ucut::profile {

using sol::Bottleneck;

struct Classification {
  Bottleneck bottleneck = Bottleneck::unknown;
  std::string reason;  // one sentence quoting the numbers and thresholds
  std::optional<double> sm_pct, dram_pct, mem_pct;
};

/// In order:
///   SM% >= τ_sm and SM% >= DRAM% (or DRAM% absent)  → compute
///   DRAM% >= τ_dram or Memory% >= τ_mem             → memory_bandwidth
///   SM% >= τ_sm (memory units below their τ)        → compute
///   SM% and DRAM% or Memory% known, all below τ      → memory_latency (latency-bound or under-utilized)
///   otherwise (counters missing)                    → unknown
Classification classify(const KernelProfile& p, const Thresholds& t);

}  // namespace ucut::profile
