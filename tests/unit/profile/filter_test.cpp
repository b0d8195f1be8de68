// tests/unit/profile/filter_test.cpp — engine/profile/filter.h: 3–6 metrics per class with meanings, the
// derived sectors/request, the degraded report from SOL alone, and the text and JSON renderings.
#include "engine/profile/filter.h"

#include <gtest/gtest.h>

#include "engine/profile/metrics.h"
#include "engine/profile/ncu_csv.h"
#include "fixture.h"

namespace ucut::profile {
namespace {

std::vector<KernelProfile> fixture_kernels() {
  return parse_ncu_csv(testing::read_fixture("fixture_ncu_raw_2kernels.csv")).kernels;
}

std::vector<std::string> labels(const FilteredProfile& f) {
  std::vector<std::string> out;
  for (const ShownMetric& m : f.metrics) out.push_back(m.label);
  return out;
}

FilteredProfile filtered(const KernelProfile& p, Bottleneck b) {
  Classification c;
  c.bottleneck = b;
  return filter(p, c);
}

TEST(ProfileFilter, ComputeKeepsPipesIssueAndIpc) {
  auto k = fixture_kernels();
  FilteredProfile f = filter(k[0], classify(k[0], prior_thresholds()));
  EXPECT_EQ(labels(f),
            (std::vector<std::string>{"SM Busy", "Issue Slots Busy", "Executed Ipc Active",
                                      "Tensor Pipe (GMMA)", "Tensor Pipe Active", "Executed Ipc Elapsed"}));
  EXPECT_DOUBLE_EQ(*f.duration_ns, 1234567);
  for (const ShownMetric& m : f.metrics) {
    EXPECT_FALSE(m.meaning.empty()) << m.label;
    EXPECT_FALSE(m.unit.empty()) << m.label;
  }
}

TEST(ProfileFilter, BandwidthKeepsTrafficHitRatesAndDerivesSectorsPerRequest) {
  auto k = fixture_kernels();
  FilteredProfile f = filter(k[1], classify(k[1], prior_thresholds()));
  // The copy kernel has no L1 hit rate (empty in the CSV), so L2 throughput takes the sixth place.
  EXPECT_EQ(labels(f), (std::vector<std::string>{"DRAM Bandwidth", "Mem Busy", "Max Bandwidth", "L2 Hit Rate",
                                                 "Global Load Sectors/Request", "L2 Cache Throughput"}));
  const ShownMetric& spr = f.metrics[4];
  EXPECT_DOUBLE_EQ(spr.value, 8);  // 4,194,304 sectors / 524,288 requests
  EXPECT_EQ(spr.unit, "sector/request");
  EXPECT_EQ(spr.name,
            "derived: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / "
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
}

TEST(ProfileFilter, NoSectorsPerRequestWithoutRequests) {
  auto k = fixture_kernels();
  FilteredProfile f = filtered(k[0], Bottleneck::memory_bandwidth);  // 0 requests: a GEMM using TMA
  for (const ShownMetric& m : f.metrics) EXPECT_NE(m.label, "Global Load Sectors/Request");
  EXPECT_EQ(f.metrics.size(), kMaxShownMetrics);
}

TEST(ProfileFilter, LatencyKeepsOccupancyWavesStallsRegisters) {
  auto k = fixture_kernels();
  FilteredProfile f = filtered(k[1], Bottleneck::memory_latency);
  EXPECT_EQ(labels(f),
            (std::vector<std::string>{"Achieved Occupancy", "Theoretical Occupancy", "Long Scoreboard Stalls",
                                      "Waves Per SM", "Registers Per Thread"}));
}

TEST(ProfileFilter, EveryClassKeepsThreeToSixOnAFullProfile) {
  for (const KernelProfile& p : fixture_kernels())
    for (Bottleneck b : {Bottleneck::compute, Bottleneck::memory_bandwidth, Bottleneck::memory_latency,
                         Bottleneck::unknown}) {
      size_t n = filtered(p, b).metrics.size();
      EXPECT_GE(n, 3u) << p.kernel << " " << enum_name(b);
      EXPECT_LE(n, kMaxShownMetrics) << p.kernel << " " << enum_name(b);
    }
}

TEST(ProfileFilter, KeepsOnlyPresentMetrics) {
  FilteredProfile f = filtered(testing::sol_profile("k", 80, 10, 10), Bottleneck::compute);
  EXPECT_TRUE(f.metrics.empty());
}

TEST(ProfileDegraded, MemoryBoundNearSolIsBandwidthBound) {
  DegradedInput in{"spmv_kernel", "ncu not installed", 52000, 64, sol::BoundKind::memory};
  FilteredProfile f = degraded(in, prior_thresholds());
  EXPECT_EQ(f.classification.bottleneck, Bottleneck::memory_bandwidth);
  EXPECT_EQ(*f.degraded, "ncu not installed");
  EXPECT_DOUBLE_EQ(*f.sol_pct, 64);
  EXPECT_TRUE(f.metrics.empty());
  EXPECT_NE(f.classification.reason.find("64.0% of SOL"), std::string::npos) << f.classification.reason;
}

TEST(ProfileDegraded, ComputeBoundNearSolIsCompute) {
  DegradedInput in{"gemm", "ERR_NVGPUCTRPERM", 1e6, 75, sol::BoundKind::compute};
  EXPECT_EQ(degraded(in, prior_thresholds()).classification.bottleneck, Bottleneck::compute);
}

TEST(ProfileDegraded, FarFromSolOrWithoutSolIsUnknown) {
  DegradedInput in{"k", "LibraryNotLoaded", 1e5, 12, sol::BoundKind::memory};
  FilteredProfile f = degraded(in, prior_thresholds());
  EXPECT_EQ(f.classification.bottleneck, Bottleneck::unknown);
  EXPECT_NE(f.classification.reason.find("memory-bound problem at 12.0% of SOL"), std::string::npos);
  in.sol_pct.reset();
  EXPECT_EQ(degraded(in, prior_thresholds()).classification.reason,
            "unknown: no counters and no analytic SOL");
  in.sol_pct = 90;
  in.roofline_bound.reset();
  EXPECT_EQ(degraded(in, prior_thresholds()).classification.bottleneck, Bottleneck::unknown);
}

TEST(ProfileRender, TextHasClassTimingAndOneLinePerMetric) {
  auto k = fixture_kernels();
  FilteredProfile f = filter(k[1], classify(k[1], prior_thresholds()));
  f.sol_pct = 81.5;
  std::string text = render_text(f);
  EXPECT_EQ(
      text.rfind(
          "fixture_copy_kernel(const float *, float *, int): memory_bandwidth — memory-bandwidth-bound", 0),
      0u)
      << text;
  EXPECT_NE(text.find("  duration 52.42 us; analytic SOL 81.5% (t_SOL/t_measured)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  DRAM Bandwidth: 4100.0 GB/s — "), std::string::npos) << text;
  EXPECT_NE(text.find("  Global Load Sectors/Request: 8 sector/request — "), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2 + 6);
}

TEST(ProfileRender, DegradedText) {
  FilteredProfile f =
      degraded({"k", "ncu not installed", 2.5e6, 64, sol::BoundKind::memory}, prior_thresholds());
  std::string text = render_text(f);
  EXPECT_NE(text.find("  no counters: ncu not installed\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  duration 2.500 ms; analytic SOL 64.0%"), std::string::npos) << text;
}

TEST(ProfileRender, Json) {
  auto k = fixture_kernels();
  FilteredProfile f = filter(k[0], classify(k[0], prior_thresholds()));
  nlohmann::json j = render_json(f);
  EXPECT_EQ(j["kernel"], k[0].kernel);
  EXPECT_EQ(j["bottleneck"], "compute");
  EXPECT_EQ(j["sm_pct"], 82.5);
  EXPECT_EQ(j["dram_pct"], 20.3);
  EXPECT_TRUE(j["sol_pct"].is_null());
  EXPECT_TRUE(j["degraded"].is_null());
  ASSERT_EQ(j["metrics"].size(), 6u);
  EXPECT_EQ(j["metrics"][0]["name"], "sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(j["metrics"][0]["label"], "SM Busy");
  EXPECT_EQ(j["metrics"][0]["value"], 78);
  EXPECT_EQ(j["metrics"][0]["unit"], "%");
  EXPECT_FALSE(j["metrics"][0]["meaning"].get<std::string>().empty());
}

TEST(ProfileRender, JsonReadsBackToTheSameTextAndEveryMetricRendersFromJson) {
  auto k = fixture_kernels();
  FilteredProfile f = filter(k[0], classify(k[0], prior_thresholds()));
  std::optional<FilteredProfile> back = filtered_from_json(render_json(f));
  ASSERT_TRUE(back);
  EXPECT_EQ(render_text(*back), render_text(f));
  EXPECT_FALSE(filtered_from_json(nlohmann::json{{"kernel", "k"}}));
  EXPECT_EQ(render_all_text(k[0].kernel, render_all_json(k[0])), render_all_text(k[0]));
}

}  // namespace
}  // namespace ucut::profile
