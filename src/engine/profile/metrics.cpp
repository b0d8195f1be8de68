// engine/profile/metrics.cpp — the metric table and the readers of the classifier's inputs.
#include "engine/profile/metrics.h"

#include <array>

namespace ucut::profile {
namespace {

constexpr unsigned kCompute = class_bit(Bottleneck::compute);
constexpr unsigned kBandwidth = class_bit(Bottleneck::memory_bandwidth);
constexpr unsigned kLatency = class_bit(Bottleneck::memory_latency);
constexpr unsigned kAll = kCompute | kBandwidth | kLatency;

using enum MetricRole;

constexpr std::array kMetrics = {
    // Speed of Light: the classifier's inputs.
    MetricInfo{metric::sm_throughput, "Compute (SM) Throughput", "%", kCompute, headline,
               "the busiest SM sub-unit (pipes, issue, shared memory) as % of its peak"},
    MetricInfo{metric::memory_throughput, "Memory Throughput", "%", kBandwidth, headline,
               "the busiest memory unit (DRAM, L2 or L1) as % of its peak"},
    MetricInfo{metric::dram_throughput, "DRAM Throughput", "%", kBandwidth, headline,
               "DRAM traffic as % of peak DRAM bandwidth"},
    MetricInfo{metric::dram_throughput_old, "DRAM Throughput", "%", kBandwidth, headline,
               "DRAM traffic as % of peak DRAM bandwidth (the name older ncu sections use)"},
    MetricInfo{metric::duration, "Duration", "ns", kAll, headline,
               "the kernel's run time under the profiler"},

    // Compute Workload Analysis.
    MetricInfo{"sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed", "SM Busy", "%", kCompute,
               detail,
               "the busiest instruction pipe as % of its peak; near 100% the kernel needs fewer or cheaper "
               "instructions"},
    MetricInfo{"sm__inst_issued.avg.pct_of_peak_sustained_elapsed", "Issue Slots Busy", "%", kCompute, detail,
               "share of cycles in which the warp schedulers issued an instruction"},
    MetricInfo{"sm__inst_executed.avg.per_cycle_active", "Executed Ipc Active", "inst/cycle", kCompute,
               detail, "instructions per cycle per SM while it had work; 4 is the issue limit"},
    MetricInfo{
        "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed", "Tensor Pipe (GMMA)", "%",
        kCompute, detail,
        "Hopper warpgroup MMA (wgmma) tensor-core use as % of peak; low in a GEMM means starved tensor "
        "cores"},
    MetricInfo{"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", "Tensor Pipe Active", "%",
               kCompute, detail, "cycles the tensor pipe was busy, any MMA kind, as % of peak"},
    MetricInfo{"sm__inst_executed.avg.per_cycle_elapsed", "Executed Ipc Elapsed", "inst/cycle", kCompute,
               detail, "instructions per cycle per SM over the whole kernel, idle cycles included"},

    // Memory Workload Analysis.
    MetricInfo{"dram__bytes.sum.per_second", "DRAM Bandwidth", "byte/s", kBandwidth, detail,
               "bytes per second moved to and from DRAM; compare with the GPU's peak bandwidth"},
    MetricInfo{"gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed", "Mem Busy", "%",
               kBandwidth, detail, "the busiest memory unit's internal activity (L1, L2, DRAM) as % of peak"},
    MetricInfo{"gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed", "Max Bandwidth",
               "%", kBandwidth, detail, "the busiest interface between SMs, L1, L2 and DRAM as % of peak"},
    MetricInfo{"lts__t_sector_hit_rate.pct", "L2 Hit Rate", "%", kBandwidth, detail,
               "share of L2 sector lookups that hit; low means reused data comes back from DRAM"},
    MetricInfo{"l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate", "%", kBandwidth, detail,
               "share of L1 sector lookups that hit; low means little reuse within an SM"},
    MetricInfo{metric::global_load_sectors, "Global Load Sectors", "sector", kBandwidth, counter,
               "32-byte sectors read by global loads"},
    MetricInfo{metric::global_load_requests, "Global Load Requests", "request", kBandwidth, counter,
               "global load instructions issued to L1 (one per warp)"},
    MetricInfo{"lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 Cache Throughput", "%", kBandwidth,
               detail, "L2 activity as % of its peak"},
    MetricInfo{"l1tex__throughput.avg.pct_of_peak_sustained_active", "L1/TEX Cache Throughput", "%",
               kBandwidth, detail, "L1/TEX activity as % of its peak while the SM had work"},

    // Occupancy, launch and warp state.
    MetricInfo{"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy", "%", kLatency,
               detail, "active warps per SM as % of the maximum; few warps cannot hide memory latency"},
    MetricInfo{"sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy", "%", kLatency, detail,
               "the most warps per SM this launch allows (registers, shared memory, block size)"},
    MetricInfo{
        "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "Long Scoreboard Stalls", "%",
        kLatency, detail,
        "share of warp time spent waiting for global or local memory results; high means latency-bound"},
    MetricInfo{
        "launch__waves_per_multiprocessor", "Waves Per SM", "waves", kLatency, detail,
        "blocks / (SMs x blocks per SM); below 1 some SMs idle, a fractional part is a partial last wave"},
    MetricInfo{"launch__registers_per_thread", "Registers Per Thread", "register/thread", kLatency, detail,
               "registers each thread uses; many registers limit occupancy"},
};

}  // namespace

std::span<const MetricInfo> metric_table() { return kMetrics; }

const MetricInfo* find_metric(std::string_view name) {
  for (const MetricInfo& m : kMetrics)
    if (m.name == name) return &m;
  return nullptr;
}

std::string metrics_argument() {
  std::string out;
  for (const MetricInfo& m : kMetrics) {
    if (!out.empty()) out += ',';
    out += m.name;
  }
  return out;
}

std::optional<double> sm_pct(const KernelProfile& p) { return p.get(metric::sm_throughput); }

std::optional<double> memory_pct(const KernelProfile& p) { return p.get(metric::memory_throughput); }

std::optional<double> dram_pct(const KernelProfile& p) {
  if (auto v = p.get(metric::dram_throughput)) return v;
  return p.get(metric::dram_throughput_old);
}

}  // namespace ucut::profile
