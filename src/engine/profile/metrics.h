// engine/profile/metrics.h — the Nsight Compute metrics we collect: raw name, label, unit, the bottleneck
// classes each matters for, and a one-line meaning for a person or an LLM prompt (facts/peers.md §3).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/profile/kernel_profile.h"
#include "sol/bottleneck.h"
#include "support/error.h"

namespace ucut::profile {

using sol::Bottleneck;

/// Raw names of the metrics the classifier reads.
namespace metric {
inline constexpr std::string_view sm_throughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view memory_throughput =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view dram_throughput = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view dram_throughput_old = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view duration = "gpu__time_duration.sum";
inline constexpr std::string_view global_load_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view global_load_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
}  // namespace metric

enum class MetricRole {
  headline,  // a classifier input: quoted in the classification's reason, not in the filtered list
  detail,    // shown in the filtered list when its class matches
  counter,   // only an input to a derived value (sectors/request)
};

struct MetricInfo {
  std::string_view name;   // raw ncu metric name, as passed to --metrics
  std::string_view label;  // the ncu UI label
  std::string_view unit;   // with --print-units base
  unsigned classes;        // bits of class_bit(): the classes it matters for
  MetricRole role;
  std::string_view meaning;
};

constexpr unsigned class_bit(Bottleneck b) {
  switch (b) {
    case Bottleneck::compute:
      return 1;
    case Bottleneck::memory_bandwidth:
      return 2;
    case Bottleneck::memory_latency:
      return 4;
    case Bottleneck::unknown:
      return 7;  // all of them
  }
  UC_UNREACHABLE() << "Bottleneck " << static_cast<int>(b);
}

/// Every metric we collect. Within a class, table order is the order of importance.
std::span<const MetricInfo> metric_table();
const MetricInfo* find_metric(std::string_view name);

/// The comma-joined metric names for ncu's --metrics.
std::string metrics_argument();

/// The classifier's inputs, where the profile has them.
std::optional<double> sm_pct(const KernelProfile& p);
std::optional<double> memory_pct(const KernelProfile& p);
/// gpu__dram_throughput, else the older dram__throughput.
std::optional<double> dram_pct(const KernelProfile& p);

}  // namespace ucut::profile
