// tests/unit/profile/metrics_test.cpp — engine/profile/metrics.h: the table covers facts/peers.md §3's
// metrics once each, every row says what it means, and --metrics lists them all.
#include "engine/profile/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace ucut::profile {
namespace {

TEST(ProfileMetrics, NamesAreUniqueAndEveryRowIsDescribed) {
  std::set<std::string_view> names;
  for (const MetricInfo& m : metric_table()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_FALSE(m.label.empty()) << m.name;
    EXPECT_FALSE(m.unit.empty()) << m.name;
    EXPECT_FALSE(m.meaning.empty()) << m.name;
    EXPECT_NE(m.classes, 0u) << m.name;
  }
}

TEST(ProfileMetrics, CoversTheFactsList) {
  for (std::string_view n : {
           "sm__throughput.avg.pct_of_peak_sustained_elapsed",
           "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
           "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
           "dram__throughput.avg.pct_of_peak_sustained_elapsed",
           "l1tex__throughput.avg.pct_of_peak_sustained_active",
           "lts__throughput.avg.pct_of_peak_sustained_elapsed",
           "gpu__time_duration.sum",
           "sm__inst_executed.avg.per_cycle_active",
           "sm__inst_issued.avg.pct_of_peak_sustained_elapsed",
           "sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed",
           "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed",
           "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
           "dram__bytes.sum.per_second",
           "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
           "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed",
           "l1tex__t_sector_hit_rate.pct",
           "lts__t_sector_hit_rate.pct",
           "sm__warps_active.avg.pct_of_peak_sustained_active",
           "sm__maximum_warps_per_active_cycle_pct",
           "launch__waves_per_multiprocessor",
           "launch__registers_per_thread",
           "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       })
    EXPECT_NE(find_metric(n), nullptr) << n;
  EXPECT_EQ(find_metric("sm__nonexistent.sum"), nullptr);
}

TEST(ProfileMetrics, ArgumentIsTheCommaJoinedTable) {
  std::string arg = metrics_argument();
  EXPECT_EQ(arg.find(' '), std::string::npos);
  size_t commas = std::count(arg.begin(), arg.end(), ',');
  EXPECT_EQ(commas + 1, metric_table().size());
  EXPECT_EQ(arg.rfind(std::string(metric_table().front().name), 0), 0u);
}

TEST(ProfileMetrics, DramPrefersTheCurrentName) {
  KernelProfile p;
  p.metrics[std::string(metric::dram_throughput_old)] = 10;
  EXPECT_DOUBLE_EQ(*dram_pct(p), 10);
  p.metrics[std::string(metric::dram_throughput)] = 20;
  EXPECT_DOUBLE_EQ(*dram_pct(p), 20);
  EXPECT_FALSE(sm_pct(p));
  EXPECT_FALSE(memory_pct(p));
}

}  // namespace
}  // namespace ucut::profile
