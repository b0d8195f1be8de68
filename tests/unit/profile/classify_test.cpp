// tests/unit/profile/classify_test.cpp — engine/profile/classify.h: clear compute, bandwidth and latency
// cases, the tie rules at τ and at SM% = DRAM%, missing counters, and the fixture's two kernels.
#include "engine/profile/classify.h"

#include <gtest/gtest.h>

#include "engine/profile/ncu_csv.h"
#include "fixture.h"

namespace ucut::profile {
namespace {

using testing::sol_profile;

Thresholds tau(double sm, double dram, double mem) {
  Thresholds t;
  t.sm_pct = sm;
  t.dram_pct = dram;
  t.mem_pct = mem;
  t.source = "test thresholds";
  return t;
}

Bottleneck cls(double sm, double dram, double mem, const Thresholds& t = prior_thresholds()) {
  return classify(sol_profile("k", sm, dram, mem), t).bottleneck;
}

TEST(ProfileClassify, ClearCases) {
  EXPECT_EQ(cls(85, 10, 20), Bottleneck::compute);
  EXPECT_EQ(cls(12, 88, 90), Bottleneck::memory_bandwidth);
  EXPECT_EQ(cls(5, 8, 9), Bottleneck::memory_latency);
}

TEST(ProfileClassify, ReasonQuotesTheNumbers) {
  Classification c = classify(sol_profile("k", 12, 88.24, 90), prior_thresholds());
  EXPECT_EQ(c.reason,
            "memory-bandwidth-bound: DRAM throughput 88.2% >= τ 30.0% (SM 12.0%, DRAM 88.2%, Memory 90.0%)");
  EXPECT_DOUBLE_EQ(*c.dram_pct, 88.24);
  c = classify(sol_profile("k", 5, 8, 9), prior_thresholds());
  EXPECT_NE(c.reason.find("every unit below its τ"), std::string::npos) << c.reason;
}

TEST(ProfileClassify, ThresholdsAreInclusive) {
  EXPECT_EQ(cls(30, 10, 10), Bottleneck::compute);
  EXPECT_EQ(cls(10, 30, 10), Bottleneck::memory_bandwidth);
  EXPECT_EQ(cls(10, 10, 30), Bottleneck::memory_bandwidth);
  EXPECT_EQ(cls(29.99, 29.99, 29.99), Bottleneck::memory_latency);
}

TEST(ProfileClassify, SmEqualToDramIsCompute) {
  EXPECT_EQ(cls(60, 60, 60), Bottleneck::compute);
  EXPECT_EQ(cls(60, 60.1, 60), Bottleneck::memory_bandwidth);
}

TEST(ProfileClassify, MemoryAloneMakesItBandwidthBound) {
  // DRAM below τ but L1/L2 busy: Memory% carries it.
  EXPECT_EQ(cls(20, 15, 75), Bottleneck::memory_bandwidth);
}

TEST(ProfileClassify, BusySmBelowDramButMemoryUnitsBelowTheirTau) {
  // SM 40 >= τ_sm 30 but below DRAM 45, which is under its own τ 50: the SMs are the busy unit.
  Classification c = classify(sol_profile("k", 40, 45, 45), tau(30, 50, 50));
  EXPECT_EQ(c.bottleneck, Bottleneck::compute);
  EXPECT_NE(c.reason.find("memory units are below theirs"), std::string::npos) << c.reason;
}

TEST(ProfileClassify, LearnedThresholdsChangeTheAnswer) {
  EXPECT_EQ(cls(35, 5, 5, tau(30, 30, 30)), Bottleneck::compute);
  EXPECT_EQ(cls(35, 5, 5, tau(40, 30, 30)), Bottleneck::memory_latency);
}

TEST(ProfileClassify, MissingCounters) {
  EXPECT_EQ(cls(-1, -1, -1), Bottleneck::unknown);
  EXPECT_EQ(cls(-1, 10, 10), Bottleneck::unknown);  // SM% unknown: compute cannot be ruled out
  EXPECT_EQ(cls(10, -1, -1), Bottleneck::unknown);  // memory unknown: bandwidth cannot be ruled out
  EXPECT_EQ(cls(-1, 50, -1), Bottleneck::memory_bandwidth);
  EXPECT_EQ(cls(50, -1, 10), Bottleneck::compute);
  EXPECT_EQ(cls(10, -1, 10), Bottleneck::memory_latency);
  EXPECT_EQ(classify(sol_profile("k", -1, -1, -1), prior_thresholds()).reason,
            "unknown: the Speed-of-Light counters are missing (SM n/a, DRAM n/a, Memory n/a)");
}

TEST(ProfileClassify, FixtureKernels) {
  NcuCsv csv = parse_ncu_csv(testing::read_fixture("fixture_ncu_raw_2kernels.csv"));
  ASSERT_EQ(csv.kernels.size(), 2u);
  EXPECT_EQ(classify(csv.kernels[0], prior_thresholds()).bottleneck, Bottleneck::compute);
  EXPECT_EQ(classify(csv.kernels[1], prior_thresholds()).bottleneck, Bottleneck::memory_bandwidth);
}

TEST(ProfileClassify, BottleneckNames) {
  for (Bottleneck b :
       {Bottleneck::compute, Bottleneck::memory_bandwidth, Bottleneck::memory_latency, Bottleneck::unknown})
    EXPECT_EQ(parse_enum<Bottleneck>(enum_name(b)), b);
  EXPECT_EQ(enum_name(Bottleneck::memory_latency), "memory_latency");
  EXPECT_FALSE(parse_enum<Bottleneck>("latency"));
}

}  // namespace
}  // namespace ucut::profile
