// engine/profile/classify.cpp — the bottleneck rule (order in classify.h) and its reason sentence.
#include "engine/profile/classify.h"

#include <fmt/format.h>

#include "engine/profile/metrics.h"

namespace ucut::profile {
namespace {

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "n/a"; }

}  // namespace

Classification classify(const KernelProfile& p, const Thresholds& t) {
  Classification c;
  c.sm_pct = sm_pct(p);
  c.dram_pct = dram_pct(p);
  c.mem_pct = memory_pct(p);
  const auto& sm = c.sm_pct;
  const auto& dram = c.dram_pct;
  const auto& mem = c.mem_pct;
  const bool sm_high = sm && *sm >= t.sm_pct;
  const bool dram_high = dram && *dram >= t.dram_pct;
  const bool mem_high = mem && *mem >= t.mem_pct;
  const std::string numbers = fmt::format("SM {}, DRAM {}, Memory {}", pct(sm), pct(dram), pct(mem));

  if (sm_high && (!dram || *sm >= *dram)) {
    c.bottleneck = Bottleneck::compute;
    c.reason = fmt::format("compute-bound: SM throughput {} >= τ {:.1f}% and not below DRAM ({})", pct(sm),
                           t.sm_pct, numbers);
  } else if (dram_high || mem_high) {
    c.bottleneck = Bottleneck::memory_bandwidth;
    c.reason = dram_high ? fmt::format("memory-bandwidth-bound: DRAM throughput {} >= τ {:.1f}% ({})",
                                       pct(dram), t.dram_pct, numbers)
                         : fmt::format("memory-bandwidth-bound: Memory throughput {} >= τ {:.1f}% ({})",
                                       pct(mem), t.mem_pct, numbers);
  } else if (sm_high) {
    c.bottleneck = Bottleneck::compute;
    c.reason =
        fmt::format("compute-bound: SM throughput {} >= τ {:.1f}% and the memory units are below theirs ({})",
                    pct(sm), t.sm_pct, numbers);
  } else if (sm && (dram || mem)) {
    c.bottleneck = Bottleneck::memory_latency;
    c.reason = fmt::format(
        "memory-latency-bound or under-utilized: every unit below its τ (SM {:.1f}%, DRAM {:.1f}%, Memory "
        "{:.1f}%) ({})",
        t.sm_pct, t.dram_pct, t.mem_pct, numbers);
  } else {
    c.bottleneck = Bottleneck::unknown;
    c.reason = fmt::format("unknown: the Speed-of-Light counters are missing ({})", numbers);
  }
  return c;
}

}  // namespace ucut::profile
